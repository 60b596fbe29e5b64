// ffi.StructuralMutator: the type with upstream's layout, its hook columns,
// and the globals that dispatch through a mutator's vtable (this library's
// own mutation engine is not implemented yet).
#include <catch2/catch.hpp>

#include <cstring>

#include "test_util.h"
#include "core/structural_mutate.h"

using namespace test_util;
using tvmffi::core::Error;
using tvmffi::core::Function;
using tvmffi::core::ObjectRef;

TEST_CASE("StructuralMutator: the type and its hook columns exist", "[structural_mutate]") {
  TVMFFIByteArray key = {"ffi.StructuralMutator", 21};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&key, &index) == 0);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  REQUIRE(info->metadata != nullptr);
  CHECK(info->metadata->total_size == 40);  // header, vtable, def_region_mode
  CHECK(info->metadata->creator == nullptr);  // made only by an engine
  for (const char* name : {"__s_mutate__", "__s_maybe_inplace_mutate__", "__s_visit__"}) {
    TVMFFIByteArray n = {name, std::strlen(name)};
    CHECK(TVMFFIGetTypeAttrColumn(&n) != nullptr);
  }
}

namespace {

using tvmffi::core::Any;
using tvmffi::core::AnyView;
using tvmffi::core::MakeObject;
using tvmffi::core::StructuralMutatorObj;

// A mutator as a kernel's engine would make one: ints are doubled, 0 is
// "unchanged", a negative int is an error; the var remap is one slot.
struct FakeMutator : StructuralMutatorObj {
  FakeMutator() : StructuralMutatorObj(&kVTable) {}
  Any remapped;
  static TVMFFIAny Mutate(StructuralMutatorObj*, TVMFFIAny value) noexcept {
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    if (value.type_index == kTVMFFIInt && value.v_int64 < 0) {
      Error e("ValueError", "negative");
      out.type_index = kTVMFFIError;
      out.v_obj = static_cast<TVMFFIObject*>(e.object()->handle());
      TVMFFIObjectIncRef(out.v_obj);
    } else if (value.type_index == kTVMFFIInt && value.v_int64 == 0) {
      out.type_index = kTVMFFIUnchanged;
    } else {
      out.type_index = kTVMFFIInt;
      out.v_int64 = value.v_int64 * 2;
    }
    return out;
  }
  static TVMFFIAny RemapGet(StructuralMutatorObj* self, TVMFFIAny) noexcept {
    return Any(static_cast<FakeMutator*>(self)->remapped).Release();
  }
  static TVMFFIAny RemapSet(StructuralMutatorObj* self, TVMFFIAny, TVMFFIAny mapped) noexcept {
    static_cast<FakeMutator*>(self)->remapped = Any(AnyView::FromRaw(mapped));
    TVMFFIAny none;
    std::memset(&none, 0, sizeof(none));
    return none;
  }
  static const VTable kVTable;
};

const StructuralMutatorObj::VTable FakeMutator::kVTable = {&FakeMutator::Mutate,
                                                           &FakeMutator::Mutate,
                                                           &FakeMutator::RemapGet,
                                                           &FakeMutator::RemapSet};

}  // namespace

TEST_CASE("StructuralMutator globals dispatch through the mutator's vtable",
          "[structural_mutate]") {
  Any m(ObjectRef(MakeObject<FakeMutator>()));
  CHECK(Call("ffi.StructuralMutatorMutate", m, int64_t(21)).As<int64_t>() == 42);
  Any same = Call("ffi.StructuralMutatorMutate", m, int64_t(0));  // Unchanged: the input
  CHECK(same.type_index() == kTVMFFIInt);
  CHECK(same.As<int64_t>() == 0);
  CHECK(ThrownBy([&] { Call("ffi.StructuralMutatorMutate", m, int64_t(-1)); }) ==
        "ValueError: negative");
  CHECK(Call("ffi.StructuralMutatorVarRemapGet", m, int64_t(1)).type_index() == kTVMFFINone);
  Call("ffi.StructuralMutatorVarRemapSet", m, int64_t(1), std::string("mapped"));
  CHECK(Call("ffi.StructuralMutatorVarRemapGet", m, int64_t(1)).As<std::string>() == "mapped");
  CHECK(Call("ffi.StructuralMutatorDefRegionKind", m).As<int64_t>() == 0);
  Function read_kind = Function::FromTyped(
      [&]() { return Call("ffi.StructuralMutatorDefRegionKind", m).As<int64_t>(); });
  CHECK(Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(2), read_kind).As<int64_t>() ==
        2);
  CHECK(Call("ffi.StructuralMutatorDefRegionKind", m).As<int64_t>() == 0);  // restored
  // Inside a Pattern region another kind has no effect.
  Function nested = Function::FromTyped([&]() {
    return Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(2), read_kind);
  });
  CHECK(Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(1), nested).As<int64_t>() == 1);
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(7), read_kind);
        }) ==
        "ValueError: ffi.StructuralMutatorWithDefRegionKind: unknown definition region kind 7");
  CHECK(ThrownBy([] { Call("ffi.StructuralMutatorDefRegionKind", int64_t(1)); }) ==
        "TypeError: In function ffi.StructuralMutatorDefRegionKind: argument 1: expected "
        "ffi.StructuralMutator, got int");
}

// ffi.StructuralMutator: the type with upstream's layout, its hook columns,
// the built-in types' hooks, the globals that dispatch through a mutator's
// vtable, the default mutation, and the engines ffi.StructuralMap and
// ffi.StructuralMutate.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_mutate.h>

using namespace test_util;
using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Array;
using tvm::ffi::Error;
using tvm::ffi::FStructuralMutateABI;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::make_object;
using tvm::ffi::Map;
using tvm::ffi::ObjectRef;
using tvm::ffi::String;
using tvm::ffi::StructuralMutatorObj;
using tvm::ffi::StructuralMutatorVTable;

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

// A mutator as a kernel's engine would make one: ints are doubled, 0 is
// "unchanged", a negative int is an error; the var remap is one slot.
struct FakeMutator : StructuralMutatorObj {
  FakeMutator() : StructuralMutatorObj(&kVTable) {}
  Any remapped;
  static TVMFFIAny Mutate(StructuralMutatorObj*, AnyView value) noexcept {
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    const TVMFFIAny* raw = RawOf(value);
    if (raw->type_index == kTVMFFIInt && raw->v_int64 < 0) {
      return AnyUnsafe::MoveAnyToTVMFFIAny(Any(Error("ValueError", "negative", "")));
    } else if (raw->type_index == kTVMFFIInt && raw->v_int64 == 0) {
      out.type_index = kTVMFFIUnchanged;
    } else {
      out.type_index = kTVMFFIInt;
      out.v_int64 = raw->v_int64 * 2;
    }
    return out;
  }
  static TVMFFIAny RemapGet(StructuralMutatorObj* self, AnyView) noexcept {
    return AnyUnsafe::MoveAnyToTVMFFIAny(Any(static_cast<FakeMutator*>(self)->remapped));
  }
  static TVMFFIAny RemapSet(StructuralMutatorObj* self, AnyView, AnyView mapped) noexcept {
    static_cast<FakeMutator*>(self)->remapped = Any(mapped);
    TVMFFIAny none;
    std::memset(&none, 0, sizeof(none));
    return none;
  }
  static const StructuralMutatorVTable kVTable;
};

const StructuralMutatorVTable FakeMutator::kVTable = {&FakeMutator::Mutate, &FakeMutator::Mutate,
                                                      &FakeMutator::RemapGet,
                                                      &FakeMutator::RemapSet};

}  // namespace

TEST_CASE("StructuralMutator globals dispatch through the mutator's vtable",
          "[structural_mutate]") {
  Any m(ObjectRef(make_object<FakeMutator>()));
  CHECK(Call("ffi.StructuralMutatorMutate", m, int64_t(21)).cast<int64_t>() == 42);
  Any same = Call("ffi.StructuralMutatorMutate", m, int64_t(0));  // Unchanged: the input
  CHECK(same.type_index() == kTVMFFIInt);
  CHECK(same.cast<int64_t>() == 0);
  CHECK(ThrownBy([&] { Call("ffi.StructuralMutatorMutate", m, int64_t(-1)); }) ==
        "ValueError: negative");
  CHECK(Call("ffi.StructuralMutatorVarRemapGet", m, int64_t(1)).type_index() == kTVMFFINone);
  Call("ffi.StructuralMutatorVarRemapSet", m, int64_t(1), std::string("mapped"));
  CHECK(Call("ffi.StructuralMutatorVarRemapGet", m, int64_t(1)).cast<std::string>() == "mapped");
  CHECK(Call("ffi.StructuralMutatorDefRegionKind", m).cast<int64_t>() == 0);
  Function read_kind = Function::FromTyped(
      [&]() { return Call("ffi.StructuralMutatorDefRegionKind", m).cast<int64_t>(); });
  CHECK(Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(2), read_kind).cast<int64_t>() ==
        2);
  CHECK(Call("ffi.StructuralMutatorDefRegionKind", m).cast<int64_t>() == 0);  // restored
  // Inside a Pattern region another kind has no effect.
  Function nested = Function::FromTyped([&]() {
    return Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(2), read_kind);
  });
  CHECK(Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(1), nested).cast<int64_t>() == 1);
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralMutatorWithDefRegionKind", m, int64_t(7), read_kind);
        }) ==
        "ValueError: ffi.StructuralMutatorWithDefRegionKind: unknown definition region kind 7");
  CHECK(ThrownBy([] { Call("ffi.StructuralMutatorDefRegionKind", int64_t(1)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`ffi.StructuralMutatorDefRegionKind(0: ffi.StructuralMutator) -> int`. Expected "
        "`ffi.StructuralMutator` but got `int`");
}

// The same vtable reached through the C++ members of StructuralMutatorObj.
TEST_CASE("StructuralMutatorObj's members dispatch through the vtable", "[structural_mutate]") {
  auto owner = make_object<FakeMutator>();
  StructuralMutatorObj* m = owner.get();  // FakeMutator's statics hide the members
  CHECK(m->Mutate(AnyView(int64_t(21))).as_or_throw<int64_t>() == 42);
  CHECK(m->Mutate(AnyView(int64_t(0))).IsUnchanged());
  auto failed = m->MutateExpected(AnyView(int64_t(-3)));
  REQUIRE(failed.is_err());
  CHECK(failed.error().kind() == "ValueError");
  CHECK(failed.error().message() == "negative");
  CHECK(ThrownBy([&] { m->Mutate(AnyView(int64_t(-3))); }) == "ValueError: negative");
  CHECK(m->VarRemapGetExpected(AnyView(int64_t(1))).value().type_index() == kTVMFFINone);
  REQUIRE(m->VarRemapSetExpected(AnyView(int64_t(1)), AnyView(int64_t(9))).is_ok());
  CHECK(m->VarRemapGetExpected(AnyView(int64_t(1))).value().cast<int64_t>() == 9);
  CHECK(m->def_region_kind() == kTVMFFIDefRegionKindNone);
  int64_t seen = m->WithDefRegionKind(kTVMFFIDefRegionKindPattern, [&] {
    // Inside a Pattern region another kind has no effect.
    return m->WithDefRegionKind(kTVMFFIDefRegionKindNone,
                                [&] { return static_cast<int64_t>(m->def_region_kind()); });
  });
  CHECK(seen == kTVMFFIDefRegionKindPattern);
  CHECK(m->def_region_kind() == kTVMFFIDefRegionKindNone);  // restored
}

namespace {

// The native hook of `column` registered for `type_index` (an opaque pointer).
FStructuralMutateABI HookOf(const char* column, int32_t type_index) {
  TVMFFIByteArray n = {column, std::strlen(column)};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&n);
  REQUIRE(col != nullptr);
  int32_t off = type_index - col->begin_index;
  REQUIRE(off >= 0);
  REQUIRE(off < col->size);
  REQUIRE(col->data[off].type_index == kTVMFFIOpaquePtr);
  return reinterpret_cast<FStructuralMutateABI>(col->data[off].v_ptr);
}

// The value an owned TVMFFIAny holds (the Any takes the reference).
Any Adopt(TVMFFIAny raw) { return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw); }

Any Entry(int32_t type_index, Function fn) { return Call("ffi.Array", int64_t(type_index), fn); }

std::string Repr(const Any& v) { return Call("ffi.ReprPrint", v).cast<std::string>(); }

// Calls `global` with the root moved in (an ObjectRValueRef argument), as
// Python's root._move() does; the root's reference is the callee's.
Any CallMoved(const char* global, Any root, std::vector<Any> rest) {
  TVMFFIAny owned = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(root));
  TVMFFIObjectHandle slot = owned.v_obj;
  TVMFFIAny ref;
  std::memset(&ref, 0, sizeof(ref));
  ref.type_index = kTVMFFIObjectRValueRef;
  ref.v_ptr = &slot;
  std::vector<AnyView> args{AnyView::CopyFromTVMFFIAny(ref)};
  for (const Any& a : rest) args.push_back(AnyView(a));
  Any result = CallPacked(Function::GetGlobalRequired(global), args.data(),
                          static_cast<int32_t>(args.size()));
  if (slot != nullptr) TVMFFIObjectDecRef(slot);  // not taken: ours to release
  return result;
}

}  // namespace

// Code built against upstream's headers mutates these types through the
// hooks (without them it asked for their __ffi_shallow_copy__ and failed).
TEST_CASE("StructuralMutator: the built-in types' hooks", "[structural_mutate]") {
  auto m = make_object<FakeMutator>();
  for (int32_t leaf : {kTVMFFIStr, kTVMFFIBytes, kTVMFFIBigInt}) {
    for (const char* column : {"__s_mutate__", "__s_maybe_inplace_mutate__"}) {
      CHECK(HookOf(column, leaf)(m.get(), AnyView()).type_index == kTVMFFIUnchanged);
    }
  }

  // Array: copy on write; the input keeps its items.
  Array<int64_t> items{1, 0, 3};
  Any changed = Adopt(HookOf("__s_mutate__", kTVMFFIArray)(m.get(), AnyView(items)));
  REQUIRE(changed.type_index() == kTVMFFIArray);
  Array<int64_t> out = changed.cast<Array<int64_t>>();
  CHECK(out.get() != items.get());
  CHECK((out[0] == 2 && out[1] == 0 && out[2] == 6));
  CHECK((items[0] == 1 && items[1] == 0 && items[2] == 3));
  // Nothing changed (0 is "unchanged"): the Unchanged marker, no copy.
  Array<int64_t> zeros{0, 0};
  CHECK(HookOf("__s_mutate__", kTVMFFIArray)(m.get(), AnyView(zeros)).type_index ==
        kTVMFFIUnchanged);
  // An item's error is the result.
  Array<int64_t> bad{1, -1};
  Any err = Adopt(HookOf("__s_mutate__", kTVMFFIArray)(m.get(), AnyView(bad)));
  CHECK(err.type_index() == kTVMFFIError);
  // In place: the same array, its items replaced.
  Array<int64_t> own{5, 7};
  Any same = Adopt(HookOf("__s_maybe_inplace_mutate__", kTVMFFIArray)(m.get(), AnyView(own)));
  CHECK(same.cast<Array<int64_t>>().get() == own.get());
  CHECK((own[0] == 10 && own[1] == 14));

  // Map: the values change, the keys stay; the input is untouched.
  Map<String, int64_t> map{{"a", 1}, {"b", 0}};
  Any mapped = Adopt(HookOf("__s_mutate__", kTVMFFIMap)(m.get(), AnyView(map)));
  REQUIRE(mapped.type_index() == kTVMFFIMap);
  Map<String, int64_t> new_map = mapped.cast<Map<String, int64_t>>();
  CHECK(new_map.get() != map.get());
  CHECK(new_map.at("a") == 2);
  CHECK(new_map.at("b") == 0);
  CHECK(map.at("a") == 1);
  for (int32_t container : {kTVMFFIList, kTVMFFIDict}) {
    HookOf("__s_mutate__", container);
    HookOf("__s_maybe_inplace_mutate__", container);
  }
}

TEST_CASE("StructuralMutatorDefaultMutate: items and map values through the vtable",
          "[structural_mutate]") {
  Any m(ObjectRef(make_object<FakeMutator>()));
  Any arr(Array<Any>{Any(int64_t(1)), Any(int64_t(0)), Any(int64_t(3))});
  Any out = Call("ffi.StructuralMutatorDefaultMutate", m, arr);
  CHECK(Repr(out) == "(2, 0, 6)");
  CHECK(HandleOf(out) != HandleOf(arr));  // shared: a copy
  CHECK(Repr(arr) == "(1, 0, 3)");
  Any unchanged(Array<Any>{Any(int64_t(0))});
  CHECK(HandleOf(Call("ffi.StructuralMutatorDefaultMutate", m, unchanged)) == HandleOf(unchanged));
  Any map(Map<Any, Any>{{Any(int64_t(5)), Any(int64_t(7))}});
  CHECK(Repr(Call("ffi.StructuralMutatorDefaultMutate", m, map)) == "{5: 14}");  // keys stay
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralMutatorDefaultMutate", m, Any(Array<Any>{Any(int64_t(-1))}));
        }) == "ValueError: negative");
}

TEST_CASE("StructuralMap: order, copy on write, in place when given away", "[structural_mutate]") {
  std::vector<std::string> log;
  Function inc = Function::FromTyped([&](int64_t v) {
    log.push_back(std::to_string(v));
    return v + 1;
  });
  Function arr_cb = Function::FromTyped([&](Any v) {
    log.push_back(Repr(v));
    return v;
  });
  Any inner(Array<Any>{Any(int64_t(1))});
  Any root(Array<Any>{inner, Any(int64_t(2))});
  Any cbs = Call("ffi.Array", Entry(kTVMFFIArray, arr_cb), Entry(kTVMFFIInt, inc));
  Any post = Call("ffi.StructuralMap", root, cbs, Call("ffi.Array"), int64_t(1));
  CHECK(log == std::vector<std::string>{"1", "(2,)", "2", "((2,), 3)"});
  CHECK(Repr(post) == "((2,), 3)");
  CHECK(Repr(root) == "((1,), 2)");  // held here: copied, not changed
  log.clear();
  Any pre = Call("ffi.StructuralMap", root, cbs, Call("ffi.Array"), int64_t(0));
  CHECK(log == std::vector<std::string>{"((1,), 2)", "(1,)", "1", "2"});
  CHECK(Repr(pre) == "((2,), 3)");
  // Nothing changed: the root itself.
  Function keep = Function::FromTyped([](int64_t v) { return v; });
  Any same = Call("ffi.StructuralMap", root, Call("ffi.Array", Entry(kTVMFFIInt, keep)),
                  Call("ffi.Array"), int64_t(1));
  CHECK(HandleOf(same) == HandleOf(root));
  // Given away, a root owned by nobody else is changed in place, and so is
  // a child it alone holds; a child held elsewhere is copied.
  Any shared_child(List<Any>{Any(int64_t(10))});
  Any owned(List<Any>{Any(List<Any>{Any(int64_t(20))}), shared_child});
  const void* owned_handle = HandleOf(owned);
  Any moved = CallMoved("ffi.StructuralMap", std::move(owned),
                        {Call("ffi.Array", Entry(kTVMFFIInt, inc)), Call("ffi.Array"),
                         Any(int64_t(1))});
  CHECK(HandleOf(moved) == owned_handle);
  CHECK(Repr(moved) == "[[21], [11]]");
  CHECK(Repr(shared_child) == "[10]");
  CHECK(ThrownBy([&] { Call("ffi.StructuralMap", root, cbs, Call("ffi.Array"), int64_t(2)); }) ==
        "ValueError: ffi.StructuralMap: order must be 0 (pre-order) or 1 (post-order), got 2");
}

TEST_CASE("StructuralMutate: callbacks own their values; errors and cycles",
          "[structural_mutate]") {
  std::vector<int64_t> modes;
  // An Array callback mutates its first item through the mutator and adds 10.
  Function arr_cb = Function::FromTyped([&](Any v, Any mutator, int64_t mode) {
    modes.push_back(mode);
    Any first = Call("ffi.ArrayGetItem", v, int64_t(0));
    return Call("ffi.Array", Call("ffi.StructuralMutatorMutate", mutator, first), int64_t(10));
  });
  Function int_cb = Function::FromTyped([](int64_t v, Any) { return v * 3; });
  Any cbs = Call("ffi.Array", Call("ffi.Array", int64_t(kTVMFFIArray), arr_cb, true),
                 Entry(kTVMFFIInt, int_cb));
  Any root(Array<Any>{Any(int64_t(1)), Any(int64_t(2))});
  CHECK(Repr(Call("ffi.StructuralMutate", root, cbs)) == "(3, 10)");
  Any moved = CallMoved("ffi.StructuralMutate", Any(Array<Any>{Any(int64_t(4))}), {cbs});
  CHECK(Repr(moved) == "(12, 10)");
  CHECK(modes == std::vector<int64_t>{0, 1});  // shared, then given away
  // Unmatched values take the default mutation: ints inside a Map's values.
  Any map(Map<Any, Any>{{Any("k"), Any(Array<Any>{Any(int64_t(2)), Any("s")})}});
  CHECK(Repr(Call("ffi.StructuralMutate", map, Call("ffi.Array", Entry(kTVMFFIInt, int_cb)))) ==
        "{\"k\": (6, \"s\")}");
  Function fail = Function::FromTyped([](int64_t, Any) -> int64_t {
    TVM_FFI_THROW(ValueError) << "no ints";
  });
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralMutate", root, Call("ffi.Array", Entry(kTVMFFIInt, fail)));
        }) == "ValueError: no ints");
  List<Any> cyc{Any(int64_t(1))};
  cyc.push_back(Any(cyc));
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralMutate", Any(cyc), Call("ffi.Array", Entry(kTVMFFIInt, int_cb)));
        }).rfind("ValueError: ffi.StructuralMutate: ", 0) == 0);
  cyc.clear();
  CHECK(ThrownBy([&] { Call("ffi.StructuralMutate", root, Call("ffi.Array", int64_t(1))); }) ==
        "TypeError: ffi.StructuralMutate: callback entry 0 must be a (type_index, "
        "function[, takes_inplace_mode]) tuple");
}

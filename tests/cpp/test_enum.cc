// Enumeration types: ffi.Enum, ffi.IntEnum, ffi.StrEnum, ffi.EnumState, and
// tvm::ffi::reflection::EnumDef registering members of C++ enum types.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "test_util.h"
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using namespace test_util;

namespace {

const TVMFFITypeInfo* InfoOf(const char* key) {
  TVMFFIByteArray name = {key, std::strlen(key)};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&name, &index) == 0);
  return TVMFFIGetTypeInfo(index);
}

std::string Key(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

// name -> (offset, flags) of the type's own fields.
std::map<std::string, std::pair<int64_t, int64_t>> Fields(const TVMFFITypeInfo* info) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  for (int32_t i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo& f = info->fields[i];
    out[std::string(f.name.data, f.name.size)] = {f.offset, f.flags};
  }
  return out;
}

// enumtest.Shade (plain) with Light and Dark; enumtest.Size (IntEnum) with
// small=1 and big=8; enumtest.Sign (StrEnum), members defined later (as
// Python defines them); enumtest.Holder with fields of Size and Sign;
// enumtest.Bogus, whose enum state column entry is not an EnumState.
class ShadeObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("enumtest.Shade", ShadeObj, EnumObj);
};
class SizeObj : public IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("enumtest.Size", SizeObj, IntEnumObj);
};
class SignObj : public StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("enumtest.Sign", SignObj, StrEnumObj);
};
class BogusObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("enumtest.Bogus", BogusObj, EnumObj);
};
using Size = ObjectRefOf<SizeObj>;
using Sign = ObjectRefOf<SignObj>;
class HolderObj : public Object {
 public:
  Size size;
  Sign sign;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("enumtest.Holder", HolderObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<ShadeObj>();
  refl::EnumDef<ShadeObj>("Light").set_attr("lum", int64_t(90));
  refl::EnumDef<ShadeObj>("Dark").set_attr("lum", int64_t(10)).set_attr("tag", String("d"));
  refl::ObjectDef<SizeObj>();
  refl::EnumDef<SizeObj>("small", 1);
  refl::EnumDef<SizeObj>("big", 8);
  refl::ObjectDef<SignObj>();
  refl::ObjectDef<BogusObj>().def_type_attr("__ffi_enum__", int64_t(7));
  refl::ObjectDef<HolderObj>().def_ro("size", &HolderObj::size).def_ro("sign", &HolderObj::sign);
}

// The enum state of a type, when it has one.
std::optional<EnumState> StateOf(int32_t type_index) {
  return type_attr::kEnumState.ValueFrom(refl::TypeAttrColumn(type_attr::kEnumState)[type_index]);
}

}  // namespace

TEST_CASE("Enum: EnumDef registers members in the type's EnumState", "[enum]") {
  std::optional<EnumState> state = StateOf(ShadeObj::RuntimeTypeIndex());
  REQUIRE(state.has_value());
  REQUIRE((*state)->entries.size() == 2);
  CHECK((*state)->indexes.size() == 4);
  Enum light = EnumObj::_GetByStrIndex<ShadeObj>("Light");
  Enum dark = EnumObj::_GetByIntIndex<ShadeObj>(1);
  CHECK(light.same_as((*state)->entries[0]));
  CHECK(dark.same_as((*state)->entries[1]));
  CHECK(light.type_index() == ShadeObj::RuntimeTypeIndex());
  CHECK(light->_int_index == 0);
  CHECK(dark->_int_index == 1);
  CHECK(dark->_str_index == "Dark");
  // By type index, as Python finds them.
  CHECK(EnumObj::_GetByStrIndex(ShadeObj::RuntimeTypeIndex(), "Dark").same_as(dark));
  CHECK(EnumObj::_GetByIntIndex(ShadeObj::RuntimeTypeIndex(), 0).same_as(light));
  // The attributes: one column per name, keyed by member.
  Dict<ObjectRef, Any> lum = (*state)->attrs.at("lum");
  CHECK(lum.size() == 2);
  CHECK(lum.at(light).cast<int64_t>() == 90);
  CHECK(lum.at(dark).cast<int64_t>() == 10);
  Dict<ObjectRef, Any> tag = (*state)->attrs.at("tag");
  CHECK(tag.size() == 1);
  CHECK(tag.at(dark).cast<std::string>() == "d");
  CHECK(refl::EnumDef<ShadeObj>::IsDefined("Dark"));
  CHECK_FALSE(refl::EnumDef<ShadeObj>::IsDefined("Grey"));

  // An IntEnum's int index is the one given, not its position.
  CHECK(EnumObj::_GetByIntIndex<SizeObj>(8)->_str_index == "big");
  CHECK(EnumObj::_GetByStrIndex<SizeObj>("small")->_int_index == 1);
  CHECK(Any(EnumObj::_GetByIntIndex<SizeObj>(8)).try_cast<IntEnum>().has_value());
  CHECK_FALSE(StateOf(SignObj::RuntimeTypeIndex()).has_value());  // no member yet
  CHECK_FALSE(refl::EnumDef<SignObj>::IsDefined("+"));
}

TEST_CASE("Enum: lookups and EnumDef refuse bad indices and states", "[enum]") {
  CHECK(ThrownBy([] { EnumObj::_GetByStrIndex<ShadeObj>("Grey"); }) ==
        "ValueError: Enum `enumtest.Shade` has no instance with index Grey");
  CHECK(ThrownBy([] { EnumObj::_GetByIntIndex<SizeObj>(2); }) ==
        "ValueError: Enum `enumtest.Size` has no instance with index 2");
  CHECK(ThrownBy([] { EnumObj::_GetByStrIndex<SignObj>("x"); }) ==
        "ValueError: Enum `enumtest.Sign` has no instance with index x");
  CHECK(ThrownBy([] { refl::EnumDef<SizeObj>("big", 3); }) ==
        "ValueError: Duplicate enum index for type `enumtest.Size`");
  CHECK(ThrownBy([] { refl::EnumDef<SizeObj>("huge", 1); }) ==
        "ValueError: Duplicate enum index for type `enumtest.Size`");
  CHECK(ThrownBy([] { refl::EnumDef<ShadeObj>("Light"); }) ==
        "ValueError: Duplicate enum index for type `enumtest.Shade`");
  // A refused member is not added.
  CHECK(StateOf(SizeObj::RuntimeTypeIndex()).value()->entries.size() == 2);
  CHECK(StateOf(SizeObj::RuntimeTypeIndex()).value()->indexes.size() == 4);
  CHECK(StateOf(ShadeObj::RuntimeTypeIndex()).value()->entries.size() == 2);
  // A state column entry that is no EnumState.
  CHECK(ThrownBy([] { refl::EnumDef<BogusObj>::IsDefined("a"); }) ==
        "TypeError: Expected `ffi.EnumState` in enum state column, but got `int`");
  CHECK(ThrownBy([] { refl::EnumDef<BogusObj>("a"); }) ==
        "TypeError: Expected `ffi.EnumState` in enum state column, but got `int`");
}

TEST_CASE("Enum: fields of enum reference types take members", "[enum]") {
  // The StrEnum's members come later (as Python defines them).
  refl::EnumDef<SignObj>("+");
  refl::EnumDef<SignObj>("-");
  Enum big = EnumObj::_GetByIntIndex<SizeObj>(8);
  Enum minus = EnumObj::_GetByStrIndex<SignObj>("-");
  CHECK(minus->_int_index == 1);
  Any h = Call("ffi.MakeObjectFromPackedArgs", "enumtest.Holder", "size", big, "sign", minus);
  const HolderObj* obj = static_cast<const HolderObj*>(ObjectOf(HandleOf(h)));
  CHECK(obj->size.same_as(big));
  CHECK(obj->sign->_int_index == 1);
  // Here, the state's entries, its two indexes (8 and "big"), the holder.
  CHECK(big.use_count() == 5);
  Any small(EnumObj::_GetByIntIndex<SizeObj>(1));
  CHECK(small.try_cast<Size>().value()->_int_index == 1);
  // Payloads (the member's int or str index), other enums: refused.
  CHECK_FALSE(Any(int64_t(1)).try_cast<Size>().has_value());
  CHECK_FALSE(Any(String("small")).try_cast<Size>().has_value());
  CHECK_FALSE(Any(String("+")).try_cast<Sign>().has_value());
  CHECK_FALSE(small.try_cast<Sign>().has_value());
  CHECK(ThrownBy([] { Any(int64_t(8)).cast<Size>(); }) ==
        "TypeError: Cannot convert from type `int` to `enumtest.Size`");
  CHECK(ThrownBy([&] {
          Call("ffi.MakeObjectFromPackedArgs", "enumtest.Holder", "size", int64_t(8), "sign",
               minus);
        }) == "TypeError: Cannot convert from type `int` to `enumtest.Size`");
  const TVMFFITypeInfo* info = InfoOf("enumtest.Holder");
  CHECK(std::string(info->fields[0].metadata.data, info->fields[0].metadata.size)
            .find(R"({\"type\":\"enumtest.Size\"})") != std::string::npos);
}

TEST_CASE("Enum: a JSON graph carries a member as its index", "[enum]") {
  Enum dark = EnumObj::_GetByStrIndex<ShadeObj>("Dark");
  Enum big = EnumObj::_GetByIntIndex<SizeObj>(8);
  CHECK(ToJSONGraphString(dark) ==
        R"({"root_index":0,"nodes":[{"type":"enumtest.Shade","data":"Dark"}]})");
  CHECK(ToJSONGraphString(big) ==
        R"({"root_index":0,"nodes":[{"type":"enumtest.Size","data":8}]})");
  Array<Any> list{dark, big, dark};
  Array<Any> back = FromJSONGraphString(ToJSONGraphString(list)).cast<Array<Any>>();
  REQUIRE(back.size() == 3);
  CHECK(back[0].same_as(dark));
  CHECK(back[1].same_as(big));
  CHECK(back[2].same_as(dark));
  CHECK(ThrownBy([] {
          FromJSONGraphString(R"({"root_index":0,"nodes":[{"type":"enumtest.Size","data":3}]})");
        }) == "ValueError: enum `enumtest.Size` has no instance at index 3");
  CHECK(ThrownBy([] {
          FromJSONGraphString(
              R"({"root_index":0,"nodes":[{"type":"enumtest.Size","data":"big"}]})");
        }) == "TypeError: the data of an enum `enumtest.Size` node must be an int, got str");
  CHECK(ThrownBy([] {
          FromJSONGraphString(R"({"root_index":0,"nodes":[{"type":"enumtest.Shade","data":1}]})");
        }) == "TypeError: the data of an enum `enumtest.Shade` node must be a str, got int");
}

// The header's classes have the library's layout.
static_assert(sizeof(EnumStateObj) == 48, "ffi.EnumState: header + 3 references");
static_assert(sizeof(EnumObj) == 48, "ffi.Enum: header + int + 16-byte str cell");
static_assert(sizeof(IntEnumObj) == 48 && sizeof(StrEnumObj) == 48, "no fields of their own");

TEST_CASE("Enum: the four types, their parents and layouts", "[enum]") {
  const TVMFFITypeInfo* state = InfoOf("ffi.EnumState");
  const TVMFFITypeInfo* base = InfoOf("ffi.Enum");
  const TVMFFITypeInfo* ints = InfoOf("ffi.IntEnum");
  const TVMFFITypeInfo* strs = InfoOf("ffi.StrEnum");
  CHECK(state->type_index == EnumStateObj::RuntimeTypeIndex());
  CHECK(base->type_index == EnumObj::RuntimeTypeIndex());
  CHECK(ints->type_index == IntEnumObj::RuntimeTypeIndex());
  CHECK(strs->type_index == StrEnumObj::RuntimeTypeIndex());
  CHECK(state->type_depth == 1);
  CHECK(base->type_depth == 1);
  REQUIRE(ints->type_depth == 2);
  CHECK(Key(ints->type_ancestors[1]) == "ffi.Enum");
  CHECK(Key(strs->type_ancestors[1]) == "ffi.Enum");
  CHECK(state->metadata->total_size == 48);
  CHECK(base->metadata->total_size == 48);  // _str_index is a 16-byte str cell
  CHECK(ints->metadata->total_size == 48);
  CHECK(base->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUniqueInstance);
  CHECK(ints->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUniqueInstance);
  // A C++ enum type registered through ObjectDef inherits the kind.
  CHECK(InfoOf("enumtest.Shade")->metadata->structural_eq_hash_kind ==
        kTVMFFISEqHashKindUniqueInstance);

  auto sf = Fields(state);
  CHECK(sf["entries"].first == 24);
  CHECK(sf["indexes"].first == 32);
  CHECK(sf["attrs"].first == 40);
  CHECK(sf["attrs"].second == kTVMFFIFieldFlagBitMaskInitOff);
  auto bf = Fields(base);
  CHECK(bf["_int_index"] ==
        std::make_pair(int64_t(24), int64_t(kTVMFFIFieldFlagBitMaskSEqHashIgnore)));
  CHECK(bf["_str_index"] == std::make_pair(int64_t(32), int64_t(0)));
  CHECK(base->fields[1].size == 16);
  CHECK(base->fields[1].field_static_type_index == kTVMFFIStr);
  int64_t value_flags = kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore;
  CHECK(Fields(ints)["value"] == std::make_pair(int64_t(24), value_flags));
  CHECK(Fields(strs)["value"] == std::make_pair(int64_t(32), value_flags));

  // The header's members are where the library's fields are.
  Enum light = EnumObj::_GetByStrIndex<ShadeObj>("Light");
  const char* at = static_cast<const char*>(HandleOf(light));
  CHECK(reinterpret_cast<uintptr_t>(&light->_int_index) == reinterpret_cast<uintptr_t>(at + 24));
  CHECK(reinterpret_cast<uintptr_t>(&light->_str_index) == reinterpret_cast<uintptr_t>(at + 32));
  EnumState s = StateOf(ShadeObj::RuntimeTypeIndex()).value();
  const char* sat = static_cast<const char*>(HandleOf(s));
  CHECK(reinterpret_cast<uintptr_t>(&s->entries) == reinterpret_cast<uintptr_t>(sat + 24));
  CHECK(reinterpret_cast<uintptr_t>(&s->indexes) == reinterpret_cast<uintptr_t>(sat + 32));
  CHECK(reinterpret_cast<uintptr_t>(&s->attrs) == reinterpret_cast<uintptr_t>(sat + 40));
}

TEST_CASE("Enum: an EnumState made by __ffi_init__ has empty, distinct containers", "[enum]") {
  const TVMFFITypeInfo* state = InfoOf("ffi.EnumState");
  const TVMFFIMethodInfo* init = nullptr;
  for (int32_t i = 0; i < state->num_methods; ++i) {
    if (std::string(state->methods[i].name.data, state->methods[i].name.size) == "__ffi_init__") {
      init = &state->methods[i];
    }
  }
  REQUIRE(init != nullptr);
  Any s = AnyView::CopyFromTVMFFIAny(init->method).cast<Function>()();
  REQUIRE(s.type_index() == state->type_index);
  const char* base = static_cast<const char*>(HandleOf(s));
  TVMFFIObject* entries = *reinterpret_cast<TVMFFIObject* const*>(base + 24);
  TVMFFIObject* indexes = *reinterpret_cast<TVMFFIObject* const*>(base + 32);
  TVMFFIObject* attrs = *reinterpret_cast<TVMFFIObject* const*>(base + 40);
  REQUIRE(entries != nullptr);
  CHECK(entries->type_index == kTVMFFIList);
  CHECK(indexes->type_index == kTVMFFIDict);
  CHECK(attrs->type_index == kTVMFFIDict);
  CHECK(indexes != attrs);
  EnumState typed = s.cast<EnumState>();
  CHECK(typed->entries.size() == 0);
  CHECK(typed->indexes.size() == 0);
  CHECK(typed->attrs.size() == 0);
  // The state column exists for enum types to use.
  TVMFFIByteArray column = {"__ffi_enum__", 12};
  CHECK(TVMFFIGetTypeAttrColumn(&column) != nullptr);
}

TEST_CASE("Enum: _str_index is a 16-byte str cell (small inline, long on the heap)", "[enum]") {
  for (std::string text : {std::string("ab"), std::string("a longer index")}) {
    Any e = Call("ffi.MakeObjectFromPackedArgs", "ffi.Enum", "_int_index", int64_t(3),
                 "_str_index", text);
    const TVMFFIAny* cell =
        reinterpret_cast<const TVMFFIAny*>(static_cast<char*>(HandleOf(e)) + 32);
    CHECK(cell->type_index == (text.size() <= 7 ? kTVMFFISmallStr : kTVMFFIStr));
    CHECK(e.cast<Enum>()->_str_index == text);
    const TVMFFIFieldInfo& f = InfoOf("ffi.Enum")->fields[1];
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    REQUIRE(f.getter(const_cast<TVMFFIAny*>(cell), &out) == 0);
    CHECK(AnyUnsafe::MoveTVMFFIAnyRawToAny(out).cast<std::string>() == text);
  }
  CHECK(ThrownBy([] {
          Call("ffi.MakeObjectFromPackedArgs", "ffi.Enum", "_int_index", int64_t(3), "_str_index",
               int64_t(4));
        }) == "TypeError: expected str, got int");
}

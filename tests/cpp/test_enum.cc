// Enumeration types: ffi.Enum, ffi.IntEnum, ffi.StrEnum, ffi.EnumState.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "test_util.h"
#include "core/impl/enum.h"
#include "core/impl/reflection.h"
#include "core/impl/serialization.h"

using namespace tvm::ffi::detail::impl;
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
// small=1 and big=8; enumtest.Sign (StrEnum), no C++ singletons;
// enumtest.Holder with EnumRef fields of Size and Sign.
class ShadeObj : public EnumObj {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(ShadeObj, "enumtest.Shade", EnumObj)
};
class SizeObj : public IntEnumObj {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(SizeObj, "enumtest.Size", IntEnumObj)
};
class SignObj : public StrEnumObj {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(SignObj, "enumtest.Sign", StrEnumObj)
};
class HolderObj : public Object {
 public:
  EnumRef<SizeObj> size{ObjectPtr<Object>()};
  EnumRef<SignObj> sign{ObjectPtr<Object>()};
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(HolderObj, "enumtest.Holder", PlainObject)
};

const bool kTestEnumsRegistered = RunAtLoad([] {
  ObjectDef<ShadeObj>("", kTVMFFISEqHashKindUniqueInstance);
  EnumDef<ShadeObj>("Light").Attr("lum", Any(int64_t(90)));
  EnumDef<ShadeObj>("Dark").Attr("lum", Any(int64_t(10))).Attr("tag", Any(String("d")));
  ObjectDef<SizeObj>("", kTVMFFISEqHashKindUniqueInstance);
  EnumDef<SizeObj>("small", 1);
  EnumDef<SizeObj>("big", 8);
  ObjectDef<SignObj>("", kTVMFFISEqHashKindUniqueInstance);
  ObjectDef<HolderObj>("", kTVMFFISEqHashKindTreeNode)
      .Field("size", &HolderObj::size)
      .Field("sign", &HolderObj::sign);
});

int64_t IntIndexOf(const Any& v) {
  return static_cast<const EnumObj*>(Object::FromHandle(v.raw()->v_obj))->_int_index;
}

}  // namespace

TEST_CASE("Enum: EnumDef registers singletons in the type's EnumState", "[enum]") {
  REQUIRE(kTestEnumsRegistered);
  EnumStateObj* state = EnumStateOf(ShadeObj::RuntimeTypeIndex());
  REQUIRE(state != nullptr);
  REQUIRE(state->entries.size() == 2);
  CHECK(state->indexes.size() == 4);
  Any light = EnumGet(ShadeObj::RuntimeTypeIndex(), Any(String("Light")));
  Any dark = EnumGet(ShadeObj::RuntimeTypeIndex(), Any(int64_t(1)));
  CHECK(HandleOf(light) == HandleOf(state->entries[0]));
  CHECK(HandleOf(dark) == HandleOf(state->entries[1]));
  CHECK(light.type_index() == ShadeObj::RuntimeTypeIndex());
  CHECK(IntIndexOf(dark) == 1);
  CHECK(static_cast<const EnumObj*>(Object::FromHandle(dark.raw()->v_obj))
            ->_str_index.As<std::string>() == "Dark");
  // The attributes: one column per name, keyed by singleton.
  Dict lum = state->attrs.Get(Any(String("lum")))->As<Dict>();
  CHECK(lum.Get(light)->As<int64_t>() == 90);
  CHECK(lum.Get(dark)->As<int64_t>() == 10);
  Dict tag = state->attrs.Get(Any(String("tag")))->As<Dict>();
  CHECK(tag.size() == 1);
  CHECK(tag.Get(dark)->As<std::string>() == "d");

  CHECK(IntIndexOf(EnumGet(SizeObj::RuntimeTypeIndex(), Any(int64_t(8)))) == 8);
  CHECK(EnumStateOf(SignObj::RuntimeTypeIndex()) == nullptr);  // no singleton yet
}

TEST_CASE("Enum: EnumGet and EnumDef refuse bad indices and types", "[enum]") {
  CHECK(ThrownBy([] { EnumGet(ShadeObj::RuntimeTypeIndex(), Any(String("Grey"))); }) ==
        "ValueError: enum `enumtest.Shade` has no instance at index \"Grey\"");
  CHECK(ThrownBy([] { EnumGet(SizeObj::RuntimeTypeIndex(), Any(int64_t(2))); }) ==
        "ValueError: enum `enumtest.Size` has no instance at index 2");
  CHECK(ThrownBy([] { EnumGet(SignObj::RuntimeTypeIndex(), Any(String("+"))); }) ==
        "ValueError: enum `enumtest.Sign` has no instance at index \"+\"");
  CHECK(ThrownBy([] { EnumDef<SizeObj>("big", 3); }) ==
        "ValueError: enum `enumtest.Size` already has an instance at index 3 or \"big\"");
  CHECK(ThrownBy([] { EnumDef<SizeObj>("huge", 1); }) ==
        "ValueError: enum `enumtest.Size` already has an instance at index 1 or \"huge\"");
  CHECK(EnumStateOf(SizeObj::RuntimeTypeIndex())->entries.size() == 2);
  CHECK(ThrownBy([] { EnsureEnumState(HolderObj::RuntimeTypeIndex()); }) ==
        "TypeError: `enumtest.Holder` is not an enum type (a subclass of ffi.Enum)");
}

TEST_CASE("Enum: EnumRef fields take a singleton or its payload", "[enum]") {
  // The StrEnum's singletons come later (as Python defines them).
  EnumDef<SignObj>("+");
  EnumDef<SignObj>("-");
  Any h = Call("ffi.MakeObjectFromPackedArgs", std::string("enumtest.Holder"),
               std::string("size"), int64_t(8), std::string("sign"), std::string("-"));
  const HolderObj* obj = static_cast<const HolderObj*>(Object::FromHandle(h.raw()->v_obj));
  CHECK(obj->size.get() == Object::FromHandle(HandleOf(
                               EnumGet(SizeObj::RuntimeTypeIndex(), Any(int64_t(8))))));
  CHECK(obj->sign->_int_index == 1);
  Any small = EnumGet(SizeObj::RuntimeTypeIndex(), Any(int64_t(1)));
  CHECK(TypeTraits<EnumRef<SizeObj>>::TryCast(small.raw())->get()->_int_index == 1);
  // Unknown payloads, payloads of the other kind, other enums: refused.
  CHECK(!TypeTraits<EnumRef<SizeObj>>::TryCast(Any(int64_t(5)).raw()).has_value());
  CHECK(!TypeTraits<EnumRef<SizeObj>>::TryCast(Any(String("small")).raw()).has_value());
  CHECK(!TypeTraits<EnumRef<SignObj>>::TryCast(Any(int64_t(0)).raw()).has_value());
  CHECK(!TypeTraits<EnumRef<SignObj>>::TryCast(small.raw()).has_value());
  CHECK(ThrownBy([] {
          Call("ffi.MakeObjectFromPackedArgs", std::string("enumtest.Holder"),
               std::string("size"), int64_t(5), std::string("sign"), std::string("+"));
        }).find("expected enumtest.Size, got int") != std::string::npos);
  const TVMFFITypeInfo* info = InfoOf("enumtest.Holder");
  CHECK(std::string(info->fields[0].metadata.data, info->fields[0].metadata.size)
            .find(R"({\"type\":\"enumtest.Size\"})") != std::string::npos);
}

TEST_CASE("Enum: a JSON graph carries a singleton as its index", "[enum]") {
  Any dark = EnumGet(ShadeObj::RuntimeTypeIndex(), Any(String("Dark")));
  Any big = EnumGet(SizeObj::RuntimeTypeIndex(), Any(int64_t(8)));
  CHECK(ToJSONGraphString(dark) ==
        R"({"root_index":0,"nodes":[{"type":"enumtest.Shade","data":"Dark"}]})");
  CHECK(ToJSONGraphString(big) ==
        R"({"root_index":0,"nodes":[{"type":"enumtest.Size","data":8}]})");
  Any list = Any(Array<Any>{dark, big, dark});
  Array<Any> back = FromJSONGraphString(ToJSONGraphString(list)).As<Array<Any>>();
  CHECK(HandleOf(back[0]) == HandleOf(dark));
  CHECK(HandleOf(back[1]) == HandleOf(big));
  CHECK(HandleOf(back[2]) == HandleOf(dark));
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

TEST_CASE("Enum: the four types, their parents and layouts", "[enum]") {
  const TVMFFITypeInfo* state = InfoOf("ffi.EnumState");
  const TVMFFITypeInfo* base = InfoOf("ffi.Enum");
  const TVMFFITypeInfo* ints = InfoOf("ffi.IntEnum");
  const TVMFFITypeInfo* strs = InfoOf("ffi.StrEnum");
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

  auto sf = Fields(state);
  CHECK(sf["entries"].first == 24);
  CHECK(sf["indexes"].first == 32);
  CHECK(sf["attrs"].first == 40);
  CHECK(sf["attrs"].second == kTVMFFIFieldFlagBitMaskInitOff);
  auto bf = Fields(base);
  CHECK(bf["_int_index"] == std::make_pair(int64_t(24), int64_t(kTVMFFIFieldFlagBitMaskSEqHashIgnore)));
  CHECK(bf["_str_index"] == std::make_pair(int64_t(32), int64_t(0)));
  CHECK(base->fields[1].size == 16);
  CHECK(base->fields[1].field_static_type_index == kTVMFFIStr);
  int64_t value_flags = kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore;
  CHECK(Fields(ints)["value"] == std::make_pair(int64_t(24), value_flags));
  CHECK(Fields(strs)["value"] == std::make_pair(int64_t(32), value_flags));
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
  Any s = Function(ObjectPtr<Object>::BorrowHandle(init->method.v_obj))();
  REQUIRE(s.type_index() == state->type_index);
  const char* base = reinterpret_cast<const char*>(s.raw()->v_obj);
  TVMFFIObject* entries = *reinterpret_cast<TVMFFIObject* const*>(base + 24);
  TVMFFIObject* indexes = *reinterpret_cast<TVMFFIObject* const*>(base + 32);
  TVMFFIObject* attrs = *reinterpret_cast<TVMFFIObject* const*>(base + 40);
  REQUIRE(entries != nullptr);
  CHECK(entries->type_index == kTVMFFIList);
  CHECK(indexes->type_index == kTVMFFIDict);
  CHECK(attrs->type_index == kTVMFFIDict);
  CHECK(indexes != attrs);
  // The state column exists for enum types to use.
  TVMFFIByteArray column = {"__ffi_enum__", 12};
  CHECK(TVMFFIGetTypeAttrColumn(&column) != nullptr);
}

TEST_CASE("Enum: _str_index is a 16-byte str cell (small inline, long on the heap)", "[enum]") {
  for (std::string text : {std::string("ab"), std::string("a longer index")}) {
    Any e = Call("ffi.MakeObjectFromPackedArgs", std::string("ffi.Enum"), std::string("_int_index"),
                 int64_t(3), std::string("_str_index"), text);
    const TVMFFIAny* cell =
        reinterpret_cast<const TVMFFIAny*>(reinterpret_cast<char*>(e.raw()->v_obj) + 32);
    CHECK(cell->type_index == (text.size() <= 7 ? kTVMFFISmallStr : kTVMFFIStr));
    const TVMFFIFieldInfo& f = InfoOf("ffi.Enum")->fields[1];
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    REQUIRE(f.getter(const_cast<TVMFFIAny*>(cell), &out) == 0);
    CHECK(Any::Adopt(out).As<std::string>() == text);
  }
  CHECK(ThrownBy([] {
          Call("ffi.MakeObjectFromPackedArgs", std::string("ffi.Enum"), std::string("_int_index"),
               int64_t(3), std::string("_str_index"), int64_t(4));
        }) == "TypeError: expected str, got int");
}

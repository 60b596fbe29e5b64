// Enumeration types: ffi.Enum, ffi.IntEnum, ffi.StrEnum, ffi.EnumState.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "test_util.h"

using namespace tvmffi::core;
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

}  // namespace

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

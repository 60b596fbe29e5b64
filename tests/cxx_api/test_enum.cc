// enum.h and reflection/enum_def.h: enum members as singleton objects,
// registered with EnumDef and found by either index.
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/enum_def.h>

#include <catch2/catch.hpp>

#include <string>

#include "error_of.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using cxx_api_test::ErrorOf;

namespace {

class ColorObj : public StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Color", ColorObj, StrEnumObj);
};

class LevelObj : public IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Level", LevelObj, IntEnumObj);
};

// Registered in a test, to see the state appear.
class LateObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Late", LateObj, EnumObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::EnumDef<ColorObj>("Red").set_attr("hex", String("#f00"));
  refl::EnumDef<ColorObj>("Green").set_attr("hex", String("#0f0")).set_attr("warm", false);
  refl::EnumDef<LevelObj>("Low", 10);
  refl::EnumDef<LevelObj>("High", 20);
}

}  // namespace

TEST_CASE("enum: layouts", "[enum]") {
  STATIC_REQUIRE(sizeof(EnumStateObj) == sizeof(TVMFFIObject) + 24);
  STATIC_REQUIRE(sizeof(EnumObj) == sizeof(TVMFFIObject) + 8 + sizeof(String));
  CHECK(EnumObj::RuntimeTypeIndex() == TypeKeyToIndex("ffi.Enum"));
  CHECK(StrEnumObj::RuntimeTypeIndex() == TypeKeyToIndex("ffi.StrEnum"));
}

TEST_CASE("enum: members by int and str index", "[enum]") {
  Enum red = EnumObj::_GetByStrIndex<ColorObj>("Red");
  CHECK(red->_int_index == 0);
  CHECK(red->_str_index == "Red");
  CHECK(red->type_index() == ColorObj::RuntimeTypeIndex());
  CHECK(EnumObj::_GetByIntIndex<ColorObj>(0).same_as(red));
  CHECK(EnumObj::_GetByIntIndex<ColorObj>(1)->_str_index == "Green");
  Enum high = EnumObj::_GetByStrIndex<LevelObj>("High");
  CHECK(high->_int_index == 20);
  CHECK(EnumObj::_GetByIntIndex(LevelObj::RuntimeTypeIndex(), 10)->_str_index == "Low");
  CHECK(ErrorOf([] { EnumObj::_GetByStrIndex<ColorObj>("Blue"); }) ==
        "ValueError: Enum `cxx_api_test.refl.Color` has no instance with index Blue");
  CHECK(ErrorOf([] { EnumObj::_GetByIntIndex<LevelObj>(15); }) ==
        "ValueError: Enum `cxx_api_test.refl.Level` has no instance with index 15");
  // The library reads the members' fields.
  CHECK(refl::FieldGetter("ffi.StrEnum", "value")(red).cast<String>() == "Red");
  CHECK(refl::FieldGetter("ffi.IntEnum", "value")(high).cast<int64_t>() == 20);
}

TEST_CASE("enum: the state and its attributes", "[enum]") {
  EnumState state = refl::TypeAttrColumn(type_attr::kEnumState)[ColorObj::RuntimeTypeIndex()]
                        .cast<EnumState>();
  CHECK(state->entries.size() == 2);
  CHECK(state->indexes.size() == 4);
  Enum red = EnumObj::_GetByStrIndex<ColorObj>("Red");
  Enum green = EnumObj::_GetByStrIndex<ColorObj>("Green");
  CHECK(state->attrs.at("hex").at(red).cast<String>() == "#f00");
  CHECK(state->attrs.at("hex").at(green).cast<String>() == "#0f0");
  CHECK(state->attrs.at("warm").size() == 1);
  CHECK(state->attrs.at("warm").at(green).cast<bool>() == false);
}

TEST_CASE("enum: IsDefined, late registration and duplicates", "[enum]") {
  using Def = refl::EnumDef<LateObj>;
  refl::TypeAttrColumn states(type_attr::kEnumState);
  CHECK(!Def::IsDefined("First"));
  CHECK(states[LateObj::RuntimeTypeIndex()] == nullptr);
  Def("First");  // NOLINT(bugprone-unused-raii)
  CHECK(Def::IsDefined("First"));
  CHECK(!Def::IsDefined("first"));
  CHECK(!Def::IsDefined(String("First\0x", 7)));
  CHECK(states[LateObj::RuntimeTypeIndex()].cast<EnumState>()->entries.size() == 1);
  CHECK(ErrorOf([] { Def("First"); }) ==
        "ValueError: Duplicate enum index for type `cxx_api_test.refl.Late`");
  CHECK(ErrorOf([] { refl::EnumDef<LevelObj>("Other", 10); }) ==
        "ValueError: Duplicate enum index for type `cxx_api_test.refl.Level`");
  CHECK(states[LateObj::RuntimeTypeIndex()].cast<EnumState>()->entries.size() == 1);
}

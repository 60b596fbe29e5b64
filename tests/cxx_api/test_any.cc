// any.h: AnyView and Any (ownership, typed access and its errors), AnyHash
// and AnyEqual, and values exchanged with the runtime.
#include <tvm/ffi/any.h>
#include <tvm/ffi/memory.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <cstring>
#include <string>
#include <unordered_map>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

class CellNode : public Object {
 public:
  explicit CellNode(int v) : value(v) {}
  int value;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_test.any.Cell", CellNode, Object);
};
class Cell : public ObjectRef {
 public:
  explicit Cell(int v) : ObjectRef(make_object<CellNode>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Cell, ObjectRef, CellNode);
};
class OtherNode final : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.any.Other", OtherNode, Object);
};

}  // namespace

TEST_CASE("any: views own nothing, values own one reference", "[any]") {
  Cell cell(5);
  {
    AnyView view = cell;
    CHECK(cell.use_count() == 1);
    CHECK(view.type_index() == CellNode::RuntimeTypeIndex());
    Any owned = view;
    CHECK(cell.use_count() == 2);
    Any copy = owned;
    CHECK(cell.use_count() == 3);
    Any moved = std::move(copy);
    CHECK(copy == nullptr);
    CHECK(cell.use_count() == 3);
    moved.reset();
    CHECK(cell.use_count() == 2);
    CHECK(owned.same_as(cell));
    CHECK(AnyView(owned).same_as(view));
  }
  CHECK(cell.use_count() == 1);

  Any none;
  CHECK(none == nullptr);
  CHECK(none.type_index() == kTVMFFINone);
  CHECK(none.GetTypeKey() == "None");
  TVMFFIAny raw = AnyView().CopyToTVMFFIAny();
  CHECK(raw.type_index == kTVMFFINone);
  CHECK(raw.zero_padding == 0);
  CHECK(raw.v_int64 == 0);
}

TEST_CASE("any: an Any made from a view copies what a view may borrow", "[any]") {
  // A raw C string becomes a String.
  const char* text = "a borrowed C string";
  Any from_raw = AnyView(text);
  CHECK(from_raw.type_index() == kTVMFFIStr);
  CHECK(from_raw.cast<std::string>() == text);
  // A byte array becomes Bytes.
  TVMFFIByteArray bytes{"xy\0z", 4};
  Any from_bytes = AnyView(&bytes);
  CHECK(from_bytes.type_index() == kTVMFFISmallBytes);
  CHECK(std::string(from_bytes.cast<Bytes>()) == std::string("xy\0z", 4));
  // An rvalue reference gives up its object.
  ObjectPtr<Object> slot = make_object<CellNode>(1);
  Object* raw_obj = slot.get();
  TVMFFIAny rref;
  rref.type_index = kTVMFFIObjectRValueRef;
  rref.zero_padding = 0;
  rref.v_ptr = &slot;
  Any taken = AnyView::CopyFromTVMFFIAny(rref);
  CHECK(slot == nullptr);
  CHECK(taken.as<CellNode>() == raw_obj);
  CHECK(taken.as<CellNode>()->use_count() == 1);
  CHECK(ErrorOf([&] { Any again = AnyView::CopyFromTVMFFIAny(rref); }) ==
        "InternalError: Check failed: (slot[0] != nullptr) is false: RValueRef already moved");
}

TEST_CASE("any: as, try_cast, cast and their errors", "[any]") {
  Any i = 3;
  CHECK(i.as<int>().value() == 3);
  CHECK_FALSE(i.as<double>().has_value());     // as: no conversion
  CHECK(i.try_cast<double>().value() == 3.0);  // try_cast: conversions
  CHECK(i.cast<bool>() == true);
  CHECK(ErrorOf([&] { i.cast<String>(); }) ==
        "TypeError: Cannot convert from type `int` to `str`");
  CHECK(ErrorOf([&] { i.as_or_throw<double>(); }) ==
        "TypeError: Cannot treat type `int` as type `float`");
  CHECK(i.as_or_throw<int64_t>() == 3);

  Any s = String("a longer string value");
  CHECK(s.as<String>().value() == "a longer string value");
  CHECK(s.cast<std::string>() == "a longer string value");
  CHECK(ErrorOf([&] { AnyView(s).cast<int>(); }) ==
        "TypeError: Cannot convert from type `ffi.String` to `int`");

  Any c = Cell(9);
  CHECK(c.as<CellNode>()->value == 9);
  CHECK(c.as<OtherNode>() == nullptr);
  CHECK(c.cast<Cell>()->value == 9);
  CHECK(ErrorOf([&] { c.cast<ObjectPtr<OtherNode>>(); }) ==
        "TypeError: Cannot convert from type `cxx_api_test.any.Cell` to "
        "`cxx_api_test.any.Other`");
  Cell out = std::move(c).cast<Cell>();
  CHECK(c == nullptr);  // moved out: no conversion was needed
  CHECK(out.use_count() == 1);
  Any back = out;
  std::optional<Cell> moved = std::move(back).as<Cell>();
  CHECK(back == nullptr);
  CHECK(moved->use_count() == 2);
  Any wrong = 1.5;
  CHECK(ErrorOf([&] { std::move(wrong).as_or_throw<Cell>(); }) ==
        "TypeError: Cannot treat type `float` as type `cxx_api_test.any.Cell`");

  // ObjectRef::as_or_throw (defined here).
  ObjectRef as_ref = out;
  CHECK(as_ref.as_or_throw<Cell>().same_as(out));
  ObjectRef other(make_object<OtherNode>());
  CHECK(ErrorOf([&] { other.as_or_throw<Cell>(); }) ==
        "TypeError: Cannot treat type `cxx_api_test.any.Other` as type `cxx_api_test.any.Cell`");
  CHECK_FALSE(ObjectRef().as_or_throw<Cell>().defined());

  // uint64_t beyond int64_t.
  CHECK(Any(uint64_t{7}).cast<uint64_t>() == 7);
  CHECK(ErrorOf([] { Any big = UINT64_MAX; }) ==
        "OverflowError: Integer value 18446744073709551615 is too large to fit in int64_t. "
        "Consider explicitly casting to int64_t first if this is intentional.");
}

TEST_CASE("any: AnyHash and AnyEqual", "[any]") {
  AnyHash hash;
  AnyEqual equal;
  // A string equals itself in the other storage form and hashes the same.
  std::string eight = "8 bytes!";
  Any small = String("abc");
  Any object_form = String(std::string("abc"));  // adopts: object even though short
  REQUIRE(small.type_index() == kTVMFFISmallStr);
  REQUIRE(object_form.type_index() == kTVMFFIStr);
  CHECK(equal(small, object_form));
  CHECK(equal(object_form, small));
  CHECK(hash(small) == hash(object_form));
  CHECK(hash(small) ==
        detail::StableHashCombine(kTVMFFIStr, detail::StableHashBytes("abc", 3)));
  Any long1 = String(eight + eight);
  Any long2 = String(eight + eight);
  CHECK(equal(long1, long2));
  CHECK(hash(long1) == hash(long2));
  CHECK_FALSE(equal(long1, String(eight)));
  // A string is not bytes, an int is not a float.
  CHECK_FALSE(equal(small, Bytes("abc", 3)));
  CHECK_FALSE(equal(Any(1), Any(1.0)));
  CHECK(equal(Any(1), Any(1)));
  CHECK(hash(Any(1)) == detail::StableHashCombine(kTVMFFIInt, uint64_t{1}));
  // Objects compare by identity.
  Cell a(1);
  CHECK(equal(a, a));
  CHECK_FALSE(equal(a, Cell(1)));
  std::unordered_map<Any, int, AnyHash, AnyEqual> map;
  map[String("key")] = 1;
  map[String(std::string("key"))] += 1;
  map[Any(2)] = 3;
  CHECK(map.size() == 2);
  CHECK(map[String("key")] == 2);
}

TEST_CASE("any: runtime functions take our values", "[any]") {
  Any value = String(std::string(40, 's'));
  AnyView view = value;
  TVMFFIAny raw = view.CopyToTVMFFIAny();
  TVMFFIAny owned;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&raw, &owned) == 0);
  Any adopted = detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(owned);
  CHECK(adopted.same_as(value));
  CHECK(value.as<const Object*>().value()->use_count() == 2);
  TVMFFIAny handed_out = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(adopted));
  CHECK(adopted == nullptr);
  REQUIRE(TVMFFIObjectDecRef(handed_out.v_obj) == 0);
  CHECK(value.as<const Object*>().value()->use_count() == 1);
  CHECK(detail::Type2Str<const Any&>::v() == "Any");
  CHECK(detail::Type2Str<int>::v() == "int");
  CHECK(detail::TypeSchema<void>::v() == R"({"type":"None"})");
  CHECK(detail::TypeSchema<const String&>::v() == R"({"type":"ffi.String"})");
}

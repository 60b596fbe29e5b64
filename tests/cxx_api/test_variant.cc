// container/variant.h: Variant<V...>.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <unordered_set>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

TEST_CASE("variant: holds one alternative", "[variant]") {
  STATIC_REQUIRE(sizeof(Variant<String, Array<int64_t>>) == sizeof(TVMFFIAny));
  Variant<String, int64_t> v = String("abc");
  CHECK(v.as<String>().value() == "abc");
  CHECK(!v.as<int64_t>().has_value());
  CHECK(v.GetTypeKey() == "ffi.SmallStr");
  CHECK(v.get<String>() == "abc");
  CHECK(ErrorOf([&] { (void)v.get<int64_t>(); }) ==
        "TypeError: Cannot convert from type `ffi.SmallStr` to `int`");
  v = int64_t{5};
  CHECK(v.get<int64_t>() == 5);
  CHECK(v.GetTypeKey() == "int");
  STATIC_REQUIRE(Variant<String, int64_t>::variant_contains_v<String>);
  STATIC_REQUIRE(!Variant<String, int64_t>::variant_contains_v<Array<int64_t>>);
}

TEST_CASE("variant: Any conversion picks the first alternative that fits", "[variant]") {
  using V = Variant<Array<int64_t>, String>;
  V arr = Array<int64_t>{1, 2};
  Any held = arr;
  CHECK(held.type_index() == kTVMFFIArray);
  CHECK(held.cast<V>().same_as(arr));
  V s = Any(String("x")).cast<V>();
  CHECK(s.get<String>() == "x");
  CHECK(ErrorOf([&] { (void)Any(1.5).cast<V>(); }) ==
        "TypeError: Cannot convert from type `float` to `Variant<Array<int>, str>`");
  // 1 is not a double but converts to one.
  Variant<String, double> d = Any(1).cast<Variant<String, double>>();
  CHECK(d.GetTypeKey() == "float");
  CHECK(TypeTraits<V>::TypeSchema() ==
        "{\"type\":\"Variant\",\"args\":[{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"int\"}]},"
        "{\"type\":\"ffi.String\"}]}");
}

TEST_CASE("variant: hashing by object identity", "[variant]") {
  using V = Variant<Array<int64_t>, Array<String>>;
  Array<int64_t> a{1};
  V x = a, y = a, z = Array<int64_t>{1};
  CHECK(ObjectPtrEqual()(x, y));
  CHECK(!ObjectPtrEqual()(x, z));
  CHECK(ObjectPtrHash()(x) == ObjectPtrHash()(y));
}

// container/tuple.h: Tuple<Types...>.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

TEST_CASE("tuple: values, layout and structured bindings", "[tuple]") {
  STATIC_REQUIRE(sizeof(Tuple<int, String>) == sizeof(void*));
  Tuple<int64_t, String> t(int64_t{3}, "three");
  CHECK(t.get<0>() == 3);
  CHECK(t.get<1>() == "three");
  auto [n, s] = t;
  CHECK(n == 3);
  CHECK(s == "three");
  CHECK(static_cast<const ObjectRef&>(t).get()->type_index() == kTVMFFIArray);
  Tuple<int64_t, String> dflt;
  CHECK(dflt.get<0>() == 0);
  CHECK(dflt.get<1>() == "");
  Tuple deduced(int64_t{1}, 2.5);
  STATIC_REQUIRE(std::is_same_v<decltype(deduced), Tuple<int64_t, double>>);
  CHECK(get<1>(deduced) == 2.5);
}

TEST_CASE("tuple: Set copies a shared tuple", "[tuple]") {
  Tuple<int64_t, String> a(int64_t{1}, "x");
  Tuple<int64_t, String> b = a;
  b.Set<0>(2);
  CHECK(a.get<0>() == 1);
  CHECK(b.get<0>() == 2);
  CHECK(b.get<1>() == "x");
  const Object* before = static_cast<const ObjectRef&>(b).get();
  b.Set<1>("y");  // unique now: in place
  CHECK(static_cast<const ObjectRef&>(b).get() == before);
  CHECK(b.get<1>() == "y");
}

TEST_CASE("tuple: Any conversion", "[tuple]") {
  Tuple<int64_t, String> t(int64_t{7}, "seven");
  Any held = t;
  CHECK(held.cast<Tuple<int64_t, String>>().same_as(t));
  Array<Any> arr{Any(int64_t{1}), Any(2)};
  Tuple<double, int64_t> converted = Any(arr).cast<Tuple<double, int64_t>>();
  CHECK(converted.get<0>() == 1.0);
  CHECK(!converted.same_as(arr));
  CHECK(ErrorOf([&] { (void)Any(arr).cast<Tuple<int64_t>>(); }) ==
        "TypeError: Cannot convert from type `Array[size=2]` to `Tuple<int>`");
  CHECK(ErrorOf([&] { (void)Any(arr).cast<Tuple<int64_t, String>>(); }) ==
        "TypeError: Cannot convert from type `Array[index 1: int]` to `Tuple<int, str>`");
  CHECK(TypeTraits<Tuple<int64_t, String>>::TypeSchema() ==
        "{\"type\":\"Tuple\",\"args\":[{\"type\":\"int\"},{\"type\":\"ffi.String\"}]}");
  // The runtime sees an ffi.Array.
  CHECK(Function::GetGlobalRequired("ffi.ArraySize")(t).cast<int64_t>() == 2);
}

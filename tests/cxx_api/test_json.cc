// extra/json.h: json::Value, json::Object, json::Array with Parse/Stringify.
#include <tvm/ffi/extra/json.h>

#include <catch2/catch.hpp>

#include <type_traits>

using namespace tvm::ffi;

static_assert(std::is_same_v<json::Object, Map<Any, Any>>);
static_assert(std::is_same_v<json::Array, Array<Any>>);

TEST_CASE("json: objects and arrays by their alias names", "[json]") {
  json::Value v = json::Parse(R"({"a": [1, 2.5, "x", null], "b": {"c": true}})");
  json::Object obj = v.cast<json::Object>();
  REQUIRE(obj.size() == 2);
  json::Array arr = obj.at(String("a")).cast<json::Array>();
  REQUIRE(arr.size() == 4);
  CHECK(arr[0].cast<int64_t>() == 1);
  CHECK(arr[1].cast<double>() == 2.5);
  CHECK(arr[2].cast<String>() == "x");
  CHECK(arr[3] == nullptr);
  CHECK(obj.at(String("b")).cast<json::Object>().at(String("c")).cast<bool>());

  json::Object out;
  out.Set(String("k"), json::Array{1, 2});
  CHECK(json::Stringify(out) == R"({"k":[1,2]})");
}

// extra/stl.h: STL types as parameters and results of typed functions.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

TEST_CASE("stl: vector, array, tuple", "[stl]") {
  // Out: a new ffi.Array.
  Any v = std::vector<int>{3, 1, 2};
  REQUIRE(v.type_index() == TypeIndex::kTVMFFIArray);
  CHECK(v.cast<Array<int>>()[0] == 3);
  CHECK(v.cast<Array<int>>().size() == 3);
  // In: from an Array or a List; every item must convert.
  CHECK(v.try_cast<std::vector<double>>().value() == std::vector<double>{3.0, 1.0, 2.0});
  List<int> list{4, 5};
  CHECK(Any(list).cast<std::vector<int64_t>>() == std::vector<int64_t>{4, 5});
  CHECK(!Any(Array<Any>{1, String("x")}).try_cast<std::vector<int>>().has_value());
  CHECK(!Any(1).try_cast<std::vector<int>>().has_value());
  // std::array: an Array (not a List) of exactly N items.
  CHECK((Any(Array<int>{1, 2}).cast<std::array<int, 2>>() == std::array<int, 2>{1, 2}));
  CHECK(!Any(Array<int>{1, 2, 3}).try_cast<std::array<int, 2>>().has_value());
  CHECK(!Any(list).try_cast<std::array<int, 2>>().has_value());
  Any arr = std::array<std::string, 2>{"a", "b"};
  CHECK(arr.cast<Array<String>>()[1] == "b");
  // std::tuple: exact size, each item its own type.
  Any t = std::make_tuple(1, String("s"), 2.5);
  auto back = t.cast<std::tuple<int, std::string, double>>();
  CHECK(std::get<0>(back) == 1);
  CHECK(std::get<1>(back) == "s");
  CHECK(std::get<2>(back) == 2.5);
  CHECK(!t.try_cast<std::tuple<int, std::string>>().has_value());
  CHECK(!Any(Array<Any>{1.5, 2}).try_cast<std::tuple<int, int>>().has_value());
  // Nested.
  Any nested = std::vector<std::vector<int>>{{1}, {2, 3}};
  CHECK(nested.cast<std::vector<std::vector<int>>>()[1][1] == 3);
}

TEST_CASE("stl: map, unordered_map", "[stl]") {
  Any m = std::map<std::string, int>{{"a", 1}, {"b", 2}};
  REQUIRE(m.type_index() == TypeIndex::kTVMFFIMap);
  Map<String, int> as_map = m.cast<Map<String, int>>();
  CHECK(as_map.size() == 2);
  CHECK(as_map.at("b") == 2);
  auto um = m.cast<std::unordered_map<std::string, int64_t>>();
  CHECK(um.size() == 2);
  CHECK(um.at("a") == 1);
  CHECK(!m.try_cast<std::map<int, int>>().has_value());  // keys are strings
  CHECK(!Any(Array<int>{1}).try_cast<std::map<int, int>>().has_value());
}

TEST_CASE("stl: optional, variant", "[stl]") {
  CHECK(Any(std::optional<int>()).type_index() == TypeIndex::kTVMFFINone);
  CHECK(Any(std::optional<int>(7)).cast<int>() == 7);
  CHECK(Any(nullptr).cast<std::optional<int>>() == std::nullopt);
  CHECK(Any(8).cast<std::optional<int>>() == 8);
  // A value that is neither None nor a T does not convert at all.
  CHECK(!Any(String("x")).try_cast<std::optional<int>>().has_value());

  using V = std::variant<int, std::string, std::vector<int>>;
  CHECK(Any(V(std::string("s"))).cast<String>() == "s");
  CHECK(Any(5).cast<V>().index() == 0);
  CHECK(Any(String("t")).cast<V>().index() == 1);
  CHECK(std::get<2>(Any(Array<int>{1, 2}).cast<V>()) == std::vector<int>{1, 2});
  CHECK(!Any(1.5).try_cast<std::variant<std::string, std::vector<int>>>().has_value());
  // In order: 1 converts to the first alternative that takes an int.
  CHECK(Any(1).cast<std::variant<double, int>>().index() == 0);
}

TEST_CASE("stl: std::function both ways", "[stl]") {
  Any f = std::function<int(int)>([](int x) { return x * 2; });
  REQUIRE(f.type_index() == TypeIndex::kTVMFFIFunction);
  CHECK(f.cast<Function>()(21).cast<int>() == 42);
  std::function<int(int)> back = f.cast<std::function<int(int)>>();
  CHECK(back(5) == 10);
  CHECK(ErrorOf([] { Any(std::function<void()>()); }) ==
        "ValueError: an empty std::function does not convert to ffi.Function");
  CHECK(!Any(1).try_cast<std::function<void()>>().has_value());
}

TEST_CASE("stl: typed functions take and return STL types", "[stl]") {
  Function sum_rows = Function::FromTyped(
      [](const std::vector<std::array<int, 2>>& rows) -> std::optional<std::vector<int>> {
        if (rows.empty()) return std::nullopt;
        std::vector<int> out;
        for (const auto& r : rows) out.push_back(r[0] + r[1]);
        return out;
      },
      "sum_rows");
  Any r = sum_rows(Array<Any>{Array<int>{1, 2}, Array<int>{3, 4}});
  CHECK(r.cast<std::vector<int>>() == std::vector<int>{3, 7});
  CHECK(sum_rows(Array<Any>{}) == nullptr);
  CHECK(ErrorOf([&] { sum_rows(Array<Any>{Array<int>{1, 2, 3}}); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `sum_rows(0: "
        "std::vector<std::array<int, 2>>) -> std::optional<std::vector<int>>`. Expected "
        "`std::vector<std::array<int, 2>>` but got `ffi.Array`");
  // The type schema of a signature names the STL types.
  CHECK(TypeTraits<std::map<std::string, int>>::TypeSchema() ==
        R"({"type":"std::map","args":[{"type":"std::string"},{"type":"int"}]})");
  // No leak: the converted array is the result's only owner.
  Any v = std::vector<String>{"x"};
  CHECK(v.cast<Array<String>>().use_count() == 2);  // v and the temporary
}

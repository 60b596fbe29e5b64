// container/map_base.h, map.h and dict.h: Map<K, V>, Dict<K, V>.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <string>
#include <utility>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

template <typename M>
std::vector<std::pair<String, int64_t>> Pairs(const M& m) {
  return {m.begin(), m.end()};
}

// A map of n pairs "k<i>" -> i made by the runtime (dense once n > 4).
Map<String, int64_t> RuntimeMap(int n) {
  std::vector<Any> args;
  for (int i = 0; i < n; ++i) {
    args.emplace_back(String("k" + std::to_string(i)));
    args.emplace_back(int64_t{i});
  }
  std::vector<AnyView> views(args.begin(), args.end());
  Any out;
  Function::GetGlobalRequired("ffi.Map").CallPacked(views.data(), static_cast<int32_t>(views.size()),
                                                    &out);
  return out.cast<Map<String, int64_t>>();
}

}  // namespace

TEST_CASE("map: layout is upstream's", "[map]") {
  STATIC_REQUIRE(sizeof(Map<String, int>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(MapObj) == 24 + 56);
  STATIC_REQUIRE(sizeof(Dict<String, int>) == sizeof(void*));
  Map<String, int64_t> m{{"a", 1}};
  CHECK(m.get()->type_index() == kTVMFFIMap);
  CHECK(static_cast<const MapObj*>(m.get())->IsSmallMap());
  CHECK(!static_cast<const MapObj*>(RuntimeMap(40).get())->IsSmallMap());
}

TEST_CASE("map: reads on small and dense maps made by the runtime", "[map]") {
  for (int n : {0, 3, 4, 5, 17, 300}) {
    Map<String, int64_t> m = RuntimeMap(n);
    REQUIRE(m.size() == static_cast<size_t>(n));
    std::vector<std::pair<String, int64_t>> pairs = Pairs(m);
    for (int i = 0; i < n; ++i) {
      String key("k" + std::to_string(i));
      CHECK(pairs[i].first == key);  // insertion order
      CHECK(pairs[i].second == i);
      CHECK(m.at(key) == i);
      CHECK(m.count(key) == 1);
      CHECK(m.find(key) != m.end());
    }
    CHECK(m.count("absent") == 0);
    CHECK(!m.Get("absent").has_value());
    CHECK(m.find("absent") == m.end());
    CHECK(ErrorOf([&] { (void)m.at("absent"); }) == "KeyError: key is not in Map");
    if (n > 0) {
      auto last = m.end();
      --last;
      CHECK((*last).second == n - 1);
    }
  }
}

TEST_CASE("map: copy-on-write", "[map]") {
  Map<String, int64_t> a{{"x", 1}, {"y", 2}};
  Map<String, int64_t> b = a;
  b.Set("x", 10);
  b.Set("z", 3);
  CHECK(a.at("x") == 1);
  CHECK(a.size() == 2);
  CHECK(Pairs(b) == std::vector<std::pair<String, int64_t>>{{"x", 10}, {"y", 2}, {"z", 3}});
  b.erase("y");
  b.erase("absent");
  CHECK(Pairs(b) == std::vector<std::pair<String, int64_t>>{{"x", 10}, {"z", 3}});
  Map<String, int64_t> c = b;
  c.clear();
  CHECK(c.empty());
  CHECK(b.size() == 2);
  // Grows through the dense form.
  Map<String, int64_t> big;
  for (int i = 0; i < 40; ++i) big.Set("k" + std::to_string(i), i);
  CHECK(!static_cast<const MapObj*>(big.get())->IsSmallMap());
  CHECK(big.at("k39") == 39);
  CHECK(Merge(a, Map<String, int64_t>{{"x", 5}}).at("x") == 5);
}

TEST_CASE("map: Any conversion", "[map]") {
  Map<String, int64_t> m{{"a", 1}};
  Any held = m;
  CHECK(held.cast<Map<String, int64_t>>().same_as(m));
  Map<String, double> converted = held.cast<Map<String, double>>();
  CHECK(!converted.same_as(m));
  CHECK(converted.at("a") == 1.0);
  Map<Any, Any> bad{{Any(1), Any(String("v"))}};
  CHECK(ErrorOf([&] { (void)Any(bad).cast<Map<String, Any>>(); }) ==
        "TypeError: Cannot convert from type `Map[some key is int, V]` to `Map<str, Any>`");
  CHECK(ErrorOf([&] { (void)Any(bad).cast<Map<Any, int64_t>>(); }) ==
        "TypeError: Cannot convert from type `Map[K, some value is ffi.SmallStr]` to "
        "`Map<Any, int>`");
  CHECK(TypeTraits<Map<String, int64_t>>::TypeSchema() ==
        "{\"type\":\"ffi.Map\",\"args\":[{\"type\":\"ffi.String\"},{\"type\":\"int\"}]}");
  Dict<String, int64_t> as_dict = held.cast<Dict<String, int64_t>>();
  CHECK(as_dict.get()->type_index() == kTVMFFIDict);
  CHECK(as_dict.at("a") == 1);
}

TEST_CASE("dict: shared and mutated in place", "[dict]") {
  Dict<String, int64_t> a{{"x", 1}};
  Dict<String, int64_t> b = a;
  const Object* obj = a.get();
  for (int i = 0; i < 30; ++i) b.Set("k" + std::to_string(i), i);
  b.Set("x", 7);
  CHECK(a.get() == obj);
  CHECK(a.size() == 31);
  CHECK(a.at("x") == 7);
  CHECK(a.at("k29") == 29);
  b.erase("x");
  b.erase("absent");
  CHECK(a.count("x") == 0);
  CHECK(ErrorOf([&] { (void)a.at("x"); }) == "KeyError: key is not in Map");
  a.clear();
  CHECK(b.empty());
  // The runtime sees the same pairs.
  b.Set("q", 5);
  CHECK(Function::GetGlobalRequired("ffi.DictGetItem")(b, "q").cast<int64_t>() == 5);
  CHECK(Function::GetGlobalRequired("ffi.DictSize")(b).cast<int64_t>() == 1);
}

TEST_CASE("map: inline lookup hashes keys as the runtime does", "[map]") {
  // Dense maps of other key kinds: ints (negative too), floats, bools,
  // long strings, and objects (by identity).
  Map<Any, int64_t> m;
  std::vector<Any> keys;
  for (int64_t i = -20; i < 20; ++i) keys.emplace_back(i * 1000003);
  for (int i = 0; i < 10; ++i) keys.emplace_back(0.5 + i);
  keys.emplace_back(true);
  for (int i = 0; i < 10; ++i) keys.emplace_back(String(std::string(30, 'a' + i)));
  for (int i = 0; i < 5; ++i) keys.emplace_back(Array<int64_t>{i});
  for (size_t i = 0; i < keys.size(); ++i) m.Set(keys[i], static_cast<int64_t>(i));
  REQUIRE(!static_cast<const MapObj*>(m.get())->IsSmallMap());
  Function runtime_get = Function::GetGlobalRequired("ffi.MapGetItem");
  for (size_t i = 0; i < keys.size(); ++i) {
    CHECK(m.at(keys[i]) == static_cast<int64_t>(i));
    CHECK(runtime_get(m, keys[i]).cast<int64_t>() == static_cast<int64_t>(i));
  }
  CHECK(m.count(Array<int64_t>{0}) == 0);  // another object with equal contents
  CHECK(m.count(int64_t{7}) == 0);
  CHECK(m.size() == keys.size());
}

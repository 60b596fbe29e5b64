// Dicts: ffi.Dict and its globals, in-place mutation, erase and iteration.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

std::vector<std::pair<int64_t, int64_t>> IntItems(const Any& dict) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (Call("ffi.DictSize", dict).cast<int64_t>() == 0) return out;
  Function it = Call("ffi.DictForwardIterFunctor", dict).cast<Function>();
  do {
    out.emplace_back(it(int64_t(0)).cast<int64_t>(), it(int64_t(1)).cast<int64_t>());
  } while (it(int64_t(2)).cast<bool>());
  return out;
}

using Items = std::vector<std::pair<int64_t, int64_t>>;

}  // namespace

TEST_CASE("Dict: construct, set, get, count, size", "[dict]") {
  Any d = Call("ffi.Dict", "a", int64_t(1));
  REQUIRE(d.type_index() == kTVMFFIDict);
  Call("ffi.DictSetItem", d, "b", int64_t(2));
  Call("ffi.DictSetItem", d, "a", int64_t(10));
  CHECK(Call("ffi.DictSize", d).cast<int64_t>() == 2);
  CHECK(Call("ffi.DictGetItem", d, "a").cast<int64_t>() == 10);
  CHECK(Call("ffi.DictGetItem", d, String("b")).cast<int64_t>() == 2);
  CHECK(Call("ffi.DictCount", d, "b").cast<int64_t>() == 1);
  CHECK(Call("ffi.DictCount", d, "c").cast<int64_t>() == 0);
  CHECK(ThrownBy([] { Call("ffi.Dict", int64_t(1)); }) ==
        "ValueError: ffi.Dict expects an even number of arguments (key0, value0, key1, value1, "
        "...), got 1");
}

TEST_CASE("Dict: mutation is shared by every reference", "[dict]") {
  Any d = Call("ffi.Dict");
  Dict<Any, Any> cpp = d.cast<Dict<Any, Any>>();
  cpp.Set(int64_t(1), int64_t(2));
  CHECK(Call("ffi.DictGetItem", d, int64_t(1)).cast<int64_t>() == 2);
  Call("ffi.DictSetItem", d, int64_t(3), int64_t(4));
  CHECK(cpp.at(int64_t(3)).cast<int64_t>() == 4);
}

TEST_CASE("Dict: missing keys", "[dict]") {
  Any d = Call("ffi.Dict", int64_t(1), int64_t(1));
  CHECK(ThrownBy([&] { Call("ffi.DictGetItem", d, int64_t(2)); }) ==
        "KeyError: key 2 not found in Dict");
  CHECK(ThrownBy([&] { Call("ffi.DictErase", d, "k"); }) ==
        "KeyError: key \"k\" not found in Dict");
  Any got = Call("ffi.DictGetItemOrMissing", d, int64_t(2));
  CHECK(HandleOf(got) == HandleOf(Call("ffi.GetInvalidObject")));
  CHECK(Call("ffi.DictGetItemOrMissing", d, int64_t(1)).cast<int64_t>() == 1);
}

TEST_CASE("Dict: erase and iterate keep insertion order", "[dict]") {
  Any d = Call("ffi.Dict");
  for (int64_t i = 0; i < 6; ++i) Call("ffi.DictSetItem", d, i, i * 10);
  Call("ffi.DictErase", d, int64_t(0));
  Call("ffi.DictErase", d, int64_t(3));
  Call("ffi.DictErase", d, int64_t(5));
  CHECK(IntItems(d) == Items{{1, 10}, {2, 20}, {4, 40}});
  Call("ffi.DictSetItem", d, int64_t(3), int64_t(33));
  // In the dense form (the Dict has held more than 4 pairs) a new value
  // moves its key to the end, as in apache-tvm-ffi.
  Call("ffi.DictSetItem", d, int64_t(1), int64_t(11));
  CHECK(IntItems(d) == Items{{2, 20}, {4, 40}, {3, 33}, {1, 11}});
  Call("ffi.DictClear", d);
  CHECK(Call("ffi.DictSize", d).cast<int64_t>() == 0);
  CHECK(IntItems(d).empty());
  Call("ffi.DictSetItem", d, int64_t(9), int64_t(90));
  CHECK(IntItems(d) == Items{{9, 90}});
}

TEST_CASE("Dict: in the small form a new value keeps the key's place", "[dict]") {
  Any d = Call("ffi.Dict", int64_t(1), int64_t(1), int64_t(2), int64_t(2), int64_t(3),
               int64_t(3));
  Call("ffi.DictSetItem", d, int64_t(1), int64_t(10));
  CHECK(IntItems(d) == Items{{1, 10}, {2, 2}, {3, 3}});
  Call("ffi.DictErase", d, int64_t(2));
  CHECK(IntItems(d) == Items{{1, 10}, {3, 3}});
}

TEST_CASE("Dict: the iterator follows its key when the Dict grows", "[dict]") {
  Any d = Call("ffi.Dict", int64_t(1), int64_t(1), int64_t(2), int64_t(2));
  Function it = Call("ffi.DictForwardIterFunctor", d).cast<Function>();
  CHECK(it(int64_t(0)).cast<int64_t>() == 1);
  // 2 -> 4 slots, then the dense form, then a rehash: every pair moves.
  for (int64_t k = 3; k < 40; ++k) Call("ffi.DictSetItem", d, k, k);
  CHECK(it(int64_t(1)).cast<int64_t>() == 1);
  CHECK(it(int64_t(2)).cast<bool>());
  CHECK(it(int64_t(0)).cast<int64_t>() == 2);
}

TEST_CASE("Dict: erasing the iterator's current key is a RuntimeError", "[dict]") {
  for (int64_t n : {int64_t(3), int64_t(10)}) {  // small and dense forms
    Any d = Call("ffi.Dict");
    for (int64_t k = 0; k < n; ++k) Call("ffi.DictSetItem", d, k, k);
    Function it = Call("ffi.DictForwardIterFunctor", d).cast<Function>();
    CHECK(it(int64_t(2)).cast<bool>());
    Call("ffi.DictErase", d, int64_t(1));
    CHECK(ThrownBy([&] { it(int64_t(0)); }) ==
          "RuntimeError: Dict changed during iteration: the current key 1 was removed");
    CHECK(ThrownBy([&] { it(int64_t(2)); }) ==
          "RuntimeError: Dict changed during iteration: the current key 1 was removed");
  }
}

TEST_CASE("Dict: the iterator skips pairs erased while iterating", "[dict]") {
  Any d = Call("ffi.Dict", int64_t(1), int64_t(1), int64_t(2), int64_t(2), int64_t(3),
               int64_t(3));
  Function it = Call("ffi.DictForwardIterFunctor", d).cast<Function>();
  CHECK(it(int64_t(0)).cast<int64_t>() == 1);
  Call("ffi.DictErase", d, int64_t(2));
  CHECK(it(int64_t(2)).cast<bool>());
  CHECK(it(int64_t(0)).cast<int64_t>() == 3);
  CHECK_FALSE(it(int64_t(2)).cast<bool>());
  CHECK(ThrownBy([&] { it(int64_t(1)); }) == "IndexError: Dict iterator is past the end");
}

TEST_CASE("Dict: values and keys are released exactly once", "[dict]") {
  int values_deleted = 0;
  int keys_deleted = 0;
  Any d = Call("ffi.Dict");
  {
    ObjectRef key = MakeCounted(&keys_deleted);
    ObjectRef value = MakeCounted(&values_deleted);
    Call("ffi.DictSetItem", d, key, value);
    CHECK(key.use_count() == 2);
    CHECK(value.use_count() == 2);
    // Replacing the value releases the old one and keeps the first key.
    Call("ffi.DictSetItem", d, key, int64_t(0));
    CHECK(value.use_count() == 1);
    Call("ffi.DictSetItem", d, key, value);
    Call("ffi.DictErase", d, key);
    CHECK(key.use_count() == 1);
    CHECK(value.use_count() == 1);
    Call("ffi.DictSetItem", d, key, value);
  }
  CHECK(keys_deleted == 0);
  CHECK(values_deleted == 0);
  Call("ffi.DictClear", d);
  CHECK(keys_deleted == 1);
  CHECK(values_deleted == 1);
  Call("ffi.DictSetItem", d, "v", MakeCounted(&values_deleted));
  d = Any();
  CHECK(values_deleted == 2);
}

TEST_CASE("Dict: random inserts and erases agree with std::map", "[dict]") {
  std::mt19937 rng(1234);
  Dict<Any, Any> d;
  std::map<int64_t, int64_t> model;
  // The iteration order apache-tvm-ffi gives: insertion order; a new value
  // for a present key keeps its place in the small form (at most 4 pairs,
  // room for 2 then 4) and moves the key to the end in the dense form,
  // which a small map at 4 of 4 pairs enters on any Set.
  std::vector<int64_t> order;
  uint64_t small_slots = 2;
  bool dense = false;
  for (int step = 0; step < 5000; ++step) {
    int64_t key = static_cast<int64_t>(rng() % 200);
    if (rng() % 3 == 0) {
      bool present = model.erase(key) != 0;
      if (present) {
        Call("ffi.DictErase", d, key);
        order.erase(std::find(order.begin(), order.end(), key));
      } else {
        CHECK(ThrownBy([&] { Call("ffi.DictErase", d, key); }) ==
              "KeyError: key " + std::to_string(key) + " not found in Dict");
      }
    } else {
      bool present = model.count(key) != 0;
      if (!dense && small_slots == 4 && order.size() == 4) dense = true;
      if (!dense && !present && order.size() == small_slots) small_slots = 4;
      if (present && dense) order.erase(std::find(order.begin(), order.end(), key));
      if (!present || dense) order.push_back(key);
      model[key] = step;
      d.Set(key, int64_t(step));
    }
    if (step % 97 == 0) {
      std::vector<int64_t> seen;
      for (auto kv : d) seen.push_back(kv.first.cast<int64_t>());
      REQUIRE(seen == order);
    }
  }
  REQUIRE(d.size() == model.size());
  for (const auto& kv : model) CHECK(d.at(kv.first).cast<int64_t>() == kv.second);
  int64_t n = 0;
  for (auto kv : d) {
    CHECK(model.at(kv.first.cast<int64_t>()) == kv.second.cast<int64_t>());
    ++n;
  }
  CHECK(static_cast<size_t>(n) == d.size());
}

TEST_CASE("Dict: globals refuse a Map (no silent copy)", "[dict]") {
  Any m = Call("ffi.Map");
  CHECK(ThrownBy([&] { Call("ffi.DictSetItem", m, "a", int64_t(1)); }) ==
        "TypeError: In function ffi.DictSetItem: argument 1: expected ffi.Dict, got ffi.Map");
}

TEST_CASE("Dict: typed Dict parameters accept a Map as a copy", "[dict]") {
  Function f = Function::FromTyped(
      [](Dict<Any, Any> d) {
        d.Set("added", int64_t(1));
        return d.size();
      },
      "testing.dsize");
  Any m = Call("ffi.Map", "a", int64_t(1));
  CHECK(f(m).cast<int64_t>() == 2);
  CHECK(Call("ffi.MapSize", m).cast<int64_t>() == 1);
  Any d = Call("ffi.Dict");
  CHECK(f(d).cast<int64_t>() == 1);
  CHECK(Call("ffi.DictSize", d).cast<int64_t>() == 1);
}

TEST_CASE("Dict: testing.as_dict converts a Map and keeps a Dict", "[dict]") {
  Any d = Call("ffi.Dict", int64_t(1), int64_t(2));
  CHECK(HandleOf(CallTesting("testing.as_dict", d)) == HandleOf(d));
  Any converted = CallTesting("testing.as_dict", Call("ffi.Map", int64_t(3), int64_t(4)));
  CHECK(converted.type_index() == kTVMFFIDict);
  CHECK(IntItems(converted) == Items{{3, 4}});
}

// Maps: ffi.Map globals, key equality, iteration order, C++ copy on write.
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"
#include "core/impl/map.h"
#include "core/impl/string.h"

using namespace tvm::ffi::detail::impl;
using namespace test_util;

namespace {

// (key, value) pairs in iteration order, rendered as text.
std::vector<std::string> Items(const Any& map, const char* prefix = "ffi.Map") {
  std::vector<std::string> out;
  int64_t n = Call(std::string(prefix) + "Size", map).As<int64_t>();
  if (n == 0) return out;
  Function it = Call(std::string(prefix) + "ForwardIterFunctor", map).As<Function>();
  do {
    Any k = it(int64_t(0));
    Any v = it(int64_t(1));
    out.push_back(RenderKey(*k.raw()) + "=" + RenderKey(*v.raw()));
  } while (it(int64_t(2)).As<bool>());
  return out;
}

}  // namespace

TEST_CASE("Map: construct, size, get item, count", "[map]") {
  Any m = Call("ffi.Map", "a", int64_t(1), int64_t(2), "two");
  REQUIRE(m.type_index() == kTVMFFIMap);
  CHECK(Call("ffi.MapSize", m).As<int64_t>() == 2);
  CHECK(Call("ffi.MapGetItem", m, "a").As<int64_t>() == 1);
  CHECK(StrOf(Call("ffi.MapGetItem", m, int64_t(2))) == "two");
  CHECK(Call("ffi.MapCount", m, "a").As<int64_t>() == 1);
  CHECK(Call("ffi.MapCount", m, "b").As<int64_t>() == 0);
  CHECK(Call("ffi.MapSize", Call("ffi.Map")).As<int64_t>() == 0);
}

TEST_CASE("Map: odd argument count is a ValueError", "[map]") {
  CHECK(ThrownBy([] { Call("ffi.Map", "a", int64_t(1), "b"); }) ==
        "ValueError: ffi.Map expects an even number of arguments (key0, value0, key1, value1, "
        "...), got 3");
}

TEST_CASE("Map: missing key is a KeyError naming the key", "[map]") {
  Any m = Call("ffi.Map", "a", int64_t(1));
  CHECK(ThrownBy([&] { Call("ffi.MapGetItem", m, "zz"); }) ==
        "KeyError: key \"zz\" not found in Map");
  CHECK(ThrownBy([&] { Call("ffi.MapGetItem", m, int64_t(42)); }) ==
        "KeyError: key 42 not found in Map");
  CHECK(ThrownBy([&] { Call("ffi.MapGetItem", m, 1.5); }) ==
        "KeyError: key 1.5 not found in Map");
  CHECK(ThrownBy([&] { Call("ffi.MapGetItem", m, "q\"\\"); }) ==
        "KeyError: key \"q\\\"\\\\\" not found in Map");
  CHECK(ThrownBy([&] { Call("ffi.MapGetItem", m, Bytes("a", 1)); }) ==
        "KeyError: key b\"a\" not found in Map");
  CHECK(ThrownBy([&] { Call("ffi.MapGetItem", m, nullptr); }) ==
        "KeyError: key None not found in Map");
}

TEST_CASE("Map: small, heap and borrowed string keys are the same key", "[map]") {
  // A heap String shorter than 8 bytes (as made by adopting a std::string).
  String heap_abc("abc");
  REQUIRE(heap_abc.type_index() == kTVMFFIStr);
  Any m = Call("ffi.Map", heap_abc, int64_t(1));
  CHECK(Call("ffi.MapGetItem", m, "abc").As<int64_t>() == 1);  // borrowed C string
  TVMFFIAny small;
  MakeStringAny("abc", 3, false, &small);
  REQUIRE(small.type_index == kTVMFFISmallStr);
  CHECK(Call("ffi.MapGetItem", m, AnyView::FromRaw(small)).As<int64_t>() == 1);
  // And the other way round: a small key found by a heap String.
  Any m2 = Call("ffi.Map", "xyz", int64_t(2));
  CHECK(Call("ffi.MapGetItem", m2, String("xyz")).As<int64_t>() == 2);
  // The same text as two keys collapses to one entry, last value wins.
  Any m3 = Call("ffi.Map", heap_abc, int64_t(1), "abc", int64_t(2));
  CHECK(Call("ffi.MapSize", m3).As<int64_t>() == 1);
  CHECK(Call("ffi.MapGetItem", m3, "abc").As<int64_t>() == 2);
  // Long strings: two distinct heap objects with the same text.
  std::string text = "a key longer than seven bytes";
  Any m4 = Call("ffi.Map", String(text), int64_t(3));
  CHECK(Call("ffi.MapGetItem", m4, String(text)).As<int64_t>() == 3);
  CHECK(Call("ffi.MapGetItem", m4, text.c_str()).As<int64_t>() == 3);
}

TEST_CASE("Map: int, float, bool, str and bytes keys are all different", "[map]") {
  Any m = Call("ffi.Map", int64_t(1), "int", 1.0, "float", true, "bool", "1", "str",
               Bytes("1", 1), "bytes");
  CHECK(Call("ffi.MapSize", m).As<int64_t>() == 5);
  CHECK(StrOf(Call("ffi.MapGetItem", m, int64_t(1))) == "int");
  CHECK(StrOf(Call("ffi.MapGetItem", m, 1.0)) == "float");
  CHECK(StrOf(Call("ffi.MapGetItem", m, true)) == "bool");
  CHECK(StrOf(Call("ffi.MapGetItem", m, "1")) == "str");
  CHECK(StrOf(Call("ffi.MapGetItem", m, Bytes("1", 1))) == "bytes");
}

TEST_CASE("Map: object keys compare by identity", "[map]") {
  int deleted = 0;
  ObjectRef a = MakeCounted(&deleted);
  ObjectRef b = MakeCounted(&deleted);
  Any m = Call("ffi.Map", a, int64_t(1), b, int64_t(2));
  CHECK(Call("ffi.MapGetItem", m, b).As<int64_t>() == 2);
  CHECK(a.use_count() == 2);
  m = Any();
  CHECK(a.use_count() == 1);
  CHECK(deleted == 0);
}

TEST_CASE("Map: get item or missing returns the MISSING sentinel", "[map]") {
  Any m = Call("ffi.Map", "a", int64_t(1));
  Any missing = Call("ffi.GetInvalidObject");
  Any got = Call("ffi.MapGetItemOrMissing", m, "b");
  CHECK(got.type_index() == kTVMFFIObject);
  CHECK(HandleOf(got) == HandleOf(missing));
  CHECK(Call("ffi.MapGetItemOrMissing", m, "a").As<int64_t>() == 1);
}

TEST_CASE("Map: the iterator functor walks in insertion order", "[map]") {
  Any m = Call("ffi.Map", "z", int64_t(1), int64_t(5), int64_t(2), "a", int64_t(3));
  CHECK(Items(m) == std::vector<std::string>{"\"z\"=1", "5=2", "\"a\"=3"});
  Function it = Call("ffi.MapForwardIterFunctor", m).As<Function>();
  CHECK(it(int64_t(2)).As<bool>());
  CHECK(it(int64_t(2)).As<bool>());
  CHECK_FALSE(it(int64_t(2)).As<bool>());
  CHECK(ThrownBy([&] { it(int64_t(0)); }) == "IndexError: Map iterator is past the end");
  CHECK(ThrownBy([&] { it(int64_t(7)); }) ==
        "ValueError: Map iterator: unknown command 7 (0 = key, 1 = value, 2 = advance)");
}

TEST_CASE("Map: the iterator keeps the map alive", "[map]") {
  int deleted = 0;
  Function it;
  {
    Any m = Call("ffi.Map", "k", MakeCounted(&deleted));
    it = Call("ffi.MapForwardIterFunctor", m).As<Function>();
  }
  CHECK(deleted == 0);
  CHECK(it(int64_t(1)).type_index() == kTVMFFIOpaquePyObject);
  it = Function();
  CHECK(deleted == 1);
}

TEST_CASE("Map: many keys stay findable and ordered", "[map]") {
  std::vector<AnyView> args;
  std::vector<std::string> keys;
  for (int i = 0; i < 300; ++i) keys.push_back("key-" + std::to_string(i));
  for (int i = 0; i < 300; ++i) {
    args.push_back(AnyView(keys[i]));
    args.push_back(AnyView(int64_t(i)));
  }
  Any m = Function::GetGlobalRequired("ffi.Map").CallPacked(args.data(),
                                                            static_cast<int32_t>(args.size()));
  CHECK(Call("ffi.MapSize", m).As<int64_t>() == 300);
  for (int i = 0; i < 300; ++i) {
    CHECK(Call("ffi.MapGetItem", m, keys[i]).As<int64_t>() == i);
  }
  std::vector<std::string> items = Items(m);
  REQUIRE(items.size() == 300);
  CHECK(items[0] == "\"key-0\"=0");
  CHECK(items[299] == "\"key-299\"=299");
}

TEST_CASE("Map: globals refuse a Dict", "[map]") {
  Any d = Call("ffi.Dict");
  CHECK(ThrownBy([&] { Call("ffi.MapSize", d); }) ==
        "TypeError: In function ffi.MapSize: argument 1: expected ffi.Map, got ffi.Dict");
}

TEST_CASE("Map: C++ Map copies on write", "[map]") {
  Map a{{"x", int64_t(1)}, {"y", int64_t(2)}};
  Map b = a;
  b.Set("z", int64_t(3));
  CHECK(a.size() == 2);
  CHECK(b.size() == 3);
  CHECK_FALSE(a.same_as(b));
  CHECK(b.Erase("x"));
  CHECK_FALSE(b.Erase("x"));
  CHECK(a.count("x") == 1);
  CHECK(b.count("x") == 0);
  CHECK(ThrownBy([&] { b.at("x"); }) == "KeyError: key \"x\" not found in Map");
  CHECK(!b.Get("x").has_value());
  CHECK(b.Get("z")->As<int64_t>() == 3);
  std::vector<std::string> keys;
  for (auto kv : b) keys.push_back(StrOf(kv.first));
  CHECK(keys == std::vector<std::string>{"y", "z"});
}

TEST_CASE("Map: typed Map parameters accept a Dict as a copy", "[map]") {
  Function size = Function::FromTyped([](Map m) { return m.size(); }, "testing.msize");
  CHECK(size(Call("ffi.Dict", "a", int64_t(1))).As<int64_t>() == 1);
  CHECK(ThrownBy([&] { size(int64_t(1)); }) ==
        "TypeError: In function testing.msize: argument 1: expected ffi.Map, got int");
}

TEST_CASE("Map: key hash agrees with key equality", "[map]") {
  TVMFFIAny small;
  MakeStringAny("abc", 3, false, &small);
  String heap("abc");
  AnyView heap_view(heap);
  AnyView raw_view("abc");
  CHECK(AnyKeyHash(small) == AnyKeyHash(*heap_view.raw()));
  CHECK(AnyKeyHash(small) == AnyKeyHash(*raw_view.raw()));
  CHECK(AnyKeyEqual(small, *heap_view.raw()));
  TVMFFIAny small_bytes;
  MakeStringAny("abc", 3, true, &small_bytes);
  CHECK_FALSE(AnyKeyEqual(small, small_bytes));
  CHECK(AnyKeyHash(small) != AnyKeyHash(small_bytes));
}

TEST_CASE("Map: testing.as_map converts a Dict and keeps a Map", "[map]") {
  Any m = Call("ffi.Map", "a", int64_t(1));
  CHECK(HandleOf(CallTesting("testing.as_map", m)) == HandleOf(m));
  Any converted = CallTesting("testing.as_map", Call("ffi.Dict", "b", int64_t(2)));
  CHECK(converted.type_index() == kTVMFFIMap);
  CHECK(Items(converted) == std::vector<std::string>{"\"b\"=2"});
}

namespace {

// The map fields after the object header (docs/abi.md, "Map and Dict").
const detail::MapCell& CellOf(const Any& m) {
  return static_cast<const MapBaseObj*>(Object::FromHandle(HandleOf(m)))->cell();
}

Any IntMap(int n) {
  std::vector<AnyView> args;
  for (int i = 0; i < n; ++i) {
    args.push_back(AnyView(int64_t(i)));
    args.push_back(AnyView(int64_t(i)));
  }
  return Function::GetGlobalRequired("ffi.Map").CallPacked(args.data(),
                                                           static_cast<int32_t>(args.size()));
}

}  // namespace

TEST_CASE("Map: layout of the small and dense forms", "[map]") {
  static_assert(offsetof(detail::MapCell, data) + sizeof(TVMFFIObject) == 24, "data");
  static_assert(offsetof(detail::MapCell, size) + sizeof(TVMFFIObject) == 32, "size");
  static_assert(offsetof(detail::MapCell, slots) + sizeof(TVMFFIObject) == 40, "slots");
  static_assert(offsetof(detail::MapCell, data_deleter) + sizeof(TVMFFIObject) == 48, "deleter");
  static_assert(offsetof(detail::MapCell, fib_shift) + sizeof(TVMFFIObject) == 56, "fib_shift");
  static_assert(offsetof(detail::MapCell, iter_list_head) + sizeof(TVMFFIObject) == 64, "head");
  static_assert(offsetof(detail::MapCell, iter_list_tail) + sizeof(TVMFFIObject) == 72, "tail");
  static_assert(sizeof(detail::DenseMap::Block) == 16 + 16 * 48, "dense block");
  const uint64_t kSmall = uint64_t(1) << 63;
  // Empty and 1-2 pairs: small, room for 2, stored inside the object.
  Any m0 = IntMap(0);
  CHECK(CellOf(m0).slots == (kSmall | 2));
  CHECK(CellOf(m0).size == 0);
  CHECK(CellOf(m0).data == static_cast<const char*>(HandleOf(m0)) + 80);
  CHECK(CellOf(m0).data_deleter == nullptr);
  Any m2 = IntMap(2);
  CHECK(CellOf(m2).slots == (kSmall | 2));
  const detail::MapKV* kv = static_cast<const detail::MapKV*>(CellOf(m2).data);
  CHECK(kv[1].key.type_index == kTVMFFIInt);
  CHECK(kv[1].key.v_int64 == 1);
  // 3-4 pairs: small with room for 4.
  CHECK(CellOf(IntMap(3)).slots == (kSmall | 4));
  CHECK(CellOf(IntMap(4)).slots == (kSmall | 4));
  // 5 pairs: dense, 8 entries, shift 61; iteration list from the first key.
  Any m5 = IntMap(5);
  const detail::MapCell& c5 = CellOf(m5);
  CHECK(c5.slots == 8);
  CHECK(c5.size == 5);
  CHECK(c5.fib_shift == 61);
  CHECK(c5.data_deleter != nullptr);
  const detail::DenseMap::Block* block = static_cast<const detail::DenseMap::Block*>(c5.data);
  CHECK(block->items[c5.iter_list_head].kv.key.v_int64 == 0);
  CHECK(block->items[c5.iter_list_tail].kv.key.v_int64 == 4);
  CHECK(block->items[c5.iter_list_head].prev == ~uint64_t(0));
  int empty = 0;
  for (int i = 0; i < 8; ++i) empty += block->meta[i] == 0xFF;
  CHECK(empty == 3);
  // Growth doubles the table: 8 pairs no longer fit in 8 entries.
  CHECK(CellOf(IntMap(8)).slots == 16);
  CHECK(CellOf(IntMap(8)).fib_shift == 60);
}

TEST_CASE("Map: key hashes are apache-tvm-ffi's AnyHash", "[map]") {
  // Values printed by upstream's tvm::ffi::AnyHash (0.1.15.post2).
  CHECK(AnyKeyHash(*AnyView(int64_t(1)).raw()) == 2654435835ULL);
  CHECK(AnyKeyHash(*AnyView(int64_t(-5)).raw()) == 2654435829ULL);
  CHECK(AnyKeyHash(*AnyView(2.5).raw()) == 4612811920988666490ULL);
  CHECK(AnyKeyHash(*AnyView(true).raw()) == 2654435896ULL);
  CHECK(AnyKeyHash(*AnyView(nullptr).raw()) == 2654435769ULL);
  TVMFFIAny small;
  MakeStringAny("abc", 3, false, &small);
  CHECK(AnyKeyHash(small) == 2660953131ULL);
  CHECK(AnyKeyHash(*AnyView("abc").raw()) == 2660953131ULL);
  String heap("a key longer than seven bytes");
  CHECK(AnyKeyHash(*AnyView(heap).raw()) == 4196405962ULL);
  TVMFFIAny small_bytes;
  MakeStringAny("abc", 3, true, &small_bytes);
  CHECK(AnyKeyHash(small_bytes) == 2660953320ULL);
}

TEST_CASE("Map: the fast byte hash equals the plain definition at every length", "[map]") {
  // The plain definition: little-endian 8-byte words, the last one
  // zero-padded, h = (h * 1099511628211 + word) % (2^31 - 1), wrapping.
  auto plain = [](const unsigned char* p, size_t n) {
    uint64_t h = 0;
    for (size_t i = 0; i < n; i += 8) {
      uint64_t word = 0;
      for (size_t k = 0; k < 8 && i + k < n; ++k) word |= uint64_t(p[i + k]) << (8 * k);
      h = (h * 1099511628211ULL + word) % 2147483647ULL;
    }
    return h;
  };
  unsigned char buf[64];
  for (size_t i = 0; i < sizeof(buf); ++i) buf[i] = static_cast<unsigned char>(0xF7 - 37 * i);
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n + offset <= sizeof(buf); ++n) {
      const char* data = reinterpret_cast<const char*>(buf + offset);
      INFO("offset " << offset << ", length " << n);
      CHECK(detail::HashBytes(data, n) == plain(buf + offset, n));
    }
  }
}

namespace {

// An object type whose keys compare by `word` through the __any_hash__ and
// __any_equal__ type attributes (function pointers taking values by address).
class WordObj : public PlainObject {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(WordObj, "maptest.Word", PlainObject)
  explicit WordObj(int64_t w) : word(w) {}
  int64_t word;
};

int64_t WordOf(const TVMFFIAny* v) {
  return static_cast<const WordObj*>(Object::FromHandle(v->v_obj))->word;
}
TVMFFIAny WordHash(const TVMFFIAny* v) {
  TVMFFIAny out;
  AnyZero(&out);
  out.type_index = kTVMFFIInt;
  out.v_int64 = WordOf(v) % 3;  // collisions on purpose
  return out;
}
TVMFFIAny WordEqual(const TVMFFIAny* a, const TVMFFIAny* b) {
  TVMFFIAny out;
  AnyZero(&out);
  out.type_index = kTVMFFIBool;
  out.v_int64 = WordOf(a) == WordOf(b);
  return out;
}

void RegisterWordHooks() {
  static bool done = [] {
    int32_t index = WordObj::RuntimeTypeIndex();
    for (auto [name, fn] : {std::pair<const char*, void*>{"__any_hash__", (void*)&WordHash},
                            std::pair<const char*, void*>{"__any_equal__", (void*)&WordEqual}}) {
      TVMFFIByteArray attr = ByteArrayOf(name);
      TVMFFIAny value;
      AnyZero(&value);
      value.type_index = kTVMFFIOpaquePtr;
      value.v_ptr = fn;
      REQUIRE(TVMFFITypeRegisterAttr(index, &attr, &value) == 0);
    }
    return true;
  }();
  (void)done;
}

}  // namespace

TEST_CASE("Map: __any_hash__ and __any_equal__ type attributes define key identity", "[map]") {
  RegisterWordHooks();
  ObjectRef a(MakeObject<WordObj>(7));
  ObjectRef b(MakeObject<WordObj>(7));
  ObjectRef c(MakeObject<WordObj>(8));
  CHECK(AnyKeyHash(*AnyView(a).raw()) == AnyKeyHash(*AnyView(b).raw()));
  CHECK(AnyKeyEqual(*AnyView(a).raw(), *AnyView(b).raw()));
  CHECK_FALSE(AnyKeyEqual(*AnyView(a).raw(), *AnyView(c).raw()));
  for (int extra : {0, 20}) {  // small and dense forms
    Map m;
    for (int i = 0; i < extra; ++i) m.Set(ObjectRef(MakeObject<WordObj>(100 + i)), int64_t(i));
    m.Set(a, "a");
    m.Set(b, "b");  // the same key: replaces the value, keeps `a`
    m.Set(c, "c");
    CHECK(m.size() == extra + 2);
    CHECK(StrOf(m.at(ObjectRef(MakeObject<WordObj>(7)))) == "b");
    CHECK(StrOf(m.at(c)) == "c");
    for (int i = 0; i < extra; ++i) {
      CHECK(m.at(ObjectRef(MakeObject<WordObj>(100 + i))).As<int64_t>() == i);
    }
  }
}

TEST_CASE("Map: C++ Map copy keeps the dense table and shares nothing", "[map]") {
  Map a;
  for (int64_t i = 0; i < 50; ++i) a.Set(i, i);
  Map b = a;
  b.Set(int64_t(1000), int64_t(1));
  CHECK(a.size() == 50);
  CHECK(b.size() == 51);
  CHECK(b.at(int64_t(49)).As<int64_t>() == 49);
  const detail::MapCell& ca = a.GetMapObj()->cell();
  const detail::MapCell& cb = b.GetMapObj()->cell();
  CHECK(ca.data != cb.data);
  CHECK(ca.slots == cb.slots);
  CHECK(ca.fib_shift == cb.fib_shift);
  std::vector<int64_t> keys;
  for (auto kv : b) keys.push_back(kv.first.As<int64_t>());
  REQUIRE(keys.size() == 51);
  CHECK(keys.front() == 0);
  CHECK(keys.back() == 1000);
}

namespace {

// Keys whose __any_hash__ hook (an ffi.Function) fails once g_hash_budget
// calls have been made (-1: never): growth hashes every key again, so a
// failing hook stops it midway, after some keys were hashed.
int g_hash_budget = -1;

class FussyObj : public PlainObject {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(FussyObj, "maptest.Fussy", PlainObject)
  explicit FussyObj(int64_t w) : word(w) {}
  int64_t word;
};

void RegisterFussyHook() {
  static bool done = [] {
    Function hook = Function::FromTyped([](AnyView v) -> int64_t {
      if (g_hash_budget == 0) TVM_FFI_IMPL_THROW(ValueError) << "hash refused";
      if (g_hash_budget > 0) --g_hash_budget;
      return static_cast<const FussyObj*>(Object::FromHandle(v.raw()->v_obj))->word;
    });
    TVMFFIByteArray attr = ByteArrayOf("__any_hash__");
    Any value(hook);
    REQUIRE(TVMFFITypeRegisterAttr(FussyObj::RuntimeTypeIndex(), &attr, value.raw()) == 0);
    return true;
  }();
  (void)done;
}

// The dense table's iteration list, checked link by link in both
// directions; returns the keys in order, rendered.
std::vector<std::string> CheckedOrder(const Map& m) {
  const detail::MapCell& c = m.GetMapObj()->cell();
  detail::DenseMap dense(const_cast<detail::MapCell*>(&c));
  std::vector<std::string> keys;
  uint64_t prev = detail::kMapNoIndex;
  for (uint64_t pos = c.iter_list_head; pos != detail::kMapNoIndex; pos = dense.At(pos).next) {
    CHECK(dense.IsLive(pos));
    CHECK(dense.At(pos).prev == prev);
    keys.push_back(RenderKey(dense.At(pos).kv.key));
    prev = pos;
  }
  CHECK(c.iter_list_tail == prev);
  CHECK(keys.size() == static_cast<size_t>(m.size()));
  return keys;
}

}  // namespace

TEST_CASE("Map: a key hash that fails during growth leaves the map as it was", "[map]") {
  RegisterFussyHook();
  std::vector<ObjectRef> fussy;
  Map m;
  for (int64_t i = 0; i < 6; ++i) {
    fussy.push_back(ObjectRef(MakeObject<FussyObj>(i)));
    m.Set(fussy.back(), i);
  }
  REQUIRE_FALSE(m.GetMapObj()->IsSmall());
  uint64_t slots = m.GetMapObj()->NumSlots();
  std::vector<std::string> before = CheckedOrder(m);
  // Int keys need no hook; the first insert that needs a bigger table
  // rehashes the Fussy keys, and the fourth of them fails.
  g_hash_budget = 3;
  const std::string kNothing = ThrownBy([] {});
  std::string error = kNothing;
  for (int64_t added = 0; added < 64 && error == kNothing; ++added) {
    error = ThrownBy([&] { m.Set(int64_t(1000) + added, added); });
    if (error == kNothing) before.push_back(std::to_string(1000 + added));
  }
  CHECK(g_hash_budget == 0);
  g_hash_budget = -1;
  CHECK(error == "ValueError: hash refused");
  CHECK(m.GetMapObj()->NumSlots() == slots);
  CHECK(CheckedOrder(m) == before);
  // Still a working map: erase from the middle (which needs the prev
  // links), then grow for real.
  CHECK(m.Erase(fussy[2]));
  before.erase(before.begin() + 2);
  CHECK(CheckedOrder(m) == before);
  for (int64_t i = 0; i < 200; ++i) m.Set(int64_t(5000) + i, i);
  CHECK(m.GetMapObj()->NumSlots() > slots);
  for (size_t i = 0; i < fussy.size(); ++i) CHECK(m.count(fussy[i]) == (i == 2 ? 0 : 1));
  for (int64_t i = 0; i < 200; ++i) CHECK(m.at(int64_t(5000) + i).As<int64_t>() == i);
  std::vector<std::string> after = CheckedOrder(m);
  REQUIRE(after.size() == before.size() + 200);
  CHECK(std::vector<std::string>(after.begin(), after.begin() + before.size()) == before);
}

TEST_CASE("Map: a thread reuses the dense tables of maps it freed", "[map]") {
  MapDropCachedTables();
  const void* table = nullptr;
  uint64_t slots = 0;
  {
    Map m;
    for (int64_t i = 0; i < 100; ++i) m.Set(i, i);
    table = m.GetMapObj()->cell().data;
    slots = m.GetMapObj()->NumSlots();
  }
  // The same keys grow through the same table sizes; the last is the one
  // the first map left behind.
  Map again;
  for (int64_t i = 0; i < 100; ++i) again.Set(i, i + 1);
  CHECK(again.GetMapObj()->NumSlots() == slots);
  CHECK(again.GetMapObj()->cell().data == table);
  CHECK(CheckedOrder(again).size() == 100);
  for (int64_t i = 0; i < 100; ++i) CHECK(again.at(i).As<int64_t>() == i + 1);
  MapDropCachedTables();
}

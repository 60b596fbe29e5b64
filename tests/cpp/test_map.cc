// Maps: the ffi.Map globals, key equality and hashing (tvm::ffi::AnyHash and
// AnyEqual against the library's placement), iteration order, the small and
// dense forms as the C++ layout shows them (map_base.h), growth, erase, hash
// collisions and failures, and tvm::ffi::Map's copy on write.  Dict shares
// the storage and changes in place: the growth cases use it.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_util.h"
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/reflection/registry.h>

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using namespace test_util;

namespace {

// A key or value as text: ints as digits, strings quoted, else the type key.
std::string Render(const Any& v) {
  if (v.type_index() == kTVMFFIInt) return std::to_string(v.cast<int64_t>());
  if (std::optional<String> s = v.try_cast<String>()) return "\"" + std::string(*s) + "\"";
  return v.GetTypeKey();
}

// (key, value) pairs in iteration order (ffi.MapForwardIterFunctor), as text.
std::vector<std::string> Items(const Any& map) {
  std::vector<std::string> out;
  int64_t n = Call("ffi.MapSize", map).cast<int64_t>();
  if (n == 0) return out;
  Function it = Call("ffi.MapForwardIterFunctor", map).cast<Function>();
  do {
    out.push_back(Render(it(int64_t(0))) + "=" + Render(it(int64_t(1))));
  } while (it(int64_t(2)).cast<bool>());
  return out;
}

// Whether the map or dict keeps its pairs in the small (array) form.
bool IsSmall(const ObjectRef& m) { return static_cast<const MapBaseObj*>(m.get())->IsSmallMap(); }
bool IsSmall(const Any& m) { return IsSmall(m.cast<ObjectRef>()); }

// ffi.Map of the pairs flat = (key0, value0, key1, value1, ...).
Any MakeMap(const std::vector<Any>& flat) {
  std::vector<AnyView> args(flat.begin(), flat.end());
  return CallPacked(Function::GetGlobalRequired("ffi.Map"), args.data(),
                    static_cast<int32_t>(args.size()));
}

}  // namespace

TEST_CASE("Map: construct, size, get item, count", "[map]") {
  Any m = Call("ffi.Map", "a", int64_t(1), int64_t(2), "two");
  REQUIRE(m.type_index() == kTVMFFIMap);
  CHECK(Call("ffi.MapSize", m).cast<int64_t>() == 2);
  CHECK(Call("ffi.MapGetItem", m, "a").cast<int64_t>() == 1);
  CHECK(StrOf(Call("ffi.MapGetItem", m, int64_t(2))) == "two");
  CHECK(Call("ffi.MapCount", m, "a").cast<int64_t>() == 1);
  CHECK(Call("ffi.MapCount", m, "b").cast<int64_t>() == 0);
  CHECK(Call("ffi.MapSize", Call("ffi.Map")).cast<int64_t>() == 0);
  // The same object through the C++ reference.
  Map<Any, Any> cpp = m.cast<Map<Any, Any>>();
  CHECK(HandleOf(cpp) == HandleOf(m));
  CHECK(cpp.size() == 2);
  CHECK(cpp.at("a").cast<int64_t>() == 1);
  CHECK(cpp.count(int64_t(2)) == 1);
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
  // tvm::ffi::Map::at words it as upstream does.
  CHECK(ThrownBy([&] { m.cast<Map<Any, Any>>().at("zz"); }) == "KeyError: key is not in Map");
}

TEST_CASE("Map: small, heap and borrowed string keys are the same key", "[map]") {
  // A heap String shorter than 8 bytes (made by adopting a std::string).
  String heap_abc(std::string("abc"));
  REQUIRE(Any(heap_abc).type_index() == kTVMFFIStr);
  String small_abc("abc");
  REQUIRE(Any(small_abc).type_index() == kTVMFFISmallStr);
  Any m = Call("ffi.Map", heap_abc, int64_t(1));
  CHECK(Call("ffi.MapGetItem", m, "abc").cast<int64_t>() == 1);  // borrowed C string
  CHECK(Call("ffi.MapGetItem", m, small_abc).cast<int64_t>() == 1);
  CHECK(m.cast<Map<String, int64_t>>().at(small_abc) == 1);  // the inline lookup
  // And the other way round: a small key found by a heap String.
  Any m2 = Call("ffi.Map", "xyz", int64_t(2));
  CHECK(Call("ffi.MapGetItem", m2, String(std::string("xyz"))).cast<int64_t>() == 2);
  CHECK(m2.cast<Map<String, int64_t>>().at(String(std::string("xyz"))) == 2);
  // The same text as two keys collapses to one entry, last value wins.
  Any m3 = Call("ffi.Map", heap_abc, int64_t(1), "abc", int64_t(2));
  CHECK(Call("ffi.MapSize", m3).cast<int64_t>() == 1);
  CHECK(Call("ffi.MapGetItem", m3, "abc").cast<int64_t>() == 2);
  // Long strings: two distinct heap objects with the same text.
  std::string text = "a key longer than seven bytes";
  Any m4 = Call("ffi.Map", String(text), int64_t(3));
  CHECK(Call("ffi.MapGetItem", m4, String(text)).cast<int64_t>() == 3);
  CHECK(Call("ffi.MapGetItem", m4, text.c_str()).cast<int64_t>() == 3);
}

TEST_CASE("Map: int, float, bool, str and bytes keys are all different", "[map]") {
  Any m = Call("ffi.Map", int64_t(1), "int", 1.0, "float", true, "bool", "1", "str",
               Bytes("1", 1), "bytes");
  CHECK(Call("ffi.MapSize", m).cast<int64_t>() == 5);
  CHECK(StrOf(Call("ffi.MapGetItem", m, int64_t(1))) == "int");
  CHECK(StrOf(Call("ffi.MapGetItem", m, 1.0)) == "float");
  CHECK(StrOf(Call("ffi.MapGetItem", m, true)) == "bool");
  CHECK(StrOf(Call("ffi.MapGetItem", m, "1")) == "str");
  CHECK(StrOf(Call("ffi.MapGetItem", m, Bytes("1", 1))) == "bytes");
  // Dense (five pairs): the inline lookup finds each.
  Map<Any, String> cpp = m.cast<Map<Any, String>>();
  REQUIRE_FALSE(IsSmall(cpp));
  CHECK(cpp.at(int64_t(1)) == "int");
  CHECK(cpp.at(1.0) == "float");
  CHECK(cpp.at(true) == "bool");
  CHECK(cpp.at(String("1")) == "str");
  CHECK(cpp.at(Bytes("1", 1)) == "bytes");
}

TEST_CASE("Map: object keys compare by identity", "[map]") {
  int deleted = 0;
  ObjectRef a = MakeCounted(&deleted);
  ObjectRef b = MakeCounted(&deleted);
  Any m = Call("ffi.Map", a, int64_t(1), b, int64_t(2));
  CHECK(Call("ffi.MapGetItem", m, b).cast<int64_t>() == 2);
  CHECK(m.cast<Map<ObjectRef, int64_t>>().at(a) == 1);
  CHECK(a.use_count() == 2);
  m = Any();
  CHECK(a.use_count() == 1);
  CHECK(deleted == 0);
  a = ObjectRef(nullptr);
  b = ObjectRef(nullptr);
  CHECK(deleted == 2);
}

TEST_CASE("Map: get item or missing returns the MISSING sentinel", "[map]") {
  Any m = Call("ffi.Map", "a", int64_t(1));
  Any missing = Call("ffi.GetInvalidObject");
  Any got = Call("ffi.MapGetItemOrMissing", m, "b");
  CHECK(got.type_index() == kTVMFFIObject);
  CHECK(HandleOf(got) == HandleOf(missing));
  CHECK(Call("ffi.MapGetItemOrMissing", m, "a").cast<int64_t>() == 1);
}

TEST_CASE("Map: the iterator functor walks in insertion order", "[map]") {
  Any m = Call("ffi.Map", "z", int64_t(1), int64_t(5), int64_t(2), "a", int64_t(3));
  CHECK(Items(m) == std::vector<std::string>{"\"z\"=1", "5=2", "\"a\"=3"});
  std::vector<std::string> cpp;
  for (const auto& kv : m.cast<Map<Any, Any>>()) cpp.push_back(Render(kv.first));
  CHECK(cpp == std::vector<std::string>{"\"z\"", "5", "\"a\""});
  Function it = Call("ffi.MapForwardIterFunctor", m).cast<Function>();
  CHECK(it(int64_t(2)).cast<bool>());
  CHECK(it(int64_t(2)).cast<bool>());
  CHECK_FALSE(it(int64_t(2)).cast<bool>());
  CHECK(ThrownBy([&] { it(int64_t(0)); }) == "IndexError: Map iterator is past the end");
  CHECK(ThrownBy([&] { it(int64_t(7)); }) ==
        "ValueError: Map iterator: unknown command 7 (0 = key, 1 = value, 2 = advance)");
}

TEST_CASE("Map: the iterator keeps the map alive", "[map]") {
  int deleted = 0;
  Function it(nullptr);
  {
    Any m = Call("ffi.Map", "k", MakeCounted(&deleted));
    it = Call("ffi.MapForwardIterFunctor", m).cast<Function>();
  }
  CHECK(deleted == 0);
  CHECK(it(int64_t(1)).type_index() == kTVMFFIOpaquePyObject);
  it = Function(nullptr);
  CHECK(deleted == 1);
}

TEST_CASE("Map: many keys stay findable and ordered", "[map]") {
  std::vector<Any> flat;
  for (int64_t i = 0; i < 300; ++i) {
    flat.emplace_back(String("key-" + std::to_string(i)));
    flat.emplace_back(i);
  }
  Any m = MakeMap(flat);
  CHECK(Call("ffi.MapSize", m).cast<int64_t>() == 300);
  Map<String, int64_t> cpp = m.cast<Map<String, int64_t>>();
  for (int64_t i = 0; i < 300; ++i) {
    std::string key = "key-" + std::to_string(i);
    CHECK(Call("ffi.MapGetItem", m, key.c_str()).cast<int64_t>() == i);
    CHECK(cpp.at(key) == i);
  }
  CHECK(cpp.count("key-300") == 0);
  std::vector<std::string> items = Items(m);
  REQUIRE(items.size() == 300);
  CHECK(items[0] == "\"key-0\"=0");
  CHECK(items[299] == "\"key-299\"=299");
  // Backwards from end() through the prev links.
  auto it = cpp.end();
  --it;
  CHECK((*it).first == "key-299");
  --it;
  CHECK((*it).second == 298);
}

TEST_CASE("Map: globals refuse a Dict", "[map]") {
  Any d = Call("ffi.Dict");
  CHECK(ThrownBy([&] { Call("ffi.MapSize", d); }) ==
        "TypeError: In function ffi.MapSize: argument 1: expected ffi.Map, got ffi.Dict");
}

TEST_CASE("Map: C++ Map copies on write", "[map]") {
  Map<String, int64_t> a{{"x", 1}, {"y", 2}};
  Map<String, int64_t> b = a;
  CHECK(b.same_as(a));
  b.Set("z", 3);
  CHECK(a.size() == 2);
  CHECK(b.size() == 3);
  CHECK_FALSE(a.same_as(b));
  b.erase("x");
  CHECK(b.size() == 2);
  const Object* before = b.get();
  b.erase("x");  // absent: nothing changes
  CHECK(b.get() == before);
  CHECK(a.count("x") == 1);
  CHECK(b.count("x") == 0);
  CHECK(ThrownBy([&] { b.at("x"); }) == "KeyError: key is not in Map");
  CHECK(!b.Get("x").has_value());
  CHECK(b.Get("z").value() == 3);
  std::vector<std::string> keys;
  for (auto kv : b) keys.push_back(kv.first);
  CHECK(keys == std::vector<std::string>{"y", "z"});
  // A new value for a key keeps the key's place.
  b.Set("y", 20);
  keys.clear();
  for (auto kv : b) keys.push_back(kv.first + "=" + std::to_string(kv.second));
  CHECK(keys == std::vector<std::string>{"y=20", "z=3"});
  b.clear();
  CHECK(b.empty());
  CHECK(a.size() == 2);
}

TEST_CASE("Map: typed Map parameters accept a Dict as a copy", "[map]") {
  Function size = Function::FromTyped(
      [](Map<Any, Any> m) { return static_cast<int64_t>(m.size()); }, "testing.msize");
  Any d = Call("ffi.Dict", "a", int64_t(1));
  CHECK(size(d).cast<int64_t>() == 1);
  Map<String, int64_t> copy = d.cast<Map<String, int64_t>>();
  CHECK(copy.type_index() == kTVMFFIMap);
  CHECK(copy.at("a") == 1);
  CHECK(ThrownBy([&] { size(int64_t(1)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `testing.msize(0: Map<Any, "
        "Any>) -> int`. Expected `Map<Any, Any>` but got `int`");
}

TEST_CASE("Map: key hash agrees with key equality", "[map]") {
  Any small(String("abc"));
  Any heap(String(std::string("abc")));
  REQUIRE(small.type_index() == kTVMFFISmallStr);
  REQUIRE(heap.type_index() == kTVMFFIStr);
  CHECK(AnyHash()(small) == AnyHash()(heap));
  CHECK(AnyEqual()(small, heap));
  Any small_bytes(Bytes("abc", 3));
  REQUIRE(small_bytes.type_index() == kTVMFFISmallBytes);
  Any heap_bytes(Bytes(std::string("abc")));
  CHECK(AnyHash()(small_bytes) == AnyHash()(heap_bytes));
  CHECK(AnyEqual()(small_bytes, heap_bytes));
  CHECK_FALSE(AnyEqual()(small, small_bytes));
  CHECK(AnyHash()(small) != AnyHash()(small_bytes));
  CHECK_FALSE(AnyEqual()(Any(int64_t(1)), Any(1.0)));
  CHECK_FALSE(AnyEqual()(Any(int64_t(1)), Any(true)));
}

namespace {

// The map fields after the 24-byte object header, as map_base.h documents
// them (the C++ ABI every library's maps share); copied out, not aliased.
struct MapCellView {
  void* data;
  uint64_t size;
  uint64_t slots;
  void (*data_deleter)(void*);
  uint32_t fib_shift;
  uint64_t iter_list_head;
  uint64_t iter_list_tail;
};
static_assert(offsetof(MapCellView, data) + 24 == 24, "data");
static_assert(offsetof(MapCellView, size) + 24 == 32, "size");
static_assert(offsetof(MapCellView, slots) + 24 == 40, "slots");
static_assert(offsetof(MapCellView, data_deleter) + 24 == 48, "deleter");
static_assert(offsetof(MapCellView, fib_shift) + 24 == 56, "fib_shift");
static_assert(offsetof(MapCellView, iter_list_head) + 24 == 64, "head");
static_assert(offsetof(MapCellView, iter_list_tail) + 24 == 72, "tail");
static_assert(sizeof(MapBaseObj) == 80, "the header's map object is header + cell");
static_assert(sizeof(MapObj) == 80 && sizeof(DictObj) == 80, "no fields of their own");

// One entry of a dense table, and a block of 16 of them.
struct DenseItemView {
  TVMFFIAny key;
  TVMFFIAny value;
  uint64_t prev;
  uint64_t next;
};
struct DenseBlockView {
  uint8_t meta[16];
  DenseItemView items[16];
};
static_assert(sizeof(DenseBlockView) == 16 + 16 * 48, "dense block");

constexpr uint64_t kSmallTag = uint64_t(1) << 63;
constexpr uint64_t kNoIndex = ~uint64_t(0);

MapCellView CellOf(const ObjectRef& m) {
  const MapBaseObj* obj = static_cast<const MapBaseObj*>(m.get());
  REQUIRE(obj != nullptr);
  MapCellView c;
  std::memcpy(&c, reinterpret_cast<const char*>(obj) + 24, sizeof(c));
  return c;
}
MapCellView CellOf(const Any& m) { return CellOf(m.cast<ObjectRef>()); }

uint8_t MetaAt(const MapCellView& c, uint64_t i) {
  return static_cast<const DenseBlockView*>(c.data)[i / 16].meta[i % 16];
}
DenseItemView ItemAt(const MapCellView& c, uint64_t i) {
  DenseItemView item;
  std::memcpy(&item, &static_cast<const DenseBlockView*>(c.data)[i / 16].items[i % 16],
              sizeof(item));
  return item;
}

Any IntMap(int n) {
  std::vector<Any> flat;
  for (int64_t i = 0; i < n; ++i) {
    flat.emplace_back(i);
    flat.emplace_back(i);
  }
  return MakeMap(flat);
}

// The dense table's iteration list of `m`, checked link by link in both
// directions; returns the keys in order, rendered.
std::vector<std::string> CheckedOrder(const ObjectRef& m) {
  MapCellView c = CellOf(m);
  REQUIRE((c.slots & kSmallTag) == 0);
  std::vector<std::string> keys;
  uint64_t prev = kNoIndex;
  for (uint64_t pos = c.iter_list_head; pos != kNoIndex; pos = ItemAt(c, pos).next) {
    REQUIRE(pos < c.slots);
    uint8_t meta = MetaAt(c, pos);
    CHECK((meta != 0xFF && meta != 0xFE));  // a live entry
    CHECK(ItemAt(c, pos).prev == prev);
    keys.push_back(Render(AnyView::CopyFromTVMFFIAny(ItemAt(c, pos).key)));
    prev = pos;
  }
  CHECK(c.iter_list_tail == prev);
  CHECK(keys.size() == c.size);
  return keys;
}

}  // namespace

TEST_CASE("Map: layout of the small and dense forms", "[map]") {
  // Empty and 1-2 pairs: small, room for 2, stored inside the object.
  Any m0 = IntMap(0);
  CHECK(CellOf(m0).slots == (kSmallTag | 2));
  CHECK(CellOf(m0).size == 0);
  CHECK(reinterpret_cast<uintptr_t>(CellOf(m0).data) ==
        reinterpret_cast<uintptr_t>(HandleOf(m0)) + 80);
  CHECK(CellOf(m0).data_deleter == nullptr);
  Any m2 = IntMap(2);
  CHECK(CellOf(m2).slots == (kSmallTag | 2));
  CHECK(IsSmall(m2));
  TVMFFIAny second_key;
  std::memcpy(&second_key, static_cast<const char*>(CellOf(m2).data) + 32, sizeof(second_key));
  CHECK(second_key.type_index == kTVMFFIInt);
  CHECK(second_key.v_int64 == 1);
  // 3-4 pairs: small with room for 4.
  CHECK(CellOf(IntMap(3)).slots == (kSmallTag | 4));
  CHECK(CellOf(IntMap(4)).slots == (kSmallTag | 4));
  // 5 pairs: dense, 8 entries, shift 61; iteration list from the first key.
  Any m5 = IntMap(5);
  MapCellView c5 = CellOf(m5);
  CHECK(c5.slots == 8);
  CHECK(c5.size == 5);
  CHECK(c5.fib_shift == 61);
  CHECK(c5.data_deleter != nullptr);
  CHECK_FALSE(IsSmall(m5));
  CHECK(m5.cast<Map<Any, Any>>().size() == 5);
  CHECK(ItemAt(c5, c5.iter_list_head).key.v_int64 == 0);
  CHECK(ItemAt(c5, c5.iter_list_tail).key.v_int64 == 4);
  CHECK(ItemAt(c5, c5.iter_list_head).prev == kNoIndex);
  int empty = 0;
  for (uint64_t i = 0; i < 8; ++i) empty += MetaAt(c5, i) == 0xFF;
  CHECK(empty == 3);
  CHECK(CheckedOrder(m5.cast<ObjectRef>()) == std::vector<std::string>{"0", "1", "2", "3", "4"});
  // Each key sits on the chain that starts where its hash puts it.
  for (int64_t k = 0; k < 5; ++k) {
    uint64_t home = (AnyHash()(Any(k)) * 11400714819323198485ULL) >> c5.fib_shift;
    CHECK((MetaAt(c5, home) & 0x80) == 0);  // the head of a chain
  }
  // Growth doubles the table: 8 pairs no longer fit in 8 entries.
  CHECK(CellOf(IntMap(8)).slots == 16);
  CHECK(CellOf(IntMap(8)).fib_shift == 60);
  CHECK(CellOf(IntMap(300)).slots == 512);
}

TEST_CASE("Map: key hashes are apache-tvm-ffi's AnyHash", "[map]") {
  // Values printed by upstream's tvm::ffi::AnyHash (0.1.15.post2).
  CHECK(AnyHash()(Any(int64_t(1))) == 2654435835ULL);
  CHECK(AnyHash()(Any(int64_t(-5))) == 2654435829ULL);
  CHECK(AnyHash()(Any(2.5)) == 4612811920988666490ULL);
  CHECK(AnyHash()(Any(true)) == 2654435896ULL);
  CHECK(AnyHash()(Any(nullptr)) == 2654435769ULL);
  CHECK(AnyHash()(Any(String("abc"))) == 2660953131ULL);
  CHECK(AnyHash()(Any(String(std::string("abc")))) == 2660953131ULL);
  CHECK(AnyHash()(Any(String("a key longer than seven bytes"))) == 4196405962ULL);
  CHECK(AnyHash()(Any(Bytes("abc", 3))) == 2660953320ULL);
}

TEST_CASE("Map: the byte hash is the plain definition, and the library's agrees", "[map]") {
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
  std::vector<Any> flat;
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n + offset <= sizeof(buf); ++n) {
      const char* data = reinterpret_cast<const char*>(buf + offset);
      INFO("offset " << offset << ", length " << n);
      CHECK(tvm::ffi::detail::StableHashBytes(data, n) == plain(buf + offset, n));
      flat.emplace_back(Bytes(data, n));
      flat.emplace_back(static_cast<int64_t>(offset * 100 + n));
    }
  }
  // The library places each key by its own hash; the header's inline lookup
  // starts from tvm::ffi::AnyHash: every key is found in a table of 512
  // entries only when both hash every length (and alignment) alike.
  Any m = MakeMap(flat);
  MapCellView c = CellOf(m);
  CHECK(c.slots == 512);
  Map<Bytes, int64_t> cpp = m.cast<Map<Bytes, int64_t>>();
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n = 0; n + offset <= sizeof(buf); ++n) {
      INFO("offset " << offset << ", length " << n);
      Bytes key(reinterpret_cast<const char*>(buf + offset), n);
      uint64_t home = (AnyHash()(Any(key)) * 11400714819323198485ULL) >> c.fib_shift;
      CHECK((MetaAt(c, home) & 0x80) == 0);
      std::optional<int64_t> got = cpp.Get(key);
      // Some (offset, length) pairs are the same bytes: the last one wins.
      CHECK(got.has_value());
    }
  }
}

namespace {

// An object type whose keys compare by `word` through the __any_hash__ and
// __any_equal__ type attributes (native hooks, as upstream registers them).
class WordObj : public Object {
 public:
  explicit WordObj(int64_t w) : word(w) {}
  int64_t word;
  TVM_FFI_DECLARE_OBJECT_INFO("maptest.Word", WordObj, Object);
};

int64_t WordOf(const Any& v) { return static_cast<const WordObj*>(ObjectOf(HandleOf(v)))->word; }
int64_t WordHash(const Any& v) { return WordOf(v) % 3; }  // collisions on purpose
bool WordEqual(const Any& a, const Any& b) { return WordOf(a) == WordOf(b); }

ObjectRef Word(int64_t w) { return ObjectRef(make_object<WordObj>(w)); }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::TypeAttrDef<WordObj>()
      .native_fn_attr<&WordHash>(type_attr::kAnyHash)
      .native_fn_attr<&WordEqual>(type_attr::kAnyEqual);
}

}  // namespace

TEST_CASE("Map: __any_hash__ and __any_equal__ type attributes define key identity", "[map]") {
  ObjectRef a = Word(7);
  ObjectRef b = Word(7);
  ObjectRef c = Word(8);
  CHECK(AnyHash()(Any(a)) == AnyHash()(Any(b)));
  CHECK(AnyEqual()(Any(a), Any(b)));
  CHECK_FALSE(AnyEqual()(Any(a), Any(c)));
  for (int extra : {0, 20}) {  // small and dense forms
    INFO("extra keys " << extra);
    std::vector<Any> flat;
    for (int64_t i = 0; i < extra; ++i) {
      flat.emplace_back(Word(100 + i));
      flat.emplace_back(i);
    }
    for (auto [key, value] : {std::pair<ObjectRef, const char*>{a, "a"}, {b, "b"}, {c, "c"}}) {
      flat.emplace_back(key);
      flat.emplace_back(String(value));
    }
    Map<ObjectRef, Any> m = MakeMap(flat).cast<Map<ObjectRef, Any>>();
    CHECK(IsSmall(m) == (extra == 0));
    CHECK(m.size() == static_cast<size_t>(extra) + 2);  // b is a's key: its value wins
    CHECK(StrOf(m.at(Word(7))) == "b");
    CHECK(StrOf(m.at(c)) == "c");
    CHECK(StrOf(Call("ffi.MapGetItem", m, Word(7))) == "b");
    for (int64_t i = 0; i < extra; ++i) CHECK(m.at(Word(100 + i)).cast<int64_t>() == i);
    // The first key object stays.
    int found_a = 0, found_b = 0;
    for (const auto& kv : m) {
      found_a += kv.first.same_as(a);
      found_b += kv.first.same_as(b);
    }
    CHECK(found_a == 1);
    CHECK(found_b == 0);
    // The same through a Dict, changed in place.
    Dict<ObjectRef, Any> d;
    for (int64_t i = 0; i < extra; ++i) d.Set(Word(100 + i), i);
    d.Set(a, String("a"));
    d.Set(b, String("b"));
    d.Set(c, String("c"));
    CHECK(d.size() == static_cast<size_t>(extra) + 2);
    CHECK(StrOf(d.at(Word(7))) == "b");
    d.erase(Word(7));
    CHECK(d.count(a) == 0);
    CHECK(d.size() == static_cast<size_t>(extra) + 1);
  }
  CHECK(a.use_count() == 1);
  CHECK(b.use_count() == 1);
}

TEST_CASE("Map: CopyOnWrite copies a shared map with its table geometry", "[map]") {
  std::vector<Any> flat;
  for (int64_t i = 0; i < 50; ++i) {
    flat.emplace_back(i);
    flat.emplace_back(i);
  }
  Map<int64_t, int64_t> a = MakeMap(flat).cast<Map<int64_t, int64_t>>();
  Map<int64_t, int64_t> b = a;
  MapObj* own = b.CopyOnWrite();
  CHECK(own != a.get());
  CHECK(b.CopyOnWrite() == own);  // unshared now: kept
  MapCellView ca = CellOf(a);
  MapCellView cb = CellOf(b);
  CHECK(ca.data != cb.data);
  CHECK(ca.slots == cb.slots);
  CHECK(ca.fib_shift == cb.fib_shift);
  CHECK(CheckedOrder(a) == CheckedOrder(b));
  b.Set(1000, 1);
  CHECK(a.size() == 50);
  CHECK(b.size() == 51);
  CHECK(b.at(49) == 49);
  std::vector<int64_t> keys;
  for (auto kv : b) keys.push_back(kv.first);
  REQUIRE(keys.size() == 51);
  CHECK(keys.front() == 0);
  CHECK(keys.back() == 1000);
}

namespace {

// Keys whose __any_hash__ hook (an ffi.Function) fails once g_hash_budget
// calls have been made (-1: never): growth hashes every key again, so a
// failing hook stops it midway, after some keys were hashed.
int g_hash_budget = -1;

class FussyObj : public Object {
 public:
  explicit FussyObj(int64_t w) : word(w) {}
  int64_t word;
  TVM_FFI_DECLARE_OBJECT_INFO("maptest.Fussy", FussyObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::TypeAttrDef<FussyObj>().def("__any_hash__", [](AnyView v) -> int64_t {
    if (g_hash_budget == 0) TVM_FFI_THROW(ValueError) << "hash refused";
    if (g_hash_budget > 0) --g_hash_budget;
    return static_cast<const FussyObj*>(ObjectOf(RawOf(v)->v_obj))->word;
  });
}

}  // namespace

TEST_CASE("Map: a key hash that fails during growth leaves the dict as it was", "[map]") {
  std::vector<ObjectRef> fussy;
  Dict<Any, int64_t> d;
  for (int64_t i = 0; i < 6; ++i) {
    fussy.push_back(ObjectRef(make_object<FussyObj>(i)));
    d.Set(fussy.back(), i);
  }
  REQUIRE_FALSE(IsSmall(d));
  const void* object = d.get();
  uint64_t slots = CellOf(d).slots;
  std::vector<std::string> before = CheckedOrder(d);
  // Int keys need no hook; the first insert that needs a bigger table
  // rehashes the Fussy keys, and the fourth of them fails.
  g_hash_budget = 3;
  const std::string kNothing = ThrownBy([] {});
  std::string error = kNothing;
  for (int64_t added = 0; added < 64 && error == kNothing; ++added) {
    error = ThrownBy([&] { d.Set(int64_t(1000) + added, added); });
    if (error == kNothing) before.push_back(std::to_string(1000 + added));
  }
  CHECK(g_hash_budget == 0);
  g_hash_budget = -1;
  CHECK(error == "ValueError: hash refused");
  CHECK(d.get() == object);  // changed in place, never replaced
  CHECK(CellOf(d).slots == slots);
  CHECK(CheckedOrder(d) == before);
  // Still a working dict: erase from the middle (which needs the prev
  // links), then grow for real.
  d.erase(fussy[2]);
  before.erase(before.begin() + 2);
  CHECK(CheckedOrder(d) == before);
  for (int64_t i = 0; i < 200; ++i) d.Set(int64_t(5000) + i, i);
  CHECK(CellOf(d).slots > slots);
  for (size_t i = 0; i < fussy.size(); ++i) CHECK(d.count(fussy[i]) == (i == 2 ? 0u : 1u));
  for (int64_t i = 0; i < 200; ++i) CHECK(d.at(int64_t(5000) + i) == i);
  std::vector<std::string> after = CheckedOrder(d);
  REQUIRE(after.size() == before.size() + 200);
  CHECK(std::vector<std::string>(after.begin(), after.begin() + before.size()) == before);
  d = Dict<Any, int64_t>();
  for (const ObjectRef& f : fussy) CHECK(f.use_count() == 1);
}

TEST_CASE("Map: a key hash that fails while ffi.Map builds releases every key", "[map]") {
  std::vector<Any> flat;
  for (int64_t i = 0; i < 8; ++i) {
    flat.emplace_back(ObjectRef(make_object<FussyObj>(i)));
    flat.emplace_back(i);
  }
  g_hash_budget = 5;
  std::string error = ThrownBy([&] { MakeMap(flat); });
  g_hash_budget = -1;
  CHECK(error == "ValueError: hash refused");
  for (size_t i = 0; i < flat.size(); i += 2) {
    CHECK(flat[i].cast<ObjectRef>().use_count() == 2);  // flat's and this temporary's
  }
}

TEST_CASE("Map: a thread reuses the dense tables of dicts it freed", "[map]") {
  // In a new thread, whose cache of freed tables starts empty.
  const void* first = nullptr;
  const void* second = nullptr;
  uint64_t first_slots = 0, second_slots = 0;
  std::vector<int64_t> values;
  std::thread worker([&] {
    {
      Dict<int64_t, int64_t> d;
      for (int64_t i = 0; i < 100; ++i) d.Set(i, i);
      first = CellOf(d).data;
      first_slots = CellOf(d).slots;
    }
    // The same keys grow through the same table sizes; the last is the one
    // the first dict left behind.
    Dict<int64_t, int64_t> again;
    for (int64_t i = 0; i < 100; ++i) again.Set(i, i + 1);
    second = CellOf(again).data;
    second_slots = CellOf(again).slots;
    for (int64_t i = 0; i < 100; ++i) values.push_back(again.at(i));
  });
  worker.join();
  CHECK(first_slots == 128);
  CHECK(second_slots == first_slots);
  CHECK(second == first);
  REQUIRE(values.size() == 100);
  for (int64_t i = 0; i < 100; ++i) CHECK(values[i] == i + 1);
}

// extra/structural_key.h: StructuralKey (and the library's ffi.StructuralKey
// type behind it).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/function.h>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

using namespace tvm::ffi;

TEST_CASE("structural_key: the header's object is the library's type", "[structural_key]") {
  StructuralKey key(Array<int>{4, 5});
  // One type for both: the key the header made has the index the library registered.
  int32_t registered = -1;
  TVMFFIByteArray name{"ffi.StructuralKey", 17};
  REQUIRE(TVMFFITypeKeyToIndex(&name, &registered) == 0);
  CHECK(key->type_index() == registered);
  CHECK(StructuralKeyObj::RuntimeTypeIndex() == registered);
  // The library's fields sit where the header puts them.
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(registered);
  REQUIRE(info->num_fields == 2);
  CHECK(std::string(info->fields[0].name.data, info->fields[0].name.size) == "key");
  CHECK(info->fields[0].offset == 24);
  CHECK(std::string(info->fields[1].name.data, info->fields[1].name.size) == "hash_i64");
  CHECK(info->fields[1].offset == 40);
  CHECK(sizeof(StructuralKeyObj) == 48);
}

TEST_CASE("structural_key: hash, equality, std::hash", "[structural_key]") {
  StructuralKey a(Array<int>{1, 2, 3});
  StructuralKey b(Array<int>{1, 2, 3});
  StructuralKey c(Array<int>{1, 2, 4});
  CHECK(a->hash_i64 == static_cast<int64_t>(StructuralHash::Hash(Array<int>{1, 2, 3})));
  CHECK(a->hash_i64 == b->hash_i64);
  CHECK(a->hash_i64 != c->hash_i64);
  CHECK(!a.same_as(b));
  CHECK(a == b);
  CHECK(!(a != b));
  CHECK(a != c);
  CHECK(a == a);
  CHECK(std::hash<StructuralKey>()(a) == static_cast<size_t>(static_cast<uint64_t>(a->hash_i64)));

  std::unordered_map<StructuralKey, std::string> m;
  m[a] = "first";
  m[b] = "second";  // the same key
  m[c] = "third";
  CHECK(m.size() == 2);
  CHECK(m.at(StructuralKey(Array<int>{1, 2, 3})) == "second");

  StructuralKeyObj empty;
  CHECK(empty.hash_i64 == 0);
  CHECK(empty.key == nullptr);
}

TEST_CASE("structural_key: a Map keyed by Any merges equal keys (library hooks)",
          "[structural_key]") {
  Map<Any, Any> m;
  m.Set(StructuralKey(Array<String>{"x"}), 1);
  m.Set(StructuralKey(Array<String>{"x"}), 2);
  m.Set(StructuralKey(Array<String>{"y"}), 3);
  CHECK(m.size() == 2);
  CHECK(m.at(StructuralKey(Array<String>{"x"})).cast<int>() == 2);
  // The library's own constructor makes a key equal to the header's.
  Function make = Function::GetGlobalRequired("ffi.StructuralKey");
  StructuralKey from_library = make(Array<String>{"y"}).cast<StructuralKey>();
  CHECK(from_library == StructuralKey(Array<String>{"y"}));
  CHECK(m.at(from_library).cast<int>() == 3);
}

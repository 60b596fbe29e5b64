// ffi.BigInt's "__any_hash__"/"__any_equal__" hooks: equal BigInts are one
// container key and structurally equal, not compared by address.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// 2**64 + low, a new object on every call.
Any Big(int64_t low) {
  int64_t words[2] = {low, 1};
  return BigIntFromWords(words, 2);
}

const TVMFFIAny* HookOf(const char* name) {
  TVMFFIByteArray n = {name, std::strlen(name)};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&n);
  REQUIRE(col != nullptr);
  int32_t off = kTVMFFIBigInt - col->begin_index;
  REQUIRE(off >= 0);
  REQUIRE(off < col->size);
  return &col->data[off];
}

}  // namespace

TEST_CASE("BigInt hooks: two equal BigInts are structurally equal and hash alike", "[big_int]") {
  Any a = Big(5), b = Big(5), c = Big(6);
  REQUIRE(a.type_index() == kTVMFFIBigInt);
  REQUIRE(RawOf(a)->v_obj != RawOf(b)->v_obj);
  CHECK(Call("ffi.StructuralEqual", a, b, false, false).cast<bool>());
  CHECK_FALSE(Call("ffi.StructuralEqual", a, c, false, false).cast<bool>());
  CHECK(Call("ffi.StructuralHash", a, false, false).cast<int64_t>() ==
        Call("ffi.StructuralHash", b, false, false).cast<int64_t>());
  CHECK(Call("ffi.StructuralHash", a, false, false).cast<int64_t>() !=
        Call("ffi.StructuralHash", c, false, false).cast<int64_t>());
}

TEST_CASE("BigInt hooks: a Map lookup with an equal BigInt key finds the entry", "[big_int]") {
  Any m = Call("ffi.Map", Big(7), int64_t(1), Big(8), int64_t(2));
  CHECK(Call("ffi.MapSize", m).cast<int64_t>() == 2);
  CHECK(Call("ffi.MapGetItem", m, Big(7)).cast<int64_t>() == 1);
  CHECK(Call("ffi.MapGetItem", m, Big(8)).cast<int64_t>() == 2);
  CHECK(Call("ffi.MapCount", m, Big(9)).cast<int64_t>() == 0);
  // Building a map from two equal keys keeps one entry (the last value).
  Any m2 = Call("ffi.Map", Big(7), int64_t(1), Big(7), int64_t(3));
  CHECK(Call("ffi.MapSize", m2).cast<int64_t>() == 1);
  CHECK(Call("ffi.MapGetItem", m2, Big(7)).cast<int64_t>() == 3);
}

TEST_CASE("BigInt hooks: native hooks return an int/bool, and a TypeError for a non-BigInt",
          "[big_int]") {
  const TVMFFIAny* hash = HookOf("__any_hash__");
  const TVMFFIAny* equal = HookOf("__any_equal__");
  REQUIRE(hash->type_index == kTVMFFIOpaquePtr);
  REQUIRE(equal->type_index == kTVMFFIOpaquePtr);
  auto hash_fn = reinterpret_cast<TVMFFIAny (*)(const TVMFFIAny*)>(hash->v_ptr);
  auto equal_fn = reinterpret_cast<TVMFFIAny (*)(const TVMFFIAny*, const TVMFFIAny*)>(equal->v_ptr);
  Any a = Big(5), b = Big(5);
  TVMFFIAny h = hash_fn(RawOf(a));
  CHECK(h.type_index == kTVMFFIInt);
  CHECK(h.v_int64 == hash_fn(RawOf(b)).v_int64);
  TVMFFIAny e = equal_fn(RawOf(a), RawOf(b));
  CHECK(e.type_index == kTVMFFIBool);
  CHECK(e.v_int64 == 1);
  Any five(int64_t(5));
  Any err = AnyUnsafe::MoveTVMFFIAnyRawToAny(equal_fn(RawOf(a), RawOf(five)));
  REQUIRE(err.type_index() == kTVMFFIError);
  Error error = RefOf<Error>(BorrowHandle(RawOf(err)->v_obj));
  CHECK(error.kind() == "TypeError");
  CHECK(error.message() ==
        "ffi.BigInt __any_equal__ expects ffi.BigInt values, got type index 1");
}

// base_detail.h and endian.h: the stable hashes and the byte swap.
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/endian.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using tvm::ffi::detail::StableHashBytes;
using tvm::ffi::detail::StableHashCombine;
using tvm::ffi::detail::StableHashSmallStrBytes;

namespace {
constexpr uint64_t kMod = 2147483647ULL;
constexpr uint64_t kMul = 1099511628211ULL;
}  // namespace

TEST_CASE("base_detail: StableHashBytes folds little-endian words", "[base_detail]") {
  CHECK(StableHashBytes("", 0) == 0);
  CHECK(StableHashBytes("a", 1) == 97);
  // "ab" is the word 0x6261.
  CHECK(StableHashBytes("ab", 2) == 0x6261);
  // One full word, then a 1-byte tail.
  uint64_t word = 0x6867666564636261ULL;  // "abcdefgh"
  uint64_t h = word % kMod;
  CHECK(StableHashBytes("abcdefgh", 8) == h);
  CHECK(StableHashBytes("abcdefghi", 9) == (h * kMul + 0x69) % kMod);
  // The same bytes at an odd address hash the same.
  char buf[32];
  std::memcpy(buf + 1, "abcdefghijklmnopq", 17);
  CHECK(StableHashBytes(buf + 1, 17) == StableHashBytes("abcdefghijklmnopq", 17));
}

TEST_CASE("base_detail: a small string hashes like its bytes", "[base_detail]") {
  TVMFFIAny small;
  std::memset(&small, 0, sizeof(small));
  small.type_index = kTVMFFISmallStr;
  small.small_str_len = 5;
  std::memcpy(small.v_bytes, "hello", 5);
  CHECK(StableHashSmallStrBytes(&small) == StableHashBytes("hello", 5));
}

TEST_CASE("base_detail: StableHashCombine is boost's combine step", "[base_detail]") {
  uint64_t key = 12345;
  CHECK(StableHashCombine(key, 7u) == (key ^ (7u + 0x9e3779b9 + (key << 6) + (key >> 2))));
  CHECK(StableHashCombine(0, 0) == 0x9e3779b9);
}

TEST_CASE("endian: ByteSwap reverses each element", "[base_detail]") {
  uint32_t values[2] = {0x01020304u, 0xA0B0C0D0u};
  tvm::ffi::ByteSwap(values, sizeof(uint32_t), 2);
  CHECK(values[0] == 0x04030201u);
  CHECK(values[1] == 0xD0C0B0A0u);
  char odd[3] = {'x', 'y', 'z'};
  tvm::ffi::ByteSwap(odd, 3, 1);
  CHECK(std::string(odd, 3) == "zyx");
  CHECK(TVM_FFI_LITTLE_ENDIAN == 1);  // every CI target is little-endian
}

TEST_CASE("base_detail: for_each passes the index and the argument", "[base_detail]") {
  std::string seen;
  tvm::ffi::detail::for_each(
      [&](size_t i, const auto& v) { seen += std::to_string(i) + "=" + std::to_string(v) + ";"; },
      10, 20L, 30u);
  CHECK(seen == "0=10;1=20;2=30;");
}

// Integers of any size: ffi.BigInt (78), the two C functions and the C++ BigInt.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// TVMFFIBigIntFromByteArray on `words` (must succeed); the result is owned by the caller.
TVMFFIAny FromWords(const std::vector<int64_t>& words) {
  TVMFFIByteArray bytes = {reinterpret_cast<const char*>(words.data()),
                           words.size() * sizeof(int64_t)};
  TVMFFIAny out;
  std::memset(&out, 0xAB, sizeof(out));  // must be overwritten entirely
  REQUIRE(TVMFFIBigIntFromByteArray(&bytes, &out) == 0);
  return out;
}

std::vector<int64_t> Content(const TVMFFIAny& value) {
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(&value);
  REQUIRE(c.size % 8 == 0);
  std::vector<int64_t> words(c.size / 8);
  if (c.size != 0) std::memcpy(words.data(), c.data, c.size);
  return words;
}

constexpr int64_t kMin = INT64_MIN;
constexpr int64_t kMax = INT64_MAX;

}  // namespace

TEST_CASE("BigInt: values that fit int64 are kTVMFFIInt, whatever the word count", "[big_int]") {
  struct Case {
    std::vector<int64_t> words;
    int64_t value;
  } cases[] = {{{}, 0},          {{0}, 0},           {{5}, 5},         {{5, 0, 0}, 5},
               {{-1, -1}, -1},   {{kMax, 0}, kMax},  {{kMin, -1}, kMin}, {{-7, -1, -1, -1}, -7}};
  for (const Case& c : cases) {
    TVMFFIAny v = FromWords(c.words);
    CHECK(v.type_index == kTVMFFIInt);
    CHECK(v.zero_padding == 0);
    CHECK(v.v_int64 == c.value);
    // The content of an int is its own payload, one word.
    TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(&v);
    CHECK(content.data == reinterpret_cast<const char*>(&v.v_int64));
    CHECK(content.size == 8);
  }
}

TEST_CASE("BigInt: layout is header, size_t word count at +24, minimal words at +32",
          "[big_int]") {
  // 2**63 needs a zero sign word; redundant zero words beyond it are dropped.
  TVMFFIAny v = FromWords({kMin, 0, 0, 0});
  REQUIRE(v.type_index == kTVMFFIBigInt);
  CHECK(v.zero_padding == 0);
  char* base = reinterpret_cast<char*>(v.v_obj);
  CHECK(v.v_obj->type_index == kTVMFFIBigInt);
  CHECK(v.v_obj->combined_ref_count == 0x100000001ULL);
  CHECK(*reinterpret_cast<size_t*>(base + 24) == 2);
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(&v);
  CHECK(content.data == base + 32);
  CHECK(content.size == 16);
  CHECK(Content(v) == std::vector<int64_t>{kMin, 0});
  TVMFFIObjectDecRef(v.v_obj);
}

TEST_CASE("BigInt: minimal words keep exactly the sign word that is needed", "[big_int]") {
  // -2**63 - 1 = words {INT64_MAX, -1}.
  TVMFFIAny neg = FromWords({kMax, -1, -1});
  REQUIRE(neg.type_index == kTVMFFIBigInt);
  CHECK(Content(neg) == std::vector<int64_t>{kMax, -1});
  TVMFFIObjectDecRef(neg.v_obj);
  // 2**64 = {0, 1}: no sign word needed above 1.
  TVMFFIAny big = FromWords({0, 1, 0, 0});
  REQUIRE(big.type_index == kTVMFFIBigInt);
  CHECK(Content(big) == std::vector<int64_t>{0, 1});
  TVMFFIObjectDecRef(big.v_obj);
  // -2**64 = {0, -1}.
  TVMFFIAny negbig = FromWords({0, -1, -1});
  REQUIRE(negbig.type_index == kTVMFFIBigInt);
  CHECK(Content(negbig) == std::vector<int64_t>{0, -1});
  TVMFFIObjectDecRef(negbig.v_obj);
}

TEST_CASE("BigInt: bad input is a ValueError and leaves no object", "[big_int]") {
  std::vector<int64_t> words = {1, 2};
  TVMFFIByteArray bytes = {reinterpret_cast<const char*>(words.data()), 12};
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  CHECK(TVMFFIBigIntFromByteArray(&bytes, &out) == -1);
  CHECK(TakeRaised() == "ValueError: BigInt content must contain whole 64-bit words, got 12 bytes");
  CHECK(out.type_index == kTVMFFINone);
  TVMFFIByteArray null_data = {nullptr, 8};
  CHECK(TVMFFIBigIntFromByteArray(&null_data, &out) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFIBigIntFromByteArray: input has data NULL but size 8");
  CHECK(TVMFFIBigIntFromByteArray(nullptr, &out) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFIBigIntFromByteArray: input must not be NULL");
  CHECK(TVMFFIBigIntFromByteArray(&bytes, nullptr) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFIBigIntFromByteArray: out must not be NULL");
}

TEST_CASE("BigInt: content of a non-integer is empty, unaligned input is read", "[big_int]") {
  TVMFFIAny f;
  std::memset(&f, 0, sizeof(f));
  f.type_index = kTVMFFIFloat;
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(&f);
  CHECK(c.data == nullptr);
  CHECK(c.size == 0);
  CHECK(TVMFFIBigIntGetContentByteArray(nullptr).size == 0);

  alignas(8) char buf[8 * 3 + 1];
  int64_t words[3] = {1, 2, 0};
  std::memcpy(buf + 1, words, sizeof(words));
  TVMFFIByteArray bytes = {buf + 1, sizeof(words)};
  TVMFFIAny v;
  REQUIRE(TVMFFIBigIntFromByteArray(&bytes, &v) == 0);
  REQUIRE(v.type_index == kTVMFFIBigInt);
  CHECK(Content(v) == std::vector<int64_t>{1, 2});
  TVMFFIObjectDecRef(v.v_obj);
}

TEST_CASE("BigInt: the type registry knows ffi.BigInt (78) and ffi.Unchanged (13)",
          "[big_int]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIBigInt);
  REQUIRE(info != nullptr);
  CHECK(std::string(info->type_key.data, info->type_key.size) == "ffi.BigInt");
  CHECK(info->type_depth == 1);
  const TVMFFITypeInfo* unchanged = TVMFFIGetTypeInfo(kTVMFFIUnchanged);
  REQUIRE(unchanged != nullptr);
  CHECK(std::string(unchanged->type_key.data, unchanged->type_key.size) == "ffi.Unchanged");
}

// tvm::ffi has no BigInt class: the values are the library's, their text
// comes from ffi.ReprPrint, their words from TVMFFIBigIntGetContentByteArray
// and equality from ffi.RecursiveEq.
namespace {
Any Big(const std::vector<int64_t>& words) { return BigIntFromWords(words.data(), words.size()); }
std::string Text(const Any& v) { return Call("ffi.ReprPrint", v).cast<std::string>(); }
std::vector<int64_t> WordsOf(const Any& v) { return Content(*RawOf(v)); }
bool SameValue(const Any& a, const Any& b) { return Call("ffi.RecursiveEq", a, b).cast<bool>(); }
}  // namespace

TEST_CASE("BigInt: C++ BigInt construction, words, decimal text", "[big_int]") {
  CHECK(Big({}).type_index() == kTVMFFIInt);
  CHECK(Big({42}).cast<int64_t>() == 42);
  Any u = Big({kMin, 0});  // 2**63
  CHECK(u.type_index() == kTVMFFIBigInt);
  CHECK(WordsOf(u) == std::vector<int64_t>{kMin, 0});
  CHECK(Text(u) == "9223372036854775808");
  CHECK(Text(Any(kMin)) == "-9223372036854775808");
  Any neg = Big({kMax, -1});
  CHECK(Text(neg) == "-9223372036854775809");
  CHECK(WordsOf(neg).back() < 0);
  CHECK(ThrownBy([&] { neg.cast<int64_t>(); }) ==
        "TypeError: Cannot convert from type `ffi.BigInt` to `int`");
  // 2**200 = 1606938044258990275541962092341162602522202993782792835301376
  std::vector<int64_t> p200 = {0, 0, 0, int64_t{1} << 8};
  Any big = Big(p200);
  CHECK(WordsOf(big).size() == 4);
  CHECK(Text(big) == "1606938044258990275541962092341162602522202993782792835301376");
  CHECK(Text(Big({0, 0, 0, -(int64_t{1} << 8)})) ==
        "-1606938044258990275541962092341162602522202993782792835301376");
  // Equality is by value, not by object.
  CHECK(SameValue(Big(p200), big));
  CHECK(RawOf(Big(p200))->v_obj != RawOf(big)->v_obj);
  CHECK_FALSE(SameValue(big, u));
  CHECK(SameValue(Big({7}), Any(int64_t{7})));
}

TEST_CASE("BigInt: through Any and functions, reference counts balance", "[big_int]") {
  Any big = Big({0, 0, 0, int64_t{1} << 8});
  TVMFFIObject* obj = RawOf(big)->v_obj;
  CHECK((obj->combined_ref_count & 0xffffffffu) == 1);
  {
    Any a = big;
    CHECK(a.type_index() == kTVMFFIBigInt);
    CHECK((obj->combined_ref_count & 0xffffffffu) == 2);
    Any echoed = CallTesting("testing.echo", big);
    CHECK(RawOf(echoed)->v_obj == obj);
    CHECK(SameValue(echoed, big));
    // An int64 refuses a BigInt by name.
    CHECK(ThrownBy([&] { echoed.cast<int64_t>(); }) ==
          "TypeError: Cannot convert from type `ffi.BigInt` to `int`");
  }
  CHECK((obj->combined_ref_count & 0xffffffffu) == 1);
  CHECK(CallTesting("testing.big_int_pow2", int64_t(62)).type_index() == kTVMFFIInt);
  Any p63 = CallTesting("testing.big_int_pow2", int64_t(63));
  CHECK(p63.type_index() == kTVMFFIBigInt);
  CHECK(Text(p63) == "9223372036854775808");
  CHECK(CallTesting("testing.big_int_to_string", big).cast<std::string>() ==
        "1606938044258990275541962092341162602522202993782792835301376");
  Any words = CallTesting("testing.big_int_words", big);
  CHECK(words.cast<Array<int64_t>>().size() == 4);
  CHECK(CallTesting("testing.big_int_from_words", int64_t(5), int64_t(0)).cast<int64_t>() == 5);
  CHECK(CallTesting("testing.big_int_to_string", true).cast<std::string>() == "1");
}

// ReprPrint shows a big integer's decimal text, as upstream's does (it
// printed the default "<ffi.BigInt at 0x...>").
TEST_CASE("BigInt: ReprPrint is the decimal text", "[big_int]") {
  Any pos = AnyUnsafe::MoveTVMFFIAnyRawToAny(FromWords({0, 1}));    // 2**64
  Any neg = AnyUnsafe::MoveTVMFFIAnyRawToAny(FromWords({0, -1}));   // -(2**64)
  REQUIRE(pos.type_index() == kTVMFFIBigInt);
  CHECK(Call("ffi.ReprPrint", pos).cast<std::string>() == "18446744073709551616");
  CHECK(Call("ffi.ReprPrint", neg).cast<std::string>() == "-18446744073709551616");
  Array<Any> items{pos};
  CHECK(Call("ffi.ReprPrint", items).cast<std::string>().find("18446744073709551616") !=
        std::string::npos);
}

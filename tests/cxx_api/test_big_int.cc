// big_int.h: BigInt's representation, its arithmetic (checked against
// __int128, an independent implementation, on values near the int64_t edge),
// conversions, text, errors, and BigInt in Any.
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/function.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// The BigInt of a 128-bit value, built from its two words (not by arithmetic).
BigInt FromI128(i128 v) {
  int64_t words[3] = {static_cast<int64_t>(static_cast<uint64_t>(v)),
                      static_cast<int64_t>(static_cast<uint64_t>(v >> 64)), v < 0 ? -1 : 0};
  TVMFFIByteArray bytes{reinterpret_cast<const char*>(words), sizeof(words)};
  TVMFFIAny raw;
  REQUIRE(TVMFFIBigIntFromByteArray(&bytes, &raw) == 0);
  return detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(raw).cast<BigInt>();
}

std::string Text(const BigInt& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// Decimal text of a 128-bit value, by repeated division (independent of BigInt).
std::string Text(i128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  u128 m = neg ? -static_cast<u128>(v) : static_cast<u128>(v);
  std::string s;
  while (m != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return neg ? "-" + s : s;
}

// Python's // for 128-bit values: the truncated quotient, one lower when the
// remainder is nonzero and its sign differs from the divisor's.
i128 FloorDiv(i128 x, i128 y) {
  i128 q = x / y, r = x % y;
  return (r != 0 && ((r < 0) != (y < 0))) ? q - 1 : q;
}

}  // namespace

TEST_CASE("big_int: int64 values stay inline, others are ffi.BigInt objects", "[big_int]") {
  STATIC_REQUIRE(sizeof(BigInt) == sizeof(TVMFFIAny));
  BigInt small(kMin);
  CHECK(detail::BigIntUnsafe::CheckInt64(small));
  CHECK(Any(small).type_index() == TypeIndex::kTVMFFIInt);
  BigInt big = BigInt(kMax) + 1;
  CHECK_FALSE(detail::BigIntUnsafe::CheckInt64(big));
  Any held(big);
  CHECK(held.type_index() == TypeIndex::kTVMFFIBigInt);
  CHECK(held.GetTypeKey() == "ffi.BigInt");
  // Two words: 2^63 needs a zero sign word above it.
  BigInt::ArrayView words = detail::BigIntUnsafe::GetArrayView(big);
  REQUIRE(words.size() == 2);
  CHECK(words[0] == kMin);
  CHECK(words[1] == 0);
  // Back into range: inline again.
  CHECK(detail::BigIntUnsafe::CheckInt64(big - 1));
  CHECK(static_cast<int64_t>(big - 1) == kMax);
  CHECK(BigInt(std::numeric_limits<uint64_t>::max()) == (BigInt(1) << 64) - 1);
}

TEST_CASE("big_int: copies share the object, moves leave zero", "[big_int]") {
  BigInt big = BigInt(1) << 200;
  Any owner(big);
  ObjectRef ref = owner.cast<ObjectRef>();
  int64_t before = ref.use_count();
  {
    BigInt copy = big;
    CHECK(ref.use_count() == before + 1);
    BigInt moved = std::move(copy);
    CHECK(ref.use_count() == before + 1);
    CHECK(copy == 0);  // NOLINT(bugprone-use-after-move)
    CHECK(detail::BigIntUnsafe::CheckInt64(copy));
  }
  CHECK(ref.use_count() == before);
  Any taken(std::move(big));  // the reference moves into the Any: no new one
  CHECK(big == 0);            // NOLINT(bugprone-use-after-move)
  CHECK(ref.use_count() == before);
  CHECK(taken.same_as(owner));
}

TEST_CASE("big_int: arithmetic agrees with __int128 near the int64_t edge", "[big_int]") {
  std::mt19937_64 rng(20261201);
  std::vector<int64_t> edge = {0, 1, -1, 2, -2, 3, 7, -7, kMax, kMin, kMax - 1, kMin + 1,
                               int64_t{1} << 32, -(int64_t{1} << 32), 0x7fffffff, -0x80000000LL};
  for (int i = 0; i < 24; ++i) edge.push_back(static_cast<int64_t>(rng()));
  for (int64_t a : edge) {
    for (int64_t b : edge) {
      i128 x = a, y = b;
      CHECK(Text(BigInt(a) + BigInt(b)) == Text(x + y));
      CHECK(Text(BigInt(a) - b) == Text(x - y));
      CHECK(Text(a * BigInt(b)) == Text(x * y));
      // Wide operands: a * 2^40 + b against b, exercising the multiword paths.
      i128 wide = x * (static_cast<i128>(1) << 40) + y;
      BigInt w = FromI128(wide);
      CHECK(Text(w) == Text(wide));
      CHECK(Text(w + BigInt(b)) == Text(wide + y));
      CHECK(Text(w & BigInt(b)) == Text(wide & y));
      CHECK(Text(w | BigInt(b)) == Text(wide | y));
      CHECK(Text(w ^ BigInt(b)) == Text(wide ^ y));
      CHECK((w < BigInt(b)) == (wide < y));
      CHECK((w == FromI128(wide)));
      if (b != 0) {
        // C++ truncates, as BigInt's / and % do.
        CHECK(Text(w / b) == Text(wide / y));
        CHECK(Text(w % b) == Text(wide % y));
        CHECK(Text(floordiv(w, b)) == Text(FloorDiv(wide, y)));
        CHECK(Text(floormod(w, b)) == Text(wide - FloorDiv(wide, y) * y));
        CHECK(Text(BigInt(a) / b) == Text(x / y));
        CHECK(Text(floormod(a, BigInt(b))) == Text(x - FloorDiv(x, y) * y));
      }
    }
    for (int s : {0, 1, 31, 63, 64, 65, 100}) {
      i128 x = a;
      if (s < 64) CHECK(Text(BigInt(a) << s) == Text(x * (static_cast<i128>(1) << s)));
      CHECK(Text(BigInt(a) >> s) == Text(s < 127 ? (x >> s) : (x < 0 ? -1 : 0)));
    }
  }
}

TEST_CASE("big_int: multiword division against a product", "[big_int]") {
  // q * d + r with 0 <= r < d rebuilds the dividend exactly.
  BigInt d = (BigInt(1) << 97) + 12345;
  BigInt q = (BigInt(3) << 150) - 77;
  BigInt r = (BigInt(1) << 96) + 5;
  BigInt n = q * d + r;
  CHECK(n / d == q);
  CHECK(n % d == r);
  CHECK(-n / d == -q);
  CHECK(-n % d == -r);
  CHECK(floordiv(-n, d) == -q - 1);
  CHECK(floormod(-n, d) == d - r);
  auto qr = detail::int_ops::DivRemFallback(detail::BigIntUnsafe::GetArrayView(n),
                                            detail::BigIntUnsafe::GetArrayView(d));
  CHECK(qr.first == q);
  CHECK(qr.second == r);
}

TEST_CASE("big_int: text in and out", "[big_int]") {
  CHECK(Text(BigInt(1) << 128) == "340282366920938463463374607431768211456");
  CHECK(Text(-(BigInt(1) << 64)) == "-18446744073709551616");
  std::istringstream in("  -340282366920938463463374607431768211456 +12 x");
  BigInt a, b, c = 5;
  in >> a >> b;
  CHECK(a == -(BigInt(1) << 128));
  CHECK(b == 12);
  in >> c;
  CHECK(in.fail());
  CHECK(c == 5);  // unchanged on failure
}

TEST_CASE("big_int: conversions to and from double and narrower integers", "[big_int]") {
  CHECK(BigInt(-7.9) == -7);
  CHECK(BigInt(std::ldexp(1.0, 80)) == BigInt(1) << 80);
  CHECK(BigInt(-std::ldexp(3.0, 70)) == -(BigInt(3) << 70));
  CHECK(static_cast<double>(BigInt(1) << 80) == std::ldexp(1.0, 80));
  // 2^80 + 2^27 is a tie between 2^80 and 2^80 + 2^28: to even, down.
  CHECK(static_cast<double>((BigInt(1) << 80) + (BigInt(1) << 27)) == std::ldexp(1.0, 80));
  CHECK(static_cast<double>(-(BigInt(1) << 80) - (BigInt(1) << 27) - 1) ==
        -std::nextafter(std::ldexp(1.0, 80), 1e300));
  CHECK(BigInt(200).as<uint8_t>() == uint8_t{200});
  CHECK_FALSE(BigInt(-1).as<uint32_t>().has_value());
  CHECK(((BigInt(1) << 64) - 1).as<uint64_t>() == std::numeric_limits<uint64_t>::max());
  CHECK_FALSE((BigInt(1) << 64).as<uint64_t>().has_value());
}

TEST_CASE("big_int: errors name what went wrong", "[big_int]") {
  BigInt big = BigInt(1) << 70;
  CHECK(ErrorOf([&] { (void)(big / 0); }) == "ZeroDivisionError: Division by zero");
  CHECK(ErrorOf([&] { (void)(BigInt(5) % BigInt(0)); }) == "ZeroDivisionError: Division by zero");
  CHECK(ErrorOf([&] { (void)(big << -1); }) == "ValueError: Negative BigInt shift count");
  CHECK(ErrorOf([&] { (void)(BigInt(1) >> BigInt(-3)); }) ==
        "ValueError: Negative BigInt shift count");
  CHECK(ErrorOf([&] { (void)(big << big); }) == "OverflowError: BigInt shift count is too large");
  CHECK(ErrorOf([&] { (void)static_cast<int64_t>(big); }) ==
        "OverflowError: BigInt does not fit int64_t");
  CHECK(ErrorOf([&] { (void)BigInt(std::nan("")); }) == "ValueError: Cannot convert NaN to BigInt");
  CHECK(ErrorOf([&] { (void)BigInt(-HUGE_VAL); }) ==
        "OverflowError: Cannot convert infinity to BigInt");
  CHECK(ErrorOf([&] { (void)static_cast<double>(BigInt(1) << 1024); }) ==
        "OverflowError: BigInt does not fit finite double");
  CHECK((BigInt(0) << big) == 0);
  CHECK((-big >> big) == -1);
}

TEST_CASE("big_int: through a typed Function", "[big_int]") {
  Function neg = Function::FromTyped([](BigInt v) { return -v; });
  BigInt big = BigInt(1) << 100;
  CHECK(neg(big).cast<BigInt>() == -big);
  CHECK(neg(int64_t{5}).cast<BigInt>() == -5);
  CHECK(neg(true).cast<BigInt>() == -1);
  CHECK(neg(kMin).type_index() == TypeIndex::kTVMFFIBigInt);
  CHECK_FALSE(Any(1.5).try_cast<BigInt>().has_value());
}

// Integers of any size: the C++ BigInt over kTVMFFIInt and ffi.BigInt (78).
//
// A BigInt owns one value that is a kTVMFFIInt whenever it fits in int64_t
// and an ffi.BigInt object (minimal two's-complement 64-bit words, least
// significant first) otherwise, exactly as the C ABI requires.  Only
// construction, inspection and conversion live here; no arithmetic.
#ifndef TVM_FFI_CORE_IMPL_BIG_INT_H_
#define TVM_FFI_CORE_IMPL_BIG_INT_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "any.h"
#include "error.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class BigInt {
 public:
  BigInt() : BigInt(int64_t{0}) {}
  // Any built-in integer (unsigned 64-bit values above INT64_MAX become BigInts).
  template <typename Int, typename = std::enable_if_t<std::is_integral<Int>::value &&
                                                      !std::is_same<Int, bool>::value>>
  BigInt(Int value) {  // NOLINT(runtime/explicit)
    if (std::is_unsigned<Int>::value && sizeof(Int) == 8 &&
        static_cast<uint64_t>(value) > static_cast<uint64_t>(INT64_MAX)) {
      int64_t words[2] = {static_cast<int64_t>(static_cast<uint64_t>(value)), 0};
      *this = FromWords(words, 2);
    } else {
      value_ = Any(static_cast<int64_t>(value));
    }
  }

  // The integer of `n` words (least significant first, two's complement);
  // redundant sign words are allowed, n == 0 is zero.
  static BigInt FromWords(const int64_t* words, size_t n) {
    TVMFFIByteArray bytes = {reinterpret_cast<const char*>(words), n * sizeof(int64_t)};
    TVMFFIAny raw;
    AnyZero(&raw);
    int rc = TVMFFIBigIntFromByteArray(&bytes, &raw);
    if (rc != 0) ThrowRaised(rc);
    return BigInt(Any::Adopt(raw));
  }

  // Whether the value is stored inline (fits in int64_t).
  bool IsInt64() const { return value_.type_index() == kTVMFFIInt; }
  std::optional<int64_t> AsInt64() const {
    if (!IsInt64()) return std::nullopt;
    return value_.raw()->v_int64;
  }
  // OverflowError when the value does not fit.
  int64_t ToInt64() const {
    if (!IsInt64()) TVM_FFI_IMPL_THROW(OverflowError) << "integer " << ToString() << " does not fit int64";
    return value_.raw()->v_int64;
  }
  bool IsNegative() const { return words()[num_words() - 1] < 0; }

  // The minimal words, valid while this BigInt lives and is not assigned to.
  const int64_t* words() const {
    return reinterpret_cast<const int64_t*>(TVMFFIBigIntGetContentByteArray(value_.raw()).data);
  }
  size_t num_words() const {
    return TVMFFIBigIntGetContentByteArray(value_.raw()).size / sizeof(int64_t);
  }
  std::vector<int64_t> Words() const { return std::vector<int64_t>(words(), words() + num_words()); }

  // Decimal text, e.g. "-9223372036854775809".
  std::string ToString() const {
    if (IsInt64()) return DecimalString(value_.raw()->v_int64);
    // Magnitude in 32-bit limbs, least significant first.
    bool negative = IsNegative();
    std::vector<uint32_t> limbs;
    uint64_t carry = negative ? 1 : 0;
    for (size_t i = 0; i < num_words(); ++i) {
      uint64_t w = static_cast<uint64_t>(words()[i]);
      if (negative) {
        w = ~w + carry;
        carry = (carry != 0 && w == 0) ? 1 : 0;
      }
      limbs.push_back(static_cast<uint32_t>(w));
      limbs.push_back(static_cast<uint32_t>(w >> 32));
    }
    std::string digits;
    while (!limbs.empty()) {
      uint64_t rem = 0;
      for (size_t i = limbs.size(); i-- > 0;) {
        uint64_t cur = (rem << 32) | limbs[i];
        limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
        rem = cur % 1000000000u;
      }
      while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
      for (int k = 0; k < 9 && (rem != 0 || !limbs.empty()); ++k) {
        digits.push_back(static_cast<char>('0' + rem % 10));
        rem /= 10;
      }
    }
    if (negative) digits.push_back('-');
    std::reverse(digits.begin(), digits.end());
    return digits;
  }

  const TVMFFIAny* raw() const { return value_.raw(); }
  // The value as an owning Any (kTVMFFIInt or kTVMFFIBigInt).
  const Any& AsAny() const { return value_; }

  friend bool operator==(const BigInt& a, const BigInt& b) {
    return a.num_words() == b.num_words() &&
           std::equal(a.words(), a.words() + a.num_words(), b.words());
  }
  friend bool operator!=(const BigInt& a, const BigInt& b) { return !(a == b); }

 private:
  template <typename T, typename>
  friend struct TypeTraits;
  explicit BigInt(Any value) : value_(std::move(value)) {}

  Any value_;
};

// Converts from int and BigInt values (and bool, as 0 or 1); shown as "int".
template <>
struct TypeTraits<BigInt> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "int"; }
  static void CopyToView(const BigInt& v, TVMFFIAny* out) { *out = *v.raw(); }
  static void MoveToOwned(BigInt v, TVMFFIAny* out) { *out = v.value_.Release(); }
  static std::optional<BigInt> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) return BigInt(v->v_int64);
    if (v->type_index == kTVMFFIBigInt) return BigInt(Any(AnyView::FromRaw(*v)));
    return std::nullopt;
  }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_BIG_INT_H_

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/big_int.h
 * \brief BigInt: a signed integer of any size, with the arithmetic of
 *        Python's int.
 *
 * A BigInt is one TVMFFIAny (16 bytes, C++ ABI).  A value in the int64_t
 * range is always a kTVMFFIInt in it; any other value is a kTVMFFIBigInt: an
 * ffi.BigInt object holding the minimal two's-complement 64-bit words of the
 * value, least significant first (the content format of
 * TVMFFIBigIntFromByteArray).  So equal values have equal representations,
 * and a BigInt travels through the C ABI as an int or an ffi.BigInt.
 *
 * Semantics: + - * never overflow; / and % truncate toward zero, floordiv and
 * floormod round the quotient toward negative infinity; a zero divisor raises
 * ZeroDivisionError.  & | ^ ~ act on the infinite two's-complement form;
 * >> rounds toward negative infinity; a negative shift count raises
 * ValueError, a left shift too large to store raises OverflowError.
 * Conversions to int64_t and double are explicit and raise OverflowError
 * when the value does not fit.
 *
 * The int64 case is inline in the header; everything else is done by
 * out-of-line helpers in detail::int_ops working on word views.
 */
#ifndef TVM_FFI_BIG_INT_H_
#define TVM_FFI_BIG_INT_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

namespace tvm {
namespace ffi {

class BigInt;

namespace detail {
struct BigIntUnsafe;

/*!
 * \brief The ffi.BigInt object (static type index kTVMFFIBigInt).
 *
 * layout = { TVMFFIObject, size_t size, int64_t words[size] }: the words
 * follow the object in the same allocation (make_inplace_array_object).  A
 * published object is minimal (no word that only repeats the sign of the one
 * below) and holds a value outside int64_t, so size >= 2.  While a helper
 * builds one, its words may be anything; BigIntUnsafe::Normalize finishes it.
 */
class BigIntObj : public Object {
  // The number of words after the object; read and written by BigIntUnsafe.
  size_t size_;
  friend struct BigIntUnsafe;

 public:
  /// \cond Doxygen_Suppress
  static constexpr bool _type_final = true;
  static constexpr uint32_t _type_index = TypeIndex::kTVMFFIBigInt;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIBigInt, BigIntObj, Object);
  /// \endcond

  /*! \brief An object of `size` words, not yet written. */
  explicit BigIntObj(size_t size) : size_(size) {}
  // The words live in the same allocation: an object is never copied.
  BigIntObj& operator=(const BigIntObj&) = delete;
  BigIntObj(const BigIntObj&) = delete;
};
}  // namespace detail

/*!
 * \brief An immutable integer of unbounded size (see the file comment).
 *        Copies share the heap object when there is one.
 */
class BigInt {
 public:
  /*!
   * \brief Read-only words of an integer, least significant first, the last
   *        one carrying the sign.  Borrowed: the storage must outlive it.
   */
  class ArrayView {
    const int64_t* data_;
    size_t size_;

   public:
    /*! \brief The `size` words at `data`. */
    TVM_FFI_INLINE ArrayView(const int64_t* data, size_t size) : data_(data), size_(size) {}
    /*! \brief The number of words. */
    TVM_FFI_INLINE size_t size() const { return size_; }
    /*! \brief Word `i` (i < size()). */
    TVM_FFI_INLINE const int64_t& operator[](size_t i) const { return data_[i]; }
  };

  /*! \brief Zero. */
  TVM_FFI_INLINE BigInt() noexcept { SetSmall(0); }
  /*! \brief Exactly `value`, for any built-in integer type up to 64 bits. */
  template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int> = 0>
  TVM_FFI_INLINE BigInt(Int value);  // NOLINT(*)
  /*!
   * \brief `value` truncated toward zero.  NaN raises ValueError, an infinity
   *        OverflowError.
   */
  TVM_FFI_INLINE explicit BigInt(double value);

  TVM_FFI_INLINE BigInt(const BigInt& other) noexcept : cell_(other.cell_) {
    if (TVM_FFI_PREDICT_FALSE(other.IsHeap())) detail::ObjectUnsafe::IncRefObjectHandle(cell_.v_obj);
  }
  /*! \brief Takes `other`'s value; `other` becomes zero. */
  TVM_FFI_INLINE BigInt(BigInt&& other) noexcept : cell_(other.cell_) { other.SetSmall(0); }
  TVM_FFI_INLINE BigInt& operator=(const BigInt& other) {
    BigInt copy(other);
    swap(copy);
    return *this;
  }
  TVM_FFI_INLINE BigInt& operator=(BigInt&& other) noexcept {
    BigInt taken(std::move(other));
    swap(taken);
    return *this;
  }
  TVM_FFI_INLINE ~BigInt() {
    if (TVM_FFI_PREDICT_FALSE(IsHeap())) detail::ObjectUnsafe::DecRefObjectHandle(cell_.v_obj);
  }
  /*! \brief Exchanges the two values; no reference count changes. */
  TVM_FFI_INLINE void swap(BigInt& other) noexcept { std::swap(cell_, other.cell_); }

  // In-place arithmetic.  Division and modulo floor, as Python's // and %
  // do; a zero divisor is a ZeroDivisionError.
  /// \cond Doxygen_Suppress
  TVM_FFI_INLINE BigInt& operator+=(const BigInt& rhs);
  TVM_FFI_INLINE BigInt& operator++();
  TVM_FFI_INLINE BigInt operator++(int);
  TVM_FFI_INLINE BigInt& operator-=(const BigInt& rhs);
  TVM_FFI_INLINE BigInt& operator--();
  TVM_FFI_INLINE BigInt operator--(int);
  TVM_FFI_INLINE BigInt& operator*=(const BigInt& rhs);
  /// \endcond

  /*! \brief value != 0. */
  TVM_FFI_INLINE explicit operator bool() const noexcept { return IsHeap() || cell_.v_int64 != 0; }
  /*! \brief The value as int64_t; OverflowError when it does not fit. */
  TVM_FFI_INLINE explicit operator int64_t() const {
    if (TVM_FFI_PREDICT_TRUE(!IsHeap())) return cell_.v_int64;
    TVM_FFI_THROW(OverflowError) << "BigInt does not fit int64_t";
    TVM_FFI_UNREACHABLE();
  }

  /// \cond Doxygen_Suppress
  TVM_FFI_INLINE BigInt& operator/=(const BigInt& rhs);
  TVM_FFI_INLINE BigInt& operator%=(const BigInt& rhs);
  /// \endcond

  /*!
   * \brief The nearest double (ties to even); OverflowError when that is
   *        beyond the largest finite double.
   */
  TVM_FFI_INLINE explicit operator double() const;

  // In-place bitwise operations, on the infinite two's complement form
  // (as Python's int); a negative shift count is a ValueError.
  /// \cond Doxygen_Suppress
  TVM_FFI_INLINE BigInt& operator&=(const BigInt& rhs);
  TVM_FFI_INLINE BigInt& operator|=(const BigInt& rhs);
  TVM_FFI_INLINE BigInt& operator^=(const BigInt& rhs);
  /// \endcond

  /*! \brief A hash of the value (equal values hash equal). */
  TVM_FFI_INLINE uint64_t hash() const;

  /// \cond Doxygen_Suppress
  TVM_FFI_INLINE BigInt& operator<<=(const BigInt& rhs);
  TVM_FFI_INLINE BigInt& operator>>=(const BigInt& rhs);
  /// \endcond

  /*! \brief The value as an Int when Int can hold it, else nullopt. */
  template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int> = 0>
  TVM_FFI_INLINE std::optional<Int> as() const;

 private:
  friend struct detail::BigIntUnsafe;
  friend struct TypeTraits<BigInt>;

  // Adopts a finished multiword object (size >= 2, minimal).
  TVM_FFI_INLINE explicit BigInt(ObjectPtr<detail::BigIntObj> obj) noexcept {
    cell_.type_index = TypeIndex::kTVMFFIBigInt;
    cell_.zero_padding = 0;
    cell_.v_int64 = 0;
    cell_.v_obj = detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj));
  }
  TVM_FFI_INLINE bool IsHeap() const noexcept {
    return cell_.type_index != TypeIndex::kTVMFFIInt;
  }
  // Overwrites the cell with an inline value; does not release anything.
  TVM_FFI_INLINE void SetSmall(int64_t value) noexcept {
    cell_.type_index = TypeIndex::kTVMFFIInt;
    cell_.zero_padding = 0;
    cell_.v_int64 = value;
  }

  TVMFFIAny cell_;
};

/*! \brief ADL swap: exchanges the values. */
TVM_FFI_INLINE void swap(BigInt& a, BigInt& b) noexcept { a.swap(b); }

namespace detail {

/*! \brief Access to a BigInt's representation, for the helpers below and tests. */
struct BigIntUnsafe {
  /*! \brief Whether `value` is stored inline (fits int64_t). */
  TVM_FFI_INLINE static bool CheckInt64(const BigInt& value) { return !value.IsHeap(); }
  /*! \brief A plain int64_t always fits. */
  TVM_FFI_INLINE static bool CheckInt64(const int64_t&) { return true; }
  /*! \brief The inline value (only when CheckInt64). */
  TVM_FFI_INLINE static int64_t GetInt64(const BigInt& value) { return value.cell_.v_int64; }
  TVM_FFI_INLINE static int64_t GetInt64(const int64_t& value) { return value; }

  /*! \brief The words of a TVMFFIAny holding a kTVMFFIInt or a kTVMFFIBigInt. */
  TVM_FFI_INLINE static BigInt::ArrayView GetArrayView(const TVMFFIAny* cell) {
    if (cell->type_index == TypeIndex::kTVMFFIInt) return BigInt::ArrayView(&cell->v_int64, 1);
    const BigIntObj* obj = ObjectUnsafe::RawObjectPtrFromUnowned<BigIntObj>(cell->v_obj);
    return BigInt::ArrayView(WordsOf(obj), obj->size_);
  }
  /*! \brief The minimal words of `value`; valid while `value` is alive and unchanged. */
  TVM_FFI_INLINE static BigInt::ArrayView GetArrayView(const BigInt& value) {
    return GetArrayView(&value.cell_);
  }
  /*! \brief One word: `value` itself. */
  TVM_FFI_INLINE static BigInt::ArrayView GetArrayView(const int64_t& value) {
    return BigInt::ArrayView(&value, 1);
  }
  /*! \brief The current words of an object under construction. */
  TVM_FFI_INLINE static BigInt::ArrayView GetArrayView(const ObjectPtr<BigIntObj>& obj) {
    return BigInt::ArrayView(WordsOf(obj.get()), obj->size_);
  }
  /*! \brief Writable words of an object under construction (not yet shared). */
  TVM_FFI_INLINE static int64_t* GetMutableData(const ObjectPtr<BigIntObj>& obj) {
    return reinterpret_cast<int64_t*>(obj.get() + 1);
  }
  /*! \brief Lowers the word count of an object under construction (memory stays). */
  TVM_FFI_INLINE static void ShrinkSize(const ObjectPtr<BigIntObj>& obj, size_t size) {
    obj->size_ = size;
  }
  /*!
   * \brief Finishes an object whose words are all written: drops redundant
   *        sign words and returns an inline BigInt when the value fits int64_t
   *        (the object is then freed), else a BigInt owning the object.
   */
  static BigInt Normalize(ObjectPtr<BigIntObj> obj) {
    const int64_t* words = GetMutableData(obj);
    size_t n = obj->size_;
    while (n >= 2 && words[n - 1] == (words[n - 2] >> 63)) --n;
    if (n < 2) return BigInt(n == 0 ? int64_t{0} : words[0]);
    ShrinkSize(obj, n);
    return BigInt(std::move(obj));
  }

 private:
  static const int64_t* WordsOf(const BigIntObj* obj) {
    return reinterpret_cast<const int64_t*>(obj + 1);
  }
};

/*! \brief Integer helpers of BigInt; the *Fallback functions take any word views. */
namespace int_ops {

using View = BigInt::ArrayView;

/*! \brief Whether the value of `x` (at least one word) is below zero. */
TVM_FFI_INLINE bool IsNegative(View x) { return x[x.size() - 1] < 0; }
/*! \brief Whether a minimal view is zero. */
TVM_FFI_INLINE bool IsNormalizedZero(View x) { return x.size() == 1 && x[0] == 0; }

// Word i of x, sign-extended past its top word.
TVM_FFI_INLINE uint64_t WordAt(View x, size_t i) {
  if (i < x.size()) return static_cast<uint64_t>(x[i]);
  return IsNegative(x) ? ~uint64_t{0} : uint64_t{0};
}

[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowDivisionByZero() {
  TVM_FFI_THROW(ZeroDivisionError) << "Division by zero";
}
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowNegativeShift() {
  TVM_FFI_THROW(ValueError) << "Negative BigInt shift count";
}

// A new integer from `n` words written by fill(int64_t* words).
template <typename Fill>
inline BigInt BuildWords(size_t n, Fill fill) {
  ObjectPtr<BigIntObj> obj = make_inplace_array_object<BigIntObj, int64_t>(n, n);
  fill(BigIntUnsafe::GetMutableData(obj));
  return BigIntUnsafe::Normalize(std::move(obj));
}
// The integer of the words of `x` (any view, minimal or not).
inline BigInt FromView(View x) {
  return BuildWords(x.size(), [&](int64_t* out) {
    for (size_t i = 0; i < x.size(); ++i) out[i] = x[i];
  });
}

// ---- Two's-complement word arithmetic ----------------------------------

// a + b, or a - b as a + ~b + 1.
inline BigInt AddWords(View a, View b, bool subtract) {
  size_t n = std::max(a.size(), b.size()) + 1;
  return BuildWords(n, [&](int64_t* out) {
    uint64_t carry = subtract ? 1 : 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t x = WordAt(a, i);
      uint64_t y = subtract ? ~WordAt(b, i) : WordAt(b, i);
      uint64_t sum = x + y;
      uint64_t carry_out = sum < x ? 1 : 0;
      uint64_t total = sum + carry;
      carry_out |= total < sum ? 1 : 0;
      out[i] = static_cast<int64_t>(total);
      carry = carry_out;
    }
  });
}
/*! \brief a + b. */
inline BigInt AddFallback(View a, View b) { return AddWords(a, b, false); }
/*! \brief a - b. */
inline BigInt SubFallback(View a, View b) { return AddWords(a, b, true); }
/*! \brief -x. */
inline BigInt NegateFallback(View x) {
  const int64_t zero = 0;
  return AddWords(View(&zero, 1), x, true);
}

// Word-wise op(a, b) over the sign-extended forms.
template <typename Op>
inline BigInt BitwiseWords(View a, View b, Op op) {
  size_t n = std::max(a.size(), b.size());
  return BuildWords(n, [&](int64_t* out) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(op(WordAt(a, i), WordAt(b, i)));
  });
}
/*! \brief a & b. */
inline BigInt AndFallback(View a, View b) {
  return BitwiseWords(a, b, [](uint64_t x, uint64_t y) { return x & y; });
}
/*! \brief a | b. */
inline BigInt OrFallback(View a, View b) {
  return BitwiseWords(a, b, [](uint64_t x, uint64_t y) { return x | y; });
}
/*! \brief a ^ b. */
inline BigInt XorFallback(View a, View b) {
  return BitwiseWords(a, b, [](uint64_t x, uint64_t y) { return x ^ y; });
}
/*! \brief ~x, that is -x - 1. */
inline BigInt ComplementFallback(View x) {
  return BuildWords(x.size(), [&](int64_t* out) {
    for (size_t i = 0; i < x.size(); ++i) out[i] = ~x[i];
  });
}

/*! \brief -1, 0 or 1 as a is below, equal to or above b. */
inline int CompareFallback(View a, View b) {
  bool a_neg = IsNegative(a);
  if (a_neg != IsNegative(b)) return a_neg ? -1 : 1;
  // Same sign: the sign-extended words order like unsigned numbers.
  for (size_t i = std::max(a.size(), b.size()); i-- > 0;) {
    uint64_t x = WordAt(a, i), y = WordAt(b, i);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}
/*! \brief a == b for minimal views (equal values have equal words). */
inline bool EqualFallback(View a, View b) {
  return a.size() == b.size() && std::memcmp(&a[0], &b[0], a.size() * sizeof(int64_t)) == 0;
}

// The shift count as a number of bits; false when it is beyond any size
// that could be stored.  ValueError for a negative count.
inline bool ShiftBits(View count, uint64_t* bits) {
  if (IsNegative(count)) ThrowNegativeShift();
  constexpr uint64_t kLimit = uint64_t{1} << 40;
  for (size_t i = 1; i < count.size(); ++i) {
    if (count[i] != 0) return false;
  }
  *bits = static_cast<uint64_t>(count[0]);
  return *bits < kLimit;
}
/*! \brief x << count (count >= 0). */
inline BigInt LeftShiftFallback(View x, View count) {
  uint64_t bits = 0;
  bool fits = ShiftBits(count, &bits);
  if (IsNormalizedZero(x)) return BigInt(0);
  if (!fits) TVM_FFI_THROW(OverflowError) << "BigInt shift count is too large";
  size_t whole = static_cast<size_t>(bits / 64);
  unsigned part = static_cast<unsigned>(bits % 64);
  size_t n = x.size() + whole + 1;
  return BuildWords(n, [&](int64_t* out) {
    std::fill(out, out + whole, int64_t{0});
    for (size_t i = 0; i + whole < n; ++i) {
      uint64_t w = WordAt(x, i) << part;
      if (part != 0 && i > 0) w |= WordAt(x, i - 1) >> (64 - part);
      out[i + whole] = static_cast<int64_t>(w);
    }
  });
}
/*! \brief x >> count (count >= 0), rounding toward negative infinity. */
inline BigInt RightShiftFallback(View x, View count) {
  uint64_t bits = 0;
  bool fits = ShiftBits(count, &bits);
  if (!fits || bits >= 64 * static_cast<uint64_t>(x.size())) {
    return BigInt(IsNegative(x) ? -1 : 0);
  }
  size_t whole = static_cast<size_t>(bits / 64);
  unsigned part = static_cast<unsigned>(bits % 64);
  size_t n = x.size() - whole;
  return BuildWords(n, [&](int64_t* out) {
    for (size_t i = 0; i < n; ++i) {
      uint64_t w = WordAt(x, i + whole) >> part;
      if (part != 0) w |= WordAt(x, i + whole + 1) << (64 - part);
      out[i] = static_cast<int64_t>(w);
    }
  });
}

// ---- Magnitudes: base 2^32 digits, least significant first, no top zero --

using Magnitude = std::vector<uint32_t>;

TVM_FFI_INLINE void TrimMagnitude(Magnitude* m) {
  while (!m->empty() && m->back() == 0) m->pop_back();
}
// |x| as digits; *negative receives the sign.
inline Magnitude ToMagnitude(View x, bool* negative) {
  *negative = IsNegative(x);
  Magnitude m;
  m.reserve(2 * x.size());
  uint64_t carry = *negative ? 1 : 0;
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t w = static_cast<uint64_t>(x[i]);
    if (*negative) {
      w = ~w + carry;
      carry = (carry != 0 && w == 0) ? 1 : 0;
    }
    m.push_back(static_cast<uint32_t>(w));
    m.push_back(static_cast<uint32_t>(w >> 32));
  }
  TrimMagnitude(&m);
  return m;
}
// The integer (negative ? -m : m).
inline BigInt FromMagnitude(const Magnitude& m, bool negative) {
  size_t n = (m.size() + 1) / 2 + 1;  // one spare word for the sign
  return BuildWords(n, [&](int64_t* out) {
    uint64_t carry = 1;
    for (size_t i = 0; i < n; ++i) {
      uint64_t lo = 2 * i < m.size() ? m[2 * i] : 0;
      uint64_t hi = 2 * i + 1 < m.size() ? m[2 * i + 1] : 0;
      uint64_t w = lo | (hi << 32);
      if (negative) {
        w = ~w + carry;
        carry = (carry != 0 && w == 0) ? 1 : 0;
      }
      out[i] = static_cast<int64_t>(w);
    }
  });
}
inline int CompareMagnitude(const Magnitude& a, const Magnitude& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}
inline Magnitude MultiplyMagnitude(const Magnitude& a, const Magnitude& b) {
  if (a.empty() || b.empty()) return Magnitude();
  Magnitude out(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) {
      uint64_t t = static_cast<uint64_t>(a[i]) * b[j] + out[i + j] + carry;
      out[i + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    out[i + b.size()] = static_cast<uint32_t>(carry);
  }
  TrimMagnitude(&out);
  return out;
}
// m = m * mul + add, in place.
inline void MultiplyAddSmall(Magnitude* m, uint32_t mul, uint32_t add) {
  uint64_t carry = add;
  for (uint32_t& digit : *m) {
    uint64_t t = static_cast<uint64_t>(digit) * mul + carry;
    digit = static_cast<uint32_t>(t);
    carry = t >> 32;
  }
  if (carry != 0) m->push_back(static_cast<uint32_t>(carry));
}
// m /= divisor (nonzero), in place; returns the remainder.
inline uint32_t DivideSmall(Magnitude* m, uint32_t divisor) {
  uint64_t rem = 0;
  for (size_t i = m->size(); i-- > 0;) {
    uint64_t cur = (rem << 32) | (*m)[i];
    (*m)[i] = static_cast<uint32_t>(cur / divisor);
    rem = cur % divisor;
  }
  TrimMagnitude(m);
  return static_cast<uint32_t>(rem);
}
// window[0 .. n] += divisor[0 .. n-1], the last carry wrapping into
// window[n]: the correction after a quotient digit was one too large.
inline void AddDivisorBack(uint32_t* window, const uint32_t* divisor, size_t n) {
  uint32_t carry = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t sum = uint64_t{window[i]} + uint64_t{divisor[i]} + carry;
    carry = static_cast<uint32_t>(sum >> 32);
    window[i] = static_cast<uint32_t>(sum);
  }
  window[n] += carry;
}

// Long division of magnitudes (v nonempty): *q = u / v, *r = u % v.  The
// classic schoolbook method in base 2^32: normalise v so its top digit has
// its high bit set, estimate each quotient digit from the top two digits,
// correct the estimate, subtract, and add back the rare time it is one too
// large.
inline void DivideMagnitude(const Magnitude& u, const Magnitude& v, Magnitude* q, Magnitude* r) {
  if (CompareMagnitude(u, v) < 0) {
    q->clear();
    *r = u;
    return;
  }
  if (v.size() == 1) {
    *q = u;
    uint32_t rem = DivideSmall(q, v[0]);
    r->clear();
    if (rem != 0) r->push_back(rem);
    return;
  }
  const size_t n = v.size();
  const size_t m = u.size() - n;
  unsigned shift = 0;
  while ((v.back() << shift & 0x80000000u) == 0) ++shift;
  Magnitude vn(n), un(u.size() + 1);
  for (size_t i = n; i-- > 0;) {
    uint64_t below = (shift != 0 && i > 0) ? (static_cast<uint64_t>(v[i - 1]) >> (32 - shift)) : 0;
    vn[i] = static_cast<uint32_t>((static_cast<uint64_t>(v[i]) << shift) | below);
  }
  un[u.size()] = shift != 0 ? static_cast<uint32_t>(static_cast<uint64_t>(u.back()) >> (32 - shift)) : 0;
  for (size_t i = u.size(); i-- > 0;) {
    uint64_t below = (shift != 0 && i > 0) ? (static_cast<uint64_t>(u[i - 1]) >> (32 - shift)) : 0;
    un[i] = static_cast<uint32_t>((static_cast<uint64_t>(u[i]) << shift) | below);
  }
  constexpr uint64_t kBase = uint64_t{1} << 32;
  q->assign(m + 1, 0);
  for (size_t j = m + 1; j-- > 0;) {
    uint64_t top = (static_cast<uint64_t>(un[j + n]) << 32) | un[j + n - 1];
    uint64_t qhat = top / vn[n - 1];
    uint64_t rhat = top % vn[n - 1];
    while (qhat >= kBase || qhat * vn[n - 2] > ((rhat << 32) | un[j + n - 2])) {
      --qhat;
      rhat += vn[n - 1];
      if (rhat >= kBase) break;
    }
    // un[j .. j+n] -= qhat * vn
    int64_t borrow = 0;
    uint64_t carry = 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t product = qhat * vn[i] + carry;
      carry = product >> 32;
      int64_t t = static_cast<int64_t>(un[i + j]) - borrow - static_cast<int64_t>(product & 0xffffffffu);
      un[i + j] = static_cast<uint32_t>(t);
      borrow = t < 0 ? 1 : 0;
    }
    int64_t t = static_cast<int64_t>(un[j + n]) - borrow - static_cast<int64_t>(carry);
    un[j + n] = static_cast<uint32_t>(t);
    if (t < 0) {
      // The estimate was one too large: add v back once.
      --qhat;
      AddDivisorBack(&un[j], vn.data(), n);
    }
    (*q)[j] = static_cast<uint32_t>(qhat);
  }
  TrimMagnitude(q);
  r->assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    uint64_t above = shift != 0 ? (static_cast<uint64_t>(un[i + 1]) << (32 - shift)) : 0;
    (*r)[i] = static_cast<uint32_t>((static_cast<uint64_t>(un[i]) >> shift) | above);
  }
  TrimMagnitude(r);
}

/*! \brief a * b. */
inline BigInt MulFallback(View a, View b) {
  bool a_neg = false, b_neg = false;
  Magnitude ma = ToMagnitude(a, &a_neg);
  Magnitude mb = ToMagnitude(b, &b_neg);
  return FromMagnitude(MultiplyMagnitude(ma, mb), a_neg != b_neg);
}
/*!
 * \brief {a / b, a % b} with the quotient truncated toward zero (the
 *        remainder has the sign of a).  ZeroDivisionError when b is zero.
 */
inline std::pair<BigInt, BigInt> DivRemFallback(View a, View b) {
  bool a_neg = false, b_neg = false;
  Magnitude mb = ToMagnitude(b, &b_neg);
  if (mb.empty()) ThrowDivisionByZero();
  Magnitude ma = ToMagnitude(a, &a_neg);
  Magnitude q, r;
  DivideMagnitude(ma, mb, &q, &r);
  return {FromMagnitude(q, a_neg != b_neg), FromMagnitude(r, a_neg)};
}
/*! \brief a / b, truncated. */
inline BigInt TruncDivFallback(View a, View b) { return DivRemFallback(a, b).first; }
/*! \brief a % b, with the sign of a. */
inline BigInt TruncModFallback(View a, View b) { return DivRemFallback(a, b).second; }
// {floor(a / b), a - b * floor(a / b)}: the remainder has the sign of b.
inline std::pair<BigInt, BigInt> FloorDivRem(View a, View b);
/*! \brief floor(a / b). */
inline BigInt FloorDivFallback(View a, View b) { return FloorDivRem(a, b).first; }
/*! \brief a - b * floor(a / b). */
inline BigInt FloorModFallback(View a, View b) { return FloorDivRem(a, b).second; }
/*! \brief The smaller of a and b (a copy). */
inline BigInt MinFallback(View a, View b);
/*! \brief The larger of a and b (a copy). */
inline BigInt MaxFallback(View a, View b);

/*! \brief Decimal text of `value`, with a leading '-' when negative. */
inline std::string ToStringFallback(const BigInt& value) {
  View words = BigIntUnsafe::GetArrayView(value);
  bool negative = false;
  Magnitude m = ToMagnitude(words, &negative);
  if (m.empty()) return "0";
  std::string reversed;
  while (!m.empty()) {
    uint32_t chunk = DivideSmall(&m, 1000000000u);
    for (int k = 0; k < 9 && (chunk != 0 || !m.empty()); ++k) {
      reversed.push_back(static_cast<char>('0' + chunk % 10));
      chunk /= 10;
    }
  }
  if (negative) reversed.push_back('-');
  return std::string(reversed.rbegin(), reversed.rend());
}

// ---- The int64 fast paths: false/true = fits/does not fit ---------------

TVM_FFI_INLINE bool AddOverflow(int64_t a, int64_t b, int64_t* out) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_add_overflow(a, b, out);
#else
  if ((b > 0 && a > std::numeric_limits<int64_t>::max() - b) ||
      (b < 0 && a < std::numeric_limits<int64_t>::min() - b)) {
    return true;
  }
  *out = a + b;
  return false;
#endif
}
TVM_FFI_INLINE bool SubOverflow(int64_t a, int64_t b, int64_t* out) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_sub_overflow(a, b, out);
#else
  if ((b < 0 && a > std::numeric_limits<int64_t>::max() + b) ||
      (b > 0 && a < std::numeric_limits<int64_t>::min() + b)) {
    return true;
  }
  *out = a - b;
  return false;
#endif
}
TVM_FFI_INLINE bool MulOverflow(int64_t a, int64_t b, int64_t* out) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_mul_overflow(a, b, out);
#else
  if (a == 0 || b == 0) {
    *out = 0;
    return false;
  }
  if ((a == -1 && b == std::numeric_limits<int64_t>::min()) ||
      (b == -1 && a == std::numeric_limits<int64_t>::min())) {
    return true;
  }
  int64_t p = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  if (p / b != a) return true;
  *out = p;
  return false;
#endif
}
// Division: ZeroDivisionError for b == 0; only INT64_MIN / -1 does not fit.
TVM_FFI_INLINE bool TruncDivOverflow(int64_t a, int64_t b, int64_t* out) {
  if (TVM_FFI_PREDICT_FALSE(b == 0)) ThrowDivisionByZero();
  if (TVM_FFI_PREDICT_FALSE(b == -1 && a == std::numeric_limits<int64_t>::min())) return true;
  *out = a / b;
  return false;
}
TVM_FFI_INLINE bool TruncModOverflow(int64_t a, int64_t b, int64_t* out) {
  if (TVM_FFI_PREDICT_FALSE(b == 0)) ThrowDivisionByZero();
  *out = b == -1 ? 0 : a % b;  // a % -1 is 0, and INT64_MIN % -1 would trap
  return false;
}
TVM_FFI_INLINE bool FloorDivOverflow(int64_t a, int64_t b, int64_t* out) {
  if (TruncDivOverflow(a, b, out)) return true;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --*out;
  return false;
}
TVM_FFI_INLINE bool FloorModOverflow(int64_t a, int64_t b, int64_t* out) {
  TruncModOverflow(a, b, out);
  if (*out != 0 && ((*out < 0) != (b < 0))) *out += b;
  return false;
}
// Left shift within int64_t; ValueError for b < 0.
TVM_FFI_INLINE bool LeftShiftOverflow(int64_t a, int64_t b, int64_t* out) {
  if (TVM_FFI_PREDICT_FALSE(b < 0)) ThrowNegativeShift();
  if (a == 0 || b == 0) {
    *out = a;
    return false;
  }
  if (b >= 63) return true;
  int64_t shifted = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  if ((shifted >> b) != a) return true;
  *out = shifted;
  return false;
}
/*! \brief a >> b within int64_t (b >= 0, else ValueError). */
TVM_FFI_INLINE int64_t RightShift(int64_t a, int64_t b) {
  if (TVM_FFI_PREDICT_FALSE(b < 0)) ThrowNegativeShift();
  if (b >= 64) return a < 0 ? -1 : 0;
  return a >> b;
}

// ---- Conversions from and to double -------------------------------------

/*! \brief `value` truncated toward zero, for values outside int64_t. */
inline BigInt WideFromDouble(double value);

/*! \brief The nearest double to a value outside int64_t. */
inline double WideAsDouble(const BigInt& value) {
  bool negative = false;
  Magnitude m = ToMagnitude(BigIntUnsafe::GetArrayView(value), &negative);
  // Bit length: the magnitude is at least 2^63, so at least 64 bits.
  uint64_t top_digit = m.back();
  size_t top_bits = 0;
  while ((top_digit >> top_bits) != 0) ++top_bits;  // at most 32
  size_t length = 32 * (m.size() - 1) + top_bits;
  auto bit = [&](size_t i) -> uint64_t { return (m[i / 32] >> (i % 32)) & 1u; };
  // The top 64 bits, and whether anything below them is set.
  size_t low = length - 64;
  uint64_t top = 0;
  for (size_t k = 0; k < 64; ++k) top |= bit(low + k) << k;
  bool sticky = false;
  for (size_t i = 0; i < low / 32 && !sticky; ++i) sticky = m[i] != 0;
  for (size_t i = (low / 32) * 32; i < low && !sticky; ++i) sticky = bit(i) != 0;
  // Keep 53 bits, round to nearest, ties to even.
  uint64_t mantissa = top >> 11;
  uint64_t rest = top & 0x7ff;
  constexpr uint64_t kHalf = 0x400;
  if (rest > kHalf || (rest == kHalf && (sticky || (mantissa & 1) != 0))) ++mantissa;
  double result = std::ldexp(static_cast<double>(mantissa), static_cast<int>(low + 11));
  if (std::isinf(result)) TVM_FFI_THROW(OverflowError) << "BigInt does not fit finite double";
  return negative ? -result : result;
}

}  // namespace int_ops
}  // namespace detail

// ---- Operators ----------------------------------------------------------

namespace detail {
// One operand of a binary operator: a BigInt or a plain int64_t.
class BigIntOperand {
 public:
  TVM_FFI_INLINE BigIntOperand(const BigInt& value)  // NOLINT(*)
      : big_(&value), small_(BigIntUnsafe::GetInt64(value)), is_small_(BigIntUnsafe::CheckInt64(value)) {}
  TVM_FFI_INLINE BigIntOperand(int64_t value)  // NOLINT(*)
      : big_(nullptr), small_(value), is_small_(true) {}

  TVM_FFI_INLINE bool is_small() const { return is_small_; }
  TVM_FFI_INLINE int64_t small() const { return small_; }
  TVM_FFI_INLINE BigInt::ArrayView view() const {
    return big_ != nullptr ? BigIntUnsafe::GetArrayView(*big_) : BigInt::ArrayView(&small_, 1);
  }
  TVM_FFI_INLINE BigInt value() const { return big_ != nullptr ? *big_ : BigInt(small_); }

 private:
  const BigInt* big_;
  int64_t small_;
  bool is_small_;
};

// Runs `fast(x, y, &result)` when both fit int64_t and it reports no
// overflow; otherwise the word-level `slow(view_a, view_b)`.
template <typename Fast, typename Slow>
TVM_FFI_INLINE BigInt BigIntArith(const BigIntOperand& a, const BigIntOperand& b, Fast fast,
                                  Slow slow) {
  if (TVM_FFI_PREDICT_TRUE(a.is_small() && b.is_small())) {
    int64_t result;
    if (TVM_FFI_PREDICT_TRUE(!fast(a.small(), b.small(), &result))) return BigInt(result);
  }
  return slow(a.view(), b.view());
}
TVM_FFI_INLINE int BigIntCompare(const BigIntOperand& a, const BigIntOperand& b) {
  if (TVM_FFI_PREDICT_TRUE(a.is_small() && b.is_small())) {
    return a.small() < b.small() ? -1 : (a.small() > b.small() ? 1 : 0);
  }
  return int_ops::CompareFallback(a.view(), b.view());
}
}  // namespace detail

// Each binary operation exists as (BigInt, BigInt), (BigInt, int64_t) and
// (int64_t, BigInt), so that a plain integer operand never allocates.
#define TVM_FFI_BIGINT_BINARY_(Ret, Name, ...)                                                     \
  TVM_FFI_INLINE Ret Name(const BigInt& lhs, const BigInt& rhs) {                                 \
    const detail::BigIntOperand a(lhs), b(rhs);                                                    \
    __VA_ARGS__                                                                                    \
  }                                                                                                \
  TVM_FFI_INLINE Ret Name(const BigInt& lhs, int64_t rhs) {                                       \
    const detail::BigIntOperand a(lhs), b(rhs);                                                    \
    __VA_ARGS__                                                                                    \
  }                                                                                                \
  TVM_FFI_INLINE Ret Name(int64_t lhs, const BigInt& rhs) {                                       \
    const detail::BigIntOperand a(lhs), b(rhs);                                                    \
    __VA_ARGS__                                                                                    \
  }
#define TVM_FFI_BIGINT_ARITH_(Name, Fast, Slow) \
  TVM_FFI_BIGINT_BINARY_(BigInt, Name,          \
                         return detail::BigIntArith(a, b, detail::int_ops::Fast, detail::int_ops::Slow);)

TVM_FFI_BIGINT_ARITH_(operator+, AddOverflow, AddFallback)
TVM_FFI_BIGINT_ARITH_(operator-, SubOverflow, SubFallback)
TVM_FFI_BIGINT_ARITH_(operator*, MulOverflow, MulFallback)
/*! \brief Quotient truncated toward zero; ZeroDivisionError for a zero divisor. */
TVM_FFI_BIGINT_ARITH_(operator/, TruncDivOverflow, TruncDivFallback)
/*! \brief Remainder with the dividend's sign; ZeroDivisionError for a zero divisor. */
TVM_FFI_BIGINT_ARITH_(operator%, TruncModOverflow, TruncModFallback)
/*! \brief Same as operator/. */
TVM_FFI_BIGINT_ARITH_(truncdiv, TruncDivOverflow, TruncDivFallback)
/*! \brief Same as operator%. */
TVM_FFI_BIGINT_ARITH_(truncmod, TruncModOverflow, TruncModFallback)
/*! \brief Quotient rounded toward negative infinity. */
TVM_FFI_BIGINT_ARITH_(floordiv, FloorDivOverflow, FloorDivFallback)
/*! \brief Remainder with the divisor's sign (a - b * floordiv(a, b)). */
TVM_FFI_BIGINT_ARITH_(floormod, FloorModOverflow, FloorModFallback)
/*! \brief Left shift; ValueError for a negative count. */
TVM_FFI_BIGINT_ARITH_(operator<<, LeftShiftOverflow, LeftShiftFallback)

// Bitwise operators and >> cannot leave int64_t when both operands are in it.
#define TVM_FFI_BIGINT_EXACT_(Name, Expr, Slow)                                    \
  TVM_FFI_BIGINT_BINARY_(BigInt, Name, {                                            \
    if (TVM_FFI_PREDICT_TRUE(a.is_small() && b.is_small())) {                       \
      const int64_t x = a.small(), y = b.small();                                   \
      return BigInt(Expr);                                                          \
    }                                                                               \
    return detail::int_ops::Slow(a.view(), b.view());                               \
  })
TVM_FFI_BIGINT_EXACT_(operator&, x & y, AndFallback)
TVM_FFI_BIGINT_EXACT_(operator|, x | y, OrFallback)
TVM_FFI_BIGINT_EXACT_(operator^, x ^ y, XorFallback)
/*! \brief Right shift rounding toward negative infinity; ValueError for a negative count. */
TVM_FFI_BIGINT_EXACT_(operator>>, detail::int_ops::RightShift(x, y), RightShiftFallback)

/*! \brief The smaller operand (a copy). */
TVM_FFI_BIGINT_BINARY_(BigInt, min, return detail::BigIntCompare(a, b) <= 0 ? a.value() : b.value();)
/*! \brief The larger operand (a copy). */
TVM_FFI_BIGINT_BINARY_(BigInt, max, return detail::BigIntCompare(a, b) >= 0 ? a.value() : b.value();)

TVM_FFI_BIGINT_BINARY_(bool, operator==, {
  if (TVM_FFI_PREDICT_TRUE(a.is_small() && b.is_small())) return a.small() == b.small();
  return detail::int_ops::EqualFallback(a.view(), b.view());
})
TVM_FFI_BIGINT_BINARY_(bool, operator!=, {
  if (TVM_FFI_PREDICT_TRUE(a.is_small() && b.is_small())) return a.small() != b.small();
  return !detail::int_ops::EqualFallback(a.view(), b.view());
})
TVM_FFI_BIGINT_BINARY_(bool, operator<, return detail::BigIntCompare(a, b) < 0;)
TVM_FFI_BIGINT_BINARY_(bool, operator<=, return detail::BigIntCompare(a, b) <= 0;)
TVM_FFI_BIGINT_BINARY_(bool, operator>, return detail::BigIntCompare(a, b) > 0;)
TVM_FFI_BIGINT_BINARY_(bool, operator>=, return detail::BigIntCompare(a, b) >= 0;)

#undef TVM_FFI_BIGINT_EXACT_
#undef TVM_FFI_BIGINT_ARITH_
#undef TVM_FFI_BIGINT_BINARY_

// The unary operators stay inline unless the result needs more than one word.
TVM_FFI_INLINE BigInt operator~(const BigInt& value) {
  using detail::BigIntUnsafe;
  if (TVM_FFI_PREDICT_FALSE(!BigIntUnsafe::CheckInt64(value))) {
    return detail::int_ops::ComplementFallback(BigIntUnsafe::GetArrayView(value));
  }
  return BigInt(~BigIntUnsafe::GetInt64(value));
}
TVM_FFI_INLINE BigInt operator-(const BigInt& value) {
  using detail::BigIntUnsafe;
  // -INT64_MIN is the one int64_t whose negation needs two words.
  const bool one_word = BigIntUnsafe::CheckInt64(value) &&
                        BigIntUnsafe::GetInt64(value) != std::numeric_limits<int64_t>::min();
  if (TVM_FFI_PREDICT_TRUE(one_word)) return BigInt(-BigIntUnsafe::GetInt64(value));
  return detail::int_ops::NegateFallback(BigIntUnsafe::GetArrayView(value));
}
TVM_FFI_INLINE BigInt operator+(const BigInt& value) { return value; }

namespace detail {
namespace int_ops {
inline std::pair<BigInt, BigInt> FloorDivRem(View a, View b) {
  std::pair<BigInt, BigInt> qr = DivRemFallback(a, b);
  // A nonzero remainder of the wrong sign moves the quotient down by one.
  if (qr.second != 0 && (qr.second < 0) != IsNegative(b)) {
    qr.first = qr.first - 1;
    qr.second = qr.second + FromView(b);
  }
  return qr;
}
}  // namespace int_ops
}  // namespace detail

// ---- Members defined out of line ----------------------------------------

/// \cond Doxygen_Suppress
template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int>>
TVM_FFI_INLINE BigInt::BigInt(Int value) {
  if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == 8) {
    if (TVM_FFI_PREDICT_FALSE(value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
      SetSmall(0);
      *this = detail::int_ops::BuildWords(2, [value](int64_t* out) {
        out[0] = static_cast<int64_t>(value);
        out[1] = 0;  // the sign word: the value is positive
      });
      return;
    }
  }
  SetSmall(static_cast<int64_t>(value));
}

TVM_FFI_INLINE BigInt::BigInt(double value) {
  SetSmall(0);
  if (std::isnan(value)) TVM_FFI_THROW(ValueError) << "Cannot convert NaN to BigInt";
  if (std::isinf(value)) TVM_FFI_THROW(OverflowError) << "Cannot convert infinity to BigInt";
  double whole = std::trunc(value);
  // [-2^63, 2^63): exactly the doubles that convert to int64_t.
  if (whole >= -9223372036854775808.0 && whole < 9223372036854775808.0) {
    SetSmall(static_cast<int64_t>(whole));
    return;
  }
  *this = detail::int_ops::WideFromDouble(whole);
}

TVM_FFI_INLINE BigInt::operator double() const {
  if (TVM_FFI_PREDICT_TRUE(!IsHeap())) return static_cast<double>(cell_.v_int64);
  return detail::int_ops::WideAsDouble(*this);
}

template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int>>
TVM_FFI_INLINE std::optional<Int> BigInt::as() const {
  if (IsHeap()) {
    // Only an unsigned 64-bit type holds values beyond int64_t: {low, 0}.
    if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == 8) {
      BigInt::ArrayView words = detail::BigIntUnsafe::GetArrayView(*this);
      if (words.size() == 2 && words[1] == 0) return static_cast<Int>(words[0]);
    }
    return std::nullopt;
  }
  int64_t v = cell_.v_int64;
  if constexpr (std::is_signed_v<Int>) {
    if (v < static_cast<int64_t>(std::numeric_limits<Int>::min()) ||
        v > static_cast<int64_t>(std::numeric_limits<Int>::max())) {
      return std::nullopt;
    }
  } else {
    if (v < 0 || static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<Int>::max())) {
      return std::nullopt;
    }
  }
  return static_cast<Int>(v);
}

TVM_FFI_INLINE uint64_t BigInt::hash() const {
  if (!IsHeap()) return static_cast<uint64_t>(cell_.v_int64);
  BigInt::ArrayView words = detail::BigIntUnsafe::GetArrayView(*this);
  return detail::StableHashBytes(&words[0], words.size() * sizeof(int64_t));
}

// x op= y is x = x op y: a BigInt is immutable, so each result is a new value.
#define TVM_FFI_BIGINT_ASSIGN_OP_(op)                                \
  TVM_FFI_INLINE BigInt& BigInt::operator op##=(const BigInt& rhs) { \
    BigInt result = *this op rhs;                                    \
    swap(result);                                                    \
    return *this;                                                    \
  }
TVM_FFI_BIGINT_ASSIGN_OP_(+)
TVM_FFI_BIGINT_ASSIGN_OP_(-)
TVM_FFI_BIGINT_ASSIGN_OP_(*)
TVM_FFI_BIGINT_ASSIGN_OP_(/)
TVM_FFI_BIGINT_ASSIGN_OP_(%)
TVM_FFI_BIGINT_ASSIGN_OP_(&)
TVM_FFI_BIGINT_ASSIGN_OP_(|)
TVM_FFI_BIGINT_ASSIGN_OP_(^)
TVM_FFI_BIGINT_ASSIGN_OP_(<<)
TVM_FFI_BIGINT_ASSIGN_OP_(>>)
#undef TVM_FFI_BIGINT_ASSIGN_OP_

// The postfix forms return the value from before the step.
TVM_FFI_INLINE BigInt BigInt::operator++(int) {
  BigInt stepped = *this + int64_t{1};
  swap(stepped);
  return stepped;
}
TVM_FFI_INLINE BigInt BigInt::operator--(int) {
  BigInt stepped = *this - int64_t{1};
  swap(stepped);
  return stepped;
}
TVM_FFI_INLINE BigInt& BigInt::operator++() { return *this += BigInt(int64_t{1}); }
TVM_FFI_INLINE BigInt& BigInt::operator--() { return *this -= BigInt(int64_t{1}); }
/// \endcond

namespace detail {
namespace int_ops {
inline BigInt WideFromDouble(double value) {
  // |value| = fraction * 2^exponent with fraction in [0.5, 1): an integer of
  // 53 bits shifted left by exponent - 53 (>= 11 here).
  int exponent = 0;
  double fraction = std::frexp(std::fabs(value), &exponent);
  uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
  BigInt magnitude = BigInt(mantissa) << static_cast<int64_t>(exponent - 53);
  return value < 0 ? -magnitude : magnitude;
}
inline BigInt MinFallback(View a, View b) { return FromView(CompareFallback(a, b) <= 0 ? a : b); }
inline BigInt MaxFallback(View a, View b) { return FromView(CompareFallback(a, b) >= 0 ? a : b); }
}  // namespace int_ops
}  // namespace detail

// ---- Streams ------------------------------------------------------------

/*! \brief Writes the decimal form ("-123"). */
inline std::ostream& operator<<(std::ostream& os, const BigInt& value) {
  return os << detail::int_ops::ToStringFallback(value);
}

/*!
 * \brief Reads an optional sign and decimal digits (after skipping white
 *        space, as the stream's flags say).  Without a digit the stream's
 *        failbit is set and `value` is left as it was.
 */
inline std::istream& operator>>(std::istream& is, BigInt& value) {
  std::istream::sentry ok(is);
  if (!ok) return is;
  bool negative = false;
  int first = is.peek();
  if (first == '+' || first == '-') {
    negative = first == '-';
    is.get();
  }
  detail::int_ops::Magnitude m;
  uint32_t chunk = 0, scale = 1;
  bool any_digit = false;
  for (int c = is.peek(); c >= '0' && c <= '9'; c = is.peek()) {
    is.get();
    any_digit = true;
    chunk = chunk * 10 + static_cast<uint32_t>(c - '0');
    scale *= 10;
    if (scale == 1000000000u) {
      detail::int_ops::MultiplyAddSmall(&m, scale, chunk);
      chunk = 0;
      scale = 1;
    }
  }
  if (!any_digit) {
    is.setstate(std::ios::failbit);
    return is;
  }
  if (scale != 1) detail::int_ops::MultiplyAddSmall(&m, scale, chunk);
  detail::int_ops::TrimMagnitude(&m);
  value = detail::int_ops::FromMagnitude(m, negative);
  return is;
}

// ---- In an Any ----------------------------------------------------------

/// \cond Doxygen_Suppress
template <>
inline constexpr bool use_default_type_traits_v<BigInt> = false;

/*! \brief BigInt <-> kTVMFFIInt or kTVMFFIBigInt; a bool converts too. */
template <>
struct TypeTraits<BigInt> : public TypeTraitsBase {
  // The cell is either an inline int or a BigInt object: exactly a BigInt.
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBigInt;
  }
  // As a field, either form may be stored: the field holds an Any.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  // The cell is the value: a view copies it, a move takes it (src becomes 0).
  TVM_FFI_INLINE static void CopyToAnyView(const BigInt& src, TVMFFIAny* result) {
    *result = src.cell_;
  }
  TVM_FFI_INLINE static void MoveToAny(BigInt src, TVMFFIAny* result) {
    std::swap(*result, src.cell_);
    src.SetSmall(0);
  }
  TVM_FFI_INLINE static BigInt CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    BigInt out;
    out.cell_ = *src;
    if (out.IsHeap()) detail::ObjectUnsafe::IncRefObjectHandle(out.cell_.v_obj);
    return out;
  }
  TVM_FFI_INLINE static BigInt MoveFromAnyAfterCheck(TVMFFIAny* src) {
    // The reference (if any) moves with the bytes; `src` is left None.
    BigInt out;
    std::swap(out.cell_, *src);
    detail::ResetAnyToNone(src);
    return out;
  }
  TVM_FFI_INLINE static std::optional<BigInt> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIBool) return BigInt(src->v_int64);
    return std::nullopt;
  }
  TVM_FFI_INLINE static std::string TypeStr() { return "BigInt"; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIBigInt);
  }
};
/// \endcond

}  // namespace ffi
}  // namespace tvm

/*! \brief std::hash<BigInt>: BigInt::hash(). */
template <>
struct std::hash<::tvm::ffi::BigInt> {
  size_t operator()(const ::tvm::ffi::BigInt& value) const {
    return static_cast<size_t>(value.hash());
  }
};

#endif  // TVM_FFI_BIG_INT_H_

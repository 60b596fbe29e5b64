// Library-internal: the ffi.BigInt object (78) and the two C entry points' logic.
#ifndef TVM_FFI_CORE_BIG_INT_INTERNAL_H_
#define TVM_FFI_CORE_BIG_INT_INTERNAL_H_

#include <cstddef>
#include <cstdint>

#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// layout = { TVMFFIObject, size_t num_words, int64_t words[num_words] }; the
// words start at header + 32.  Immutable once made.  Always minimal and
// never a value that fits in int64_t (then it is a kTVMFFIInt instead), so
// num_words >= 2.
class BigIntObj : public Object {
 public:
  size_t num_words;
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(BigIntObj, kTVMFFIBigInt, "ffi.BigInt")

  explicit BigIntObj(size_t n) : num_words(n) {}
  const int64_t* words() const { return reinterpret_cast<const int64_t*>(this + 1); }
  int64_t* words() { return reinterpret_cast<int64_t*>(this + 1); }
};

static_assert(sizeof(BigIntObj) == 32, "BigInt words start at header + 32");

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Writes the integer whose words (8 * k bytes at `data`, least significant
// first, native order, two's complement; possibly unaligned, possibly with
// redundant sign words) are given into *out: a kTVMFFIInt when it fits in
// int64_t, else a new BigInt.  Throws ValueError when num_bytes % 8 != 0.
void MakeBigIntAny(const void* data, size_t num_bytes, TVMFFIAny* out);

// The words of a kTVMFFIInt or kTVMFFIBigInt value; {NULL, 0} for anything else.
TVMFFIByteArray BigIntContent(const TVMFFIAny* value);

// The limit on decimal digits when an integer is converted from or to text
// (JSON graphs, repr), as CPython's sys.int_max_str_digits: schoolbook
// conversion is quadratic, so untrusted text must not choose its length.
// 0 means no limit; otherwise at least kBigIntMinMaxStrDigits.  Process-wide,
// set with the global ffi.BigIntSetMaxStrDigits.
constexpr int64_t kBigIntDefaultMaxStrDigits = 4300;
constexpr int64_t kBigIntMinMaxStrDigits = 640;
int64_t BigIntMaxStrDigits();
// Throws ValueError when `digits` decimal digits exceed the limit; `what`
// starts the message ("ffi.FromJSONGraph", ...).
void CheckBigIntStrDigits(size_t digits, const char* what);
// An upper bound on the decimal digits of `value` (a kTVMFFIInt or
// kTVMFFIBigInt), at most two more than the true count.
size_t BigIntDecimalDigitsBound(const TVMFFIAny* value);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_BIG_INT_INTERNAL_H_

// Library-internal: the two C entry points' logic for ffi.BigInt (78) and the
// limit on decimal digits.  The object is tvm::ffi's BigIntObj (<tvm/ffi/big_int.h>).
#ifndef TVM_FFI_CORE_BIG_INT_INTERNAL_H_
#define TVM_FFI_CORE_BIG_INT_INTERNAL_H_

#include <cstddef>
#include <cstdint>

#include <tvm/ffi/c_api.h>

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

// Strings and byte arrays, library-internal side: the one checked decoder of
// a TVMFFIByteArray handed in through the C ABI, and making string values.
//
// The implementations are in core/impl/string.h (the internal value layer);
// these are the names the C API files use.
#ifndef TVM_FFI_CORE_STRING_INTERNAL_H_
#define TVM_FFI_CORE_STRING_INTERNAL_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "impl/string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// The bytes of `b` as a view.  ValueError "<what> must not be NULL" for a
// NULL array and "<what> has data NULL but size <n>": NULL data is valid only
// for size 0.
inline std::string_view ByteArrayView(const TVMFFIByteArray* b, const char* what) {
  return ::tvm::ffi::detail::impl::ByteArrayView(b, what);
}

// The text of `b`, decoded by ByteArrayView.
inline std::string ByteArrayToString(const TVMFFIByteArray& b, const char* what) {
  return ::tvm::ffi::detail::impl::ByteArrayToString(b, what);
}

// Writes an owning string (or bytes) value: the small form up to 7 bytes,
// else a new heap object.  `out` is overwritten without being released.
inline void MakeStringAny(const char* data, size_t size, bool is_bytes, TVMFFIAny* out) {
  ::tvm::ffi::detail::impl::MakeStringAny(data, size, is_bytes, out);
}

// The bytes of any string-like value (RawStr, ByteArrayPtr, SmallStr,
// SmallBytes, Str, Bytes); false for other types.  A malformed view (NULL
// pointers, a small string claiming more than 7 bytes) is a ValueError.
inline bool GetStringView(const TVMFFIAny* value, const char** data, size_t* size,
                          bool* is_bytes) {
  return ::tvm::ffi::detail::impl::GetStringView(value, data, size, is_bytes);
}

// A new heap ffi.String object (kTVMFFIStr) holding the bytes; new reference.
inline TVMFFIObject* MakeStringObject(const char* data, size_t size) {
  return &::tvm::ffi::detail::impl::StringObj::Make(data, size).release()->header_;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRING_INTERNAL_H_

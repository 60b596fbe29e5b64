// Strings and byte arrays, library-internal side: the one checked decoder of
// a TVMFFIByteArray handed in through the C ABI, and making string values.
// Implemented in string.cc.
//
// The common paths (a short string, a well-formed view) are inline: they run
// on every string conversion.  Allocation and the refusals are out of line.
#ifndef TVM_FFI_CORE_STRING_INTERNAL_H_
#define TVM_FFI_CORE_STRING_INTERNAL_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// The longest string kept inline in a TVMFFIAny (one byte stays for the NUL).
constexpr size_t kSmallStrMaxLen = 7;

// A new heap ffi.String (kTVMFFIStr) or ffi.Bytes (kTVMFFIBytes) object
// holding a NUL-terminated copy of the bytes; new reference.
TVMFFIObject* MakeStringObject(const char* data, size_t size);
TVMFFIObject* MakeBytesObject(const char* data, size_t size);

// The shortest text that reads back as the same double, with ".0" added to
// integral values, as Python's repr writes floats ("1.0", "0.1", "1e+100",
// "inf", "nan").
std::string ShortestFloatText(double x);

// Throw the ValueErrors of ByteArrayView and GetStringView.
[[noreturn]] void ThrowNullByteArray(const char* what);
[[noreturn]] void ThrowByteArrayDataNull(const char* what, size_t size);
[[noreturn]] void ThrowMalformedStringView(const TVMFFIAny* value);

// The bytes of `b` as a view.  ValueError "<what> must not be NULL" for a
// NULL array and "<what> has data NULL but size <n>": NULL data is valid only
// for size 0.
inline std::string_view ByteArrayView(const TVMFFIByteArray* b, const char* what) {
  if (b == nullptr) ThrowNullByteArray(what);
  if (b->data == nullptr) {
    if (b->size != 0) ThrowByteArrayDataNull(what, b->size);
    return std::string_view();
  }
  return std::string_view(b->data, b->size);
}

// The text of `b`, decoded by ByteArrayView.
inline std::string ByteArrayToString(const TVMFFIByteArray& b, const char* what) {
  return std::string(ByteArrayView(&b, what));
}

// Writes an owning string (or bytes) value: the small form up to 7 bytes
// (the bytes after the string zero), else a new heap object.  `out` is
// overwritten without being released.
inline void MakeStringAny(const char* data, size_t size, bool is_bytes, TVMFFIAny* out) {
  if (size <= kSmallStrMaxLen) {
    uint64_t payload = 0;
    if (size != 0) std::memcpy(&payload, data, size);
    out->type_index = is_bytes ? kTVMFFISmallBytes : kTVMFFISmallStr;
    out->small_str_len = static_cast<uint32_t>(size);
    out->v_uint64 = payload;
    return;
  }
  TVMFFIObject* obj = is_bytes ? MakeBytesObject(data, size) : MakeStringObject(data, size);
  out->type_index = is_bytes ? kTVMFFIBytes : kTVMFFIStr;
  out->zero_padding = 0;
  out->v_uint64 = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(obj));
}

// The bytes of any string-like value (RawStr, ByteArrayPtr, SmallStr,
// SmallBytes, Str, Bytes); false for other types.  The view is valid while
// `value` is.  A malformed view that came through the C ABI (a NULL RawStr
// or ByteArrayPtr, a byte array with data NULL and a size, a small string
// claiming more than 7 bytes, a NULL object) is a ValueError.
inline bool GetStringView(const TVMFFIAny* value, const char** data, size_t* size,
                          bool* is_bytes) {
  switch (value->type_index) {
    case kTVMFFIRawStr:
      if (value->v_c_str == nullptr) ThrowMalformedStringView(value);
      *data = value->v_c_str;
      *size = std::strlen(value->v_c_str);
      *is_bytes = false;
      return true;
    case kTVMFFIByteArrayPtr: {
      if (value->v_ptr == nullptr) ThrowMalformedStringView(value);
      std::string_view view = ByteArrayView(static_cast<const TVMFFIByteArray*>(value->v_ptr),
                                            "the byte array of a kTVMFFIByteArrayPtr value");
      *data = view.data();
      *size = view.size();
      *is_bytes = true;
      return true;
    }
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      if (value->small_str_len > kSmallStrMaxLen) ThrowMalformedStringView(value);
      *data = value->v_bytes;
      *size = value->small_str_len;
      *is_bytes = value->type_index == kTVMFFISmallBytes;
      return true;
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      if (value->v_obj == nullptr) ThrowMalformedStringView(value);
      const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(value->v_obj);
      *data = b->data;
      *size = b->size;
      *is_bytes = value->type_index == kTVMFFIBytes;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRING_INTERNAL_H_

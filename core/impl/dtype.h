// Data types (DLDataType): parsing and printing of dtype names.
//
// Names such as "float32", "int8x4", "bfloat16", "float8_e4m3fn" or
// "custom[posit]16".
#ifndef TVM_FFI_CORE_IMPL_DTYPE_H_
#define TVM_FFI_CORE_IMPL_DTYPE_H_

#include <tvm/ffi/c_api.h>

#include <string>
#include <string_view>

#include "any.h"
#include "error.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// Header-only helpers over the exported functions (usable outside the library).

// Throws ValueError naming the text when it is not a dtype.
inline DLDataType DataTypeFromString(const std::string& text) {
  TVMFFIByteArray b = ToByteArray(text);
  DLDataType out;
  int rc = TVMFFIDataTypeFromString(&b, &out);
  if (rc != 0) ThrowRaised(rc);
  return out;
}

// Throws ValueError for an unknown type code.
inline std::string DataTypeToString(DLDataType dtype) {
  TVMFFIAny out;
  int rc = TVMFFIDataTypeToString(&dtype, &out);
  if (rc != 0) ThrowRaised(rc);
  Any owned = Any::Adopt(out);
  return owned.As<std::string>();
}

inline bool DataTypeEqual(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_DTYPE_H_

// Data types: the parser and formatter behind TVMFFIDataTypeFromString/ToString.
#ifndef TVM_FFI_CORE_DTYPE_INTERNAL_H_
#define TVM_FFI_CORE_DTYPE_INTERNAL_H_

#include <string>
#include <string_view>

#include <tvm/ffi/c_api.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Library-internal (defined in dtype.cc, not exported).
namespace dtype {

// Global functions consulted for custom[...] dtypes (codes >= kCustomBegin).
constexpr const char* kGetCustomTypeCode = "dtype.get_custom_type_code";  // (name) -> int
constexpr const char* kGetCustomTypeName = "dtype.get_custom_type_name";  // (code) -> str
constexpr int kCustomBegin = 129;

// Throws ValueError naming the text.
DLDataType Parse(std::string_view text);
// Throws ValueError for unknown codes (including kDLComplex).
std::string Format(DLDataType dtype);

}  // namespace dtype

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_DTYPE_INTERNAL_H_

// Sentinels: the library-internal makers of the MISSING and KWARGS objects.
#ifndef TVM_FFI_CORE_SENTINEL_INTERNAL_H_
#define TVM_FFI_CORE_SENTINEL_INTERNAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Library-internal (sentinel.cc): the objects themselves (two bare
// ffi.Object instances, made on first use and never freed), and MISSING as
// a value (a new reference).
TVMFFIObjectHandle MakeOrGetMissingObject();
TVMFFIObjectHandle MakeOrGetKwargsObject();
Any MissingValue();

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_SENTINEL_INTERNAL_H_

// Sentinels: the library-internal makers of the MISSING and KWARGS objects.
#ifndef TVM_FFI_CORE_SENTINEL_INTERNAL_H_
#define TVM_FFI_CORE_SENTINEL_INTERNAL_H_

#include "impl/sentinel.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// Library-internal (sentinel.cc): the objects themselves, made on first use,
// and MISSING as a value (a new reference).
TVMFFIObjectHandle MakeOrGetMissingObject();
TVMFFIObjectHandle MakeOrGetKwargsObject();
Any MissingValue();

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_SENTINEL_INTERNAL_H_

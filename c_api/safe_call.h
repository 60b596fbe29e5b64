// The safe-call bracket around every exported function body.
//
// No C++ exception crosses the C ABI: each becomes -1 with the error in the
// thread's slot (tvm::ffi::details::core::SetRaisedFromCurrentException).
#ifndef TVM_FFI_C_API_SAFE_CALL_H_
#define TVM_FFI_C_API_SAFE_CALL_H_

#include "../core/error_internal.h"

#define TVM_FFI_CORE_SAFE_CALL_BEGIN() try {
#define TVM_FFI_CORE_SAFE_CALL_END()                                \
  }                                                                 \
  catch (...) {                                                     \
    return ::tvm::ffi::details::core::SetRaisedFromCurrentException(); \
  }                                                                 \
  return 0

// Cheap argument checks that are always on.
#define TVM_FFI_CORE_CHECK_ARG_NOT_NULL(arg) \
  if ((arg) == nullptr) TVM_FFI_CORE_THROW(ValueError) << __func__ << ": " #arg " must not be NULL"

#endif  // TVM_FFI_C_API_SAFE_CALL_H_

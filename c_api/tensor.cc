// Exported tensor functions: DLPack import/export and unsafe views.
#include <tvm/ffi/c_api.h>

#include "safe_call.h"
#include "../core/tensor_internal.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(from);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::TensorFromDLPack(from, require_alignment, require_contiguous != 0);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(from);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::TensorFromDLPackVersioned(from, require_alignment, require_contiguous != 0);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::TensorToDLPack(from);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::TensorToDLPackVersioned(from);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::TensorCreateUnsafeView(source, prototype);
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // extern "C"

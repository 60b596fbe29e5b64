// Exported tensor functions: DLPack import/export and unsafe views.
#include <tvm/ffi/c_api.h>

#include <tvmffi/tensor.h>
#include "safe_call.h"
#include "../core/tensor_internal.h"

extern "C" {

TVM_FFI_DLL int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                       int32_t require_contiguous, TVMFFIObjectHandle* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(from);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::TensorFromDLPack(from, require_alignment, require_contiguous != 0)
             .release_handle();
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                                int32_t require_alignment,
                                                int32_t require_contiguous,
                                                TVMFFIObjectHandle* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(from);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::TensorFromDLPackVersioned(from, require_alignment, require_contiguous != 0)
             .release_handle();
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::TensorToDLPack(from);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from,
                                              DLManagedTensorVersioned** out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::TensorToDLPackVersioned(from);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                             TVMFFIObjectHandle* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::TensorCreateUnsafeView(source, prototype).release_handle();
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

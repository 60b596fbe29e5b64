// Exported: strings and bytes from byte arrays (small form up to 7 bytes).
#include <tvmffi/string.h>
#include "safe_call.h"

extern "C" {

TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(input);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  tvmffi::core::CheckByteArray(*input, "byte array");
  tvmffi::core::MakeStringAny(input->data, input->size, false, out);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(input);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  tvmffi::core::CheckByteArray(*input, "byte array");
  tvmffi::core::MakeStringAny(input->data, input->size, true, out);
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

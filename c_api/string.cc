// Exported: strings and bytes from byte arrays (small form up to 7 bytes).
#include "../core/string.h"
#include "safe_call.h"

namespace {

void CheckInput(const TVMFFIByteArray* input) {
  if (input->data == nullptr && input->size != 0) {
    TVMFFI_THROW(ValueError) << "byte array has data NULL but size " << input->size;
  }
}

}  // namespace

extern "C" {

TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(input);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  CheckInput(input);
  tvmffi::core::MakeStringAny(input->data, input->size, false, out);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(input);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  CheckInput(input);
  tvmffi::core::MakeStringAny(input->data, input->size, true, out);
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

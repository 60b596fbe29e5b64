// Exported: integers of any size (kTVMFFIInt or ffi.BigInt) to and from their words.
#include "../core/big_int_internal.h"
#include "safe_call.h"

extern "C" {

TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(input);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  if (input->data == nullptr && input->size != 0) {
    TVMFFI_THROW(ValueError) << "TVMFFIBigIntFromByteArray: input->data is NULL but size is "
                             << input->size;
  }
  tvmffi::core::MakeBigIntAny(input->data, input->size, out);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  return tvmffi::core::BigIntContent(value);
}

}  // extern "C"

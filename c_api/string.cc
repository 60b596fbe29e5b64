// Exported: strings and bytes from byte arrays (small form up to 7 bytes).
#include <tvmffi/string.h>
#include "safe_call.h"

extern "C" {

TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  std::string_view text = tvmffi::core::ByteArrayView(input, "TVMFFIStringFromByteArray: input");
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  tvmffi::core::MakeStringAny(text.data(), text.size(), false, out);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  std::string_view bytes = tvmffi::core::ByteArrayView(input, "TVMFFIBytesFromByteArray: input");
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  tvmffi::core::MakeStringAny(bytes.data(), bytes.size(), true, out);
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

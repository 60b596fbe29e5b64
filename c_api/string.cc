// Exported: strings and bytes from byte arrays (small form up to 7 bytes).
#include "../core/string_internal.h"
#include "safe_call.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  std::string_view text = core::ByteArrayView(input, "TVMFFIStringFromByteArray: input");
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  core::MakeStringAny(text.data(), text.size(), false, out);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  std::string_view bytes = core::ByteArrayView(input, "TVMFFIBytesFromByteArray: input");
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  core::MakeStringAny(bytes.data(), bytes.size(), true, out);
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // extern "C"

// Exported: integers of any size (kTVMFFIInt or ffi.BigInt) to and from their words.
#include <string_view>

#include "../core/big_int_internal.h"
#include "../core/string_internal.h"
#include "safe_call.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  std::string_view bytes = core::ByteArrayView(input, "TVMFFIBigIntFromByteArray: input");
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  core::MakeBigIntAny(bytes.data(), bytes.size(), out);
  TVM_FFI_CORE_SAFE_CALL_END();
}

// {NULL, 0} for NULL, a value that is no integer, or a BigInt without its object.
TVM_FFI_DLL TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  if (value != nullptr && value->type_index == kTVMFFIBigInt && value->v_obj == nullptr) {
    return TVMFFIByteArray{nullptr, 0};
  }
  return core::BigIntContent(value);
}

}  // extern "C"

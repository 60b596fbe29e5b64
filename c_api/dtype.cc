// Exported: dtype names to DLDataType and back.
#include <string>
#include <string_view>

#include "safe_call.h"
#include "../core/dtype_internal.h"
#include "../core/string_internal.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  std::string_view text = core::ByteArrayView(str, "TVMFFIDataTypeFromString: str");
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::dtype::Parse(text);
  TVM_FFI_CORE_SAFE_CALL_END();
}

// Always a heap String object (kTVMFFIStr), even for short names.
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(dtype);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  std::string text = core::dtype::Format(*dtype);
  TVMFFIObject* obj = core::MakeStringObject(text.data(), text.size());
  std::memset(out, 0, sizeof(TVMFFIAny));
  out->type_index = kTVMFFIStr;
  out->v_obj = obj;
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // extern "C"

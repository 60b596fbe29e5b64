// Exported: dtype names to DLDataType and back.
#include <string>
#include <string_view>

#include <tvmffi/dtype.h>
#include <tvmffi/string.h>
#include "safe_call.h"
#include "../core/dtype_internal.h"

extern "C" {

TVM_FFI_DLL int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  std::string_view text = tvmffi::core::ByteArrayView(str, "TVMFFIDataTypeFromString: str");
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::dtype::Parse(text);
  TVMFFI_SAFE_CALL_END();
}

// Always a heap String object (kTVMFFIStr), even for short names.
TVM_FFI_DLL int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(dtype);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  std::string text = tvmffi::core::dtype::Format(*dtype);
  tvmffi::core::Object* obj = tvmffi::core::StringObj::Make(text.data(), text.size()).release();
  std::memset(out, 0, sizeof(TVMFFIAny));
  out->type_index = kTVMFFIStr;
  out->v_obj = &obj->header_;
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

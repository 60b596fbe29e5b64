// Exported: converting a value view into an owning value.
#include <cstring>

#include <tvmffi/any.h>
#include "../core/type_registry.h"
#include "safe_call.h"

using tvmffi::core::Object;

extern "C" {

TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(any_view);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  switch (any_view->type_index) {
    case kTVMFFIRawStr:
    case kTVMFFIByteArrayPtr: {
      const char* data;
      size_t size;
      bool is_bytes;
      tvmffi::core::GetStringView(any_view, &data, &size, &is_bytes);
      tvmffi::core::MakeStringAny(data, size, is_bytes, out);
      break;
    }
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes: {
      const char* data;
      size_t size;
      bool is_bytes;
      tvmffi::core::GetStringView(any_view, &data, &size, &is_bytes);  // checks the length
      *out = *any_view;
      break;
    }
    case kTVMFFIObjectRValueRef: {
      TVMFFIObjectHandle* slot = static_cast<TVMFFIObjectHandle*>(any_view->v_ptr);
      if (slot == nullptr || *slot == nullptr) {
        TVMFFI_THROW(RuntimeError) << "ObjectRValueRef: the object was already moved out";
      }
      TVMFFIObjectHandle h = *slot;
      *slot = nullptr;
      std::memset(out, 0, sizeof(TVMFFIAny));
      out->type_index = TVMFFIObjectGetTypeIndex(h);
      out->v_obj = static_cast<TVMFFIObject*>(h);
      break;
    }
    default:
      tvmffi::core::type_registry::CheckUsableValue(*any_view,
                                                    "TVMFFIAnyViewToOwnedAny: any_view");
      *out = *any_view;
      if (out->type_index >= kTVMFFIStaticObjectBegin) Object::IncRef(out->v_obj);
      break;
  }
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

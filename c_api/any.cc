// Exported: converting a value view into an owning value.
#include <cstring>

#include "../core/object_internal.h"
#include "../core/string_internal.h"
#include "../core/type_registry.h"
#include "safe_call.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(any_view);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  switch (any_view->type_index) {
    case kTVMFFIRawStr:
    case kTVMFFIByteArrayPtr: {
      const char* data;
      size_t size;
      bool is_bytes;
      core::GetStringView(any_view, &data, &size, &is_bytes);
      core::MakeStringAny(data, size, is_bytes, out);
      break;
    }
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes: {
      const char* data;
      size_t size;
      bool is_bytes;
      core::GetStringView(any_view, &data, &size, &is_bytes);  // checks the length
      *out = *any_view;
      break;
    }
    case kTVMFFIObjectRValueRef: {
      TVMFFIObjectHandle* slot = static_cast<TVMFFIObjectHandle*>(any_view->v_ptr);
      if (slot == nullptr || *slot == nullptr) {
        TVM_FFI_CORE_THROW(RuntimeError) << "ObjectRValueRef: the object was already moved out";
      }
      TVMFFIObjectHandle h = *slot;
      *slot = nullptr;
      std::memset(out, 0, sizeof(TVMFFIAny));
      out->type_index = TVMFFIObjectGetTypeIndex(h);
      out->v_obj = static_cast<TVMFFIObject*>(h);
      break;
    }
    default:
      core::type_registry::CheckUsableValue(*any_view, "TVMFFIAnyViewToOwnedAny: any_view");
      *out = *any_view;
      if (out->type_index >= kTVMFFIStaticObjectBegin) core::ObjectIncRef(out->v_obj);
      break;
  }
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // extern "C"

// Exported: version, reference counting, opaque objects, custom allocator.
#include <tvmffi/object.h>
#include "safe_call.h"
#include "../core/custom_allocator.h"
#include "../core/opaque.h"

using tvmffi::core::Object;

extern "C" {

TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == nullptr) return;
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) {
  if (obj == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "TVMFFIObjectIncRef: obj must not be NULL");
    return -1;
  }
  Object::IncRef(static_cast<TVMFFIObject*>(obj));
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) {
  if (obj != nullptr) Object::DecRef(static_cast<TVMFFIObject*>(obj));
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::MakeOpaqueObject(handle, type_index, deleter).release_handle();
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) {
  return tvmffi::core::GetCustomAllocator();
}

TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  tvmffi::core::SetCustomAllocator(allocator);
  return 0;
}

}  // extern "C"

// Exported: version, reference counting, opaque objects, custom allocator.
#include "safe_call.h"
#include "../core/custom_allocator.h"
#include "../core/object_internal.h"
#include "../core/opaque.h"

namespace core = ::tvm::ffi::details::core;

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
  core::ObjectIncRef(static_cast<TVMFFIObject*>(obj));
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) {
  if (obj != nullptr) core::ObjectDecRef(static_cast<TVMFFIObject*>(obj));
  return 0;
}

TVM_FFI_DLL int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index,
                                         void (*deleter)(void* handle), TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::MakeOpaqueObject(handle, type_index, deleter);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) {
  return core::GetCustomAllocator();
}

TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  core::SetCustomAllocator(allocator);
  return 0;
}

}  // extern "C"

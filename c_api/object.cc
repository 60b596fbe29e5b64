// Exported: version, reference counting, opaque objects, custom allocator.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include <tvmffi/object.h>
#include "safe_call.h"

using tvmffi::core::MakeObject;
using tvmffi::core::Object;

namespace {

// ffi.OpaquePyObject: a foreign handle with the foreigner's release function.
class OpaqueObj : public Object {
 public:
  TVMFFIOpaqueObjectCell cell;
  OpaqueObj(void* handle, void (*deleter)(void*)) : deleter_(deleter) { cell.handle = handle; }
  ~OpaqueObj() {
    if (deleter_ != nullptr) deleter_(cell.handle);
  }
  TVMFFI_DECLARE_STATIC_TYPE(OpaqueObj, kTVMFFIOpaquePyObject, "ffi.OpaquePyObject")

 private:
  void (*deleter_)(void*);
};

// The default allocator of v0.1.13: 16 bytes of prefix, the alloc header in
// the 8 bytes right before the body.  Installed for ABI compatibility only;
// the runtime never calls it (see TVMFFIGetCustomAllocator).
void DefaultDeleteSpace(void* body) { std::free(static_cast<char*>(body) - 16); }

void* DefaultAllocate(size_t size, size_t alignment, int32_t, void*) {
  if (alignment < 16) alignment = 16;
  void* base = nullptr;
  if (posix_memalign(&base, alignment, size + 16) != 0) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory");
    return nullptr;
  }
  char* body = static_cast<char*>(base) + 16;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body - sizeof(TVMFFIObjectAllocHeader))
      ->delete_space = &DefaultDeleteSpace;
  return body;
}

TVMFFICustomAllocator g_default_allocator = {&DefaultAllocate, nullptr};
// Atomic: Get and Set may race between threads.
std::atomic<TVMFFICustomAllocator*> g_allocator{&g_default_allocator};

}  // namespace

extern "C" {

TVM_FFI_DLL void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == nullptr) return;
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

TVM_FFI_DLL int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) {
  Object::IncRef(static_cast<TVMFFIObject*>(obj));  // NULL is excluded by the contract
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
  if (type_index != kTVMFFIOpaquePyObject) {
    TVMFFI_THROW(RuntimeError) << "TVMFFIObjectCreateOpaque: type_index must be "
                               << kTVMFFIOpaquePyObject << " (ffi.OpaquePyObject), got "
                               << type_index;
  }
  *out = MakeObject<OpaqueObj>(handle, deleter).release_handle();
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) {
  return g_allocator.load(std::memory_order_acquire);
}

TVM_FFI_DLL int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  g_allocator.store(allocator == nullptr ? &g_default_allocator : allocator,
                    std::memory_order_release);
  return 0;
}

}  // extern "C"

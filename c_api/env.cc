// Exported environment functions (tvm/ffi/extra/c_env_api.h).
#include <tvm/ffi/extra/c_env_api.h>

#include "safe_call.h"
#include "../core/env_internal.h"
#include "../core/module_identity.h"

namespace core = ::tvm::ffi::details::core;
namespace env = core::env;

extern "C" {

TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVMFFIStreamHandle previous = env::SetStream(device_type, device_id, stream);
  if (opt_out_original_stream != nullptr) *opt_out_original_stream = previous;
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  return env::GetStream(device_type, device_id);
}

TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  DLPackManagedTensorAllocator previous =
      env::SetAllocator(allocator, write_to_global_context != 0);
  if (opt_out_original_allocator != nullptr) *opt_out_original_allocator = previous;
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  return env::GetAllocator();
}

TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(prototype);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  int rc = env::TensorAlloc(prototype, out);
  if (rc != 0) return rc;  // the allocator's own code; its error is in the slot
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIEnvCheckSignals(void) { return env::CheckSignals(); }

TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(name);
  env::RegisterCAPI(name, symbol);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx,
                                              const char* func_name, TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(library_ctx);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(func_name);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  const TVMFFIObject* ctx = static_cast<const TVMFFIObject*>(library_ctx);
  if (ctx->type_index == kTVMFFIModule && !core::IsCoreLibraryModule(ctx)) {
    // A tvm::ffi::ModuleObj subclass another library made.
    return core::LookupFromModuleObjImports(library_ctx, func_name, out);
  }
  *out = env::LookupFromImports(library_ctx, func_name);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(name);
  env::RegisterContextSymbol(name, symbol);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(name);
  env::RegisterSystemLibSymbol(name, symbol);
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // extern "C"

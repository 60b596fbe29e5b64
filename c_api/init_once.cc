// Exported: one-time initialisation of a handle, thread-safe.
#include "safe_call.h"
#include "../core/init_once.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  return core::HandleInitOnce(handle_addr, init_func);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  return core::HandleDeinitOnce(handle_addr, deinit_func);
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // extern "C"

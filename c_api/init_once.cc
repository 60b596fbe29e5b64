// Exported: one-time initialisation of a handle, thread-safe.
#include "safe_call.h"
#include "../core/init_once.h"

extern "C" {

TVM_FFI_DLL int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  TVMFFI_SAFE_CALL_BEGIN();
  return tvmffi::core::HandleInitOnce(handle_addr, init_func);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  TVMFFI_SAFE_CALL_BEGIN();
  return tvmffi::core::HandleDeinitOnce(handle_addr, deinit_func);
  TVMFFI_SAFE_CALL_END();
}

}  // extern "C"

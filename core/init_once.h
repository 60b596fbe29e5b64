// One-time initialisation of a handle (TVMFFIHandleInitOnce /
// TVMFFIHandleDeinitOnce).  Library-internal.
#ifndef TVMFFI_CORE_INIT_ONCE_H_
#define TVMFFI_CORE_INIT_ONCE_H_

namespace tvmffi {
namespace core {

// init_func and deinit_func are C functions: a non-zero return (error in the
// slot) is passed on as it is.  Throws Error for NULL arguments and for an
// init_func that succeeds with NULL.
int HandleInitOnce(void** handle_addr, int (*init_func)(void** result));
int HandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_INIT_ONCE_H_

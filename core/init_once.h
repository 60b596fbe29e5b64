// One-time initialisation of a handle (TVMFFIHandleInitOnce /
// TVMFFIHandleDeinitOnce).  Library-internal.
#ifndef TVM_FFI_CORE_INIT_ONCE_H_
#define TVM_FFI_CORE_INIT_ONCE_H_

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// init_func and deinit_func are C functions: a non-zero return (error in the
// slot) is passed on as it is.  Throws Error for NULL arguments and for an
// init_func that succeeds with NULL.
int HandleInitOnce(void** handle_addr, int (*init_func)(void** result));
int HandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle));

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_INIT_ONCE_H_

// The library's own ffi.* global functions, registered while it loads.
//
//   TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ArraySize", [](const ArrayObj* a) { ... });
//   TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.Array", [](PackedArgs args, Any* rv) { ... });
//
// The callable goes to tvm::ffi::reflection::GlobalDef, so the signature
// recorded in the function's metadata is the one a kernel author's global
// gets.  Unlike a TVM_FFI_STATIC_INIT_BLOCK in user code, a registration that
// fails here (two copies of the library in one process) is reported on
// stderr and left in the error slot; it never ends the process.
#ifndef TVM_FFI_CORE_GLOBAL_DEF_H_
#define TVM_FFI_CORE_GLOBAL_DEF_H_

#include <tvm/ffi/reflection/registry.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Runs `body`; returns false, after reporting, if it threw.
bool RegisterAtLoad(void (*body)()) noexcept;

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#define TVM_FFI_CORE_GLOBAL_CAT_(a, b) a##b
#define TVM_FFI_CORE_GLOBAL_CAT(a, b) TVM_FFI_CORE_GLOBAL_CAT_(a, b)

#define TVM_FFI_CORE_REGISTER_GLOBAL(name, ...)                                       \
  static const bool TVM_FFI_CORE_GLOBAL_CAT(tvm_ffi_core_global_, __COUNTER__) =      \
      ::tvm::ffi::detail::core::RegisterAtLoad(                                       \
          [] { ::tvm::ffi::reflection::GlobalDef().def(name, __VA_ARGS__); })

#define TVM_FFI_CORE_REGISTER_GLOBAL_PACKED(name, ...)                                \
  static const bool TVM_FFI_CORE_GLOBAL_CAT(tvm_ffi_core_global_, __COUNTER__) =      \
      ::tvm::ffi::detail::core::RegisterAtLoad(                                       \
          [] { ::tvm::ffi::reflection::GlobalDef().def_packed(name, __VA_ARGS__); })

#endif  // TVM_FFI_CORE_GLOBAL_DEF_H_

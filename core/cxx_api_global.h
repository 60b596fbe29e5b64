// TVM_FFI_CXX_API_GLOBAL(name): the global function `name` as a
// tvm::ffi::Function, looked up on first use and kept for the life of the
// process (never released: a static destructor must not drop it after the
// registry is gone).  For the files that implement the exported C++ API
// (cxx_api_exports.cc, cxx_api_module.cc) on top of the ffi.* globals.
// Library-internal.
#ifndef TVM_FFI_CORE_CXX_API_GLOBAL_H_
#define TVM_FFI_CORE_CXX_API_GLOBAL_H_

#include <tvm/ffi/function.h>

// A lambda per use site, so each name gets its own function-local static.
#define TVM_FFI_CXX_API_GLOBAL(name)                                                \
  ([]() -> const ::tvm::ffi::Function& {                                            \
    static const ::tvm::ffi::Function* fn =                                         \
        new ::tvm::ffi::Function(::tvm::ffi::Function::GetGlobalRequired(name));   \
    return *fn;                                                                     \
  }())

#endif  // TVM_FFI_CORE_CXX_API_GLOBAL_H_

// Which ffi.Module objects are the core's own library modules (LibraryModuleObj,
// core/module.h), as opposed to module objects another library made (a
// subclass of tvm::ffi::ModuleObj, with a layout of its own).  Library-internal;
// only C types, so that files written against the tvm/ffi C++ API can use it.
#ifndef TVM_FFI_CORE_MODULE_IDENTITY_H_
#define TVM_FFI_CORE_MODULE_IDENTITY_H_

#include <tvm/ffi/c_api.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// True when obj is an ffi.Module this library's loader made.
bool IsCoreLibraryModule(const TVMFFIObject* obj);

// TVMFFIEnvModLookupFromImports for a library_ctx that is an ffi.Module but
// not one of the core's (a tvm::ffi::ModuleObj subclass): the safe-call
// convention, *out a borrowed handle (core/cxx_api_module.cc).
int LookupFromModuleObjImports(TVMFFIObjectHandle library_ctx, const char* name,
                               TVMFFIObjectHandle* out) noexcept;

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_MODULE_IDENTITY_H_

// Opaque objects (ffi.OpaquePyObject): a foreign handle and its release
// function.  Library-internal.
#ifndef TVM_FFI_CORE_OPAQUE_H_
#define TVM_FFI_CORE_OPAQUE_H_

#include <tvm/ffi/c_api.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// TVMFFIObjectCreateOpaque: a new reference to an object whose death runs
// `deleter(handle)`.  RuntimeError unless type_index is kTVMFFIOpaquePyObject.
TVMFFIObjectHandle MakeOpaqueObject(void* handle, int32_t type_index, void (*deleter)(void*));

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_OPAQUE_H_

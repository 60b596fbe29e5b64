// Opaque objects (ffi.OpaquePyObject): a foreign handle and its release
// function.  Library-internal.
#ifndef TVMFFI_CORE_OPAQUE_H_
#define TVMFFI_CORE_OPAQUE_H_

#include <tvmffi/object.h>

namespace tvmffi {
namespace core {

// TVMFFIObjectCreateOpaque: `deleter(handle)` runs when the object dies.
// RuntimeError unless type_index is kTVMFFIOpaquePyObject.
ObjectPtr<Object> MakeOpaqueObject(void* handle, int32_t type_index, void (*deleter)(void*));

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_OPAQUE_H_

// Objects, library-internal side: the reference counting behind
// TVMFFIObjectIncRef/DecRef (a death nested too deep on one thread is
// deferred, so freeing a long chain cannot overflow the stack) and the names
// of type indices in messages.
//
// The implementations are in core/impl/object.h and any.h (the internal
// value layer); these are the names the C API files use.
#ifndef TVM_FFI_CORE_OBJECT_INTERNAL_H_
#define TVM_FFI_CORE_OBJECT_INTERNAL_H_

#include <tvm/ffi/c_api.h>

#include <string>

#include "impl/any.h"
#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// One more strong reference (the caller holds one).
inline void ObjectIncRef(TVMFFIObject* obj) { ::tvm::ffi::detail::impl::Object::IncRef(obj); }
// One strong reference less; the last one destroys the object.
inline void ObjectDecRef(TVMFFIObject* obj) { ::tvm::ffi::detail::impl::Object::DecRef(obj); }

// The name of a type index as error messages show it ("int", "str",
// "ffi.Array", ...).
inline std::string TypeIndexToDisplayName(int32_t type_index) {
  return ::tvm::ffi::detail::impl::TypeIndexToDisplayName(type_index);
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_OBJECT_INTERNAL_H_

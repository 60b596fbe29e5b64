// Opaque objects: ffi.OpaquePyObject.
#include "opaque.h"

#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include "error_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// layout = { TVMFFIObject, TVMFFIOpaqueObjectCell }, then the deleter.
class OpaqueObj : public Object {
 public:
  TVMFFIOpaqueObjectCell cell;
  OpaqueObj(void* handle, void (*deleter)(void*)) : deleter_(deleter) { cell.handle = handle; }
  ~OpaqueObj() {
    if (deleter_ != nullptr) deleter_(cell.handle);
  }
  static constexpr const int32_t _type_index = kTVMFFIOpaquePyObject;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.OpaquePyObject", OpaqueObj, Object);

 private:
  void (*deleter_)(void*);
};

}  // namespace

TVMFFIObjectHandle MakeOpaqueObject(void* handle, int32_t type_index, void (*deleter)(void*)) {
  if (type_index != OpaqueObj::_type_index) {
    TVM_FFI_CORE_THROW(RuntimeError)
        << "TVMFFIObjectCreateOpaque: type_index must be " << OpaqueObj::_type_index << " ("
        << OpaqueObj::_type_key << "), got " << type_index;
  }
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<OpaqueObj>(handle, deleter));
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

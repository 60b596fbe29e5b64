// Opaque objects: ffi.OpaquePyObject.
#include "opaque.h"

#include <tvmffi/error.h>

namespace tvmffi {
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
  TVMFFI_DECLARE_STATIC_TYPE(OpaqueObj, kTVMFFIOpaquePyObject, "ffi.OpaquePyObject")

 private:
  void (*deleter_)(void*);
};

}  // namespace

ObjectPtr<Object> MakeOpaqueObject(void* handle, int32_t type_index, void (*deleter)(void*)) {
  if (type_index != OpaqueObj::kStaticTypeIndex) {
    TVMFFI_THROW(RuntimeError) << "TVMFFIObjectCreateOpaque: type_index must be "
                               << OpaqueObj::kStaticTypeIndex << " (" << OpaqueObj::kTypeKey
                               << "), got " << type_index;
  }
  return ObjectPtr<Object>(MakeObject<OpaqueObj>(handle, deleter));
}

}  // namespace core
}  // namespace tvmffi

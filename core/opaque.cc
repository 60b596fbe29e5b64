// Opaque objects: ffi.OpaquePyObject.
#include "opaque.h"

#include "error_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// Transitional (issue 19): the object is still made with the older C++
// layer's object model.
namespace legacy = ::tvmffi::core;

// layout = { TVMFFIObject, TVMFFIOpaqueObjectCell }, then the deleter.
class OpaqueObj : public legacy::Object {
 public:
  TVMFFIOpaqueObjectCell cell;
  OpaqueObj(void* handle, void (*deleter)(void*)) : deleter_(deleter) { cell.handle = handle; }
  ~OpaqueObj() {
    if (deleter_ != nullptr) deleter_(cell.handle);
  }
  static constexpr int32_t kStaticTypeIndex = kTVMFFIOpaquePyObject;
  static constexpr const char* kTypeKey = "ffi.OpaquePyObject";
  static int32_t RuntimeTypeIndex() { return kStaticTypeIndex; }

 private:
  void (*deleter_)(void*);
};

}  // namespace

TVMFFIObjectHandle MakeOpaqueObject(void* handle, int32_t type_index, void (*deleter)(void*)) {
  if (type_index != OpaqueObj::kStaticTypeIndex) {
    TVM_FFI_CORE_THROW(RuntimeError)
        << "TVMFFIObjectCreateOpaque: type_index must be " << OpaqueObj::kStaticTypeIndex << " ("
        << OpaqueObj::kTypeKey << "), got " << type_index;
  }
  return legacy::MakeObject<OpaqueObj>(handle, deleter).release_handle();
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// The MISSING and KWARGS sentinel objects and their global functions.
#include "sentinel_internal.h"

#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include "global_def.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

namespace {
// Made once and never released: code may compare against them at any time,
// including during exit.
TVMFFIObjectHandle MakeImmortal() {
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<Object>());
}

// A new reference to a sentinel.
ObjectRef Borrow(TVMFFIObjectHandle h) {
  return ObjectRef(ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<TVMFFIObject*>(h)));
}
}  // namespace

TVMFFIObjectHandle MakeOrGetMissingObject() {
  static TVMFFIObjectHandle h = MakeImmortal();
  return h;
}
TVMFFIObjectHandle MakeOrGetKwargsObject() {
  static TVMFFIObjectHandle h = MakeImmortal();
  return h;
}

Any MissingValue() { return Any(Borrow(MakeOrGetMissingObject())); }

// Both return an ffi.Object, as upstream's signatures say.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.GetInvalidObject",
                             []() { return Borrow(MakeOrGetMissingObject()); });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.GetKwargsObject",
                             []() { return Borrow(MakeOrGetKwargsObject()); });

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// The MISSING and KWARGS sentinel objects and their global functions.
#include "impl/sentinel.h"

#include "impl/function.h"
#include "sentinel_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace {
// Made once and never released: code may compare against them at any time,
// including during exit.
TVMFFIObjectHandle MakeImmortal() { return MakeObject<PlainObject>().release_handle(); }

Any BorrowAsAny(TVMFFIObjectHandle h) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(h);
  Object::IncRef(obj);
  TVMFFIAny raw;
  AnyZero(&raw);
  raw.type_index = obj->type_index;
  raw.v_obj = obj;
  return Any::Adopt(raw);
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

Any MissingValue() { return BorrowAsAny(MakeOrGetMissingObject()); }

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.GetInvalidObject", []() { return MissingValue(); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.GetKwargsObject",
                       []() { return BorrowAsAny(MakeOrGetKwargsObject()); });

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// The MISSING and KWARGS sentinel objects and their global functions.
#include <tvmffi/sentinel.h>

#include <tvmffi/function.h>
#include "sentinel_internal.h"

namespace tvmffi {
namespace core {

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

TVMFFI_REGISTER_GLOBAL("ffi.GetInvalidObject", []() { return MissingValue(); });
TVMFFI_REGISTER_GLOBAL("ffi.GetKwargsObject",
                       []() { return BorrowAsAny(MakeOrGetKwargsObject()); });

}  // namespace core
}  // namespace tvmffi

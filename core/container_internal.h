// Library-internal helpers shared by the container global functions
// (array.cc, list.cc, map.cc, dict.cc, shape.cc).
#ifndef TVMFFI_CORE_CONTAINER_INTERNAL_H_
#define TVMFFI_CORE_CONTAINER_INTERNAL_H_

#include <string>

#include "any.h"
#include "array.h"
#include "function.h"
#include "object.h"
#include "sentinel.h"

namespace tvmffi {
namespace core {

// Argument `index` (0-based) of `func` as an object of exactly type T (no
// conversion: mutating a converted copy would be lost).  TypeError in the
// format of typed functions otherwise.
template <typename T>
T* ExactObjectArg(const AnyView& arg, const char* func, int index) {
  if (arg.type_index() != T::kStaticTypeIndex) {
    detail::ThrowArgumentMismatch(func, index, T::kTypeKey, arg.raw());
  }
  return static_cast<T*>(Object::FromHandle(arg.raw()->v_obj));
}

// An owning value holding `obj`.
template <typename T>
Any ObjectPtrToAny(ObjectPtr<T> obj) {
  TVMFFIAny raw;
  AnyZero(&raw);
  Object* base = obj.release();
  raw.type_index = base->type_index();
  raw.v_obj = &base->header_;
  return Any::Adopt(raw);
}

// A copy (new reference) of a stored value.
inline Any CopyStored(const TVMFFIAny& v) { return Any::Adopt(detail::CopyOwned(v)); }

// The MISSING sentinel as a value (a new reference).
inline Any MissingValue() {
  TVMFFIAny raw;
  AnyZero(&raw);
  raw.type_index = kTVMFFIObject;
  raw.v_obj = static_cast<TVMFFIObject*>(MakeOrGetMissingObject());
  return CopyStored(raw);
}

// Throws ValueError unless `n` packed arguments form key/value pairs.
inline void CheckKeyValueArgs(const char* func, int32_t n) {
  if (n % 2 != 0) {
    TVMFFI_THROW(ValueError) << func
                             << " expects an even number of arguments (key0, value0, key1, "
                                "value1, ...), got "
                             << n;
  }
}

// The iterator functor of a Map or Dict (map.cc): f(0) -> current key,
// f(1) -> current value, f(2) -> advance, returning whether an element is
// left.  Keeps the map alive.  `what` names the container in errors.
Function MakeMapIterFunctor(ObjectPtr<Object> map, const char* what);

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_CONTAINER_INTERNAL_H_

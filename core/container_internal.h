// Library-internal helpers of the containers: the stored-value primitives
// (map_table.cc, seq_storage.cc) and the argument checks and shared
// registrations of their global functions (array.cc ... dict.cc).
#ifndef TVM_FFI_CORE_CONTAINER_INTERNAL_H_
#define TVM_FFI_CORE_CONTAINER_INTERNAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>

#include <cstring>

#include "error_internal.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// ---- Stored values (owning TVMFFIAny in a container's storage) -------------

inline void ReleaseValue(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) ObjectDecRef(v->v_obj);
}
// A copy with its own reference.
inline TVMFFIAny CopyValue(const TVMFFIAny& v) {
  if (v.type_index >= kTVMFFIStaticObjectBegin) ObjectIncRef(v.v_obj);
  return v;
}
// An owning copy of a view, as Any(AnyView) makes it: borrowed strings
// become string values and rvalue references give up their object
// (TVMFFIAnyViewToOwnedAny); everything else is copied inline.
inline TVMFFIAny ViewToOwned(const TVMFFIAny& view) {
  int32_t index = view.type_index;
  if (index != kTVMFFIRawStr && index != kTVMFFIByteArrayPtr && index != kTVMFFIObjectRValueRef) {
    return CopyValue(view);
  }
  TVMFFIAny out;
  if (TVMFFIAnyViewToOwnedAny(&view, &out) != 0) throw MoveFromSafeCallRaised();
  return out;
}
// The stored value as the public Any it is laid out as (no reference taken).
inline const Any& AsAny(const TVMFFIAny& v) {
  static_assert(sizeof(Any) == sizeof(TVMFFIAny), "Any is a TVMFFIAny");
  return *static_cast<const Any*>(static_cast<const void*>(&v));
}
// An owning value holding `obj` (a new reference, taken over).
inline Any AdoptObject(TVMFFIObject* obj) {
  TVMFFIAny raw;
  std::memset(&raw, 0, sizeof(raw));
  raw.type_index = obj->type_index;
  raw.v_obj = obj;
  return AnyUnsafe::MoveTVMFFIAnyToAny(&raw);
}
// Gives up an owning value's reference, as the raw value.
inline TVMFFIAny ReleaseAny(Any value) { return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)); }

// ---- Arguments of the global functions -------------------------------------

// The TVMFFIAny a view is laid out as.
inline const TVMFFIAny* ViewRaw(const AnyView& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }

// Argument `index` (0-based) of `func` as the object it holds, which must be
// of exactly type `type_index` (no conversion: mutating a converted copy
// would be lost).  TypeError "In function <func>: argument <index + 1>:
// expected <type_key>, got <type>" otherwise.
inline TVMFFIObject* ExactObjectArg(const AnyView& arg, int32_t type_index, const char* type_key,
                                    const char* func, int index) {
  if (arg.type_index() != type_index) {
    TVM_FFI_CORE_THROW(TypeError) << "In function " << func << ": argument " << index + 1
                                  << ": expected " << type_key << ", got "
                                  << TypeIndexToDisplayName(arg.type_index());
  }
  return ViewRaw(arg)->v_obj;
}

// Argument `index` of `func` as an int (a bool counts); TypeError as above.
inline int64_t IntArg(const AnyView& arg, const char* func, int index) {
  const TVMFFIAny* raw = ViewRaw(arg);
  if (raw->type_index != kTVMFFIInt && raw->type_index != kTVMFFIBool) {
    TVM_FFI_CORE_THROW(TypeError) << "In function " << func << ": argument " << index + 1
                                  << ": expected int, got "
                                  << TypeIndexToDisplayName(raw->type_index);
  }
  return raw->v_int64;
}

// Registers the globals Map and Dict share, for type_index = kTVMFFIMap or
// kTVMFFIDict (`kind` "Map" or "Dict", as errors name it): the constructor
// ffi.<kind>(k0, v0, k1, v1, ...), where a repeated key keeps its last
// value, and ffi.<kind>Size, <kind>Count, <kind>GetItem,
// <kind>GetItemOrMissing and <kind>ForwardIterFunctor (map.cc).
void RegisterMapCommonGlobals(int32_t type_index, const char* type_key, const char* kind);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_CONTAINER_INTERNAL_H_

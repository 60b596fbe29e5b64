// Library-internal helpers of the container global functions (array.cc ... shape.cc).
#ifndef TVM_FFI_CORE_CONTAINER_INTERNAL_H_
#define TVM_FFI_CORE_CONTAINER_INTERNAL_H_

#include <string>

#include "impl/any.h"
#include "impl/array.h"
#include "impl/map.h"
#include "impl/function.h"
#include "impl/object.h"
#include "impl/sentinel.h"
#include "sentinel_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

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

// Throws ValueError unless `n` packed arguments form key/value pairs.
inline void CheckKeyValueArgs(const char* func, int32_t n) {
  if (n % 2 != 0) {
    TVM_FFI_IMPL_THROW(ValueError) << func
                             << " expects an even number of arguments (key0, value0, key1, "
                                "value1, ...), got "
                             << n;
  }
}

// The iterator functor of a Map or Dict (map.cc): f(0) -> current key,
// f(1) -> current value, f(2) -> advance, returning whether an element is
// left.  Keeps the map alive.  `what` names the container in errors.  It
// follows its current key across mutation of a Dict (growth moves pairs);
// erasing that key makes the next command a RuntimeError.
Function MakeMapIterFunctor(ObjectPtr<Object> map, const char* what);

// A new ObjType (MapObj or DictObj) of the pairs (args[0], args[1]), ...
// (n values, n even); a repeated key keeps its last value.
//
// The table is the one apache-tvm-ffi's ffi.Map builds, pair by pair from an
// empty map (room for 2 pairs in the small form, then 4, then a dense
// table), so both libraries make the same table from the same arguments.
// With 3 or more pairs the small form is made with room for 4 at once: that
// is what growth reaches at the third distinct key, and it saves the
// allocation and copy of growing from 2.  If repeats leave at most 2
// distinct keys, growth would have stopped at 2: the pairs are copied into a
// map of that size, so the table still matches.
template <typename ObjType>
ObjectPtr<ObjType> MakeMapFromPairs(const AnyView* args, int32_t n) {
  // MakeEmpty (room for a given number of pairs) is for map classes only.
  struct Presized : ObjType {
    static ObjectPtr<ObjType> Make(uint64_t pairs) {
      return MapBaseObj::template MakeEmpty<ObjType>(pairs);
    }
  };
  constexpr int32_t kPresizeFromPairs = 3;
  const bool presized = n / 2 >= kPresizeFromPairs;
  ObjectPtr<ObjType> map =
      presized ? Presized::Make(detail::kMapSmallMaxSlots) : ObjType::Make();
  for (int32_t i = 0; i < n; i += 2) {
    map->Set(Any(args[i]).Release(), Any(args[i + 1]).Release());
  }
  if (presized && map->IsSmall() && map->size() <= static_cast<int64_t>(detail::kMapSmallInitSlots)) {
    map = ObjType::CopyOf(*map);
  }
  return map;
}

// Registers the globals Map and Dict share, for ObjType = MapObj or DictObj
// (map.h, dict.h): the constructor ffi.<Kind>(k0, v0, k1, v1, ...), where a
// repeated key keeps its last value, and ffi.<Kind>Size, <Kind>Count,
// <Kind>GetItem, <Kind>GetItemOrMissing and <Kind>ForwardIterFunctor.
// Returns true, so a static bool can run it at start-up.
template <typename ObjType>
bool RegisterMapCommonGlobals() {
  const char* kind = ObjType::kDisplayName;
  auto name_of = [kind](const char* suffix) { return std::string("ffi.") + kind + suffix; };
  auto define = [](const std::string& name, auto body) {
    Function::SetGlobalTyped(name, body);
  };
  std::string make = name_of("");
  Function::SetGlobal(make, Function::FromPacked([make](const AnyView* args, int32_t n, Any* rv) {
    CheckKeyValueArgs(make.c_str(), n);
    *rv = ObjectPtrToAny(MakeMapFromPairs<ObjType>(args, n));
  }));
  std::string size = name_of("Size");
  define(size, [size](AnyView m) { return ExactObjectArg<ObjType>(m, size.c_str(), 0)->size(); });
  std::string count = name_of("Count");
  define(count, [count](AnyView m, AnyView key) {
    return static_cast<int64_t>(
        ExactObjectArg<ObjType>(m, count.c_str(), 0)->FindValue(*key.raw()) != nullptr);
  });
  std::string get = name_of("GetItem");
  define(get, [get, kind](AnyView m, AnyView key) {
    const TVMFFIAny* v = ExactObjectArg<ObjType>(m, get.c_str(), 0)->FindValue(*key.raw());
    if (v == nullptr) ThrowKeyNotFound(*key.raw(), kind);
    return CopyStored(*v);
  });
  std::string get_or_missing = name_of("GetItemOrMissing");
  define(get_or_missing, [get_or_missing](AnyView m, AnyView key) {
    const TVMFFIAny* v =
        ExactObjectArg<ObjType>(m, get_or_missing.c_str(), 0)->FindValue(*key.raw());
    if (v == nullptr) {
      // sentinel.cc is on tvm::ffi: its Any has the same 16-byte layout.
      return Any::Adopt(
          ::tvm::ffi::details::AnyUnsafe::MoveAnyToTVMFFIAny(::tvm::ffi::detail::core::MissingValue()));
    }
    return CopyStored(*v);
  });
  std::string iter = name_of("ForwardIterFunctor");
  define(iter, [iter, kind](AnyView m) {
    ExactObjectArg<ObjType>(m, iter.c_str(), 0);
    return MakeMapIterFunctor(ObjectPtr<Object>::BorrowHandle(m.raw()->v_obj), kind);
  });
  return true;
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_CONTAINER_INTERNAL_H_

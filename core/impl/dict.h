// Dicts: ffi.Dict (76), a shared mutable map, and the C++ reference Dict.
//
// It has the layout and storage of ffi.Map (map.h, docs/abi.md), which
// apache-tvm-ffi's C++ headers read and mutate inline; other languages use
// the ffi.Dict* global functions.
#ifndef TVM_FFI_CORE_IMPL_DICT_H_
#define TVM_FFI_CORE_IMPL_DICT_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "any.h"
#include "map.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class DictObj : public MapBaseObj {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(DictObj, kTVMFFIDict, "ffi.Dict")
  static constexpr const char* kDisplayName = "Dict";  // in error messages

  static ObjectPtr<DictObj> Make() { return MakeEmpty<DictObj>(); }
  static ObjectPtr<DictObj> CopyOf(const MapBaseObj& src) { return MakeCopy<DictObj>(src); }
};

// A reference to a shared ffi.Dict: every copy of the reference sees the same
// pairs, and mutation happens in place.
class Dict : public MapRefBase<DictObj> {
 public:
  Dict() : MapRefBase(DictObj::Make()) {}
  Dict(std::initializer_list<std::pair<Any, Any>> items) : Dict() {
    for (const auto& kv : items) Set(kv.first, kv.second);
  }
  explicit Dict(ObjectPtr<Object> p) : MapRefBase(std::move(p)) {}

  void Set(Any key, Any value) { obj()->Set(key.Release(), value.Release()); }
  // KeyError naming the key when absent.
  void Erase(const AnyView& key) {
    if (!obj()->Erase(*key.raw())) ThrowKeyNotFound(*key.raw(), DictObj::kDisplayName);
  }
  void Clear() { obj()->Clear(); }

  DictObj* GetDictObj() const { return obj(); }
};

// Also accepts an ffi.Map (see MapRefTraits).
template <>
struct TypeTraits<Dict> : MapRefTraits<Dict> {};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_DICT_H_

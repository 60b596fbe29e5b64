// Dicts: ffi.Dict (76), a shared mutable hash map with the same table as
// ffi.Map, and its C++ reference Dict.  Not part of the C ABI: other
// languages use the ffi.Dict* global functions.
#ifndef TVMFFI_CORE_DICT_H_
#define TVMFFI_CORE_DICT_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "any.h"
#include "map.h"
#include "object.h"

namespace tvmffi {
namespace core {

class DictObj : public MapBaseObj {
 public:
  TVMFFI_DECLARE_STATIC_TYPE(DictObj, kTVMFFIDict, "ffi.Dict")

  static ObjectPtr<DictObj> Make() { return MakeObject<DictObj>(); }
  static ObjectPtr<DictObj> CopyOf(const MapBaseObj& src) {
    ObjectPtr<DictObj> obj = Make();
    obj->table.CopyFrom(src.table);
    return obj;
  }
};

// A reference to a shared ffi.Dict: every copy of the reference sees the same
// pairs, and mutation happens in place.  Never null when built by its
// constructors.
class Dict : public ObjectRef {
 public:
  using ContainerType = DictObj;
  using iterator = MapIterator;

  Dict() : ObjectRef(DictObj::Make()) {}
  Dict(std::initializer_list<std::pair<Any, Any>> items) : Dict() {
    for (const auto& kv : items) Set(kv.first, kv.second);
  }
  explicit Dict(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  int64_t size() const { return obj()->size(); }
  bool empty() const { return size() == 0; }
  int64_t count(const AnyView& key) const { return obj()->FindValue(*key.raw()) ? 1 : 0; }
  // KeyError naming the key when absent.
  Any at(const AnyView& key) const {
    const TVMFFIAny* v = obj()->FindValue(*key.raw());
    if (v == nullptr) ThrowKeyNotFound(*key.raw(), "Dict");
    return Any::Adopt(detail::CopyOwned(*v));
  }
  Any operator[](const AnyView& key) const { return at(key); }
  std::optional<Any> Get(const AnyView& key) const {
    const TVMFFIAny* v = obj()->FindValue(*key.raw());
    if (v == nullptr) return std::nullopt;
    return Any::Adopt(detail::CopyOwned(*v));
  }
  iterator begin() const { return iterator(obj(), 0); }
  iterator end() const { return iterator(obj(), obj()->table.end_pos()); }

  void Set(Any key, Any value) { obj()->table.Set(key.Release(), value.Release()); }
  // KeyError naming the key when absent.
  void Erase(const AnyView& key) {
    if (!obj()->table.Erase(*key.raw())) ThrowKeyNotFound(*key.raw(), "Dict");
  }
  void Clear() { obj()->table.Clear(); }

  DictObj* GetDictObj() const { return obj(); }

 private:
  DictObj* obj() const { return static_cast<DictObj*>(data_.get()); }
};

// A Dict parameter also accepts an ffi.Map (copied into a new Dict, so the
// callee's changes are not seen through the Map).
template <>
struct TypeTraits<Dict> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return DictObj::kTypeKey; }
  static void CopyToView(const Dict& d, TVMFFIAny* out) {
    if (!d.defined()) {
      out->type_index = kTVMFFINone;
      return;
    }
    out->type_index = kTVMFFIDict;
    out->v_obj = static_cast<TVMFFIObject*>(d.handle());
  }
  static void MoveToOwned(Dict d, TVMFFIAny* out) {
    if (!d.defined()) {
      out->type_index = kTVMFFINone;
      return;
    }
    out->type_index = kTVMFFIDict;
    out->v_obj = static_cast<TVMFFIObject*>(std::move(d).MoveData().release_handle());
  }
  static std::optional<Dict> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDict) return Dict(ObjectPtr<Object>::BorrowHandle(v->v_obj));
    if (v->type_index == kTVMFFIMap) {
      const MapBaseObj* src = static_cast<const MapBaseObj*>(Object::FromHandle(v->v_obj));
      return Dict(ObjectPtr<Object>(DictObj::CopyOf(*src)));
    }
    return std::nullopt;
  }
};

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_DICT_H_

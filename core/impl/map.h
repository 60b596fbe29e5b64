// Maps: ffi.Map (72), the read side of the storage ffi.Map and ffi.Dict
// share, and the C++ Map of the old value layer.
//
// The hash table itself (layout, lookup, insertion, growth, removal, the
// objects) is core/map_table.{h,cc}; everything here forwards to it.
//
// An ffi.Map is immutable once shared; the C++ Map copies on write.
#ifndef TVM_FFI_CORE_IMPL_MAP_H_
#define TVM_FFI_CORE_IMPL_MAP_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include "../map_table.h"
#include "any.h"
#include "any_equal.h"
#include "array.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// Throws KeyError `key <rendered key> not found in <what>`.
[[noreturn]] inline void ThrowKeyNotFound(const TVMFFIAny& key, const char* what) {
  ::tvm::ffi::detail::core::ThrowMapKeyNotFound(key, what);
}

// Frees the dense tables the calling thread keeps for reuse.
inline void MapDropCachedTables() { ::tvm::ffi::detail::core::MapDropCachedTables(); }

// What Map and Dict share: the layout of core/map_table.h.  Objects come
// only from core::MapMake (MakeEmpty, MakeCopy), whose deleter frees them.
class MapBaseObj : public Object {
 public:
  using KV = ::tvm::ffi::detail::core::MapPair;

  MapBaseObj() = delete;
  ~MapBaseObj() = delete;

  bool IsSmall() const { return ::tvm::ffi::detail::core::MapIsSmall(cell_); }
  uint64_t NumSlots() const { return ::tvm::ffi::detail::core::MapNumSlots(cell_); }
  int64_t size() const { return static_cast<int64_t>(cell_.size); }
  const ::tvm::ffi::detail::core::MapCell& cell() const { return cell_; }

  // Positions (core::MapBeginPos ...): valid until the next mutation.
  uint64_t BeginPos() const { return ::tvm::ffi::detail::core::MapBeginPos(cell_); }
  uint64_t EndPos() const { return ::tvm::ffi::detail::core::MapEndPos(cell_); }
  uint64_t NextPos(uint64_t pos) const { return ::tvm::ffi::detail::core::MapNextPos(cell_, pos); }
  const KV& KVAt(uint64_t pos) const { return ::tvm::ffi::detail::core::MapPairAt(cell_, pos); }
  bool IsLivePos(uint64_t pos) const { return ::tvm::ffi::detail::core::MapIsLivePos(cell_, pos); }
  uint64_t FindPos(const TVMFFIAny& key) const {
    return ::tvm::ffi::detail::core::MapFindPos(cell_, key);
  }
  // The value stored under `key`, borrowed; nullptr when absent.
  const TVMFFIAny* FindValue(const TVMFFIAny& key) const {
    return ::tvm::ffi::detail::core::MapFindValue(cell_, key);
  }

  // core::MapSet: takes over both owning values.
  void Set(TVMFFIAny key, TVMFFIAny value) { ::tvm::ffi::detail::core::MapSet(Handle(), key, value); }
  // Removes the pair; false when the key is absent.
  bool Erase(const TVMFFIAny& key) { return ::tvm::ffi::detail::core::MapErase(Handle(), key); }
  // Removes every pair; the storage (and its form) stays.
  void Clear() { ::tvm::ffi::detail::core::MapClear(Handle()); }

 protected:
  // A new, empty Derived in the small form with room for `n` pairs.
  template <typename Derived>
  static ObjectPtr<Derived> MakeEmpty(uint64_t n = ::tvm::ffi::detail::core::kMapSmallInitSlots) {
    return ObjectPtr<Derived>::AdoptHandle(
        ::tvm::ffi::detail::core::MapMake(Derived::kStaticTypeIndex, n));
  }
  // A new Derived holding copies (new references) of the pairs of `src`.
  template <typename Derived>
  static ObjectPtr<Derived> MakeCopy(const MapBaseObj& src) {
    return ObjectPtr<Derived>::AdoptHandle(
        ::tvm::ffi::detail::core::MapMakeCopy(Derived::kStaticTypeIndex, &src.header_));
  }

 private:
  TVMFFIObject* Handle() { return &header_; }

  ::tvm::ffi::detail::core::MapCell cell_;
};

static_assert(sizeof(MapBaseObj) == sizeof(TVMFFIObject) + sizeof(::tvm::ffi::detail::core::MapCell),
              "the map fields follow the 24-byte object header");

class MapObj : public MapBaseObj {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(MapObj, kTVMFFIMap, "ffi.Map")
  static constexpr const char* kDisplayName = "Map";  // in error messages

  static ObjectPtr<MapObj> Make() { return MakeEmpty<MapObj>(); }
  static ObjectPtr<MapObj> CopyOf(const MapBaseObj& src) { return MakeCopy<MapObj>(src); }
};

// Forward iteration over (key, value) pairs in the map's order.
class MapIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::pair<Any, Any>;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = value_type;

  MapIterator(const MapBaseObj* obj, uint64_t pos) : obj_(obj), pos_(pos) {}
  Any key() const { return Any::Adopt(detail::CopyOwned(obj_->KVAt(pos_).key)); }
  Any value() const { return Any::Adopt(detail::CopyOwned(obj_->KVAt(pos_).value)); }
  value_type operator*() const { return value_type(key(), value()); }
  MapIterator& operator++() {
    pos_ = obj_->NextPos(pos_);
    return *this;
  }
  bool operator==(const MapIterator& o) const { return pos_ == o.pos_; }
  bool operator!=(const MapIterator& o) const { return pos_ != o.pos_; }

 private:
  const MapBaseObj* obj_;
  uint64_t pos_;
};

// The read side Map and Dict share.  Never null when built by the
// constructors of Map or Dict.
template <typename ObjType>
class MapRefBase : public ObjectRef {
 public:
  using ContainerType = ObjType;
  using iterator = MapIterator;

  int64_t size() const { return obj()->size(); }
  bool empty() const { return size() == 0; }
  int64_t count(const AnyView& key) const { return obj()->FindValue(*key.raw()) ? 1 : 0; }
  // KeyError naming the key when absent.
  Any at(const AnyView& key) const {
    const TVMFFIAny* v = obj()->FindValue(*key.raw());
    if (v == nullptr) ThrowKeyNotFound(*key.raw(), ObjType::kDisplayName);
    return Any::Adopt(detail::CopyOwned(*v));
  }
  Any operator[](const AnyView& key) const { return at(key); }
  std::optional<Any> Get(const AnyView& key) const {
    const TVMFFIAny* v = obj()->FindValue(*key.raw());
    if (v == nullptr) return std::nullopt;
    return Any::Adopt(detail::CopyOwned(*v));
  }
  iterator begin() const { return iterator(obj(), obj()->BeginPos()); }
  iterator end() const { return iterator(obj(), obj()->EndPos()); }

 protected:
  explicit MapRefBase(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}
  ObjType* obj() const { return static_cast<ObjType*>(data_.get()); }
};

// A reference to an immutable ffi.Map.  Set and Erase copy the map first
// unless this is the only reference (copy on write).
class Map : public MapRefBase<MapObj> {
 public:
  Map() : MapRefBase(MapObj::Make()) {}
  Map(std::initializer_list<std::pair<Any, Any>> items) : Map() {
    for (const auto& kv : items) Set(kv.first, kv.second);
  }
  explicit Map(ObjectPtr<Object> p) : MapRefBase(std::move(p)) {}

  void Set(Any key, Any value) { Writable()->Set(key.Release(), value.Release()); }
  // Removes the key if present; returns whether it was.
  bool Erase(const AnyView& key) {
    if (obj()->FindValue(*key.raw()) == nullptr) return false;
    return Writable()->Erase(*key.raw());
  }

  MapObj* GetMapObj() const { return obj(); }

 private:
  MapObj* Writable() {
    if (obj()->use_count() != 1) data_ = MapObj::CopyOf(*obj());
    return obj();
  }
};

// Map and Dict parameters accept either kind: the reference itself, or a new
// copy of the other kind (so a Map never changes, and a callee's changes to
// a Dict made from a Map are not seen through the Map).
template <typename Ref>
struct MapRefTraits : ObjectRefTraitsBase<Ref> {
  static std::optional<Ref> TryCast(const TVMFFIAny* v) {
    using Obj = typename Ref::ContainerType;
    if (v->type_index == Obj::kStaticTypeIndex) {
      return Ref(ObjectPtr<Object>::BorrowHandle(v->v_obj));
    }
    if (v->type_index == kTVMFFIMap || v->type_index == kTVMFFIDict) {
      const MapBaseObj* src = static_cast<const MapBaseObj*>(Object::FromHandle(v->v_obj));
      return Ref(ObjectPtr<Object>(Obj::CopyOf(*src)));
    }
    return std::nullopt;
  }
};

template <>
struct TypeTraits<Map> : MapRefTraits<Map> {};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_MAP_H_

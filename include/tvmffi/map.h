// Maps: the hash table of ffi.Map and ffi.Dict, ffi.Map (72) and the C++ Map.
//
// The table keeps insertion order; an ffi.Map is immutable once shared.  The
// object layout is this library's own, not part of the C ABI, so other
// languages reach maps through the ffi.Map* global functions.
#ifndef TVMFFI_MAP_H_
#define TVMFFI_MAP_H_

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "any.h"
#include "any_equal.h"
#include "array.h"
#include "error.h"
#include "object.h"

namespace tvmffi {
namespace core {

// Throws KeyError `key <rendered key> not found in <what>`.
[[noreturn]] inline void ThrowKeyNotFound(const TVMFFIAny& key, const char* what) {
  TVMFFI_THROW(KeyError) << "key " << RenderKey(key) << " not found in " << what;
}

namespace detail {

// A hash table of owning (key, value) pairs that keeps insertion order.
//
// entries_[0, used_) holds the pairs in insertion order; an erased pair keeps
// its place, marked by key.type_index == kErased, until the next rebuild
// compacts the array.  Tables with more than kLinearMax entries of capacity
// also have slots_, an open-addressing index (linear probing) into entries_
// with at least twice as many slots as entries, so a probe always meets an
// empty slot.  Smaller tables are scanned.
//
// Not synchronised: callers serialise mutation.
class KVTable {
 public:
  struct Entry {
    TVMFFIAny key;
    TVMFFIAny value;
    uint64_t hash;
  };
  // Never the type of a stored value.
  static constexpr int32_t kErased = kTVMFFIAny;

  KVTable() = default;
  ~KVTable() {
    Clear();
    std::free(entries_);
    std::free(slots_);
  }
  KVTable(const KVTable&) = delete;
  KVTable& operator=(const KVTable&) = delete;

  int64_t size() const { return size_; }
  // Positions run over [0, EndPos()); use NextLive to skip erased ones.
  int64_t EndPos() const { return used_; }
  int64_t NextLive(int64_t pos) const {
    while (pos < used_ && entries_[pos].key.type_index == kErased) ++pos;
    return pos;
  }
  const Entry& EntryAt(int64_t pos) const { return entries_[pos]; }

  // nullptr when absent.  Valid until the next mutation.
  const Entry* Find(const TVMFFIAny& key) const {
    int64_t slot;
    int64_t pos = Locate(key, AnyKeyHash(key), &slot);
    return pos < 0 ? nullptr : &entries_[pos];
  }

  // Inserts or replaces the value; takes over both owning values.  A
  // replaced value is released and the new key dropped (the first key stays).
  void Set(TVMFFIAny key, TVMFFIAny value) {
    uint64_t hash = AnyKeyHash(key);
    int64_t slot;
    int64_t pos = Locate(key, hash, &slot);
    if (pos >= 0) {
      TVMFFIAny old = entries_[pos].value;
      entries_[pos].value = value;
      AnyRelease(&old);
      AnyRelease(&key);
      return;
    }
    if (used_ == capacity_) {
      try {
        Rebuild(NextCapacity());
      } catch (...) {
        AnyRelease(&key);
        AnyRelease(&value);
        throw;
      }
    }
    AppendNew(key, value, hash);
  }

  // Removes the pair; false when the key is absent.
  bool Erase(const TVMFFIAny& key) {
    int64_t slot;
    int64_t pos = Locate(key, AnyKeyHash(key), &slot);
    if (pos < 0) return false;
    Entry removed = entries_[pos];
    entries_[pos].key.type_index = kErased;
    if (slots_ != nullptr) slots_[slot] = kErasedSlot;
    --size_;
    AnyRelease(&removed.key);
    AnyRelease(&removed.value);
    return true;
  }

  void Clear() {
    // Detach the pairs before releasing them, so destructors that look at
    // this table see it empty.
    std::vector<Entry> removed;
    removed.reserve(static_cast<size_t>(size_));
    for (int64_t pos = NextLive(0); pos < used_; pos = NextLive(pos + 1)) {
      removed.push_back(entries_[pos]);
    }
    used_ = 0;
    size_ = 0;
    if (slots_ != nullptr) FillEmpty(slots_, slot_mask_ + 1);
    for (Entry& e : removed) {
      AnyRelease(&e.key);
      AnyRelease(&e.value);
    }
  }

  // Adds copies (new references) of every pair of `other`; this table must
  // not hold any of its keys.
  void CopyFrom(const KVTable& other) {
    Reserve(size_ + other.size_);
    for (int64_t pos = other.NextLive(0); pos < other.used_; pos = other.NextLive(pos + 1)) {
      const Entry& e = other.entries_[pos];
      AppendNew(CopyOwned(e.key), CopyOwned(e.value), e.hash);
    }
  }

  void Reserve(int64_t n) {
    if (n > capacity_) Rebuild(n);
  }

 private:
  static constexpr int64_t kLinearMax = 8;
  static constexpr int64_t kMinCapacity = 4;
  static constexpr int64_t kEmptySlot = -1;
  static constexpr int64_t kErasedSlot = -2;

  static uint64_t Mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
  }
  static void FillEmpty(int64_t* slots, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) slots[i] = kEmptySlot;
  }
  // Capacity for a rebuild of a full entry array: double it when at least
  // half the entries are live, else keep it (compacting erased entries
  // leaves room).
  int64_t NextCapacity() const {
    if (capacity_ < kMinCapacity) return kMinCapacity;
    return 2 * size_ >= capacity_ ? 2 * capacity_ : capacity_;
  }

  // Position of `key` in entries_ (and its slot), or -1.
  int64_t Locate(const TVMFFIAny& key, uint64_t hash, int64_t* slot_out) const {
    if (slots_ == nullptr) {
      for (int64_t pos = 0; pos < used_; ++pos) {
        const Entry& e = entries_[pos];
        if (e.hash == hash && e.key.type_index != kErased && AnyKeyEqual(e.key, key)) {
          *slot_out = -1;
          return pos;
        }
      }
      return -1;
    }
    for (uint64_t i = Mix(hash) & slot_mask_;; i = (i + 1) & slot_mask_) {
      int64_t s = slots_[i];
      if (s == kEmptySlot) return -1;
      if (s >= 0 && entries_[s].hash == hash && AnyKeyEqual(entries_[s].key, key)) {
        *slot_out = static_cast<int64_t>(i);
        return s;
      }
    }
  }

  void InsertSlot(uint64_t hash, int64_t pos) {
    uint64_t i = Mix(hash) & slot_mask_;
    while (slots_[i] >= 0) i = (i + 1) & slot_mask_;
    slots_[i] = pos;
  }

  // Requires used_ < capacity_ and the key absent.
  void AppendNew(TVMFFIAny key, TVMFFIAny value, uint64_t hash) {
    entries_[used_] = Entry{key, value, hash};
    if (slots_ != nullptr) InsertSlot(hash, used_);
    ++used_;
    ++size_;
  }

  // Moves the live pairs, in order, into a new array of `capacity` entries
  // and rebuilds the index.
  void Rebuild(int64_t capacity) {
    Entry* entries =
        static_cast<Entry*>(std::malloc(static_cast<size_t>(capacity) * sizeof(Entry)));
    if (entries == nullptr) throw std::bad_alloc();
    int64_t* slots = nullptr;
    uint64_t num_slots = 0;
    if (capacity > kLinearMax) {
      num_slots = 16;
      while (num_slots < 2 * static_cast<uint64_t>(capacity)) num_slots *= 2;
      slots = static_cast<int64_t*>(std::malloc(num_slots * sizeof(int64_t)));
      if (slots == nullptr) {
        std::free(entries);
        throw std::bad_alloc();
      }
      FillEmpty(slots, num_slots);
    }
    int64_t n = 0;
    for (int64_t pos = NextLive(0); pos < used_; pos = NextLive(pos + 1)) {
      entries[n++] = entries_[pos];
    }
    std::free(entries_);
    std::free(slots_);
    entries_ = entries;
    capacity_ = capacity;
    used_ = n;
    slots_ = slots;
    slot_mask_ = num_slots == 0 ? 0 : num_slots - 1;
    if (slots_ != nullptr) {
      for (int64_t pos = 0; pos < used_; ++pos) InsertSlot(entries_[pos].hash, pos);
    }
  }

  Entry* entries_ = nullptr;  // owned (malloc); pairs own their values
  int64_t capacity_ = 0;
  int64_t used_ = 0;          // entries in use, erased ones included
  int64_t size_ = 0;          // live pairs
  int64_t* slots_ = nullptr;  // owned (malloc); nullptr for small tables
  uint64_t slot_mask_ = 0;    // number of slots - 1
};

}  // namespace detail

// What Map and Dict share.  layout = { TVMFFIObject, KVTable } (not ABI).
class MapBaseObj : public Object {
 public:
  detail::KVTable table;

  int64_t size() const { return table.size(); }
  // The value stored under `key`, borrowed; nullptr when absent.
  const TVMFFIAny* FindValue(const TVMFFIAny& key) const {
    const detail::KVTable::Entry* e = table.Find(key);
    return e == nullptr ? nullptr : &e->value;
  }

 protected:
  MapBaseObj() = default;
  ~MapBaseObj() = default;
  // A new Derived holding copies (new references) of the pairs of `src`.
  template <typename Derived>
  static ObjectPtr<Derived> MakeCopy(const MapBaseObj& src) {
    ObjectPtr<Derived> obj = MakeObject<Derived>();
    obj->table.CopyFrom(src.table);
    return obj;
  }
};

class MapObj : public MapBaseObj {
 public:
  TVMFFI_DECLARE_STATIC_TYPE(MapObj, kTVMFFIMap, "ffi.Map")
  static constexpr const char* kDisplayName = "Map";  // in error messages

  static ObjectPtr<MapObj> Make() { return MakeObject<MapObj>(); }
  static ObjectPtr<MapObj> CopyOf(const MapBaseObj& src) { return MakeCopy<MapObj>(src); }
};

// Forward iteration over (key, value) pairs in insertion order.
class MapIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::pair<Any, Any>;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = value_type;

  MapIterator(const MapBaseObj* obj, int64_t pos) : obj_(obj), pos_(obj->table.NextLive(pos)) {}
  Any key() const { return Any::Adopt(detail::CopyOwned(obj_->table.EntryAt(pos_).key)); }
  Any value() const { return Any::Adopt(detail::CopyOwned(obj_->table.EntryAt(pos_).value)); }
  value_type operator*() const { return value_type(key(), value()); }
  MapIterator& operator++() {
    pos_ = obj_->table.NextLive(pos_ + 1);
    return *this;
  }
  bool operator==(const MapIterator& o) const { return pos_ == o.pos_; }
  bool operator!=(const MapIterator& o) const { return pos_ != o.pos_; }

 private:
  const MapBaseObj* obj_;
  int64_t pos_;
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
  iterator begin() const { return iterator(obj(), 0); }
  iterator end() const { return iterator(obj(), obj()->table.EndPos()); }

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

  void Set(Any key, Any value) { Writable()->table.Set(key.Release(), value.Release()); }
  // Removes the key if present; returns whether it was.
  bool Erase(const AnyView& key) {
    if (obj()->FindValue(*key.raw()) == nullptr) return false;
    return Writable()->table.Erase(*key.raw());
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

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_MAP_H_

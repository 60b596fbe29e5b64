/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/map_base.h
 * \brief MapBaseObj, the storage ffi.Map and ffi.Dict share, read inline;
 *        and the Any conversion rules of Map<K, V> and Dict<K, V>.
 *
 * Layout (C++ ABI), after the 24-byte object header:
 *   void* data; uint64_t size; uint64_t slots; void (*data_deleter)(void*);
 *   uint32_t fib_shift; uint64_t iter_list_head; uint64_t iter_list_tail;
 * Bit 63 of `slots` marks the small form: `data` is an array of `size`
 * (key, value) pairs of two Any each, in insertion order.  Otherwise `data`
 * is a hash table of `slots` entries in blocks of 16: 16 metadata bytes,
 * then 16 entries of { key, value, prev, next } (48 bytes).  A metadata byte
 * is 0xFF (empty), 0xFE (protected), or has bit 7 clear for the first entry
 * of a chain and set for a later one; bits 0-6 pick the distance to the
 * next entry of the chain (0: none).  A key's chain starts at entry
 * (AnyHash(key) * 0x9E3779B97F4A7C15) >> fib_shift.  Iteration follows
 * iter_list_head and each entry's `next`.
 *
 * What is inline here: size, iteration and lookup, on maps made by any
 * library.  Maps are made and changed by the runtime (the ffi.Map and
 * ffi.Dict* global functions), so the objects always come from the
 * runtime's own allocator.
 */
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

namespace detail {
/*! \brief The distance to the next entry of a dense chain for each 7-bit code. */
struct MapJumpDistances {
  uint64_t value[126];
  constexpr MapJumpDistances() : value() {
    int k = 0;
    for (uint64_t d = 0; d < 16; ++d) value[k++] = d;
    for (uint64_t n = 6; n <= 72; ++n) value[k++] = n * (n + 1) / 2;
    constexpr uint64_t kRoots[43] = {
        130,       195,       292,       438,       657,        986,        1478,
        2217,      3326,      4988,      7482,      11223,      16835,      25252,
        37877,     56816,     85223,     127835,    191752,     287627,     431440,
        647160,    970740,    1456110,   2184165,   3276247,    4914370,    7371555,
        11057333,  16585999,  24878998,  37318497,  55977745,   83966618,   125949926,
        188924889, 283387334, 425081001, 637621501, 956432251,  1434648376, 2151972564U,
        3227958845U};
    for (uint64_t n : kRoots) value[k++] = n * (n + 1) / 2;
  }
};
inline constexpr MapJumpDistances kMapJumpDistances{};
static_assert(kMapJumpDistances.value[16] == 21 && kMapJumpDistances.value[83] == 8515,
              "dense map jump distances");
}  // namespace detail

/*!
 * \brief The storage of ffi.Map and ffi.Dict (no type index of its own).
 *
 * Only the runtime makes and changes these objects; this class reads them.
 */
class MapBaseObj : public Object {
 public:
  /*! \brief One stored pair (32 bytes: two Any). */
  using KVType = std::pair<Any, Any>;
  using mapped_type = Any;
  using key_type = Any;

  /*! \brief A position in iteration order; dereferences to the stored pair. */
  class iterator {
   public:
    // Reads hand out the stored pair itself (no conversion).
    using value_type = KVType;
    using reference = const KVType&;
    using pointer = const KVType*;
    using difference_type = int64_t;
    using iterator_category = std::bidirectional_iterator_tag;

    iterator() = default;
    reference operator*() const { return map_->PairAt(pos_); }
    pointer operator->() const { return &map_->PairAt(pos_); }
    iterator& operator++() {
      pos_ = map_->NextPos(pos_);
      return *this;
    }
    iterator& operator--() {
      pos_ = map_->PrevPos(pos_);
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    iterator operator--(int) {
      iterator old = *this;
      --*this;
      return old;
    }
    bool operator==(const iterator& other) const {
      return map_ == other.map_ && pos_ == other.pos_;
    }
    bool operator!=(const iterator& other) const { return !(*this == other); }

   private:
    iterator(const MapBaseObj* map, uint64_t pos) : map_(map), pos_(pos) {}
    const MapBaseObj* map_ = nullptr;
    uint64_t pos_ = 0;
    friend class MapBaseObj;
  };

  size_t size() const { return static_cast<size_t>(size_); }
  bool empty() const { return size_ == 0; }
  iterator begin() const { return iterator(this, IsSmallMap() ? 0 : iter_list_head_); }
  iterator end() const { return iterator(this, EndPos()); }
  /*! \brief The position of `key`, or end(). */
  iterator find(const Any& key) const { return iterator(this, FindPos(key)); }
  size_t count(const Any& key) const { return FindPos(key) == EndPos() ? 0 : 1; }
  /*! \brief The value stored under `key`; KeyError `key is not in Map` when absent. */
  const Any& at(const Any& key) const {
    uint64_t pos = FindPos(key);
    if (pos == EndPos()) TVM_FFI_THROW(KeyError) << "key is not in Map";
    return PairAt(pos).second;
  }
  /*! \brief Whether the pairs are stored in the small (array) form. */
  bool IsSmallMap() const { return (slots_ & kSmallTagMask) != 0; }

 protected:
  /// \cond Doxygen_Suppress
  static constexpr uint64_t kSmallTagMask = static_cast<uint64_t>(1) << 63;
  static constexpr uint64_t kInvalidIndex = ~static_cast<uint64_t>(0);
  static constexpr uint64_t kBlockCap = 16;
  static constexpr uint8_t kEmptySlot = 0xFF;
  static constexpr uint8_t kNotHeadBit = 0x80;
  static constexpr uint8_t kJumpMask = 0x7F;

  struct DenseItem {
    KVType kv;
    uint64_t prev;
    uint64_t next;
  };
  struct DenseBlock {
    uint8_t meta[kBlockCap];
    DenseItem items[kBlockCap];
  };

  uint64_t EndPos() const { return IsSmallMap() ? size_ : kInvalidIndex; }
  const DenseItem& Item(uint64_t i) const {
    return static_cast<const DenseBlock*>(data_)[i / kBlockCap].items[i % kBlockCap];
  }
  uint8_t Meta(uint64_t i) const {
    return static_cast<const DenseBlock*>(data_)[i / kBlockCap].meta[i % kBlockCap];
  }
  const KVType& PairAt(uint64_t pos) const {
    return IsSmallMap() ? static_cast<const KVType*>(data_)[pos] : Item(pos).kv;
  }
  uint64_t NextPos(uint64_t pos) const {
    if (IsSmallMap()) return pos + 1 < size_ ? pos + 1 : size_;
    return pos == kInvalidIndex ? pos : Item(pos).next;
  }
  // From end() steps to the last pair.
  uint64_t PrevPos(uint64_t pos) const {
    if (IsSmallMap()) return pos - 1;
    return pos == kInvalidIndex ? iter_list_tail_ : Item(pos).prev;
  }
  uint64_t FindPos(const Any& key) const {
    if (IsSmallMap()) {
      const KVType* pairs = static_cast<const KVType*>(data_);
      for (uint64_t i = 0; i < size_; ++i) {
        if (AnyEqual()(pairs[i].first, key)) return i;
      }
      return size_;
    }
    if (size_ == 0) return kInvalidIndex;
    const uint64_t mask = slots_ - 1;
    uint64_t i = (AnyHash()(key) * 11400714819323198485ULL) >> fib_shift_;
    uint8_t meta = Meta(i);
    if ((meta & kNotHeadBit) != 0) return kInvalidIndex;  // empty, or another key's chain
    for (;;) {
      if (AnyEqual()(Item(i).kv.first, key)) return i;
      uint64_t jump = detail::kMapJumpDistances.value[meta & kJumpMask];
      if (jump == 0) return kInvalidIndex;
      i = (i + jump) & mask;
      meta = Meta(i);
    }
  }
  /// \endcond

 protected:
  // The cell (header + 24), in the C ABI's order.
  void* data_;
  uint64_t size_;
  uint64_t slots_;
  void (*data_deleter_)(void*);
  uint32_t fib_shift_;
  uint64_t iter_list_head_;
  uint64_t iter_list_tail_;

  // Objects of this kind come only from the runtime.
  MapBaseObj() = delete;
  friend class MapObj;
  friend class DictObj;
};

static_assert(sizeof(MapBaseObj::KVType) == 32, "a stored pair is two TVMFFIAny");

namespace detail {
/*!
 * \brief The runtime functions the map headers call, each looked up once per
 *        library on first use and kept for the life of the process (never
 *        released, so no destructor runs after libtvm_ffi is gone).
 */
enum class MapRuntime { kMakeMap, kMakeDict, kDictSetItem, kDictErase, kDictClear };

template <MapRuntime kWhich>
inline const Function& MapRuntimeFunction() {
  static const Function* const fn = [] {
    constexpr const char* kNames[] = {"ffi.Map", "ffi.Dict", "ffi.DictSetItem", "ffi.DictErase",
                                      "ffi.DictClear"};
    return new Function(Function::GetGlobalRequired(kNames[static_cast<int>(kWhich)]));
  }();
  return *fn;
}

/*!
 * \brief A new map object from the runtime's constructor (kMakeMap or
 *        kMakeDict) applied to (key0, value0, key1, value1, ...): a repeated
 *        key keeps its last value.
 */
template <MapRuntime kCtor>
inline ObjectPtr<Object> MakeMapObject(const AnyView* flat, size_t n) {
  Any made;
  MapRuntimeFunction<kCtor>().CallPacked(flat, static_cast<int32_t>(n), &made);
  return ObjectUnsafe::ObjectPtrFromObjectRef<Object>(std::move(made).as_or_throw<ObjectRef>());
}
template <MapRuntime kCtor>
inline ObjectPtr<Object> MakeMapObject(const std::vector<Any>& flat) {
  std::vector<AnyView> args(flat.begin(), flat.end());
  return MakeMapObject<kCtor>(args.data(), args.size());
}
/*!
 * \brief A new map object of the pairs of an initializer list, viewed in
 *        place (no converted copies, no reference counting of the pairs).
 */
template <MapRuntime kCtor, typename K, typename V>
inline ObjectPtr<Object> MakeMapObject(std::initializer_list<std::pair<K, V>> init) {
  constexpr size_t kOnStack = 8;  // pairs viewed from a stack array, no allocation
  if (init.size() <= kOnStack) {
    static_assert(std::is_trivially_destructible_v<AnyView>, "views are dropped without a destructor");
    alignas(AnyView) unsigned char storage[2 * kOnStack * sizeof(AnyView)];
    AnyView* args = reinterpret_cast<AnyView*>(storage);
    size_t n = 0;
    for (const std::pair<K, V>& kv : init) {
      new (&args[n++]) AnyView(kv.first);
      new (&args[n++]) AnyView(kv.second);
    }
    return MakeMapObject<kCtor>(args, n);
  }
  std::vector<AnyView> args;
  args.reserve(2 * init.size());
  for (const std::pair<K, V>& kv : init) {
    args.emplace_back(kv.first);
    args.emplace_back(kv.second);
  }
  return MakeMapObject<kCtor>(args.data(), args.size());
}
/*! \brief (key0, value0, ...) of the pairs of [begin, end), converted to K and V. */
template <typename K, typename V, typename IterType>
std::vector<Any> FlattenPairs(IterType begin, IterType end) {
  std::vector<Any> flat;
  using Category = typename std::iterator_traits<IterType>::iterator_category;
  if constexpr (std::is_base_of_v<std::forward_iterator_tag, Category>) {
    flat.reserve(2 * static_cast<size_t>(std::distance(begin, end)));
  }
  for (; begin != end; ++begin) {
    flat.emplace_back(K((*begin).first));
    flat.emplace_back(V((*begin).second));
  }
  return flat;
}
/*! \brief The pairs of `obj` flattened to (key0, value0, ...). */
template <typename MapObjType>
std::vector<Any> FlattenMap(const MapObjType* obj) {
  std::vector<Any> flat;
  if (obj == nullptr) return flat;
  flat.reserve(2 * obj->size());
  for (const auto& kv : *obj) {
    flat.push_back(kv.first);
    flat.push_back(kv.second);
  }
  return flat;
}
}  // namespace detail

/*!
 * \brief The Any conversion of a map reference MapRef with keys K and
 *        values V (Map<K, V> or Dict<K, V>).
 *
 * `Derived` names kPrimaryTypeIndex, kOtherTypeIndex (the other map kind,
 * accepted by copying) and kTypeName.  A map of the primary kind whose pairs
 * are all exactly (K, V) is shared; any other convertible map is copied
 * pair by pair, converting each.
 */
template <typename Derived, typename MapRef, typename K, typename V>
struct MapTypeTraitsBase : public ObjectRefTypeTraitsBase<MapRef> {
  using Base = ObjectRefTypeTraitsBase<MapRef>;
  using Base::CopyFromAnyViewAfterCheck;

  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == Derived::kPrimaryTypeIndex && AllPairsExact(Obj(src));
  }

  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if (!IsMap(src)) return TypeTraitsBase::GetMismatchTypeInfo(src);
    for (const auto& kv : *Obj(src)) {
      if constexpr (!std::is_same_v<K, Any>) {
        if (!Fits<K>(kv.first)) {
          return std::string(Derived::kTypeName) + "[some key is " +
                 detail::AnyUnsafe::GetMismatchTypeInfo<K>(kv.first) + ", V]";
        }
      }
      if constexpr (!std::is_same_v<V, Any>) {
        if (!Fits<V>(kv.second)) {
          return std::string(Derived::kTypeName) + "[K, some value is " +
                 detail::AnyUnsafe::GetMismatchTypeInfo<V>(kv.second) + "]";
        }
      }
    }
    TVM_FFI_THROW(InternalError) << "GetMismatchTypeInfo on a convertible " << Derived::kTypeName;
    TVM_FFI_UNREACHABLE();
  }

  TVM_FFI_INLINE static std::optional<MapRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!IsMap(src)) return std::nullopt;
    const MapBaseObj* obj = Obj(src);
    if (src->type_index == Derived::kPrimaryTypeIndex && AllPairsExact(obj)) {
      return CopyFromAnyViewAfterCheck(src);
    }
    std::vector<std::pair<K, V>> pairs;
    pairs.reserve(obj->size());
    for (const auto& kv : *obj) {
      std::optional<K> k = Convert<K>(kv.first);
      std::optional<V> v = Convert<V>(kv.second);
      if (!k.has_value() || !v.has_value()) return std::nullopt;
      pairs.emplace_back(*std::move(k), *std::move(v));
    }
    return MapRef(pairs.begin(), pairs.end());
  }

  /*! \brief "Map<K, V>" (or Dict): the type in messages. */
  TVM_FFI_INLINE static std::string TypeStr() {
    std::string text(Derived::kTypeName);
    text.append("<").append(detail::Type2Str<K>::v()).append(", ");
    return text.append(detail::Type2Str<V>::v()).append(">");
  }

 private:
  // Only the derived traits (Map's, Dict's) are made.
  friend Derived;
  MapTypeTraitsBase() = default;

  static const MapBaseObj* Obj(const TVMFFIAny* src) {
    return reinterpret_cast<const MapBaseObj*>(src->v_obj);
  }
  static bool IsMap(const TVMFFIAny* src) {
    return src->type_index == Derived::kPrimaryTypeIndex ||
           src->type_index == Derived::kOtherTypeIndex;
  }
  template <typename T>
  static bool Exact(const Any& v) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return detail::AnyUnsafe::CheckAnyStrict<T>(v);
    }
  }
  template <typename T>
  static bool Fits(const Any& v) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return Exact<T>(v) || v.try_cast<T>().has_value();
    }
  }
  template <typename T>
  static std::optional<T> Convert(const Any& v) {
    if constexpr (std::is_same_v<T, Any>) {
      return v;
    } else {
      return v.try_cast<T>();
    }
  }
  static bool AllPairsExact(const MapBaseObj* obj) {
    if constexpr (std::is_same_v<K, Any> && std::is_same_v<V, Any>) {
      return true;
    } else {
      for (const auto& kv : *obj) {
        if (!Exact<K>(kv.first) || !Exact<V>(kv.second)) return false;
      }
      return true;
    }
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_MAP_BASE_H_

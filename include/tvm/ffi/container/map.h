/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/map.h
 * \brief Map<K, V>: the immutable-by-sharing ffi.Map, and MapObj.
 *
 * Layouts (C++ ABI): MapObj = MapBaseObj (see map_base.h); Map = { ObjectPtr }.
 * Iteration is in insertion order; lookups and iteration run inline.
 *
 * Copy-on-write: a change (Set, erase, clear) makes a new map object
 * through the runtime's ffi.Map constructor and leaves every other Map that
 * shared the old one unchanged.  Unlike upstream's header, which changes a
 * unique map in place, each change here copies the pairs: building a map of
 * n pairs with Set costs O(n^2).  Build large maps from a range or an
 * initializer list instead (one copy).
 */
#ifndef TVM_FFI_CONTAINER_MAP_H_
#define TVM_FFI_CONTAINER_MAP_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*! \brief The ffi.Map object (type index kTVMFFIMap). */
class MapObj : public MapBaseObj {
  // Only the runtime makes one (through the registered constructor).
  MapObj() = delete;

 public:
  /// \cond Doxygen_Suppress
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIMap;
  static const constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIMap, MapObj, Object);
  /// \endcond
};

/*! \brief A shared map from K to V; reads are by value (converted copies). */
template <typename K, typename V,
          typename = typename std::enable_if_t<detail::storage_enabled_v<K> &&
                                               detail::storage_enabled_v<V>>>
class Map : public ObjectRef {
  // Enables a conversion from Map<KU, VU> when its pairs are (K, V) pairs.
  template <typename KU, typename VU>
  using IfPairsFit = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>;
  // The assignments: drop this map's object and share `other`'s.
  Map<K, V>& ShareFrom(ObjectRef other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }

 public:
  /// \cond Doxygen_Suppress
  using ContainerType = MapObj;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_container_is_exact = false;
  /// \endcond
  using key_type = K;
  using mapped_type = V;

  /*! \brief Takes a MapObj (InternalError when n is null). */
  explicit Map(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }
  /*! \brief A null map (only for the type machinery). */
  explicit Map(UnsafeInit tag) : ObjectRef(tag) {}
  /*! \brief An empty map. */
  Map() : ObjectRef(Make({})) {}

  // Copies and moves share the object, and so does a conversion from a
  // Map<KU, VU> whose keys are all K and values all V.
  Map(const Map<K, V>& other) : ObjectRef(other) {}        // NOLINT(*)
  Map(Map<K, V>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  /*! \brief Shares a map whose key and value types are subtypes of K and V. */
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Map(const Map<KU, VU>& other) : ObjectRef(other) {}  // NOLINT(*)
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Map(Map<KU, VU>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  Map<K, V>& operator=(const Map<K, V>& other) { return ShareFrom(other); }
  Map<K, V>& operator=(Map<K, V>&& other) { return ShareFrom(std::move(other)); }
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Map<K, V>& operator=(const Map<KU, VU>& other) {
    return ShareFrom(other);
  }
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Map<K, V>& operator=(Map<KU, VU>&& other) {
    return ShareFrom(std::move(other));
  }

  /*! \brief The pairs of [begin, end) (a later repeat of a key wins). */
  template <typename IterType>
  Map(IterType begin, IterType end) : ObjectRef(Make(Flatten(begin, end))) {}
  Map(std::initializer_list<std::pair<K, V>> init)  // NOLINT(*)
      : ObjectRef(detail::MakeMapObject<detail::MapRuntime::kMakeMap>(init)) {}
  template <typename Hash, typename Equal>
  Map(const std::unordered_map<K, V, Hash, Equal>& init)  // NOLINT(*)
      : ObjectRef(Make(Flatten(init.begin(), init.end()))) {}

  /*! \brief The value of `key`; KeyError `key is not in Map` when absent. */
  const V at(const K& key) const { return ConvertV(GetMapObj()->at(Any(key))); }
  const V operator[](const K& key) const { return at(key); }
  size_t size() const { return data_ == nullptr ? 0 : GetMapObj()->size(); }
  size_t count(const K& key) const {
    return data_ == nullptr ? 0 : GetMapObj()->count(Any(key));
  }
  bool empty() const { return size() == 0; }
  /*! \brief The value of `key`, or nullopt. */
  std::optional<V> Get(const K& key) const {
    if (data_ == nullptr) return std::nullopt;
    MapObj::iterator it = GetMapObj()->find(Any(key));
    if (it == GetMapObj()->end()) return std::nullopt;
    return ConvertV(it->second);
  }

  /*! \brief Maps `key` to `value` (replacing any earlier value) in a new object. */
  void Set(const K& key, const V& value) {
    std::vector<Any> flat = detail::FlattenMap(GetMapObj());
    flat.emplace_back(key);
    flat.emplace_back(value);
    data_ = Make(flat);
  }
  /*! \brief Removes `key` when present (a new object; none when absent). */
  void erase(const K& key) {
    if (count(key) == 0) return;
    Any k(key);
    std::vector<Any> flat;
    flat.reserve(2 * size());
    for (const auto& kv : *GetMapObj()) {
      if (AnyEqual()(kv.first, k)) continue;
      flat.push_back(kv.first);
      flat.push_back(kv.second);
    }
    data_ = Make(flat);
  }
  /*! \brief Makes this map empty (other sharers keep the pairs). */
  void clear() {
    if (data_ != nullptr) data_ = Make({});
  }
  /*! \brief This map's object, replaced by an unshared copy first when shared. */
  MapObj* CopyOnWrite() {
    if (data_ == nullptr || !data_.unique()) data_ = Make(detail::FlattenMap(GetMapObj()));
    return GetMapObj();
  }

  /*! \brief Iterates (key, value) pairs in insertion order, by value. */
  class iterator {
    // Only the Map makes one; it walks the object's own iterator.
    template <typename, typename, typename>
    friend class Map;
    MapObj::iterator it_;
    explicit iterator(MapObj::iterator it) : it_(it) {}

   public:
    // A pair is built on each read, so `reference` is a value.
    using value_type = const std::pair<K, V>;
    using reference = value_type;
    using pointer = value_type*;
    using difference_type = int64_t;
    using iterator_category = std::bidirectional_iterator_tag;

    iterator() = default;
    reference operator*() const {
      const auto& kv = *it_;
      return std::make_pair(detail::AnyUnsafe::CopyFromAnyViewAfterCheck<K>(kv.first),
                            detail::AnyUnsafe::CopyFromAnyViewAfterCheck<V>(kv.second));
    }
    pointer operator->() const = delete;
    bool operator==(const iterator& other) const { return it_ == other.it_; }
    bool operator!=(const iterator& other) const { return it_ != other.it_; }
    iterator& operator++() { return Step(true); }
    iterator& operator--() { return Step(false); }
    // The postfix forms return the position from before the step.
    iterator operator++(int) {
      iterator before = *this;
      Step(true);
      return before;
    }
    iterator operator--(int) {
      iterator before = *this;
      Step(false);
      return before;
    }

   private:
    iterator& Step(bool forward) {
      if (forward) {
        ++it_;
      } else {
        --it_;
      }
      return *this;
    }
  };
  iterator begin() const { return iterator(GetMapObj()->begin()); }
  iterator end() const { return iterator(GetMapObj()->end()); }
  iterator find(const K& key) const { return iterator(GetMapObj()->find(Any(key))); }

 private:
  static V ConvertV(const Any& v) { return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<V>(v); }
  static ObjectPtr<Object> Make(const std::vector<Any>& flat) {
    return detail::MakeMapObject<detail::MapRuntime::kMakeMap>(flat);
  }
  template <typename IterType>
  static std::vector<Any> Flatten(IterType begin, IterType end) {
    return detail::FlattenPairs<K, V>(begin, end);
  }
  MapObj* GetMapObj() const { return static_cast<MapObj*>(data_.get()); }

  template <typename, typename, typename>
  friend class Map;
};

/// \cond Doxygen_Suppress
// Map<KU, VU> is a Map<K, V> when its keys are K and its values V; the
// conversions into and out of Any are the traits below.
template <typename K, typename V>
inline constexpr bool use_default_type_traits_v<Map<K, V>> = false;
template <typename K, typename V, typename KU, typename VU>
inline constexpr bool type_subsumes_v<Map<K, V>, Map<KU, VU>> =
    type_subsumes_v<K, KU> && type_subsumes_v<V, VU>;
/// \endcond

/*!
 * \brief Map<K, V> in Any: an ffi.Map of exact (K, V) pairs is shared; an
 *        ffi.Map or ffi.Dict whose pairs convert is copied.
 */
template <typename K, typename V>
struct TypeTraits<Map<K, V>> : public MapTypeTraitsBase<TypeTraits<Map<K, V>>, Map<K, V>, K, V> {
  // The names MapTypeTraitsBase reads: the kind a Map holds, the kind it
  // copies from (ffi.Dict), and the name used in messages.
  static constexpr const char* kTypeName = "Map";
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIMap;
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIDict;
  /*! \brief As a field, a Map is stored as an ffi.Map. */
  static constexpr int32_t field_static_type_index = kPrimaryTypeIndex;
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIMap;

  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string schema = "{\"type\":\"";
    schema.append(kStaticTypeKey).append("\",\"args\":[");
    schema.append(detail::TypeSchema<K>::v()).append(",").append(detail::TypeSchema<V>::v());
    return schema + "]}";
  }
};

/*! \brief lhs with the pairs of rhs added (rhs wins on a shared key). */
template <typename K, typename V,
          typename = typename std::enable_if_t<
              (std::is_same_v<K, Any> || TypeTraits<K>::convert_enabled) &&
              (std::is_same_v<V, Any> || TypeTraits<V>::convert_enabled)>>
inline Map<K, V> Merge(Map<K, V> lhs, const Map<K, V>& rhs) {
  std::vector<std::pair<K, V>> pairs(lhs.begin(), lhs.end());
  pairs.insert(pairs.end(), rhs.begin(), rhs.end());
  return Map<K, V>(pairs.begin(), pairs.end());
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_MAP_H_

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/dict.h
 * \brief Dict<K, V>: the mutable ffi.Dict, and DictObj.
 *
 * Layouts (C++ ABI): DictObj = MapBaseObj (see map_base.h); Dict = { ObjectPtr }.
 * Iteration is in insertion order; lookups and iteration run inline.
 *
 * Unlike Map, a Dict is not copy-on-write: every Dict referring to an
 * object sees each change.  Changes go through the runtime's
 * ffi.DictSetItem, ffi.DictErase and ffi.DictClear, which change the object
 * in place (its identity stays when it grows).
 */
#ifndef TVM_FFI_CONTAINER_DICT_H_
#define TVM_FFI_CONTAINER_DICT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/object.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*! \brief The ffi.Dict object (type index kTVMFFIDict). */
class DictObj : public MapBaseObj {
  // Only the runtime makes one (through the registered constructor).
  DictObj() = delete;

 public:
  /// \cond Doxygen_Suppress
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIDict;
  static const constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIDict, DictObj, Object);
  /// \endcond
};

/*! \brief A shared, mutable map from K to V; reads are by value (converted copies). */
template <typename K, typename V,
          typename = typename std::enable_if_t<detail::storage_enabled_v<K> &&
                                               detail::storage_enabled_v<V>>>
class Dict : public ObjectRef {
  // Enables a conversion from Dict<KU, VU> when its pairs are (K, V) pairs.
  template <typename KU, typename VU>
  using IfPairsFit = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>;
  // The assignments: drop this dict's object and share `other`'s.
  Dict<K, V>& ShareFrom(ObjectRef other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }

 public:
  /// \cond Doxygen_Suppress
  using ContainerType = DictObj;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_container_is_exact = false;
  /// \endcond
  using key_type = K;
  using mapped_type = V;

  /*! \brief Takes a DictObj (InternalError when n is null). */
  explicit Dict(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }
  /*! \brief A null dict (only for the type machinery). */
  explicit Dict(UnsafeInit tag) : ObjectRef(tag) {}
  /*! \brief An empty dict. */
  Dict() : ObjectRef(Make({})) {}

  // Copies and moves share the object, and so does a conversion from a
  // Dict<KU, VU> whose keys are all K and values all V.
  Dict(const Dict<K, V>& other) : ObjectRef(other) {}        // NOLINT(*)
  Dict(Dict<K, V>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  /*! \brief Shares a dict whose key and value types are subtypes of K and V. */
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Dict(const Dict<KU, VU>& other) : ObjectRef(other) {}  // NOLINT(*)
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Dict(Dict<KU, VU>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  Dict<K, V>& operator=(const Dict<K, V>& other) { return ShareFrom(other); }
  Dict<K, V>& operator=(Dict<K, V>&& other) { return ShareFrom(std::move(other)); }
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Dict<K, V>& operator=(const Dict<KU, VU>& other) {
    return ShareFrom(other);
  }
  template <typename KU, typename VU, typename = IfPairsFit<KU, VU>>
  Dict<K, V>& operator=(Dict<KU, VU>&& other) {
    return ShareFrom(std::move(other));
  }

  /*! \brief The pairs of [begin, end) (a later repeat of a key wins). */
  template <typename IterType>
  Dict(IterType begin, IterType end) : ObjectRef(Make(Flatten(begin, end))) {}
  Dict(std::initializer_list<std::pair<K, V>> init)  // NOLINT(*)
      : ObjectRef(detail::MakeMapObject<detail::MapRuntime::kMakeDict>(init)) {}
  template <typename Hash, typename Equal>
  Dict(const std::unordered_map<K, V, Hash, Equal>& init)  // NOLINT(*)
      : ObjectRef(Make(Flatten(init.begin(), init.end()))) {}

  /*! \brief The value of `key`; KeyError `key is not in Map` when absent. */
  V at(const K& key) const { return ConvertV(GetDictObj()->at(Any(key))); }
  V operator[](const K& key) const { return at(key); }
  size_t size() const { return data_ == nullptr ? 0 : GetDictObj()->size(); }
  size_t count(const K& key) const {
    return data_ == nullptr ? 0 : GetDictObj()->count(Any(key));
  }
  bool empty() const { return size() == 0; }
  std::optional<V> Get(const K& key) const {
    if (data_ == nullptr) return std::nullopt;
    DictObj::iterator it = GetDictObj()->find(Any(key));
    if (it == GetDictObj()->end()) return std::nullopt;
    return ConvertV(it->second);
  }
  /*! \brief Maps `key` to `value` in place. */
  void Set(const K& key, const V& value) {
    EnsureDictObj();
    detail::MapRuntimeFunction<detail::MapRuntime::kDictSetItem>()(*this, key, value);
  }
  /*! \brief Removes `key` in place when present. */
  void erase(const K& key) {
    if (count(key) == 0) return;
    detail::MapRuntimeFunction<detail::MapRuntime::kDictErase>()(*this, key);
  }
  /*! \brief Removes every pair in place. */
  void clear() {
    if (data_ != nullptr) detail::MapRuntimeFunction<detail::MapRuntime::kDictClear>()(*this);
  }

  /*! \brief Iterates (key, value) pairs in insertion order, by value. */
  class iterator {
    // Only the Dict makes one; it walks the object's own iterator.
    template <typename, typename, typename>
    friend class Dict;
    DictObj::iterator it_;
    explicit iterator(DictObj::iterator it) : it_(it) {}

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
  iterator begin() const { return iterator(GetDictObj()->begin()); }
  iterator end() const { return iterator(GetDictObj()->end()); }
  iterator find(const K& key) const { return iterator(GetDictObj()->find(Any(key))); }

 private:
  static V ConvertV(const Any& v) { return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<V>(v); }
  static ObjectPtr<Object> Make(const std::vector<Any>& flat) {
    return detail::MakeMapObject<detail::MapRuntime::kMakeDict>(flat);
  }
  template <typename IterType>
  static std::vector<Any> Flatten(IterType begin, IterType end) {
    return detail::FlattenPairs<K, V>(begin, end);
  }
  void EnsureDictObj() {
    if (data_ == nullptr) data_ = Make({});
  }
  DictObj* GetDictObj() const { return static_cast<DictObj*>(data_.get()); }

  template <typename, typename, typename>
  friend class Dict;
};

/// \cond Doxygen_Suppress
// Dict<KU, VU> is a Dict<K, V> when its keys are K and its values V; the
// conversions into and out of Any are the traits below.
template <typename K, typename V>
inline constexpr bool use_default_type_traits_v<Dict<K, V>> = false;
template <typename K, typename V, typename KU, typename VU>
inline constexpr bool type_subsumes_v<Dict<K, V>, Dict<KU, VU>> =
    type_subsumes_v<K, KU> && type_subsumes_v<V, VU>;
/// \endcond

/*!
 * \brief Dict<K, V> in Any: an ffi.Dict of exact (K, V) pairs is shared; an
 *        ffi.Dict or ffi.Map whose pairs convert is copied into a new Dict.
 */
template <typename K, typename V>
struct TypeTraits<Dict<K, V>>
    : public MapTypeTraitsBase<TypeTraits<Dict<K, V>>, Dict<K, V>, K, V> {
  // The names MapTypeTraitsBase reads: the kind a Dict holds, the kind it
  // copies from (ffi.Map), and the name used in messages.
  static constexpr const char* kTypeName = "Dict";
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIDict;
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIMap;
  /*! \brief As a field, a Dict is stored as an ffi.Dict. */
  static constexpr int32_t field_static_type_index = kPrimaryTypeIndex;
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIDict;

  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string schema = "{\"type\":\"";
    schema.append(kStaticTypeKey).append("\",\"args\":[");
    schema.append(detail::TypeSchema<K>::v()).append(",").append(detail::TypeSchema<V>::v());
    return schema + "]}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_DICT_H_

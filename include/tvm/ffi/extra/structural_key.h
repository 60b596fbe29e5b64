/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/structural_key.h
 * \brief StructuralKey: a value wrapped so that it is looked up by structure.
 *
 * A StructuralKey holds a value and the value's structural hash, computed
 * once when the key is made.  Two keys are equal when the hashes agree and
 * StructuralEqual::Equal says the values are equal.  The type
 * (`ffi.StructuralKey`) is registered by libtvm_ffi together with its
 * container hooks, so an ffi.Map or ffi.Dict keyed by Any also treats two
 * equal keys as one; std::hash is specialised for std::unordered_map.
 *
 * \code{.cpp}
 * std::unordered_map<StructuralKey, int> seen;
 * seen[StructuralKey(Array<int>{1, 2})] = 1;
 * seen.count(StructuralKey(Array<int>{1, 2}));  // 1
 * \endcode
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_KEY_H_
#define TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

namespace tvm {
namespace ffi {

/*!
 * \brief The object of a StructuralKey.
 *
 * layout = { TVMFFIObject, TVMFFIAny key (+24), int64_t hash_i64 (+40) }:
 * the library's hooks read both fields.
 */
class StructuralKeyObj : public Object {
 public:
  /*! \brief The wrapped value. */
  Any key;
  /*! \brief StructuralHash::Hash(key) (both flags false), as a signed integer. */
  int64_t hash_i64{0};

  /*! \brief An empty key: None, hash 0. */
  StructuralKeyObj() = default;
  /*! \brief Wraps `key` and computes its structural hash. */
  explicit StructuralKeyObj(Any key)
      : key(std::move(key)), hash_i64(static_cast<int64_t>(StructuralHash::Hash(this->key))) {}

  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.StructuralKey", StructuralKeyObj, Object);
  /// \endcond
};

/*! \brief A reference to a StructuralKeyObj (never null). */
class StructuralKey : public ObjectRef {
 public:
  /*! \brief A key for `key`, its hash computed now. */
  explicit StructuralKey(Any key) : ObjectRef(make_object<StructuralKeyObj>(std::move(key))) {}

  /*!
   * \brief Equal when both are the same object, or when the cached hashes
   *        match and the values are structurally equal.
   */
  bool operator==(const StructuralKey& other) const {
    if (same_as(other)) return true;
    const StructuralKeyObj* a = get();
    const StructuralKeyObj* b = other.get();
    return a->hash_i64 == b->hash_i64 && StructuralEqual::Equal(a->key, b->key);
  }
  /*! \brief The negation of ==. */
  bool operator!=(const StructuralKey& other) const { return !operator==(other); }

  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralKey, ObjectRef, StructuralKeyObj);
  /// \endcond
};

}  // namespace ffi
}  // namespace tvm

namespace std {

/*! \brief The cached structural hash, for unordered containers. */
template <>
struct hash<::tvm::ffi::StructuralKey> {
  size_t operator()(const ::tvm::ffi::StructuralKey& key) const {
    return static_cast<size_t>(static_cast<uint64_t>(key->hash_i64));
  }
};

}  // namespace std

#endif  // TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

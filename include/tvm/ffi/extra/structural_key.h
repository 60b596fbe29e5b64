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

namespace detail {
/*! \brief The key's hash as stored: StructuralHash::Hash with default flags, signed. */
inline int64_t StructuralKeySignedHash(const Any& value) {
  return static_cast<int64_t>(StructuralHash::Hash(value));
}
}  // namespace detail

/*!
 * \brief The object of a StructuralKey.
 *
 * layout = { TVMFFIObject, TVMFFIAny key (+24), int64_t hash_i64 (+40) }:
 * the library's hooks read both fields.
 */
class StructuralKeyObj : public Object {
 public:
  /*! \brief An empty key: None, hash 0. */
  StructuralKeyObj() = default;
  /*! \brief Wraps `key`; its hash is taken once, here. */
  explicit StructuralKeyObj(Any key) : key(std::move(key)) {
    hash_i64 = detail::StructuralKeySignedHash(this->key);
  }

  /*! \brief The wrapped value. */
  Any key;
  /*! \brief StructuralHash::Hash(key) (both flags false), as a signed integer. */
  int64_t hash_i64{0};

  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.StructuralKey", StructuralKeyObj, Object);
  /// \endcond
};

/*! \brief A reference to a StructuralKeyObj (never null). */
class StructuralKey : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralKey, ObjectRef, StructuralKeyObj);
  /// \endcond

  /*! \brief A key for `key`, its hash computed now. */
  explicit StructuralKey(Any key) : ObjectRef(make_object<StructuralKeyObj>(std::move(key))) {}

  /*!
   * \brief Equal when both are the same object, or when the cached hashes
   *        match and the values are structurally equal.
   */
  bool operator==(const StructuralKey& other) const {
    const StructuralKeyObj* lhs = get();
    const StructuralKeyObj* rhs = other.get();
    if (lhs == rhs) return true;
    return lhs->hash_i64 == rhs->hash_i64 && StructuralEqual::Equal(lhs->key, rhs->key);
  }
  /*! \brief The negation of ==. */
  bool operator!=(const StructuralKey& other) const { return !operator==(other); }
};

}  // namespace ffi
}  // namespace tvm

/*! \brief The cached structural hash, for unordered containers. */
template <>
struct std::hash<::tvm::ffi::StructuralKey> {
  size_t operator()(const ::tvm::ffi::StructuralKey& key) const {
    const uint64_t bits = static_cast<uint64_t>(key->hash_i64);
    return static_cast<size_t>(bits);
  }
};

#endif  // TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

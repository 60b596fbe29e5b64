/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/structural_hash.h
 * \brief StructuralHash: a hash consistent with StructuralEqual.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
#define TVM_FFI_EXTRA_STRUCTURAL_HASH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>

#include <cstdint>

namespace tvm {
namespace ffi {

namespace type_attr {
/*!
 * \brief The type attribute a type registers to hash itself:
 *        (self, init_hash, hash) -> hash.  The `hash` callback folds one
 *        part (a value, the running hash, a definition-region flag) in.
 */
inline constexpr reflection::AttrKey<TypedFunction<int64_t(
    const Object*, int64_t, const TypedFunction<int64_t(AnyView, int64_t, int)>&)>>
    kSHash{"__s_hash__"};
}  // namespace type_attr

/*!
 * \brief Hashing by structure, the counterpart of StructuralEqual; an
 *        instance is the hasher an unordered container of Any takes.
 */
class StructuralHash {
 public:
  /*! \brief Hash(value) with both flags off. */
  TVM_FFI_INLINE uint64_t operator()(const Any& value) const { return Hash(value, false, false); }

  /*!
   * \brief The structural hash of a value.
   * \param value The value.
   * \param map_free_vars Free variables contribute the order in which they
   *        are first met, matching StructuralEqual's map_free_vars mode.
   * \param skip_tensor_content Tensors contribute shape and dtype only.
   * \return Equal for any two values StructuralEqual::Equal, called with the
   *         same flags, reports equal.
   */
  TVM_FFI_EXTRA_CXX_API static uint64_t Hash(const Any& value, bool map_free_vars = false,
                                             bool skip_tensor_content = false);
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_HASH_H_

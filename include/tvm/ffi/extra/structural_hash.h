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

/*! \brief Structural hashing; also a hasher functor for containers. */
class StructuralHash {
 public:
  /*!
   * \brief Hashes a value by structure.
   * \param value The value.
   * \param map_free_vars Free variables hash by their position of first use,
   *        as StructuralEqual with map_free_vars compares them.
   * \param skip_tensor_content Tensors hash by shape and dtype only.
   * \return The hash: equal for values StructuralEqual::Equal calls equal
   *         with the same flags.
   */
  TVM_FFI_EXTRA_CXX_API static uint64_t Hash(const Any& value, bool map_free_vars = false,
                                             bool skip_tensor_content = false);
  /*! \brief Hash(value) with both flags false. */
  TVM_FFI_INLINE uint64_t operator()(const Any& value) const { return Hash(value); }
};

namespace type_attr {
/*!
 * \brief A type's own structural hash: (self, init_hash, hash) -> hash,
 *        where hash(part, running_hash, def_region) folds in one part.
 */
inline constexpr reflection::AttrKey<TypedFunction<int64_t(
    const Object*, int64_t, const TypedFunction<int64_t(AnyView, int64_t, int)>&)>>
    kSHash{"__s_hash__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_HASH_H_

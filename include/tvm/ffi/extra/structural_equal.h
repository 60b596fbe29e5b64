/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/structural_equal.h
 * \brief StructuralEqual: equality of values by structure, following each
 *        type's structural kind (tree node, DAG node, free variable, ...).
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
#define TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/accessor.h>

namespace tvm {
namespace ffi {

namespace type_attr {
/*!
 * \brief A type's own structural equality: (self, other, compare) -> bool,
 *        where compare(lhs, rhs, def_region, field_name) compares two parts.
 */
inline constexpr reflection::AttrKey<TypedFunction<bool(
    const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView, int, AnyView)>&)>>
    kSEqual{"__s_equal__"};
}  // namespace type_attr

/*!
 * \brief Equality by structure; an instance is the equality functor an
 *        unordered container of Any takes.
 */
class StructuralEqual {
 public:
  /*! \brief Equal(lhs, rhs) with both flags off. */
  TVM_FFI_INLINE bool operator()(const Any& lhs, const Any& rhs) const {
    return Equal(lhs, rhs, false, false);
  }

  /*!
   * \brief The first place where two values differ by structure.
   * \param lhs The left value.
   * \param rhs The right value.
   * \param map_free_vars As for Equal.
   * \param skip_tensor_content As for Equal.
   * \return The access paths (into lhs and into rhs) of the first
   *         difference, or nullopt when the values are equal.
   */
  TVM_FFI_EXTRA_CXX_API static Optional<reflection::AccessPathPair> GetFirstMismatch(
      const Any& lhs, const Any& rhs, bool map_free_vars = false,
      bool skip_tensor_content = false);

  /*!
   * \brief Whether two values are equal by structure.
   * \param lhs The left value.
   * \param rhs The right value.
   * \param map_free_vars A free variable of lhs may match one of rhs; the
   *        pairing is one to one, fixed at first use.
   * \param skip_tensor_content Tensors are equal when shape and dtype are,
   *        whatever their bytes.
   * \return True when equal.
   */
  TVM_FFI_EXTRA_CXX_API static bool Equal(const Any& lhs, const Any& rhs,
                                          bool map_free_vars = false,
                                          bool skip_tensor_content = false);
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_

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

/*! \brief Structural equality; also an equality functor for containers. */
class StructuralEqual {
 public:
  /*!
   * \brief Compares two values by structure.
   * \param lhs The left value.
   * \param rhs The right value.
   * \param map_free_vars Free variables of lhs may stand for those of rhs,
   *        bound one to one in order of first use.
   * \param skip_tensor_content Tensors compare by shape and dtype only, not
   *        by their bytes.
   * \return True when equal.
   */
  TVM_FFI_EXTRA_CXX_API static bool Equal(const Any& lhs, const Any& rhs,
                                          bool map_free_vars = false,
                                          bool skip_tensor_content = false);
  /*!
   * \brief Where two values first differ structurally.
   * \param lhs The left value.
   * \param rhs The right value.
   * \param map_free_vars As for Equal.
   * \param skip_tensor_content As for Equal.
   * \return The paths (from lhs and from rhs) to the first difference, or
   *         nullopt when the values are equal.
   */
  TVM_FFI_EXTRA_CXX_API static Optional<reflection::AccessPathPair> GetFirstMismatch(
      const Any& lhs, const Any& rhs, bool map_free_vars = false,
      bool skip_tensor_content = false);
  /*! \brief Equal(lhs, rhs) with both flags false. */
  TVM_FFI_INLINE bool operator()(const Any& lhs, const Any& rhs) const {
    return Equal(lhs, rhs, false, false);
  }
};

namespace type_attr {
/*!
 * \brief A type's own structural equality: (self, other, compare) -> bool,
 *        where compare(lhs, rhs, def_region, field_name) compares two parts.
 */
inline constexpr reflection::AttrKey<TypedFunction<bool(
    const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView, int, AnyView)>&)>>
    kSEqual{"__s_equal__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_

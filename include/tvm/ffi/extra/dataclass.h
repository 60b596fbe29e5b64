/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/dataclass.h
 * \brief Operations on values through reflection: DeepCopy, ReprPrint, and
 *        the recursive comparisons and hash behind Python's ==, <, hash().
 */
#ifndef TVM_FFI_EXTRA_DATACLASS_H_
#define TVM_FFI_EXTRA_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <ostream>

namespace tvm {
namespace ffi {

// ---- Printing -------------------------------------------------------------

/*! \brief The text Python's repr() shows for `value`. */
TVM_FFI_EXTRA_CXX_API String ReprPrint(const Any& value);

/// \cond Doxygen_Suppress
namespace detail {
inline std::ostream& StreamRepr(std::ostream& os, const Any& value) {
  return os << ReprPrint(value);
}
}  // namespace detail
/// \endcond

// Streaming any FFI value writes its ReprPrint (None for an empty Optional
// or a null reference).

/*! \brief Writes ReprPrint of the alternative the Variant holds. */
template <typename... V>
inline std::ostream& operator<<(std::ostream& os, const Variant<V...>& value) {
  return detail::StreamRepr(os, Any(value));
}
/*! \brief Writes ReprPrint of the value, or None. */
template <typename T>
inline std::ostream& operator<<(std::ostream& os, const Optional<T>& value) {
  return detail::StreamRepr(os, Any(value));
}
/*! \brief Writes ReprPrint of the object, or None. */
inline std::ostream& operator<<(std::ostream& os, const ObjectRef& value) {
  return detail::StreamRepr(os, Any(value));
}
/*! \brief Writes ReprPrint(value). */
inline std::ostream& operator<<(std::ostream& os, const Any& value) {
  return detail::StreamRepr(os, value);
}

// ---- Copying --------------------------------------------------------------

/*!
 * \brief A deep copy: every container and reflected object reachable from
 *        `value` is duplicated, aliasing within the value is preserved, and
 *        immutable leaves (numbers, strings, bytes, shapes, functions) are
 *        shared rather than copied.
 */
TVM_FFI_EXTRA_CXX_API Any DeepCopy(const Any& value);

// ---- Comparison and hashing (Python's ==, <, <=, >, >= and hash()) --------

/*! \brief Equality element by element and field by field. */
TVM_FFI_EXTRA_CXX_API bool RecursiveEq(const Any& lhs, const Any& rhs);
/*! \brief A hash that agrees with RecursiveEq (equal values hash equal). */
TVM_FFI_EXTRA_CXX_API int64_t RecursiveHash(const Any& value);
/*! \brief Lexicographic "less than" over elements and fields. */
TVM_FFI_EXTRA_CXX_API bool RecursiveLt(const Any& lhs, const Any& rhs);
/*! \brief RecursiveLt(rhs, lhs). */
TVM_FFI_EXTRA_CXX_API bool RecursiveGt(const Any& lhs, const Any& rhs);
/*! \brief RecursiveLt(lhs, rhs) or equal in that order. */
TVM_FFI_EXTRA_CXX_API bool RecursiveLe(const Any& lhs, const Any& rhs);
/*! \brief RecursiveGt(lhs, rhs) or equal in that order. */
TVM_FFI_EXTRA_CXX_API bool RecursiveGe(const Any& lhs, const Any& rhs);

// ---- Per-type overrides ---------------------------------------------------

/// \cond Doxygen_Suppress
namespace detail {
// The signatures of the per-type hooks below.  Each hook gets the object(s)
// and a callback that applies the same operation to a part.
using FRecursiveEqHook =
    TypedFunction<bool(const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView)>&)>;
using FRecursiveCompareHook = TypedFunction<int32_t(
    const Object*, const Object*, const TypedFunction<int32_t(AnyView, AnyView)>&)>;
using FRecursiveHashHook =
    TypedFunction<int64_t(const Object*, const TypedFunction<int64_t(AnyView)>&)>;
using FReprHook = TypedFunction<String(const Object*, const TypedFunction<String(AnyView)>&)>;
}  // namespace detail
/// \endcond

namespace type_attr {
/*! \brief Custom equality: (self, other, equal_parts) -> bool. */
inline constexpr reflection::AttrKey<detail::FRecursiveEqHook> kEq{"__ffi_eq__"};
/*! \brief Custom three-way order: (self, other, compare_parts) -> <0, 0 or >0. */
inline constexpr reflection::AttrKey<detail::FRecursiveCompareHook> kCompare{"__ffi_compare__"};
/*! \brief Custom hash: (self, hash_part) -> int64. */
inline constexpr reflection::AttrKey<detail::FRecursiveHashHook> kHash{"__ffi_hash__"};
/*! \brief Custom repr: (self, repr_part) -> text. */
inline constexpr reflection::AttrKey<detail::FReprHook> kRepr{"__ffi_repr__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DATACLASS_H_

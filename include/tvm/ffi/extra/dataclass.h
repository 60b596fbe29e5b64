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

/*!
 * \brief Copies a value and everything it reaches: containers and reflected
 *        objects are new, sharing inside the value is kept, and immutable
 *        leaves (numbers, strings, bytes, shapes, functions) are shared.
 * \param value The value.
 * \return The copy.
 */
TVM_FFI_EXTRA_CXX_API Any DeepCopy(const Any& value);

/*!
 * \brief The readable text of a value, as Python's repr() of it prints.
 * \param value The value.
 * \return The text.
 */
TVM_FFI_EXTRA_CXX_API String ReprPrint(const Any& value);

/*!
 * \brief A hash consistent with RecursiveEq: RecursiveEq(a, b) implies equal hashes.
 * \param value The value.
 * \return The hash.
 */
TVM_FFI_EXTRA_CXX_API int64_t RecursiveHash(const Any& value);

/*! \brief Element-wise, field-wise equality (Python's ==). */
TVM_FFI_EXTRA_CXX_API bool RecursiveEq(const Any& lhs, const Any& rhs);

/*! \brief Lexicographic order over elements and fields (Python's <). */
TVM_FFI_EXTRA_CXX_API bool RecursiveLt(const Any& lhs, const Any& rhs);

/*! \brief lhs < rhs or lhs == rhs in the order of RecursiveLt. */
TVM_FFI_EXTRA_CXX_API bool RecursiveLe(const Any& lhs, const Any& rhs);

/*! \brief rhs < lhs in the order of RecursiveLt. */
TVM_FFI_EXTRA_CXX_API bool RecursiveGt(const Any& lhs, const Any& rhs);

/*! \brief rhs < lhs or lhs == rhs in the order of RecursiveLt. */
TVM_FFI_EXTRA_CXX_API bool RecursiveGe(const Any& lhs, const Any& rhs);

/*! \brief Writes ReprPrint(value). */
inline std::ostream& operator<<(std::ostream& os, const Any& value) {
  return os << ReprPrint(value);
}

/*! \brief Writes ReprPrint of the referenced object (or None). */
inline std::ostream& operator<<(std::ostream& os, const ObjectRef& value) {
  return os << ReprPrint(Any(value));
}

/*! \brief Writes ReprPrint of the value, or None when empty. */
template <typename T>
inline std::ostream& operator<<(std::ostream& os, const Optional<T>& value) {
  return os << ReprPrint(Any(value));
}

/*! \brief Writes ReprPrint of the value the Variant holds. */
template <typename... V>
inline std::ostream& operator<<(std::ostream& os, const Variant<V...>& value) {
  return os << ReprPrint(Any(value));
}

namespace type_attr {
/*! \brief A type's own repr: (self, repr_of_part) -> text. */
inline constexpr reflection::AttrKey<
    TypedFunction<String(const Object*, const TypedFunction<String(AnyView)>&)>>
    kRepr{"__ffi_repr__"};
/*! \brief A type's own RecursiveHash: (self, hash_of_part) -> hash. */
inline constexpr reflection::AttrKey<
    TypedFunction<int64_t(const Object*, const TypedFunction<int64_t(AnyView)>&)>>
    kHash{"__ffi_hash__"};
/*! \brief A type's own RecursiveEq: (self, other, eq_of_parts) -> bool. */
inline constexpr reflection::AttrKey<
    TypedFunction<bool(const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView)>&)>>
    kEq{"__ffi_eq__"};
/*! \brief A type's own ordering: (self, other, compare_parts) -> negative, 0 or positive. */
inline constexpr reflection::AttrKey<TypedFunction<int32_t(
    const Object*, const Object*, const TypedFunction<int32_t(AnyView, AnyView)>&)>>
    kCompare{"__ffi_compare__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DATACLASS_H_

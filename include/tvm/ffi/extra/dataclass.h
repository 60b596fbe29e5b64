/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/dataclass.h
 * \brief Operations on values through reflection: DeepCopy, ReprPrint, and
 *        the recursive comparisons and hash behind Python's ==, <, hash().
 *
 * \note Not here yet (issue 19): the operator<< for Variant (needs
 *       tvm/ffi/container/variant.h) and the type attributes type_attr::kRepr,
 *       kHash, kEq, kCompare (need tvm/ffi/reflection/accessor.h).
 */
#ifndef TVM_FFI_EXTRA_DATACLASS_H_
#define TVM_FFI_EXTRA_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
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

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DATACLASS_H_

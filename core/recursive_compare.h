// Field-wise content comparison and hashing (ffi.RecursiveEq/Lt/Le/Gt/Ge/Hash),
// the equality, ordering and hash that dataclasses and containers use for
// Python's ==, <, <=, >, >= and hash().  docs/reflection.md has the rules.
#ifndef TVM_FFI_CORE_RECURSIVE_COMPARE_H_
#define TVM_FFI_CORE_RECURSIVE_COMPARE_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Content equality: values of different kinds are unequal (1 and 1.0, 1 and
// True, an Array and a List), NaN equals NaN, and reflected objects of one
// type compare field by field, skipping CompareOff fields.  Never throws for
// a type mismatch; a too deep value raises RecursionError.
bool RecursiveEq(const TVMFFIAny& lhs, const TVMFFIAny& rhs);

// Three-way content order: < 0, 0 or > 0.  Throws TypeError for values of
// different kinds ("Cannot compare values of different types: int vs str"),
// NaN, unequal maps and unequal identity-compared objects; ValueError for a
// reference cycle met while ordering.  `walk` names the caller in errors.
int RecursiveCompare(const TVMFFIAny& lhs, const TVMFFIAny& rhs, const char* walk);

// A hash consistent with RecursiveEq: equal values hash equal.  Skips
// HashOff and CompareOff fields.
int64_t RecursiveHash(const TVMFFIAny& value);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_RECURSIVE_COMPARE_H_

// Structural equality, hashing, first mismatch, deep copy, repr and field visits.
//
// Header-only: each function calls the ffi.* global of the same name through
// the C ABI, so C, C++ and Python callers get the same answers.
//
//   StructuralEqual(a, b)                      // containers by content, objects by fields
//   StructuralEqual(f, g, /*map_free_vars=*/true)
//   uint64_t h = StructuralHash(a);            // consistent with StructuralEqual
//   if (auto m = GetFirstStructuralMismatch(a, b)) {
//     std::cout << ReprPrint(m->first);        // "<root>.body[2]"
//   }
//   Any copy = DeepCopy(a);
//   std::unordered_set<Any, StructuralHashFn, StructuralEqualFn> unique;
//
// Errors (a type without structural equality, a reference cycle, nesting
// deeper than 2048 levels or than the thread's stack allows) throw Error:
// TypeError, ValueError, RecursionError.
#ifndef TVMFFI_STRUCTURAL_H_
#define TVMFFI_STRUCTURAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "any.h"
#include "function.h"
#include "object.h"
#include "string.h"

namespace tvmffi {
namespace core {

namespace structural_detail {
// Each global is looked up once per process.
#define TVMFFI_STRUCTURAL_GLOBAL_(fn_name, global)                          \
  inline const Function& fn_name() {                                        \
    static const Function f = Function::GetGlobalRequired(global);         \
    return f;                                                               \
  }
TVMFFI_STRUCTURAL_GLOBAL_(EqualFn, "ffi.StructuralEqual")
TVMFFI_STRUCTURAL_GLOBAL_(HashFn, "ffi.StructuralHash")
TVMFFI_STRUCTURAL_GLOBAL_(MismatchFn, "ffi.GetFirstStructuralMismatch")
TVMFFI_STRUCTURAL_GLOBAL_(DeepCopyFn, "ffi.DeepCopy")
TVMFFI_STRUCTURAL_GLOBAL_(ReprFn, "ffi.ReprPrint")
TVMFFI_STRUCTURAL_GLOBAL_(VisitFieldsFn, "ffi.VisitFields")
TVMFFI_STRUCTURAL_GLOBAL_(VisitFn, "ffi.VisitEachValue")
#undef TVMFFI_STRUCTURAL_GLOBAL_
}  // namespace structural_detail

// Whether lhs and rhs have the same structure and content.  Free variables
// match only themselves unless a definition field binds them or
// map_free_vars is set; skip_tensor_content compares tensors by metadata.
inline bool StructuralEqual(const AnyView& lhs, const AnyView& rhs, bool map_free_vars = false,
                            bool skip_tensor_content = false) {
  return structural_detail::EqualFn()(lhs, rhs, map_free_vars, skip_tensor_content).As<bool>();
}

// A hash consistent with StructuralEqual (same flags).
inline uint64_t StructuralHash(const AnyView& value, bool map_free_vars = false,
                               bool skip_tensor_content = false) {
  return static_cast<uint64_t>(
      structural_detail::HashFn()(value, map_free_vars, skip_tensor_content).As<int64_t>());
}

// The access paths (ffi.reflection.AccessPath objects: lhs, rhs) to the first
// difference, or nullopt when the values are equal.  ReprPrint shows a path
// as "<root>.field[3]["key"]".
inline std::optional<std::pair<ObjectRef, ObjectRef>> GetFirstStructuralMismatch(
    const AnyView& lhs, const AnyView& rhs, bool map_free_vars = false,
    bool skip_tensor_content = false) {
  Any r = structural_detail::MismatchFn()(lhs, rhs, map_free_vars, skip_tensor_content);
  if (r.is_none()) return std::nullopt;
  Function get_item = Function::GetGlobalRequired("ffi.ArrayGetItem");
  return std::make_pair(get_item(r, int64_t(0)).As<ObjectRef>(),
                        get_item(r, int64_t(1)).As<ObjectRef>());
}

// A copy in which containers and reflected objects are new (sharing and
// cycles preserved); strings, shapes, tensors and functions are shared.
// TypeError for an object whose type has no creator.
inline Any DeepCopy(const AnyView& value) { return structural_detail::DeepCopyFn()(value); }

// Readable text of any value: `type_key(field=value, ...)` for reflected
// objects (fields flagged ReprOff left out), [..] and {..} for containers,
// a type's own "__ffi_repr__" attribute when it has one.
inline std::string ReprPrint(const AnyView& value) {
  return structural_detail::ReprFn()(value).As<std::string>();
}

// fn(name, value, flags) for each reflected field of obj, in declaration
// order (the fields of ancestors first).
template <typename F>
void VisitReflectedFields(const ObjectRef& obj, F fn) {
  Function callback = Function::FromTyped(
      [&fn](String name, Any value, int64_t flags) { fn(name.str(), value, flags); });
  structural_detail::VisitFieldsFn()(obj, callback);
}

// fn(value) for value and, depth first, everything inside it (each object
// once); fn returning false skips that value's children.
template <typename F>
void StructuralVisit(const AnyView& value, F fn) {
  Function callback = Function::FromTyped([&fn](Any v) { return static_cast<bool>(fn(v)); });
  structural_detail::VisitFn()(value, callback);
}

// Functors for hash containers keyed by structure.
struct StructuralHashFn {
  size_t operator()(const Any& v) const { return static_cast<size_t>(StructuralHash(v)); }
};
struct StructuralEqualFn {
  bool operator()(const Any& a, const Any& b) const { return StructuralEqual(a, b); }
};

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_STRUCTURAL_H_

// ffi.StructuralMutator, structural mutation and mapping.
//
// layout = { TVMFFIObject, const VTable* vtable (+24), int32_t
// def_region_mode (+32) }, as upstream's; its C++ headers call the vtable
// entries inline.  A mutate entry takes a view of a value and returns the new
// value, a kTVMFFIUnchanged marker (the value stays as it was), or an Error;
// maybe_inplace_mutate is called instead when the value is owned by the
// caller's path alone and may be changed in place.
//
// The default mutation of a value (ffi.StructuralMutatorDefaultMutate):
// Array and List items, and Map and Dict values (keys stay), each through the
// mutator's vtable; the reflected fields not marked SEqHashIgnore (a field
// marked SEqHashDefSimple / SEqHashDefPattern inside that definition region);
// nothing for other values.  A FreeVar object is a variable: outside a
// definition region it takes what var_remap_get maps it to (or stays); inside
// one its fields are mutated and a changed result is recorded with
// var_remap_set (a Pattern definition records itself even when unchanged).
// A changed container or object is a copy (copy on write), unless it is owned
// by this path alone (its reference count is 1 along a path of such values
// from a root the caller gave away), when it is changed in place.
//
// The engines: ffi.StructuralMap(root, callbacks, callbacks_with_def_region_kind,
// order) replaces each value by post(D(pre(value))), the first matching
// callback running before (order 0) or after (order 1) the default mutation D,
// at every occurrence (a DAGNode's D is computed once); ffi.StructuralMutate(root,
// callbacks) gives each value to the first matching callback
// fn(value, mutator[, inplace_mode]), whose result is final, or to D.  Their
// mutators keep the variable remap.  A walk deeper than the structural depth
// limit (a reference cycle) raises.
#ifndef TVM_FFI_CORE_STRUCTURAL_MUTATE_H_
#define TVM_FFI_CORE_STRUCTURAL_MUTATE_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class StructuralMutatorObj : public Object {
 public:
  // Each returns an owning value (a result, an Unchanged marker, or an Error).
  using MutateFn = TVMFFIAny (*)(StructuralMutatorObj* self, TVMFFIAny value) noexcept;
  using RemapGetFn = TVMFFIAny (*)(StructuralMutatorObj* self, TVMFFIAny var) noexcept;
  using RemapSetFn = TVMFFIAny (*)(StructuralMutatorObj* self, TVMFFIAny var,
                                   TVMFFIAny mapped) noexcept;
  struct VTable {
    MutateFn mutate;
    MutateFn maybe_inplace_mutate;
    RemapGetFn var_remap_get;
    RemapSetFn var_remap_set;
  };
  const VTable* vtable;
  int32_t def_region_mode = kTVMFFIDefRegionKindNone;

  explicit StructuralMutatorObj(const VTable* vt) : vtable(vt) {}
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(StructuralMutatorObj, "ffi.StructuralMutator", PlainObject)
};

static_assert(sizeof(StructuralMutatorObj) == 40,
              "ffi.StructuralMutator: header, vtable, def_region_mode");

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRUCTURAL_MUTATE_H_

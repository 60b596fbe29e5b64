// ffi.StructuralMutator: the object of upstream's structural mutation.
//
// layout = { TVMFFIObject, const VTable* vtable (+24), int32_t
// def_region_mode (+32) }, as upstream's; its C++ headers call the vtable
// entries inline.  The type, its hook columns ("__s_mutate__",
// "__s_maybe_inplace_mutate__") and the globals that dispatch through a
// mutator's vtable exist (ffi.StructuralMutatorMutate, ...VarRemapGet,
// ...VarRemapSet, ...DefRegionKind, ...WithDefRegionKind), so a mutator made
// by code built against upstream's headers can be driven from here.  The
// hooks of the built-in types and the globals ffi.StructuralMap,
// ffi.StructuralMutate and ffi.StructuralMutatorDefaultMutate are in
// cxx_api_structural_mutate.cc, written against tvm/ffi/extra/structural_mutate.h.
//
// A mutate entry returns the new value, a kTVMFFIUnchanged marker (the value
// stays as it was), or an Error.
#ifndef TVMFFI_CORE_STRUCTURAL_MUTATE_H_
#define TVMFFI_CORE_STRUCTURAL_MUTATE_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

#include <tvmffi/object.h>

namespace tvmffi {
namespace core {

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
  TVMFFI_DECLARE_DYNAMIC_TYPE(StructuralMutatorObj, "ffi.StructuralMutator", PlainObject)
};

static_assert(sizeof(StructuralMutatorObj) == 40,
              "ffi.StructuralMutator: header, vtable, def_region_mode");

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_STRUCTURAL_MUTATE_H_

// ffi.StructuralMutator's registration (see structural_mutate.h).
#include "structural_mutate.h"

#include <cstring>

#include <tvmffi/error.h>
#include <tvmffi/function.h>
#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

const bool kRegistered = RunAtLoad([] {
  ObjectDef<StructuralMutatorObj>("A structural mutation in progress.");
  TVMFFIAny none;
  std::memset(&none, 0, sizeof(none));
  for (const char* column : {"__s_mutate__", "__s_maybe_inplace_mutate__"}) {
    TVMFFIByteArray name = {column, std::strlen(column)};
    reflection_detail::Check(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none));
  }
});

StructuralMutatorObj* MutatorArg(const AnyView& v, const char* func) {
  if (v.type_index() < kTVMFFIStaticObjectBegin ||
      !Object::FromHandle(v.raw()->v_obj)
           ->IsInstanceIndex(StructuralMutatorObj::RuntimeTypeIndex())) {
    detail::ThrowArgumentMismatch(func, 0, StructuralMutatorObj::kTypeKey, v.raw());
  }
  return static_cast<StructuralMutatorObj*>(Object::FromHandle(v.raw()->v_obj));
}

// Takes over a vtable entry's result; throws the Error it carries.
Any TakeResult(TVMFFIAny raw) {
  Any result = Any::Adopt(raw);
  if (result.type_index() == kTVMFFIError) {
    throw Error(ObjectPtr<Object>::BorrowHandle(result.raw()->v_obj));
  }
  return result;
}

TVMFFI_REGISTER_GLOBAL("ffi.StructuralMutatorMutate", [](AnyView mutator, AnyView value) -> Any {
  StructuralMutatorObj* m = MutatorArg(mutator, "ffi.StructuralMutatorMutate");
  Any result = TakeResult(m->vtable->mutate(m, *value.raw()));
  if (result.type_index() == kTVMFFIUnchanged) return Any(value);
  return result;
});

TVMFFI_REGISTER_GLOBAL("ffi.StructuralMutatorVarRemapGet", [](AnyView mutator, AnyView var) {
  StructuralMutatorObj* m = MutatorArg(mutator, "ffi.StructuralMutatorVarRemapGet");
  return TakeResult(m->vtable->var_remap_get(m, *var.raw()));
});

TVMFFI_REGISTER_GLOBAL("ffi.StructuralMutatorVarRemapSet",
                       [](AnyView mutator, AnyView var, AnyView mapped_value) {
                         StructuralMutatorObj* m =
                             MutatorArg(mutator, "ffi.StructuralMutatorVarRemapSet");
                         TakeResult(m->vtable->var_remap_set(m, *var.raw(), *mapped_value.raw()));
                       });

TVMFFI_REGISTER_GLOBAL("ffi.StructuralMutatorDefRegionKind", [](AnyView mutator) {
  return static_cast<int64_t>(
      MutatorArg(mutator, "ffi.StructuralMutatorDefRegionKind")->def_region_mode);
});

// As ffi.StructuralVisitorWithDefRegionKind: a Pattern region stays in force.
Any WithDefRegionKind(StructuralMutatorObj* m, int64_t kind, const Function& callback) {
  if (kind < kTVMFFIDefRegionKindNone || kind > kTVMFFIDefRegionKindSimple) {
    TVMFFI_THROW(ValueError)
        << "ffi.StructuralMutatorWithDefRegionKind: unknown definition region kind " << kind;
  }
  if (m->def_region_mode == kTVMFFIDefRegionKindPattern) return callback();
  struct Restore {
    StructuralMutatorObj* m;
    int32_t old;
    ~Restore() { m->def_region_mode = old; }
  } restore{m, m->def_region_mode};
  m->def_region_mode = static_cast<int32_t>(kind);
  return callback();
}

TVMFFI_REGISTER_GLOBAL("ffi.StructuralMutatorWithDefRegionKind",
                       [](AnyView mutator, int64_t kind, Function callback) {
                         return WithDefRegionKind(
                             MutatorArg(mutator, "ffi.StructuralMutatorWithDefRegionKind"), kind,
                             callback);
                       });

}  // namespace
}  // namespace core
}  // namespace tvmffi

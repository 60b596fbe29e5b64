// ffi.StructuralMutator's registration (see structural_mutate.h).
#include "structural_mutate.h"

#include <cstring>

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

}  // namespace
}  // namespace core
}  // namespace tvmffi

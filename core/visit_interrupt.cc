// ffi.VisitInterrupt (static type index 77): the signal that stops a
// structural visit or walk, carrying a payload returned to the caller.
//
// The type is tvm::ffi::VisitInterruptObj (layout = { TVMFFIObject, Any
// value (+24) }, as upstream's); this file registers its reflection and the
// global ffi.VisitInterrupt(value) that makes one.  `value` is a read-only
// field (default None).
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/reflection/registry.h>

#include "global_def.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

namespace refl = ::tvm::ffi::reflection;

static_assert(sizeof(VisitInterruptObj) == 40, "ffi.VisitInterrupt: header, value");

const bool kRegistered = RegisterAtLoad([] {
  // No __ffi_init__: instances come from ffi.VisitInterrupt.
  refl::ObjectDef<VisitInterruptObj>(
      "Stops a structural visit; `value` is returned to its caller.", refl::init(false))
      .def_ro("value", &VisitInterruptObj::value, "The payload (None for none).",
              refl::DefaultValue(Any()));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VisitInterrupt",
                             [](Any value) { return VisitInterrupt(std::move(value)); });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// ffi.VisitInterrupt (static type index 77): the signal that stops a
// structural visit or walk, carrying a payload returned to the caller.
//
// layout = { TVMFFIObject, TVMFFIAny value (+24) }, as upstream's.  The
// global ffi.VisitInterrupt(value) makes one; `value` is a read-only field
// (default None).
#include "impl/function.h"
#include "impl/reflection.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

class VisitInterruptObj : public Object {
 public:
  Any value;
  VisitInterruptObj() = default;
  explicit VisitInterruptObj(Any v) : value(std::move(v)) {}
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(VisitInterruptObj, kTVMFFIVisitInterrupt, "ffi.VisitInterrupt")
};

static_assert(sizeof(VisitInterruptObj) == 40, "ffi.VisitInterrupt: header, value");

const bool kRegistered = RunAtLoad([] {
  ObjectDef<VisitInterruptObj>("Stops a structural visit; `value` is returned to its caller.")
      .Attr("__ffi_type_final__", Any(true))
      // HasDefault with a zeroed default: None.
      .ReadOnlyFieldWithFlags("value", &VisitInterruptObj::value,
                              kTVMFFIFieldFlagBitMaskHasDefault, "The payload (None for none).");
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VisitInterrupt", [](Any value) {
  return ObjectRef(MakeObject<VisitInterruptObj>(std::move(value)));
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

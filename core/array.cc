// ffi.Array global functions: construction, size, item access, containment.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>

#include "container_internal.h"
#include "global_def.h"
#include "seq_storage.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

const TVMFFISeqCell* ArrayArg(const AnyView& arg, const char* func) {
  return SeqCellOf(ExactObjectArg(arg, kTVMFFIArray, "ffi.Array", func, 0));
}

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.Array", [](const AnyView* args, int32_t n, Any* rv) {
  *rv = AdoptObject(ArrayFromViews(reinterpret_cast<const TVMFFIAny*>(args), n));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ArraySize",
                             [](AnyView a) { return ArrayArg(a, "ffi.ArraySize")->size; });

// Negative indices are refused here; the language bindings normalise them.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ArrayGetItem", [](AnyView a, AnyView index) {
  int64_t i = IntArg(index, "ffi.ArrayGetItem", 1);
  const TVMFFISeqCell* arr = ArrayArg(a, "ffi.ArrayGetItem");
  CheckSeqIndex(i, arr->size, "Array");
  return Any(AsAny(SeqData(*arr)[i]));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ArrayContains", [](AnyView a, AnyView value) {
  return SeqContains(*ArrayArg(a, "ffi.ArrayContains"), *ViewRaw(value));
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

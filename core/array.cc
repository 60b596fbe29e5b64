// ffi.Array global functions: construction, size, item access, containment.
#include "impl/array.h"

#include "container_internal.h"
#include "impl/function.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

TVM_FFI_IMPL_REGISTER_GLOBAL_PACKED("ffi.Array", [](const AnyView* args, int32_t n, Any* rv) {
  *rv = ObjectPtrToAny(ArrayObj::FromViews(reinterpret_cast<const TVMFFIAny*>(args), n));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ArraySize", [](AnyView a) {
  return ExactObjectArg<ArrayObj>(a, "ffi.ArraySize", 0)->size();
});

// Negative indices are refused here; the language bindings normalise them.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ArrayGetItem", [](AnyView a, int64_t i) {
  const ArrayObj* arr = ExactObjectArg<ArrayObj>(a, "ffi.ArrayGetItem", 0);
  detail::CheckIndex(i, arr->size(), "Array");
  return CopyStored(arr->at(i));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ArrayContains", [](AnyView a, AnyView value) {
  return ExactObjectArg<ArrayObj>(a, "ffi.ArrayContains", 0)->Contains(*value.raw());
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

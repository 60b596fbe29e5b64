// ffi.Dict global functions: construction, lookup and in-place mutation.
#include "impl/dict.h"

#include "container_internal.h"
#include "impl/function.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

DictObj* DictArg(const AnyView& arg, const char* func) {
  return ExactObjectArg<DictObj>(arg, func, 0);
}

const bool kCommonGlobalsRegistered = RegisterMapCommonGlobals<DictObj>();

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.DictSetItem", [](AnyView d, Any key, Any value) {
  DictArg(d, "ffi.DictSetItem")->Set(key.Release(), value.Release());
});

// KeyError naming the key when absent.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.DictErase", [](AnyView d, AnyView key) {
  if (!DictArg(d, "ffi.DictErase")->Erase(*key.raw())) {
    ThrowKeyNotFound(*key.raw(), DictObj::kDisplayName);
  }
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.DictClear",
                       [](AnyView d) { DictArg(d, "ffi.DictClear")->Clear(); });

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

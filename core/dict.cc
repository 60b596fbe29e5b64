// ffi.Dict global functions: construction, lookup and in-place mutation.
#include <tvm/ffi/any.h>

#include "container_internal.h"
#include "global_def.h"
#include "map_table.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

TVMFFIObject* DictArg(const AnyView& arg, const char* func) {
  return ExactObjectArg(arg, kTVMFFIDict, "ffi.Dict", func, 0);
}

const bool kCommonGlobalsRegistered =
    RegisterAtLoad([] { RegisterMapCommonGlobals(kTVMFFIDict, "ffi.Dict", "Dict"); });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.DictSetItem", [](AnyView d, Any key, Any value) {
  MapSet(DictArg(d, "ffi.DictSetItem"), ReleaseAny(std::move(key)), ReleaseAny(std::move(value)));
});

// KeyError naming the key when absent.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.DictErase", [](AnyView d, AnyView key) {
  if (!MapErase(DictArg(d, "ffi.DictErase"), *ViewRaw(key))) {
    ThrowMapKeyNotFound(*ViewRaw(key), "Dict");
  }
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.DictClear", [](AnyView d) { MapClear(DictArg(d, "ffi.DictClear")); });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

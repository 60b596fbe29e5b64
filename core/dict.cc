// ffi.Dict global functions: construction, lookup and in-place mutation.
#include <tvmffi/dict.h>

#include "container_internal.h"
#include <tvmffi/function.h>

namespace tvmffi {
namespace core {
namespace {

DictObj* DictArg(const AnyView& arg, const char* func) {
  return ExactObjectArg<DictObj>(arg, func, 0);
}

const bool kCommonGlobalsRegistered = RegisterMapCommonGlobals<DictObj>();

TVMFFI_REGISTER_GLOBAL("ffi.DictSetItem", [](AnyView d, Any key, Any value) {
  DictArg(d, "ffi.DictSetItem")->Set(key.Release(), value.Release());
});

// KeyError naming the key when absent.
TVMFFI_REGISTER_GLOBAL("ffi.DictErase", [](AnyView d, AnyView key) {
  if (!DictArg(d, "ffi.DictErase")->Erase(*key.raw())) {
    ThrowKeyNotFound(*key.raw(), DictObj::kDisplayName);
  }
});

TVMFFI_REGISTER_GLOBAL("ffi.DictClear",
                       [](AnyView d) { DictArg(d, "ffi.DictClear")->Clear(); });

}  // namespace
}  // namespace core
}  // namespace tvmffi

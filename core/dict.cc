// ffi.Dict global functions: construction, lookup and in-place mutation.
#include "dict.h"

#include "container_internal.h"
#include "function.h"

namespace tvmffi {
namespace core {
namespace {

DictObj* DictArg(const AnyView& arg, const char* func) {
  return ExactObjectArg<DictObj>(arg, func, 0);
}

// ffi.Dict(k0, v0, k1, v1, ...); a repeated key keeps its last value.
TVMFFI_REGISTER_GLOBAL_PACKED("ffi.Dict", [](const AnyView* args, int32_t n, Any* rv) {
  CheckKeyValueArgs("ffi.Dict", n);
  ObjectPtr<DictObj> dict = DictObj::Make();
  dict->table.Reserve(n / 2);
  for (int32_t i = 0; i < n; i += 2) {
    dict->table.Set(Any(args[i]).Release(), Any(args[i + 1]).Release());
  }
  *rv = ObjectPtrToAny(std::move(dict));
});

TVMFFI_REGISTER_GLOBAL("ffi.DictSize", [](AnyView d) { return DictArg(d, "ffi.DictSize")->size(); });

TVMFFI_REGISTER_GLOBAL("ffi.DictCount", [](AnyView d, AnyView key) {
  return static_cast<int64_t>(DictArg(d, "ffi.DictCount")->FindValue(*key.raw()) != nullptr);
});

TVMFFI_REGISTER_GLOBAL("ffi.DictGetItem", [](AnyView d, AnyView key) {
  const TVMFFIAny* v = DictArg(d, "ffi.DictGetItem")->FindValue(*key.raw());
  if (v == nullptr) ThrowKeyNotFound(*key.raw(), "Dict");
  return CopyStored(*v);
});

TVMFFI_REGISTER_GLOBAL("ffi.DictGetItemOrMissing", [](AnyView d, AnyView key) {
  const TVMFFIAny* v = DictArg(d, "ffi.DictGetItemOrMissing")->FindValue(*key.raw());
  if (v == nullptr) return MissingValue();
  return CopyStored(*v);
});

TVMFFI_REGISTER_GLOBAL("ffi.DictSetItem", [](AnyView d, Any key, Any value) {
  DictArg(d, "ffi.DictSetItem")->table.Set(key.Release(), value.Release());
});

// KeyError naming the key when absent.
TVMFFI_REGISTER_GLOBAL("ffi.DictErase", [](AnyView d, AnyView key) {
  if (!DictArg(d, "ffi.DictErase")->table.Erase(*key.raw())) ThrowKeyNotFound(*key.raw(), "Dict");
});

TVMFFI_REGISTER_GLOBAL("ffi.DictClear", [](AnyView d) { DictArg(d, "ffi.DictClear")->table.Clear(); });

TVMFFI_REGISTER_GLOBAL("ffi.DictForwardIterFunctor", [](AnyView d) {
  DictArg(d, "ffi.DictForwardIterFunctor");
  return MakeMapIterFunctor(ObjectPtr<Object>::BorrowHandle(d.raw()->v_obj), "Dict");
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

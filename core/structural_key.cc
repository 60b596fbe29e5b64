// ffi.StructuralKey (see structural_key.h): the type, its container-key
// hooks, and the globals ffi.StructuralKey(key) and
// ffi.StructuralKeyEqual(lhs, rhs).
#include "structural_key.h"

#include <cstring>

#include "impl/error.h"
#include "impl/function.h"
#include "impl/reflection.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

StructuralKeyObj::StructuralKeyObj(Any k) : key(std::move(k)) {
  hash_i64 = static_cast<int64_t>(SHash(*key.raw(), false, false));
}

namespace structural_key {
namespace {

const StructuralKeyObj* KeyArg(const TVMFFIAny& v, const char* func, int index) {
  if (v.type_index != StructuralKeyObj::RuntimeTypeIndex()) {
    detail::ThrowArgumentMismatch(func, index, StructuralKeyObj::kTypeKey, &v);
  }
  return static_cast<const StructuralKeyObj*>(Object::FromHandle(v.v_obj));
}

// The error being handled as an owning Any (the hooks never throw).
TVMFFIAny CurrentErrorAny() noexcept {
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  SetRaisedFromCurrentException();
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  if (h != nullptr) {
    out.type_index = kTVMFFIError;
    out.v_obj = static_cast<TVMFFIObject*>(h);
  }
  return out;
}

TVMFFIAny HashHook(const TVMFFIAny* v) noexcept {
  try {
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    out.type_index = kTVMFFIInt;
    out.v_int64 = KeyArg(*v, "ffi.StructuralKey.__any_hash__", 0)->hash_i64;
    return out;
  } catch (...) {
    return CurrentErrorAny();
  }
}

TVMFFIAny EqualHook(const TVMFFIAny* a, const TVMFFIAny* b) noexcept {
  try {
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    out.type_index = kTVMFFIBool;
    out.v_int64 = Equal(*a, *b);
    return out;
  } catch (...) {
    return CurrentErrorAny();
  }
}

Any NativeHook(void* fn) {
  TVMFFIAny v;
  std::memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = fn;
  return Any(AnyView::FromRaw(v));
}

const bool kRegistered = RunAtLoad([] {
  ObjectDef<StructuralKeyObj>("A key compared by structural equality (hash cached).")
      .Attr("__ffi_type_final__", Any(true))
      .ReadOnlyField("key", &StructuralKeyObj::key)
      .ReadOnlyField("hash_i64", &StructuralKeyObj::hash_i64)
      .Init<Any>("Constructor that takes any key and computes its structural hash")
      .Attr("__any_hash__", NativeHook(reinterpret_cast<void*>(&HashHook)))
      .Attr("__any_equal__", NativeHook(reinterpret_cast<void*>(&EqualHook)));
});

}  // namespace

Any Make(Any key) { return Any(ObjectRef(MakeObject<StructuralKeyObj>(std::move(key)))); }

bool Equal(const TVMFFIAny& lhs, const TVMFFIAny& rhs) {
  const StructuralKeyObj* a = KeyArg(lhs, "ffi.StructuralKeyEqual", 0);
  const StructuralKeyObj* b = KeyArg(rhs, "ffi.StructuralKeyEqual", 1);
  if (a == b) return true;
  if (a->hash_i64 != b->hash_i64) return false;
  return SEqual(*a->key.raw(), *b->key.raw(), false, false);
}

namespace {

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralKey", [](Any key) { return Make(std::move(key)); });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralKeyEqual",
                       [](AnyView lhs, AnyView rhs) { return Equal(*lhs.raw(), *rhs.raw()); });

}  // namespace
}  // namespace structural_key
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

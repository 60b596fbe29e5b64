// ffi.StructuralKey (see structural_key.h): the type, its container-key
// hooks, and the globals ffi.StructuralKey(key) and
// ffi.StructuralKeyEqual(lhs, rhs).
#include "structural_key.h"

#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

static_assert(sizeof(StructuralKeyObj) == 48, "ffi.StructuralKey: header, key, hash_i64");
static_assert(sizeof(StructuralKeyObj) == sizeof(::tvm::ffi::StructuralKeyObj),
              "ffi.StructuralKey: the library's class and the public one share one layout");

StructuralKeyObj::StructuralKeyObj(Any k) : key(std::move(k)) {
  hash_i64 = static_cast<int64_t>(SHash(*AnyUnsafe::TVMFFIAnyPtrFromAny(key), false, false));
}

namespace structural_key {
namespace {

namespace refl = ::tvm::ffi::reflection;

const StructuralKeyObj* KeyArg(const TVMFFIAny& v, const char* func, int index) {
  if (v.type_index != StructuralKeyObj::RuntimeTypeIndex()) {
    TVM_FFI_THROW(TypeError) << "In function " << func << ": argument " << (index + 1)
                             << ": expected " << StructuralKeyObj::_type_key << ", got "
                             << TypeIndexToDisplayName(v.type_index);
  }
  return reinterpret_cast<const StructuralKeyObj*>(v.v_obj);
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

const bool kRegistered = RegisterAtLoad([] {
  refl::ObjectDef<StructuralKeyObj>("A key compared by structural equality (hash cached).")
      .def_ro("key", &StructuralKeyObj::key)
      .def_ro("hash_i64", &StructuralKeyObj::hash_i64)
      .def(refl::init<Any>(), "Constructor that takes any key and computes its structural hash")
      .def_type_attr("__any_hash__", reinterpret_cast<void*>(&HashHook))
      .def_type_attr("__any_equal__", reinterpret_cast<void*>(&EqualHook));
});

}  // namespace

StructuralKeyRef Make(Any key) { return StructuralKeyRef(make_object<StructuralKeyObj>(std::move(key))); }

bool Equal(const TVMFFIAny& lhs, const TVMFFIAny& rhs) {
  const StructuralKeyObj* a = KeyArg(lhs, "ffi.StructuralKeyEqual", 0);
  const StructuralKeyObj* b = KeyArg(rhs, "ffi.StructuralKeyEqual", 1);
  if (a == b) return true;
  if (a->hash_i64 != b->hash_i64) return false;
  return SEqual(*AnyUnsafe::TVMFFIAnyPtrFromAny(a->key), *AnyUnsafe::TVMFFIAnyPtrFromAny(b->key),
                false, false);
}

namespace {

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralKey", [](Any key) { return Make(std::move(key)); });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralKeyEqual", [](AnyView lhs, AnyView rhs) {
  return Equal(lhs.CopyToTVMFFIAny(), rhs.CopyToTVMFFIAny());
});

}  // namespace
}  // namespace structural_key
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

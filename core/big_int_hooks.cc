// The container-key hooks of ffi.BigInt: its "__any_hash__" and
// "__any_equal__" type attributes, so two BigInts holding the same integer
// are one Map/Dict key and structurally equal (AnyKeyEqual/AnyKeyHash and
// the structural walks defer to these hooks for objects).
//
// Each hook is a native function pointer (an opaque-pointer entry of the
// column): it takes the values by address, never throws, and returns an
// owning value, an int (hash) or a bool (equality), or an Error object when
// it is given a value that is not a BigInt.
#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <cstring>
#include <string>

#include "big_int_internal.h"
#include "global_def.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// An owning Any holding a TypeError naming the offending type index.
TVMFFIAny NotABigInt(const char* hook, const TVMFFIAny& v) noexcept {
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  try {
    Error e("TypeError",
            std::string("ffi.BigInt ") + hook + " expects ffi.BigInt values, got type index " +
                std::to_string(v.type_index),
            std::string());
    out = AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::move(e)));
  } catch (...) {
    // Out of memory while reporting: an Error cannot be made; None is not an
    // int, so the caller still sees a failure.
  }
  return out;
}

TVMFFIAny BigIntAnyHash(const TVMFFIAny* v) noexcept {
  if (v->type_index != kTVMFFIBigInt) return NotABigInt("__any_hash__", *v);
  TVMFFIByteArray words = BigIntContent(v);
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  out.type_index = kTVMFFIInt;
  out.v_uint64 = StableHashBytes(words.data, words.size);
  return out;
}

// BigInts are minimal (big_int_internal.h), so one integer has one word
// sequence: equal integers have equal words.
TVMFFIAny BigIntAnyEqual(const TVMFFIAny* a, const TVMFFIAny* b) noexcept {
  if (a->type_index != kTVMFFIBigInt) return NotABigInt("__any_equal__", *a);
  if (b->type_index != kTVMFFIBigInt) return NotABigInt("__any_equal__", *b);
  TVMFFIByteArray x = BigIntContent(a);
  TVMFFIByteArray y = BigIntContent(b);
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  out.type_index = kTVMFFIBool;
  out.v_int64 = x.size == y.size && std::memcmp(x.data, y.data, x.size) == 0;
  return out;
}

void RegisterHook(const char* name, void* fn) {
  TVMFFIAny value;
  std::memset(&value, 0, sizeof(value));
  value.type_index = kTVMFFIOpaquePtr;
  value.v_ptr = fn;
  type_registry::RegisterAttr(kTVMFFIBigInt, name, value);
}

const bool kRegistered = RegisterAtLoad([] {
  RegisterHook("__any_hash__", reinterpret_cast<void*>(&BigIntAnyHash));
  RegisterHook("__any_equal__", reinterpret_cast<void*>(&BigIntAnyEqual));
  // A final type (no subclasses), as upstream publishes it.
  TVMFFIAny yes;
  std::memset(&yes, 0, sizeof(yes));
  yes.type_index = kTVMFFIBool;
  yes.v_int64 = 1;
  type_registry::RegisterAttr(kTVMFFIBigInt, "__ffi_type_final__", yes);
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

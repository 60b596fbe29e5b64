// Sentinels: MISSING and KWARGS, two bare ffi.Object instances.
//
// MISSING (ffi.GetInvalidObject) means "no value" in lookups such as
// ffi.MapGetItemOrMissing; KWARGS (ffi.GetKwargsObject) starts keyword
// arguments in a packed call.  Each is one object for the whole process.
#ifndef TVM_FFI_CORE_IMPL_SENTINEL_H_
#define TVM_FFI_CORE_IMPL_SENTINEL_H_

#include <cstring>

#include "any.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace detail {
// Calls a no-argument global that returns a sentinel and keeps the result
// for the process (sentinels are never freed).
inline TVMFFIObjectHandle FetchSentinel(const char* global_name) {
  TVMFFIByteArray name;
  name.data = global_name;
  name.size = std::strlen(global_name);
  TVMFFIObjectHandle f = nullptr;
  if (TVMFFIFunctionGetGlobal(&name, &f) != 0) ThrowRaised(-1);
  if (f == nullptr) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "global function `" << global_name << "` is not registered";
  }
  TVMFFIAny result;
  AnyZero(&result);
  int rc = TVMFFIFunctionCall(f, nullptr, 0, &result);
  TVMFFIObjectDecRef(f);
  if (rc != 0) ThrowRaised(rc);
  if (result.type_index != kTVMFFIObject) {
    AnyRelease(&result);
    TVM_FFI_IMPL_THROW(InternalError) << "`" << global_name << "` did not return an ffi.Object";
  }
  return result.v_obj;
}
}  // namespace detail

// The process-wide sentinels, borrowed (they live until exit).  Usable from
// any library: they go through the exported global functions.
inline TVMFFIObjectHandle MissingSentinel() {
  static TVMFFIObjectHandle h = detail::FetchSentinel("ffi.GetInvalidObject");
  return h;
}
inline TVMFFIObjectHandle KwargsSentinel() {
  static TVMFFIObjectHandle h = detail::FetchSentinel("ffi.GetKwargsObject");
  return h;
}

// Whether a value is the MISSING sentinel.
inline bool IsMissing(const TVMFFIAny& v) {
  return v.type_index == kTVMFFIObject && v.v_obj == MissingSentinel();
}


}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_SENTINEL_H_

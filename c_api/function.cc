// Exported: function objects, calls and the global registry.
#include <string>
#include <string_view>

#include "../core/duplicate_registration.h"
#include "../core/function_internal.h"
#include "../core/object_internal.h"
#include "../core/string_internal.h"
#include "../core/type_registry.h"
#include "safe_call.h"

namespace core = ::tvm::ffi::details::core;
using core::ByteArrayView;
using core::type_registry::IsUsableValue;

namespace {

int NotAFunction(TVMFFIObjectHandle func) noexcept {
  try {
    TVM_FFI_CORE_THROW(TypeError)
        << "TVMFFIFunctionCall: the callee is "
        << core::TypeIndexToDisplayName(TVMFFIObjectGetTypeIndex(func)) << ", not ffi.Function";
  } catch (...) {
    return tvm::ffi::details::core::SetRaisedFromCurrentException();
  }
}

// The arguments of a call are usable values (IsUsableValue); each is a
// table read, done before the callee sees them.
bool ArgsUsable(const TVMFFIAny* args, int32_t num_args) noexcept {
  for (int32_t i = 0; i < num_args; ++i) {
    if (!IsUsableValue(args[i])) return false;
  }
  return true;
}

// The error for a call whose arguments ArgsUsable (or the checks before it)
// refused.
__attribute__((noinline)) int BadCall(const TVMFFIAny* args, int32_t num_args,
                                      const TVMFFIAny* result) noexcept {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  const char* fn = "TVMFFIFunctionCall";
  if (num_args < 0) {
    TVM_FFI_CORE_THROW(ValueError) << fn << ": num_args must not be negative, got " << num_args;
  }
  if (args == nullptr && num_args != 0) {
    TVM_FFI_CORE_THROW(ValueError) << fn << ": args is NULL but num_args is " << num_args;
  }
  if (result == nullptr) TVM_FFI_CORE_THROW(ValueError) << fn << ": result must not be NULL";
  for (int32_t i = 0; i < num_args; ++i) {
    core::type_registry::CheckUsableValue(
        args[i], (std::string(fn) + ": argument " + std::to_string(i)).c_str());
  }
  TVM_FFI_CORE_SAFE_CALL_END();
}

}  // namespace

extern "C" {

TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(safe_call);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::MakeCFunction(self, safe_call, deleter);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  std::string_view key = ByteArrayView(name, "TVMFFIFunctionGetGlobal: name");
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out);
  *out = core::GlobalFunctionFind(key);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  std::string key(ByteArrayView(name, "TVMFFIFunctionSetGlobal: name"));
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(f);
  if (!allow_override &&
      core::duplicate_registration::SkipGlobalRepeat(key, __builtin_return_address(0))) {
    return 0;
  }
  core::GlobalFunctionSet(std::move(key), f, allow_override != 0, "", "",
                          kTVMFFIFieldFlagBitMaskIsStaticMethod);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(method_info);
  const char* fn = "TVMFFIFunctionSetGlobalFromMethodInfo";
  std::string name(ByteArrayView(&method_info->name, (fn + std::string(": name")).c_str()));
  std::string doc(ByteArrayView(&method_info->doc, (fn + std::string(": doc")).c_str()));
  std::string metadata(
      ByteArrayView(&method_info->metadata, (fn + std::string(": metadata")).c_str()));
  const TVMFFIAny& m = method_info->method;
  core::type_registry::CheckUsableValue(m, (fn + std::string(": method")).c_str());
  TVMFFIObjectHandle func = m.type_index >= kTVMFFIStaticObjectBegin ? m.v_obj : nullptr;
  if (!allow_override &&
      core::duplicate_registration::SkipGlobalRepeat(name, __builtin_return_address(0))) {
    return 0;
  }
  core::GlobalFunctionSet(std::move(name), func, allow_override != 0, std::move(doc),
                          std::move(metadata), method_info->flags);
  TVM_FFI_CORE_SAFE_CALL_END();
}

// Kept as a real frame (not a tail call): backtraces stop at this symbol.
TVM_FFI_DLL __attribute__((noinline)) int TVMFFIFunctionCall(TVMFFIObjectHandle func,
                                                             TVMFFIAny* args, int32_t num_args,
                                                             TVMFFIAny* result) {
  if (func == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "TVMFFIFunctionCall: func must not be NULL");
    return -1;
  }
  if (TVMFFIObjectGetTypeIndex(func) != kTVMFFIFunction) return NotAFunction(func);
  if (result == nullptr || num_args < 0 || (args == nullptr && num_args != 0) ||
      !ArgsUsable(args, num_args)) {
    return BadCall(args, num_args, result);
  }
  // The result is not checked here (it would cost every call a few
  // instructions more): the callees that are foreign code, the functions of
  // loaded modules, check their own results (core/module.cc).
  int rc = TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
  __asm__ volatile("" ::: "memory");
  return rc;
}

}  // extern "C"

// Exported: function objects, calls and the global registry.
#include <string>
#include <string_view>

#include <tvmffi/function.h>
#include "../core/duplicate_registration.h"
#include "../core/function_internal.h"
#include "safe_call.h"

using tvmffi::core::Object;
using tvmffi::core::ObjectPtr;

namespace {

std::string_view View(const TVMFFIByteArray* b) {
  return b->size == 0 ? std::string_view() : std::string_view(b->data, b->size);
}

int NotAFunction(TVMFFIObjectHandle func) noexcept {
  try {
    TVMFFI_THROW(TypeError) << "TVMFFIFunctionCall: the callee is "
                            << tvmffi::core::TypeIndexToDisplayName(TVMFFIObjectGetTypeIndex(func))
                            << ", not ffi.Function";
  } catch (...) {
    return tvmffi::core::SetRaisedFromCurrentException();
  }
}

}  // namespace

extern "C" {

TVM_FFI_DLL int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                                     void (*deleter)(void* self), TVMFFIObjectHandle* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(safe_call);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::MakeCFunction(self, safe_call, deleter).release_handle();
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(name);
  TVMFFI_CHECK_ARG_NOT_NULL(out);
  *out = tvmffi::core::GlobalFunctionFind(View(name)).release_handle();
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                        int allow_override) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(name);
  TVMFFI_CHECK_ARG_NOT_NULL(f);
  if (!allow_override && tvmffi::core::duplicate_registration::SkipGlobalRepeat(
                             std::string(View(name)), __builtin_return_address(0))) {
    return 0;
  }
  tvmffi::core::GlobalFunctionSet(std::string(View(name)), ObjectPtr<Object>::BorrowHandle(f),
                                  allow_override != 0, "", "",
                                  kTVMFFIFieldFlagBitMaskIsStaticMethod);
  TVMFFI_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info,
                                                      int allow_override) {
  TVMFFI_SAFE_CALL_BEGIN();
  TVMFFI_CHECK_ARG_NOT_NULL(method_info);
  const TVMFFIAny& m = method_info->method;
  ObjectPtr<Object> func;
  if (m.type_index >= kTVMFFIStaticObjectBegin) func = ObjectPtr<Object>::BorrowHandle(m.v_obj);
  if (!allow_override && tvmffi::core::duplicate_registration::SkipGlobalRepeat(
                             std::string(View(&method_info->name)), __builtin_return_address(0))) {
    return 0;
  }
  tvmffi::core::GlobalFunctionSet(std::string(View(&method_info->name)), std::move(func),
                                  allow_override != 0, std::string(View(&method_info->doc)),
                                  std::string(View(&method_info->metadata)), method_info->flags);
  TVMFFI_SAFE_CALL_END();
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
  int rc = TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
  __asm__ volatile("" ::: "memory");
  return rc;
}

}  // extern "C"

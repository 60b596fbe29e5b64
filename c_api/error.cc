// Exported: errors and the thread-local error slot.
#include <cstring>
#include <string>

#include "../core/backtrace.h"
#include "../core/error_internal.h"
#include "safe_call.h"

namespace core = ::tvm::ffi::details::core;

extern "C" {

TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  if (result == nullptr) return;
  *result = core::ErrorSlotTake();
}

TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  core::ErrorSlotSet(error);
}

TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  try {
    core::SetRaisedWithBacktrace(kind, message == nullptr ? std::string() : std::string(message));
  } catch (...) {  // the message copy ran out of memory: the slot stays as it was
  }
}

TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts) {
  try {
    std::string message;
    for (int32_t i = 0; message_parts != nullptr && i < num_parts; ++i) {
      if (message_parts[i] != nullptr) message += message_parts[i];
    }
    core::SetRaisedWithBacktrace(kind, message);
  } catch (...) {
  }
}

TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  if (out == nullptr) return -1;
  return core::CreateError(kind, message, backtrace, nullptr, nullptr, out);
}

TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) {
  if (out == nullptr) return -1;
  return core::CreateError(kind, message, backtrace, cause_chain, extra_context, out);
}

TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary) {
  static thread_local std::string buffer;
  static thread_local TVMFFIByteArray view;
  try {
    // 0 and 1 as upstream; 2 (ours) is kBacktraceCallerSegment.
    int mode = cross_ffi_boundary == core::kBacktraceCallerSegment
                   ? core::kBacktraceCallerSegment
                   : (cross_ffi_boundary != 0 ? core::kBacktraceCrossBoundary
                                              : core::kBacktraceStopAtBoundary);
    buffer = core::CaptureBacktrace(filename, lineno, func, mode);
  } catch (...) {
    buffer.clear();
  }
  view.data = buffer.data();
  view.size = buffer.size();
  return &view;
}

}  // extern "C"

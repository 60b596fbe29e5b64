// Exported: errors and the thread-local error slot.
#include <cstring>
#include <string>

#include "../core/backtrace.h"
#include "../core/error.h"
#include "safe_call.h"

using tvmffi::core::ErrorObj;
using tvmffi::core::MakeObject;

namespace {

std::string FromByteArray(const TVMFFIByteArray* b) {
  return b == nullptr || b->size == 0 ? std::string() : std::string(b->data, b->size);
}

// Makes an Error without touching the slot; -1 only when allocation fails.
int CreateError(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                const TVMFFIByteArray* backtrace, TVMFFIObjectHandle cause,
                TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) noexcept {
  try {
    *out = MakeObject<ErrorObj>(FromByteArray(kind), FromByteArray(message),
                                FromByteArray(backtrace), cause, extra_context)
               .release_handle();
    return 0;
  } catch (...) {
    *out = nullptr;
    return -1;
  }
}

}  // namespace

namespace tvmffi {
namespace core {

// Builds an error with a backtrace of the caller and stores it in the slot.
// If even that allocation fails the slot is left as it was.  Named in
// tvmffi::core so that the backtrace leaves it out with the other machinery.
static void SetRaisedWithBacktrace(const char* kind, std::string message) noexcept {
  std::string bt = CaptureBacktrace(nullptr, 0, nullptr, kBacktraceStopAtBoundary);
  TVMFFIByteArray k = {kind == nullptr ? "RuntimeError" : kind,
                       kind == nullptr ? 12 : std::strlen(kind)};
  TVMFFIByteArray m = {message.data(), message.size()};
  TVMFFIByteArray b = {bt.data(), bt.size()};
  TVMFFIObjectHandle err = nullptr;
  if (CreateError(&k, &m, &b, nullptr, nullptr, &err) != 0) return;
  ErrorSlotSet(err);
  TVMFFIObjectDecRef(err);
}

}  // namespace core
}  // namespace tvmffi

using tvmffi::core::SetRaisedWithBacktrace;

extern "C" {

TVM_FFI_DLL void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  if (result == nullptr) return;
  *result = tvmffi::core::ErrorSlotTake();
}

TVM_FFI_DLL void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  tvmffi::core::ErrorSlotSet(error);
}

TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  try {
    SetRaisedWithBacktrace(kind, message == nullptr ? std::string() : std::string(message));
  } catch (...) {
  }
}

TVM_FFI_DLL void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                                   int32_t num_parts) {
  try {
    std::string message;
    for (int32_t i = 0; message_parts != nullptr && i < num_parts; ++i) {
      if (message_parts[i] != nullptr) message += message_parts[i];
    }
    SetRaisedWithBacktrace(kind, std::move(message));
  } catch (...) {
  }
}

TVM_FFI_DLL int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                                  const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  if (out == nullptr) return -1;
  return CreateError(kind, message, backtrace, nullptr, nullptr, out);
}

TVM_FFI_DLL int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) {
  if (out == nullptr) return -1;
  return CreateError(kind, message, backtrace, cause_chain, extra_context, out);
}

TVM_FFI_DLL const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno,
                                                   const char* func, int cross_ffi_boundary) {
  static thread_local std::string buffer;
  static thread_local TVMFFIByteArray view;
  try {
    // 0 and 1 as upstream; 2 (ours) is kBacktraceCallerSegment.
    int mode = cross_ffi_boundary == tvmffi::core::kBacktraceCallerSegment
                   ? tvmffi::core::kBacktraceCallerSegment
                   : (cross_ffi_boundary != 0 ? tvmffi::core::kBacktraceCrossBoundary
                                              : tvmffi::core::kBacktraceStopAtBoundary);
    buffer = tvmffi::core::CaptureBacktrace(filename, lineno, func, mode);
  } catch (...) {
    buffer.clear();
  }
  view.data = buffer.data();
  view.size = buffer.size();
  return &view;
}

}  // extern "C"

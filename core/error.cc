// Errors: the Error object this library allocates and the thread-local slot.
#include "error_internal.h"

#include <cstring>

#include <tvm/ffi/container/array.h>

#include "backtrace.h"
#include "global_def.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

ErrorObj::ErrorObj(std::string kind, std::string message, std::string backtrace,
                   TVMFFIObjectHandle cause, TVMFFIObjectHandle extra_context)
    : kind_(std::move(kind)), message_(std::move(message)), backtrace_(std::move(backtrace)) {
  cell.update_backtrace = &ErrorObj::UpdateBacktrace;
  cell.cause_chain = cause;
  cell.extra_context = extra_context;
  if (cause != nullptr) TVMFFIObjectIncRef(cause);
  if (extra_context != nullptr) TVMFFIObjectIncRef(extra_context);
  SyncCell();
}

ErrorObj::~ErrorObj() {
  TVMFFIObjectDecRef(cell.cause_chain);
  TVMFFIObjectDecRef(cell.extra_context);
}

void ErrorObj::SyncCell() {
  cell.kind = TVMFFIByteArray{kind_.data(), kind_.size()};
  cell.message = TVMFFIByteArray{message_.data(), message_.size()};
  cell.backtrace = TVMFFIByteArray{backtrace_.data(), backtrace_.size()};
}

void ErrorObj::UpdateBacktrace(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                               int32_t update_mode) {
  // Called through a C function pointer: nothing may escape.  On
  // out-of-memory the backtrace is left as it was.
  ErrorObj* obj = static_cast<ErrorObj*>(static_cast<Object*>(self));
  try {
    std::string text = backtrace == nullptr || backtrace->size == 0
                           ? std::string()
                           : std::string(backtrace->data, backtrace->size);
    if (update_mode == kTVMFFIBacktraceUpdateModeAppend) {
      obj->backtrace_ += text;
    } else {
      obj->backtrace_ = std::move(text);
    }
    obj->SyncCell();
  } catch (...) {
  }
}

namespace {

// One strong reference to an Error, or nothing.  Released at thread exit.
struct ErrorSlot {
  TVMFFIObjectHandle error = nullptr;
  ~ErrorSlot() { TVMFFIObjectDecRef(error); }
};

ErrorSlot& ThisThreadSlot() {
  static thread_local ErrorSlot slot;
  return slot;
}

}  // namespace

void ErrorSlotSet(TVMFFIObjectHandle error) noexcept {
  if (error != nullptr) TVMFFIObjectIncRef(error);
  ErrorSlot& slot = ThisThreadSlot();
  TVMFFIObjectHandle old = slot.error;
  slot.error = error;
  TVMFFIObjectDecRef(old);  // after the swap: the deleter may raise again
}

TVMFFIObjectHandle ErrorSlotTake() noexcept {
  ErrorSlot& slot = ThisThreadSlot();
  TVMFFIObjectHandle h = slot.error;
  slot.error = nullptr;
  return h;
}

namespace {

// NULL is the empty string; data NULL with a size throws (the caller turns
// it into -1 without touching the slot).
std::string FromByteArray(const TVMFFIByteArray* b) {
  return b == nullptr ? std::string() : std::string(ByteArrayView(b, "error text"));
}

}  // namespace

int CreateError(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                const TVMFFIByteArray* backtrace, TVMFFIObjectHandle cause,
                TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) noexcept {
  try {
    *out = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
        make_object<ErrorObj>(FromByteArray(kind), FromByteArray(message),
                              FromByteArray(backtrace), cause, extra_context));
    return 0;
  } catch (...) {
    *out = nullptr;
    return -1;
  }
}

void SetRaisedWithBacktrace(const char* kind, const std::string& message) noexcept {
  try {
    // Skips this frame and the exported function that called it.
    std::string bt = CaptureBacktrace(nullptr, 0, nullptr, kBacktraceStopAtBoundary);
    TVMFFIByteArray k = {kind == nullptr ? "RuntimeError" : kind,
                         kind == nullptr ? 12 : std::strlen(kind)};
    TVMFFIByteArray m = {message.data(), message.size()};
    TVMFFIByteArray b = {bt.data(), bt.size()};
    TVMFFIObjectHandle err = nullptr;
    if (CreateError(&k, &m, &b, nullptr, nullptr, &err) != 0) return;
    ErrorSlotSet(err);
    TVMFFIObjectDecRef(err);
  } catch (...) {
  }
}

void ErrorBuilder::Throw() const {
  // The backtrace is taken here, below the builder's machinery frames.
  const TVMFFIByteArray* bt = TVMFFIBacktrace(nullptr, 0, nullptr, 0);
  std::string message = stream_.str();
  TVMFFIByteArray k = {kind_, std::strlen(kind_)};
  TVMFFIByteArray m = {message.data(), message.size()};
  TVMFFIByteArray b = bt == nullptr ? TVMFFIByteArray{"", 0} : *bt;
  TVMFFIObjectHandle handle = nullptr;
  if (CreateError(&k, &m, &b, nullptr, nullptr, &handle) != 0) {
    throw std::bad_alloc();
  }
  throw ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
      ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
}

int SetRaisedFromCurrentException() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    TVMFFIErrorSetRaised(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(e));
  } catch (const std::bad_alloc&) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory");
  } catch (const std::exception& e) {
    TVMFFIErrorSetRaisedFromCStr("InternalError", e.what());
  } catch (...) {
    TVMFFIErrorSetRaisedFromCStr("InternalError", "unknown C++ exception");
  }
  return -1;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// ---------------------------------------------------------------------------
// The frame cache, for tests and benchmarks (not a stable API).


namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// [hits, misses, size] of the per-address frame cache.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.BacktraceCacheStats", []() {
  BacktraceCacheStats s = GetBacktraceCacheStats();
  Array<int64_t> out;
  out.push_back(static_cast<int64_t>(s.hits));
  out.push_back(static_cast<int64_t>(s.misses));
  out.push_back(static_cast<int64_t>(s.size));
  return out;
});

// Empties the cache, zeroes its counters and has the DWARF reader read the
// process's list of libraries again.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.BacktraceCacheClear", []() {
  ClearBacktraceCache();
  ForgetUnloadedLibraries();
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

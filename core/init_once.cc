// One-time initialisation of a handle, thread-safe.
#include "init_once.h"

#include <atomic>
#include <mutex>

#include "error_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

namespace {

std::mutex& InitMutex() {
  static std::mutex* mutex = new std::mutex();  // outlives every static user
  return *mutex;
}

std::atomic<void*>& AsAtomic(void** addr) {
  static_assert(sizeof(std::atomic<void*>) == sizeof(void*), "atomic pointer layout");
  return *reinterpret_cast<std::atomic<void*>*>(addr);
}

}  // namespace

int HandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  if (handle_addr == nullptr || init_func == nullptr) {
    TVM_FFI_CORE_THROW(ValueError)
        << "TVMFFIHandleInitOnce: handle_addr and init_func must not be NULL";
  }
  if (AsAtomic(handle_addr).load(std::memory_order_acquire) != nullptr) return 0;
  std::lock_guard<std::mutex> lock(InitMutex());
  if (AsAtomic(handle_addr).load(std::memory_order_relaxed) != nullptr) return 0;
  void* result = nullptr;
  int rc = init_func(&result);
  if (rc != 0) return rc;
  if (result == nullptr) {
    TVM_FFI_CORE_THROW(RuntimeError)
        << "TVMFFIHandleInitOnce: init_func succeeded but produced NULL";
  }
  AsAtomic(handle_addr).store(result, std::memory_order_release);
  return 0;
}

int HandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  if (handle_addr == nullptr || deinit_func == nullptr) {
    TVM_FFI_CORE_THROW(ValueError)
        << "TVMFFIHandleDeinitOnce: handle_addr and deinit_func must not be NULL";
  }
  void* old = AsAtomic(handle_addr).exchange(nullptr, std::memory_order_acq_rel);
  return old != nullptr ? deinit_func(old) : 0;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

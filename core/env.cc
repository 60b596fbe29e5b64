// The environment's state: streams, allocators, host callbacks and symbol tables.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "env_internal.h"
#include "error_internal.h"
#include "module.h"
#include "tensor_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace env {
namespace {

uint64_t StreamKey(int32_t device_type, int32_t device_id) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(device_type)) << 32) |
         static_cast<uint32_t>(device_id);
}

// Per thread; never shared.
std::unordered_map<uint64_t, TVMFFIStreamHandle>& StreamTable() {
  thread_local std::unordered_map<uint64_t, TVMFFIStreamHandle> table;
  return table;
}

thread_local DLPackManagedTensorAllocator tls_allocator = nullptr;
// Meant to be set once at start-up; atomic so that a late write is still safe.
std::atomic<DLPackManagedTensorAllocator> global_allocator{nullptr};

// The SetError given to allocators: error_ctx is always NULL.
void ForwardAllocatorError(void* /*error_ctx*/, const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind != nullptr ? kind : "RuntimeError",
                               message != nullptr ? message : "");
}

// Host callbacks registered by a Python frontend (PyGILState_STATE is an int enum).
using CheckSignalsFn = int (*)();
using GILEnsureFn = int (*)();
using GILReleaseFn = void (*)(int);
std::atomic<CheckSignalsFn> host_check_signals{nullptr};
std::atomic<GILEnsureFn> host_gil_ensure{nullptr};
std::atomic<GILReleaseFn> host_gil_release{nullptr};

// Process tables.  Heap-allocated and never freed so that no destructor runs
// at exit while other libraries' objects may already be gone.
struct SymbolTables {
  std::mutex mutex;
  std::vector<std::pair<std::string, void*>> context_symbols;  // guarded by mutex
  std::unordered_map<std::string, void*> system_lib;           // guarded by mutex
};
SymbolTables& Tables() {
  static SymbolTables* tables = new SymbolTables();
  return *tables;
}

}  // namespace

TVMFFIStreamHandle SetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream) {
  if (device_type < 0 || device_id < 0) {
    TVM_FFI_CORE_THROW(ValueError) << "TVMFFIEnvSetStream: device_type and device_id must be "
                                "non-negative, got device_type="
                             << device_type << ", device_id=" << device_id;
  }
  TVMFFIStreamHandle& slot = StreamTable()[StreamKey(device_type, device_id)];
  TVMFFIStreamHandle previous = slot;
  slot = stream;
  return previous;
}

TVMFFIStreamHandle GetStream(int32_t device_type, int32_t device_id) noexcept {
  if (device_type < 0 || device_id < 0) return nullptr;
  const auto& table = StreamTable();
  auto it = table.find(StreamKey(device_type, device_id));
  return it == table.end() ? nullptr : it->second;
}

DLPackManagedTensorAllocator SetAllocator(DLPackManagedTensorAllocator allocator,
                                          bool write_to_global) {
  DLPackManagedTensorAllocator previous = tls_allocator;
  tls_allocator = allocator;
  if (write_to_global) global_allocator.store(allocator, std::memory_order_release);
  return previous;
}

DLPackManagedTensorAllocator GetAllocator() noexcept {
  if (tls_allocator != nullptr) return tls_allocator;
  return global_allocator.load(std::memory_order_acquire);
}

int TensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  DLPackManagedTensorAllocator allocator = GetAllocator();
  if (allocator == nullptr) {
    TVM_FFI_CORE_THROW(RuntimeError) << "TVMFFIEnvTensorAlloc: no DLPack tensor allocator is set "
                                  "(see TVMFFIEnvSetDLPackManagedTensorAllocator)";
  }
  DLManagedTensorVersioned* made = nullptr;
  TVMFFIObjectHandle stale = ErrorSlotTake();  // so that we can tell whether it raised
  TVMFFIObjectDecRef(stale);
  int rc = allocator(prototype, &made, nullptr, &ForwardAllocatorError);
  if (rc != 0) {
    TVMFFIObjectHandle raised = ErrorSlotTake();
    if (raised == nullptr) {
      TVM_FFI_CORE_THROW(RuntimeError) << "TVMFFIEnvTensorAlloc: the allocator failed with code "
                                       << rc << " without setting an error";
    }
    ErrorSlotSet(raised);
    TVMFFIObjectDecRef(raised);
    return rc;
  }
  if (made == nullptr) {
    TVM_FFI_CORE_THROW(RuntimeError) << "TVMFFIEnvTensorAlloc: the allocator reported success but "
                                  "returned no tensor";
  }
  try {
    *out = TensorFromDLPackVersioned(made, 0, false);
  } catch (...) {
    if (made->deleter != nullptr) made->deleter(made);  // ours to free: nobody else has it
    throw;
  }
  return 0;
}

void RegisterCAPI(const char* name, void* symbol) {
  std::string n = name;
  if (n == "PyErr_CheckSignals") {
    host_check_signals.store(reinterpret_cast<CheckSignalsFn>(symbol));
  } else if (n == "PyGILState_Ensure") {
    host_gil_ensure.store(reinterpret_cast<GILEnsureFn>(symbol));
  } else if (n == "PyGILState_Release") {
    host_gil_release.store(reinterpret_cast<GILReleaseFn>(symbol));
  } else {
    TVM_FFI_CORE_THROW(ValueError) << "TVMFFIEnvRegisterCAPI: unknown C API name `" << n
                             << "` (expected `PyErr_CheckSignals`, `PyGILState_Ensure` or "
                                "`PyGILState_Release`)";
  }
}

int CheckSignals() noexcept {
  CheckSignalsFn check = host_check_signals.load();
  if (check == nullptr) return 0;
  GILEnsureFn ensure = host_gil_ensure.load();
  GILReleaseFn release = host_gil_release.load();
  int rc;
  if (ensure != nullptr && release != nullptr) {
    int state = ensure();
    rc = check();
    release(state);
  } else {
    rc = check();  // no GIL helpers: the caller is expected to hold the GIL
  }
  if (rc == 0) return 0;
  // The exception itself stays pending in the host; this marker lets C code
  // that simply propagates -1 report it correctly.
  TVMFFIErrorSetRaisedFromCStr("EnvErrorAlreadySet",
                               "an error is pending in the host runtime (PyErr_CheckSignals)");
  return -1;
}

void RegisterContextSymbol(const char* name, void* symbol) {
  SymbolTables& t = Tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.context_symbols.emplace_back(name, symbol);
}

std::vector<std::pair<std::string, void*>> ContextSymbols() {
  SymbolTables& t = Tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.context_symbols;
}

void RegisterSystemLibSymbol(const char* name, void* symbol) {
  SymbolTables& t = Tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.system_lib.find(name);
  if (it != t.system_lib.end() && it->second != symbol) {
    std::fprintf(stderr,
                 "tvm_ffi: warning: system-library symbol \"%s\" re-registered with a different "
                 "address (%p replaces %p)\n",
                 name, symbol, it->second);
  }
  t.system_lib[name] = symbol;
}

void* LookupSystemLibSymbol(const std::string& name) {
  SymbolTables& t = Tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.system_lib.find(name);
  return it == t.system_lib.end() ? nullptr : it->second;
}

TVMFFIObjectHandle LookupFromImports(TVMFFIObjectHandle library_ctx, const char* name) {
  // library_ctx is what the loader wrote into `__tvm_ffi__library_ctx`: a
  // module handle, borrowed.
  return AsLibraryModule(library_ctx)->LookupFromImports(name);
}

}  // namespace env
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

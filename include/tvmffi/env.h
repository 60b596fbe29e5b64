// The environment: device streams, the DLPack allocator, host callbacks, symbols.
//
// Streams and the allocator are per thread; the symbol tables are the ones
// generated libraries use.
#ifndef TVMFFI_CORE_ENV_H_
#define TVMFFI_CORE_ENV_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <string>
#include <utility>
#include <vector>

#include "error.h"

namespace tvmffi {
namespace core {

// Sets the calling thread's stream for a device for the lifetime of the
// guard, then puts the previous one back.  Header-only over the C ABI.
class StreamGuard {
 public:
  StreamGuard(DLDevice device, TVMFFIStreamHandle stream) : device_(device) {
    int rc = TVMFFIEnvSetStream(device.device_type, device.device_id, stream, &previous_);
    if (rc != 0) ThrowRaised(rc);
  }
  ~StreamGuard() {
    TVMFFIEnvSetStream(device_.device_type, device_.device_id, previous_, nullptr);
  }
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  DLDevice device_;
  TVMFFIStreamHandle previous_ = nullptr;
};

// ---------------------------------------------------------------------------
// Library-internal (defined in env.cc, not exported).  Functions that can
// fail throw Error.
namespace env {

// Streams: a per-thread table keyed by (device_type, device_id).  Negative
// indices are a ValueError.  Returns the previous stream.
TVMFFIStreamHandle SetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream);
// NULL when never set (or for negative indices).
TVMFFIStreamHandle GetStream(int32_t device_type, int32_t device_id) noexcept;

// The allocator: thread-local first, then the process-wide fallback.
// Returns the previous thread-local allocator.
DLPackManagedTensorAllocator SetAllocator(DLPackManagedTensorAllocator allocator,
                                          bool write_to_global);
DLPackManagedTensorAllocator GetAllocator() noexcept;
// TVMFFIEnvTensorAlloc: 0 and a new reference in *out, or the allocator's
// own non-zero code (its error already in the slot).
int TensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);

// Host callbacks.
void RegisterCAPI(const char* name, void* symbol);
int CheckSignals() noexcept;

// Symbols pushed into every library loaded later (name, value), in order.
void RegisterContextSymbol(const char* name, void* symbol);
std::vector<std::pair<std::string, void*>> ContextSymbols();
// The system-library symbol table.
void RegisterSystemLibSymbol(const char* name, void* symbol);
void* LookupSystemLibSymbol(const std::string& name);

// TVMFFIEnvModLookupFromImports: a borrowed Function handle owned by a
// process-lifetime cache keyed by (library_ctx, name).  RuntimeError when
// the name is unknown.
TVMFFIObjectHandle LookupFromImports(TVMFFIObjectHandle library_ctx, const char* name);

}  // namespace env
}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_ENV_H_

// The environment's library-internal side (defined in env.cc, not exported):
// the per-thread stream table, the allocator, host callbacks and symbol tables.
#ifndef TVM_FFI_CORE_ENV_INTERNAL_H_
#define TVM_FFI_CORE_ENV_INTERNAL_H_

#include <string>
#include <utility>
#include <vector>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

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

// TVMFFIEnvModLookupFromImports: `library_ctx` is a module's handle (what
// the loader stored in `__tvm_ffi__library_ctx`).  Returns a Function handle
// borrowed from that module's cache.  RuntimeError when the name is unknown,
// TypeError when library_ctx is no module of this library.
TVMFFIObjectHandle LookupFromImports(TVMFFIObjectHandle library_ctx, const char* name);

}  // namespace env
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_ENV_INTERNAL_H_

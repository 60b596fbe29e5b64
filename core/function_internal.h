// Library-internal entry points of function.cc used by the C API.
#ifndef TVM_FFI_CORE_FUNCTION_INTERNAL_H_
#define TVM_FFI_CORE_FUNCTION_INTERNAL_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// A new reference to a Function around a C safe-call (TVMFFIFunctionCreate
// semantics).
TVMFFIObjectHandle MakeCFunction(void* self, TVMFFISafeCallType safe_call,
                                 void (*deleter)(void*));
// Registers `func` (borrowed; must be an ffi.Function) under `name`.
void GlobalFunctionSet(std::string name, TVMFFIObjectHandle func, bool allow_override,
                       std::string doc, std::string metadata, int64_t flags);
// A new reference to the global `name`; NULL when not registered.
TVMFFIObjectHandle GlobalFunctionFind(std::string_view name);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_FUNCTION_INTERNAL_H_

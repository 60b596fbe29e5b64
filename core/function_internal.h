// Library-internal entry points of function.cc used by the C API.
#ifndef TVMFFI_CORE_FUNCTION_INTERNAL_H_
#define TVMFFI_CORE_FUNCTION_INTERNAL_H_

#include <string>
#include <string_view>

#include <tvmffi/object.h>

namespace tvmffi {
namespace core {

// A Function around a C safe-call (TVMFFIFunctionCreate semantics).
ObjectPtr<Object> MakeCFunction(void* self, TVMFFISafeCallType safe_call,
                                void (*deleter)(void*));
// Registers `func` (must be an ffi.Function) under `name`.
void GlobalFunctionSet(std::string name, ObjectPtr<Object> func, bool allow_override,
                       std::string doc, std::string metadata, int64_t flags);
// Null when not registered.
ObjectPtr<Object> GlobalFunctionFind(std::string_view name);

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_FUNCTION_INTERNAL_H_

// The custom object allocator slot of v0.1.13 (TVMFFIGetCustomAllocator /
// TVMFFISetCustomAllocator).  Library-internal.
#ifndef TVMFFI_CORE_CUSTOM_ALLOCATOR_H_
#define TVMFFI_CORE_CUSTOM_ALLOCATOR_H_

#include <tvm/ffi/c_api.h>

namespace tvmffi {
namespace core {

// The installed allocator; the default one until another is set.
TVMFFICustomAllocator* GetCustomAllocator() noexcept;
// NULL restores the default.
void SetCustomAllocator(TVMFFICustomAllocator* allocator) noexcept;

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_CUSTOM_ALLOCATOR_H_

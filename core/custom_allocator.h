// The custom object allocator slot of v0.1.13 (TVMFFIGetCustomAllocator /
// TVMFFISetCustomAllocator).  Library-internal.
#ifndef TVM_FFI_CORE_CUSTOM_ALLOCATOR_H_
#define TVM_FFI_CORE_CUSTOM_ALLOCATOR_H_

#include <tvm/ffi/c_api.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// The installed allocator; the default one until another is set.
TVMFFICustomAllocator* GetCustomAllocator() noexcept;
// NULL restores the default.
void SetCustomAllocator(TVMFFICustomAllocator* allocator) noexcept;

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_CUSTOM_ALLOCATOR_H_

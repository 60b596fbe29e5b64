// The custom allocator slot and its default allocator.
#include "custom_allocator.h"

#include <atomic>
#include <cstdlib>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

namespace {

// The default allocator of v0.1.13: 16 bytes of prefix, the alloc header in
// the 8 bytes right before the body.  Installed for ABI compatibility only;
// the runtime never calls it (see TVMFFIGetCustomAllocator).
void DefaultDeleteSpace(void* body) { std::free(static_cast<char*>(body) - 16); }

void* DefaultAllocate(size_t size, size_t alignment, int32_t, void*) {
  if (alignment < 16) alignment = 16;
  void* base = nullptr;
  if (posix_memalign(&base, alignment, size + 16) != 0) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory");
    return nullptr;
  }
  char* body = static_cast<char*>(base) + 16;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body - sizeof(TVMFFIObjectAllocHeader))
      ->delete_space = &DefaultDeleteSpace;
  return body;
}

TVMFFICustomAllocator g_default_allocator = {&DefaultAllocate, nullptr};
// Atomic: Get and Set may race between threads.
std::atomic<TVMFFICustomAllocator*> g_allocator{&g_default_allocator};

}  // namespace

TVMFFICustomAllocator* GetCustomAllocator() noexcept {
  return g_allocator.load(std::memory_order_acquire);
}

void SetCustomAllocator(TVMFFICustomAllocator* allocator) noexcept {
  g_allocator.store(allocator == nullptr ? &g_default_allocator : allocator,
                    std::memory_order_release);
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// Objects: the death of an object (with deferred release of deep chains) and
// type names in messages.
#include <tvm/ffi/c_api.h>

#include <cstdlib>
#include <string>

#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// Deleting an object releases what it holds, which may kill more objects
// from inside the deleter: a chain of a million nested arrays would nest a
// million deleters.  So, as CPython's trashcan does, a thread that is already
// kMaxReleaseDepth deaths deep does not run the deleter: it queues the
// object, and the outermost ReleaseDeadObject on the stack runs the queued
// deleters (each starting at depth 1 again) before it returns.  Every object
// is therefore destroyed exactly once, on the thread that dropped its last
// reference, before the outermost DecRef returns.
//
// The state is a thread_local POD: no constructor and no destructor, so no
// TLS guard on the hot path and it still works during thread exit.  If the
// queue cannot grow (out of memory) the deleter runs at once, as if there
// were no limit.
struct DeferredDeath {
  TVMFFIObject* object;
  int flags;
};
struct ReleaseState {
  int32_t depth;
  size_t size;
  size_t capacity;
  DeferredDeath* items;
};
thread_local ReleaseState release_state{};

void CallDeleter(TVMFFIObject* obj, int flags) {
  void (*deleter)(void*, int) = TVM_FFI_OBJECT_DELETER(obj);
  if (deleter != nullptr) deleter(obj, flags);
}

void Destroy(TVMFFIObject* obj, int flags) {
  CallDeleter(obj, flags);
  if (flags == kTVMFFIObjectDeleterFlagBitMaskStrong) ObjectDecWeakRef(obj);
}

// Queues a death; false when the queue cannot grow.
bool Defer(ReleaseState& st, TVMFFIObject* obj, int flags) {
  if (st.size == st.capacity) {
    size_t cap = st.capacity == 0 ? 16 : st.capacity * 2;
    void* grown = std::realloc(st.items, cap * sizeof(DeferredDeath));
    if (grown == nullptr) return false;
    st.items = static_cast<DeferredDeath*>(grown);
    st.capacity = cap;
  }
  st.items[st.size++] = DeferredDeath{obj, flags};
  return true;
}

// Runs the queued deaths (and those they queue) at depth 1, then frees the
// queue so that an idle thread holds no memory.
void DrainDeferred(ReleaseState& st) {
  while (st.size != 0) {
    DeferredDeath d = st.items[--st.size];
    Destroy(d.object, d.flags);
  }
  std::free(st.items);
  st.items = nullptr;
  st.capacity = 0;
}

}  // namespace

void ReleaseDeadObject(TVMFFIObject* obj, int flags) noexcept {
  ReleaseState& st = release_state;
  if (st.depth >= kMaxReleaseDepth && Defer(st, obj, flags)) return;
  ++st.depth;
  Destroy(obj, flags);
  if (st.depth == 1 && st.size != 0) DrainDeferred(st);
  --st.depth;
}

std::string TypeIndexToDisplayName(int32_t type_index) {
  switch (type_index) {
    case kTVMFFIRawStr:
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return "str";
    case kTVMFFIByteArrayPtr:
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      return "bytes";
    default:
      break;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) {
    TVMFFIObjectHandle ignored = nullptr;  // GetTypeInfo raised; drop it
    TVMFFIErrorMoveFromRaised(&ignored);
    TVMFFIObjectDecRef(ignored);
    return "<unknown type " + std::to_string(type_index) + ">";
  }
  return std::string(info->type_key.data, info->type_key.size);
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

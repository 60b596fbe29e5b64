// Objects, library-internal side: the reference counting behind
// TVMFFIObjectIncRef/DecRef (a death nested too deep on one thread is
// deferred, so freeing a long chain cannot overflow the stack) and the names
// of type indices in messages.  Implemented in object.cc.
//
// The counting itself is inline: IncRef and DecRef are on every hot path.
// Only the death of an object leaves the header.
#ifndef TVM_FFI_CORE_OBJECT_INTERNAL_H_
#define TVM_FFI_CORE_OBJECT_INTERNAL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// How many object deaths may nest on one thread's stack before further ones
// are deferred (see ReleaseDeadObject).
constexpr int32_t kMaxReleaseDepth = 64;

// Destroys an object whose last strong reference is gone.  `flags` is
// kTVMFFIObjectDeleterFlagBitMaskBoth (no weak reference left either: the
// deleter destroys and frees) or ...Strong (the deleter destroys, then the
// weak reference all strong ones shared is dropped).  A thread already
// kMaxReleaseDepth deaths deep queues the object instead; the outermost
// death on the stack runs the queue before it returns.
void ReleaseDeadObject(TVMFFIObject* obj, int flags) noexcept;

// Writes the header of a new object: one strong reference, the one weak
// reference all strong ones share, its type and its deleter.
inline void InitObjectHeader(TVMFFIObject* obj, int32_t type_index,
                             void (*deleter)(void*, int)) noexcept {
  obj->combined_ref_count = kCombinedRefCountBothOne;
  obj->type_index = type_index;
  obj->zero_padding = 0;
  TVM_FFI_OBJECT_DELETER(obj) = deleter;
}

// One more strong reference (the caller holds one).
inline void ObjectIncRef(TVMFFIObject* obj) noexcept {
  __atomic_fetch_add(&obj->combined_ref_count, kCombinedRefCountStrongOne, __ATOMIC_RELAXED);
}

// One strong reference less; the last one destroys the object.  The object
// dies through ReleaseDeadObject, never by calling its deleter here: a
// container's deleter releases its elements through this function again,
// and ReleaseDeadObject bounds how deep that nests.
inline void ObjectDecRef(TVMFFIObject* obj) noexcept {
  uint64_t before =
      __atomic_fetch_sub(&obj->combined_ref_count, kCombinedRefCountStrongOne, __ATOMIC_RELEASE);
  if (before == kCombinedRefCountBothOne) {
    AcquireBeforeDelete(&obj->combined_ref_count);
    ReleaseDeadObject(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
  } else if ((before & kCombinedRefCountMaskUInt32) == kCombinedRefCountStrongOne) {
    AcquireBeforeDelete(&obj->combined_ref_count);
    ReleaseDeadObject(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
  }
}

// One more weak reference.
inline void ObjectIncWeakRef(TVMFFIObject* obj) noexcept {
  __atomic_fetch_add(&obj->combined_ref_count, kCombinedRefCountWeakOne, __ATOMIC_RELAXED);
}

// One weak reference less; the last one frees the memory (the strong side
// is already gone).
inline void ObjectDecWeakRef(TVMFFIObject* obj) noexcept {
  uint64_t before =
      __atomic_fetch_sub(&obj->combined_ref_count, kCombinedRefCountWeakOne, __ATOMIC_RELEASE);
  if (before == kCombinedRefCountWeakOne) {
    AcquireBeforeDelete(&obj->combined_ref_count);
    void (*deleter)(void*, int) = TVM_FFI_OBJECT_DELETER(obj);
    if (deleter != nullptr) deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
  }
}

// Adds a strong reference if the object is still alive.
inline bool ObjectTryPromoteWeak(TVMFFIObject* obj) noexcept {
  uint64_t seen = __atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED);
  while ((seen & kCombinedRefCountMaskUInt32) != 0) {
    if (__atomic_compare_exchange_n(&obj->combined_ref_count, &seen,
                                    seen + kCombinedRefCountStrongOne, true, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED)) {
      return true;
    }
  }
  return false;
}

// The name of a type index as error messages show it: "str" and "bytes" for
// every string form, else the registered type key ("int", "ffi.Array", ...),
// or "<unknown type N>".
std::string TypeIndexToDisplayName(int32_t type_index);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_OBJECT_INTERNAL_H_

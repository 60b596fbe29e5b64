// Writing and copying raw TVMFFIAny values without store-forwarding stalls.
//
// A CPU serves a load from a store still in flight only when one store
// covers the whole load.  A 16-byte copy of a value whose fields were just
// written one by one (4-byte tag, 8-byte payload) therefore waits until those
// stores reach the cache: over ten cycles, more than the rest of a typed
// call.  So the layer writes every value field by field, completely (the
// padding word too: every byte not meaningful for the type is zero), and
// copies values field by field, never as one block.
#ifndef TVM_FFI_CORE_IMPL_ANY_RAW_H_
#define TVM_FFI_CORE_IMPL_ANY_RAW_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstring>

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace detail {

// Writes a complete value: tag, padding word (or small-string length) and
// the 8 payload bytes.
inline void SetRaw(TVMFFIAny* out, int32_t type_index, uint64_t payload, uint32_t aux = 0) {
  out->type_index = type_index;
  out->zero_padding = aux;
  out->v_uint64 = payload;
}

// Writes a complete value whose payload is a pointer (an object header, a
// C string, ...); the upper half is zero where pointers are 32 bits.
inline void SetRawPtr(TVMFFIAny* out, int32_t type_index, const void* ptr) {
  SetRaw(out, type_index, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ptr)));
}

// The payload word of a value shorter than 8 bytes, zero-extended.
template <typename T>
inline uint64_t PayloadOf(const T& value) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "payload fits in 8 bytes");
  uint64_t word = 0;
  std::memcpy(&word, &value, sizeof(T));
  return word;
}

// Copies a value field by field (see the top of this file).
inline void CopyRaw(TVMFFIAny* dst, const TVMFFIAny* src) {
  dst->type_index = src->type_index;
  dst->zero_padding = src->zero_padding;
  dst->v_uint64 = src->v_uint64;
}

// Sets a value to None (all 16 bytes zero).
inline void SetNone(TVMFFIAny* out) { SetRaw(out, kTVMFFINone, 0); }

}  // namespace detail
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ANY_RAW_H_

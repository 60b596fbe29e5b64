// Container-key equality and hashing of values (spec §5), and key rendering:
// forwarders to core/map_table.h.
#ifndef TVM_FFI_CORE_IMPL_ANY_EQUAL_H_
#define TVM_FFI_CORE_IMPL_ANY_EQUAL_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "../map_table.h"
#include "any.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace detail {

// The type-attribute column `name` ("__any_hash__", "__any_equal__").  The
// library creates both at start-up, so the pointer is stable and cached by
// the callers; the column's data and size are re-read on every use.
inline const TVMFFITypeAttrColumn* KeyAttrColumn(const char* name) {
  TVMFFIByteArray attr_name{name, std::strlen(name)};
  return TVMFFIGetTypeAttrColumn(&attr_name);
}

// The entry of `column` for `type_index`, or nullptr when there is none.
inline const TVMFFIAny* KeyAttrEntry(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == nullptr) return nullptr;
  int32_t offset = type_index - column->begin_index;
  if (offset < 0 || offset >= column->size) return nullptr;
  const TVMFFIAny* entry = &column->data[offset];
  return entry->type_index == kTVMFFINone ? nullptr : entry;
}

}  // namespace detail

// Container-key equality (core::MapKeyEqual, spec §5).
inline bool AnyKeyEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
  return ::tvm::ffi::detail::core::MapKeyEqual(a, b);
}

namespace detail {

// apache-tvm-ffi's byte hash (core::MapHashBytes).
inline uint64_t HashBytes(const char* data, size_t size) {
  return ::tvm::ffi::detail::core::MapHashBytes(data, size);
}

}  // namespace detail

// The key hash of apache-tvm-ffi (core::MapKeyHash), consistent with
// AnyKeyEqual.
inline uint64_t AnyKeyHash(const TVMFFIAny& v) { return ::tvm::ffi::detail::core::MapKeyHash(v); }

// A key as written in KeyError messages (core::RenderMapKey).
inline std::string RenderKey(const TVMFFIAny& v) { return ::tvm::ffi::detail::core::RenderMapKey(v); }

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ANY_EQUAL_H_

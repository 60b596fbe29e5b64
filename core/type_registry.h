// The type registry: keys, indices, ancestry, fields, methods, metadata, attributes.
#ifndef TVM_FFI_CORE_TYPE_REGISTRY_H_
#define TVM_FFI_CORE_TYPE_REGISTRY_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// All functions are thread-safe (one mutex around mutation; entries never
// move once created, so TVMFFITypeInfo pointers stay valid for the process).
// Errors are thrown as core::Error.
namespace type_registry {

// TVMFFITypeGetOrAllocIndex semantics (spec §8.1): a registered key returns
// its index; parent_index -2 queries (-2 when unknown).  Object types (static
// index >= 64, or allocated) need a dotted key "ns.Name" (ValueError).
// Static indices must lie in [0, 128) and be free; dynamic ones start at
// 128.  Invalid arguments are ValueError, conflicts and exhaustion
// RuntimeError, each naming the key.
int32_t GetOrAllocIndex(const std::string& key, int32_t static_index, int32_t depth,
                        int32_t num_child_slots, bool can_overflow, int32_t parent_index);
// nullptr when the index is unknown.
const TVMFFITypeInfo* GetTypeInfo(int32_t type_index) noexcept;
std::optional<int32_t> KeyToIndex(const std::string& key);
std::vector<std::string> ListTypeKeys();

// Strings are copied; the default (HasDefault) and a Function setter
// (SetterIsFunctionObj) are retained.  A duplicate name on the same type is
// InternalError.
void RegisterField(int32_t type_index, const TVMFFIFieldInfo& info);
// `info.method` must be a Function (TypeError); it is retained.
void RegisterMethod(int32_t type_index, const TVMFFIMethodInfo& info);
// Once per type; a second call is RuntimeError.
void RegisterMetadata(int32_t type_index, const TVMFFITypeMetadata& metadata);
// Stores an owned copy; a second non-None value is RuntimeError; None clears.
// type_index 0 only creates the column.
void RegisterAttr(int32_t type_index, const std::string& name, const TVMFFIAny& value);
// nullptr when the column was never created.
const TVMFFITypeAttrColumn* GetAttrColumn(const std::string& name) noexcept;

// Whether a value handed in through the C ABI (or returned by foreign code)
// can be used at all: its type index is registered, and an object type
// carries a non-NULL pointer.  Inline for the indices registered from the
// start (the value types and the static object types), a lock-free table
// read for the others: it runs on every argument of TVMFFIFunctionCall.
bool IsUsableDynamicValue(const TVMFFIAny& v) noexcept;
inline bool IsUsableValue(const TVMFFIAny& v) noexcept {
  if (static_cast<uint32_t>(v.type_index) <= kTVMFFIUnchanged) return true;
  if (v.type_index >= kTVMFFIStaticObjectBegin && v.type_index < kTVMFFIStaticObjectEnd) {
    return v.v_obj != nullptr;
  }
  return IsUsableDynamicValue(v);
}
// ValueError "<what> has unknown type index <i>" or "<what> is a value of
// type index <i> (<key>) with a NULL object pointer".
[[noreturn]] void ThrowUnusableValue(const TVMFFIAny& v, const std::string& what);
inline void CheckUsableValue(const TVMFFIAny& v, const char* what) {
  if (!IsUsableValue(v)) ThrowUnusableValue(v, what);
}

}  // namespace type_registry
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_TYPE_REGISTRY_H_

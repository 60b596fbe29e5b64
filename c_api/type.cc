// Exported: the type registry and reflection.
#include <string>

#include "../core/duplicate_registration.h"
#include "../core/string_internal.h"
#include "../core/type_registry.h"
#include "safe_call.h"

namespace reg = ::tvm::ffi::details::core::type_registry;
namespace dup = ::tvm::ffi::details::core::duplicate_registration;
using ::tvm::ffi::details::core::ByteArrayToString;

namespace {

// A field or method name for the repeat check; the registry itself reports a
// malformed one.
std::string NameForRepeatCheck(const TVMFFIByteArray& b) {
  return b.data == nullptr ? std::string() : std::string(b.data, b.size);
}

}  // namespace

extern "C" {

TVM_FFI_DLL int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(type_key);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(out_tindex);
  std::string key = ByteArrayToString(*type_key, "type key");
  std::optional<int32_t> index = reg::KeyToIndex(key);
  if (!index.has_value()) {
    TVM_FFI_CORE_THROW(KeyError) << "type key `" << key << "` is not registered";
  }
  *out_tindex = *index;
  TVM_FFI_CORE_SAFE_CALL_END();
}

// Returns -1 with the error set where upstream exits the process.
TVM_FFI_DLL int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key,
                                              int32_t static_type_index, int32_t type_depth,
                                              int32_t num_child_slots,
                                              int32_t child_slots_can_overflow,
                                              int32_t parent_type_index) {
  int32_t index = -1;
  int rc = [&]() -> int {
    TVM_FFI_CORE_SAFE_CALL_BEGIN();
    if (type_key == nullptr) {
      TVM_FFI_CORE_THROW(ValueError) << "TVMFFITypeGetOrAllocIndex: type_key must not be NULL";
    }
    index = reg::GetOrAllocIndex(ByteArrayToString(*type_key, "type key"), static_type_index,
                                 type_depth, num_child_slots, child_slots_can_overflow != 0,
                                 parent_type_index);
    TVM_FFI_CORE_SAFE_CALL_END();
  }();
  return rc == 0 ? index : -1;
}

// Hot path (Object::IsInstanceIndex): a lock-free table read.  Returns NULL
// with the error set where upstream exits the process.
TVM_FFI_DLL const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  const TVMFFITypeInfo* info = reg::GetTypeInfo(type_index);
  if (info != nullptr) return info;
  [&]() -> int {
    TVM_FFI_CORE_SAFE_CALL_BEGIN();
    TVM_FFI_CORE_THROW(ValueError) << "unknown type index " << type_index;
    TVM_FFI_CORE_SAFE_CALL_END();
  }();
  return nullptr;
}

TVM_FFI_DLL int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(info);
  if (info->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
    reg::CheckUsableValue(info->default_value_or_factory, "TVMFFITypeRegisterField: the default");
  }
  std::string name = NameForRepeatCheck(info->name);
  if (dup::SkipTypeRepeat(type_index, dup::Kind::kField, name, __builtin_return_address(0))) {
    return 0;
  }
  reg::RegisterField(type_index, *info);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(info);
  reg::CheckUsableValue(info->method, "TVMFFITypeRegisterMethod: method");
  std::string name = NameForRepeatCheck(info->name);
  if (dup::SkipTypeRepeat(type_index, dup::Kind::kMethod, name, __builtin_return_address(0))) {
    return 0;
  }
  reg::RegisterMethod(type_index, *info);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITypeRegisterMetadata(int32_t type_index,
                                           const TVMFFITypeMetadata* metadata) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(metadata);
  if (dup::SkipTypeRepeat(type_index, dup::Kind::kMetadata, "", __builtin_return_address(0))) {
    return 0;
  }
  reg::RegisterMetadata(type_index, *metadata);
  TVM_FFI_CORE_SAFE_CALL_END();
}

TVM_FFI_DLL int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                                       const TVMFFIAny* attr_value) {
  TVM_FFI_CORE_SAFE_CALL_BEGIN();
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(attr_name);
  TVM_FFI_CORE_CHECK_ARG_NOT_NULL(attr_value);
  reg::CheckUsableValue(*attr_value, "TVMFFITypeRegisterAttr: attr_value");
  std::string name = ByteArrayToString(*attr_name, "type attribute name");
  if (dup::SkipTypeRepeat(type_index, dup::Kind::kAttr, name, __builtin_return_address(0))) {
    return 0;
  }
  reg::RegisterAttr(type_index, name, *attr_value);
  TVM_FFI_CORE_SAFE_CALL_END();
}

// NULL without an error when the column was never created; NULL with the
// error set for a NULL name.
TVM_FFI_DLL const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(
    const TVMFFIByteArray* attr_name) {
  const TVMFFITypeAttrColumn* column = nullptr;
  [&]() -> int {
    TVM_FFI_CORE_SAFE_CALL_BEGIN();
    if (attr_name == nullptr) {
      TVM_FFI_CORE_THROW(ValueError) << "TVMFFIGetTypeAttrColumn: attr_name must not be NULL";
    }
    column = reg::GetAttrColumn(ByteArrayToString(*attr_name, "type attribute name"));
    TVM_FFI_CORE_SAFE_CALL_END();
  }();
  return column;
}

}  // extern "C"

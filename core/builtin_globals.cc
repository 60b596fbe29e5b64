// Built-in globals of no single container: ffi.String, ffi.Bytes and ffi.GetRegisteredTypeKeys.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "string_internal.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// ffi.String(x) / ffi.Bytes(x): x as a str (bytes) value.  Packed, not
// typed: a malformed view handed in through the C ABI (a NULL kTVMFFIRawStr,
// a small string claiming more than 7 bytes, a byte array with NULL data) is
// refused with GetStringView's ValueError, where tvm::ffi's conversions would
// read it.  A heap object comes back as it is unless it fits the small form.
void StringLikeIdentity(PackedArgs args, Any* rv, bool is_bytes) {
  const char* name = is_bytes ? "ffi.Bytes" : "ffi.String";
  const char* type = is_bytes ? "bytes" : "str";
  if (args.size() != 1) {
    TVM_FFI_CORE_THROW(TypeError) << "Mismatched number of arguments when calling: `" << name
                                  << "(0: " << type << ") -> " << type << "`. Expected 1 but got "
                                  << args.size() << " arguments";
  }
  const TVMFFIAny* value = reinterpret_cast<const TVMFFIAny*>(args.data());
  // A NULL object of the right type stays as it always was: None.
  if (value->type_index == (is_bytes ? kTVMFFIBytes : kTVMFFIStr) && value->v_obj == nullptr) {
    return;
  }
  const char* data;
  size_t size;
  bool value_is_bytes;
  if (!GetStringView(value, &data, &size, &value_is_bytes) || value_is_bytes != is_bytes) {
    TVM_FFI_CORE_THROW(TypeError) << "In function " << name << ": argument 1: expected " << type
                                  << ", got " << TypeIndexToDisplayName(value->type_index);
  }
  TVMFFIAny out;
  if (value->type_index >= kTVMFFIStaticObjectBegin && size > kSmallStrMaxLen) {
    ObjectIncRef(value->v_obj);
    out = *value;
  } else {
    MakeStringAny(data, size, is_bytes, &out);
  }
  *rv = AnyUnsafe::MoveTVMFFIAnyToAny(&out);
}

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.String", [](PackedArgs args, Any* rv) {
  StringLikeIdentity(args, rv, false);
});

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.Bytes", [](PackedArgs args, Any* rv) {
  StringLikeIdentity(args, rv, true);
});

// An Array of str: every registered type key.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.GetRegisteredTypeKeys", []() {
  std::vector<std::string> keys = type_registry::ListTypeKeys();
  Array<String> out;
  out.reserve(static_cast<int64_t>(keys.size()));
  for (const std::string& k : keys) out.push_back(String(k));
  return out;
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

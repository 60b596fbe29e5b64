// Built-in globals of no single container: ffi.String, ffi.Bytes and ffi.GetRegisteredTypeKeys.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "global_def.h"
#include "impl/function.h"
#include "impl/string.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// Still on the older layer's typed functions (issue 19): its String and
// Bytes conversions refuse malformed views handed in through the C ABI (a
// NULL kTVMFFIRawStr, a small string claiming more than 7 bytes, a byte
// array with NULL data) with a ValueError, where tvm::ffi's read them.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.String", [](impl::String s) { return s; });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.Bytes", [](impl::Bytes b) { return b; });

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

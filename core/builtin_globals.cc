// Built-in globals of no single container: ffi.String, ffi.Bytes and ffi.GetRegisteredTypeKeys.
#include <string>
#include <vector>

#include "impl/array.h"
#include "impl/function.h"
#include "impl/string.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
// The internals already moved to tvm::ffi::details::core (issue 19).
using namespace ::tvm::ffi::detail::core;
namespace {

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.String", [](String s) { return s; });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.Bytes", [](Bytes b) { return b; });

// An Array of str: every registered type key.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.GetRegisteredTypeKeys", []() {
  std::vector<std::string> keys = type_registry::ListTypeKeys();
  Array<String> out;
  for (const std::string& k : keys) out.push_back(String(k));
  return out;
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

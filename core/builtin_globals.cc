// Built-in globals of no single container: ffi.String, ffi.Bytes and ffi.GetRegisteredTypeKeys.
#include <string>
#include <vector>

#include <tvmffi/array.h>
#include <tvmffi/function.h>
#include <tvmffi/string.h>
#include "type_registry.h"

namespace tvmffi {
namespace core {
// The internals already moved to tvm::ffi::details::core (issue 19).
using namespace ::tvm::ffi::detail::core;
namespace {

TVMFFI_REGISTER_GLOBAL("ffi.String", [](String s) { return s; });

TVMFFI_REGISTER_GLOBAL("ffi.Bytes", [](Bytes b) { return b; });

// An Array of str: every registered type key.
TVMFFI_REGISTER_GLOBAL("ffi.GetRegisteredTypeKeys", []() {
  std::vector<std::string> keys = type_registry::ListTypeKeys();
  Array<String> out;
  for (const std::string& k : keys) out.push_back(String(k));
  return out;
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

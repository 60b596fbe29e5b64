// JSON graph serialization and JSON text, from C++ (docs/reflection.md).
//
// A veneer over the core library's globals ffi.ToJSONGraph,
// ffi.ToJSONGraphString, ffi.FromJSONGraph, ffi.FromJSONGraphString,
// ffi.json.Parse and ffi.json.Stringify; C callers use those globals.
// Errors (a reference cycle, a value with no JSON form, malformed text or
// graph) are thrown as Error (ValueError / TypeError).  Header-only.
#ifndef TVM_FFI_CORE_IMPL_SERIALIZATION_H_
#define TVM_FFI_CORE_IMPL_SERIALIZATION_H_

#include <optional>
#include <string>

#include "any.h"
#include "function.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace serialization_detail {
template <typename... Args>
Any CallGlobal(const char* name, Args&&... args) {
  std::optional<Function> f = Function::GetGlobal(name);
  if (!f.has_value()) TVM_FFI_IMPL_THROW(RuntimeError) << "global `" << name << "` is not registered";
  return (*f)(std::forward<Args>(args)...);
}
}  // namespace serialization_detail

// The JSON graph of `value` as a JSON value (a Map); `metadata` (None to
// omit) is stored under "metadata".
inline Any ToJSONGraph(const AnyView& value, const AnyView& metadata = AnyView()) {
  return serialization_detail::CallGlobal("ffi.ToJSONGraph", value, metadata);
}
inline std::string ToJSONGraphString(const AnyView& value, const AnyView& metadata = AnyView()) {
  return serialization_detail::CallGlobal("ffi.ToJSONGraphString", value, metadata)
      .As<std::string>();
}
inline Any FromJSONGraph(const AnyView& graph) {
  return serialization_detail::CallGlobal("ffi.FromJSONGraph", graph);
}
inline Any FromJSONGraphString(const std::string& text) {
  return serialization_detail::CallGlobal("ffi.FromJSONGraphString", String(text));
}

namespace json {
inline Any Parse(const std::string& text) {
  return serialization_detail::CallGlobal("ffi.json.Parse", String(text));
}
// Compact when indent is nullopt.
inline std::string Stringify(const AnyView& value, std::optional<int64_t> indent = std::nullopt) {
  return serialization_detail::CallGlobal("ffi.json.Stringify", value, indent).As<std::string>();
}
}  // namespace json

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_SERIALIZATION_H_

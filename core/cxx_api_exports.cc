// The C++ entry points of tvm/ffi/extra that libtvm_ffi.so exports with
// upstream's mangled names (json::Parse, StructuralEqual::Equal, DeepCopy,
// ...), and the RTTI of tvm::ffi::Error.
//
// Each one is a thin call of the `ffi.*` global function that already
// implements it (core/json.cc, structural.cc, serialization.cc,
// object_repr.cc, recursive_compare.cc).  Going through the global, that is
// through the safe-call C ABI, is deliberate: the core throws its own
// exception type, and the call turns whatever it raised into a
// tvm::ffi::Error, the only exception these functions' callers (compiled
// against upstream's headers or ours) can catch.
//
// c_api/exports.map lists exactly these symbols; everything else here is
// hidden.  The vtable and typeinfo of tvm::ffi::Error (a class with default
// visibility) are emitted here because json::Parse catches and the calls
// throw it; the map publishes them, as upstream's library does.
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>

#include "cxx_api_global.h"

namespace tvm {
namespace ffi {

// tvm/ffi/extra/json.h ------------------------------------------------------------

namespace json {

Value Parse(const String& json_str, String* error_msg) {
  if (error_msg == nullptr) return TVM_FFI_CXX_API_GLOBAL("ffi.json.Parse")(json_str);
  try {
    Value result = TVM_FFI_CXX_API_GLOBAL("ffi.json.Parse")(json_str);
    *error_msg = String();
    return result;
  } catch (const Error& err) {
    // Malformed text is a ValueError; anything else (out of memory, ...) is
    // not a parse error and still propagates.
    if (err.kind() != "ValueError") throw;
    *error_msg = String(err.message());
    return Value(nullptr);
  }
}

String Stringify(const Value& value, const Optional<int>& indent) {
  Any ind = indent.has_value() ? Any(static_cast<int64_t>(*indent)) : Any(nullptr);
  return TVM_FFI_CXX_API_GLOBAL("ffi.json.Stringify")(value, ind).cast<String>();
}

}  // namespace json

// tvm/ffi/extra/serialization.h ---------------------------------------------------

json::Value ToJSONGraph(const Any& value, const Any& metadata) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.ToJSONGraph")(value, metadata);
}

Any FromJSONGraph(const json::Value& value) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.FromJSONGraph")(value);
}

// tvm/ffi/extra/structural_equal.h, structural_hash.h -----------------------------

bool StructuralEqual::Equal(const Any& lhs, const Any& rhs, bool map_free_vars,
                            bool skip_tensor_content) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.StructuralEqual")(lhs, rhs, map_free_vars,
                                                          skip_tensor_content)
      .cast<bool>();
}

Optional<reflection::AccessPathPair> StructuralEqual::GetFirstMismatch(const Any& lhs,
                                                                      const Any& rhs,
                                                                      bool map_free_vars,
                                                                      bool skip_tensor_content) {
  // None when equal, else an Array of the two paths (a Tuple's layout).
  return TVM_FFI_CXX_API_GLOBAL("ffi.GetFirstStructuralMismatch")(lhs, rhs, map_free_vars,
                                                                     skip_tensor_content)
      .cast<Optional<reflection::AccessPathPair>>();
}

uint64_t StructuralHash::Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  int64_t h = TVM_FFI_CXX_API_GLOBAL("ffi.StructuralHash")(value, map_free_vars,
                                                              skip_tensor_content)
                  .cast<int64_t>();
  return static_cast<uint64_t>(h);
}

// tvm/ffi/extra/visit_error_context.h --------------------------------------------

Array<reflection::AccessPath> VisitErrorContext::FindAccessPaths(
    const ObjectRef& root, const VisitErrorContext& visit_context, bool allow_prefix_match) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.VisitErrorContext.FindAccessPaths")(root, visit_context,
                                                                          allow_prefix_match)
      .cast<Array<reflection::AccessPath>>();
}

// tvm/ffi/extra/dataclass.h -------------------------------------------------------

Any DeepCopy(const Any& value) { return TVM_FFI_CXX_API_GLOBAL("ffi.DeepCopy")(value); }

String ReprPrint(const Any& value) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.ReprPrint")(value).cast<String>();
}

int64_t RecursiveHash(const Any& value) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.RecursiveHash")(value).cast<int64_t>();
}

bool RecursiveEq(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.RecursiveEq")(lhs, rhs).cast<bool>();
}

bool RecursiveLt(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.RecursiveLt")(lhs, rhs).cast<bool>();
}

bool RecursiveLe(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.RecursiveLe")(lhs, rhs).cast<bool>();
}

bool RecursiveGt(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.RecursiveGt")(lhs, rhs).cast<bool>();
}

bool RecursiveGe(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_API_GLOBAL("ffi.RecursiveGe")(lhs, rhs).cast<bool>();
}

}  // namespace ffi
}  // namespace tvm

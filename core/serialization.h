// JSON graph serialization of FFI values (globals ffi.ToJSONGraph,
// ffi.ToJSONGraphString, ffi.FromJSONGraph, ffi.FromJSONGraphString).
//
// The format is apache-tvm-ffi's:
//   {"root_index": R, "nodes": [node, ...], "metadata": M}   ("metadata" only when given)
// and each node is {"type": <type key>, "data": <data>}:
//   None                      {"type": "None"}
//   bool / int / float        "bool" / "int" / "float", data the JSON value
//                             (NaN, Infinity, -Infinity for non-finite floats)
//   str / bytes               "ffi.String" text / "ffi.Bytes" base64 text
//   BigInt                    "ffi.BigInt", decimal text
//   DataType                  "DataType", text such as "float32"
//   Device                    "Device", [device_type, device_id]
//   Array / List / Shape      "ffi.Array" / "ffi.List" node indices; "ffi.Shape" the dims
//   Map / Dict                "ffi.Map" / "ffi.Dict", [key0, value0, key1, ...] node indices
//   reflected object          its type key, {field name: value} over all fields (ancestors
//                             first); fields declared None/bool/int/float hold the JSON value,
//                             DataType fields its text, every other field a node index.
// Nodes are written children first and each value appears once: one object
// referenced twice is one node (a graph, not a tree); equal ints, floats and
// equal strings share a node too.  Reading accepts nodes in any order.
//
// Walks are iterative (any depth).  A reference cycle, a value with no JSON
// form (Function, Tensor, Module, opaque pointer, ...) or an object type
// without a creator is an error naming it; so is every malformed graph.
//
// After an object is rebuilt field by field, a Function stored in the type
// attribute column kJsonGraphFinalizeAttr for its type (if any) is called
// with it and its result is used instead (VirtualDevice canonicalizes there).
#ifndef TVM_FFI_CORE_SERIALIZATION_H_
#define TVM_FFI_CORE_SERIALIZATION_H_

#include <string>

#include <tvm/ffi/any.h>

#include "json.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace serialization {

constexpr const char* kJsonGraphFinalizeAttr = "__json_graph_finalize__";

std::string ToJSONGraphString(const AnyView& value, const AnyView& metadata);
// The same graph as a JSON value (a Map).
Any ToJSONGraph(const AnyView& value, const AnyView& metadata);
// `graph` is the JSON value (a Map) of a graph.
Any FromJSONGraph(const AnyView& graph);
// `options` bound the JSON text's parse (json::ParseOptions).
Any FromJSONGraphString(const std::string& text,
                        const json::ParseOptions& options = json::ParseOptions());

}  // namespace serialization
}  // namespace core

// Files still in the internal value layer's namespace (virtual_device.cc)
// name the attribute as serialization::kJsonGraphFinalizeAttr.
namespace serialization = core::serialization;

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_SERIALIZATION_H_

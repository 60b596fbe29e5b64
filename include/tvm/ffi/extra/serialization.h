/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/serialization.h
 * \brief An object graph to and from a JSON value (ToJSONGraph, FromJSONGraph).
 *
 * The graph form lists every distinct node once, so shared objects stay
 * shared and the result survives json::Stringify and json::Parse.  Objects
 * are written through their reflected fields; the format is the one of
 * upstream's `ffi.ToJSONGraph` (docs/serialization.md).
 */
#ifndef TVM_FFI_EXTRA_SERIALIZATION_H_
#define TVM_FFI_EXTRA_SERIALIZATION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>

namespace tvm {
namespace ffi {

namespace type_attr {
/*! \brief The inverse of kDataToJson: JSON-able value -> instance. */
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kDataFromJson{
    "__data_from_json__"};
/*! \brief A type's own graph form: instance -> JSON-able value (instead of its fields). */
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kDataToJson{"__data_to_json__"};
}  // namespace type_attr

/*!
 * \brief Rebuilds the value a ToJSONGraph result describes.
 * \param value A graph, e.g. from json::Parse.
 * \return The root value.
 */
TVM_FFI_EXTRA_CXX_API Any FromJSONGraph(const json::Value& value);

/*!
 * \brief Writes the object graph reachable from a value as a JSON value.
 * \param value The root.
 * \param metadata Stored under the "metadata" key of the result when not None.
 * \return The graph, ready for json::Stringify.
 */
TVM_FFI_EXTRA_CXX_API json::Value ToJSONGraph(const Any& value, const Any& metadata = Any(nullptr));

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_SERIALIZATION_H_

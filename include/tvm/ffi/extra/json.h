/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/json.h
 * \brief JSON text to and from Any values (json::Parse, json::Stringify).
 *
 * A JSON value is an Any: null is None, true/false are bool, numbers are
 * int64 when they are integers that fit and float otherwise, strings are
 * String, arrays are Array<Any> and objects are Map<Any, Any> with String
 * keys.  Parse also accepts the JavaScript spellings Infinity, -Infinity and
 * NaN, and Stringify writes them.  json::Object and json::Array name the
 * two container types.
 */
#ifndef TVM_FFI_EXTRA_JSON_H_
#define TVM_FFI_EXTRA_JSON_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <optional>

namespace tvm {
namespace ffi {
namespace json {

/*! \brief A JSON array. */
using Array = ffi::Array<Any>;
/*! \brief A JSON object: String keys (Parse makes them; Stringify requires them). */
using Object = ffi::Map<Any, Any>;
/*! \brief A JSON value is an Any. */
using Value = Any;

/*!
 * \brief Writes a value as JSON text.
 * \param value The value: None, bool, int, float, String, and arrays and
 *        String-keyed maps of those.  Anything else is a TypeError.
 * \param indent Spaces per nesting level; without it the text is compact.
 * \return The text.
 */
TVM_FFI_EXTRA_CXX_API String Stringify(const json::Value& value,
                                       const Optional<int>& indent = std::nullopt);

/*!
 * \brief Parses JSON text.
 * \param json_str The text.
 * \param error_msg When not null, a parse error is reported here (and None
 *        returned) instead of being thrown as a ValueError; on success it is
 *        set to the empty string.
 * \return The value.
 */
TVM_FFI_EXTRA_CXX_API json::Value Parse(const String& json_str, String* error_msg = nullptr);

}  // namespace json
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_JSON_H_

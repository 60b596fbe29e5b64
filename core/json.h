// JSON text <-> FFI values (the globals ffi.json.Parse and ffi.json.Stringify).
//
// Mapping: null <-> None, true/false <-> bool, integers <-> int (an integer
// literal outside int64_t parses as a float, as upstream does), other
// numbers <-> float (NaN, Infinity and -Infinity are accepted and written,
// as Python's json module does), strings <-> str, arrays <-> Array (List
// also writes as an array), objects <-> Map with str keys (Dict also writes
// as an object).
#ifndef TVM_FFI_CORE_JSON_H_
#define TVM_FFI_CORE_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include <tvm/ffi/any.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace json {

// Arrays and objects nest at most this deep, both ways (deeper input is a
// ValueError, not a stack overflow; a reference cycle in a List or Dict
// being written ends the same way).
constexpr int kMaxDepth = 1000;

// Limits for untrusted text.  Map keys hash with upstream's unseeded string
// hash (fixed by binary compatibility), so keys that collide can be written
// on purpose and make inserting n of them into one object O(n^2); a bound
// on keys per object bounds that work (docs/reliability.md).
struct ParseOptions {
  int64_t max_object_keys = -1;  // keys per object; < 0: no limit
};

// Parses one JSON document.  Errors are ValueError with Python json's
// wording and position, e.g. "Expecting value: line 1 column 4 (char 3)";
// an unpaired surrogate escape ("\ud800") is one (str holds UTF-8).
// Nesting costs no stack (the reader keeps its own).
Any Parse(std::string_view text, const ParseOptions& options = ParseOptions());

// A container referenced from several places is written in full at each,
// so the text can be exponentially larger than the value; the writer
// refuses (ValueError) a value that expands to more than max_items items.
struct StringifyOptions {
  uint64_t max_items = uint64_t(1) << 28;  // 0: no limit
};

// Writes `value` as JSON: compact when indent < 0, else pretty-printed with
// `indent` spaces per level.  Map and Dict keys must be str (TypeError);
// values of other types are TypeError naming the type.
std::string Stringify(const AnyView& value, int indent = -1,
                      const StringifyOptions& options = StringifyOptions());

// Appends the JSON string literal of `s` (quotes included) to *out; UTF-8
// passes through, control characters, '"' and '\\' are escaped.
void AppendQuoted(std::string_view s, std::string* out);
// Appends the shortest text that reads back as `v`, with a ".0" when it
// would otherwise read as an integer; NaN/Infinity/-Infinity as above.
void AppendDouble(double v, std::string* out);

}  // namespace json

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_JSON_H_

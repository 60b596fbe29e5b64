// Type schemas: the JSON description of a C++ type as the ABI's metadata
// carries it ({"type":"int"}, {"type":"ffi.Array","args":[{"type":"int"}]},
// {"type":"ffi.Function","named_args":{"return":[...],"params":[...]}}).
//
// Typed global functions, reflected methods and reflected fields record
// `{"type_schema": "<schema>"}` as their metadata (tvm_ffi.core.TypeSchema
// reads it in Python).  A TypeTraits specialisation may add
// `static std::string TypeSchema()` to describe its type; otherwise the
// built-in rules below apply.
#ifndef TVM_FFI_CORE_IMPL_TYPE_SCHEMA_H_
#define TVM_FFI_CORE_IMPL_TYPE_SCHEMA_H_

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "any.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace detail {

template <typename T, typename = void>
struct HasTraitsSchema : std::false_type {};
template <typename T>
struct HasTraitsSchema<T, std::void_t<decltype(TypeTraits<T>::TypeSchema())>> : std::true_type {};

template <typename T>
struct IsStdOptional : std::false_type {};
template <typename T>
struct IsStdOptional<std::optional<T>> : std::true_type {};

inline std::string SchemaNamed(const char* type) {
  return std::string("{\"type\":\"") + type + "\"}";
}

// The schema of T (references and cv-qualifiers ignored).
template <typename T>
std::string TypeSchemaOf() {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (std::is_void<U>::value || std::is_same<U, std::nullptr_t>::value) {
    return SchemaNamed("None");
  } else if constexpr (std::is_same<U, Any>::value || std::is_same<U, AnyView>::value) {
    return SchemaNamed("Any");
  } else if constexpr (HasTraitsSchema<U>::value) {
    return TypeTraits<U>::TypeSchema();
  } else if constexpr (std::is_same<U, bool>::value) {
    return SchemaNamed("bool");
  } else if constexpr (std::is_integral<U>::value) {
    return SchemaNamed("int");
  } else if constexpr (std::is_floating_point<U>::value) {
    return SchemaNamed("float");
  } else if constexpr (std::is_same<U, DLDataType>::value) {
    return SchemaNamed("DataType");
  } else if constexpr (std::is_same<U, DLDevice>::value) {
    return SchemaNamed("Device");
  } else if constexpr (std::is_same<U, DLTensor*>::value) {
    return SchemaNamed("DLTensor*");
  } else if constexpr (std::is_same<U, const char*>::value || std::is_same<U, char*>::value) {
    return SchemaNamed("const char*");
  } else if constexpr (std::is_same<U, std::string>::value) {
    return SchemaNamed("std::string");
  } else if constexpr (std::is_same<U, void*>::value) {
    return SchemaNamed("void*");
  } else if constexpr (IsStdOptional<U>::value) {
    return "{\"type\":\"Optional\",\"args\":[" + TypeSchemaOf<typename U::value_type>() + "]}";
  } else if constexpr (std::is_base_of<ObjectRef, U>::value) {
    return SchemaNamed(U::ContainerType::kTypeKey);
  } else {
    return SchemaNamed("Any");
  }
}

template <typename R, typename ArgsTuple, size_t... I>
std::string FunctionSchemaImpl(std::index_sequence<I...>) {
  std::string out = "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[";
  out += TypeSchemaOf<R>();
  out += "],\"params\":[";
  const char* sep = "";
  ((out += sep, out += TypeSchemaOf<std::tuple_element_t<I, ArgsTuple>>(), sep = ","), ...);
  (void)sep;  // unused when there are no parameters
  out += "]}}";
  return out;
}

// The schema of a function R(Args...).
template <typename R, typename... Args>
std::string FunctionSchema() {
  using ArgsTuple = std::tuple<std::decay_t<Args>...>;
  return FunctionSchemaImpl<R, ArgsTuple>(std::index_sequence_for<Args...>());
}

// `text` as a JSON string literal (quotes, backslashes and control bytes escaped).
inline std::string JsonQuote(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The metadata text recorded for a member or function with this schema.
inline std::string SchemaMetadata(const std::string& schema) {
  return "{\"type_schema\":" + JsonQuote(schema) + "}";
}

}  // namespace detail
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_TYPE_SCHEMA_H_

// Exporting typed C++ functions from a kernel library as `__tvm_ffi_<name>`.
//
//   int64_t AddOne(int64_t x) { return x + 1; }
//   TVMFFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
//   TVMFFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Returns x + 1.");
//
// emits three C symbols with the safe-call signature:
//   __tvm_ffi_add_one              the function; arguments are converted with
//                                  TypeTraits, a mismatch is a TypeError
//                                  naming the function and the argument
//   __tvm_ffi__metadata_add_one    a JSON object {"type_schema": "<schema>"}
//   __tvm_ffi__doc_add_one         the docstring (from the _DOC macro)
// which tvm_ffi.load_module / Module::LoadFromFile find.  The names are
// TVMFFI_*, not upstream's TVM_FFI_*, so both header sets can coexist.
#ifndef TVMFFI_EXPORT_H_
#define TVMFFI_EXPORT_H_

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "any.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "string.h"

namespace tvmffi {
namespace core {
namespace export_detail {

// The type schema of a parameter or result: a JSON object {"type": <key>}
// with the type keys of the ABI, plus "args" for Optional.
template <typename T, typename = void>
struct TypeSchema {
  static std::string Key() { return TypeTraits<T>::TypeStr(); }
  static std::string Get() { return "{\"type\":\"" + Key() + "\"}"; }
};
template <>
struct TypeSchema<void> {
  static std::string Get() { return "{\"type\":\"None\"}"; }
};
template <>
struct TypeSchema<std::nullptr_t> : TypeSchema<void> {};
template <>
struct TypeSchema<Any> {
  static std::string Get() { return "{\"type\":\"Any\"}"; }
};
template <>
struct TypeSchema<AnyView> : TypeSchema<Any> {};
template <>
struct TypeSchema<std::string> {
  static std::string Get() { return "{\"type\":\"ffi.String\"}"; }
};
template <>
struct TypeSchema<const char*> {
  static std::string Get() { return "{\"type\":\"const char*\"}"; }
};
template <typename T>
struct TypeSchema<std::optional<T>> {
  static std::string Get() {
    return "{\"type\":\"Optional\",\"args\":[" + TypeSchema<T>::Get() + "]}";
  }
};
template <typename Ref>
struct TypeSchema<Ref, std::enable_if_t<std::is_base_of<ObjectRef, Ref>::value>> {
  static std::string Get() {
    return std::string("{\"type\":\"") + Ref::ContainerType::kTypeKey + "\"}";
  }
};

template <typename T>
using Bare = std::remove_cv_t<std::remove_reference_t<T>>;

// {"type":"ffi.Function","named_args":{"return":[R],"params":[A...]}}
template <typename R, typename... Args>
std::string FunctionSchema(std::tuple<Args...>*) {
  std::string out = "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[";
  out += TypeSchema<Bare<R>>::Get();
  out += "],\"params\":[";
  const char* sep = "";
  ((out += sep, out += TypeSchema<Bare<Args>>::Get(), sep = ","), ...);
  (void)sep;
  out += "]}}";
  return out;
}
template <typename F>
std::string SchemaOf() {
  using Sig = detail::FunctionSignature<std::decay_t<F>>;
  return FunctionSchema<typename Sig::Return>(static_cast<typename Sig::ArgsTuple*>(nullptr));
}

// JSON string literal of `text` (quotes included).
inline std::string JsonQuote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Writes `text` to a safe-call result as a String made by libtvm_ffi (so it
// outlives this library).
inline int ReturnString(const std::string& text, TVMFFIAny* result) {
  TVMFFIByteArray bytes = ToByteArray(text);
  return TVMFFIStringFromByteArray(&bytes, result);
}

// The body of `__tvm_ffi_<name>`: converts the arguments, calls `f`, and
// turns any exception into -1 with the error set.
template <typename F>
int CallExported(const F& f, const std::string& name, const TVMFFIAny* args, int32_t num_args,
                 TVMFFIAny* result) {
  try {
    using Sig = detail::FunctionSignature<std::decay_t<F>>;
    if (num_args != static_cast<int32_t>(Sig::kArity)) {
      detail::ThrowArityMismatch<Sig>(name, num_args);
    }
    // The caller's result slot holds None on entry (the safe-call convention).
    detail::CallTyped<F, Sig>(f, name, reinterpret_cast<const AnyView*>(args), result,
                              std::make_index_sequence<Sig::kArity>());
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

template <typename F>
int ExportedMetadata(TVMFFIAny* result) {
  try {
    return ReturnString("{\"type_schema\":" + JsonQuote(SchemaOf<F>()) + "}", result);
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

}  // namespace export_detail
}  // namespace core
}  // namespace tvmffi

// Exports `callable` (a function or a captureless lambda) as
// `__tvm_ffi_<ExportName>` with its metadata `__tvm_ffi__metadata_<ExportName>`.
#define TVMFFI_DLL_EXPORT_TYPED_FUNC(ExportName, callable)                                     \
  static const auto tvmffi_export_impl_##ExportName = (callable);                             \
  extern "C" __attribute__((visibility("default"))) int __tvm_ffi_##ExportName(                \
      void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {                     \
    static const std::string name = #ExportName;                                               \
    return ::tvmffi::core::export_detail::CallExported(tvmffi_export_impl_##ExportName, name, \
                                                       args, num_args, result);                \
  }                                                                                            \
  extern "C" __attribute__((visibility("default"))) int __tvm_ffi__metadata_##ExportName(      \
      void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {                                   \
    return ::tvmffi::core::export_detail::ExportedMetadata<                                   \
        decltype(tvmffi_export_impl_##ExportName)>(result);                                    \
  }                                                                                            \
  static_assert(true, "")

// Exports the docstring of ExportName as `__tvm_ffi__doc_<ExportName>`.
#define TVMFFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, doc)                                 \
  extern "C" __attribute__((visibility("default"))) int __tvm_ffi__doc_##ExportName(      \
      void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {                              \
    try {                                                                                 \
      return ::tvmffi::core::export_detail::ReturnString(doc, result);                    \
    } catch (...) {                                                                       \
      return ::tvmffi::core::SetRaisedFromCurrentException();                             \
    }                                                                                     \
  }                                                                                       \
  static_assert(true, "")

#endif  // TVMFFI_EXPORT_H_

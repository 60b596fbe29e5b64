// Functions: ffi.Function, functions from C++ callables, and the global registry.
//
// Callables are packed or typed (arguments converted with TypeTraits).
#ifndef TVM_FFI_CORE_IMPL_FUNCTION_H_
#define TVM_FFI_CORE_IMPL_FUNCTION_H_

#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "any.h"
#include "error.h"
#include "object.h"
#include "type_schema.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

static_assert(sizeof(AnyView) == sizeof(TVMFFIAny), "AnyView is a TVMFFIAny");
static_assert(sizeof(Any) == sizeof(TVMFFIAny), "Any is a TVMFFIAny");

// layout = { TVMFFIObject, TVMFFIFunctionCell, closure state }.
class FunctionObj : public Object {
 public:
  TVMFFIFunctionCell cell;
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(FunctionObj, kTVMFFIFunction, "ffi.Function")

 protected:
  FunctionObj() = default;
};

// A function around a C++ callable `void(const AnyView* args, int32_t n, Any* rv)`.
template <typename F>
class PackedFunctionObj : public FunctionObj {
 public:
  explicit PackedFunctionObj(F f) : f_(std::move(f)) {
    cell.safe_call = &PackedFunctionObj::SafeCall;
    cell.cpp_call = nullptr;
  }

 private:
  // `result` is None on entry (the safe-call contract), so it serves as the
  // callable's Any directly; on failure whatever was stored is released.
  static int SafeCall(void* handle, const TVMFFIAny* args, int32_t num_args,
                      TVMFFIAny* result) {
    try {
      auto* self = static_cast<PackedFunctionObj*>(Object::FromHandle(handle));
      self->f_(reinterpret_cast<const AnyView*>(args), num_args, reinterpret_cast<Any*>(result));
      return 0;
    } catch (...) {
      AnyRelease(result);
      return SetRaisedFromCurrentException();
    }
  }
  F f_;
};

namespace detail {

template <typename T>
struct FunctionSignature : FunctionSignature<decltype(&T::operator())> {};
template <typename R, typename... Args>
struct FunctionSignature<R (*)(Args...)> {
  using Return = R;
  using ArgsTuple = std::tuple<std::decay_t<Args>...>;
  static constexpr size_t kArity = sizeof...(Args);
};
template <typename R, typename... Args>
struct FunctionSignature<R(Args...)> : FunctionSignature<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct FunctionSignature<R (C::*)(Args...) const> : FunctionSignature<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct FunctionSignature<R (C::*)(Args...)> : FunctionSignature<R (*)(Args...)> {};

inline std::string FunctionContext(const std::string& func_name) {
  return func_name.empty() ? std::string() : "In function " + func_name + ": ";
}
// Throws TypeError "[In function <name>: ]argument <i+1>: expected <T>, got <U>".
[[noreturn]] inline void ThrowArgumentMismatch(const std::string& func_name, int index,
                                               const std::string& expected,
                                               const TVMFFIAny* actual) {
  ThrowTypeMismatch(expected, actual,
                    FunctionContext(func_name) + "argument " + DecimalString(index + 1));
}
// The printed type of a parameter or return type in a signature ("void" for
// no return value).
template <typename T>
std::string SignatureTypeStr() {
  if constexpr (std::is_void<T>::value) {
    return "void";
  } else {
    return TypeTraitsOf<T>::TypeStr();
  }
}

// Printed type of one parameter or of the result.
using TypeStrFn = std::string (*)();

// "(0: int, 1: str) -> float" from the printed types of the parameters and of
// the result.  Not a template: every signature shares this code, and each
// typed function adds only its table of TypeStrFn.
inline std::string SignatureTextOf(const TypeStrFn* params, size_t arity, TypeStrFn result) {
  std::string out = "(";
  for (size_t i = 0; i < arity; ++i) {
    if (i != 0) out += ", ";
    out += DecimalString(static_cast<int64_t>(i)) + ": " + params[i]();
  }
  return out + ") -> " + result();
}

template <typename Sig, size_t... I>
std::string SignatureTextImpl(std::index_sequence<I...>) {
  // One spare entry: a zero-parameter signature still has an array.
  static constexpr TypeStrFn kParams[sizeof...(I) + 1] = {
      &SignatureTypeStr<std::tuple_element_t<I, typename Sig::ArgsTuple>>..., nullptr};
  return SignatureTextOf(kParams, sizeof...(I), &SignatureTypeStr<typename Sig::Return>);
}

// "(0: int, 1: str) -> float": the signature Sig (FunctionSignature) as error
// messages show it, parameters numbered from 0.  Built only when an error is.
template <typename Sig>
std::string SignatureText() {
  return SignatureTextImpl<Sig>(std::make_index_sequence<Sig::kArity>());
}

// Throws TypeError "Mismatched number of arguments when calling:
// `<name><signature>`. Expected <n> but got <m> arguments" (upstream's text;
// an unnamed function shows the signature alone).  One copy for every
// signature; ThrowArityMismatch<Sig> only renders the signature.
[[noreturn]] __attribute__((noinline, cold)) inline void ThrowArityMismatchOf(
    const std::string& func_name, const std::string& signature, size_t arity, int32_t actual) {
  TVM_FFI_IMPL_THROW(TypeError) << "Mismatched number of arguments when calling: `" << func_name
                          << signature << "`. Expected " << arity << " but got " << actual
                          << " arguments";
}

template <typename Sig>
[[noreturn]] void ThrowArityMismatch(const std::string& func_name, int32_t actual) {
  ThrowArityMismatchOf(func_name, SignatureText<Sig>(), Sig::kArity, actual);
}

template <typename T>
T CastArgument(const AnyView* args, int index, const std::string& func_name) {
  std::optional<T> v = TypeTraits<T>::TryCast(args[index].raw());
  if (!v.has_value()) {
    ThrowArgumentMismatch(func_name, index, TypeTraits<T>::TypeStr(), args[index].raw());
  }
  return std::move(*v);
}

// Calls `f` with the converted arguments and converts its return value into
// `result`, which is None on entry.
template <typename F, typename Sig, size_t... I>
void CallTyped(const F& f, const std::string& name, const AnyView* args, TVMFFIAny* result,
               std::index_sequence<I...>) {
  using ArgsTuple = typename Sig::ArgsTuple;
  using Return = typename Sig::Return;
  if constexpr (std::is_void<Return>::value) {
    f(CastArgument<std::tuple_element_t<I, ArgsTuple>>(args, static_cast<int>(I), name)...);
    (void)result;
  } else if constexpr (std::is_same<std::decay_t<Return>, Any>::value ||
                       std::is_same<std::decay_t<Return>, AnyView>::value) {
    // Any and AnyView are not converted but taken over or copied as owned.
    Any rv(
        f(CastArgument<std::tuple_element_t<I, ArgsTuple>>(args, static_cast<int>(I), name)...));
    rv.MoveTo(result);
  } else {
    TypeTraitsOf<Return>::MoveToOwned(
        f(CastArgument<std::tuple_element_t<I, ArgsTuple>>(args, static_cast<int>(I), name)...),
        result);
  }
}

// The type schema of a callable with signature Sig (FunctionSignature).
template <typename Sig>
std::string SignatureSchema() {
  return FunctionSchemaImpl<typename Sig::Return, typename Sig::ArgsTuple>(
      std::make_index_sequence<Sig::kArity>());
}

// The metadata of a typed callable: {"type_schema": "<its schema>"}.
template <typename F>
std::string TypedMetadata() {
  return SchemaMetadata(SignatureSchema<FunctionSignature<std::decay_t<F>>>());
}

}  // namespace detail

// A function around an ordinary C++ callable: arguments are converted with
// TypeTraits, the return value is written straight into the result slot.
template <typename F>
class TypedFunctionObj : public FunctionObj {
 public:
  using Sig = detail::FunctionSignature<F>;

  TypedFunctionObj(F f, std::string name) : f_(std::move(f)), name_(std::move(name)) {
    cell.safe_call = &TypedFunctionObj::SafeCall;
    cell.cpp_call = nullptr;
  }

 private:
  static int SafeCall(void* handle, const TVMFFIAny* args, int32_t num_args,
                      TVMFFIAny* result) {
    try {
      auto* self = static_cast<TypedFunctionObj*>(Object::FromHandle(handle));
      if (num_args != static_cast<int32_t>(Sig::kArity)) {
        detail::ThrowArityMismatch<Sig>(self->name_, num_args);
      }
      detail::CallTyped<F, Sig>(self->f_, self->name_, reinterpret_cast<const AnyView*>(args),
                                result, std::make_index_sequence<Sig::kArity>());
      return 0;
    } catch (...) {
      return SetRaisedFromCurrentException();
    }
  }
  F f_;
  std::string name_;
};

// A reference to a function object (ours or another library's).
class Function : public ObjectRef {
 public:
  using ContainerType = FunctionObj;
  Function() = default;
  explicit Function(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  // From `void(const AnyView* args, int32_t num_args, Any* rv)`.
  template <typename F>
  static Function FromPacked(F f) {
    return Function(ObjectPtr<Object>(MakeObject<PackedFunctionObj<F>>(std::move(f))));
  }

  // From an ordinary callable; arguments are converted with TypeTraits and a
  // mismatch raises TypeError naming the argument.  `name` prefixes errors.
  template <typename F>
  static Function FromTyped(F f, std::string name = "") {
    return Function(ObjectPtr<Object>(
        MakeObject<TypedFunctionObj<std::decay_t<F>>>(std::move(f), std::move(name))));
  }

  // Calls the function's safe_call (the C ABI); a failure is rethrown as
  // Error.  The call goes straight to the cell, as TVMFFIFunctionCall would
  // make it, without the hop through the library; so a backtrace taken in the
  // callee goes on into this C++ caller.  A null or non-Function reference
  // goes through TVMFFIFunctionCall, which reports it.
  Any CallPacked(const AnyView* args, int32_t num_args) const {
    Any rv;
    TVMFFIAny* argv = const_cast<TVMFFIAny*>(reinterpret_cast<const TVMFFIAny*>(args));
    const Object* obj = get();
    int rc;
    if (obj != nullptr && obj->type_index() == kTVMFFIFunction) {
      TVMFFIObjectHandle h = obj->handle();
      rc = TVMFFIFunctionGetCellPtr(h)->safe_call(h, argv, num_args, rv.result_slot());
    } else {
      rc = TVMFFIFunctionCall(handle(), argv, num_args, rv.result_slot());
    }
    if (rc != 0) ThrowRaised(rc);
    return rv;
  }

  template <typename... Args>
  Any operator()(Args&&... args) const {
    constexpr size_t kNumArgs = sizeof...(Args);
    AnyView packed[kNumArgs > 0 ? kNumArgs : 1] = {AnyView(std::forward<Args>(args))...};
    return CallPacked(packed, static_cast<int32_t>(kNumArgs));
  }

  // The global registry (thread-safe), through the C ABI.
  static std::optional<Function> GetGlobal(const std::string& name) {
    TVMFFIByteArray n = ToByteArray(name);
    TVMFFIObjectHandle h = nullptr;
    int rc = TVMFFIFunctionGetGlobal(&n, &h);
    if (rc != 0) ThrowRaised(rc);
    if (h == nullptr) return std::nullopt;
    return Function(ObjectPtr<Object>::AdoptHandle(h));
  }
  // Throws KeyError naming the function when missing.
  static Function GetGlobalRequired(const std::string& name) {
    std::optional<Function> f = GetGlobal(name);
    if (!f.has_value()) {
      TVM_FFI_IMPL_THROW(KeyError) << "global function `" << name << "` is not registered";
    }
    return *f;
  }
  // Throws RuntimeError when the name is taken and allow_override is false.
  static void SetGlobal(const std::string& name, const Function& f, bool allow_override = false,
                        const std::string& doc = "", const std::string& metadata = "") {
    TVMFFIMethodInfo info;
    std::memset(&info, 0, sizeof(info));
    info.name = ToByteArray(name);
    info.doc = ToByteArray(doc);
    info.metadata = ToByteArray(metadata);
    info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
    info.method.type_index = kTVMFFIFunction;
    info.method.v_obj = static_cast<TVMFFIObject*>(f.handle());
    int rc = TVMFFIFunctionSetGlobalFromMethodInfo(&info, allow_override ? 1 : 0);
    if (rc != 0) ThrowRaised(rc);
  }
  // A typed global (FromTyped) whose metadata records its signature as
  // {"type_schema": ...}; tvm_ffi.get_global_func_metadata reads it.
  template <typename F>
  static void SetGlobalTyped(const std::string& name, F f, bool allow_override = false,
                             const std::string& doc = "") {
    std::string metadata = detail::TypedMetadata<F>();
    SetGlobal(name, FromTyped(std::move(f), name), allow_override, doc, metadata);
  }
};

// Registers a typed global function at static-initialisation time:
//   TVM_FFI_IMPL_REGISTER_GLOBAL("testing.add", [](int64_t a, int64_t b) { return a + b; });
#define TVM_FFI_IMPL_STR_CONCAT_(a, b) a##b
#define TVM_FFI_IMPL_STR_CONCAT(a, b) TVM_FFI_IMPL_STR_CONCAT_(a, b)
// A failure (e.g. the name is taken because the library was loaded twice)
// never ends the process: see RunAtLoad in error.h.
#define TVM_FFI_IMPL_REGISTER_GLOBAL(name, callable)                                            \
  static const bool TVM_FFI_IMPL_STR_CONCAT(tvmffi_reg_, __COUNTER__) =                          \
      ::tvm::ffi::detail::impl::RunAtLoad(                                                           \
          [] { ::tvm::ffi::detail::impl::Function::SetGlobalTyped(name, callable); })
#define TVM_FFI_IMPL_REGISTER_GLOBAL_PACKED(name, callable)                                     \
  static const bool TVM_FFI_IMPL_STR_CONCAT(tvmffi_reg_, __COUNTER__) =                          \
      ::tvm::ffi::detail::impl::RunAtLoad([] {                                                       \
        ::tvm::ffi::detail::impl::Function::SetGlobal(                                               \
            name, ::tvm::ffi::detail::impl::Function::FromPacked(callable), false, "",               \
            ::tvm::ffi::detail::impl::detail::SchemaMetadata("{\"type\":\"ffi.Function\"}"));       \
      })

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_FUNCTION_H_

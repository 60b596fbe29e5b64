/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/function_detail.h
 * \brief The machinery behind typed functions (not API): signatures of C++
 *        callables, their printed form and type schema, and the call that
 *        converts packed arguments to the parameter types.
 */
#ifndef TVM_FFI_FUNCTION_DETAIL_H_
#define TVM_FFI_FUNCTION_DETAIL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <functional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

namespace tvm {
namespace ffi {

namespace detail {

/*!
 * \brief A parameter may be a value, a const lvalue reference or a non-const
 *        rvalue reference (never a mutable lvalue reference: arguments are
 *        converted copies).
 */
template <typename T>
static constexpr bool ArgTypeSupported =
    std::is_reference_v<T>
        ? std::is_const_v<std::remove_reference_t<T>> == std::is_lvalue_reference_v<T>
        : true;

}  // namespace detail

// A typed function may return Expected<T>; see expected.h.
template <typename T>
class Expected;

namespace detail {

/*! \brief Prints "0: T0, 1: T1, ..." for the element types of the tuple ArgType. */
template <typename ArgType>
struct Arg2Str {
  template <size_t... I>
  TVM_FFI_INLINE static void Run(std::ostream& os, std::index_sequence<I...>) {
    (Apply<I>(os), ...);
  }
  template <size_t i>
  TVM_FFI_INLINE static void Apply(std::ostream& os) {
    const char* sep = i == 0 ? "" : ", ";
    os << sep << i << ": " << Type2Str<std::tuple_element_t<i, ArgType>>::v();
  }
};

/*! \brief A supported parameter of a type Any converts to (or Any/AnyView itself). */
template <typename T>
static constexpr bool ArgSupported =
    ArgTypeSupported<T> && (std::is_same_v<std::remove_const_t<std::remove_reference_t<T>>, Any> ||
                            std::is_same_v<std::remove_const_t<std::remove_reference_t<T>>, AnyView> ||
                            TypeTraitsNoCR<T>::convert_enabled);

/*! \brief A return type an Any can take (or void). */
template <typename T>
static constexpr bool RetSupported =
    std::is_same_v<T, Any> || std::is_void_v<T> || TypeTraits<T>::convert_enabled;

/*! \brief Facts about a callable with return type R and parameters Args. */
template <typename R, typename... Args>
struct FuncFunctorImpl {
  /*! \brief Whether a packed call can convert every argument and the result. */
  static constexpr bool unpacked_supported = RetSupported<R> && (ArgSupported<Args> && ...);
  static constexpr size_t num_args = sizeof...(Args);
  using RetType = R;
  using ArgType = std::tuple<Args...>;
  using FType = R(Args...);

  /*! \brief "(0: int, 1: str) -> float": the signature in error messages. */
  TVM_FFI_INLINE static std::string Sig() {
    std::ostringstream os;
    os << "(";
    Arg2Str<ArgType>::Run(os, std::index_sequence_for<Args...>{});
    os << ") -> " << Type2Str<R>::v();
    return os.str();
  }
  /*! \brief {"type":"ffi.Function","named_args":{"return":[R],"params":[Args...]}}. */
  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string params;
    ((params += (params.empty() ? "" : ",") + detail::TypeSchema<Args>::v()), ...);
    return std::string("{\"type\":\"") + StaticTypeKey::kTVMFFIFunction +
           "\",\"named_args\":{\"return\":[" + detail::TypeSchema<R>::v() + "],\"params\":[" +
           params + "]}}";
  }
};

/*! \brief FuncFunctorImpl of a call operator (const or not) of a lambda or functor. */
template <typename T>
struct FunctionInfoHelper;
template <typename T, typename R, typename... Args>
struct FunctionInfoHelper<R (T::*)(Args...) const> : FuncFunctorImpl<R, Args...> {};
template <typename T, typename R, typename... Args>
struct FunctionInfoHelper<R (T::*)(Args...)> : FuncFunctorImpl<R, Args...> {};

/*!
 * \brief The first parameter a member function of Class takes when called as
 *        a typed function: the object pointer for an object type, the
 *        reference itself for a reference type (const for a const member).
 */
template <typename Class, bool kConstMember>
struct MemberFunctionSelf {
  using Plain = std::conditional_t<kConstMember, const Class, Class>;
  using type = std::conditional_t<std::is_base_of_v<Object, Class>, Plain*, Plain>;
};

/*! \brief True for the classes whose member functions can be typed functions. */
template <typename Class>
inline constexpr bool member_function_host_v =
    std::is_base_of_v<Object, Class> || std::is_base_of_v<ObjectRef, Class>;

/*!
 * \brief FuncFunctorImpl of a callable: a lambda or functor (its operator()),
 *        a function or function pointer, or a member function of an object
 *        or reference type (see MemberFunctionSelf).
 */
template <typename T, typename = void>
struct FunctionInfo : FunctionInfoHelper<decltype(&T::operator())> {};
template <typename Class, typename R, typename... Args>
struct FunctionInfo<R (Class::*)(Args...) const, std::enable_if_t<member_function_host_v<Class>>>
    : FuncFunctorImpl<R, typename MemberFunctionSelf<Class, true>::type, Args...> {};
template <typename Class, typename R, typename... Args>
struct FunctionInfo<R (Class::*)(Args...), std::enable_if_t<member_function_host_v<Class>>>
    : FuncFunctorImpl<R, typename MemberFunctionSelf<Class, false>::type, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (&)(Args...), void> : FuncFunctorImpl<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R (*)(Args...), void> : FuncFunctorImpl<R, Args...> {};
template <typename R, typename... Args>
struct FunctionInfo<R(Args...), void> : FuncFunctorImpl<R, Args...> {};

/*! \brief Returns a callable's signature text (for messages, computed only on error). */
using FGetFuncSignature = std::string (*)();

/*!
 * \brief Argument `arg_index` of a packed call, converted on demand to the
 *        parameter type `Type`; a mismatch throws TypeError naming the
 *        argument, the function and both types.
 */
template <typename Type>
class ArgValueWithContext {
 public:
  using TypeWithoutCR = std::remove_const_t<std::remove_reference_t<Type>>;

 private:
  // Where the argument is, and what names the call in a message.
  const AnyView* args_;
  int32_t arg_index_;
  const std::string* optional_name_;
  FGetFuncSignature f_sig_;

 public:
  TVM_FFI_INLINE ArgValueWithContext(const AnyView* args, int32_t arg_index,
                                     const std::string* optional_name, FGetFuncSignature f_sig)
      : args_(args), arg_index_(arg_index), optional_name_(optional_name), f_sig_(f_sig) {}

  TVM_FFI_INLINE operator TypeWithoutCR() {  // NOLINT(google-explicit-constructor)
    const AnyView& arg = args_[arg_index_];
    if constexpr (std::is_same_v<TypeWithoutCR, AnyView> || std::is_same_v<TypeWithoutCR, Any>) {
      return TypeWithoutCR(arg);
    } else {
      std::optional<TypeWithoutCR> value = arg.template try_cast<TypeWithoutCR>();
      if (TVM_FFI_PREDICT_FALSE(!value.has_value())) ThrowMismatch();
      return *std::move(value);
    }
  }

 private:
  [[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE void ThrowMismatch() const {
    TVMFFIAny raw = args_[arg_index_].CopyToTVMFFIAny();
    TVM_FFI_THROW(TypeError) << "Mismatched type on argument #" << arg_index_
                             << " when calling: `"
                             << (optional_name_ == nullptr ? "" : *optional_name_)
                             << (f_sig_ == nullptr ? "" : f_sig_()) << "`. Expected `"
                             << Type2Str<TypeWithoutCR>::v() << "` but got `"
                             << TypeTraits<TypeWithoutCR>::GetMismatchTypeInfo(&raw) << '`';
    TVM_FFI_UNREACHABLE();
  }
};

/*! \brief The TypeError of a call with the wrong number of arguments. */
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE inline void ThrowArgCountMismatch(
    const std::string* optional_name, FGetFuncSignature f_sig, size_t expected, int32_t got) {
  TVM_FFI_THROW(TypeError) << "Mismatched number of arguments when calling: `"
                           << (optional_name == nullptr ? "" : *optional_name)
                           << (f_sig == nullptr ? "" : f_sig()) << "`. Expected " << expected
                           << " but got " << got << " arguments";
  TVM_FFI_UNREACHABLE();
}

/*!
 * \brief Calls the typed callable `f` with the packed `args`, each converted
 *        to its parameter type, and stores the result (if R is not void) in
 *        `*rv`.  `optional_name` (may be null) names the function in errors.
 */
template <typename R, std::size_t... Is, typename F>
TVM_FFI_INLINE void unpack_call(std::index_sequence<Is...>, const std::string* optional_name,
                                const F& f, [[maybe_unused]] const AnyView* args,
                                [[maybe_unused]] int32_t num_args, [[maybe_unused]] Any* rv) {
  static_assert(FunctionInfo<F>::unpacked_supported,
                "a typed function's parameters and return type must convert to and from Any "
                "(parameters: values, const T& or T&&)");
  using FuncInfo = FunctionInfo<F>;
  using ParamTypes = typename FuncInfo::ArgType;
  FGetFuncSignature f_sig = FuncInfo::Sig;
  constexpr size_t kExpected = sizeof...(Is);
  if (TVM_FFI_PREDICT_FALSE(static_cast<size_t>(num_args) != kExpected)) {
    ThrowArgCountMismatch(optional_name, f_sig, kExpected, num_args);
  }
  if constexpr (std::is_void_v<R>) {
    f(ArgValueWithContext<std::tuple_element_t<Is, ParamTypes>>{args, static_cast<int32_t>(Is),
                                                                optional_name, f_sig}...);
  } else {
    *rv = R(f(ArgValueWithContext<std::tuple_element_t<Is, ParamTypes>>{
        args, static_cast<int32_t>(Is), optional_name, f_sig}...));
  }
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_FUNCTION_DETAIL_H_

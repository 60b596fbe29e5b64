/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/native_function.h
 * \brief Typed hooks stored in type-attribute columns: either a plain C
 *        function (called directly, no packing) or an ffi.Function (called
 *        through the packed convention).
 *
 * A hook value, as stored in a column, is one TVMFFIAny:
 *   - kTVMFFIOpaquePtr: a `TVMFFIAny (*)(Args...) noexcept` whose result is an
 *     Expected<R> in its Any form (the value, or an ffi.Error on failure);
 *   - kTVMFFIFunction: a packed function taking Args and returning R (or an
 *     ffi.Error value, which counts as a failure).
 * The library reads the columns it knows ("__any_hash__", "__any_equal__",
 * "__s_mutate__", ...) with the same rule, so a hook registered from here
 * and one registered from another language behave alike.
 */
#ifndef TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_
#define TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>

#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {

template <typename Signature>
class NativeFunctionView;
template <typename Signature>
class NativeFunction;

/*!
 * \brief A borrowed, typed hook `R(Args...)`: a native adapter with static
 *        lifetime (FromNative) or a packed function the caller keeps alive.
 *
 * \code{.cpp}
 * int PlusOne(int x) { return x + 1; }
 * using FPlusOne = tvm::ffi::reflection::NativeFunctionView<int(int)>;
 * FPlusOne hook = FPlusOne::FromNative<&PlusOne>();
 * int four = hook(3);                              // throws on failure
 * tvm::ffi::Expected<int> r = hook.CallExpected(3);  // never throws
 * \endcode
 */
template <typename R, typename... Args>
class NativeFunctionView<R(Args...)> {
 public:
  static_assert(((std::is_lvalue_reference_v<Args> ||
                  (std::is_standard_layout_v<Args> && std::is_trivially_copyable_v<Args>)) &&
                 ...),
                "NativeFunctionView: each parameter is an lvalue reference or a trivially "
                "copyable, standard-layout value (it crosses a C call)");
  static_assert((ffi::detail::ArgSupported<Args> && ...) && ffi::detail::RetSupported<R>,
                "NativeFunctionView: the signature must be one a TypedFunction accepts");

  /*! \brief The C signature of a native adapter. */
  using ABIType = TVMFFIAny (*)(Args...) noexcept;

  NativeFunctionView() = delete;
  NativeFunctionView(std::nullptr_t) = delete;  // NOLINT(google-explicit-constructor)

  /*!
   * \brief Borrows a typed packed function (not retained: it must outlive the view).
   * \throws ValueError when `packed` is null.
   */
  template <typename PR, std::enable_if_t<std::is_same_v<PR, R> || std::is_same_v<PR, Expected<R>>,
                                          int> = 0>
  NativeFunctionView(const TypedFunction<PR(Args...)>& packed)  // NOLINT(google-explicit-constructor)
      : data_(AnyView(packed.packed()).CopyToTVMFFIAny()) {
    TVM_FFI_CHECK(packed != nullptr, ValueError)
        << "NativeFunctionView requires a non-null typed function";
  }
  /*! \brief A temporary would dangle: borrowing one does not compile. */
  template <typename PR, std::enable_if_t<std::is_same_v<PR, R> || std::is_same_v<PR, Expected<R>>,
                                          int> = 0>
  NativeFunctionView(const TypedFunction<PR(Args...)>&&) = delete;

  /*!
   * \brief A view of the static adapter around `Fn`, a function
   *        `Expected<R>(Args...) noexcept` or `R(Args...)` (whose exceptions the
   *        adapter turns into an error result).
   */
  template <auto Fn>
  static NativeFunctionView FromNative() {
    // (A type test: GCC with -fsanitize=undefined does not fold `Fn != nullptr`.)
    static_assert(!std::is_same_v<decltype(Fn), std::nullptr_t>,
                  "NativeFunctionView::FromNative needs a function");
    TVMFFIAny raw;
    raw.type_index = TypeIndex::kTVMFFIOpaquePtr;
    raw.zero_padding = 0;
    raw.v_int64 = 0;
    raw.v_ptr = reinterpret_cast<void*>(&Adapter<Fn>);
    return NativeFunctionView(UnsafeInit{}, raw);
  }

  /*! \brief Calls the hook; a failure comes back as the error, never thrown. */
  TVM_FFI_INLINE Expected<R> CallExpected(Args... args) const noexcept {
    return ffi::detail::ExpectedUnsafe::MoveFromTVMFFIAny<R>(Invoke(std::forward<Args>(args)...));
  }

  /*! \brief Calls the hook; a failure is thrown as its Error. */
  TVM_FFI_INLINE R operator()(Args... args) const {
    return CallExpected(std::forward<Args>(args)...).value();
  }

 private:
  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;
  template <typename>
  friend class NativeFunction;

  NativeFunctionView(UnsafeInit, TVMFFIAny raw) : data_(raw) {}

  static TVMFFIAny Failure(Error error) noexcept {
    return ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(Expected<R>(Unexpected(std::move(error))));
  }

  template <typename V>
  static TVMFFIAny Success(V&& value) noexcept {
    return ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(Expected<R>(std::forward<V>(value)));
  }

  template <auto Fn>
  static TVMFFIAny Adapter(Args... args) noexcept {
    using Result = std::invoke_result_t<decltype(Fn), Args...>;
    constexpr bool kReturnsExpected = std::is_same_v<std::decay_t<Result>, Expected<R>>;
    if constexpr (kReturnsExpected && std::is_nothrow_invocable_v<decltype(Fn), Args...>) {
      return ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(Fn(std::forward<Args>(args)...));
    } else {
      try {
        if constexpr (kReturnsExpected) {
          return ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(Fn(std::forward<Args>(args)...));
        } else if constexpr (std::is_void_v<R>) {
          Fn(std::forward<Args>(args)...);
          return ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(Expected<void>());
        } else {
          return Success(static_cast<R>(Fn(std::forward<Args>(args)...)));
        }
      } catch (const Error& error) {
        return Failure(error);
      } catch (const std::exception& error) {
        return Failure(Error("InternalError", error.what(), ""));
      } catch (...) {
        return Failure(Error("InternalError", "a native hook threw a non-standard exception", ""));
      }
    }
  }

  TVM_FFI_INLINE TVMFFIAny Invoke(Args... args) const noexcept {
    if (TVM_FFI_PREDICT_TRUE(data_.type_index == TypeIndex::kTVMFFIOpaquePtr)) {
      return reinterpret_cast<ABIType>(data_.v_ptr)(std::forward<Args>(args)...);
    }
    return InvokePacked(std::forward<Args>(args)...);
  }

  // The packed path: convert the arguments, call, and check the result type.
  TVM_FFI_COLD_CODE TVMFFIAny InvokePacked(Args... args) const noexcept {
    try {
      AnyView views[sizeof...(Args) + 1] = {AnyView(args)..., AnyView()};
      Any result;
      if (TVMFFIFunctionCall(data_.v_obj, reinterpret_cast<TVMFFIAny*>(views),
                             static_cast<int32_t>(sizeof...(Args)),
                             reinterpret_cast<TVMFFIAny*>(&result)) != 0) {
        return Failure(ffi::detail::MoveFromSafeCallRaised());
      }
      if (result.type_index() == TypeIndex::kTVMFFIError) {
        return Failure(ffi::detail::AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(result)));
      }
      if constexpr (std::is_void_v<R>) {
        if (result.type_index() == TypeIndex::kTVMFFINone) {
          return ffi::detail::ExpectedUnsafe::MoveToTVMFFIAny(Expected<void>());
        }
      } else if constexpr (std::is_same_v<R, Any>) {
        return Success(std::move(result));
      } else {
        if (std::optional<R> value = result.template try_cast<R>()) {
          return Success(*std::move(value));
        }
      }
      return Failure(Error("TypeError", "Packed hook result type mismatch", ""));
    } catch (const Error& error) {
      return Failure(error);
    } catch (const std::exception& error) {
      return Failure(Error("InternalError", error.what(), ""));
    }
  }

  TVMFFIAny data_;
};

/*!
 * \brief The owning form of NativeFunctionView: it keeps a packed function
 *        alive (a native adapter needs nothing kept).
 */
template <typename R, typename... Args>
class NativeFunction<R(Args...)> {
 public:
  /*! \brief The borrowed form. */
  using View = NativeFunctionView<R(Args...)>;

  /*! \brief Retains what `view` refers to. */
  explicit NativeFunction(View view) : data_(AnyView::CopyFromTVMFFIAny(view.data_)) {}

  /*! \brief Retains a typed packed function (ValueError when null). */
  template <typename PR, std::enable_if_t<std::is_same_v<PR, R> || std::is_same_v<PR, Expected<R>>,
                                          int> = 0>
  NativeFunction(const TypedFunction<PR(Args...)>& packed)  // NOLINT(google-explicit-constructor)
      : NativeFunction(View(packed)) {}

  /*! \brief Same as the constructor from a view. */
  static NativeFunction From(View view) { return NativeFunction(view); }

  /*! \brief Owns the static adapter around `Fn` (see View::FromNative). */
  template <auto Fn>
  static NativeFunction FromNative() {
    return NativeFunction(View::template FromNative<Fn>());
  }

  /*! \brief Calls the hook; a failure comes back as the error, never thrown. */
  TVM_FFI_INLINE Expected<R> CallExpected(Args... args) const noexcept { return view().CallExpected(std::forward<Args>(args)...); }

  /*! \brief Calls the hook; a failure is thrown as its Error. */
  TVM_FFI_INLINE R operator()(Args... args) const {
    return CallExpected(std::forward<Args>(args)...).value();
  }

 private:
  template <typename, typename>
  friend struct ::tvm::ffi::TypeTraits;

  NativeFunction(UnsafeInit, Any data) : data_(std::move(data)) {}
  View view() const noexcept { return View(UnsafeInit{}, AnyView(data_).CopyToTVMFFIAny()); }

  Any data_;
};

}  // namespace reflection

/// \cond Doxygen_Suppress
template <typename Signature>
inline constexpr bool use_default_type_traits_v<reflection::NativeFunctionView<Signature>> = false;
template <typename Signature>
inline constexpr bool use_default_type_traits_v<reflection::NativeFunction<Signature>> = false;

namespace detail {
/*! \brief Whether a raw value is a hook: a non-null opaque pointer or a function. */
TVM_FFI_INLINE bool IsNativeHookValue(const TVMFFIAny* src) {
  return (src->type_index == TypeIndex::kTVMFFIOpaquePtr && src->v_ptr != nullptr) ||
         src->type_index == TypeIndex::kTVMFFIFunction;
}
/*! \brief "Variant<void*, Callable(...)>": how a hook type is spelled in messages. */
template <typename Signature>
inline std::string NativeHookTypeStr() {
  return "Variant<" + TypeTraits<void*>::TypeStr() + ", " +
         TypeTraits<TypedFunction<Signature>>::TypeStr() + ">";
}
template <typename Signature>
inline std::string NativeHookTypeSchema() {
  return std::string("{\"type\":\"Variant\",\"args\":[") + TypeTraits<void*>::TypeSchema() + "," +
         TypeTraits<TypedFunction<Signature>>::TypeSchema() + "]}";
}
}  // namespace detail

template <typename Signature>
struct TypeTraits<reflection::NativeFunctionView<Signature>> : public TypeTraitsBase {
  using Self = reflection::NativeFunctionView<Signature>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { *result = src.data_; }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    Any owned = AnyView::CopyFromTVMFFIAny(src.data_);
    *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owned));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return detail::IsNativeHookValue(src); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return Self(UnsafeInit{}, *src); }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) { return Self(UnsafeInit{}, *src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!detail::IsNativeHookValue(src)) return std::nullopt;
    return Self(UnsafeInit{}, *src);
  }
  static std::string TypeStr() { return detail::NativeHookTypeStr<Signature>(); }
  static std::string TypeSchema() { return detail::NativeHookTypeSchema<Signature>(); }
};

template <typename Signature>
struct TypeTraits<reflection::NativeFunction<Signature>> : public TypeTraitsBase {
  using Self = reflection::NativeFunction<Signature>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;

  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    *result = AnyView(src.data_).CopyToTVMFFIAny();
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return detail::IsNativeHookValue(src); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Self(UnsafeInit{}, AnyView::CopyFromTVMFFIAny(*src));
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Self(UnsafeInit{}, detail::AnyUnsafe::MoveTVMFFIAnyToAny(src));
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!detail::IsNativeHookValue(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  static std::string TypeStr() { return detail::NativeHookTypeStr<Signature>(); }
  static std::string TypeSchema() { return detail::NativeHookTypeSchema<Signature>(); }
};
/// \endcond

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_NATIVE_FUNCTION_H_

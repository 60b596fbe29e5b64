/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/expected.h
 * \brief Expected<T>: a T or an Error, for code that reports failure by
 *        value instead of throwing; Unexpected<E> to return an error;
 *        TVM_FFI_UNEXPECTED and the TVM_FFI_RET_CHECK family.
 *
 * Layout (C++ ABI): Expected<T> = { Any } holding the value or an ffi.Error
 * (Expected<void>: None or an Error).  So an Expected converts to an Any as
 * whichever it holds, and Expected<T> is never Expected<Error>.
 */
#ifndef TVM_FFI_EXPECTED_H_
#define TVM_FFI_EXPECTED_H_

#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>

namespace tvm {
namespace ffi {

/*!
 * \brief Wraps an Error on its way into an Expected, so that the Expected
 *        knows it holds a failure: `return Unexpected(Error(...));`.
 *        E is Error or a class derived from it.
 */
template <typename E = Error>
class Unexpected {
 public:
  explicit Unexpected(E error) : error_(std::move(error)) {}

  /*! \brief The wrapped error, with the value category of the Unexpected. */
  E& error() & noexcept { return error_; }
  const E& error() const& noexcept { return error_; }
  E&& error() && noexcept { return std::move(error_); }
  const E&& error() const&& noexcept { return std::move(error_); }

 private:
  static_assert(std::is_base_of_v<Error, std::remove_cv_t<E>>,
                "Unexpected<E> holds an Error (or a subclass of Error)");
  E error_;
};

/*! \brief `Unexpected(err)` takes E from the argument. */
template <typename E>
Unexpected(E) -> Unexpected<E>;

template <typename T>
class Expected;

template <typename T, typename U>
inline constexpr bool type_subsumes_v<Expected<T>, Expected<U>> = type_subsumes_v<T, U>;

namespace detail {
struct ExpectedUnsafe;

/*! \brief Recognises Expected<...> (Kind 0) and Unexpected<...> (Kind 1). */
template <int Kind, typename T>
struct ExpectedFamily : std::false_type {};
template <typename T>
struct ExpectedFamily<0, Expected<T>> : std::true_type {};
template <typename E>
struct ExpectedFamily<1, Unexpected<E>> : std::true_type {};

template <typename T>
inline constexpr bool is_unexpected_v = ExpectedFamily<1, T>::value;
template <typename T>
inline constexpr bool is_expected_v = ExpectedFamily<0, T>::value;

/*! \brief The error of error() on an Expected that holds a value. */
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE inline void ThrowBadExpectedAccess() {
  TVM_FFI_THROW(RuntimeError) << "Bad expected access: contains value, not error";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*!
 * \brief A T or an Error.  value() returns the T or throws the Error;
 *        error() returns the Error (RuntimeError when there is none).
 */
template <typename T>
class Expected {
 public:
  static_assert(!std::is_void_v<T>, "use Expected<void> (without cv-qualifiers)");
  static_assert(!std::is_same_v<T, Error>, "Expected<Error> is not allowed: use Error itself");

  TVM_FFI_INLINE ~Expected() = default;
  TVM_FFI_INLINE Expected(const Expected&) = default;
  TVM_FFI_INLINE Expected(Expected&&) noexcept = default;
  TVM_FFI_INLINE Expected& operator=(const Expected&) = default;
  TVM_FFI_INLINE Expected& operator=(Expected&&) noexcept = default;

  /*! \brief A value. */
  TVM_FFI_INLINE Expected(T value) : data_(Any(std::move(value))) {}  // NOLINT(*)
  /*! \brief A value of a type that converts to T. */
  template <typename U, typename = std::enable_if_t<!detail::is_expected_v<std::decay_t<U>> &&
                                                    !detail::is_unexpected_v<std::decay_t<U>> &&
                                                    !std::is_base_of_v<Error, std::decay_t<U>> &&
                                                    std::is_convertible_v<U, T>>>
  TVM_FFI_INLINE Expected(U&& value) : data_(Any(T(std::forward<U>(value)))) {}  // NOLINT(*)
  /*! \brief From an Expected of a type that is (or converts to) a T; the error passes through. */
  template <typename U,
            typename = std::enable_if_t<!std::is_void_v<U> &&
                                        (type_subsumes_v<T, U> || std::is_convertible_v<U, T>)>>
  TVM_FFI_INLINE Expected(Expected<U> other) : data_(Rewrap(std::move(other))) {}  // NOLINT(*)
  /*! \brief An error. */
  TVM_FFI_INLINE Expected(Error error) : data_(Any(std::move(error))) {}  // NOLINT(*)
  template <typename E, typename = std::enable_if_t<std::is_base_of_v<Error, std::remove_cv_t<E>>>>
  TVM_FFI_INLINE Expected(Unexpected<E> unexpected)  // NOLINT(*)
      : data_(Any(std::move(unexpected).error())) {}

  /*! \brief The type index of what is held (kTVMFFIError for an error). */
  TVM_FFI_INLINE int32_t type_index() const noexcept { return data_.type_index(); }
  TVM_FFI_INLINE bool is_ok() const noexcept { return !is_err(); }
  TVM_FFI_INLINE bool is_err() const noexcept {
    return data_.type_index() == TypeIndex::kTVMFFIError;
  }
  TVM_FFI_INLINE bool has_value() const noexcept { return is_ok(); }

  /*! \brief The value; the Error is thrown if there is one. */
  TVM_FFI_INLINE T value() const& {
    if (TVM_FFI_PREDICT_FALSE(is_err())) throw detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data_);
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  TVM_FFI_INLINE T value() && {
    if (TVM_FFI_PREDICT_FALSE(is_err())) {
      throw detail::AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(data_));
    }
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }

  /*!
   * \brief This result as an Expected<U>: the error passes through; a value
   *        that is not exactly a U becomes a TypeError
   *        "Cannot treat type `X` as type `U`".
   */
  template <typename U, typename = std::enable_if_t<
                            std::is_same_v<U, std::decay_t<U>> && !std::is_base_of_v<Error, U> &&
                            (TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>)>>
  TVM_FFI_INLINE Expected<U> as_or_error() const& {
    if (TVM_FFI_PREDICT_FALSE(!HoldsErrorOr<U>())) return MismatchError<U>();
    return Expected<U>(UnsafeInit{}, detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(data_)));
  }
  template <typename U, typename = std::enable_if_t<
                            std::is_same_v<U, std::decay_t<U>> && !std::is_base_of_v<Error, U> &&
                            (TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>)>>
  TVM_FFI_INLINE Expected<U> as_or_error() && {
    if (TVM_FFI_PREDICT_FALSE(!HoldsErrorOr<U>())) return MismatchError<U>();
    return Expected<U>(UnsafeInit{}, detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(data_)));
  }

  /*! \brief The error. \throws RuntimeError when a value is held. */
  TVM_FFI_INLINE Error error() const& {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data_);
  }
  TVM_FFI_INLINE Error error() && {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(data_));
  }

  /*! \brief The value, or `default_value` when an error is held. */
  template <typename U = std::remove_cv_t<T>>
  TVM_FFI_INLINE T value_or(U&& default_value) const& {
    if (is_err()) return T(std::forward<U>(default_value));
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  template <typename U = std::remove_cv_t<T>>
  TVM_FFI_INLINE T value_or(U&& default_value) && {
    if (is_err()) return T(std::forward<U>(default_value));
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }

 private:
  template <typename>
  friend class Expected;
  friend struct detail::ExpectedUnsafe;

  Expected() = default;
  TVM_FFI_INLINE Expected(UnsafeInit, TVMFFIAny raw) noexcept
      : data_(detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(raw)) {}

  template <typename U>
  static Any Rewrap(Expected<U>&& other) {
    if constexpr (type_subsumes_v<T, U>) {
      return std::move(other.data_);
    } else {
      if (other.is_err()) return Any(std::move(other).error());
      return Any(T(std::move(other).value()));
    }
  }
  template <typename U>
  bool HoldsErrorOr() const {
    return is_err() || detail::AnyUnsafe::CheckAnyStrict<U>(data_);
  }
  template <typename U>
  Expected<U> MismatchError() const {
    return Error("TypeError",
                 "Cannot treat type `" + data_.GetTypeKey() + "` as type `" +
                     detail::Type2Str<U>::v() + "`",
                 "");
  }

  /*! \brief A T, or an Error (type index kTVMFFIError). */
  Any data_;
};

/*! \brief Success (nothing) or an Error. */
template <>
class Expected<void> {
 public:
  TVM_FFI_INLINE ~Expected() = default;
  TVM_FFI_INLINE Expected(const Expected&) = default;
  TVM_FFI_INLINE Expected(Expected&&) noexcept = default;
  TVM_FFI_INLINE Expected& operator=(const Expected&) = default;
  TVM_FFI_INLINE Expected& operator=(Expected&&) noexcept = default;
  /*! \brief Success. */
  Expected() = default;
  TVM_FFI_INLINE Expected(Error error) : data_(Any(std::move(error))) {}  // NOLINT(*)
  template <typename E, typename = std::enable_if_t<std::is_base_of_v<Error, std::remove_cv_t<E>>>>
  TVM_FFI_INLINE Expected(Unexpected<E> unexpected)  // NOLINT(*)
      : data_(Any(std::move(unexpected).error())) {}

  TVM_FFI_INLINE int32_t type_index() const noexcept { return data_.type_index(); }
  TVM_FFI_INLINE bool is_ok() const noexcept { return !is_err(); }
  TVM_FFI_INLINE bool is_err() const noexcept {
    return data_.type_index() == TypeIndex::kTVMFFIError;
  }
  TVM_FFI_INLINE bool has_value() const noexcept { return is_ok(); }
  /*! \brief Throws the Error if there is one. */
  TVM_FFI_INLINE void value() const& {
    if (TVM_FFI_PREDICT_FALSE(is_err())) throw detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data_);
  }
  TVM_FFI_INLINE void value() && {
    if (TVM_FFI_PREDICT_FALSE(is_err())) {
      throw detail::AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(data_));
    }
  }
  TVM_FFI_INLINE Error error() const& {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(data_);
  }
  TVM_FFI_INLINE Error error() && {
    if (is_ok()) detail::ThrowBadExpectedAccess();
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(data_));
  }

 private:
  friend struct detail::ExpectedUnsafe;
  TVM_FFI_INLINE Expected(UnsafeInit, TVMFFIAny raw) noexcept
      : data_(detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(raw)) {}

  /*! \brief None on success, or an Error. */
  Any data_;
};

namespace detail {

/*! \brief Raw access to an Expected's Any for the headers' own use. */
struct ExpectedUnsafe {
  /*! \brief The stored Any, to move from. */
  template <typename T>
  TVM_FFI_INLINE static Any&& GetData(Expected<T>& result) noexcept {
    return std::move(result.data_);
  }
  /*! \brief The stored Any, read only. */
  template <typename T>
  TVM_FFI_INLINE static const Any& GetData(const Expected<T>& result) noexcept {
    return result.data_;
  }

  /*! \brief The value as exactly a T (no conversion); an Error inside is thrown. */
  template <typename T, typename U>
  TVM_FFI_INLINE static T ValueAs(const Expected<U>& result) {
    if constexpr (!std::is_void_v<T>) {
      const Any& held = GetData(result);
      if (TVM_FFI_PREDICT_TRUE(held.type_index() != TypeIndex::kTVMFFIError)) {
        return AnyUnsafe::CopyFromAnyViewAfterCheck<T>(held);
      }
      throw AnyUnsafe::CopyFromAnyViewAfterCheck<Error>(held);
    } else {
      static_assert(std::is_void_v<U>, "ValueAs<void> takes an Expected<void>");
      result.value();
    }
  }

  /*! \brief Hands the stored value over as an owned raw value. */
  template <typename T>
  TVM_FFI_INLINE static TVMFFIAny MoveToTVMFFIAny(Expected<T>&& result) {
    return AnyUnsafe::MoveAnyToTVMFFIAny(GetData(result));
  }
  /*! \brief Adopts an owned raw value that is a T (or None for void) or an Error. */
  template <typename T>
  TVM_FFI_INLINE static Expected<T> MoveFromTVMFFIAny(TVMFFIAny raw) {
    return Expected<T>(UnsafeInit{}, raw);
  }
};

}  // namespace detail

template <typename T>
inline constexpr bool use_default_type_traits_v<Expected<T>> = false;

/*! \brief Expected<T> in an Any: whichever it holds, the T or the Error. */
template <typename T>
struct TypeTraits<Expected<T>> : public TypeTraitsBase {
  using ValueTraits = TypeTraits<T>;
  using ErrorTraits = TypeTraits<Error>;

  TVM_FFI_INLINE static void CopyToAnyView(const Expected<T>& src, TVMFFIAny* result) {
    // The Any inside already holds exactly the view to give out.
    *result = AnyView(detail::ExpectedUnsafe::GetData(src)).CopyToTVMFFIAny();
  }
  TVM_FFI_INLINE static void MoveToAny(Expected<T> src, TVMFFIAny* result) {
    *result = detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(src));
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return ErrorTraits::CheckAnyStrict(src) || ValueTraits::CheckAnyStrict(src);
  }
  TVM_FFI_INLINE static Expected<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (ErrorTraits::CheckAnyStrict(src)) return ErrorTraits::CopyFromAnyViewAfterCheck(src);
    return ValueTraits::CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static Expected<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (ErrorTraits::CheckAnyStrict(src)) return ErrorTraits::MoveFromAnyAfterCheck(src);
    return ValueTraits::MoveFromAnyAfterCheck(src);
  }
  /*! \brief T's conversions first, then an Error. */
  TVM_FFI_INLINE static std::optional<Expected<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src)) {
      return Expected<T>(*std::move(value));
    }
    if (std::optional<Error> error = TypeTraits<Error>::TryCastFromAnyView(src)) {
      return Expected<T>(*std::move(error));
    }
    return std::nullopt;
  }
  TVM_FFI_INLINE static std::string TypeStr() {
    return "Expected<" + TypeTraits<T>::TypeStr() + ">";
  }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return "{\"type\":\"Expected\",\"args\":[" + detail::TypeSchema<T>::v() +
           ",{\"type\":\"ffi.Error\"}]}";
  }
};

/*! \brief Expected<void> in an Any: None or the Error. */
template <>
struct TypeTraits<Expected<void>> : public TypeTraitsBase {
  using NoneTraits = TypeTraits<std::nullptr_t>;

  TVM_FFI_INLINE static void CopyToAnyView(const Expected<void>& src, TVMFFIAny* result) {
    if (src.is_err()) {
      TypeTraits<Error>::CopyToAnyView(src.error(), result);
    } else {
      NoneTraits::CopyToAnyView(nullptr, result);
    }
  }
  TVM_FFI_INLINE static void MoveToAny(Expected<void> src, TVMFFIAny* result) {
    if (src.is_err()) {
      TypeTraits<Error>::MoveToAny(std::move(src).error(), result);
    } else {
      NoneTraits::MoveToAny(nullptr, result);
    }
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return NoneTraits::CheckAnyStrict(src) || TypeTraits<Error>::CheckAnyStrict(src);
  }
  TVM_FFI_INLINE static Expected<void> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (NoneTraits::CheckAnyStrict(src)) return Expected<void>();
    return TypeTraits<Error>::CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static Expected<void> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (NoneTraits::CheckAnyStrict(src)) return Expected<void>();
    return TypeTraits<Error>::MoveFromAnyAfterCheck(src);
  }
  TVM_FFI_INLINE static std::optional<Expected<void>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (NoneTraits::CheckAnyStrict(src)) return Expected<void>();
    if (std::optional<Error> error = TypeTraits<Error>::TryCastFromAnyView(src)) {
      return Expected<void>(*std::move(error));
    }
    return std::nullopt;
  }
  TVM_FFI_INLINE static std::string TypeStr() { return "Expected<void>"; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return "{\"type\":\"Expected\",\"args\":[" + NoneTraits::TypeSchema() +
           ",{\"type\":\"ffi.Error\"}]}";
  }
};

namespace detail {

/*!
 * \brief Collects a message (operator<<) and becomes an Unexpected<Error> or
 *        Expected<T> of `kind`, with one backtrace frame for where it was made.
 */
class UnexpectedBuilder {
 public:
  UnexpectedBuilder(const char* kind, const char* file, int line, const char* function)
      : kind_(kind), file_(file), function_(function), line_(line) {}

  /*! \brief Stream manipulators such as std::hex. */
  UnexpectedBuilder&& operator<<(std::ostream& (*manipulator)(std::ostream&)) && {
    stream_ << manipulator;
    return std::move(*this);
  }
  /*! \brief Appends `value` to the message. */
  template <typename T>
  UnexpectedBuilder&& operator<<(T&& value) && {
    stream_ << std::forward<T>(value);
    return std::move(*this);
  }

  operator Unexpected<Error>() && {  // NOLINT(google-explicit-constructor)
    std::ostringstream frame;
    frame << "  File \"" << file_ << "\", line " << line_ << ", in " << function_ << '\n';
    return Unexpected(Error(kind_, stream_.str(), frame.str()));
  }
  template <typename T>
  operator Expected<T>() && {  // NOLINT(google-explicit-constructor)
    return static_cast<Unexpected<Error>>(std::move(*this));
  }

 private:
  const char* kind_;
  const char* file_;
  const char* function_;
  int line_;
  std::ostringstream stream_;
};

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

/*! \brief `return TVM_FFI_UNEXPECTED(ValueError) << "text";` from a function returning Expected. */
#define TVM_FFI_UNEXPECTED(ErrorKind) \
  ::tvm::ffi::detail::UnexpectedBuilder(#ErrorKind, __FILE__, __LINE__, TVM_FFI_FUNC_SIG)

/*!
 * \brief Returns an Unexpected ErrorKind with "Check failed: (cond) is false: "
 *        (and streamed text) from the enclosing function unless `cond` holds.
 */
#define TVM_FFI_RET_CHECK(cond, ErrorKind) \
  if (TVM_FFI_PREDICT_TRUE(cond)) {        \
  } else /* NOLINT(readability-braces) */  \
    return TVM_FFI_UNEXPECTED(ErrorKind) << "Check failed: (" #cond ") is false: "

/*! \brief Binary form: "Check failed: x op y (xv vs. yv) : ". */
#define TVM_FFI_RET_CHECK_BINARY_OP(name, op, x, y, ErrorKind)                 \
  if (auto tvm_ffi_check_err = ::tvm::ffi::detail::LogCheck##name(x, y);       \
      TVM_FFI_PREDICT_TRUE(tvm_ffi_check_err == nullptr)) {                    \
  } else /* NOLINT(readability-braces) */                                      \
    return TVM_FFI_UNEXPECTED(ErrorKind)                                       \
           << "Check failed: " << #x " " #op " " #y << (*tvm_ffi_check_err) << ": "

#define TVM_FFI_RET_CHECK_EQ(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_EQ, ==, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_NE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_NE, !=, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_LT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_LT, <, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_LE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_LE, <=, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_GT(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_GT, >, x, y, ErrorKind)
#define TVM_FFI_RET_CHECK_GE(x, y, ErrorKind) TVM_FFI_RET_CHECK_BINARY_OP(_GE, >=, x, y, ErrorKind)

/*! \brief The RET_CHECK forms with kind InternalError. */
#define TVM_FFI_RET_ICHECK(x) TVM_FFI_RET_CHECK(x, InternalError)
#define TVM_FFI_RET_ICHECK_EQ(x, y) TVM_FFI_RET_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_NE(x, y) TVM_FFI_RET_CHECK_NE(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_LT(x, y) TVM_FFI_RET_CHECK_LT(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_LE(x, y) TVM_FFI_RET_CHECK_LE(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_GT(x, y) TVM_FFI_RET_CHECK_GT(x, y, InternalError)
#define TVM_FFI_RET_ICHECK_GE(x, y) TVM_FFI_RET_CHECK_GE(x, y, InternalError)

#endif  // TVM_FFI_EXPECTED_H_

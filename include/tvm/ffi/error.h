/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/error.h
 * \brief Errors: ErrorObj (the ffi.Error object), Error (the C++ exception
 *        that holds one), TVM_FFI_THROW and the check macros.
 *
 * An Error crosses the C ABI as an object: a C function returns -1 with the
 * error in the thread's slot (TVMFFIErrorSetRaised), and the C++ caller
 * rethrows it (detail::MoveFromSafeCallRaised).  Kind, message and backtrace
 * survive the round trip, so `except ValueError` in Python catches
 * `TVM_FFI_THROW(ValueError)` in C++.
 *
 * ABI note: Error's layout is { vptr, ObjectRef } (std::exception is its
 * primary base) with the virtual table { ~Error, ~Error (deleting), what };
 * libraries built from either copy of these headers throw and catch each
 * other's errors.
 */
#ifndef TVM_FFI_ERROR_H_
#define TVM_FFI_ERROR_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstring>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

/*! \brief 1 to print every error thrown by TVM_FFI_THROW to stderr before it is thrown. */
#ifndef TVM_FFI_ALWAYS_LOG_BEFORE_THROW
#define TVM_FFI_ALWAYS_LOG_BEFORE_THROW 0
#endif

namespace tvm {
namespace ffi {

/*!
 * \brief The ffi.Error object: the Object header followed by TVMFFIErrorCell
 *        (kind, message, backtrace, update_backtrace, cause_chain,
 *        extra_context).  Subclasses own the bytes the cell points to.
 */
class ErrorObj : public Object, public TVMFFIErrorCell {
 public:
  ErrorObj() {
    cause_chain = nullptr;
    extra_context = nullptr;
  }
  /*! \brief Drops the references to the cause and the extra context. */
  ~ErrorObj() {
    detail::ObjectUnsafe::DecRefObjectHandle(cause_chain);
    detail::ObjectUnsafe::DecRefObjectHandle(extra_context);
  }

  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIError;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIError, ErrorObj, Object);
};

namespace detail {

/*! \brief An ErrorObj whose kind, message and backtrace live in std::strings. */
class ErrorObjFromStd : public ErrorObj {
 public:
  ErrorObjFromStd(std::string kind, std::string message, std::string backtrace)
      : kind_data_(std::move(kind)),
        message_data_(std::move(message)),
        backtrace_data_(std::move(backtrace)) {
    this->kind = View(kind_data_);
    this->message = View(message_data_);
    this->backtrace = View(backtrace_data_);
    this->update_backtrace = UpdateBacktrace;
  }

 private:
  static TVMFFIByteArray View(const std::string& text) { return {text.data(), text.size()}; }

  /*! \brief The cell's update_backtrace: replace, or append (kTVMFFIBacktraceUpdateModeAppend). */
  static void UpdateBacktrace(TVMFFIObjectHandle self, const TVMFFIByteArray* text,
                              int32_t update_mode) {
    ErrorObjFromStd* obj = static_cast<ErrorObjFromStd*>(static_cast<Object*>(self));
    if (update_mode == kTVMFFIBacktraceUpdateModeReplace) obj->backtrace_data_.clear();
    obj->backtrace_data_.append(text->data, text->size);
    obj->backtrace = View(obj->backtrace_data_);
  }

  std::string kind_data_;
  std::string message_data_;
  std::string backtrace_data_;
};

/*! \brief A byte array as a std::string. */
inline std::string ByteArrayToString(const TVMFFIByteArray& bytes) {
  return std::string(bytes.data, bytes.size);
}

}  // namespace detail

/*!
 * \brief The exception every tvm::ffi error is thrown as: a reference to an
 *        ErrorObj, never empty.
 *
 * kind() is the error class name ("ValueError", "TypeError", "InternalError",
 * ...), message() the text, backtrace() the frames, most recent call first,
 * one `  File "file", line N, in function` line each.
 */
class TVM_FFI_DLL Error : public ObjectRef, public std::exception {
 public:
  /*! \brief A new error of `kind` with `message` and `backtrace`. */
  Error(std::string kind, std::string message, std::string backtrace) {
    data_ = make_object<detail::ErrorObjFromStd>(std::move(kind), std::move(message),
                                                 std::move(backtrace));
  }
  /*!
   * \brief As above, also recording the error that caused this one and an
   *        object with more context (either may be std::nullopt).
   */
  Error(std::string kind, std::string message, std::string backtrace,
        std::optional<Error> cause_chain, std::optional<ObjectRef> extra_context) {
    ObjectPtr<ErrorObj> obj = make_object<detail::ErrorObjFromStd>(
        std::move(kind), std::move(message), std::move(backtrace));
    if (cause_chain.has_value()) {
      obj->cause_chain =
          detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(*std::move(cause_chain));
    }
    if (extra_context.has_value()) {
      obj->extra_context =
          detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(*std::move(extra_context));
    }
    data_ = std::move(obj);
  }
  /*! \brief As the first constructor, with the backtrace from TVMFFIBacktrace. */
  Error(std::string kind, std::string message, const TVMFFIByteArray* backtrace)
      : Error(std::move(kind), std::move(message), detail::ByteArrayToString(*backtrace)) {}

  /*! \brief The error class name, e.g. "ValueError". */
  std::string kind() const { return detail::ByteArrayToString(cell()->kind); }
  /*! \brief The message. */
  std::string message() const { return detail::ByteArrayToString(cell()->message); }
  /*! \brief The frames, most recent call first. */
  std::string backtrace() const { return detail::ByteArrayToString(cell()->backtrace); }

  /*! \brief The error this one was raised from, if any. */
  std::optional<Error> cause_chain() const {
    if (cell()->cause_chain == nullptr) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(
            static_cast<TVMFFIObject*>(cell()->cause_chain)));
  }
  /*! \brief The extra context object, if any. */
  std::optional<ObjectRef> extra_context() const {
    if (cell()->extra_context == nullptr) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
        detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(
            static_cast<TVMFFIObject*>(cell()->extra_context)));
  }

  /*!
   * \brief The backtrace in Python's order (most recent call last): its
   *        non-empty lines reversed, each ending in a newline.
   */
  std::string TracebackMostRecentCallLast() const {
    const TVMFFIByteArray& text = cell()->backtrace;
    std::string out;
    out.reserve(text.size + 1);
    size_t end = text.size;
    while (end > 0) {
      size_t begin = end;
      while (begin > 0 && text.data[begin - 1] != '\n') --begin;
      if (begin < end) out.append(text.data + begin, end - begin).push_back('\n');
      end = begin == 0 ? 0 : begin - 1;
    }
    return out;
  }

  /*! \brief Replaces or appends to the backtrace (kTVMFFIBacktraceUpdateMode*). */
  void UpdateBacktrace(const TVMFFIByteArray* backtrace_str, int32_t update_mode) {
    cell()->update_backtrace(static_cast<TVMFFIObjectHandle>(get_mutable()), backtrace_str,
                             update_mode);
  }

  /*!
   * \brief The whole report as Python prints it:
   *        "Traceback (most recent call last):\n<frames><kind>: <message>\n".
   */
  std::string FullMessage() const {
    return "Traceback (most recent call last):\n" + TracebackMostRecentCallLast() + kind() +
           ": " + message() + '\n';
  }

  /*! \brief The message (NUL-terminated; valid while the error lives). */
  const char* what() const noexcept(true) override { return cell()->message.data; }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Error, ObjectRef, ErrorObj);

 private:
  ErrorObj* cell() const { return static_cast<ErrorObj*>(get_mutable()); }
};

/*!
 * \brief The error a C++ caller throws when a C call returned -2: the
 *        frontend (e.g. Python) has already recorded the real error.
 */
inline Error EnvErrorAlreadySet() { return Error("EnvErrorAlreadySet", "", ""); }

namespace detail {

/*! \brief Takes the error out of the thread's slot (after a call returned -1). */
TVM_FFI_INLINE Error MoveFromSafeCallRaised() {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  return ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
      ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
}

/*! \brief Stores `error` in the thread's slot (a new reference is taken). */
TVM_FFI_INLINE void SetSafeCallRaised(const Error& error) {
  TVMFFIErrorSetRaised(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(error));
}

/*!
 * \brief The temporary behind TVM_FFI_THROW(Kind) << "text" << value;: the
 *        message goes into stream(), and the destructor, at the end of the
 *        full expression, throws the Error (kind, message, backtrace, and
 *        optionally a cause and extra context).
 *
 * The macros use the `const char*` constructor, which is out of line: the
 * throwing function then makes no std::string of its own, so its code and
 * its unwind table (which the C++ runtime scans on every throw through it)
 * stay small.
 */
class ErrorBuilder {
 public:
  /*! \brief What TVM_FFI_THROW calls: `kind` is a literal, `backtrace` as TVMFFIBacktrace returns it. */
  TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE explicit ErrorBuilder(const char* kind,
                                                            const TVMFFIByteArray* backtrace,
                                                            bool log_before_throw)
      : kind_(kind),
        backtrace_(backtrace->data, backtrace->size),
        log_before_throw_(log_before_throw) {}
  TVM_FFI_COLD_CODE
  explicit ErrorBuilder(std::string kind, std::string backtrace, bool log_before_throw)
      : kind_(std::move(kind)),
        backtrace_(std::move(backtrace)),
        log_before_throw_(log_before_throw) {}
  TVM_FFI_COLD_CODE
  explicit ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace, bool log_before_throw)
      : kind_(std::move(kind)),
        backtrace_(backtrace->data, backtrace->size),
        log_before_throw_(log_before_throw) {}
  /*! \brief With the Error's cause_chain and extra_context as well. */
  TVM_FFI_COLD_CODE
  explicit ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace, bool log_before_throw,
                        std::optional<Error> cause_chain, std::optional<ObjectRef> extra_context)
      : kind_(std::move(kind)),
        backtrace_(backtrace->data, backtrace->size),
        log_before_throw_(log_before_throw),
        cause_chain_(std::move(cause_chain)),
        extra_context_(std::move(extra_context)) {}

  /*! \brief The message so far; write to it with <<. */
  std::ostringstream& stream() { return stream_; }

  /*! \brief Throws the Error built so far (by design: this destructor never returns). */
  [[noreturn]] TVM_FFI_COLD_CODE ~ErrorBuilder() noexcept(false) {
    Error error(std::move(kind_), stream_.str(), std::move(backtrace_), std::move(cause_chain_),
                std::move(extra_context_));
    if (log_before_throw_) std::cerr << error.FullMessage();
    throw error;
  }

 protected:
  std::string kind_;
  std::string backtrace_;
  bool log_before_throw_;
  std::optional<Error> cause_chain_;
  std::optional<ObjectRef> extra_context_;
  std::ostringstream stream_;
};

/*! \brief " (x vs. y) ": the operands of a failed binary check. */
template <typename X, typename Y>
TVM_FFI_COLD_CODE std::unique_ptr<std::string> LogCheckFormat(const X& x, const Y& y) {
  std::ostringstream os;
  os << " (" << x << " vs. " << y << ") ";
  return std::make_unique<std::string>(os.str());
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
/*!
 * \brief LogCheck_XX(x, y): null when `x XX y` holds, else the formatted
 *        operands.  The int overloads let literals compare with enums.
 */
#define TVM_FFI_CHECK_FUNC(name, op)                                                   \
  template <typename X, typename Y>                                                    \
  TVM_FFI_INLINE std::unique_ptr<std::string> LogCheck##name(const X& x, const Y& y) { \
    return (x op y) ? nullptr : LogCheckFormat(x, y);                                  \
  }                                                                                    \
  TVM_FFI_INLINE std::unique_ptr<std::string> LogCheck##name(int x, int y) {           \
    return LogCheck##name<int, int>(x, y);                                             \
  }
TVM_FFI_CHECK_FUNC(_LT, <)
TVM_FFI_CHECK_FUNC(_GT, >)
TVM_FFI_CHECK_FUNC(_LE, <=)
TVM_FFI_CHECK_FUNC(_GE, >=)
TVM_FFI_CHECK_FUNC(_EQ, ==)
TVM_FFI_CHECK_FUNC(_NE, !=)
#pragma GCC diagnostic pop

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

/*!
 * \brief Throws an Error of kind ErrorKind (a bare name: ValueError,
 *        TypeError, ...) with the message streamed after it and the caller's
 *        backtrace:  TVM_FFI_THROW(ValueError) << "bad size " << n;
 */
#define TVM_FFI_THROW(ErrorKind)                                                             \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind,                                               \
                                   TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), \
                                   TVM_FFI_ALWAYS_LOG_BEFORE_THROW)                          \
      .stream()

/*! \brief As TVM_FFI_THROW, and the full report is printed to stderr first. */
#define TVM_FFI_LOG_AND_THROW(ErrorKind)                                                           \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind,                                                     \
                                   TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), true) \
      .stream()

/*
 * The check macros.  Each is one `if (...) {} else <throw>` statement: more
 * text can be streamed after it, and it is safe as the body of an unbraced
 * if/else (the else inside binds to the macro's own if).
 */

/*!
 * \brief Throws ErrorKind with "Check failed: (cond) is false: <your text>"
 *        unless `cond` holds.
 */
#define TVM_FFI_CHECK(cond, ErrorKind)      \
  if (TVM_FFI_PREDICT_TRUE(cond)) {         \
  } else /* NOLINT(readability-braces) */   \
    TVM_FFI_THROW(ErrorKind) << "Check failed: (" #cond << ") is false: "

/*! \brief Binary check: "Check failed: x op y (xv vs. yv) : <your text>". */
#define TVM_FFI_CHECK_BINARY_OP(name, op, x, y, ErrorKind)                             \
  if (auto tvm_ffi_check_err = ::tvm::ffi::detail::LogCheck##name(x, y);               \
      TVM_FFI_PREDICT_TRUE(tvm_ffi_check_err == nullptr)) {                            \
  } else /* NOLINT(readability-braces) */                                              \
    TVM_FFI_THROW(ErrorKind) << "Check failed: " << #x " " #op " " #y << *tvm_ffi_check_err \
                             << ": "

#define TVM_FFI_CHECK_EQ(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_EQ, ==, x, y, ErrorKind)
#define TVM_FFI_CHECK_NE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_NE, !=, x, y, ErrorKind)
#define TVM_FFI_CHECK_LT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_LT, <, x, y, ErrorKind)
#define TVM_FFI_CHECK_LE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_LE, <=, x, y, ErrorKind)
#define TVM_FFI_CHECK_GT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_GT, >, x, y, ErrorKind)
#define TVM_FFI_CHECK_GE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_GE, >=, x, y, ErrorKind)

/*!
 * \brief An expression: the value of `x`, or a throw of ErrorKind with
 *        "Check not null: x " when it is null.  `x` is evaluated twice.
 */
#define TVM_FFI_CHECK_NOTNULL(x, ErrorKind)                                   \
  ((x) == nullptr ? TVM_FFI_THROW(ErrorKind) << "Check not null: " #x << ' ', \
   (x)            : (x))  // NOLINT(*)

/*! \brief The checks with kind InternalError: for conditions that are bugs when false. */
#define TVM_FFI_ICHECK(x) TVM_FFI_CHECK(x, InternalError)
#define TVM_FFI_ICHECK_NOTNULL(x) TVM_FFI_CHECK_NOTNULL(x, InternalError)
#define TVM_FFI_ICHECK_EQ(x, y) TVM_FFI_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_ICHECK_NE(x, y) TVM_FFI_CHECK_NE(x, y, InternalError)
#define TVM_FFI_ICHECK_LT(x, y) TVM_FFI_CHECK_LT(x, y, InternalError)
#define TVM_FFI_ICHECK_LE(x, y) TVM_FFI_CHECK_LE(x, y, InternalError)
#define TVM_FFI_ICHECK_GT(x, y) TVM_FFI_CHECK_GT(x, y, InternalError)
#define TVM_FFI_ICHECK_GE(x, y) TVM_FFI_CHECK_GE(x, y, InternalError)

/*!
 * \brief Debug-only checks: the ICHECK forms without NDEBUG.  With NDEBUG a
 *        check is still compiled (it must stay valid code) but never run:
 *        TVM_FFI_DEBUG_ONLY_ puts it behind `while (false)`, and
 *        TVM_FFI_DCHECK_NOTNULL(x) is just `x`.
 */
#ifdef NDEBUG
#define TVM_FFI_DEBUG_ONLY_(check) \
  while (false) check
#else
#define TVM_FFI_DEBUG_ONLY_(check) check
#endif
#define TVM_FFI_DCHECK(x) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK(x))
#define TVM_FFI_DCHECK_EQ(x, y) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK_EQ(x, y))
#define TVM_FFI_DCHECK_NE(x, y) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK_NE(x, y))
#define TVM_FFI_DCHECK_LT(x, y) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK_LT(x, y))
#define TVM_FFI_DCHECK_LE(x, y) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK_LE(x, y))
#define TVM_FFI_DCHECK_GT(x, y) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK_GT(x, y))
#define TVM_FFI_DCHECK_GE(x, y) TVM_FFI_DEBUG_ONLY_(TVM_FFI_ICHECK_GE(x, y))
#ifdef NDEBUG
#define TVM_FFI_DCHECK_NOTNULL(x) (x)
#else
#define TVM_FFI_DCHECK_NOTNULL(x) TVM_FFI_ICHECK_NOTNULL(x)
#endif

#endif  // TVM_FFI_ERROR_H_

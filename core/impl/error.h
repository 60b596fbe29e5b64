// Errors: the C++ Error exception and the error-slot helpers.
//
// Header-only over the C ABI; the Error object libtvm_ffi allocates is
// library-internal (core/error_internal.h).
#ifndef TVM_FFI_CORE_IMPL_ERROR_H_
#define TVM_FFI_CORE_IMPL_ERROR_H_

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <tvm/ffi/error.h>

#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

inline TVMFFIByteArray ToByteArray(const std::string& s) {
  TVMFFIByteArray b;
  b.data = s.data();
  b.size = s.size();
  return b;
}

// The exception thrown by C++ code on either side of the ABI.  It holds a
// reference to an ffi.Error object, so it crosses the C ABI (through the
// error slot) without loss.  It is a tvm::ffi::Error over the same object, so
// the tvm::ffi function wrappers of ported core code pass it on with its kind
// and message (rather than as an InternalError).
class Error : public ::tvm::ffi::Error {
 public:
  // Captures a backtrace of the throw site.
  Error(const std::string& kind, const std::string& message)
      : Error(kind, message, CaptureBacktraceText()) {}
  Error(const std::string& kind, const std::string& message, const std::string& backtrace)
      : ::tvm::ffi::Error(::tvm::ffi::UnsafeInit{}) {
    Init(kind, message, backtrace, nullptr);
  }
  // An error raised while handling `cause`; the new error keeps a reference.
  Error(const std::string& kind, const std::string& message, const Error& cause)
      : ::tvm::ffi::Error(::tvm::ffi::UnsafeInit{}) {
    Init(kind, message, CaptureBacktraceText(), cause.object()->handle());
  }
  // Adopts a reference to an ffi.Error object (ours or another library's).
  explicit Error(ObjectPtr<Object> error_obj)
      : ::tvm::ffi::Error(::tvm::ffi::UnsafeInit{}), obj_(std::move(error_obj)) {
    ShareWithBase();
    what_ = kind() + ": " + message();
  }

  std::string kind() const { return Str(cell()->kind); }
  std::string message() const { return Str(cell()->message); }
  std::string backtrace() const { return Str(cell()->backtrace); }
  // "Kind: message"
  const char* what() const noexcept override { return what_.c_str(); }

  // The error this one was raised from, if any.  Always none for an error
  // object another library's code made (see HasV018Cell).
  std::optional<Error> cause() const {
    if (!HasV018Cell(obj_->handle())) return std::nullopt;
    TVMFFIObjectHandle c = cell()->cause_chain;
    if (c == nullptr) return std::nullopt;
    return Error(ObjectPtr<Object>::BorrowHandle(c));
  }

  const ObjectPtr<Object>& object() const { return obj_; }
  TVMFFIErrorCell* cell() const { return TVMFFIErrorGetCellPtr(obj_->handle()); }

 private:
  void Init(const std::string& kind, const std::string& message, const std::string& backtrace,
            TVMFFIObjectHandle cause) {
    TVMFFIByteArray k = ToByteArray(kind), m = ToByteArray(message), b = ToByteArray(backtrace);
    TVMFFIObjectHandle h = nullptr;
    if (TVMFFIErrorCreateWithCauseAndExtraContext(&k, &m, &b, cause, nullptr, &h) != 0) {
      throw std::bad_alloc();
    }
    obj_ = ObjectPtr<Object>::AdoptHandle(h);
    ShareWithBase();
    what_ = kind + ": " + message;
  }
  // The tvm::ffi::Error base refers to the same error object.
  void ShareWithBase() {
    data_ = ::tvm::ffi::details::ObjectUnsafe::ObjectPtrFromUnowned<::tvm::ffi::Object>(
        static_cast<TVMFFIObject*>(obj_->handle()));
  }
  static std::string Str(const TVMFFIByteArray& b) {
    return b.size == 0 ? std::string() : std::string(b.data, b.size);
  }
  // Whether the error's cell has cause_chain and extra_context (v0.1.8 and
  // later): errors libtvm_ffi makes do.  An error object allocated by another
  // library's code (apache-tvm-ffi's C++ headers make it in the kernel) may
  // have the 56-byte cell of 0.1.0-0.1.7 followed by that code's own members,
  // and the cell has no size or version field: its trailing fields are not read.
  static bool HasV018Cell(TVMFFIObjectHandle h) {
    static void (*const library_deleter)(void*, int) = [] {
      TVMFFIByteArray empty = {"", 0};
      TVMFFIObjectHandle probe = nullptr;
      if (TVMFFIErrorCreate(&empty, &empty, &empty, &probe) != 0) throw std::bad_alloc();
      void (*d)(void*, int) = TVM_FFI_OBJECT_DELETER(static_cast<TVMFFIObject*>(probe));
      TVMFFIObjectDecRef(probe);
      return d;
    }();
    return TVM_FFI_OBJECT_DELETER(static_cast<TVMFFIObject*>(h)) == library_deleter;
  }
  static std::string CaptureBacktraceText() {
    const TVMFFIByteArray* bt = TVMFFIBacktrace(nullptr, 0, nullptr, 0);
    return bt == nullptr ? std::string() : Str(*bt);
  }
  ObjectPtr<Object> obj_;
  std::string what_;
};

// Builds a message with << and throws it once every operand is formatted:
//   TVM_FFI_IMPL_THROW(ValueError) << "bad value " << x;
// The throw is the last step of the expression, not the builder's
// destructor, so an operand that throws while it is formatted (or evaluated)
// propagates its own exception instead of ending in std::terminate.
class ErrorBuilder {
 public:
  explicit ErrorBuilder(const char* kind) : kind_(kind) {}
  template <typename T>
  ErrorBuilder& operator<<(const T& v) {
    stream_ << v;
    return *this;
  }
  // Never inlined: a frame of its own, which the backtrace leaves out as
  // machinery (core/backtrace.cc), so the innermost frame shown is the
  // function that raised, at the line of its TVM_FFI_IMPL_THROW.
  [[noreturn]] __attribute__((noinline, cold)) void Throw() const {
    throw Error(kind_, stream_.str());
  }

 private:
  const char* kind_;
  std::ostringstream stream_;
};

// The left operand of the `&` that ends TVM_FFI_IMPL_THROW: `&` binds looser than
// `<<`, so it runs after the whole message is built.
struct ErrorThrower {
  [[noreturn]] __attribute__((noinline, cold)) void operator&(const ErrorBuilder& builder) const {
    builder.Throw();
  }
};

#define TVM_FFI_IMPL_THROW(Kind) ::tvm::ffi::detail::impl::ErrorThrower() & ::tvm::ffi::detail::impl::ErrorBuilder(#Kind)

// Decimal text of an integer.  The header-only layer uses this instead of
// std::to_string: libstdc++'s version instantiates a function-local static
// table that g++ emits as an STB_GNU_UNIQUE symbol, and glibc never unloads
// a library holding one, so a kernel module could not be closed.
inline std::string DecimalString(long long value) {
  char buf[24];
  int n = std::snprintf(buf, sizeof(buf), "%lld", value);
  return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

namespace detail {
// Whether the last lines of `text` name the same functions, in order, as the
// lines of `tail` (backtrace lines, abi-v0.1.md §6.6; lines may differ).
inline bool EndsWithSameFunctions(const TVMFFIByteArray& text, const TVMFFIByteArray& tail) {
  auto funcs = [](const TVMFFIByteArray& b) {
    std::vector<std::string> out;
    std::string s(b.data == nullptr ? "" : b.data, b.size);
    for (size_t pos = 0; pos < s.size();) {
      size_t nl = s.find('\n', pos), end = nl == std::string::npos ? s.size() : nl;
      size_t in = s.rfind(", in ", end);
      out.push_back(in == std::string::npos || in < pos ? s.substr(pos, end - pos)
                                                        : s.substr(in, end - in));
      pos = end + 1;
    }
    return out;
  };
  std::vector<std::string> a = funcs(text), b = funcs(tail);
  return a.size() >= b.size() && std::equal(b.begin(), b.end(), a.end() - b.size());
}
}  // namespace detail

// Takes the error a failed ABI call left in the slot and throws it, with the
// frames of this caller (up to its own FFI boundary) appended to its
// backtrace unless they are already there: an error that crosses several
// C++ layers gains the frames of each.
[[noreturn]] inline void ThrowRaised(int rc) {
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  if (h == nullptr) {
    throw Error("RuntimeError",
                "a call failed with code " + DecimalString(rc) + " but left no error");
  }
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(h);
  const TVMFFIByteArray* here = TVMFFIBacktrace(nullptr, 0, nullptr, 0);
  if (here != nullptr && here->size != 0 && cell->update_backtrace != nullptr &&
      !detail::EndsWithSameFunctions(cell->backtrace, *here)) {
    cell->update_backtrace(h, here, kTVMFFIBacktraceUpdateModeAppend);
  }
  throw Error(ObjectPtr<Object>::AdoptHandle(h));
}

// Stores the active exception (call inside a catch block) in the slot and
// returns -1.  Error and tvm::ffi::Error map to themselves, std::bad_alloc
// to MemoryError and any other exception to InternalError.
inline int SetRaisedFromCurrentException() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    TVMFFIErrorSetRaised(e.object()->handle());
  } catch (const ::tvm::ffi::Error& e) {
    TVMFFIErrorSetRaised(::tvm::ffi::details::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(e));
  } catch (const std::bad_alloc&) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory");
  } catch (const std::exception& e) {
    TVMFFIErrorSetRaisedFromCStr("InternalError", e.what());
  } catch (...) {
    TVMFFIErrorSetRaisedFromCStr("InternalError", "unknown C++ exception");
  }
  return -1;
}

// Runs `body`, a registration made while a library loads (a static
// initialiser), so that no exception escapes: there is no caller to catch it,
// and an escaping exception would end the process (std::terminate).  A
// failure -- typically a name or type registered twice because a library was
// loaded twice -- is left in the loading thread's error slot, where the code
// that called dlopen() can take it (TVMFFIErrorMoveFromRaised), and logged as
// one line on stderr, since nothing else may ever look.  Returns whether body
// succeeded.
template <typename F>
bool RunAtLoad(F&& body) noexcept {
  try {
    body();
    return true;
  } catch (...) {
    try {
      throw;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tvm-ffi: a registration made while loading a library failed: %s\n",
                   e.what());
    } catch (...) {
      std::fprintf(stderr, "tvm-ffi: a registration made while loading a library failed\n");
    }
    SetRaisedFromCurrentException();
    return false;
  }
}

inline int32_t RegisterDynamicType(const char* key, int32_t parent_index) {
  TVMFFIByteArray k;
  k.data = key;
  k.size = std::strlen(key);
  const TVMFFITypeInfo* parent = TVMFFIGetTypeInfo(parent_index);
  if (parent == nullptr) ThrowRaised(-1);
  int32_t index = TVMFFITypeGetOrAllocIndex(&k, -1, parent->type_depth + 1, 0, 1, parent_index);
  if (index < 0) ThrowRaised(index);
  return index;
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ERROR_H_

// Errors, library-internal side (error.cc): the Error object this library
// allocates, the thread-local error slot, and making errors for the C API.
#ifndef TVM_FFI_CORE_ERROR_INTERNAL_H_
#define TVM_FFI_CORE_ERROR_INTERNAL_H_

#include <sstream>
#include <string>

#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

// Library internals live in tvm::ffi::details::core: `details` is the public
// headers' alias of tvm::ffi::detail (an alias cannot be reopened), and the
// `core` namespace inside it keeps the library's names apart from the inline
// helpers those headers define there.
namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Stores the active exception (call inside a catch block) in the calling
// thread's slot and returns -1: a tvm::ffi::Error as it is, std::bad_alloc as
// MemoryError "out of memory", any other std::exception as InternalError
// with its what(), anything else as InternalError "unknown C++ exception".
int SetRaisedFromCurrentException() noexcept;

// The ffi.Error objects this library makes (CreateError).
// layout = { TVMFFIObject, TVMFFIErrorCell, then this library's storage }.
// Readers go through the cell: an Error made by another library has the same
// cell but not the storage behind it.
class ErrorObj : public Object {
 public:
  TVMFFIErrorCell cell;

  ErrorObj(std::string kind, std::string message, std::string backtrace,
           TVMFFIObjectHandle cause, TVMFFIObjectHandle extra_context);
  ~ErrorObj();
  ErrorObj(const ErrorObj&) = delete;
  ErrorObj& operator=(const ErrorObj&) = delete;

  static constexpr const int32_t _type_index = kTVMFFIError;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIError, ErrorObj, Object);

 private:
  static void UpdateBacktrace(TVMFFIObjectHandle self, const TVMFFIByteArray* backtrace,
                              int32_t update_mode);
  void SyncCell();
  std::string kind_;
  std::string message_;
  std::string backtrace_;
};

// The calling thread's error slot (error.cc).
void ErrorSlotSet(TVMFFIObjectHandle error) noexcept;   // borrows error
TVMFFIObjectHandle ErrorSlotTake() noexcept;            // new reference or nullptr

// A new Error (TVMFFIErrorCreate*): never touches the slot; -1 with *out
// NULL when allocation fails or a text has data NULL and a non-zero size.
int CreateError(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                const TVMFFIByteArray* backtrace, TVMFFIObjectHandle cause,
                TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) noexcept;

// Builds an error with a backtrace of the caller's caller and stores it in
// the slot (TVMFFIErrorSetRaisedFromCStr*).  A NULL kind is "RuntimeError".
// If even that allocation fails the slot is left as it was.
void SetRaisedWithBacktrace(const char* kind, const std::string& message) noexcept;

// The library's own throw: TVM_FFI_CORE_THROW(ValueError) << "bad value " << x;
// throws a tvm::ffi::Error around an error object this library allocates
// (CreateError), whose backtrace starts at the function that threw.  Unlike
// TVM_FFI_THROW it adds no line of its own for the throw site: the frame walk
// already shows it, and the builder's frames are left out as machinery
// (backtrace.cc), so errors raised in the library read as they always have.
// The throw is the last step of the expression (`&` binds looser than `<<`),
// so an operand that throws while it is formatted propagates its own error.
class ErrorBuilder {
 public:
  explicit ErrorBuilder(const char* kind) : kind_(kind) {}
  template <typename T>
  ErrorBuilder& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }
  // Out of line: a frame of its own, which the backtrace leaves out.
  [[noreturn]] __attribute__((noinline, cold)) void Throw() const;

 private:
  const char* kind_;
  std::ostringstream stream_;
};

struct ErrorThrower {
  [[noreturn]] __attribute__((noinline, cold)) void operator&(const ErrorBuilder& builder) const {
    builder.Throw();
  }
};

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#define TVM_FFI_CORE_THROW(Kind) \
  ::tvm::ffi::details::core::ErrorThrower() & ::tvm::ffi::details::core::ErrorBuilder(#Kind)

#endif  // TVM_FFI_CORE_ERROR_INTERNAL_H_

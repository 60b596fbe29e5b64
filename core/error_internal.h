// Errors, library-internal side (error.cc): the Error object this library
// allocates, the thread-local error slot, and making errors for the C API.
#ifndef TVMFFI_CORE_ERROR_INTERNAL_H_
#define TVMFFI_CORE_ERROR_INTERNAL_H_

#include <string>

#include <tvmffi/error.h>

namespace tvmffi {
namespace core {


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

  TVMFFI_DECLARE_STATIC_TYPE(ErrorObj, kTVMFFIError, "ffi.Error")

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

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_ERROR_INTERNAL_H_

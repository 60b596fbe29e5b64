// The safe-call bracket around every exported function body.
//
// No C++ exception crosses the C ABI: each becomes -1 with the error in the
// thread's slot.
#ifndef TVMFFI_C_API_SAFE_CALL_H_
#define TVMFFI_C_API_SAFE_CALL_H_

#include <tvmffi/error.h>

#define TVMFFI_SAFE_CALL_BEGIN() try {
#define TVMFFI_SAFE_CALL_END()                                  \
  }                                                             \
  catch (...) {                                                 \
    return ::tvmffi::core::SetRaisedFromCurrentException();     \
  }                                                             \
  return 0

// Cheap argument checks that are always on.
#define TVMFFI_CHECK_ARG_NOT_NULL(arg) \
  if ((arg) == nullptr) TVMFFI_THROW(ValueError) << __func__ << ": " #arg " must not be NULL"

#endif  // TVMFFI_C_API_SAFE_CALL_H_

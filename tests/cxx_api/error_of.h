// The one helper the C++ API tests share: what a call threw, as text.
#ifndef TVM_FFI_TESTS_CXX_API_ERROR_OF_H_
#define TVM_FFI_TESTS_CXX_API_ERROR_OF_H_

#include <tvm/ffi/error.h>

#include <string>

namespace cxx_api_test {

/*! \brief "<kind>: <message>" of the tvm::ffi::Error `fn` throws, or "no error". */
template <typename F>
std::string ErrorOf(F fn) {
  try {
    fn();
  } catch (const tvm::ffi::Error& err) {
    return err.kind() + ": " + err.message();
  }
  return "no error";
}

}  // namespace cxx_api_test

#endif  // TVM_FFI_TESTS_CXX_API_ERROR_OF_H_

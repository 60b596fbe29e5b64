// The kernel of the upstream-style consumer: compiled with tvm_ffi::header
// only, so libtvm_ffi is not among its dependencies; the host that loads it
// provides the library's symbols.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace {

int64_t SumAll(tvm::ffi::Array<int64_t> values) {
  if (values.empty()) TVM_FFI_THROW(ValueError) << "sum_all: no values";
  int64_t sum = 0;
  for (int64_t v : values) sum += v;
  return sum;
}

tvm::ffi::String Shout(tvm::ffi::String text) { return tvm::ffi::String(std::string(text) + "!"); }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_all, SumAll);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(shout, Shout);

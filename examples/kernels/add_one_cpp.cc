// The add_one kernel again, written with the C++ layer (core/*.h, header-only
// over the C ABI, so the library links against libtvm_ffi.so alone):
//
//   c++ -std=c++17 -shared -fPIC -I<repo> -I<repo>/include add_one_cpp.cc
//       -o libadd_one_cpp.so -ltvm_ffi          (one line)
//
// Loading the library registers the global function "examples.add_one_cpp"
// (TVMFFI_REGISTER_GLOBAL runs at load time).  Callers find it by name with
// TVMFFIFunctionGetGlobal (C), Function::GetGlobal (C++) or
// tvm_ffi.get_global_func (Python).
//
// What the C++ layer does for you, compared with add_one_c.c:
//   - the argument count and the argument's type are checked, with a
//     TypeError naming the function and the argument;
//   - the argument arrives as a core::Tensor whether the caller passed an
//     ffi.Tensor or a DLTensor* (the latter is wrapped, borrowing the memory),
//     and its strides are never NULL;
//   - an exception thrown with TVMFFI_THROW becomes an error for the caller;
//     nothing is thrown across the C ABI.
#include <tvmffi/dtype.h>
#include <tvmffi/function.h>
#include <tvmffi/tensor.h>

namespace {

using tvmffi::core::DataTypeToString;
using tvmffi::core::Tensor;

void AddOne(Tensor x) {
  DLDataType dtype = x.dtype();
  if (dtype.code != kDLFloat || dtype.bits != 32 || dtype.lanes != 1) {
    TVMFFI_THROW(TypeError) << "add_one_cpp: expected a float32 tensor, got "
                            << DataTypeToString(dtype);
  }
  if (x.device().device_type != kDLCPU) {
    TVMFFI_THROW(ValueError) << "add_one_cpp: expected a CPU tensor, got device_type "
                             << static_cast<int>(x.device().device_type);
  }
  // Producers mark memory the consumer must not write (numpy's read-only
  // arrays, DLPack READ_ONLY); an in-place kernel refuses it.
  if (x.IsReadOnly()) {
    TVMFFI_THROW(ValueError) << "add_one_cpp: the tensor is read-only";
  }
  if (!x.IsContiguous()) {
    TVMFFI_THROW(ValueError) << "add_one_cpp: expected a contiguous tensor";
  }
  // The first element lives at data + byte_offset.
  float* data = reinterpret_cast<float*>(static_cast<char*>(x.data_ptr()) + x.byte_offset());
  for (int64_t i = 0, n = x.numel(); i < n; ++i) data[i] += 1.0f;
}

}  // namespace

// A function taking DLTensor* works the same way (no wrapping, and strides
// may then be NULL); core::Tensor is the easier type to read.
TVMFFI_REGISTER_GLOBAL("examples.add_one_cpp", AddOne);

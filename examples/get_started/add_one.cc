// add_one: y[i] = x[i] + 1 over 1-D float32 CPU tensors.
//
// Exported as the C symbol __tvm_ffi_add_one, so any tvm-ffi host can load
// this library and call it: Python (tvm_ffi.load_module), C (dlopen +
// dlsym), C++ (tvm::ffi::Module).  See README.md.

// Also export the function's type schema and docstring (the symbols
// __tvm_ffi__metadata_add_one and __tvm_ffi__doc_add_one); without this line
// only the function itself is exported.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

namespace {

using tvm::ffi::TensorView;

void CheckFloat32Vector(const TensorView& t, const char* name) {
  DLDataType dt = t.dtype();
  if (t.ndim() != 1 || dt.code != kDLFloat || dt.bits != 32 || dt.lanes != 1) {
    TVM_FFI_THROW(TypeError) << "add_one: " << name << " must be a 1-D float32 tensor";
  }
  if (t.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << "add_one: " << name << " must be on the CPU";
  }
}

// A TensorView reads a tensor object (ffi.Tensor, e.g. a numpy array passed
// from Python) or a plain DLTensor* (e.g. from C), without owning either.
void AddOne(TensorView x, TensorView y) {
  CheckFloat32Vector(x, "x");
  CheckFloat32Vector(y, "y");
  if (x.size(0) != y.size(0)) {
    TVM_FFI_THROW(ValueError) << "add_one: x has " << x.size(0) << " elements but y has "
                              << y.size(0);
  }
  // Element i lives at data + byte_offset + i * stride (in elements).  A
  // compact tensor may have no strides at all (a DLTensor with strides NULL),
  // so ask IsContiguous() before stride(0).
  const float* xs = reinterpret_cast<const float*>(static_cast<char*>(x.data_ptr()) +
                                                   x.byte_offset());
  float* ys = reinterpret_cast<float*>(static_cast<char*>(y.data_ptr()) + y.byte_offset());
  int64_t xstride = x.IsContiguous() ? 1 : x.stride(0);
  int64_t ystride = y.IsContiguous() ? 1 : y.stride(0);
  for (int64_t i = 0; i < x.size(0); ++i) ys[i * ystride] = xs[i * xstride] + 1.0f;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "add_one(x, y): y[i] = x[i] + 1 (1-D float32 tensors).");

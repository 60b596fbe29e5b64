// add_one: y[i] = x[i] + 1 over 1-D float32 CPU tensors.
//
// Exported as the C symbol __tvm_ffi_add_one, so any tvm-ffi host can load
// this library and call it: Python (tvm_ffi.load_module), C (dlopen +
// dlsym), C++ (tvmffi::core::Module).  See README.md.
#include <tvmffi/export.h>
#include <tvmffi/tensor.h>

namespace {

using tvmffi::core::Tensor;

void CheckFloat32Vector(const Tensor& t, const char* name) {
  DLDataType dt = t.dtype();
  if (t.ndim() != 1 || dt.code != kDLFloat || dt.bits != 32 || dt.lanes != 1) {
    TVMFFI_THROW(TypeError) << "add_one: " << name << " must be a 1-D float32 tensor";
  }
  if (t.device().device_type != kDLCPU) {
    TVMFFI_THROW(ValueError) << "add_one: " << name << " must be on the CPU";
  }
}

void AddOne(Tensor x, Tensor y) {
  CheckFloat32Vector(x, "x");
  CheckFloat32Vector(y, "y");
  if (x.shape()[0] != y.shape()[0]) {
    TVMFFI_THROW(ValueError) << "add_one: x has " << x.shape()[0] << " elements but y has "
                             << y.shape()[0];
  }
  // Element i lives at data + byte_offset + i * stride (in elements; NULL
  // strides mean a compact tensor).
  const float* xs = reinterpret_cast<const float*>(static_cast<char*>(x.data_ptr()) +
                                                   x.byte_offset());
  float* ys = reinterpret_cast<float*>(static_cast<char*>(y.data_ptr()) + y.byte_offset());
  int64_t xstride = x->strides != nullptr ? x->strides[0] : 1;
  int64_t ystride = y->strides != nullptr ? y->strides[0] : 1;
  for (int64_t i = 0; i < x.shape()[0]; ++i) ys[i * ystride] = xs[i * xstride] + 1.0f;
}

}  // namespace

TVMFFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVMFFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "add_one(x, y): y[i] = x[i] + 1 (1-D float32 tensors).");

// An add_one kernel written in the upstream apache-tvm-ffi style, as a
// quickstart would: nothing here is specific to this project, and the same
// file is compiled against upstream's headers too (see CMakeLists.txt).
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>

namespace ffi = tvm::ffi;

namespace {

void AddOne(ffi::TensorView x, ffi::TensorView y) {
  TVM_FFI_ICHECK(x.ndim() == 1) << "x must be a 1D tensor";
  DLDataType f32_dtype{kDLFloat, 32, 1};
  TVM_FFI_ICHECK(x.dtype() == f32_dtype) << "x must be a float tensor";
  TVM_FFI_ICHECK(y.ndim() == 1) << "y must be a 1D tensor";
  TVM_FFI_ICHECK(y.dtype() == f32_dtype) << "y must be a float tensor";
  TVM_FFI_ICHECK_EQ(x.size(0), y.size(0)) << "x and y must have the same shape";
  const float* in = static_cast<const float*>(x.data_ptr());
  float* out = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) out[i] = in[i] + 1;
}

int64_t Numel(ffi::Tensor t) { return t.numel(); }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one_cpu, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(numel, Numel);

// The add_one kernel again, written with the C++ API (<tvm/ffi/...>, header-only
// over the C ABI, so the library links against libtvm_ffi.so alone):
//
//   c++ -std=c++17 -shared -fPIC -I<repo>/include add_one_cpp.cc
//       -o libadd_one_cpp.so -ltvm_ffi          (one line)
//
// Loading the library registers the global function "examples.add_one_cpp"
// (the TVM_FFI_STATIC_INIT_BLOCK runs at load time).  Callers find it by
// name with TVMFFIFunctionGetGlobal (C), Function::GetGlobal (C++) or
// tvm_ffi.get_global_func (Python).
//
// What the C++ API does for you, compared with add_one_c.c:
//   - the argument count is checked, with a TypeError naming the function;
//   - the argument is an AnyView, which try_cast<TensorView>() reads whether
//     the caller passed an ffi.Tensor or a DLTensor* (a view, owning nothing);
//   - an exception thrown with TVM_FFI_THROW becomes an error for the caller;
//     nothing is thrown across the C ABI.
// (A parameter declared as TensorView would be converted and checked for you;
// this kernel takes an AnyView because it also asks a tensor object whether
// its memory is read-only, which a view cannot tell.)
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <optional>

namespace {

using tvm::ffi::AnyView;
using tvm::ffi::Function;
using tvm::ffi::Tensor;
using tvm::ffi::TensorView;

// Producers mark memory the consumer must not write (numpy's read-only
// arrays, DLPack READ_ONLY); libtvm_ffi records the mark on the tensors it
// imports and answers through the global "ffi.TensorIsReadOnly".
bool IsReadOnly(const Tensor& t) {
  static const Function is_read_only = Function::GetGlobalRequired("ffi.TensorIsReadOnly");
  return is_read_only(t).cast<bool>();
}

void AddOne(AnyView arg) {
  std::optional<TensorView> view = arg.try_cast<TensorView>();
  if (!view.has_value()) {
    TVM_FFI_THROW(TypeError) << "add_one_cpp: expected a tensor, got " << arg.GetTypeKey();
  }
  const TensorView& x = *view;
  DLDataType dtype = x.dtype();
  if (dtype.code != kDLFloat || dtype.bits != 32 || dtype.lanes != 1) {
    TVM_FFI_THROW(TypeError) << "add_one_cpp: expected a float32 tensor, got "
                             << tvm::ffi::DLDataTypeToString(dtype);
  }
  if (x.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << "add_one_cpp: expected a CPU tensor, got device_type "
                              << static_cast<int>(x.device().device_type);
  }
  // An in-place kernel refuses read-only memory.  Only a tensor object carries
  // the mark: a bare DLTensor* has nowhere to keep it.
  if (std::optional<Tensor> t = arg.as<Tensor>(); t.has_value() && IsReadOnly(*t)) {
    TVM_FFI_THROW(ValueError) << "add_one_cpp: the tensor is read-only";
  }
  if (!x.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << "add_one_cpp: expected a contiguous tensor";
  }
  // The first element lives at data + byte_offset.
  float* data = reinterpret_cast<float*>(static_cast<char*>(x.data_ptr()) + x.byte_offset());
  for (int64_t i = 0, n = x.numel(); i < n; ++i) data[i] += 1.0f;
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = tvm::ffi::reflection;
  refl::GlobalDef().def("examples.add_one_cpp", AddOne);
}

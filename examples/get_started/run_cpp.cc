// Calls add_one from C++: load the library as a Module through libtvm_ffi,
// take its function and call it with tensors over std::vector memory.
//
//   usage: run_cpp <path to libadd_one.so>
#include <tvmffi/module.h>
#include <tvmffi/tensor.h>

#include <cstdio>
#include <cstring>
#include <vector>

using tvmffi::core::Error;
using tvmffi::core::Function;
using tvmffi::core::Module;
using tvmffi::core::Tensor;

// A tensor over `data` (borrowed: `data` must outlive it).
Tensor VectorOf(std::vector<float>& data, int64_t* shape) {
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = data.data();
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = shape;
  return Tensor::FromBorrowedDLTensor(t);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: %s <path to libadd_one.so>\n", argv[0]);
    return 2;
  }
  try {
    Module mod = Module::LoadFromFile(argv[1]);
    Function add_one = mod["add_one"];
    std::printf("run_cpp: doc: %s\n", mod.GetFunctionDoc("add_one").value_or("").c_str());

    std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f}, y(4, 0.0f);
    int64_t shape[1] = {4};
    add_one(VectorOf(x, shape), VectorOf(y, shape));
    std::printf("run_cpp: y =");
    for (float v : y) std::printf(" %g", static_cast<double>(v));
    std::printf("\n");
    for (size_t i = 0; i < x.size(); ++i) {
      if (y[i] != x[i] + 1.0f) {
        std::printf("run_cpp: FAILED at %zu\n", i);
        return 1;
      }
    }

    // Errors raised in the library arrive as tvmffi::core::Error.
    std::vector<float> short_y(2, 0.0f);
    int64_t short_shape[1] = {2};
    try {
      add_one(VectorOf(x, shape), VectorOf(short_y, short_shape));
      std::printf("run_cpp: FAILED: no error for mismatched sizes\n");
      return 1;
    } catch (const Error& e) {
      std::printf("run_cpp: expected error: %s\n", e.what());
    }
  } catch (const Error& e) {
    std::printf("run_cpp: %s\n", e.what());
    return 1;
  }
  std::printf("run_cpp: ok\n");
  return 0;
}

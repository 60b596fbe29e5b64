// Calls add_one from C++: load the library as a Module through libtvm_ffi,
// take its function and call it with DLTensor views of std::vector memory.
//
//   usage: run_cpp <path to libadd_one.so>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdio>
#include <cstring>
#include <vector>

using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::Module;
using tvm::ffi::Optional;
using tvm::ffi::String;

// A 1-D float32 CPU tensor descriptor over `data` (borrowed: `data` and
// `shape` must outlive it).  A DLTensor* argument is passed as a view: the
// callee reads the memory and owns nothing.
DLTensor VectorOf(std::vector<float>& data, int64_t* shape) {
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = data.data();
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = shape;
  return t;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: %s <path to libadd_one.so>\n", argv[0]);
    return 2;
  }
  try {
    Module mod = Module::LoadFromFile(argv[1]);
    Optional<Function> found = mod->GetFunction("add_one");
    if (!found.has_value()) {
      std::printf("run_cpp: %s has no function add_one\n", argv[1]);
      return 1;
    }
    Function add_one = *found;
    String doc = mod->GetFunctionDoc("add_one").value_or("");
    std::printf("run_cpp: doc: %s\n", doc.c_str());

    std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f}, y(4, 0.0f);
    int64_t shape[1] = {4};
    DLTensor xt = VectorOf(x, shape), yt = VectorOf(y, shape);
    add_one(&xt, &yt);
    std::printf("run_cpp: y =");
    for (float v : y) std::printf(" %g", static_cast<double>(v));
    std::printf("\n");
    for (size_t i = 0; i < x.size(); ++i) {
      if (y[i] != x[i] + 1.0f) {
        std::printf("run_cpp: FAILED at %zu\n", i);
        return 1;
      }
    }

    // Errors raised in the library arrive as tvm::ffi::Error.
    std::vector<float> short_y(2, 0.0f);
    int64_t short_shape[1] = {2};
    DLTensor short_yt = VectorOf(short_y, short_shape);
    try {
      add_one(&xt, &short_yt);
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

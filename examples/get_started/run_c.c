/* Calls add_one from C: dlopen the library, dlsym its __tvm_ffi_add_one, and
 * call it with the safe-call convention, passing two DLTensor* views of
 * plain C arrays.
 *
 *   usage: run_c <path to libadd_one.so> */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

/* A 1-D float32 CPU DLTensor over `data`. */
static DLTensor vector_of(float* data, int64_t* shape) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  return t;
}

/* Prints the error a failed call left and returns 1. */
static int report_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell* cell;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    printf("run_c: the call failed without an error\n");
    return 1;
  }
  cell = TVMFFIErrorGetCellPtr(err);
  printf("run_c: %.*s: %.*s\n", (int)cell->kind.size, cell->kind.data, (int)cell->message.size,
         cell->message.data);
  TVMFFIObjectDecRef(err);
  return 1;
}

int main(int argc, char** argv) {
  float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  float y[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int64_t shape[1] = {4};
  DLTensor xt, yt;
  TVMFFIAny args[2], result;
  TVMFFISafeCallType add_one;
  void* lib;
  int i;

  if (argc != 2) {
    printf("usage: %s <path to libadd_one.so>\n", argv[0]);
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    printf("run_c: %s\n", dlerror());
    return 1;
  }
  add_one = (TVMFFISafeCallType)dlsym(lib, "__tvm_ffi_add_one");
  if (add_one == NULL) {
    printf("run_c: %s has no __tvm_ffi_add_one\n", argv[1]);
    return 1;
  }

  xt = vector_of(x, shape);
  yt = vector_of(y, shape);
  memset(args, 0, sizeof(args));
  args[0].type_index = kTVMFFIDLTensorPtr;
  TVM_FFI_ANY_VALUE(args[0]).v_ptr = &xt;
  args[1].type_index = kTVMFFIDLTensorPtr;
  TVM_FFI_ANY_VALUE(args[1]).v_ptr = &yt;
  memset(&result, 0, sizeof(result)); /* result starts as None */
  if (add_one(NULL, args, 2, &result) != 0) return report_error();

  printf("run_c: y =");
  for (i = 0; i < 4; ++i) printf(" %g", (double)y[i]);
  printf("\n");
  for (i = 0; i < 4; ++i) {
    if (y[i] != x[i] + 1.0f) {
      printf("run_c: FAILED: y[%d] = %g, expected %g\n", i, (double)y[i], (double)(x[i] + 1.0f));
      return 1;
    }
  }
  dlclose(lib);
  printf("run_c: ok\n");
  return 0;
}

/* Drives quickstart_kernel.cc's library through its exported C symbols
 * only: __tvm_ffi_add_one_cpu on float32 DLTensor* arguments, then the
 * error path (a wrong dtype comes back as -1 with an InternalError in the
 * thread's slot), then a call with too few arguments.
 *
 *   usage: cxx_api_quickstart_driver <kernel library> */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

typedef int (*SafeCall)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);

static TVMFFIAny tensor_arg(DLTensor* t) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFIDLTensorPtr;
  TVM_FFI_ANY_VALUE(v).v_ptr = t;
  return v;
}

static int fail(const char* what) {
  fprintf(stderr, "FAIL: %s\n", what);
  return 1;
}

int main(int argc, char** argv) {
  void* lib;
  SafeCall add_one;
  float xs[4] = {1.0f, 2.5f, -3.0f, 0.0f};
  float ys[4] = {0};
  int64_t shape[1] = {4};
  DLTensor x, y;
  TVMFFIAny args[2], result;
  TVMFFIObjectHandle err = NULL;
  const TVMFFIErrorCell* cell;
  int i;
  if (argc != 2) return fail("usage: cxx_api_quickstart_driver <kernel library>");
  if (TVMFFIGetTypeInfo(kTVMFFIInt)->type_key.size != 3) return fail("runtime type table");
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  add_one = (SafeCall)dlsym(lib, "__tvm_ffi_add_one_cpu");
  if (add_one == NULL) return fail("no __tvm_ffi_add_one_cpu");

  memset(&x, 0, sizeof(x));
  x.data = xs;
  x.device.device_type = kDLCPU;
  x.ndim = 1;
  x.dtype.code = kDLFloat;
  x.dtype.bits = 32;
  x.dtype.lanes = 1;
  x.shape = shape;
  y = x;
  y.data = ys;
  args[0] = tensor_arg(&x);
  args[1] = tensor_arg(&y);
  memset(&result, 0, sizeof(result));
  if (add_one(NULL, args, 2, &result) != 0) return fail("add_one_cpu returned an error");
  for (i = 0; i < 4; ++i) {
    if (ys[i] != xs[i] + 1.0f) return fail("wrong values");
  }
  if (result.type_index != kTVMFFINone) return fail("add_one_cpu returned a value");

  /* A float64 x: the kernel's check fails; the error is in the slot. */
  x.dtype.bits = 64;
  if (add_one(NULL, args, 2, &result) != -1) return fail("bad dtype accepted");
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return fail("no error in the slot");
  cell = TVMFFIErrorGetCellPtr(err);
  if (cell->kind.size != 13 || memcmp(cell->kind.data, "InternalError", 13) != 0) {
    return fail("error kind is not InternalError");
  }
  if (strstr(cell->message.data, "x must be a float tensor") == NULL) {
    fprintf(stderr, "message: %.*s\n", (int)cell->message.size, cell->message.data);
    return fail("error message");
  }
  TVMFFIObjectDecRef(err);

  /* Wrong argument count: the typed wrapper's TypeError. */
  if (add_one(NULL, args, 1, &result) != -1) return fail("one argument accepted");
  TVMFFIErrorMoveFromRaised(&err);
  cell = TVMFFIErrorGetCellPtr(err);
  if (strstr(cell->message.data, "Mismatched number of arguments when calling: `add_one_cpu(") ==
      NULL) {
    fprintf(stderr, "message: %.*s\n", (int)cell->message.size, cell->message.data);
    return fail("argument-count message");
  }
  TVMFFIObjectDecRef(err);
  printf("quickstart kernel: add_one_cpu ok, errors ok\n");
  return 0;
}

/* Drives the two example kernel libraries from C:
 *
 *   run_kernels path/to/libadd_one_c.so path/to/libadd_one_cpp.so
 *
 * 1. Wraps a malloc'd buffer as a DLPack tensor (DLManagedTensorVersioned)
 *    and hands it to tvm-ffi with TVMFFITensorFromDLPackVersioned.
 * 2. dlopens the C library and calls its __tvm_ffi_add_one symbol directly.
 * 3. dlopens the C++ library, which registers "examples.add_one_cpp", and
 *    calls that through TVMFFIFunctionGetGlobal / TVMFFIFunctionCall.
 * 4. Checks the numbers, the errors for bad arguments, and that the buffer's
 *    deleter ran exactly once, when the last reference went.
 *
 * The last line printed is "kernels: N passed, M failed"; the exit status is
 * non-zero when anything failed.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

/* The test harness shared with tests/c: CHECK, the pass/fail counts and their
 * closing line, expect_error, and value makers (none_value, int_value,
 * object_value). */
#include "../../tests/c/check.h"

/* ---- The producer: a float32 buffer of 2 x 3 owned by a managed tensor ---- */

static int deleter_calls = 0;

typedef struct {
  DLManagedTensorVersioned managed;
  int64_t shape[2];
} Buffer;

/* The producer's deleter: the consumer (tvm-ffi) calls it once, when it no
 * longer needs the memory. */
static void buffer_deleter(DLManagedTensorVersioned* self) {
  ++deleter_calls;
  free(self->dl_tensor.data);
  free(self->manager_ctx); /* the Buffer holding `self` */
}

static DLManagedTensorVersioned* make_buffer(uint64_t flags) {
  Buffer* b = (Buffer*)calloc(1, sizeof(Buffer));
  float* data = (float*)malloc(6 * sizeof(float));
  int i;
  for (i = 0; i < 6; ++i) data[i] = (float)i;
  b->shape[0] = 2;
  b->shape[1] = 3;
  b->managed.version.major = DLPACK_MAJOR_VERSION;
  b->managed.version.minor = DLPACK_MINOR_VERSION;
  b->managed.manager_ctx = b;
  b->managed.deleter = buffer_deleter;
  b->managed.flags = flags;
  b->managed.dl_tensor.data = data;
  b->managed.dl_tensor.device.device_type = kDLCPU;
  b->managed.dl_tensor.device.device_id = 0;
  b->managed.dl_tensor.ndim = 2;
  b->managed.dl_tensor.dtype.code = kDLFloat;
  b->managed.dl_tensor.dtype.bits = 32;
  b->managed.dl_tensor.dtype.lanes = 1;
  b->managed.dl_tensor.shape = b->shape;
  b->managed.dl_tensor.strides = NULL; /* compact row-major */
  b->managed.dl_tensor.byte_offset = 0;
  return &b->managed;
}

/* ---- Helpers ---- */

static TVMFFIAny dltensor_arg(DLTensor* t) {
  TVMFFIAny v = none_value();
  v.type_index = kTVMFFIDLTensorPtr;
  TVM_FFI_ANY_VALUE(v).v_ptr = t;
  return v;
}

/* Whether every element equals its index plus `added`. */
static int values_are(const float* data, float added) {
  int i;
  for (i = 0; i < 6; ++i) {
    if (data[i] != (float)i + added) return 0;
  }
  return 1;
}

/* ---- The C library: call the exported symbol directly ---- */

static void run_c_kernel(const char* path, TVMFFIObjectHandle tensor, float* data) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  TVMFFISafeCallType add_one;
  TVMFFIAny arg;
  TVMFFIAny result;
  DLTensor wrong;
  int64_t shape[2] = {2, 3};
  int64_t strides[2] = {1, 2}; /* column-major: not contiguous */
  int32_t ints[6] = {0, 0, 0, 0, 0, 0};

  if (lib == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    CHECK(lib != NULL);
    return;
  }
  /* A function pointer through dlsym: the POSIX-blessed cast. */
  *(void**)(&add_one) = dlsym(lib, "__tvm_ffi_add_one");
  CHECK(add_one != NULL);
  if (add_one == NULL) return;

  /* The tensor object form. */
  arg = object_value(tensor);
  result = none_value();
  CHECK(add_one(NULL, &arg, 1, &result) == 0);
  CHECK(result.type_index == kTVMFFINone);
  CHECK(values_are(data, 1.0f));

  /* The DLTensor* form: the same memory, seen through the tensor's cell. */
  arg = dltensor_arg(TVMFFITensorGetDLTensorPtr(tensor));
  result = none_value();
  CHECK(add_one(NULL, &arg, 1, &result) == 0);
  CHECK(values_are(data, 2.0f));

  /* Refusals leave the data alone and raise a clear error. */
  result = none_value();
  CHECK(add_one(NULL, &arg, 0, &result) == -1);
  CHECK(expect_error("TypeError", "add_one: expected 1 argument, got 0"));

  arg = int_value(7);
  CHECK(add_one(NULL, &arg, 1, &result) == -1);
  CHECK(expect_error("TypeError",
                     "add_one: argument 1 must be a tensor (ffi.Tensor or DLTensor*), got type "
                     "index 1"));

  memset(&wrong, 0, sizeof(wrong));
  wrong.data = ints;
  wrong.device.device_type = kDLCPU;
  wrong.ndim = 2;
  wrong.dtype.code = kDLInt;
  wrong.dtype.bits = 32;
  wrong.dtype.lanes = 1;
  wrong.shape = shape;
  arg = dltensor_arg(&wrong);
  CHECK(add_one(NULL, &arg, 1, &result) == -1);
  CHECK(expect_error("TypeError",
                     "add_one: expected a float32 tensor, got dtype code 0, bits 32, lanes 1"));

  wrong.dtype.code = kDLFloat;
  wrong.strides = strides;
  CHECK(add_one(NULL, &arg, 1, &result) == -1);
  CHECK(expect_error("ValueError", "add_one: expected a contiguous tensor"));
  CHECK(ints[0] == 0 && ints[5] == 0);

  wrong.strides = NULL;
  wrong.device.device_type = kDLCUDA;
  CHECK(add_one(NULL, &arg, 1, &result) == -1);
  CHECK(expect_error("ValueError", "add_one: expected a CPU tensor, got device_type 2"));

  CHECK(values_are(data, 2.0f));

  /* The same symbol as a Function object (which could then be registered
   * with TVMFFIFunctionSetGlobal): with self and deleter NULL the function
   * is called with its own handle, which add_one ignores. */
  {
    TVMFFIObjectHandle func = NULL;
    CHECK(TVMFFIFunctionCreate(NULL, add_one, NULL, &func) == 0);
    if (func != NULL) {
      arg = object_value(tensor);
      result = none_value();
      CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == 0);
      CHECK(values_are(data, 3.0f));
      TVMFFIObjectDecRef(func); /* gone before the library is unloaded */
    }
  }
  dlclose(lib); /* safe: nothing of this library is referenced any more */
}

/* ---- The C++ library: call the global it registered ---- */

static void run_cpp_kernel(const char* path, TVMFFIObjectHandle tensor, float* data) {
  /* Never dlclose'd: the registry keeps a Function whose code lives there. */
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  const char* name = "examples.add_one_cpp";
  TVMFFIByteArray name_bytes;
  TVMFFIObjectHandle func = NULL;
  TVMFFIAny arg;
  TVMFFIAny result;
  DLTensor view;
  int64_t shape[1] = {3};

  if (lib == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    CHECK(lib != NULL);
    return;
  }
  name_bytes.data = name;
  name_bytes.size = strlen(name);
  CHECK(TVMFFIFunctionGetGlobal(&name_bytes, &func) == 0);
  CHECK(func != NULL);
  if (func == NULL) return;

  arg = object_value(tensor);
  result = none_value();
  CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == 0);
  CHECK(result.type_index == kTVMFFINone);
  CHECK(values_are(data, 4.0f));

  arg = dltensor_arg(TVMFFITensorGetDLTensorPtr(tensor));
  result = none_value();
  CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == 0);
  CHECK(values_are(data, 5.0f));

  /* A DLTensor* describing the second row only: byte_offset is honoured. */
  view = *TVMFFITensorGetDLTensorPtr(tensor);
  view.ndim = 1;
  view.shape = shape;
  view.strides = NULL;
  view.byte_offset = 3 * sizeof(float);
  arg = dltensor_arg(&view);
  result = none_value();
  CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == 0);
  CHECK(data[0] == 5.0f && data[2] == 7.0f && data[3] == 9.0f && data[5] == 11.0f);
  arg = dltensor_arg(&view);
  view.byte_offset = 0;
  CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == 0); /* the first row catches up */
  CHECK(values_are(data, 6.0f));

  /* Errors raised in C++ reach C as ordinary errors: the argument count the
   * typed function checks, then the kernel's own checks. */
  CHECK(TVMFFIFunctionCall(func, NULL, 0, &result) == -1);
  CHECK(expect_error("TypeError",
                     "Mismatched number of arguments when calling: "
                     "`examples.add_one_cpp(0: AnyView) -> void`. Expected 1 but got 0 arguments"));
  arg = int_value(7);
  CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == -1);
  CHECK(expect_error("TypeError", "add_one_cpp: expected a tensor, got int"));

  view.dtype.code = kDLInt;
  arg = dltensor_arg(&view);
  CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == -1);
  CHECK(expect_error("TypeError", "add_one_cpp: expected a float32 tensor, got int32"));
  CHECK(values_are(data, 6.0f));

  /* A producer that marks its memory read-only (DLPACK_FLAG_BITMASK_READ_ONLY):
   * tvm-ffi records the flag and the in-place kernel refuses the tensor. */
  {
    DLManagedTensorVersioned* read_only = make_buffer(DLPACK_FLAG_BITMASK_READ_ONLY);
    TVMFFIObjectHandle ro = NULL;
    CHECK(TVMFFITensorFromDLPackVersioned(read_only, 0, 0, &ro) == 0);
    if (ro != NULL) {
      arg = object_value(ro);
      CHECK(TVMFFIFunctionCall(func, &arg, 1, &result) == -1);
      CHECK(expect_error("ValueError", "add_one_cpp: the tensor is read-only"));
      CHECK(values_are((const float*)TVMFFITensorGetDLTensorPtr(ro)->data, 0.0f));
      TVMFFIObjectDecRef(ro); /* the last reference: its deleter runs now */
      CHECK(deleter_calls == 1);
      deleter_calls = 0; /* count the main buffer's deleter from zero again */
    }
  }

  TVMFFIObjectDecRef(func);
}

int main(int argc, char** argv) {
  DLManagedTensorVersioned* managed;
  DLManagedTensorVersioned* exported = NULL;
  TVMFFIObjectHandle tensor = NULL;
  float* data;

  if (argc != 3) {
    fprintf(stderr, "usage: %s libadd_one_c.so libadd_one_cpp.so\n", argv[0]);
    return 2;
  }

  /* Hand the buffer to tvm-ffi.  On success the tensor owns `managed` and
   * will call its deleter; on failure `managed` would still be ours. */
  managed = make_buffer(0);
  data = (float*)managed->dl_tensor.data;
  CHECK(TVMFFITensorFromDLPackVersioned(managed, (int32_t)sizeof(float), 1, &tensor) == 0);
  if (tensor == NULL) {
    managed->deleter(managed);
    check_summary("kernels");
    return 1;
  }
  /* NULL strides from the producer were replaced by row-major ones. */
  CHECK(TVMFFITensorGetDLTensorPtr(tensor)->strides != NULL);
  CHECK(TVMFFITensorGetDLTensorPtr(tensor)->strides[0] == 3);
  CHECK(TVMFFITensorGetDLTensorPtr(tensor)->data == data);

  run_c_kernel(argv[1], tensor, data);
  run_cpp_kernel(argv[2], tensor, data);
  CHECK(deleter_calls == 0);

  /* Export it again (e.g. to hand to another DLPack consumer): the exported
   * tensor holds its own reference, so dropping ours frees nothing yet. */
  CHECK(TVMFFITensorToDLPackVersioned(tensor, &exported) == 0);
  CHECK(exported != NULL && exported->dl_tensor.data == data);
  TVMFFIObjectDecRef(tensor);
  CHECK(deleter_calls == 0);
  if (exported != NULL) {
    CHECK(((float*)exported->dl_tensor.data)[5] == 11.0f);
    exported->deleter(exported); /* the last reference: the producer's deleter runs */
  }
  CHECK(deleter_calls == 1);

  return check_summary("kernels");
}

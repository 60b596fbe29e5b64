/* A kernel library in plain C: adds 1 to every element of a float32 tensor,
 * in place.  Build it as a shared library against the public header only:
 *
 *   cc -std=c99 -shared -fPIC add_one_c.c -o libadd_one_c.so -ltvm_ffi
 *
 * The library exports one symbol, __tvm_ffi_add_one, a function with the
 * safe-call convention (TVMFFISafeCallType in <tvm/ffi/c_api.h>):
 *
 *   int f(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result)
 *
 *   - args are borrowed views: read them, never release them.
 *   - result arrives as None; leave it alone to return None.
 *   - return 0 on success; on failure store an error with
 *     TVMFFIErrorSetRaisedFromCStr(kind, message) and return -1.
 *
 * A tensor argument comes in one of two forms: kTVMFFITensor (an ffi.Tensor
 * object, e.g. from Python or from TVMFFITensorFromDLPack) or
 * kTVMFFIDLTensorPtr (a bare DLTensor* a C caller owns).  Both end up as a
 * DLTensor*, which is all a kernel needs.
 */
#include <stdio.h>

#include <tvm/ffi/c_api.h>

/* The DLTensor behind a tensor argument, or NULL with a TypeError raised. */
static DLTensor* tensor_argument(const TVMFFIAny* arg, int index) {
  char message[160];
  if (arg->type_index == kTVMFFIDLTensorPtr && TVM_FFI_ANY_VALUE(*arg).v_ptr != NULL) {
    return (DLTensor*)TVM_FFI_ANY_VALUE(*arg).v_ptr;
  }
  if (arg->type_index == kTVMFFITensor) {
    return TVMFFITensorGetDLTensorPtr(TVM_FFI_ANY_VALUE(*arg).v_obj);
  }
  snprintf(message, sizeof(message),
           "add_one: argument %d must be a tensor (ffi.Tensor or DLTensor*), got type index %d",
           index + 1, (int)arg->type_index);
  TVMFFIErrorSetRaisedFromCStr("TypeError", message);
  return NULL;
}

/* Row-major contiguity.  NULL strides mean compact row-major (DLPack); a
 * dimension of size 1 may carry any stride; an empty tensor is contiguous. */
static int is_contiguous(const DLTensor* t) {
  int64_t expected = 1;
  int32_t i;
  if (t->strides == NULL) return 1;
  for (i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 0) return 1;
  }
  for (i = t->ndim - 1; i >= 0; --i) {
    if (t->shape[i] == 1) continue;
    if (t->strides[i] != expected) return 0;
    expected *= t->shape[i];
  }
  return 1;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* handle, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  char message[160];
  DLTensor* x;
  float* data;
  int64_t n = 1;
  int64_t i;
  int32_t d;
  (void)handle; /* NULL when called through dlsym; the Function when wrapped */
  (void)result; /* stays None */

  if (num_args != 1) {
    snprintf(message, sizeof(message), "add_one: expected 1 argument, got %d", (int)num_args);
    TVMFFIErrorSetRaisedFromCStr("TypeError", message);
    return -1;
  }
  x = tensor_argument(&args[0], 0);
  if (x == NULL) return -1;

  if (x->dtype.code != kDLFloat || x->dtype.bits != 32 || x->dtype.lanes != 1) {
    snprintf(message, sizeof(message),
             "add_one: expected a float32 tensor, got dtype code %d, bits %d, lanes %d",
             (int)x->dtype.code, (int)x->dtype.bits, (int)x->dtype.lanes);
    TVMFFIErrorSetRaisedFromCStr("TypeError", message);
    return -1;
  }
  if (x->device.device_type != kDLCPU) {
    snprintf(message, sizeof(message), "add_one: expected a CPU tensor, got device_type %d",
             (int)x->device.device_type);
    TVMFFIErrorSetRaisedFromCStr("ValueError", message);
    return -1;
  }
  if (!is_contiguous(x)) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "add_one: expected a contiguous tensor");
    return -1;
  }

  /* The first element lives at data + byte_offset, not at data. */
  data = (float*)((char*)x->data + x->byte_offset);
  for (d = 0; d < x->ndim; ++d) n *= x->shape[d];
  for (i = 0; i < n; ++i) data[i] += 1.0f;
  return 0;
}

/* Tensors from plain C: DLPack import/export, refusals, views and the
 * environment allocator, without Python or C++.  C89. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "check.h"

/* A producer's tensor; its deleter counts calls in *manager_ctx. */
typedef struct {
  DLManagedTensor legacy;
  DLManagedTensorVersioned versioned;
  int64_t shape[4];
  int64_t strides[4];
  int deletes;
} Producer;

static void legacy_deleter(DLManagedTensor* self) { ++((Producer*)self->manager_ctx)->deletes; }
static void versioned_deleter(DLManagedTensorVersioned* self) {
  ++((Producer*)self->manager_ctx)->deletes;
}

/* strides == NULL leaves the DLTensor's strides NULL. */
static void producer_init(Producer* p, void* data, int32_t ndim, const int64_t* shape,
                          const int64_t* strides) {
  DLTensor t;
  int32_t i;
  memset(p, 0, sizeof(*p));
  for (i = 0; i < ndim; ++i) {
    p->shape[i] = shape[i];
    if (strides != NULL) p->strides[i] = strides[i];
  }
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = ndim == 0 ? NULL : p->shape;
  t.strides = strides == NULL ? NULL : p->strides;
  p->legacy.dl_tensor = t;
  p->legacy.manager_ctx = p;
  p->legacy.deleter = legacy_deleter;
  p->versioned.version.major = 1;
  p->versioned.version.minor = 3;
  p->versioned.manager_ctx = p;
  p->versioned.deleter = versioned_deleter;
  p->versioned.flags = 0;
  p->versioned.dl_tensor = t;
}

static void test_legacy_round_trip(void) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  int64_t shape[2] = {2, 3};
  int64_t strides[2] = {3, 1};
  Producer p;
  TVMFFIObjectHandle t = NULL, back = NULL;
  DLManagedTensor* out = NULL;
  DLTensor* cell;

  producer_init(&p, buf, 2, shape, strides);
  CHECK(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &t) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(t) == kTVMFFITensor);
  cell = TVMFFITensorGetDLTensorPtr(t);
  CHECK((char*)cell - (char*)t == 24);
  CHECK(cell->data == buf && cell->ndim == 2 && cell->shape == p.shape);

  CHECK(TVMFFITensorToDLPack(t, &out) == 0);
  CHECK(out->dl_tensor.data == buf);
  CHECK(out->manager_ctx == t);
  CHECK(TVMFFITensorFromDLPack(out, 0, 0, &back) == 0);
  CHECK(TVMFFITensorGetDLTensorPtr(back)->data == buf);

  /* The producer's deleter runs once, when the last holder lets go. */
  TVMFFIObjectDecRef(t);
  CHECK(p.deletes == 0);
  CHECK(((float*)TVMFFITensorGetDLTensorPtr(back)->data)[5] == 5.0f);
  TVMFFIObjectDecRef(back);
  CHECK(p.deletes == 1);
}

static void test_versioned_round_trip(void) {
  float buf[4] = {0};
  int64_t shape[1] = {4};
  Producer p;
  TVMFFIObjectHandle t = NULL, back = NULL;
  DLManagedTensorVersioned* out = NULL;

  producer_init(&p, buf, 1, shape, NULL);
  CHECK(TVMFFITensorFromDLPackVersioned(&p.versioned, 16, 1, &t) == 0);
  /* NULL strides were replaced by compact ones owned by the tensor. */
  CHECK(TVMFFITensorGetDLTensorPtr(t)->strides != NULL);
  CHECK(TVMFFITensorGetDLTensorPtr(t)->strides[0] == 1);
  CHECK(TVMFFITensorToDLPackVersioned(t, &out) == 0);
  CHECK(out->version.major == 1 && out->version.minor == 3);
  CHECK(out->flags == 0);
  CHECK(out->dl_tensor.data == buf);
  TVMFFIObjectDecRef(t);
  CHECK(p.deletes == 0);
  CHECK(TVMFFITensorFromDLPackVersioned(out, 0, 0, &back) == 0);
  CHECK(TVMFFITensorGetDLTensorPtr(back)->data == buf);
  TVMFFIObjectDecRef(back);
  CHECK(p.deletes == 1);
}

static void test_strides_synthesised(void) {
  float buf[24];
  int64_t shape[3] = {2, 3, 4};
  Producer p;
  TVMFFIObjectHandle t = NULL;
  int64_t* s;

  producer_init(&p, buf, 3, shape, NULL);
  CHECK(TVMFFITensorFromDLPack(&p.legacy, 0, 1, &t) == 0);
  s = TVMFFITensorGetDLTensorPtr(t)->strides;
  CHECK(s != NULL && s[0] == 12 && s[1] == 4 && s[2] == 1);
  TVMFFIObjectDecRef(t);
  CHECK(p.deletes == 1);
}

static void test_refusals(void) {
  float buf[6];
  int64_t shape[2] = {2, 3};
  int64_t col_major[2] = {1, 2};
  int64_t row_major[2] = {3, 1};
  Producer p;
  TVMFFIObjectHandle t = NULL;

  /* Alignment of data + byte_offset on the CPU (the pointer is never read). */
  producer_init(&p, (void*)0x1000, 2, shape, row_major);
  p.legacy.dl_tensor.byte_offset = 8;
  CHECK(TVMFFITensorFromDLPack(&p.legacy, 32, 0, &t) == -1);
  CHECK(expect_error_upstream_kind(
      "RuntimeError", "DLPack tensor data is not aligned to 32 bytes: data + byte_offset = 0x1008"));
  CHECK(p.deletes == 0);

  /* Contiguity. */
  producer_init(&p, buf, 2, shape, col_major);
  CHECK(TVMFFITensorFromDLPack(&p.legacy, 0, 1, &t) == -1);
  CHECK(expect_error_upstream_kind("RuntimeError",
                                   "DLPack tensor is not contiguous: shape [2, 3], strides [1, 2]"));
  CHECK(p.deletes == 0);

  /* Another major version: refused, and left to its owner. */
  if (on_upstream()) {
    skip_on_upstream("DLPack major version 2 refused",
                     "upstream imports a tensor of any DLPack major version");
  } else {
    producer_init(&p, buf, 2, shape, row_major);
    p.versioned.version.major = 2;
    p.versioned.version.minor = 1;
    CHECK(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &t) == -1);
    CHECK(expect_error("RuntimeError",
                       "DLPack tensor version 2.1 is not supported: the major version must be 1"));
    CHECK(p.deletes == 0);
  }

  /* Padded sub-byte elements. */
  producer_init(&p, buf, 2, shape, row_major);
  p.versioned.flags = DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  CHECK(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &t) == -1);
  CHECK(expect_error_upstream_kind("RuntimeError",
                                   "DLPack tensor has the IS_SUBBYTE_TYPE_PADDED flag: padded "
                                   "sub-byte element types are not supported"));
  CHECK(p.deletes == 0);
}

static void test_unsafe_view(void) {
  float buf[12];
  int64_t shape[2] = {3, 4};
  int64_t view_shape[1] = {4};
  int64_t view_strides[1] = {1};
  Producer p;
  TVMFFIObjectHandle src = NULL, view = NULL;
  DLTensor proto;
  DLTensor* v;

  producer_init(&p, buf, 2, shape, NULL);
  CHECK(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &src) == 0);
  proto = *TVMFFITensorGetDLTensorPtr(src);
  proto.ndim = 1;
  proto.shape = view_shape;
  proto.strides = view_strides;
  proto.byte_offset = 4 * sizeof(float);
  CHECK(TVMFFITensorCreateUnsafeView(src, &proto, &view) == 0);
  view_shape[0] = 99;
  v = TVMFFITensorGetDLTensorPtr(view);
  CHECK(v->ndim == 1 && v->shape[0] == 4 && v->strides[0] == 1 && v->byte_offset == 16);
  CHECK(v->data == buf);
  TVMFFIObjectDecRef(src);
  CHECK(p.deletes == 0);
  TVMFFIObjectDecRef(view);
  CHECK(p.deletes == 1);
}

/* A malloc-based allocator for TVMFFIEnvTensorAlloc. */
static int env_frees = 0;
typedef struct {
  DLManagedTensorVersioned mt;
  int64_t shape[4];
} EnvBlock;

static void env_deleter(DLManagedTensorVersioned* self) {
  free(self->dl_tensor.data);
  free(self);
  ++env_frees;
}

static int env_allocator(DLTensor* proto, DLManagedTensorVersioned** out, void* error_ctx,
                         void (*SetError)(void* error_ctx, const char* kind, const char* msg)) {
  EnvBlock* b;
  int64_t n = 1;
  int32_t i;
  if (proto->ndim > 4) {
    SetError(error_ctx, "ValueError", "at most 4 dimensions");
    return -1;
  }
  b = (EnvBlock*)calloc(1, sizeof(EnvBlock));
  for (i = 0; i < proto->ndim; ++i) {
    b->shape[i] = proto->shape[i];
    n *= proto->shape[i];
  }
  b->mt.version.major = 1;
  b->mt.version.minor = 3;
  b->mt.deleter = env_deleter;
  b->mt.dl_tensor.data = calloc((size_t)n, proto->dtype.bits / 8);
  b->mt.dl_tensor.device = proto->device;
  b->mt.dl_tensor.ndim = proto->ndim;
  b->mt.dl_tensor.dtype = proto->dtype;
  b->mt.dl_tensor.shape = b->shape;
  b->mt.dl_tensor.strides = NULL;
  *out = &b->mt;
  return 0;
}

static void test_env(void) {
  int64_t shape[2] = {5, 2};
  int64_t big[5] = {1, 1, 1, 1, 1};
  DLTensor proto;
  TVMFFIObjectHandle t = NULL;
  TVMFFIStreamHandle prev = (TVMFFIStreamHandle)1;
  DLTensor* cell;

  /* Streams. */
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1) == NULL);
  CHECK(TVMFFIEnvSetStream(kDLCUDA, 1, (TVMFFIStreamHandle)0x100, &prev) == 0);
  CHECK(prev == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1) == (TVMFFIStreamHandle)0x100);
  CHECK(TVMFFIEnvSetStream(kDLCUDA, 1, NULL, &prev) == 0);
  CHECK(prev == (TVMFFIStreamHandle)0x100);
  if (on_upstream()) {
    /* Upstream stores it, out of bounds, and the heap is corrupt at exit. */
    skip_on_upstream("TVMFFIEnvSetStream with device_id -1 refused",
                     "upstream accepts a negative device id and writes out of bounds");
  } else {
    CHECK(TVMFFIEnvSetStream(kDLCUDA, -1, NULL, NULL) == -1);
    CHECK(expect_error("ValueError",
                       "TVMFFIEnvSetStream: device_type and device_id must be non-negative, got "
                       "device_type=2, device_id=-1"));
  }

  /* Allocation. */
  memset(&proto, 0, sizeof(proto));
  proto.device.device_type = kDLCPU;
  proto.ndim = 2;
  proto.dtype.code = kDLFloat;
  proto.dtype.bits = 32;
  proto.dtype.lanes = 1;
  proto.shape = shape;
  CHECK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 1, NULL) == 0);
  CHECK(TVMFFIEnvTensorAlloc(&proto, &t) == -1);
  CHECK(expect_error_upstream_kind("RuntimeError",
                                   "TVMFFIEnvTensorAlloc: no DLPack tensor allocator is set (see "
                                   "TVMFFIEnvSetDLPackManagedTensorAllocator)"));
  CHECK(TVMFFIEnvSetDLPackManagedTensorAllocator(env_allocator, 0, NULL) == 0);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == env_allocator);
  CHECK(TVMFFIEnvTensorAlloc(&proto, &t) == 0);
  cell = TVMFFITensorGetDLTensorPtr(t);
  CHECK(cell->ndim == 2 && cell->shape[0] == 5 && cell->strides[0] == 2 && cell->strides[1] == 1);
  ((float*)cell->data)[9] = 2.0f;
  TVMFFIObjectDecRef(t);
  CHECK(env_frees == 1);
  /* The allocator's error passes through. */
  proto.ndim = 5;
  proto.shape = big;
  CHECK(TVMFFIEnvTensorAlloc(&proto, &t) == -1);
  CHECK(expect_error("ValueError", "at most 4 dimensions"));
  CHECK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, NULL) == 0);
}

/* A C++ function taking a Tensor, called from C with a DLTensor* argument. */
static void test_dltensor_argument(void) {
  float buf[2];
  int64_t shape[1] = {2};
  DLTensor dl;
  TVMFFIByteArray name = bytes_of("ffi.TensorIsReadOnly");
  TVMFFIObjectHandle f = NULL, t = NULL;
  TVMFFIAny arg, result;
  Producer p;

  CHECK(TVMFFIFunctionGetGlobal(&name, &f) == 0);
  if (on_upstream() && f == NULL) {
    skip_on_upstream("ffi.TensorIsReadOnly", "a global function of this library only");
    return;
  }
  CHECK(f != NULL);
  if (f == NULL) return;

  memset(&dl, 0, sizeof(dl));
  dl.data = buf;
  dl.device.device_type = kDLCPU;
  dl.ndim = 1;
  dl.dtype.code = kDLFloat;
  dl.dtype.bits = 32;
  dl.dtype.lanes = 1;
  dl.shape = shape;
  arg = none_value();
  arg.type_index = kTVMFFIDLTensorPtr;
  TVM_FFI_ANY_VALUE(arg).v_ptr = &dl;
  result = none_value();
  CHECK(TVMFFIFunctionCall(f, &arg, 1, &result) == 0);
  CHECK(result.type_index == kTVMFFIBool && TVM_FFI_ANY_VALUE(result).v_int64 == 0);

  /* A tensor imported with READ_ONLY remembers it. */
  producer_init(&p, buf, 1, shape, NULL);
  p.versioned.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  CHECK(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &t) == 0);
  arg = none_value();
  arg.type_index = kTVMFFITensor;
  TVM_FFI_ANY_VALUE(arg).v_obj = (TVMFFIObject*)t;
  result = none_value();
  CHECK(TVMFFIFunctionCall(f, &arg, 1, &result) == 0);
  CHECK(result.type_index == kTVMFFIBool && TVM_FFI_ANY_VALUE(result).v_int64 == 1);
  TVMFFIObjectDecRef(t);
  CHECK(p.deletes == 1);
  TVMFFIObjectDecRef(f);
}

int main(void) {
  test_legacy_round_trip();
  test_versioned_round_trip();
  test_strides_synthesised();
  test_refusals();
  test_unsafe_view();
  test_env();
  test_dltensor_argument();
  return check_summary("tensor");
}

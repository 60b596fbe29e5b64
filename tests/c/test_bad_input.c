/* The bad-input matrix of the C API: every exported function (the functions
 * tests/export/check_exports.py finds declared with TVM_FFI_DLL; the ctest
 * `c_bad_input_covers_exports` checks that `--list` names each one) is called
 * with NULL pointers, unknown type indices and out-of-range lengths.  Each
 * call must come back with the documented error (kind and message) or the
 * documented quiet result; none may crash or read memory it was not given.
 *
 *   c_test_bad_input          runs the matrix
 *   c_test_bad_input NAME     runs only the cases whose functions' names hold NAME
 *   c_test_bad_input --list   prints the covered function names, one a line */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "check.h"

#define UNKNOWN_TYPE_INDEX 9999

/* A value of an object type index with the given payload pointer. */
static TVMFFIAny object_typed(int32_t type_index, void* ptr) {
  TVMFFIAny v = none_value();
  v.type_index = type_index;
  TVM_FFI_ANY_VALUE(v).v_ptr = ptr;
  return v;
}

/* A small string claiming `len` bytes (at most 7 fit). */
static TVMFFIAny small_str(uint32_t len) {
  TVMFFIAny v = none_value();
  v.type_index = kTVMFFISmallStr;
  memcpy(TVM_FFI_ANY_VALUE(v).v_bytes, "abcdefg", 7);
  TVM_FFI_ANY_PADDING(v).small_str_len = len;
  return v;
}

static TVMFFIByteArray null_data(size_t size) {
  TVMFFIByteArray b;
  b.data = NULL;
  b.size = size;
  return b;
}

static TVMFFIObjectHandle global(const char* name) {
  TVMFFIByteArray b = bytes_of(name);
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&b, &f) != 0 || f == NULL) {
    printf("FAIL: global %s is missing\n", name);
    exit(1);
  }
  return f;
}

/* Calls `name` with one argument; expects an error. */
static int call1_fails(const char* name, TVMFFIAny arg, const char* kind, const char* message) {
  TVMFFIObjectHandle f = global(name);
  TVMFFIAny result = none_value();
  int rc = TVMFFIFunctionCall(f, &arg, 1, &result);
  TVMFFIObjectDecRef(f);
  if (rc == 0) {
    printf("     %s succeeded\n", name);
    release(&result);
    return 0;
  }
  return expect_error(kind, message);
}

/* ---- one function per exported function --------------------------------- */

static void t_GetVersion(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(NULL); /* documented: does nothing */
  TVMFFIGetVersion(&v);
  CHECK(v.major == TVM_FFI_VERSION_MAJOR);
}

static void t_ObjectIncRef(void) {
  CHECK(TVMFFIObjectIncRef(NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIObjectIncRef: obj must not be NULL"));
}

static void t_ObjectDecRef(void) {
  CHECK(TVMFFIObjectDecRef(NULL) == 0); /* documented: NULL is ignored */
}

static void t_ObjectCreateOpaque(void) {
  TVMFFIObjectHandle out = NULL;
  CHECK(TVMFFIObjectCreateOpaque(NULL, kTVMFFIOpaquePyObject, NULL, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIObjectCreateOpaque: out must not be NULL"));
  CHECK(TVMFFIObjectCreateOpaque(NULL, UNKNOWN_TYPE_INDEX, NULL, &out) == -1);
  CHECK(expect_error("RuntimeError", "TVMFFIObjectCreateOpaque: type_index must be 74 "
                                     "(ffi.OpaquePyObject), got 9999"));
  CHECK(TVMFFIObjectCreateOpaque(NULL, kTVMFFIInt, NULL, &out) == -1);
  CHECK(expect_error("RuntimeError", "TVMFFIObjectCreateOpaque: type_index must be 74 "
                                     "(ffi.OpaquePyObject), got 1"));
}

static void t_CustomAllocator(void) {
  TVMFFICustomAllocator* before = TVMFFIGetCustomAllocator();
  CHECK(TVMFFISetCustomAllocator(NULL) == 0); /* documented: back to the default */
  CHECK(TVMFFISetCustomAllocator(before) == 0);
  CHECK(TVMFFIGetCustomAllocator() == before);
}

static int noop_safe_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  (void)self;
  (void)args;
  (void)n;
  (void)rv;
  return 0;
}

static void t_FunctionCreate(void) {
  TVMFFIObjectHandle out = NULL;
  CHECK(TVMFFIFunctionCreate(NULL, NULL, NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionCreate: safe_call must not be NULL"));
  CHECK(TVMFFIFunctionCreate(NULL, noop_safe_call, NULL, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionCreate: out must not be NULL"));
}

static void t_FunctionGetGlobal(void) {
  TVMFFIByteArray name = bytes_of("ffi.String");
  TVMFFIByteArray bad = null_data(5);
  TVMFFIObjectHandle out = NULL;
  CHECK(TVMFFIFunctionGetGlobal(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionGetGlobal: name must not be NULL"));
  CHECK(TVMFFIFunctionGetGlobal(&name, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionGetGlobal: out must not be NULL"));
  CHECK(TVMFFIFunctionGetGlobal(&bad, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionGetGlobal: name has data NULL but size 5"));
}

static void t_FunctionSetGlobal(void) {
  TVMFFIByteArray name = bytes_of("testing.bad_input_never_set");
  TVMFFIByteArray bad = null_data(3);
  TVMFFIAny s = none_value();
  TVMFFIObjectHandle f = global("ffi.String");
  CHECK(TVMFFIFunctionSetGlobal(NULL, f, 0) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionSetGlobal: name must not be NULL"));
  CHECK(TVMFFIFunctionSetGlobal(&bad, f, 0) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionSetGlobal: name has data NULL but size 3"));
  CHECK(TVMFFIFunctionSetGlobal(&name, NULL, 0) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionSetGlobal: f must not be NULL"));
  {
    TVMFFIByteArray text = bytes_of("not a function at all");
    CHECK(TVMFFIStringFromByteArray(&text, &s) == 0);
  }
  CHECK(TVMFFIFunctionSetGlobal(&name, TVM_FFI_ANY_VALUE(s).v_obj, 0) == -1);
  CHECK(expect_error("TypeError",
                     "global `testing.bad_input_never_set` must be an ffi.Function, got str"));
  release(&s);
  TVMFFIObjectDecRef(f);
}

static void t_FunctionSetGlobalFromMethodInfo(void) {
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = bytes_of("testing.bad_input_never_set");
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(NULL, 0) == -1);
  CHECK(expect_error("ValueError",
                     "TVMFFIFunctionSetGlobalFromMethodInfo: method_info must not be NULL"));
  info.method = object_typed(kTVMFFIFunction, NULL);
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionSetGlobalFromMethodInfo: method is a value "
                                   "of type index 68 (ffi.Function) with a NULL object pointer"));
  info.method = object_typed(UNKNOWN_TYPE_INDEX, NULL);
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0) == -1);
  CHECK(expect_error("ValueError",
                     "TVMFFIFunctionSetGlobalFromMethodInfo: method has unknown type index 9999"));
  info.method = none_value();
  info.name = null_data(4);
  CHECK(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0) == -1);
  CHECK(expect_error("ValueError",
                     "TVMFFIFunctionSetGlobalFromMethodInfo: name has data NULL but size 4"));
}

static void t_FunctionCall(void) {
  TVMFFIObjectHandle f = global("ffi.String");
  TVMFFIAny arg = raw_str_value("x");
  TVMFFIAny result = none_value();
  CHECK(TVMFFIFunctionCall(NULL, &arg, 1, &result) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionCall: func must not be NULL"));
  CHECK(TVMFFIFunctionCall(f, NULL, 1, &result) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionCall: args is NULL but num_args is 1"));
  CHECK(TVMFFIFunctionCall(f, &arg, -1, &result) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionCall: num_args must not be negative, got -1"));
  CHECK(TVMFFIFunctionCall(f, &arg, 1, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIFunctionCall: result must not be NULL"));
  TVMFFIObjectDecRef(f);

  /* Arguments a callee cannot trust. */
  CHECK(call1_fails("ffi.String", raw_str_value(NULL), "ValueError",
                    "a kTVMFFIRawStr value has a NULL v_c_str"));
  {
    TVMFFIAny v = object_typed(kTVMFFIByteArrayPtr, NULL);
    CHECK(call1_fails("ffi.Bytes", v, "ValueError",
                      "a kTVMFFIByteArrayPtr value has a NULL v_ptr"));
  }
  {
    TVMFFIByteArray b = null_data(9);
    TVMFFIAny v = object_typed(kTVMFFIByteArrayPtr, &b);
    CHECK(call1_fails("ffi.Bytes", v, "ValueError",
                      "the byte array of a kTVMFFIByteArrayPtr value has data NULL but size 9"));
  }
  CHECK(call1_fails("ffi.String", small_str(200), "ValueError",
                    "a kTVMFFISmallStr value claims 200 bytes (at most 7 fit)"));
  CHECK(call1_fails("ffi.String", object_typed(kTVMFFIStr, NULL), "ValueError",
                    "TVMFFIFunctionCall: argument 0 is a value of type index 65 (ffi.String) "
                    "with a NULL object pointer"));
  CHECK(call1_fails("ffi.String", object_typed(UNKNOWN_TYPE_INDEX, &arg), "ValueError",
                    "TVMFFIFunctionCall: argument 0 has unknown type index 9999"));
  CHECK(call1_fails("ffi.String", object_typed(-3, NULL), "ValueError",
                    "TVMFFIFunctionCall: argument 0 has unknown type index -3"));
}

static void t_AnyViewToOwnedAny(void) {
  TVMFFIAny v = int_value(1), out = none_value();
  TVMFFIByteArray b = null_data(2);
  CHECK(TVMFFIAnyViewToOwnedAny(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIAnyViewToOwnedAny: any_view must not be NULL"));
  CHECK(TVMFFIAnyViewToOwnedAny(&v, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIAnyViewToOwnedAny: out must not be NULL"));
  v = raw_str_value(NULL);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError", "a kTVMFFIRawStr value has a NULL v_c_str"));
  v = object_typed(kTVMFFIByteArrayPtr, NULL);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError", "a kTVMFFIByteArrayPtr value has a NULL v_ptr"));
  v = object_typed(kTVMFFIByteArrayPtr, &b);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError",
                     "the byte array of a kTVMFFIByteArrayPtr value has data NULL but size 2"));
  v = small_str(200);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError", "a kTVMFFISmallStr value claims 200 bytes (at most 7 fit)"));
  v = object_typed(kTVMFFIArray, NULL);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIAnyViewToOwnedAny: any_view is a value of type index "
                                   "71 (ffi.Array) with a NULL object pointer"));
  v = object_typed(UNKNOWN_TYPE_INDEX, &b);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIAnyViewToOwnedAny: any_view has unknown type index 9999"));
  v = object_typed(40, NULL); /* between the value types and the objects */
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIAnyViewToOwnedAny: any_view has unknown type index 40"));
  v = object_typed(kTVMFFIObjectRValueRef, NULL);
  CHECK(TVMFFIAnyViewToOwnedAny(&v, &out) == -1);
  CHECK(expect_error("RuntimeError", "ObjectRValueRef: the object was already moved out"));
  CHECK(out.type_index == kTVMFFINone);
}

static void t_ErrorRaised(void) {
  TVMFFIObjectHandle err = NULL;
  const char* parts[2] = {"a", NULL};
  TVMFFIErrorMoveFromRaised(NULL); /* documented: does nothing */
  TVMFFIErrorSetRaised(NULL);      /* documented: clears the slot */
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);
  TVMFFIErrorSetRaisedFromCStr(NULL, NULL);
  CHECK(expect_error("RuntimeError", ""));
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", NULL, 3);
  CHECK(expect_error("ValueError", ""));
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 2);
  CHECK(expect_error("ValueError", "a"));
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, -5);
  CHECK(expect_error("ValueError", ""));
}

/* Documented: TVMFFIErrorCreate* never touch the error slot (they run while
 * errors are handled); a bad text is -1 with *out NULL and nothing raised. */
static int no_error_raised(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
  return err == NULL;
}

static void t_ErrorCreate(void) {
  TVMFFIByteArray kind = bytes_of("ValueError"), msg = bytes_of("m"), bad = null_data(6);
  TVMFFIObjectHandle out = NULL;
  CHECK(TVMFFIErrorCreate(&kind, &msg, NULL, NULL) == -1);
  CHECK(no_error_raised());
  out = (TVMFFIObjectHandle)&kind;
  CHECK(TVMFFIErrorCreate(&bad, &msg, NULL, &out) == -1);
  CHECK(out == NULL && no_error_raised());
  out = (TVMFFIObjectHandle)&kind;
  CHECK(TVMFFIErrorCreate(&kind, &bad, NULL, &out) == -1);
  CHECK(out == NULL && no_error_raised());
  out = (TVMFFIObjectHandle)&kind;
  CHECK(TVMFFIErrorCreate(&kind, &msg, &bad, &out) == -1);
  CHECK(out == NULL && no_error_raised());
  out = (TVMFFIObjectHandle)&kind;
  CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &bad, NULL, NULL, NULL, &out) == -1);
  CHECK(out == NULL && no_error_raised());
  CHECK(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, NULL, NULL, NULL, NULL) == -1);
  CHECK(no_error_raised());
  /* NULL texts are empty. */
  CHECK(TVMFFIErrorCreate(NULL, NULL, NULL, &out) == 0);
  CHECK(byte_array_equals(TVMFFIErrorGetCellPtr(out)->message, ""));
  TVMFFIObjectDecRef(out);
}

static void noop_deleter(DLManagedTensor* self) { (void)self; }
static void noop_deleter_v(DLManagedTensorVersioned* self) { (void)self; }

static void t_TensorFromDLPack(void) {
  int64_t shape[1] = {4};
  float data[4] = {0, 1, 2, 3};
  DLManagedTensor mt;
  DLManagedTensorVersioned mv;
  TVMFFIObjectHandle out = NULL;
  memset(&mt, 0, sizeof(mt));
  mt.dl_tensor.data = data;
  mt.dl_tensor.device.device_type = kDLCPU;
  mt.dl_tensor.ndim = 1;
  mt.dl_tensor.shape = shape;
  mt.dl_tensor.dtype.code = kDLFloat;
  mt.dl_tensor.dtype.bits = 32;
  mt.dl_tensor.dtype.lanes = 1;
  mt.deleter = noop_deleter;
  memset(&mv, 0, sizeof(mv));
  mv.version.major = DLPACK_MAJOR_VERSION;
  mv.dl_tensor = mt.dl_tensor;
  mv.deleter = noop_deleter_v;

  CHECK(TVMFFITensorFromDLPack(NULL, 0, 0, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorFromDLPack: from must not be NULL"));
  CHECK(TVMFFITensorFromDLPack(&mt, 0, 0, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorFromDLPack: out must not be NULL"));
  CHECK(TVMFFITensorFromDLPack(&mt, -1, 0, &out) == -1);
  CHECK(expect_error("ValueError", "require_alignment must be non-negative, got -1"));
  mt.dl_tensor.ndim = -2;
  CHECK(TVMFFITensorFromDLPack(&mt, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError", "DLPack tensor has a negative ndim -2"));
  mt.dl_tensor.ndim = 1;
  mt.dl_tensor.shape = NULL;
  CHECK(TVMFFITensorFromDLPack(&mt, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError", "DLPack tensor with ndim 1 has a NULL shape"));
  mt.dl_tensor.shape = shape;
  /* Element types no kernel can be handed. */
  mt.dl_tensor.dtype.lanes = 0;
  CHECK(TVMFFITensorFromDLPack(&mt, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError",
                     "DLPack tensor has an invalid dtype {code 2, bits 32, lanes 0}: lanes must "
                     "be at least 1"));
  mt.dl_tensor.dtype.lanes = 1;
  mt.dl_tensor.dtype.bits = 0;
  CHECK(TVMFFITensorFromDLPack(&mt, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError",
                     "DLPack tensor has an invalid dtype {code 2, bits 0, lanes 1}: bits must "
                     "be at least 1"));
  mt.dl_tensor.dtype.bits = 8;
  mt.dl_tensor.dtype.code = 100;
  CHECK(TVMFFITensorFromDLPack(&mt, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError",
                     "DLPack tensor has an invalid dtype {code 100, bits 8, lanes 1}: unknown "
                     "type code 100"));
  mv.dl_tensor.dtype.code = 255;
  mv.dl_tensor.dtype.bits = 0;
  mv.dl_tensor.dtype.lanes = 0;
  CHECK(TVMFFITensorFromDLPackVersioned(&mv, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError",
                     "DLPack tensor has an invalid dtype {code 255, bits 0, lanes 0}: bits must "
                     "be at least 1"));
  CHECK(TVMFFITensorFromDLPackVersioned(NULL, 0, 0, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorFromDLPackVersioned: from must not be NULL"));
  mv.dl_tensor = mt.dl_tensor;
  mv.version.major = 99;
  CHECK(TVMFFITensorFromDLPackVersioned(&mv, 0, 0, &out) == -1);
  CHECK(expect_error("RuntimeError",
                     "DLPack tensor version 99.0 is not supported: the major version must be 1"));
}

static void t_TensorToDLPack(void) {
  DLManagedTensor* legacy = NULL;
  DLManagedTensorVersioned* versioned = NULL;
  TVMFFIObjectHandle f = global("ffi.String");
  CHECK(TVMFFITensorToDLPack(NULL, &legacy) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorToDLPack: tensor must not be NULL"));
  CHECK(TVMFFITensorToDLPack(f, &legacy) == -1);
  CHECK(expect_error("TypeError", "TVMFFITensorToDLPack: expected ffi.Tensor, got ffi.Function"));
  CHECK(TVMFFITensorToDLPackVersioned(NULL, &versioned) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorToDLPackVersioned: tensor must not be NULL"));
  CHECK(TVMFFITensorToDLPackVersioned(f, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorToDLPackVersioned: out must not be NULL"));
  TVMFFIObjectDecRef(f);
}

static void t_TensorCreateUnsafeView(void) {
  DLTensor proto;
  TVMFFIObjectHandle out = NULL;
  memset(&proto, 0, sizeof(proto));
  CHECK(TVMFFITensorCreateUnsafeView(NULL, &proto, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFITensorCreateUnsafeView: source must not be NULL"));
}

static void t_StringBytesBigIntFromByteArray(void) {
  TVMFFIByteArray bad = null_data(8), ok = bytes_of("x");
  TVMFFIAny out = none_value();
  CHECK(TVMFFIStringFromByteArray(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIStringFromByteArray: input must not be NULL"));
  CHECK(TVMFFIStringFromByteArray(&ok, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIStringFromByteArray: out must not be NULL"));
  CHECK(TVMFFIStringFromByteArray(&bad, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIStringFromByteArray: input has data NULL but size 8"));
  CHECK(TVMFFIBytesFromByteArray(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIBytesFromByteArray: input must not be NULL"));
  CHECK(TVMFFIBytesFromByteArray(&bad, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIBytesFromByteArray: input has data NULL but size 8"));
  CHECK(TVMFFIBigIntFromByteArray(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIBigIntFromByteArray: input must not be NULL"));
  CHECK(TVMFFIBigIntFromByteArray(&bad, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIBigIntFromByteArray: input has data NULL but size 8"));
  CHECK(out.type_index == kTVMFFINone);
}

static void t_BigIntGetContentByteArray(void) {
  TVMFFIByteArray r;
  TVMFFIAny v = object_typed(kTVMFFIBigInt, NULL);
  r = TVMFFIBigIntGetContentByteArray(NULL); /* documented: {NULL, 0} */
  CHECK(r.data == NULL && r.size == 0);
  r = TVMFFIBigIntGetContentByteArray(&v);
  CHECK(r.data == NULL && r.size == 0);
  v = object_typed(UNKNOWN_TYPE_INDEX, NULL);
  r = TVMFFIBigIntGetContentByteArray(&v);
  CHECK(r.data == NULL && r.size == 0);
}

static void t_DataType(void) {
  TVMFFIByteArray bad = null_data(3), text = bytes_of("float32"), junk = bytes_of("flaot32");
  DLDataType dt;
  TVMFFIAny out = none_value();
  CHECK(TVMFFIDataTypeFromString(NULL, &dt) == -1);
  CHECK(expect_error("ValueError", "TVMFFIDataTypeFromString: str must not be NULL"));
  CHECK(TVMFFIDataTypeFromString(&text, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIDataTypeFromString: out must not be NULL"));
  CHECK(TVMFFIDataTypeFromString(&bad, &dt) == -1);
  CHECK(expect_error("ValueError", "TVMFFIDataTypeFromString: str has data NULL but size 3"));
  CHECK(TVMFFIDataTypeFromString(&junk, &dt) == -1);
  CHECK(expect_error("ValueError", "unknown dtype `flaot32`"));
  CHECK(TVMFFIDataTypeToString(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIDataTypeToString: dtype must not be NULL"));
  dt.code = 100;
  dt.bits = 8;
  dt.lanes = 1;
  CHECK(TVMFFIDataTypeToString(&dt, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIDataTypeToString: out must not be NULL"));
  CHECK(TVMFFIDataTypeToString(&dt, &out) == -1);
  CHECK(expect_error("ValueError",
                     "cannot format dtype {code 100, bits 8, lanes 1}: unknown type code 100"));
}

static void t_TypeKeyToIndex(void) {
  TVMFFIByteArray bad = null_data(2), key = bytes_of("ffi.String");
  int32_t index = 0;
  CHECK(TVMFFITypeKeyToIndex(NULL, &index) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeKeyToIndex: type_key must not be NULL"));
  CHECK(TVMFFITypeKeyToIndex(&key, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeKeyToIndex: out_tindex must not be NULL"));
  CHECK(TVMFFITypeKeyToIndex(&bad, &index) == -1);
  CHECK(expect_error("ValueError", "type key has data NULL but size 2"));
}

static void t_TypeGetOrAllocIndex(void) {
  TVMFFIByteArray bad = null_data(2), key = bytes_of("testing.bad_input.Child");
  CHECK(TVMFFITypeGetOrAllocIndex(NULL, -1, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeGetOrAllocIndex: type_key must not be NULL"));
  CHECK(TVMFFITypeGetOrAllocIndex(&bad, -1, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(expect_error("ValueError", "type key has data NULL but size 2"));
  CHECK(TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIInt) == -1);
  CHECK(expect_error("ValueError", "parent type index 1 (int) of type "
                                   "`testing.bad_input.Child` is a value type; only object "
                                   "types have subtypes"));
  CHECK(TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, UNKNOWN_TYPE_INDEX) == -1);
  CHECK(expect_error("ValueError", "parent type index 9999 of type `testing.bad_input.Child` "
                                   "is not registered"));
  /* Neither call registered the key. */
  CHECK(TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, -2) == -2);
}

static void t_GetTypeInfo(void) {
  CHECK(TVMFFIGetTypeInfo(UNKNOWN_TYPE_INDEX) == NULL);
  CHECK(expect_error("ValueError", "unknown type index 9999"));
  CHECK(TVMFFIGetTypeInfo(-7) == NULL);
  CHECK(expect_error("ValueError", "unknown type index -7"));
}

static void t_TypeRegister(void) {
  TVMFFIFieldInfo field;
  TVMFFIMethodInfo method;
  TVMFFIByteArray name = bytes_of("x"), bad = null_data(3);
  TVMFFIAny value = int_value(1);
  memset(&field, 0, sizeof(field));
  memset(&method, 0, sizeof(method));
  CHECK(TVMFFITypeRegisterField(kTVMFFIObject, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterField: info must not be NULL"));
  field.name = bytes_of("f");
  CHECK(TVMFFITypeRegisterField(UNKNOWN_TYPE_INDEX, &field) == -1);
  CHECK(expect_error("ValueError", "unknown type index 9999"));
  CHECK(TVMFFITypeRegisterMethod(kTVMFFIObject, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterMethod: info must not be NULL"));
  method.name = bytes_of("m");
  method.method = none_value();
  CHECK(TVMFFITypeRegisterMethod(kTVMFFIObject, &method) == -1);
  CHECK(expect_error("TypeError", "method `m` must be a Function, got None"));
  method.method = object_typed(kTVMFFIFunction, NULL);
  CHECK(TVMFFITypeRegisterMethod(kTVMFFIObject, &method) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterMethod: method is a value of type index "
                                   "68 (ffi.Function) with a NULL object pointer"));
  method.method = object_typed(UNKNOWN_TYPE_INDEX, &name);
  CHECK(TVMFFITypeRegisterMethod(kTVMFFIObject, &method) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterMethod: method has unknown type index 9999"));
  CHECK(TVMFFITypeRegisterMetadata(kTVMFFIObject, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterMetadata: metadata must not be NULL"));
  CHECK(TVMFFITypeRegisterAttr(kTVMFFIObject, NULL, &value) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterAttr: attr_name must not be NULL"));
  CHECK(TVMFFITypeRegisterAttr(kTVMFFIObject, &name, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterAttr: attr_value must not be NULL"));
  CHECK(TVMFFITypeRegisterAttr(kTVMFFIObject, &bad, &value) == -1);
  CHECK(expect_error("ValueError", "type attribute name has data NULL but size 3"));
  value = object_typed(UNKNOWN_TYPE_INDEX, &name);
  CHECK(TVMFFITypeRegisterAttr(kTVMFFIObject, &name, &value) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterAttr: attr_value has unknown type index 9999"));
  value = object_typed(kTVMFFIStr, NULL);
  CHECK(TVMFFITypeRegisterAttr(kTVMFFIObject, &name, &value) == -1);
  CHECK(expect_error("ValueError", "TVMFFITypeRegisterAttr: attr_value is a value of type index "
                                   "65 (ffi.String) with a NULL object pointer"));
}

static void t_GetTypeAttrColumn(void) {
  TVMFFIByteArray bad = null_data(3);
  CHECK(TVMFFIGetTypeAttrColumn(NULL) == NULL);
  CHECK(expect_error("ValueError", "TVMFFIGetTypeAttrColumn: attr_name must not be NULL"));
  CHECK(TVMFFIGetTypeAttrColumn(&bad) == NULL);
  CHECK(expect_error("ValueError", "type attribute name has data NULL but size 3"));
}

static void t_Backtrace(void) {
  /* Every argument may be NULL or 0. */
  const TVMFFIByteArray* bt = TVMFFIBacktrace(NULL, -1, NULL, 0);
  CHECK(bt != NULL);
}

static int init_fail(void** result) {
  (void)result;
  TVMFFIErrorSetRaisedFromCStr("RuntimeError", "init refused");
  return -1;
}

static void t_InitOnce(void) {
  void* slot = NULL;
  CHECK(TVMFFIHandleInitOnce(NULL, init_fail) == -1);
  CHECK(expect_error("ValueError",
                     "TVMFFIHandleInitOnce: handle_addr and init_func must not be NULL"));
  CHECK(TVMFFIHandleInitOnce(&slot, NULL) == -1);
  CHECK(expect_error("ValueError",
                     "TVMFFIHandleInitOnce: handle_addr and init_func must not be NULL"));
  CHECK(TVMFFIHandleInitOnce(&slot, init_fail) == -1);
  CHECK(expect_error("RuntimeError", "init refused"));
  CHECK(slot == NULL);
  CHECK(TVMFFIHandleDeinitOnce(NULL, NULL) == -1);
  CHECK(expect_error("ValueError",
                     "TVMFFIHandleDeinitOnce: handle_addr and deinit_func must not be NULL"));
}

static void t_Env(void) {
  TVMFFIObjectHandle out = NULL;
  DLTensor proto;
  CHECK(TVMFFIEnvGetStream(kDLCPU, -1) == NULL); /* never set */
  CHECK(TVMFFIEnvSetStream(kDLCPU, 0, NULL, NULL) == 0);
  CHECK(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, NULL) == 0);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == NULL);
  memset(&proto, 0, sizeof(proto));
  CHECK(TVMFFIEnvTensorAlloc(NULL, &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIEnvTensorAlloc: prototype must not be NULL"));
  CHECK(TVMFFIEnvTensorAlloc(&proto, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIEnvTensorAlloc: out must not be NULL"));
  CHECK(TVMFFIEnvCheckSignals() == 0);
  CHECK(TVMFFIEnvRegisterCAPI(NULL, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIEnvRegisterCAPI: name must not be NULL"));
  CHECK(TVMFFIEnvModLookupFromImports(NULL, "f", &out) == -1);
  CHECK(expect_error("ValueError", "TVMFFIEnvModLookupFromImports: library_ctx must not be NULL"));
  CHECK(TVMFFIEnvModRegisterContextSymbol(NULL, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIEnvModRegisterContextSymbol: name must not be NULL"));
  CHECK(TVMFFIEnvModRegisterSystemLibSymbol(NULL, NULL) == -1);
  CHECK(expect_error("ValueError", "TVMFFIEnvModRegisterSystemLibSymbol: name must not be NULL"));
}

/* ---- the table ------------------------------------------------------------ */

struct entry {
  const char* names; /* the exported functions the case covers, space-separated */
  void (*run)(void);
};

static const struct entry kEntries[] = {
    {"TVMFFIGetVersion", t_GetVersion},
    {"TVMFFIObjectIncRef", t_ObjectIncRef},
    {"TVMFFIObjectDecRef", t_ObjectDecRef},
    {"TVMFFIObjectCreateOpaque", t_ObjectCreateOpaque},
    {"TVMFFIGetCustomAllocator TVMFFISetCustomAllocator", t_CustomAllocator},
    {"TVMFFIFunctionCreate", t_FunctionCreate},
    {"TVMFFIFunctionGetGlobal", t_FunctionGetGlobal},
    {"TVMFFIFunctionSetGlobal", t_FunctionSetGlobal},
    {"TVMFFIFunctionSetGlobalFromMethodInfo", t_FunctionSetGlobalFromMethodInfo},
    {"TVMFFIFunctionCall", t_FunctionCall},
    {"TVMFFIAnyViewToOwnedAny", t_AnyViewToOwnedAny},
    {"TVMFFIErrorMoveFromRaised TVMFFIErrorSetRaised TVMFFIErrorSetRaisedFromCStr "
     "TVMFFIErrorSetRaisedFromCStrParts",
     t_ErrorRaised},
    {"TVMFFIErrorCreate TVMFFIErrorCreateWithCauseAndExtraContext", t_ErrorCreate},
    {"TVMFFITensorFromDLPack TVMFFITensorFromDLPackVersioned", t_TensorFromDLPack},
    {"TVMFFITensorToDLPack TVMFFITensorToDLPackVersioned", t_TensorToDLPack},
    {"TVMFFITensorCreateUnsafeView", t_TensorCreateUnsafeView},
    {"TVMFFIStringFromByteArray TVMFFIBytesFromByteArray TVMFFIBigIntFromByteArray",
     t_StringBytesBigIntFromByteArray},
    {"TVMFFIBigIntGetContentByteArray", t_BigIntGetContentByteArray},
    {"TVMFFIDataTypeFromString TVMFFIDataTypeToString", t_DataType},
    {"TVMFFITypeKeyToIndex", t_TypeKeyToIndex},
    {"TVMFFITypeGetOrAllocIndex", t_TypeGetOrAllocIndex},
    {"TVMFFIGetTypeInfo", t_GetTypeInfo},
    {"TVMFFITypeRegisterField TVMFFITypeRegisterMethod TVMFFITypeRegisterMetadata "
     "TVMFFITypeRegisterAttr",
     t_TypeRegister},
    {"TVMFFIGetTypeAttrColumn", t_GetTypeAttrColumn},
    {"TVMFFIBacktrace", t_Backtrace},
    {"TVMFFIHandleInitOnce TVMFFIHandleDeinitOnce", t_InitOnce},
    {"TVMFFIEnvSetStream TVMFFIEnvGetStream TVMFFIEnvSetDLPackManagedTensorAllocator "
     "TVMFFIEnvGetDLPackManagedTensorAllocator TVMFFIEnvTensorAlloc TVMFFIEnvCheckSignals "
     "TVMFFIEnvRegisterCAPI TVMFFIEnvModLookupFromImports TVMFFIEnvModRegisterContextSymbol "
     "TVMFFIEnvModRegisterSystemLibSymbol",
     t_Env},
};

int main(int argc, char** argv) {
  size_t i;
  size_t n = sizeof(kEntries) / sizeof(kEntries[0]);
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (i = 0; i < n; ++i) {
      const char* p = kEntries[i].names;
      while (*p != '\0') {
        size_t len = strcspn(p, " ");
        printf("%.*s\n", (int)len, p);
        p += len;
        while (*p == ' ') ++p;
      }
    }
    return 0;
  }
  for (i = 0; i < n; ++i) {
    if (argc > 1 && strstr(kEntries[i].names, argv[1]) == NULL) continue;
    printf("-- %s\n", kEntries[i].names);
    fflush(stdout);
    kEntries[i].run();
  }
  return check_summary("bad input");
}

/* C round trip through the exported ABI, written the way a C user would
 * (C99, `cc test_roundtrip.c -ltvm_ffi`): functions made from C, the global
 * registry, errors raised and caught, strings, bytes and dtypes, reference
 * counts and deleters. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#include "check.h"

/* ---- helpers beyond check.h ------------------------------------------------ */

static uint32_t strong_count(TVMFFIObjectHandle h) {
  return (uint32_t)(((TVMFFIObject*)h)->combined_ref_count & 0xffffffffu);
}

static uint32_t weak_count(TVMFFIObjectHandle h) {
  return (uint32_t)(((TVMFFIObject*)h)->combined_ref_count >> 32);
}

static int byte_array_contains(TVMFFIByteArray b, const char* needle) {
  size_t n = strlen(needle);
  size_t i;
  for (i = 0; i + n <= b.size; ++i) {
    if (memcmp(b.data + i, needle, n) == 0) return 1;
  }
  return 0;
}

/* ---- functions written in C --------------------------------------------- */

typedef struct {
  int calls;
  int deleted;
} AdderState;

/* add(a: int, b: int) -> int; anything else raises TypeError. */
static int adder_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  AdderState* state = (AdderState*)self;
  state->calls += 1;
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "test_c.add expects two ints");
    return -1;
  }
  *result = int_value(TVM_FFI_ANY_VALUE(args[0]).v_int64 + TVM_FFI_ANY_VALUE(args[1]).v_int64);
  return 0;
}

static void adder_delete(void* self) { ((AdderState*)self)->deleted += 1; }

/* Raises ValueError "bad value <n>" built from message parts. */
static int fail_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  const char* parts[4];
  char digits[24];
  (void)self;
  (void)result;
  snprintf(digits, sizeof(digits), "%lld",
           num_args > 0 ? (long long)TVM_FFI_ANY_VALUE(args[0]).v_int64 : -1LL);
  parts[0] = "bad ";
  parts[1] = NULL; /* NULL parts are skipped */
  parts[2] = "value ";
  parts[3] = digits;
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 4);
  return -1;
}

/* Calls args[0] (a Function) with args[1:]; a failure propagates unchanged. */
static int apply_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args < 1 || args[0].type_index != kTVMFFIFunction) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "test_c.apply expects a function first");
    return -1;
  }
  return TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(args[0]).v_obj, (TVMFFIAny*)args + 1, num_args - 1,
                            result);
}

/* Returns its argument as an owned value. */
static int echo_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 1) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "test_c.echo expects one argument");
    return -1;
  }
  return TVMFFIAnyViewToOwnedAny(&args[0], result);
}

/* Made with self == NULL and deleter == NULL: receives its own handle. */
static TVMFFIObjectHandle handle_seen = NULL;
static int self_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)args;
  (void)num_args;
  handle_seen = self;
  *result = int_value(7);
  return 0;
}

static TVMFFIObjectHandle make_function(void* self, TVMFFISafeCallType call,
                                        void (*deleter)(void*)) {
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(self, call, deleter, &f) != 0) return NULL;
  return f;
}

/* ---- tests -------------------------------------------------------------- */

static void test_version(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  CHECK(v.major == TVM_FFI_VERSION_MAJOR);
  CHECK(v.minor == TVM_FFI_VERSION_MINOR);
  CHECK(v.patch == TVM_FFI_VERSION_PATCH);
}

static void test_function_registry(void) {
  AdderState state = {0, 0};
  TVMFFIByteArray name = bytes_of("test_c.add");
  TVMFFIObjectHandle f = make_function(&state, adder_call, adder_delete);
  TVMFFIObjectHandle g = NULL;
  TVMFFIAny args[2];
  TVMFFIAny result;

  CHECK(f != NULL);
  if (f == NULL) return;
  CHECK(((TVMFFIObject*)f)->type_index == kTVMFFIFunction);
  CHECK(strong_count(f) == 1 && weak_count(f) == 1);
  CHECK(TVMFFIFunctionGetCellPtr(f)->cpp_call == NULL);

  /* Register: the registry keeps its own reference. */
  CHECK(TVMFFIFunctionSetGlobal(&name, f, 0) == 0);
  CHECK(strong_count(f) == 2);
  /* A taken name needs allow_override. */
  CHECK(TVMFFIFunctionSetGlobal(&name, f, 0) == -1);
  {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    CHECK(err != NULL);
    if (err != NULL) {
      /* The message names the function. */
      CHECK(byte_array_equals(TVMFFIErrorGetCellPtr(err)->kind, "RuntimeError"));
      CHECK(byte_array_contains(TVMFFIErrorGetCellPtr(err)->message, "test_c.add"));
      TVMFFIObjectDecRef(err);
    }
  }
  CHECK(TVMFFIFunctionSetGlobal(&name, f, 1) == 0);
  CHECK(strong_count(f) == 2);

  /* Look it up and call it. */
  CHECK(TVMFFIFunctionGetGlobal(&name, &g) == 0);
  CHECK(g == f);
  CHECK(strong_count(f) == 3);
  args[0] = int_value(40);
  args[1] = int_value(2);
  result = none_value();
  CHECK(TVMFFIFunctionCall(g, args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 42);
  CHECK(state.calls == 1);
  TVMFFIObjectDecRef(g);
  CHECK(strong_count(f) == 2);

  /* A type error raised in C reaches the caller. */
  args[1] = raw_str_value("two");
  result = none_value();
  CHECK(TVMFFIFunctionCall(f, args, 2, &result) == -1);
  CHECK(expect_error("TypeError", "test_c.add expects two ints"));
  CHECK(result.type_index == kTVMFFINone);

  /* A missing name is not an error. */
  {
    TVMFFIByteArray missing = bytes_of("test_c.no_such_function");
    TVMFFIObjectHandle h = (TVMFFIObjectHandle)&state;
    CHECK(TVMFFIFunctionGetGlobal(&missing, &h) == 0 && h == NULL);
  }

  /* ffi.FunctionRemoveGlobal drops the registry's reference. */
  args[0] = raw_str_value("test_c.add");
  CHECK(call_global("ffi.FunctionRemoveGlobal", args, 1, &result) == 0);
  CHECK(result.type_index == kTVMFFIBool && TVM_FFI_ANY_VALUE(result).v_int64 == 1);
  CHECK(strong_count(f) == 1);
  g = (TVMFFIObjectHandle)&state;
  CHECK(TVMFFIFunctionGetGlobal(&name, &g) == 0 && g == NULL);

  /* The last reference runs the deleter, exactly once. */
  CHECK(state.deleted == 0);
  TVMFFIObjectDecRef(f);
  CHECK(state.deleted == 1);
  CHECK(state.calls == 2);
}

static void test_self_handle(void) {
  TVMFFIObjectHandle f = make_function(NULL, self_call, NULL);
  TVMFFIAny result = none_value();
  CHECK(f != NULL);
  if (f == NULL) return;
  CHECK(TVMFFIFunctionCall(f, NULL, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 7);
  CHECK(handle_seen == f);
  TVMFFIObjectDecRef(f);
}

static void test_errors(void) {
  TVMFFIObjectHandle fail = make_function(NULL, fail_call, NULL);
  TVMFFIObjectHandle apply = make_function(NULL, apply_call, NULL);
  TVMFFIAny args[2];
  TVMFFIAny result = none_value();
  TVMFFIObjectHandle err = NULL;

  CHECK(fail != NULL && apply != NULL);
  if (fail == NULL || apply == NULL) return;

  /* Raised in C, caught in C; the slot is empty afterwards. */
  args[0] = int_value(7);
  CHECK(TVMFFIFunctionCall(fail, args, 1, &result) == -1);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  if (err != NULL) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
    CHECK(TVMFFIObjectGetTypeIndex(err) == kTVMFFIError);
    CHECK(byte_array_equals(cell->kind, "ValueError"));
    CHECK(byte_array_equals(cell->message, "bad value 7"));
    CHECK(cell->cause_chain == NULL && cell->extra_context == NULL);
    CHECK(strong_count(err) == 1);
    TVMFFIObjectDecRef(err);
  }
  err = (TVMFFIObjectHandle)&result;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);

  /* Propagated unchanged through a C function that calls another. */
  args[0] = object_value(fail);
  args[1] = int_value(12);
  CHECK(TVMFFIFunctionCall(apply, args, 2, &result) == -1);
  CHECK(expect_error("ValueError", "bad value 12"));

  /* Errors as values: create, raise, take back the same object. */
  {
    TVMFFIByteArray kind = bytes_of("IndexError");
    TVMFFIByteArray message = bytes_of("index 5 out of range for Array of size 3");
    TVMFFIByteArray backtrace = bytes_of("");
    TVMFFIObjectHandle made = NULL;
    TVMFFIObjectHandle taken = NULL;
    CHECK(TVMFFIErrorCreate(&kind, &message, &backtrace, &made) == 0);
    CHECK(made != NULL && strong_count(made) == 1);
    if (made != NULL) {
      TVMFFIErrorSetRaised(made);
      CHECK(strong_count(made) == 2);
      TVMFFIErrorMoveFromRaised(&taken);
      CHECK(taken == made && strong_count(made) == 2);
      TVMFFIObjectDecRef(taken);
      CHECK(byte_array_equals(TVMFFIErrorGetCellPtr(made)->message,
                              "index 5 out of range for Array of size 3"));
      TVMFFIObjectDecRef(made);
    }
  }

  /* Raising twice keeps only the second error. */
  TVMFFIErrorSetRaisedFromCStr("KeyError", "first");
  TVMFFIErrorSetRaisedFromCStr("KeyError", "second");
  CHECK(expect_error("KeyError", "second"));

  TVMFFIObjectDecRef(fail);
  TVMFFIObjectDecRef(apply);
}

static void test_strings(void) {
  static const char* const texts[] = {"", "a", "1234567", "12345678", "hello, world!",
                                      "a string of exactly 28 bytes"};
  size_t i;
  for (i = 0; i < sizeof(texts) / sizeof(texts[0]); ++i) {
    TVMFFIByteArray in = bytes_of(texts[i]);
    TVMFFIAny s;
    int small = in.size <= 7;
    memset(&s, 0xab, sizeof(s)); /* the function must overwrite everything */
    CHECK(TVMFFIStringFromByteArray(&in, &s) == 0);
    CHECK(s.type_index == (small ? kTVMFFISmallStr : kTVMFFIStr));
    CHECK(text_equals(&s, texts[i], in.size));
    if (small) {
      /* Zero after the content: the value hashes and compares as raw bytes. */
      size_t k;
      int zero = 1;
      for (k = in.size; k < 8; ++k) zero = zero && TVM_FFI_ANY_VALUE(s).v_bytes[k] == 0;
      CHECK(zero);
    } else {
      CHECK(strong_count(TVM_FFI_ANY_VALUE(s).v_obj) == 1);
      CHECK(TVM_FFI_ANY_PADDING(s).zero_padding == 0);
    }
    release(&s);
  }

  /* A RawStr view becomes an owned String; the echo function returns it. */
  {
    TVMFFIObjectHandle echo = make_function(NULL, echo_call, NULL);
    TVMFFIAny arg = raw_str_value("a string of exactly 28 bytes");
    TVMFFIAny result = none_value();
    TVMFFIAny second = none_value();
    CHECK(TVMFFIFunctionCall(echo, &arg, 1, &result) == 0);
    CHECK(result.type_index == kTVMFFIStr);
    CHECK(text_equals(&result, "a string of exactly 28 bytes", 28));
    /* Passing the heap String back: the echo adds one reference. */
    arg = result;
    CHECK(TVMFFIFunctionCall(echo, &arg, 1, &second) == 0);
    CHECK(second.type_index == kTVMFFIStr);
    CHECK(TVM_FFI_ANY_VALUE(second).v_obj == TVM_FFI_ANY_VALUE(result).v_obj);
    CHECK(strong_count(TVM_FFI_ANY_VALUE(result).v_obj) == 2);
    release(&second);
    CHECK(strong_count(TVM_FFI_ANY_VALUE(result).v_obj) == 1);
    release(&result);
    TVMFFIObjectDecRef(echo);
  }
}

static void test_bytes(void) {
  static const char small_bytes[] = {'a', '\0', 'b'};
  static const char big_bytes[] = "0123456789\0abcdefghij";
  TVMFFIByteArray in;
  TVMFFIAny b;
  TVMFFIAny view;
  TVMFFIAny owned;

  in.data = small_bytes;
  in.size = sizeof(small_bytes);
  CHECK(TVMFFIBytesFromByteArray(&in, &b) == 0);
  CHECK(b.type_index == kTVMFFISmallBytes);
  CHECK(text_equals(&b, small_bytes, sizeof(small_bytes)));
  release(&b);

  in.data = big_bytes;
  in.size = sizeof(big_bytes) - 1; /* 21 bytes with a NUL inside */
  CHECK(TVMFFIBytesFromByteArray(&in, &b) == 0);
  CHECK(b.type_index == kTVMFFIBytes);
  CHECK(text_equals(&b, big_bytes, in.size));
  release(&b);

  /* A ByteArrayPtr view becomes owned Bytes. */
  view = none_value();
  view.type_index = kTVMFFIByteArrayPtr;
  TVM_FFI_ANY_VALUE(view).v_ptr = &in;
  owned = none_value();
  CHECK(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(owned.type_index == kTVMFFIBytes);
  CHECK(text_equals(&owned, big_bytes, in.size));
  release(&owned);
}

static void test_dtypes(void) {
  static const struct {
    const char* text;
    int code;
    int bits;
    int lanes;
  } cases[] = {
      {"int32", kDLInt, 32, 1},           {"int8x4", kDLInt, 8, 4},
      {"uint1", kDLUInt, 1, 1},           {"float16", kDLFloat, 16, 1},
      {"float64x2", kDLFloat, 64, 2},     {"bfloat16", kDLBfloat, 16, 1},
      {"bool", kDLBool, 8, 1},            {"handle", kDLOpaqueHandle, 64, 1},
      {"float8_e4m3fn", kDLFloat8_e4m3fn, 8, 1},
      {"float4_e2m1fnx2", kDLFloat4_e2m1fn, 4, 2},
  };
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    TVMFFIByteArray in = bytes_of(cases[i].text);
    DLDataType dtype;
    TVMFFIAny printed = none_value();
    memset(&dtype, 0, sizeof(dtype));
    CHECK(TVMFFIDataTypeFromString(&in, &dtype) == 0);
    CHECK(dtype.code == cases[i].code && dtype.bits == cases[i].bits &&
          dtype.lanes == cases[i].lanes);
    CHECK(TVMFFIDataTypeToString(&dtype, &printed) == 0);
    CHECK(text_equals(&printed, cases[i].text, in.size));
    if (!text_equals(&printed, cases[i].text, in.size)) {
      TVMFFIByteArray t = text_of(&printed);
      printf("     %s printed as %.*s\n", cases[i].text, (int)t.size, t.data ? t.data : "");
    }
    release(&printed);
  }
  /* Short names parse to the same dtype. */
  {
    TVMFFIByteArray in = bytes_of("f32");
    DLDataType dtype;
    CHECK(TVMFFIDataTypeFromString(&in, &dtype) == 0);
    CHECK(dtype.code == kDLFloat && dtype.bits == 32 && dtype.lanes == 1);
  }
  /* Unknown text is a ValueError. */
  {
    TVMFFIByteArray in = bytes_of("notatype");
    DLDataType dtype;
    TVMFFIObjectHandle err = NULL;
    CHECK(TVMFFIDataTypeFromString(&in, &dtype) == -1);
    TVMFFIErrorMoveFromRaised(&err);
    CHECK(err != NULL);
    if (err != NULL) {
      TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
      CHECK(byte_array_equals(cell->kind, "ValueError"));
      /* The message names the bad text. */
      CHECK(byte_array_contains(cell->message, "notatype"));
      TVMFFIObjectDecRef(err);
    }
  }
}

static int opaque_deleted = 0;
static void opaque_delete(void* handle) {
  CHECK(handle == (void*)&opaque_deleted);
  opaque_deleted += 1;
}

static void test_refcounts(void) {
  TVMFFIObjectHandle obj = NULL;
  CHECK(TVMFFIObjectCreateOpaque(&opaque_deleted, kTVMFFIOpaquePyObject, opaque_delete, &obj) ==
        0);
  CHECK(obj != NULL);
  if (obj == NULL) return;
  /* Fresh objects start at strong 1, weak 1. */
  CHECK(((TVMFFIObject*)obj)->combined_ref_count == (((uint64_t)1 << 32) | 1u));
  CHECK(((TVMFFIObject*)obj)->zero_padding == 0);
  CHECK(TVMFFIOpaqueObjectGetCellPtr(obj)->handle == (void*)&opaque_deleted);
  CHECK(TVMFFIObjectIncRef(obj) == 0);
  CHECK(strong_count(obj) == 2 && weak_count(obj) == 1);
  CHECK(TVMFFIObjectDecRef(obj) == 0);
  CHECK(strong_count(obj) == 1 && opaque_deleted == 0);
  CHECK(TVMFFIObjectDecRef(obj) == 0);
  CHECK(opaque_deleted == 1);
  /* Releasing NULL is a no-op. */
  CHECK(TVMFFIObjectDecRef(NULL) == 0);
  CHECK(opaque_deleted == 1);

  /* Only kTVMFFIOpaquePyObject is accepted. */
  obj = NULL;
  CHECK(TVMFFIObjectCreateOpaque(&opaque_deleted, kTVMFFIArray, opaque_delete, &obj) == -1);
  {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    CHECK(err != NULL && byte_array_equals(TVMFFIErrorGetCellPtr(err)->kind, "RuntimeError"));
    TVMFFIObjectDecRef(err);
  }
  CHECK(opaque_deleted == 1);
}

/* Integers of any size: kTVMFFIInt when the value fits int64, else an
 * ffi.BigInt (78) of minimal words at header + 32. */
static TVMFFIAny big_int_of(const int64_t* words, size_t n, int* rc) {
  TVMFFIByteArray bytes;
  TVMFFIAny out;
  bytes.data = (const char*)words;
  bytes.size = n * sizeof(int64_t);
  memset(&out, 0xAB, sizeof(out));
  *rc = TVMFFIBigIntFromByteArray(&bytes, &out);
  return out;
}

static int content_is(const TVMFFIAny* v, const int64_t* words, size_t n) {
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(v);
  return c.size == n * sizeof(int64_t) && memcmp(c.data, words, c.size) == 0;
}

static void test_big_int(void) {
  const int64_t kMin = (int64_t)((uint64_t)1 << 63);
  const int64_t kMax = (int64_t)(((uint64_t)1 << 63) - 1);
  int64_t five_padded[3];
  int64_t two_pow_63[3];
  int64_t below_min[3];
  int64_t two_pow_200[5];
  int64_t expect[4];
  int rc = 0;
  TVMFFIAny v;
  TVMFFIByteArray c;

  /* Fits int64: an int, whatever the redundant words. */
  five_padded[0] = 5;
  five_padded[1] = 0;
  five_padded[2] = 0;
  v = big_int_of(five_padded, 3, &rc);
  CHECK(rc == 0 && v.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(v).v_int64 == 5);
  CHECK(TVM_FFI_ANY_PADDING(v).zero_padding == 0);
  c = TVMFFIBigIntGetContentByteArray(&v);
  CHECK(c.data == (const char*)&TVM_FFI_ANY_VALUE(v).v_int64 && c.size == 8);
  v = big_int_of(NULL, 0, &rc);
  CHECK(rc == 0 && v.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(v).v_int64 == 0);

  /* 2**63: two words, the zero sign word kept, the third dropped. */
  two_pow_63[0] = kMin;
  two_pow_63[1] = 0;
  two_pow_63[2] = 0;
  v = big_int_of(two_pow_63, 3, &rc);
  CHECK(rc == 0 && v.type_index == kTVMFFIBigInt);
  if (rc == 0 && v.type_index == kTVMFFIBigInt) {
    TVMFFIObject* obj = TVM_FFI_ANY_VALUE(v).v_obj;
    CHECK(obj->type_index == kTVMFFIBigInt);
    CHECK(*(const size_t*)((const char*)obj + 24) == 2);
    CHECK(TVMFFIBigIntGetContentByteArray(&v).data == (const char*)obj + 32);
    CHECK(content_is(&v, two_pow_63, 2));
    CHECK(strong_count(obj) == 1);
    TVMFFIObjectDecRef(obj);
  }

  /* -2**63 - 1 = {INT64_MAX, -1}. */
  below_min[0] = kMax;
  below_min[1] = -1;
  below_min[2] = -1;
  v = big_int_of(below_min, 3, &rc);
  CHECK(rc == 0 && v.type_index == kTVMFFIBigInt && content_is(&v, below_min, 2));
  if (v.type_index == kTVMFFIBigInt) TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(v).v_obj);

  /* 2**200 and -2**200 keep four words. */
  memset(two_pow_200, 0, sizeof(two_pow_200));
  two_pow_200[3] = 256;
  v = big_int_of(two_pow_200, 5, &rc);
  CHECK(rc == 0 && v.type_index == kTVMFFIBigInt && content_is(&v, two_pow_200, 4));
  if (v.type_index == kTVMFFIBigInt) TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(v).v_obj);
  two_pow_200[3] = -256;
  two_pow_200[4] = -1;
  v = big_int_of(two_pow_200, 5, &rc);
  memcpy(expect, two_pow_200, sizeof(expect));
  CHECK(rc == 0 && v.type_index == kTVMFFIBigInt && content_is(&v, expect, 4));
  if (v.type_index == kTVMFFIBigInt) TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(v).v_obj);

  /* Not whole words. */
  {
    TVMFFIByteArray bytes;
    bytes.data = "abc";
    bytes.size = 3;
    v = none_value();
    CHECK(TVMFFIBigIntFromByteArray(&bytes, &v) == -1);
    CHECK(expect_error_upstream_kind("ValueError",
                                     "BigInt content must contain whole 64-bit words, got 3 bytes"));
  }
  if (on_upstream()) {
    skip_on_upstream("TVMFFIBigIntGetContentByteArray of a float is empty",
                     "upstream reads any non-int value as a BigInt object");
  } else {
    v = none_value();
    v.type_index = kTVMFFIFloat;
    c = TVMFFIBigIntGetContentByteArray(&v);
    CHECK(c.data == NULL && c.size == 0);
  }
}

int main(void) {
  test_version();
  test_function_registry();
  test_self_handle();
  test_errors();
  test_strings();
  test_bytes();
  test_dtypes();
  test_refcounts();
  test_big_int();
  return check_summary(NULL);
}

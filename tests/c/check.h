/* The harness shared by the C tests (tests/c/test_roundtrip.c, test_tensor.c,
 * tests/compat/driver.c) and the kernel example's driver
 * (examples/kernels/run_kernels.c).
 *
 *   CHECK(cond)                  counts a pass, or a failure with "FAIL file:line: cond"
 *   check_summary(label)         prints "[label: ]N passed, M failed" (the last line
 *                                of every test); returns the exit status, 0 or 1
 *   expect_error(kind, message)  takes the raised error: 1 when it is an Error with
 *                                exactly this kind and message, else prints what came
 *   values                       none_value, int_value, raw_str_value, object_value,
 *                                release (drops an owned value's reference)
 *   text                         bytes_of, byte_array_equals, text_of, text_equals,
 *                                text_is, and call_global (calls a global by name)
 *   upstream                     on_upstream() is 1 when run_on_upstream.sh runs the
 *                                program on upstream's libtvm_ffi; skip_on_upstream(what,
 *                                why) prints "SKIP what: why" (counted in the summary);
 *                                expect_error_upstream_kind(kind, message) is
 *                                expect_error, but on upstream only the kind must match
 *                                (messages are a documented difference, docs/abi.md)
 *
 * C89 and header-only: everything is static, and marked unused so that a file
 * using part of it still builds with -Wall -Werror.  All output goes to stdout
 * (flushed on failure), so the failures stay in order with the closing line. */
#ifndef TVM_FFI_TESTS_C_CHECK_H_
#define TVM_FFI_TESTS_C_CHECK_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#if defined(__GNUC__)
#define CHECK_UNUSED __attribute__((unused))
#else
#define CHECK_UNUSED
#endif

/* ---- counting ------------------------------------------------------------ */

static int check_passed = 0;
static int check_failed = 0;
static int check_skipped = 0;

static CHECK_UNUSED void check_record(int ok, const char* file, int line, const char* expr) {
  if (ok) {
    ++check_passed;
  } else {
    ++check_failed;
    printf("FAIL %s:%d: %s\n", file, line, expr);
    fflush(stdout);
  }
}

#define CHECK(cond) check_record((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* Prints the closing line; label may be NULL. */
static CHECK_UNUSED int check_summary(const char* label) {
  if (label != NULL) printf("%s: ", label);
  if (check_skipped != 0) {
    printf("%d passed, %d failed, %d skipped on upstream's library\n", check_passed,
           check_failed, check_skipped);
  } else {
    printf("%d passed, %d failed\n", check_passed, check_failed);
  }
  return check_failed == 0 ? 0 : 1;
}

/* ---- values -------------------------------------------------------------- */

static CHECK_UNUSED TVMFFIByteArray bytes_of(const char* s) {
  TVMFFIByteArray b;
  b.data = s;
  b.size = strlen(s);
  return b;
}

static CHECK_UNUSED TVMFFIAny none_value(void) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFINone;
  return v;
}

static CHECK_UNUSED TVMFFIAny int_value(int64_t x) {
  TVMFFIAny v = none_value();
  v.type_index = kTVMFFIInt;
  TVM_FFI_ANY_VALUE(v).v_int64 = x;
  return v;
}

static CHECK_UNUSED TVMFFIAny raw_str_value(const char* s) {
  TVMFFIAny v = none_value();
  v.type_index = kTVMFFIRawStr;
  TVM_FFI_ANY_VALUE(v).v_c_str = s;
  return v;
}

/* A view of the object (no reference taken). */
static CHECK_UNUSED TVMFFIAny object_value(TVMFFIObjectHandle h) {
  TVMFFIAny v = none_value();
  v.type_index = TVMFFIObjectGetTypeIndex(h);
  TVM_FFI_ANY_VALUE(v).v_obj = (TVMFFIObject*)h;
  return v;
}

/* Drops the reference an owned value holds and leaves None behind. */
static CHECK_UNUSED void release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(*v).v_obj);
  *v = none_value();
}

/* ---- text ---------------------------------------------------------------- */

static CHECK_UNUSED int byte_array_equals(TVMFFIByteArray b, const char* expected) {
  return b.size == strlen(expected) && memcmp(b.data, expected, b.size) == 0;
}

/* The text of a String or Bytes value, small or heap; {NULL, 0} otherwise. */
static CHECK_UNUSED TVMFFIByteArray text_of(const TVMFFIAny* v) {
  TVMFFIByteArray out;
  if (v->type_index == kTVMFFISmallStr || v->type_index == kTVMFFISmallBytes) {
    out.data = TVM_FFI_ANY_VALUE(*v).v_bytes;
    out.size = TVM_FFI_ANY_PADDING(*v).small_str_len;
  } else if (v->type_index == kTVMFFIStr || v->type_index == kTVMFFIBytes) {
    out = *TVMFFIBytesGetByteArrayPtr(TVM_FFI_ANY_VALUE(*v).v_obj);
  } else {
    out.data = NULL;
    out.size = 0;
  }
  return out;
}

/* 1 when v is a String or Bytes holding exactly `size` bytes of `expected`. */
static CHECK_UNUSED int text_equals(const TVMFFIAny* v, const char* expected, size_t size) {
  TVMFFIByteArray t = text_of(v);
  return t.data != NULL && t.size == size && memcmp(t.data, expected, size) == 0;
}

/* 1 when v is a String (small or heap) holding exactly `expected`. */
static CHECK_UNUSED int text_is(const TVMFFIAny* v, const char* expected) {
  return (v->type_index == kTVMFFISmallStr || v->type_index == kTVMFFIStr) &&
         text_equals(v, expected, strlen(expected));
}

/* ---- errors and calls ---------------------------------------------------- */

/* Takes the raised error; 1 when it is an Error with exactly this kind and
 * message.  Otherwise prints what was expected and what came. */
static CHECK_UNUSED int expect_error(const char* kind, const char* message) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell* cell;
  int ok;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    printf("     expected %s: %s, but no error was raised\n", kind, message);
    fflush(stdout);
    return 0;
  }
  if (TVMFFIObjectGetTypeIndex(err) != kTVMFFIError) {
    printf("     expected %s: %s\n     got a value of type index %d\n", kind, message,
           (int)TVMFFIObjectGetTypeIndex(err));
    fflush(stdout);
    TVMFFIObjectDecRef(err);
    return 0;
  }
  cell = TVMFFIErrorGetCellPtr(err);
  ok = byte_array_equals(cell->kind, kind) && byte_array_equals(cell->message, message);
  if (!ok) {
    printf("     expected %s: %s\n     got %.*s: %.*s\n", kind, message, (int)cell->kind.size,
           cell->kind.data, (int)cell->message.size, cell->message.data);
    fflush(stdout);
  }
  TVMFFIObjectDecRef(err);
  return ok;
}

/* ---- running on upstream's library ---------------------------------------- */

/* 1 when tests/c/run_on_upstream.sh runs this program with upstream's
 * libtvm_ffi.so in place of ours (it sets TVM_FFI_TEST_ON_UPSTREAM=1). */
static CHECK_UNUSED int on_upstream(void) {
  const char* v = getenv("TVM_FFI_TEST_ON_UPSTREAM");
  return v != NULL && strcmp(v, "1") == 0;
}

/* Counts and prints one check skipped on upstream's library, with the reason
 * (each reason is a difference listed in docs/abi.md). */
static CHECK_UNUSED void skip_on_upstream(const char* what, const char* why) {
  ++check_skipped;
  printf("SKIP %s: %s\n", what, why);
}

/* expect_error; on upstream's library only the kind is compared, because the
 * message texts differ (docs/abi.md, "Error messages"). */
static CHECK_UNUSED int expect_error_upstream_kind(const char* kind, const char* message) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell* cell;
  int ok;
  if (!on_upstream()) return expect_error(kind, message);
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    printf("     expected %s, but no error was raised\n", kind);
    fflush(stdout);
    return 0;
  }
  cell = TVMFFIErrorGetCellPtr(err);
  ok = byte_array_equals(cell->kind, kind);
  if (!ok) {
    printf("     expected kind %s\n     got %.*s: %.*s\n", kind, (int)cell->kind.size,
           cell->kind.data, (int)cell->message.size, cell->message.data);
    fflush(stdout);
  }
  TVMFFIObjectDecRef(err);
  return ok;
}

/* Calls the global `name` with n arguments into *result (set to None first);
 * returns the call's rc, or -100 when no such global is registered. */
static CHECK_UNUSED int call_global(const char* name, TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  TVMFFIByteArray b = bytes_of(name);
  TVMFFIObjectHandle f = NULL;
  int rc;
  *result = none_value();
  if (TVMFFIFunctionGetGlobal(&b, &f) != 0 || f == NULL) {
    printf("     global %s is not registered\n", name);
    fflush(stdout);
    return -100;
  }
  rc = TVMFFIFunctionCall(f, args, n, result);
  TVMFFIObjectDecRef(f);
  return rc;
}

#endif /* TVM_FFI_TESTS_C_CHECK_H_ */

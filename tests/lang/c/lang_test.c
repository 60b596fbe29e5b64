/* Calling tvm-ffi from C through dlopen/dlsym only.
 *
 * The program has no link-time dependency on libtvm_ffi: it opens the library
 * named by $TVM_FFI_LIB (and the library of testing.* functions named by
 * $TVM_FFI_TESTING_LIB), takes every function with dlsym, and uses the header
 * only for the struct layouts.  Build and run:
 *
 *   cc -I include tests/lang/c/lang_test.c -ldl -o lang_test
 *   TVM_FFI_LIB=build/libtvm_ffi.so TVM_FFI_TESTING_LIB=build/libtvm_ffi_testing.so ./lang_test
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h> /* types only: every function comes from dlsym */

/* ---- the few C ABI functions this program uses ---------------------------- */

static struct {
  void (*GetVersion)(TVMFFIVersion*);
  int (*ObjectIncRef)(TVMFFIObjectHandle);
  int (*ObjectDecRef)(TVMFFIObjectHandle);
  int (*FunctionGetGlobal)(const TVMFFIByteArray*, TVMFFIObjectHandle*);
  int (*FunctionCreate)(void*, TVMFFISafeCallType, void (*)(void*), TVMFFIObjectHandle*);
  int (*FunctionCall)(TVMFFIObjectHandle, TVMFFIAny*, int32_t, TVMFFIAny*);
  void (*ErrorMoveFromRaised)(TVMFFIObjectHandle*);
  void (*ErrorSetRaisedFromCStr)(const char*, const char*);
} ffi;

static void* must_dlsym(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (p == NULL) {
    fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
    exit(2);
  }
  return p;
}

static void* must_dlopen(const char* env_name) {
  const char* path = getenv(env_name);
  void* lib;
  if (path == NULL) {
    fprintf(stderr, "set %s to the library's path\n", env_name);
    exit(2);
  }
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
    exit(2);
  }
  return lib;
}

static void load(void* lib) {
  /* POSIX lets a void* from dlsym be converted to a function pointer this way. */
  *(void**)&ffi.GetVersion = must_dlsym(lib, "TVMFFIGetVersion");
  *(void**)&ffi.ObjectIncRef = must_dlsym(lib, "TVMFFIObjectIncRef");
  *(void**)&ffi.ObjectDecRef = must_dlsym(lib, "TVMFFIObjectDecRef");
  *(void**)&ffi.FunctionGetGlobal = must_dlsym(lib, "TVMFFIFunctionGetGlobal");
  *(void**)&ffi.FunctionCreate = must_dlsym(lib, "TVMFFIFunctionCreate");
  *(void**)&ffi.FunctionCall = must_dlsym(lib, "TVMFFIFunctionCall");
  *(void**)&ffi.ErrorMoveFromRaised = must_dlsym(lib, "TVMFFIErrorMoveFromRaised");
  *(void**)&ffi.ErrorSetRaisedFromCStr = must_dlsym(lib, "TVMFFIErrorSetRaisedFromCStr");
}

/* ---- small helpers ------------------------------------------------------- */

static int passed = 0, failed = 0;
#define CHECK(cond)                                                    \
  do {                                                                 \
    if (cond) {                                                        \
      ++passed;                                                        \
    } else {                                                           \
      ++failed;                                                        \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
    }                                                                  \
  } while (0)

static TVMFFIAny int_arg(int64_t v) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}
static TVMFFIAny float_arg(double v) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = kTVMFFIFloat;
  a.v_float64 = v;
  return a;
}
static TVMFFIAny str_arg(const char* s) { /* a view: the callee copies if it keeps it */
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = kTVMFFIRawStr;
  a.v_c_str = s;
  return a;
}
static TVMFFIAny obj_arg(TVMFFIObjectHandle h) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = ((TVMFFIObject*)h)->type_index;
  a.v_obj = (TVMFFIObject*)h;
  return a;
}

/* Releases an owned value: only objects (type_index >= 64) hold a reference. */
static void release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) ffi.ObjectDecRef(v->v_obj);
  memset(v, 0, sizeof(*v));
}

static TVMFFIObjectHandle get_global(const char* name) {
  TVMFFIByteArray n;
  TVMFFIObjectHandle f = NULL;
  n.data = name;
  n.size = strlen(name);
  if (ffi.FunctionGetGlobal(&n, &f) != 0) return NULL;
  return f;
}

/* Calls a global by name; *out is an owned value (start it as None). */
static int call(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIObjectHandle f = get_global(name);
  int rc;
  memset(out, 0, sizeof(*out));
  if (f == NULL) {
    printf("no global function %s\n", name);
    return -1;
  }
  rc = ffi.FunctionCall(f, args, n, out);
  ffi.ObjectDecRef(f);
  return rc;
}

/* The strong count is the low 32 bits of the header's first word. */
static uint32_t strong_count(TVMFFIObjectHandle h) {
  return (uint32_t)(((TVMFFIObject*)h)->combined_ref_count & 0xffffffffu);
}

/* A string result is either inline (SmallStr, up to 7 bytes) or a Str object. */
static int text_is(const TVMFFIAny* v, const char* expected) {
  const char* data;
  size_t size;
  if (v->type_index == kTVMFFISmallStr) {
    data = v->v_bytes;
    size = v->small_str_len;
  } else if (v->type_index == kTVMFFIStr) {
    TVMFFIByteArray* bytes = TVMFFIBytesGetByteArrayPtr(v->v_obj);
    data = bytes->data;
    size = bytes->size;
  } else {
    return 0;
  }
  return size == strlen(expected) && memcmp(data, expected, size) == 0;
}

/* Takes the raised error and compares its kind and message. */
static int raised_error_is(const char* kind, const char* message) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell* cell;
  int ok;
  ffi.ErrorMoveFromRaised(&err);
  if (err == NULL) return 0;
  cell = TVMFFIErrorGetCellPtr(err);
  ok = cell->kind.size == strlen(kind) && memcmp(cell->kind.data, kind, cell->kind.size) == 0 &&
       cell->message.size == strlen(message) &&
       memcmp(cell->message.data, message, cell->message.size) == 0;
  if (!ok) {
    printf("error was %.*s: %.*s\n", (int)cell->kind.size, cell->kind.data,
           (int)cell->message.size, cell->message.data);
  }
  ffi.ObjectDecRef(err);
  return ok;
}

/* ---- a callback written in C --------------------------------------------- */

typedef struct {
  int calls;
  int deleted;
} AdderState;

/* Adds two ints; anything else is a TypeError raised back to the caller. */
static int adder(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  AdderState* state = (AdderState*)self;
  state->calls++;
  if (n != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    ffi.ErrorSetRaisedFromCStr("TypeError", "adder: expected two ints");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}

static void adder_deleter(void* self) { ((AdderState*)self)->deleted++; }

/* ---- the checks ---------------------------------------------------------- */

int main(void) {
  void* lib = must_dlopen("TVM_FFI_LIB");
  void* testing_lib;
  TVMFFIVersion version;
  TVMFFIAny args[3], out;

  load(lib);
  /* Registers the testing.* globals; it finds the already loaded libtvm_ffi. */
  testing_lib = must_dlopen("TVM_FFI_TESTING_LIB");

  ffi.GetVersion(&version);
  printf("libtvm_ffi %u.%u.%u\n", version.major, version.minor, version.patch);
  CHECK(version.major == 0 && version.minor >= 1);

  /* int, float and string arguments */
  args[0] = int_arg(41);
  CHECK(call("testing.add_one", args, 1, &out) == 0);
  CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 42);

  args[0] = float_arg(2.5);
  CHECK(call("testing.echo", args, 1, &out) == 0);
  CHECK(out.type_index == kTVMFFIFloat && out.v_float64 == 2.5);

  args[0] = str_arg("hi");
  CHECK(call("testing.echo", args, 1, &out) == 0);
  CHECK(out.type_index == kTVMFFISmallStr && text_is(&out, "hi"));
  release(&out);

  args[0] = str_arg("hello from C, longer than seven bytes");
  CHECK(call("testing.echo", args, 1, &out) == 0);
  CHECK(out.type_index == kTVMFFIStr && text_is(&out, "hello from C, longer than seven bytes"));
  CHECK(strong_count(out.v_obj) == 1);
  release(&out);

  CHECK(get_global("testing.no_such_function") == NULL);

  /* an Array built by ffi.Array and read with ffi.ArraySize / ffi.ArrayGetItem */
  {
    TVMFFIAny arr, item;
    args[0] = int_arg(10);
    args[1] = int_arg(20);
    args[2] = int_arg(30);
    CHECK(call("ffi.Array", args, 3, &arr) == 0);
    CHECK(arr.type_index == kTVMFFIArray && strong_count(arr.v_obj) == 1);

    args[0] = arr;
    CHECK(call("ffi.ArraySize", args, 1, &out) == 0);
    CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 3);
    args[1] = int_arg(1);
    CHECK(call("ffi.ArrayGetItem", args, 2, &item) == 0);
    CHECK(item.type_index == kTVMFFIInt && item.v_int64 == 20);
    CHECK(call("testing.array_sum_int", args, 1, &out) == 0);
    CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 60);
    CHECK(call("testing.object_use_count", args, 1, &out) == 0);
    CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 1);

    args[1] = int_arg(7);
    CHECK(call("ffi.ArrayGetItem", args, 2, &item) != 0);
    CHECK(raised_error_is("IndexError", "index 7 out of range for Array of size 3"));

    CHECK(strong_count(arr.v_obj) == 1); /* every call above only borrowed it */
    release(&arr);
  }

  /* a C callback the library calls back, and its error */
  {
    AdderState state = {0, 0};
    TVMFFIObjectHandle fn = NULL;
    CHECK(ffi.FunctionCreate(&state, adder, adder_deleter, &fn) == 0);
    args[0] = obj_arg(fn);
    args[1] = int_arg(20);
    args[2] = int_arg(22);
    CHECK(call("testing.apply", args, 3, &out) == 0);
    CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 42 && state.calls == 1);

    args[2] = str_arg("22");
    CHECK(call("testing.apply", args, 3, &out) == -1);
    CHECK(raised_error_is("TypeError", "adder: expected two ints"));

    CHECK(strong_count(fn) == 1 && state.deleted == 0);
    ffi.ObjectDecRef(fn);
    CHECK(state.deleted == 1);
  }

  /* an error raised by the library: kind and message, then an empty slot */
  {
    TVMFFIObjectHandle none = NULL;
    args[0] = str_arg("ValueError");
    args[1] = str_arg("the value 7 is not allowed");
    CHECK(call("testing.raise_error", args, 2, &out) == -1);
    CHECK(raised_error_is("ValueError", "the value 7 is not allowed"));
    ffi.ErrorMoveFromRaised(&none);
    CHECK(none == NULL);
  }

  /* The libraries stay loaded: functions registered from them may still be
   * referenced by the runtime's global registry (see docs/embedding.md). */
  (void)testing_lib;
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

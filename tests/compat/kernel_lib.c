/* A "kernel library" as a third party would write it against UPSTREAM
 * apache-tvm-ffi: compiled only with upstream's tvm/ffi/c_api.h (fetched by
 * .ci/fetch-upstream.sh), using its field names and the safe-call
 * convention.  driver.c loads it into a process running OUR libtvm_ffi.
 *
 * It publishes functions two ways: exported `__tvm_ffi_<name>` symbols, and
 * global functions registered from a constructor (and from an explicit init
 * function, for loaders that prefer one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

/* Status of the constructor's registrations, read by the driver. */
TVM_FFI_DLL_EXPORT int compat_kernel_ctor_status = -100;
/* How many counter closures this library has freed. */
TVM_FFI_DLL_EXPORT int compat_kernel_freed = 0;

static void set_int(TVMFFIAny* out, int64_t value) {
  memset(out, 0, sizeof(*out));
  out->type_index = kTVMFFIInt;
  out->v_int64 = value;
}

/* The bytes of a string argument in any of its three forms. */
static int get_str(const TVMFFIAny* arg, const char** data, size_t* size) {
  if (arg->type_index == kTVMFFIRawStr) {
    *data = arg->v_c_str;
    *size = strlen(arg->v_c_str);
  } else if (arg->type_index == kTVMFFISmallStr) {
    *data = arg->v_bytes;
    *size = arg->small_str_len;
  } else if (arg->type_index == kTVMFFIStr) {
    /* The String cell (a TVMFFIByteArray) follows the 24-byte header. */
    const TVMFFIByteArray* cell =
        (const TVMFFIByteArray*)((const char*)arg->v_obj + sizeof(TVMFFIObject));
    *data = cell->data;
    *size = cell->size;
  } else {
    return -1;
  }
  return 0;
}

/* add_int(a: int, b: int) -> int */
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_int(void* handle, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  (void)handle;
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add_int expects (int, int)");
    return -1;
  }
  set_int(result, args[0].v_int64 + args[1].v_int64);
  return 0;
}

/* greet(name: str) -> str, "hello, <name>!" */
TVM_FFI_DLL_EXPORT int __tvm_ffi_greet(void* handle, const TVMFFIAny* args, int32_t num_args,
                                       TVMFFIAny* result) {
  const char* name;
  size_t size;
  char buf[256];
  TVMFFIByteArray out;
  (void)handle;
  if (num_args != 1 || get_str(&args[0], &name, &size) != 0 || size > 200) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "greet expects one short str");
    return -1;
  }
  memcpy(buf, "hello, ", 7);
  memcpy(buf + 7, name, size);
  buf[7 + size] = '!';
  out.data = buf;
  out.size = 8 + size;
  return TVMFFIStringFromByteArray(&out, result);
}

/* check_positive(x: int) -> int; raises ValueError "x must be positive, got <x>". */
static int check_positive(void* handle, const TVMFFIAny* args, int32_t num_args,
                          TVMFFIAny* result) {
  char msg[64];
  (void)handle;
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "check_positive expects one int");
    return -1;
  }
  if (args[0].v_int64 <= 0) {
    snprintf(msg, sizeof(msg), "x must be positive, got %lld", (long long)args[0].v_int64);
    TVMFFIErrorSetRaisedFromCStr("ValueError", msg);
    return -1;
  }
  set_int(result, args[0].v_int64);
  return 0;
}

/* apply_twice(f: Function, x) -> f(f(x)); errors from f propagate unchanged. */
static int apply_twice(void* handle, const TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  TVMFFIAny once;
  TVMFFIAny arg;
  int rc;
  (void)handle;
  if (num_args != 2 || args[0].type_index != kTVMFFIFunction) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "apply_twice expects (Function, value)");
    return -1;
  }
  memset(&once, 0, sizeof(once));
  arg = args[1];
  rc = TVMFFIFunctionCall(args[0].v_obj, &arg, 1, &once);
  if (rc != 0) return rc;
  rc = TVMFFIFunctionCall(args[0].v_obj, &once, 1, result);
  if (once.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(once.v_obj);
  return rc;
}

/* make_counter() -> Function; each call returns 1, 2, 3, ...  The closure
 * state lives in this library and is freed by it. */
typedef struct {
  int64_t count;
} Counter;

static int counter_call(void* self, const TVMFFIAny* args, int32_t num_args,
                        TVMFFIAny* result) {
  (void)args;
  (void)num_args;
  set_int(result, ++((Counter*)self)->count);
  return 0;
}

static void counter_free(void* self) {
  free(self);
  ++compat_kernel_freed;
}

static int make_counter(void* handle, const TVMFFIAny* args, int32_t num_args,
                        TVMFFIAny* result) {
  Counter* state = (Counter*)calloc(1, sizeof(Counter));
  TVMFFIObjectHandle f = NULL;
  (void)handle;
  (void)args;
  (void)num_args;
  if (state == NULL) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "make_counter: out of memory");
    return -1;
  }
  if (TVMFFIFunctionCreate(state, counter_call, counter_free, &f) != 0) {
    free(state);
    return -1;
  }
  memset(result, 0, sizeof(*result));
  result->type_index = kTVMFFIFunction;
  result->v_obj = (TVMFFIObject*)f;
  return 0;
}

/* make_blob() -> ffi.Object; an object laid out, counted and freed by this
 * library alone (upstream's header layout and deleter protocol), which the
 * host releases through its own TVMFFIObjectDecRef. */
TVM_FFI_DLL_EXPORT int compat_kernel_blob_destroyed = 0;
TVM_FFI_DLL_EXPORT int compat_kernel_blob_freed = 0;

typedef struct {
  TVMFFIObject header;
  int64_t payload;
} Blob;

static void blob_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) ++compat_kernel_blob_destroyed;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    free(self);
    ++compat_kernel_blob_freed;
  }
}

static int make_blob(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  Blob* blob = (Blob*)calloc(1, sizeof(Blob));
  (void)handle;
  (void)args;
  (void)num_args;
  if (blob == NULL) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "make_blob: out of memory");
    return -1;
  }
  blob->header.combined_ref_count = ((uint64_t)1 << 32) | 1u; /* strong 1, weak 1 */
  blob->header.type_index = kTVMFFIObject;
  blob->header.deleter = blob_deleter;
  blob->payload = 1234;
  memset(result, 0, sizeof(*result));
  result->type_index = kTVMFFIObject;
  result->v_obj = &blob->header;
  return 0;
}

/* version() -> int, the runtime's version as major*10000 + minor*100 + patch. */
static int version(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  TVMFFIVersion v;
  (void)handle;
  (void)args;
  (void)num_args;
  TVMFFIGetVersion(&v);
  set_int(result, (int64_t)v.major * 10000 + v.minor * 100 + v.patch);
  return 0;
}

static int register_global(const char* name, TVMFFISafeCallType call) {
  TVMFFIByteArray n;
  TVMFFIObjectHandle f = NULL;
  int rc;
  n.data = name;
  n.size = strlen(name);
  if (TVMFFIFunctionCreate(NULL, call, NULL, &f) != 0) return -1;
  rc = TVMFFIFunctionSetGlobal(&n, f, 0);
  TVMFFIObjectDecRef(f); /* the registry holds its own reference */
  return rc;
}

__attribute__((constructor)) static void compat_kernel_register(void) {
  compat_kernel_ctor_status = register_global("compat.add_int", __tvm_ffi_add_int) |
                              register_global("compat.greet", __tvm_ffi_greet) |
                              register_global("compat.check_positive", check_positive) |
                              register_global("compat.apply_twice", apply_twice) |
                              register_global("compat.make_counter", make_counter) |
                              register_global("compat.make_blob", make_blob);
}

/* Explicit initialisation, for hosts that call one: registers compat.version. */
TVM_FFI_DLL_EXPORT int compat_kernel_init(void) {
  return register_global("compat.version", version);
}

/* Loads kernel_lib.so -- a library compiled against UPSTREAM apache-tvm-ffi's
 * c_api.h -- into a process linked against OUR libtvm_ffi, and uses it only
 * through the ABI: its exported __tvm_ffi_<name> symbols and the global
 * functions it registered.  Passing means a kernel library built against
 * their C header loads and runs on this implementation.
 *
 *   usage: compat_driver <path to kernel_lib.so> */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#include "../c/check.h"

/* triple(x: int) -> 3x, a function of ours handed to the kernel. */
static int triple(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "triple expects one int");
    return -1;
  }
  *result = int_value(3 * TVM_FFI_ANY_VALUE(args[0]).v_int64);
  return 0;
}

int main(int argc, char** argv) {
  void* lib;
  int* ctor_status;
  int* freed;
  int* blob_destroyed;
  int* blob_freed;
  int (*init)(void);
  TVMFFISafeCallType add_symbol;
  TVMFFIAny args[2];
  TVMFFIAny result;

  if (argc != 2) {
    printf("usage: %s <kernel library>\n", argv[0]);
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    printf("FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  ctor_status = (int*)dlsym(lib, "compat_kernel_ctor_status");
  freed = (int*)dlsym(lib, "compat_kernel_freed");
  blob_destroyed = (int*)dlsym(lib, "compat_kernel_blob_destroyed");
  blob_freed = (int*)dlsym(lib, "compat_kernel_blob_freed");
  CHECK(blob_destroyed != NULL && blob_freed != NULL);
  *(void**)(&init) = dlsym(lib, "compat_kernel_init");
  *(void**)(&add_symbol) = dlsym(lib, "__tvm_ffi_add_int");
  CHECK(ctor_status != NULL && freed != NULL && init != NULL && add_symbol != NULL);
  if (ctor_status == NULL || freed == NULL || init == NULL || add_symbol == NULL) return 1;

  /* The constructor registered its globals in our registry. */
  CHECK(*ctor_status == 0);
  CHECK(init() == 0);

  /* Plain values both ways. */
  args[0] = int_value(40);
  args[1] = int_value(2);
  CHECK(call_global("compat.add_int", args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 42);

  /* An exported symbol wrapped in one of our Function objects. */
  {
    TVMFFIObjectHandle f = NULL;
    CHECK(TVMFFIFunctionCreate(NULL, add_symbol, NULL, &f) == 0);
    args[0] = int_value(-5);
    args[1] = int_value(8);
    result = none_value();
    CHECK(TVMFFIFunctionCall(f, args, 2, &result) == 0);
    CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 3);
    TVMFFIObjectDecRef(f);
  }

  /* Errors raised by the kernel arrive in our error slot. */
  args[1] = raw_str_value("two");
  CHECK(call_global("compat.add_int", args, 2, &result) == -1);
  CHECK(expect_error("TypeError", "add_int expects (int, int)"));
  args[0] = int_value(-3);
  CHECK(call_global("compat.check_positive", args, 1, &result) == -1);
  CHECK(expect_error("ValueError", "x must be positive, got -3"));

  /* Strings in all three forms in, a String of ours out. */
  args[0] = raw_str_value("world");
  CHECK(call_global("compat.greet", args, 1, &result) == 0);
  CHECK(text_is(&result, "hello, world!"));
  release(&result);
  {
    TVMFFIByteArray in;
    TVMFFIAny s;
    in.data = "abc";
    in.size = 3;
    CHECK(TVMFFIStringFromByteArray(&in, &s) == 0 && s.type_index == kTVMFFISmallStr);
    args[0] = s;
    CHECK(call_global("compat.greet", args, 1, &result) == 0);
    CHECK(text_is(&result, "hello, abc!"));
    release(&result);
    in.data = "a name longer than seven bytes";
    in.size = strlen(in.data);
    CHECK(TVMFFIStringFromByteArray(&in, &s) == 0 && s.type_index == kTVMFFIStr);
    args[0] = s;
    CHECK(call_global("compat.greet", args, 1, &result) == 0);
    CHECK(text_is(&result, "hello, a name longer than seven bytes!"));
    release(&result);
    release(&s);
  }

  /* The kernel calls back into a function of ours. */
  {
    TVMFFIObjectHandle f = NULL;
    CHECK(TVMFFIFunctionCreate(NULL, triple, NULL, &f) == 0);
    args[0] = object_value(f);
    args[1] = int_value(5);
    CHECK(call_global("compat.apply_twice", args, 2, &result) == 0);
    CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 45);
    /* ... and our error travels back through it unchanged. */
    args[1] = raw_str_value("five");
    CHECK(call_global("compat.apply_twice", args, 2, &result) == -1);
    CHECK(expect_error("TypeError", "triple expects one int"));
    TVMFFIObjectDecRef(f);
  }

  /* A closure made by the kernel: called here, freed by the kernel once. */
  CHECK(call_global("compat.make_counter", NULL, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFIFunction);
  if (result.type_index == kTVMFFIFunction) {
    TVMFFIObjectHandle counter = TVM_FFI_ANY_VALUE(result).v_obj;
    TVMFFIAny r = none_value();
    int i;
    for (i = 1; i <= 3; ++i) {
      CHECK(TVMFFIFunctionCall(counter, NULL, 0, &r) == 0 && TVM_FFI_ANY_VALUE(r).v_int64 == i);
    }
    CHECK(*freed == 0);
    TVMFFIObjectDecRef(counter);
    CHECK(*freed == 1);
  }

  /* An object the kernel laid out itself: our refcounting drives its deleter. */
  CHECK(call_global("compat.make_blob", NULL, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFIObject);
  if (result.type_index == kTVMFFIObject && blob_destroyed != NULL && blob_freed != NULL) {
    TVMFFIObjectHandle blob = TVM_FFI_ANY_VALUE(result).v_obj;
    CHECK(*(const int64_t*)((const char*)blob + sizeof(TVMFFIObject)) == 1234);
    CHECK(TVMFFIObjectIncRef(blob) == 0);
    CHECK((((TVMFFIObject*)blob)->combined_ref_count & 0xffffffffu) == 2);
    CHECK(TVMFFIObjectDecRef(blob) == 0);
    CHECK(*blob_destroyed == 0 && *blob_freed == 0);
    CHECK(TVMFFIObjectDecRef(blob) == 0);
    CHECK(*blob_destroyed == 1 && *blob_freed == 1);
  }

  /* The kernel sees our version. */
  CHECK(call_global("compat.version", NULL, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt &&
        TVM_FFI_ANY_VALUE(result).v_int64 == TVM_FFI_VERSION_MAJOR * 10000 +
                                                 TVM_FFI_VERSION_MINOR * 100 +
                                                 TVM_FFI_VERSION_PATCH);

  /* The library stays loaded: the registry still holds its functions. */
  return check_summary(NULL);
}

/* deep_kernel.c: a C kernel for the traceback tests, built with -g at test
 * time.  kernel_entry -> kernel_level_one -> kernel_level_two ->
 * kernel_level_three, which raises (or calls back into the caller's function
 * argument, crashes, or raises from an inlined function). */
#include <stddef.h>
#include <tvm/ffi/c_api.h>

#define NOINLINE __attribute__((noinline))

/* Always inlined into kernel_level_three: still a frame of its own in the
 * backtrace, from the DWARF inline records. */
static inline __attribute__((always_inline)) int kernel_inlined_raise(void) {
  TVMFFIErrorSetRaisedFromCStr("IndexError", "raised in an inlined function");
  return -1;
}

NOINLINE static int kernel_level_three(const TVMFFIAny *args, int32_t n, TVMFFIAny *result) {
  if (n >= 1 && args[0].type_index == kTVMFFIFunction) {
    /* Call the function argument with no arguments; its error propagates. */
    return TVMFFIFunctionCall((TVMFFIObjectHandle)args[0].v_obj, NULL, 0, result);
  }
  if (n >= 1 && args[0].type_index == kTVMFFIInt && args[0].v_int64 == 11) {
    volatile int *p = NULL;
    return *p; /* SIGSEGV, for the crash handler test */
  }
  if (n >= 1 && args[0].type_index == kTVMFFIInt && args[0].v_int64 == 22) {
    return kernel_inlined_raise();
  }
  TVMFFIErrorSetRaisedFromCStr("ValueError", "raised three calls deep in C");
  return -1;
}

NOINLINE static int kernel_level_two(const TVMFFIAny *args, int32_t n, TVMFFIAny *result) {
  int rc = kernel_level_three(args, n, result);
  return rc;
}

NOINLINE static int kernel_level_one(const TVMFFIAny *args, int32_t n, TVMFFIAny *result) {
  int rc = kernel_level_two(args, n, result);
  return rc;
}

/* TVMFFISafeCallType, for ffi.FunctionFromExternC. */
int kernel_entry(void *self, const TVMFFIAny *args, int32_t n, TVMFFIAny *result) {
  int rc;
  (void)self;
  rc = kernel_level_one(args, n, result);
  return rc;
}

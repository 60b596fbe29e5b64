/* exit_threads_kernel.c: native threads that keep calling into Python while
 * the interpreter exits (test_interpreter_exit.py builds it at test time).
 *
 * exit_threads_start(f, n) starts n detached threads that never stop.  Each
 * one, in a loop: calls f() (a Python callback), drops the result (objects
 * that hold Python objects, released on this thread), swallows any error,
 * and polls TVMFFIEnvCheckSignals().  The process ends while they run. */
#include <pthread.h>
#include <stddef.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

static void drop_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
}

static void *worker(void *arg) {
  TVMFFIObjectHandle f = arg; /* one reference, owned by this thread for ever */
  for (;;) {
    TVMFFIAny result;
    result.type_index = kTVMFFINone;
    result.zero_padding = 0;
    result.v_int64 = 0;
    if (TVMFFIFunctionCall(f, NULL, 0, &result) == 0) {
      if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
    } else {
      drop_error();
    }
    if (TVMFFIEnvCheckSignals() != 0) drop_error();
  }
  return NULL;
}

/* TVMFFISafeCallType, for ffi.FunctionFromExternC: (function, int n) -> n */
int exit_threads_start(void *self, const TVMFFIAny *args, int32_t n, TVMFFIAny *result) {
  int64_t i, count;
  (void)self;
  if (n != 2 || args[0].type_index != kTVMFFIFunction || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "exit_threads_start(function, int)");
    return -1;
  }
  count = args[1].v_int64;
  for (i = 0; i < count; ++i) {
    pthread_t t;
    TVMFFIObjectIncRef(args[0].v_obj);
    if (pthread_create(&t, NULL, worker, args[0].v_obj) != 0) {
      TVMFFIObjectDecRef(args[0].v_obj);
      TVMFFIErrorSetRaisedFromCStr("RuntimeError", "pthread_create failed");
      return -1;
    }
    pthread_detach(t);
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = count;
  return 0;
}

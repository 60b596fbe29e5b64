/* raise_driver.c: raise-and-catch through the C ABI, against any libtvm_ffi.
 *
 *   raise_driver <libtvm_ffi.so> <testing lib or -> <global name> <iterations>
 *
 * Calls the global (kind, message) -> raises, takes the error out of the
 * slot and releases it; prints the best of 5 runs in ns per raise.  The same
 * binary runs against this project's library and apache-tvm-ffi's. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tvm/ffi/c_api.h>

typedef int (*get_global_fn)(const TVMFFIByteArray *, TVMFFIObjectHandle *);
typedef int (*call_fn)(TVMFFIObjectHandle, TVMFFIAny *, int32_t, TVMFFIAny *);
typedef void (*move_fn)(TVMFFIObjectHandle *);
typedef int (*decref_fn)(TVMFFIObjectHandle);

static void *sym(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (p == NULL) {
    fprintf(stderr, "raise_driver: %s not found: %s\n", name, dlerror());
    exit(2);
  }
  return p;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: other load does not count */
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv) {
  void *lib;
  get_global_fn get_global;
  call_fn call;
  move_fn move;
  decref_fn decref;
  TVMFFIByteArray name;
  TVMFFIObjectHandle f = NULL;
  TVMFFIAny args[2], result;
  long n, i;
  int run;
  double best = 1e300;

  if (argc != 5) {
    fprintf(stderr, "usage: raise_driver <libtvm_ffi.so> <testing lib or -> <global> <n>\n");
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (lib == NULL || (strcmp(argv[2], "-") != 0 && dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL) == NULL)) {
    fprintf(stderr, "raise_driver: %s\n", dlerror());
    return 2;
  }
  get_global = (get_global_fn)sym(lib, "TVMFFIFunctionGetGlobal");
  call = (call_fn)sym(lib, "TVMFFIFunctionCall");
  move = (move_fn)sym(lib, "TVMFFIErrorMoveFromRaised");
  decref = (decref_fn)sym(lib, "TVMFFIObjectDecRef");
  name.data = argv[3];
  name.size = strlen(argv[3]);
  if (get_global(&name, &f) != 0 || f == NULL) {
    fprintf(stderr, "raise_driver: no global %s\n", argv[3]);
    return 2;
  }
  n = atol(argv[4]);
  memset(args, 0, sizeof(args));
  args[0].type_index = kTVMFFIRawStr;
  args[0].v_c_str = "ValueError";
  args[1].type_index = kTVMFFIRawStr;
  args[1].v_c_str = "raised for the benchmark";
  for (run = 0; run < 5; ++run) {
    double t0 = now_ns(), dt;
    for (i = 0; i < n; ++i) {
      TVMFFIObjectHandle err = NULL;
      memset(&result, 0, sizeof(result));
      if (call(f, args, 2, &result) == 0) {
        fprintf(stderr, "raise_driver: %s did not raise\n", argv[3]);
        return 1;
      }
      move(&err);
      decref(err);
    }
    dt = (now_ns() - t0) / (double)n;
    if (dt < best) best = dt;
  }
  printf("%.0f\n", best);
  decref(f);
  return 0;
}

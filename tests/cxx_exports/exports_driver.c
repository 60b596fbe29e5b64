/* Loads a build of exports_lib.cc and runs its checks; the runtime under it
 * is whichever libtvm_ffi.so the loader finds (ours, or upstream's through
 * tests/c/run_on_upstream.sh).
 *
 *   usage: cxx_exports_driver <library> */
#include <dlfcn.h>
#include <stdio.h>

#include <tvm/ffi/c_api.h>

typedef int (*RunFn)(char* out, size_t out_size);

int main(int argc, char** argv) {
  void* lib;
  RunFn run;
  char failure[1024];
  if (argc != 2) {
    fprintf(stderr, "usage: %s <library>\n", argv[0]);
    return 2;
  }
  /* Use the runtime so the link keeps it, and so the library loaded below
   * binds to this process's copy. */
  if (TVMFFIGetTypeInfo(kTVMFFIStr) == NULL) {
    fprintf(stderr, "FAIL: the runtime has no type info for kTVMFFIStr\n");
    return 1;
  }
  /* RTLD_NOW: an undefined C++ symbol is a load failure here, not later. */
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  run = (RunFn)dlsym(lib, "tvm_ffi_cxx_exports_run");
  if (run == NULL) {
    fprintf(stderr, "FAIL: dlsym: %s\n", dlerror());
    return 1;
  }
  failure[0] = '\0';
  if (run(failure, sizeof(failure)) != 0) {
    fprintf(stderr, "FAIL: %s\n", failure);
    return 1;
  }
  printf("cxx_exports: all checks passed\n");
  return 0;
}

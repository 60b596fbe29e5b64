/* Loads compat_lib.cc's library (built against our C++ headers) and runs its
 * checks; with tests/c/run_on_upstream.sh the runtime underneath is
 * upstream's libtvm_ffi.so.
 *
 *   usage: cxx_api_compat_driver <path to libcxx_api_compat_lib.so> */
#include <dlfcn.h>
#include <stdio.h>

#include <tvm/ffi/c_api.h>

typedef int (*RunFn)(char* out, size_t out_size);

int main(int argc, char** argv) {
  void* lib;
  RunFn run;
  char message[512];
  if (argc != 2) {
    fprintf(stderr, "usage: %s <library>\n", argv[0]);
    return 2;
  }
  /* A use of libtvm_ffi, so the linker keeps it: the library resolves
   * against the copy this program loads. */
  if (TVMFFIGetTypeInfo(kTVMFFIInt)->type_key.size != 3) {
    fprintf(stderr, "FAIL: the runtime does not name kTVMFFIInt \"int\"\n");
    return 1;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  run = (RunFn)dlsym(lib, "tvm_ffi_cxx_api_compat_run");
  if (run == NULL) {
    fprintf(stderr, "FAIL: dlsym: %s\n", dlerror());
    return 1;
  }
  message[0] = '\0';
  if (run(message, sizeof(message)) != 0) {
    fprintf(stderr, "FAIL: %s\n", message);
    return 1;
  }
  printf("cxx_api compat: all checks passed\n");
  return 0;
}

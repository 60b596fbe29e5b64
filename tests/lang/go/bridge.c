// See bridge.h.  Everything is reached through dlopen/dlsym: the program has
// no link-time dependency on libtvm_ffi.
#include "bridge.h"

#include <dlfcn.h>

#include "_cgo_export.h"

static int (*inc_ref)(void*);
static int (*dec_ref)(void*);
static int (*get_global)(const ByteArray*, void**);
static int (*function_create)(void*, int (*)(void*, const Any*, int32_t, Any*), void (*)(void*),
                              void**);
static int (*function_call)(void*, Any*, int32_t, Any*);
static void (*error_move_from_raised)(void**);
static void (*error_set_raised)(const char*, const char*);

const char* bridge_load(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) return dlerror();
  *(void**)&inc_ref = dlsym(lib, "TVMFFIObjectIncRef");
  *(void**)&dec_ref = dlsym(lib, "TVMFFIObjectDecRef");
  *(void**)&get_global = dlsym(lib, "TVMFFIFunctionGetGlobal");
  *(void**)&function_create = dlsym(lib, "TVMFFIFunctionCreate");
  *(void**)&function_call = dlsym(lib, "TVMFFIFunctionCall");
  *(void**)&error_move_from_raised = dlsym(lib, "TVMFFIErrorMoveFromRaised");
  *(void**)&error_set_raised = dlsym(lib, "TVMFFIErrorSetRaisedFromCStr");
  if (!inc_ref || !dec_ref || !get_global || !function_create || !function_call ||
      !error_move_from_raised || !error_set_raised) {
    return "a TVMFFI function is missing from the library";
  }
  return NULL;
}

const char* bridge_load_extra(const char* path) {
  return dlopen(path, RTLD_NOW | RTLD_LOCAL) == NULL ? dlerror() : NULL;
}

int bridge_inc_ref(void* obj) { return inc_ref(obj); }
int bridge_dec_ref(void* obj) { return dec_ref(obj); }
int bridge_get_global(const char* name, size_t size, void** out) {
  ByteArray n = {name, size};
  return get_global(&n, out);
}
// The error slot is thread-local and a goroutine may move to another OS
// thread between two cgo calls, so a failing call takes its error out here,
// on the thread that raised it.
int bridge_call(void* func, Any* args, int32_t n, Any* result, void** error) {
  int rc = function_call(func, args, n, result);
  if (rc != 0) error_move_from_raised(error);
  return rc;
}
void bridge_error_set_raised(const char* kind, const char* message) {
  error_set_raised(kind, message);
}

// The closure pointer carries the cgo.Handle of the Go function.
static int go_safe_call(void* self, const Any* args, int32_t n, Any* result) {
  return goCallback((uintptr_t)self, (Any*)args, n, result);
}
static void go_deleter(void* self) { goRelease((uintptr_t)self); }

int bridge_function_from_go(uintptr_t handle, void** out, void** error) {
  int rc = function_create((void*)handle, go_safe_call, go_deleter, out);
  if (rc != 0) error_move_from_raised(error);
  return rc;
}

/* Loads and unloads libtvm_ffi with dlopen/dlclose many times.
 *
 * libtvm_ffi is linked with -z nodelete: once loaded it stays mapped, and a
 * later dlopen returns the same instance with its registries intact (see
 * docs/embedding.md, "Start-up and shutdown").  This test checks exactly that,
 * and that a cycle of open, use and close leaks nothing and never crashes:
 * every object made in a cycle is freed by the end of it, an object kept
 * across a dlclose stays usable, and a global registered in one cycle is found
 * in the next.  Each cycle uses the library from a new thread that has ended
 * before the dlclose, so no thread-local destructor keeps the library loaded:
 * without -z nodelete the library would really be unmapped here.  Run under
 * ASan + UBSan (with leak checking) by `make asan`.
 *
 *   embed_dlclose <path of libtvm_ffi.so> */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h> /* types only: every function comes from dlsym */

#define CYCLES 50

typedef struct {
  int (*ObjectIncRef)(TVMFFIObjectHandle);
  int (*ObjectDecRef)(TVMFFIObjectHandle);
  int (*FunctionGetGlobal)(const TVMFFIByteArray*, TVMFFIObjectHandle*);
  int (*FunctionSetGlobal)(const TVMFFIByteArray*, TVMFFIObjectHandle, int);
  int (*FunctionCreate)(void*, TVMFFISafeCallType, void (*)(void*), TVMFFIObjectHandle*);
  int (*FunctionCall)(TVMFFIObjectHandle, TVMFFIAny*, int32_t, TVMFFIAny*);
  void (*ErrorMoveFromRaised)(TVMFFIObjectHandle*);
  void (*ErrorSetRaisedFromCStr)(const char*, const char*);
} Api;

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

static int load(void* lib, Api* api) {
  *(void**)&api->ObjectIncRef = dlsym(lib, "TVMFFIObjectIncRef");
  *(void**)&api->ObjectDecRef = dlsym(lib, "TVMFFIObjectDecRef");
  *(void**)&api->FunctionGetGlobal = dlsym(lib, "TVMFFIFunctionGetGlobal");
  *(void**)&api->FunctionSetGlobal = dlsym(lib, "TVMFFIFunctionSetGlobal");
  *(void**)&api->FunctionCreate = dlsym(lib, "TVMFFIFunctionCreate");
  *(void**)&api->FunctionCall = dlsym(lib, "TVMFFIFunctionCall");
  *(void**)&api->ErrorMoveFromRaised = dlsym(lib, "TVMFFIErrorMoveFromRaised");
  *(void**)&api->ErrorSetRaisedFromCStr = dlsym(lib, "TVMFFIErrorSetRaisedFromCStr");
  return api->ObjectIncRef && api->ObjectDecRef && api->FunctionGetGlobal &&
         api->FunctionSetGlobal && api->FunctionCreate && api->FunctionCall &&
         api->ErrorMoveFromRaised && api->ErrorSetRaisedFromCStr;
}

static uint32_t strong_count(TVMFFIObjectHandle h) {
  return (uint32_t)(((TVMFFIObject*)h)->combined_ref_count & 0xffffffffu);
}

static int made = 0, deleted = 0;
static void counted_deleter(void* self) {
  (void)self;
  ++deleted;
}
static int fails(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  Api* api = (Api*)self;
  (void)args;
  (void)n;
  (void)result;
  api->ErrorSetRaisedFromCStr("RuntimeError", "raised in the host");
  return -1;
}

/* One cycle's use of the library, on its own thread. */
typedef struct {
  Api* api;
  int cycle;
  int ok;
} Cycle;
static TVMFFIObjectHandle kept = NULL; /* an Array made in cycle 0, used in every later cycle */

static void* use_library(void* arg) {
  Cycle* c = (Cycle*)arg;
  Api* api = c->api;
  int cycle = c->cycle;
  TVMFFIByteArray array_name = {"ffi.Array", 9}, host_name = {"embed.host_fails", 16};
  TVMFFIObjectHandle make_array = NULL, fn = NULL, err = NULL, found = NULL;
  TVMFFIAny args[2], out;
  int ok = 1;

  /* use it: make an Array, then an error raised by a host callback */
  memset(args, 0, sizeof(args));
  memset(&out, 0, sizeof(out));
  args[0].type_index = kTVMFFIInt;
  args[0].v_int64 = cycle;
  ok &= api->FunctionGetGlobal(&array_name, &make_array) == 0 && make_array != NULL;
  ok &= api->FunctionCall(make_array, args, 1, &out) == 0 && out.type_index == kTVMFFIArray;
  if (cycle == 0) {
    kept = out.v_obj;
  } else {
    ok &= strong_count(out.v_obj) == 1;
    api->ObjectDecRef(out.v_obj);
  }
  api->ObjectDecRef(make_array);

  ok &= api->FunctionCreate(api, fails, counted_deleter, &fn) == 0;
  ++made;
  ok &= api->FunctionCall(fn, args, 0, &out) == -1;
  api->ErrorMoveFromRaised(&err);
  ok &= err != NULL && TVMFFIErrorGetCellPtr(err)->message.size == strlen("raised in the host");
  api->ObjectDecRef(err);

  /* a global registered in the previous cycle is still there */
  ok &= api->FunctionGetGlobal(&host_name, &found) == 0 && (cycle == 0) == (found == NULL);
  api->ObjectDecRef(found);
  ok &= api->FunctionSetGlobal(&host_name, fn, 1) == 0; /* frees the previous cycle's */
  api->ObjectDecRef(fn);
  ok &= deleted == made - 1;

  /* the object kept from cycle 0 still works */
  api->ObjectIncRef(kept);
  ok &= strong_count(kept) == 2;
  api->ObjectDecRef(kept);

  c->ok = ok;
  return NULL;
}

int main(int argc, char** argv) {
  Api api;
  int cycle;
  if (argc != 2) {
    fprintf(stderr, "usage: %s <path of libtvm_ffi.so>\n", argv[0]);
    return 2;
  }
  for (cycle = 0; cycle < CYCLES; ++cycle) {
    void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    void* again;
    int ok = 1;

    if (lib == NULL || !load(lib, &api)) {
      printf("FAIL cycle %d: dlopen/dlsym: %s\n", cycle, dlerror());
      ++failed;
      break;
    }

    {
      pthread_t thread;
      Cycle c;
      c.api = &api;
      c.cycle = cycle;
      c.ok = 0;
      ok &= pthread_create(&thread, NULL, use_library, &c) == 0 && pthread_join(thread, NULL) == 0;
      ok &= c.ok;
    }
    ok &= dlclose(lib) == 0;
    /* -z nodelete: still mapped after the last dlclose */
    again = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
    ok &= again != NULL;
    if (again != NULL) dlclose(again);
    if (!ok) printf("FAIL cycle %d\n", cycle);
    CHECK(ok);
  }

  /* clean up through a last opening, so leak checking sees everything freed */
  {
    void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    TVMFFIByteArray remove_name = {"ffi.FunctionRemoveGlobal", 24};
    TVMFFIObjectHandle remove = NULL;
    TVMFFIAny arg, out;
    CHECK(lib != NULL && load(lib, &api));
    CHECK(strong_count(kept) == 1);
    api.ObjectDecRef(kept);
    memset(&arg, 0, sizeof(arg));
    memset(&out, 0, sizeof(out));
    arg.type_index = kTVMFFIRawStr;
    arg.v_c_str = "embed.host_fails";
    CHECK(api.FunctionGetGlobal(&remove_name, &remove) == 0 && remove != NULL);
    CHECK(api.FunctionCall(remove, &arg, 1, &out) == 0 && out.type_index == kTVMFFIBool &&
          out.v_int64 == 1);
    api.ObjectDecRef(remove);
    CHECK(made == CYCLES && deleted == CYCLES);
    dlclose(lib);
  }

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

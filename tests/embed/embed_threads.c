/* A host program that embeds the static library libtvm_ffi.a and uses it from
 * eight of its own threads at once.
 *
 * Each thread, many times over: makes a C function, registers it as a global
 * (replacing its previous one), looks up its own and a neighbour's global,
 * calls its function, gets an error back from it and reads it from its own
 * error slot, builds an ffi.Array holding the function and reads it back, and
 * takes and drops references to one Array shared by all threads.  At the end
 * every function made has been destroyed exactly once and the shared Array is
 * back to one reference.  Run under ASan + UBSan by `make asan`. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#define NUM_THREADS 8
#define ROUNDS 300

static int passed = 0, failed = 0;
static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER;
#define CHECK(cond)                                                     \
  do {                                                                  \
    int ok_ = (cond) ? 1 : 0;                                           \
    pthread_mutex_lock(&check_lock);                                    \
    if (ok_) {                                                          \
      ++passed;                                                         \
    } else {                                                            \
      ++failed;                                                         \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);            \
    }                                                                   \
    pthread_mutex_unlock(&check_lock);                                  \
  } while (0)

/* Written by any thread whose function is destroyed; read after the join. */
static int functions_made = 0;
static int functions_deleted = 0;

static TVMFFIAny int_arg(int64_t v) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}

static TVMFFIAny obj_arg(TVMFFIObjectHandle h) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = ((TVMFFIObject*)h)->type_index;
  a.v_obj = (TVMFFIObject*)h;
  return a;
}

static TVMFFIByteArray bytes(const char* s) {
  TVMFFIByteArray b;
  b.data = s;
  b.size = strlen(s);
  return b;
}

static uint32_t strong_count(TVMFFIObjectHandle h) {
  return (uint32_t)(__atomic_load_n(&((TVMFFIObject*)h)->combined_ref_count, __ATOMIC_RELAXED) &
                    0xffffffffu);
}

static int call_global(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIByteArray b = bytes(name);
  TVMFFIObjectHandle f = NULL;
  int rc;
  memset(out, 0, sizeof(*out));
  if (TVMFFIFunctionGetGlobal(&b, &f) != 0 || f == NULL) return -100;
  rc = TVMFFIFunctionCall(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* The threads' function: owner id in the closure; f(x) = x * 1000 + owner,
 * and a negative x raises "ValueError: thread <owner> got <x>". */
static int thread_fn(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int owner = (int)(intptr_t)self;
  char message[64];
  if (n != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "expected one int");
    return -1;
  }
  if (args[0].v_int64 < 0) {
    snprintf(message, sizeof(message), "thread %d got %lld", owner, (long long)args[0].v_int64);
    TVMFFIErrorSetRaisedFromCStr("ValueError", message);
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 * 1000 + owner;
  return 0;
}

static void thread_fn_deleter(void* self) {
  (void)self;
  __atomic_add_fetch(&functions_deleted, 1, __ATOMIC_RELAXED);
}

static int error_is(const char* kind, const char* message) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell* cell;
  int ok;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return 0;
  cell = TVMFFIErrorGetCellPtr(err);
  ok = cell->kind.size == strlen(kind) && memcmp(cell->kind.data, kind, cell->kind.size) == 0 &&
       cell->message.size == strlen(message) &&
       memcmp(cell->message.data, message, cell->message.size) == 0;
  TVMFFIObjectDecRef(err);
  return ok;
}

static TVMFFIObjectHandle shared_array;

static void* worker(void* arg) {
  int id = (int)(intptr_t)arg;
  char own_name[32], neighbour_name[32], expected[64];
  int round, bad = 0;
  snprintf(own_name, sizeof(own_name), "embed.thread%d", id);
  snprintf(neighbour_name, sizeof(neighbour_name), "embed.thread%d", (id + 1) % NUM_THREADS);
  snprintf(expected, sizeof(expected), "thread %d got -%d", id, id + 1);

  for (round = 0; round < ROUNDS; ++round) {
    TVMFFIObjectHandle fn = NULL, found = NULL;
    TVMFFIByteArray name = bytes(own_name), other = bytes(neighbour_name);
    TVMFFIAny args[2], out, item;

    /* make and register (replacing the previous round's function) */
    if (TVMFFIFunctionCreate((void*)(intptr_t)id, thread_fn, thread_fn_deleter, &fn) != 0) ++bad;
    __atomic_add_fetch(&functions_made, 1, __ATOMIC_RELAXED);
    if (TVMFFIFunctionSetGlobal(&name, fn, 1) != 0) ++bad;

    /* look up: our own is the one just registered; the neighbour's may or may not exist yet */
    if (TVMFFIFunctionGetGlobal(&name, &found) != 0 || found != fn) ++bad;
    TVMFFIObjectDecRef(found);
    found = NULL;
    if (TVMFFIFunctionGetGlobal(&other, &found) != 0) ++bad;
    TVMFFIObjectDecRef(found);

    /* call it, directly and through the registry */
    args[0] = int_arg(round);
    memset(&out, 0, sizeof(out));
    if (TVMFFIFunctionCall(fn, args, 1, &out) != 0 || out.v_int64 != round * 1000 + id) ++bad;
    if (call_global(own_name, args, 1, &out) != 0 || out.v_int64 != round * 1000 + id) ++bad;

    /* an error comes back on this thread's own slot */
    args[0] = int_arg(-(id + 1));
    if (TVMFFIFunctionCall(fn, args, 1, &out) != -1 || !error_is("ValueError", expected)) ++bad;

    /* an Array holding the function and the shared Array, read back */
    args[0] = obj_arg(fn);
    args[1] = obj_arg(shared_array);
    if (call_global("ffi.Array", args, 2, &out) != 0 || out.type_index != kTVMFFIArray) {
      ++bad;
    } else {
      args[0] = out;
      args[1] = int_arg(0);
      if (call_global("ffi.ArrayGetItem", args, 2, &item) != 0 || item.v_obj != fn) ++bad;
      TVMFFIObjectDecRef(item.v_obj);
      TVMFFIObjectDecRef(out.v_obj);
    }

    /* references taken and dropped from every thread at once */
    TVMFFIObjectIncRef(shared_array);
    TVMFFIObjectDecRef(shared_array);

    TVMFFIObjectDecRef(fn); /* the registry keeps it alive until replaced */
  }
  CHECK(bad == 0);
  return NULL;
}

int main(void) {
  pthread_t threads[NUM_THREADS];
  TVMFFIAny args[2], out;
  int i;

  args[0] = int_arg(1);
  args[1] = int_arg(2);
  CHECK(call_global("ffi.Array", args, 2, &out) == 0 && out.type_index == kTVMFFIArray);
  shared_array = out.v_obj;

  for (i = 0; i < NUM_THREADS; ++i) {
    CHECK(pthread_create(&threads[i], NULL, worker, (void*)(intptr_t)i) == 0);
  }
  for (i = 0; i < NUM_THREADS; ++i) pthread_join(threads[i], NULL);

  CHECK(strong_count(shared_array) == 1);
  CHECK(functions_made == NUM_THREADS * ROUNDS);
  /* every replaced function is gone; the last one of each thread is still registered */
  CHECK(functions_deleted == NUM_THREADS * (ROUNDS - 1));

  /* removing the globals releases the last eight */
  for (i = 0; i < NUM_THREADS; ++i) {
    char name[32];
    TVMFFIAny arg;
    memset(&arg, 0, sizeof(arg));
    snprintf(name, sizeof(name), "embed.thread%d", i);
    arg.type_index = kTVMFFIRawStr;
    arg.v_c_str = name;
    CHECK(call_global("ffi.FunctionRemoveGlobal", &arg, 1, &out) == 0);
    CHECK(out.type_index == kTVMFFIBool && out.v_int64 == 1);
  }
  CHECK(functions_deleted == NUM_THREADS * ROUNDS);
  TVMFFIObjectDecRef(shared_array);

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

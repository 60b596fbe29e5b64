/* callback.c: Python callables as FFI functions, and Python objects as
 * ffi.OpaquePyObject.  Both may be called or released from any thread. */
#include "pyshim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the exit gate ------------------------------------------------------------------
 *
 * Every entry into CPython from a thread that may not hold the GIL (a Python
 * callback, the release of a Python reference, a signal check, the GIL
 * helpers handed to the C++ core) passes this gate: tvmffi_py_gil_enter()
 * takes the GIL, tvmffi_py_gil_leave() gives it back.
 *
 * Why: once Py_FinalizeEx marks the runtime as finalizing, a thread that
 * asks for the GIL is ended by CPython (3.12 and 3.13 call
 * PyThread_exit_thread, i.e. pthread_exit, whose forced unwind runs through
 * the C++ frames of the library that called us: noexcept frames turn it
 * into std::terminate), and a thread without a thread state that calls
 * PyGILState_Ensure late in finalization dies in "gilstate_tss_set".  A
 * check of Py_IsFinalizing() before PyGILState_Ensure cannot prevent this:
 * finalization can start between the two.
 *
 * So the gate is closed by our atexit hook, which runs on the finalizing
 * thread with the GIL before the runtime is marked as finalizing.  An entry
 * first counts itself in `gate_inside`, then reads `gate_closed`; the hook
 * first sets `gate_closed`, then reads `gate_inside`.  All four are
 * sequentially consistent atomics, so for any entry either it sees the gate
 * closed (and backs out, never touching CPython) or the hook sees it inside
 * and waits for it to leave.  The wait has the GIL released and lasts at
 * most EXIT_WAIT_SECONDS: a callback still running after that is most likely
 * blocked for good (say, on a queue the main thread would have filled) and
 * exit goes on without it.  The finalizing thread itself passes the gate
 * until Py_AtExit reports the interpreter gone.  No lock: the common path
 * (gate open) costs two atomic increments. */
#define EXIT_WAIT_SECONDS 2

static atomic_int gate_closed = 0;  /* set by the atexit hook */
static atomic_int python_gone = 0;  /* set by Py_AtExit: even the finalizing thread is refused */
static atomic_long gate_inside = 0; /* entries that passed the gate and have not left */
/* Per thread: entries of this thread now inside, and whether this thread
 * closed the gate (it runs the finalization). */
static _Thread_local long tls_inside = 0;
static _Thread_local int tls_is_finalizer = 0;

/* After fork() only the forking thread exists in the child: the entries of
 * the others are gone with them. */
static void gate_child_fork(void) { atomic_store(&gate_inside, tls_inside); }

int tvmffi_py_gil_enter(PyGILState_STATE *g) {
  atomic_fetch_add(&gate_inside, 1);
  if (atomic_load(&gate_closed) ? !tls_is_finalizer || atomic_load(&python_gone)
                                /* Before our hook ran (or if it never does, as
                                 * for an embedder that finalizes without
                                 * atexit): the best check there is. */
                                : !Py_IsInitialized()) {
    atomic_fetch_sub(&gate_inside, 1);
    return 0;
  }
  ++tls_inside;
  *g = PyGILState_Ensure();
  return 1;
}

void tvmffi_py_gil_leave(PyGILState_STATE g) {
  PyGILState_Release(g);
  --tls_inside;
  atomic_fetch_sub(&gate_inside, 1);
}

static void mark_python_gone(void) { atomic_store(&python_gone, 1); }

/* Closes the gate (with the GIL, on the finalizing thread) and waits, with
 * the GIL released, until no other thread is inside or the time is up. */
static void close_gate(void) {
  const struct timespec tick = {0, 1000000}; /* 1 ms */
  struct timespec now, deadline;
  PyThreadState *ts;
  tls_is_finalizer = 1;
  atomic_store(&gate_closed, 1);
  if (atomic_load(&gate_inside) <= tls_inside) return;
  ts = PyEval_SaveThread();
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += EXIT_WAIT_SECONDS;
  while (atomic_load(&gate_inside) > tls_inside) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > deadline.tv_sec ||
        (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec)) {
      break;
    }
    nanosleep(&tick, NULL);
  }
  PyEval_RestoreThread(ts);
}

/* Releases a Python reference from any thread, or leaks it when the gate
 * refuses this thread (nothing may run Python code on it then). */
static void release_pyobject(PyObject *obj) {
  PyGILState_STATE g;
  PyObject *exc;
  if (obj == NULL || !tvmffi_py_gil_enter(&g)) return;
  exc = PyErr_GetRaisedException();
  Py_DECREF(obj);
  PyErr_SetRaisedException(exc);
  tvmffi_py_gil_leave(g);
}

void tvmffi_py_release_pyobject(void *obj) { release_pyobject((PyObject *)obj); }

/* Closure of a Python callable wrapped as an FFI function.  Allocated with
 * malloc so that it can be freed without the GIL.  Live closures form a list
 * (guarded by closures_lock) so that interpreter exit can drop their Python
 * references: a cycle through an FFI function is invisible to Python's GC. */
typedef struct tvmffi_py_closure {
  PyObject *callable; /* owned; NULL once dropped at exit */
  PyObject *module;   /* owned: keeps the module state alive */
  /* convert_func(f, tensor_cls=...): tensor arguments are delivered through
   * this table as tensor_cls instances; exchange_owner (owned) keeps it. */
  const DLPackExchangeAPI *exchange;
  PyObject *exchange_owner;
  struct tvmffi_py_closure *prev, *next;
} tvmffi_py_closure;

static pthread_mutex_t closures_lock = PTHREAD_MUTEX_INITIALIZER;
static tvmffi_py_closure *closures_head = NULL;

/* Raises "RuntimeError: cannot call a Python function: the interpreter is
 * finalizing"; returns -1.  Without a backtrace: a refused thread may be
 * running while the process exits, when the libraries a backtrace needs
 * (libdw and what it loads) are being torn down. */
static int raise_finalizing(void) {
  static const char kind[] = "RuntimeError";
  static const char message[] = "cannot call a Python function: the interpreter is finalizing";
  TVMFFIByteArray k = {kind, sizeof(kind) - 1}, m = {message, sizeof(message) - 1}, bt = {"", 0};
  TVMFFIObjectHandle err = NULL;
  if (TVMFFIErrorCreate(&k, &m, &bt, &err) != 0) return -1; /* out of memory: that error is raised */
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
  return -1;
}

static int tvmffi_py_callback_safe_call(void *self, const TVMFFIAny *args, int32_t num_args,
                              TVMFFIAny *result) {
  tvmffi_py_closure *c = (tvmffi_py_closure *)self;
  PyObject *inline_stack[TVMFFI_PY_INLINE_ARGS], **stack = inline_stack, *ret = NULL;
  tvmffi_py_state *st;
  PyGILState_STATE g;
  int32_t i, made = 0;
  int rc = -1;

  if (!tvmffi_py_gil_enter(&g)) return raise_finalizing();
  if (c->callable == NULL) {
    tvmffi_py_gil_leave(g);
    return raise_finalizing();
  }
  st = PyModule_GetState(c->module);
  if (num_args > TVMFFI_PY_INLINE_ARGS) {
    stack = PyMem_Malloc(sizeof(PyObject *) * (size_t)num_args);
    if (stack == NULL) {
      PyErr_NoMemory();
      goto fail;
    }
  }
  for (made = 0; made < num_args; ++made) {
    if (c->exchange != NULL && args[made].type_index == kTVMFFITensor) {
      TVMFFIAny owned = args[made];
      TVMFFIObjectIncRef(owned.v_obj);
      stack[made] = tvmffi_py_exchange_result(st, c->exchange, &owned);
    } else {
      stack[made] = tvmffi_py_from_view(st, &args[made]);
    }
    if (stack[made] == NULL) goto fail;
  }
  ret = PyObject_Vectorcall(c->callable, stack, (size_t)num_args, NULL);
  if (ret == NULL) goto fail;
  if (ret == Py_None) {
    memset(result, 0, sizeof(*result));
  } else if (tvmffi_py_to_owned_any(st, ret, result) != 0) {
    goto fail;
  }
  rc = 0;
  goto done;
fail:
  tvmffi_py_set_ffi_error_from_python(st);
done:
  Py_XDECREF(ret);
  for (i = 0; i < made; ++i) Py_DECREF(stack[i]);
  if (stack != inline_stack) PyMem_Free(stack);
  tvmffi_py_gil_leave(g);
  return rc;
}

static void Callback_deleter(void *self) {
  tvmffi_py_closure *c = (tvmffi_py_closure *)self;
  pthread_mutex_lock(&closures_lock);
  if (c->prev != NULL) c->prev->next = c->next; else closures_head = c->next;
  if (c->next != NULL) c->next->prev = c->prev;
  pthread_mutex_unlock(&closures_lock);
  release_pyobject(c->callable);
  release_pyobject(c->module);
  release_pyobject(c->exchange_owner);
  free(c);
}

int tvmffi_py_callable_to_function(PyObject *module, PyObject *callable,
                                   TVMFFIObjectHandle *out) {
  return tvmffi_py_callable_to_function_ex(module, callable, NULL, NULL, out);
}

int tvmffi_py_callable_to_function_ex(PyObject *module, PyObject *callable,
                                      const DLPackExchangeAPI *exchange, PyObject *exchange_owner,
                                      TVMFFIObjectHandle *out) {
  tvmffi_py_closure *c = malloc(sizeof(tvmffi_py_closure));
  tvmffi_py_state *st = PyModule_GetState(module);
  int rc;
  if (c == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  c->callable = Py_NewRef(callable);
  c->module = Py_NewRef(module);
  c->exchange = exchange;
  c->exchange_owner = Py_XNewRef(exchange_owner);
  c->prev = NULL;
  pthread_mutex_lock(&closures_lock);
  c->next = closures_head;
  if (closures_head != NULL) closures_head->prev = c;
  closures_head = c;
  pthread_mutex_unlock(&closures_lock);
  rc = TVMFFIFunctionCreate(c, tvmffi_py_callback_safe_call, Callback_deleter, out);
  if (rc != 0) {
    /* The deleter is not called on failure: unlink and free here. */
    pthread_mutex_lock(&closures_lock);
    if (c->prev != NULL) c->prev->next = c->next; else closures_head = c->next;
    if (c->next != NULL) c->next->prev = c->prev;
    pthread_mutex_unlock(&closures_lock);
    Py_DECREF(c->callable);
    Py_DECREF(c->module);
    Py_XDECREF(c->exchange_owner);
    free(c);
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  return 0;
}

static void Opaque_deleter(void *handle) { release_pyobject((PyObject *)handle); }

int tvmffi_py_make_opaque(PyObject *obj, TVMFFIObjectHandle *out) {
  int rc = TVMFFIObjectCreateOpaque(Py_NewRef(obj), kTVMFFIOpaquePyObject, Opaque_deleter, out);
  if (rc != 0) {
    TVMFFIObjectHandle err = NULL;
    Py_DECREF(obj);
    TVMFFIErrorMoveFromRaised(&err);
    PyErr_SetString(PyExc_RuntimeError, "cannot wrap a Python object as ffi.OpaquePyObject");
    TVMFFIObjectDecRef(err);
    return -1;
  }
  return 0;
}

/* Host callbacks for C++ code: signal checks and GIL handling, all through
 * the exit gate. */
static int env_check_signals(void) {
  PyGILState_STATE g;
  int rc;
  /* Works with or without the GIL held (a call may have released it); a
   * raised KeyboardInterrupt stays pending in this thread's state. */
  if (!tvmffi_py_gil_enter(&g)) return 0;
  rc = PyErr_CheckSignals();
  tvmffi_py_gil_leave(g);
  return rc;
}

/* The GIL helpers the core uses around env_check_signals (TVMFFIEnvCheckSignals).
 * A refused thread gets ENV_GIL_REFUSED, and its release does nothing. */
#define ENV_GIL_REFUSED (-1)

static int env_gil_ensure(void) {
  PyGILState_STATE g;
  return tvmffi_py_gil_enter(&g) ? (int)g : ENV_GIL_REFUSED;
}

static void env_gil_release(int state) {
  if (state != ENV_GIL_REFUSED) tvmffi_py_gil_leave((PyGILState_STATE)state);
}

/* Called (with the GIL) when Python starts exiting: Python callables held
 * by FFI functions are released now, while Python can still free them and
 * whatever they reference.  Later calls of those functions raise. */
void tvmffi_py_drop_callables(void) {
  PyObject *batch[64]; /* callable, module pairs */
  int n;
  do {
    tvmffi_py_closure *c;
    n = 0;
    pthread_mutex_lock(&closures_lock);
    for (c = closures_head; c != NULL && n < 63; c = c->next) {
      if (c->callable != NULL) {
        batch[n++] = c->callable;
        batch[n++] = c->module; /* lets the module (and its state) go too */
        c->callable = NULL;
        c->module = NULL;
      }
    }
    pthread_mutex_unlock(&closures_lock);
    /* Outside the lock: a decref may free FFI functions (their deleters
     * take the lock) or even make new closures (caught by the next round). */
    for (int i = 0; i < n; ++i) Py_XDECREF(batch[i]);
  } while (n > 0);
}

/* ---- module functions of this file -------------------------------------------- */

/* _set_finalizing(): the atexit hook (registered by tvm_ffi/__init__.py).
 * Closes the exit gate, then drops the Python callables held by FFI
 * functions while Python can still free them. */
static PyObject *mod_set_finalizing(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  close_gate();
  tvmffi_py_drop_callables();
  Py_RETURN_NONE;
}

/* _opaque_pyobject(obj) -> the Python object an ffi.OpaquePyObject holds */
static PyObject *mod_opaque_pyobject(PyObject *module, PyObject *obj) {
  TVMFFIObjectHandle h = tvmffi_py_handle_of(tvmffi_py_module_state(module), obj);
  if (h == NULL) return NULL;
  if (TVMFFIObjectGetTypeIndex(h) != kTVMFFIOpaquePyObject) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.OpaquePyObject, got %R", obj);
    return NULL;
  }
  return Py_NewRef((PyObject *)TVMFFIOpaqueObjectGetCellPtr(h)->handle);
}

static PyMethodDef callback_functions[] = {
    {"_set_finalizing", mod_set_finalizing, METH_NOARGS, NULL},
    {"_opaque_pyobject", mod_opaque_pyobject, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_callback(PyObject *module, tvmffi_py_state *st) {
  static int at_exit_registered = 0;
  (void)module;
  (void)st;
  if (!at_exit_registered) {
    at_exit_registered = 1;
    Py_AtExit(mark_python_gone);
    pthread_atfork(NULL, NULL, gate_child_fork);
  }
  if (TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", (void *)env_check_signals) != 0 ||
      TVMFFIEnvRegisterCAPI("PyGILState_Ensure", (void *)env_gil_ensure) != 0 ||
      TVMFFIEnvRegisterCAPI("PyGILState_Release", (void *)env_gil_release) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    /* Not fatal: only Ctrl-C polling from C++ is lost. */
  }
  if (PyModule_AddFunctions(module, callback_functions) != 0) return -1;
  return 0;
}

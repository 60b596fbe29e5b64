/* callback.c: Python callables as FFI functions, and Python objects as
 * ffi.OpaquePyObject.  Both may be called or released from any thread. */
#include "pyshim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Process-wide lifecycle flags (plain ints, not Python objects):
 * finalizing: set by the atexit hook; from then on only the finalizing
 *             thread may take the GIL.
 * gone:       set by Py_AtExit once the interpreter is fully finalized; from
 *             then on Python references are leaked, never released. */
/* C11 atomics: deleters on other threads read these while the main thread
 * sets them.  The thread id is stored before `finalizing` is released, so a
 * reader that acquires finalizing == 1 sees the id. */
static atomic_int finalizing = 0;
static atomic_ulong finalizing_thread = 0;
static atomic_int python_gone = 0;

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

static void mark_python_gone(void) { atomic_store_explicit(&python_gone, 1, memory_order_release); }

/* While Python finalizes (from our atexit hook on), only the finalizing
 * thread, which holds the GIL, may still take it; other threads would block
 * or be stopped.  (Py_IsInitialized() is already 0 while modules are torn
 * down, which is when most wrappers die.) */
static int is_finalizing(int *on_this_thread) {
  if (!atomic_load_explicit(&finalizing, memory_order_acquire)) return 0;
  *on_this_thread = PyThread_get_thread_ident() ==
                    atomic_load_explicit(&finalizing_thread, memory_order_relaxed);
  return 1;
}

int tvmffi_py_can_enter_python(void) {
  int here;
  if (atomic_load_explicit(&python_gone, memory_order_acquire)) return 0;
  if (is_finalizing(&here)) return here;
  return Py_IsInitialized();
}


/* Releases a Python reference from any thread, or leaks it once the
 * interpreter is going away (nothing can run Python code then). */
static void release_pyobject(PyObject *obj) {
  PyGILState_STATE g;
  PyObject *exc;
  if (obj == NULL || !tvmffi_py_can_enter_python()) return;
  g = PyGILState_Ensure();
  exc = PyErr_GetRaisedException();
  Py_DECREF(obj);
  PyErr_SetRaisedException(exc);
  PyGILState_Release(g);
}

static int tvmffi_py_callback_safe_call(void *self, const TVMFFIAny *args, int32_t num_args,
                              TVMFFIAny *result) {
  tvmffi_py_closure *c = (tvmffi_py_closure *)self;
  PyObject *inline_stack[TVMFFI_PY_INLINE_ARGS], **stack = inline_stack, *ret = NULL;
  tvmffi_py_state *st;
  PyGILState_STATE g;
  int32_t i, made = 0;
  int rc = -1;

  if (!tvmffi_py_can_enter_python()) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "cannot call a Python function: the interpreter is finalizing");
    return -1;
  }
  g = PyGILState_Ensure();
  if (c->callable == NULL) {
    PyGILState_Release(g);
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "cannot call a Python function: the interpreter is finalizing");
    return -1;
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
  PyGILState_Release(g);
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

/* Host callbacks for C++ code: signal checks and GIL handling. */
static int env_check_signals(void) {
  PyGILState_STATE g;
  int rc, here;
  if (!Py_IsInitialized() || (is_finalizing(&here) && !here)) return 0;
  /* Works with or without the GIL held (a call may have released it); a
   * raised KeyboardInterrupt stays pending in this thread's state. */
  g = PyGILState_Ensure();
  rc = PyErr_CheckSignals();
  PyGILState_Release(g);
  return rc;
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

/* _set_finalizing(): called at exit.  Drops the Python callables held by FFI
 * functions, and from then on FFI deleters running on other threads leak
 * their Python references instead of waiting for the GIL. */
static PyObject *mod_set_finalizing(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  atomic_store_explicit(&finalizing_thread, PyThread_get_thread_ident(), memory_order_relaxed);
  atomic_store_explicit(&finalizing, 1, memory_order_release);
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
  }
  if (TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", (void *)env_check_signals) != 0 ||
      TVMFFIEnvRegisterCAPI("PyGILState_Ensure", (void *)PyGILState_Ensure) != 0 ||
      TVMFFIEnvRegisterCAPI("PyGILState_Release", (void *)PyGILState_Release) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    /* Not fatal: only Ctrl-C polling from C++ is lost. */
  }
  if (PyModule_AddFunctions(module, callback_functions) != 0) return -1;
  return 0;
}

/* function.c: core.Function, an FFI function called through vectorcall. */
#include "pyshim.h"

#include <stddef.h>
#include <string.h>

int tvmffi_py_call_handle(TVMFFIObjectHandle f, TVMFFIAny *args, int32_t n,
                          TVMFFIAny *result) {
  return TVMFFIFunctionCall(f, args, n, result);
}

static PyObject *Function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames) {
  tvmffi_py_function *fn = (tvmffi_py_function *)self;
  tvmffi_py_state *st;
  /* PyVectorcall_NARGS is a function call in the limited API; the flag bit
   * it masks off is part of the limited API (PEP 590). */
  Py_ssize_t n = (Py_ssize_t)(nargsf & ~PY_VECTORCALL_ARGUMENTS_OFFSET), i;
  TVMFFIAny inline_args[TVMFFI_PY_INLINE_ARGS], *cargs = inline_args, result;
  tvmffi_py_temps temps;
  int rc;

  if (kwnames != NULL && PyTuple_Size(kwnames) != 0) {
    PyErr_SetString(PyExc_TypeError, "FFI functions take positional arguments only");
    return NULL;
  }
  if (n > INT32_MAX) {
    PyErr_SetString(PyExc_OverflowError, "too many arguments for an FFI call");
    return NULL;
  }
  st = fn->state;
  if (n > TVMFFI_PY_INLINE_ARGS) {
    cargs = PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)n);
    if (cargs == NULL) return PyErr_NoMemory();
  }
  tvmffi_py_temps_init(&temps);
  for (i = 0; i < n; ++i) {
    if (tvmffi_py_arg_to_any(st, args[i], &cargs[i], &temps) != 0) {
      tvmffi_py_temps_release(&temps);
      if (cargs != inline_args) PyMem_Free(cargs);
      return NULL;
    }
  }
  memset(&result, 0, sizeof(result));
  if (fn->release_gil) {
    PyThreadState *ts = PyEval_SaveThread();
    rc = TVMFFIFunctionCall(fn->handle, cargs, (int32_t)n, &result);
    PyEval_RestoreThread(ts);
  } else {
    rc = TVMFFIFunctionCall(fn->handle, cargs, (int32_t)n, &result);
  }
  if (temps.num_temps != 0) tvmffi_py_temps_release(&temps);
  if (cargs != inline_args) PyMem_Free(cargs);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return tvmffi_py_result_from_any(st, &result);
}

/* Steals h, which must be an ffi.Function. */
PyObject *tvmffi_py_function_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h) {
  tvmffi_py_function *fn = (tvmffi_py_function *)st->function_alloc(st->function_type, 0);
  if (fn == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  fn->handle = h;
  fn->vectorcall = Function_vectorcall;
  fn->dict = NULL;
  fn->state = st;
  fn->release_gil = st->release_gil_default;
  return (PyObject *)fn;
}

/* Function(callable): wraps a Python callable (or returns a Function as is). */
static PyObject *Function_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  tvmffi_py_state *st = PyType_GetModuleState(type);
  PyObject *callable;
  TVMFFIObjectHandle h;
  if (st == NULL) return NULL;
  if ((kwds != NULL && PyDict_Size(kwds) != 0) || PyTuple_Size(args) != 1) {
    PyErr_SetString(PyExc_TypeError, "Function(callable) takes exactly one positional argument");
    return NULL;
  }
  callable = PyTuple_GetItem(args, 0);
  if (PyObject_TypeCheck(callable, st->function_type)) return Py_NewRef(callable);
  if (!PyCallable_Check(callable)) {
    PyErr_Format(PyExc_TypeError, "Function() needs a callable, got %R", callable);
    return NULL;
  }
  if (tvmffi_py_callable_to_function(st->module, callable, &h) != 0) return NULL;
  return tvmffi_py_function_wrap(st, h);
}

static int Function_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(((tvmffi_py_function *)self)->dict);
  return 0;
}

static int Function_clear(PyObject *self) {
  Py_CLEAR(((tvmffi_py_function *)self)->dict);
  return 0;
}

static void Function_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  tvmffi_py_function *fn = (tvmffi_py_function *)self;
  freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  TVMFFIObjectHandle h = fn->handle;
  PyObject_GC_UnTrack(self);
  Py_CLEAR(fn->dict);
  fn->handle = NULL;
  if (h != NULL) {
    PyObject *exc = PyErr_GetRaisedException();
    TVMFFIObjectDecRef(h);
    PyErr_SetRaisedException(exc);
  }
  tp_free(self);
  Py_DECREF(tp);
}

static PyObject *Function_get_release_gil(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(((tvmffi_py_function *)self)->release_gil);
}

static int Function_set_release_gil(PyObject *self, PyObject *value, void *closure) {
  int v;
  (void)closure;
  if (value == NULL) {
    PyErr_SetString(PyExc_AttributeError, "release_gil cannot be deleted");
    return -1;
  }
  v = PyObject_IsTrue(value);
  if (v < 0) return -1;
  ((tvmffi_py_function *)self)->release_gil = v;
  return 0;
}

static PyGetSetDef Function_getset[] = {
    {"release_gil", Function_get_release_gil, Function_set_release_gil,
     "Whether calls release the GIL while the C function runs.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMemberDef Function_members[] = {
    {"__vectorcalloffset__", Py_T_PYSSIZET, offsetof(tvmffi_py_function, vectorcall), Py_READONLY,
     NULL},
    {"__dictoffset__", Py_T_PYSSIZET, offsetof(tvmffi_py_function, dict), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot Function_slots[] = {
    {Py_tp_new, Function_new},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_dealloc, Function_dealloc},
    {Py_tp_traverse, Function_traverse},
    {Py_tp_clear, Function_clear},
    {Py_tp_getset, Function_getset},
    {Py_tp_members, Function_members},
    {Py_tp_doc, "An FFI function. Calls convert their arguments and result (positional only)."},
    {0, NULL}};

static PyType_Spec Function_spec = {
    .name = "tvm_ffi.core.Function",
    .basicsize = sizeof(tvmffi_py_function),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Function_slots,
};

int tvmffi_py_init_function(PyObject *module, tvmffi_py_state *st) {
  st->function_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Function_spec,
                                                               (PyObject *)st->object_type);
  if (st->function_type == NULL) return -1;
  st->function_alloc = (allocfunc)PyType_GetSlot(st->function_type, Py_tp_alloc);
  if (PyModule_AddType(module, st->function_type) != 0) return -1;
  return tvmffi_py_register_class(st, kTVMFFIFunction, (PyObject *)st->function_type);
}

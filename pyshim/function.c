/* function.c: core.Function, an FFI function called through vectorcall. */
#include "pyshim.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int tvmffi_py_function_call(TVMFFIObjectHandle f, TVMFFIAny *args,
                                                        int32_t n, TVMFFIAny *result) {
  int rc;
  if (f != NULL && ((const TVMFFIObject *)f)->type_index == kTVMFFIFunction) {
    rc = TVMFFIFunctionGetCellPtr(f)->safe_call(f, args, n, result);
  } else {
    rc = TVMFFIFunctionCall(f, args, n, result);
  }
  /* Not a tail call: this frame must stay on the stack during the call. */
  __asm__ volatile("" ::: "memory");
  return rc;
}

static PyObject *Function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames) {
  tvmffi_py_function *fn = (tvmffi_py_function *)self;
  TVMFFIAny result;
  const DLPackExchangeAPI *exchange = NULL;
  /* PyVectorcall_NARGS is a function call in the limited API; the flag bit
   * it masks off is part of the limited API (PEP 590). */
  Py_ssize_t n = (Py_ssize_t)(nargsf & ~PY_VECTORCALL_ARGUMENTS_OFFSET);
  if (fn->handle == NULL) {
    PyErr_SetString(PyExc_ValueError, "the Function holds no FFI function (chandle=None)");
    return NULL;
  }
  if (kwnames != NULL && PyTuple_Size(kwnames) != 0) {
    PyErr_SetString(PyExc_TypeError, "FFI functions take positional arguments only");
    return NULL;
  }
  if (tvmffi_py_call_ex(fn->state, fn->handle, args, n, fn->release_gil, &result, &exchange) != 0) {
    return NULL;
  }
  /* Tensors in through a DLPack C exchange API: a tensor result goes back
   * out as the producer's type (torch in, torch out; exchange.c). */
  if (exchange != NULL) {
    PyObject *r;
    if (result.type_index == kTVMFFITensor) {
      return tvmffi_py_exchange_result(fn->state, exchange, &result);
    }
    if (!tvmffi_py_is_container_index(result.type_index)) {
      return tvmffi_py_result_from_any(fn->state, &result);
    }
    /* ... and so do tensors later read out of a returned container. */
    r = tvmffi_py_result_from_any(fn->state, &result);
    if (r != NULL && TVMFFI_PY_IS_CONTAINER(fn->state, r)) {
      ((tvmffi_py_container *)r)->exchange = exchange;
    }
    return r;
  }
  return tvmffi_py_result_from_any(fn->state, &result);
}

/* A new wrapper of type `type` (core.Function or a Python subclass); steals h. */
static PyObject *function_new_wrapper(tvmffi_py_state *st, PyTypeObject *type,
                                      TVMFFIObjectHandle h) {
  allocfunc alloc = type == st->function_type ? st->function_alloc
                                              : (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  tvmffi_py_function *fn = (tvmffi_py_function *)alloc(type, 0);
  if (fn == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  fn->handle = h;
  fn->state = st;
  fn->vectorcall = Function_vectorcall;
  fn->dict = NULL;
  fn->release_gil = st->release_gil_default;
  return (PyObject *)fn;
}

/* Steals h, which must be an ffi.Function. */
PyObject *tvmffi_py_function_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h) {
  return function_new_wrapper(st, st->function_type, h);
}

/* Function(callable): wraps a Python callable.  core.Function(f) returns a
 * Function f as is; a subclass gets a new wrapper sharing f's FFI function.
 * A subclass called with anything else starts empty, for its own __init__
 * to fill (with __move_handle_from__), as upstream's subclasses do. */
static PyObject *Function_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  tvmffi_py_state *st = tvmffi_py_state_of_subtype(type);
  PyObject *callable;
  TVMFFIObjectHandle h;
  int one_arg;
  if (st == NULL) return NULL;
  one_arg = (kwds == NULL || PyDict_Size(kwds) == 0) && PyTuple_Size(args) == 1;
  if (type != st->function_type &&
      (!one_arg || !PyCallable_Check(PyTuple_GetItem(args, 0)))) {
    return function_new_wrapper(st, type, NULL);
  }
  if (!one_arg) {
    PyErr_SetString(PyExc_TypeError, "Function(callable) takes exactly one positional argument");
    return NULL;
  }
  callable = PyTuple_GetItem(args, 0);
  if (PyObject_TypeCheck(callable, st->function_type)) {
    if (Py_TYPE(callable) == type) return Py_NewRef(callable);
    h = ((tvmffi_py_object *)callable)->handle;
    TVMFFIObjectIncRef(h);
  } else if (!PyCallable_Check(callable)) {
    PyErr_Format(PyExc_TypeError, "Function() needs a callable, got %R", callable);
    return NULL;
  } else if (tvmffi_py_callable_to_function(st->module, callable, &h) != 0) {
    return NULL;
  }
  return function_new_wrapper(st, type, h);
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

/* ---- Functions from foreign symbols --------------------------------------------- */

/* (symbol, keep_alive_object=None) of __from_extern_c__ (keep_alive_object
 * keyword only) and __from_mlir_packed_safe_call__ (either way). */
static int foreign_symbol_args(const char *name, int keep_positional, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames, void **symbol,
                               PyObject **keep) {
  Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames), i;
  *keep = Py_None;
  if (nargs < 1 || nargs > (keep_positional ? 2 : 1)) {
    PyErr_Format(PyExc_TypeError, "%s() takes the symbol address%s, got %zd positional arguments",
                 name, keep_positional ? " and keep_alive_object" : "", nargs);
    return -1;
  }
  if (nargs == 2) *keep = args[1];
  for (i = 0; i < nkw; ++i) {
    PyObject *key = PyTuple_GetItem(kwnames, i);
    if (PyUnicode_CompareWithASCIIString(key, "keep_alive_object") != 0 || nargs == 2) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", name, key);
      return -1;
    }
    *keep = args[nargs + i];
  }
  if (!PyLong_Check(args[0])) {
    PyErr_Format(PyExc_TypeError, "%s() needs the symbol's address as an int, got %R", name,
                 args[0]);
    return -1;
  }
  *symbol = PyLong_AsVoidPtr(args[0]);
  if (*symbol == NULL) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s(): the symbol address is 0", name);
    return -1;
  }
  return 0;
}

/* Function.__from_extern_c__(c_symbol, *, keep_alive_object=None): a C
 * function with the safe-call signature (its first argument, the handle, is
 * the keep-alive object or NULL and should be ignored). */
static PyObject *Function_from_extern_c(PyObject *cls, PyObject *const *args, Py_ssize_t nargs,
                                        PyObject *kwnames) {
  tvmffi_py_state *st = tvmffi_py_state_of_subtype((PyTypeObject *)cls);
  void *symbol;
  PyObject *keep;
  TVMFFIObjectHandle h = NULL;
  int rc;
  if (st == NULL) return NULL;
  if (foreign_symbol_args("__from_extern_c__", 0, args, nargs, kwnames, &symbol, &keep) != 0) {
    return NULL;
  }
  if (keep == Py_None) {
    rc = TVMFFIFunctionCreate(NULL, (TVMFFISafeCallType)symbol, NULL, &h);
  } else {
    rc = TVMFFIFunctionCreate(Py_NewRef(keep), (TVMFFISafeCallType)symbol,
                              tvmffi_py_release_pyobject, &h);
    if (rc != 0) Py_DECREF(keep); /* the library does not call the deleter on failure */
  }
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return tvmffi_py_function_wrap(st, h);
}

/* MLIR's packed calling convention: one array of pointers to the arguments
 * and results, here (handle, args, num_args, result, return code). */
typedef void (*tvmffi_py_mlir_packed_fn)(void **);

typedef struct {
  tvmffi_py_mlir_packed_fn fn;
  PyObject *keep; /* owned, or NULL */
} mlir_closure;

static int mlir_closure_call(void *self, const TVMFFIAny *args, int32_t num_args,
                             TVMFFIAny *result) {
  mlir_closure *c = (mlir_closure *)self;
  void *handle = self;
  int rc = 0;
  void *packed[5];
  packed[0] = &handle;
  packed[1] = (void *)&args;
  packed[2] = &num_args;
  packed[3] = &result;
  packed[4] = &rc;
  c->fn(packed);
  return rc;
}

static void mlir_closure_free(void *self) {
  mlir_closure *c = (mlir_closure *)self;
  tvmffi_py_release_pyobject(c->keep);
  free(c);
}

/* Function.__from_mlir_packed_safe_call__(mlir_packed_symbol, keep_alive_object=None). */
static PyObject *Function_from_mlir_packed(PyObject *cls, PyObject *const *args,
                                           Py_ssize_t nargs, PyObject *kwnames) {
  tvmffi_py_state *st = tvmffi_py_state_of_subtype((PyTypeObject *)cls);
  void *symbol;
  PyObject *keep;
  mlir_closure *c;
  TVMFFIObjectHandle h = NULL;
  int rc;
  if (st == NULL) return NULL;
  if (foreign_symbol_args("__from_mlir_packed_safe_call__", 1, args, nargs, kwnames, &symbol,
                          &keep) != 0) {
    return NULL;
  }
  c = (mlir_closure *)malloc(sizeof(*c));
  if (c == NULL) return PyErr_NoMemory();
  c->fn = (tvmffi_py_mlir_packed_fn)symbol;
  c->keep = keep == Py_None ? NULL : Py_NewRef(keep);
  rc = TVMFFIFunctionCreate(c, mlir_closure_call, mlir_closure_free, &h);
  if (rc != 0) {
    Py_XDECREF(c->keep); /* the library does not call the deleter on failure */
    free(c);
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return tvmffi_py_function_wrap(st, h);
}

static PyMethodDef Function_methods[] = {
    {"__from_extern_c__", TVMFFI_PY_METH(Function_from_extern_c),
     METH_CLASS | METH_FASTCALL | METH_KEYWORDS,
     "__from_extern_c__(c_symbol, *, keep_alive_object=None)\n--\n\n"
     "A Function calling the C function at address c_symbol, which has the "
     "safe-call signature and ignores its first argument. keep_alive_object "
     "(say, the JIT engine that made the code) lives as long as the Function."},
    {"__from_mlir_packed_safe_call__", TVMFFI_PY_METH(Function_from_mlir_packed),
     METH_CLASS | METH_FASTCALL | METH_KEYWORDS,
     "__from_mlir_packed_safe_call__(mlir_packed_symbol, keep_alive_object=None)\n--\n\n"
     "A Function calling a safe-call function compiled by MLIR with its packed "
     "interface: one void** array pointing at (handle, args, num_args, result, "
     "return code)."},
    {NULL, NULL, 0, NULL}};

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
    {Py_tp_methods, Function_methods},
    {Py_tp_doc, "An FFI function. Calls convert their arguments and result (positional only)."},
    {0, NULL}};

static PyType_Spec Function_spec = {
    .name = "tvm_ffi.core.Function",
    .basicsize = sizeof(tvmffi_py_function),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
             Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Function_slots,
};

/* ---- module functions of this file -------------------------------------------- */

/* A new reference to an FFI function for f (a Function, or any callable). */
static int function_handle_of(tvmffi_py_state *st, PyObject *f, TVMFFIObjectHandle *out) {
  if (PyObject_TypeCheck(f, st->function_type)) {
    *out = ((tvmffi_py_object *)f)->handle;
    TVMFFIObjectIncRef(*out);
    return 0;
  }
  if (!PyCallable_Check(f)) {
    PyErr_Format(PyExc_TypeError, "expected a callable, got %R", f);
    return -1;
  }
  return tvmffi_py_callable_to_function(st->module, f, out);
}

/* _get_global_func(name) -> Function | None */
static PyObject *mod_get_global_func(PyObject *module, PyObject *name) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIByteArray n;
  TVMFFIObjectHandle h = NULL;
  int rc;
  if (tvmffi_py_str_to_bytearray(name, &n) != 0) return NULL;
  rc = TVMFFIFunctionGetGlobal(&n, &h);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  if (h == NULL) Py_RETURN_NONE;
  return tvmffi_py_function_wrap(st, h);
}

/* _register_global_func(name, f, override) -> Function */
static PyObject *mod_register_global_func(PyObject *module, PyObject *const *args,
                                          Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIByteArray n;
  TVMFFIObjectHandle h;
  int override, rc;
  if (tvmffi_py_check_nargs("_register_global_func", nargs, 3, 3) != 0) return NULL;
  if (tvmffi_py_str_to_bytearray(args[0], &n) != 0) return NULL;
  override = PyObject_IsTrue(args[2]);
  if (override < 0) return NULL;
  if (function_handle_of(st, args[1], &h) != 0) return NULL;
  rc = TVMFFIFunctionSetGlobal(&n, h, override);
  if (rc != 0) {
    TVMFFIObjectDecRef(h);
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  if (PyObject_TypeCheck(args[1], st->function_type)) {
    TVMFFIObjectDecRef(h);
    return Py_NewRef(args[1]);
  }
  return tvmffi_py_function_wrap(st, h);
}

/* _convert_to_ffi_func(callable, tensor_cls=None) -> Function.  With
 * tensor_cls, tensor arguments reach the callable as tensor_cls instances,
 * made through the class's DLPack C exchange API. */
static PyObject *mod_convert_to_ffi_func(PyObject *module, PyObject *const *args,
                                         Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  PyObject *f, *tensor_cls, *owner = NULL;
  const DLPackExchangeAPI *api = NULL;
  TVMFFIObjectHandle h;
  int rc;
  if (tvmffi_py_check_nargs("_convert_to_ffi_func", nargs, 1, 2) != 0) return NULL;
  f = args[0];
  tensor_cls = nargs == 2 ? args[1] : Py_None;
  if (tensor_cls == Py_None) {
    if (PyObject_TypeCheck(f, st->function_type)) return Py_NewRef(f);
    if (function_handle_of(st, f, &h) != 0) return NULL;
    return tvmffi_py_function_wrap(st, h);
  }
  if (!PyType_Check(tensor_cls)) {
    PyErr_Format(PyExc_TypeError, "tensor_cls must be a class, got %R", tensor_cls);
    return NULL;
  }
  if (tvmffi_py_exchange_lookup(st, (PyTypeObject *)tensor_cls, &api, &owner) < 0) return NULL;
  if (api == NULL || api->managed_tensor_to_py_object_no_sync == NULL) {
    Py_XDECREF(owner);
    PyErr_Format(PyExc_TypeError,
                 "tensor_cls %R has no __dlpack_c_exchange_api__ that makes tensors "
                 "(managed_tensor_to_py_object_no_sync)",
                 tensor_cls);
    return NULL;
  }
  if (!PyCallable_Check(f)) {
    Py_XDECREF(owner);
    PyErr_Format(PyExc_TypeError, "convert_func needs a callable, got %R", f);
    return NULL;
  }
  rc = tvmffi_py_callable_to_function_ex(module, f, api, owner, &h);
  Py_XDECREF(owner);
  if (rc != 0) return NULL;
  return tvmffi_py_function_wrap(st, h);
}

/* _set_release_gil_default(flag) */
static PyObject *mod_set_release_gil_default(PyObject *module, PyObject *flag) {
  int v = PyObject_IsTrue(flag);
  if (v < 0) return NULL;
  tvmffi_py_module_state(module)->release_gil_default = v;
  Py_RETURN_NONE;
}

static PyObject *mod_get_release_gil_default(PyObject *module, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(tvmffi_py_module_state(module)->release_gil_default);
}

static PyMethodDef function_functions[] = {
    {"_get_global_func", mod_get_global_func, METH_O, NULL},
    {"_register_global_func", TVMFFI_PY_METH(mod_register_global_func), METH_FASTCALL, NULL},
    {"_convert_to_ffi_func", TVMFFI_PY_METH(mod_convert_to_ffi_func), METH_FASTCALL, NULL},
    {"_set_release_gil_default", mod_set_release_gil_default, METH_O, NULL},
    {"_get_release_gil_default", mod_get_release_gil_default, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_function(PyObject *module, tvmffi_py_state *st) {
  st->function_type = tvmffi_py_add_type(module, &Function_spec, st->object_type);
  if (st->function_type == NULL) return -1;
  st->function_alloc = (allocfunc)PyType_GetSlot(st->function_type, Py_tp_alloc);
  if (PyModule_AddFunctions(module, function_functions) != 0) return -1;
  return tvmffi_py_register_class(st, kTVMFFIFunction, (PyObject *)st->function_type);
}

/* module.c: tvm_ffi.core, the module object, its state and its functions.
 *
 * In Python terms the module is roughly:
 *
 *   class Object:            # one strong reference to an FFI object
 *       def __chandle__(self) -> int; def same_as(self, other) -> bool
 *       def __init_handle_by_constructor__(self, fconstructor, *args) -> None
 *   class Function(Object):  # vectorcall; release_gil property; has __dict__
 *       def __call__(self, *args): convert args; TVMFFIFunctionCall; convert result
 *   class Device: ...        # DLDevice: type, index, dlpack_device_type()
 *   class DataType: ...      # DLDataType: type_code, bits, lanes
 *   ERROR_NAME_TO_TYPE: dict; ERROR_TYPE_TO_NAME: dict
 *   def _get_global_func(name) -> Function | None
 *   def _register_global_func(name, f, override) -> Function
 *   ... and the private helpers below, used by the pure-Python layer.
 */
#include "pyshim.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define METH_FN(f) ((PyCFunction)(void (*)(void))(f))

tvmffi_py_state *tvmffi_py_state_of_type(PyTypeObject *tp) { return PyType_GetModuleState(tp); }

static tvmffi_py_state *state_of(PyObject *module) {
  return (tvmffi_py_state *)PyModule_GetState(module);
}

static int check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t lo, Py_ssize_t hi) {
  if (nargs < lo || nargs > hi) {
    if (lo == hi) {
      PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, lo, nargs);
    } else {
      PyErr_Format(PyExc_TypeError, "%s() takes %zd to %zd arguments (%zd given)", name, lo, hi,
                   nargs);
    }
    return -1;
  }
  return 0;
}

static int str_to_bytearray(PyObject *s, TVMFFIByteArray *out) {
  Py_ssize_t n;
  if (!PyUnicode_Check(s)) {
    PyErr_Format(PyExc_TypeError, "expected a str, got %R", s);
    return -1;
  }
  out->data = PyUnicode_AsUTF8AndSize(s, &n);
  if (out->data == NULL) return -1;
  out->size = (size_t)n;
  return 0;
}

static TVMFFIObjectHandle handle_of(tvmffi_py_state *st, PyObject *obj) {
  if (!PyObject_TypeCheck(obj, st->object_type) || ((tvmffi_py_object *)obj)->handle == NULL) {
    PyErr_Format(PyExc_TypeError, "expected an FFI object, got %R", obj);
    return NULL;
  }
  return ((tvmffi_py_object *)obj)->handle;
}

/* _get_global_func(name) -> Function | None */
static PyObject *mod_get_global_func(PyObject *module, PyObject *name) {
  tvmffi_py_state *st = state_of(module);
  TVMFFIByteArray n;
  TVMFFIObjectHandle h = NULL;
  int rc;
  if (str_to_bytearray(name, &n) != 0) return NULL;
  rc = TVMFFIFunctionGetGlobal(&n, &h);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  if (h == NULL) Py_RETURN_NONE;
  return tvmffi_py_function_wrap(st, h);
}

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

/* _register_global_func(name, f, override) -> Function */
static PyObject *mod_register_global_func(PyObject *module, PyObject *const *args,
                                          Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  TVMFFIByteArray n;
  TVMFFIObjectHandle h;
  int override, rc;
  if (check_nargs("_register_global_func", nargs, 3, 3) != 0) return NULL;
  if (str_to_bytearray(args[0], &n) != 0) return NULL;
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

/* _convert_to_ffi_func(callable) -> Function */
static PyObject *mod_convert_to_ffi_func(PyObject *module, PyObject *f) {
  tvmffi_py_state *st = state_of(module);
  TVMFFIObjectHandle h;
  if (PyObject_TypeCheck(f, st->function_type)) return Py_NewRef(f);
  if (function_handle_of(st, f, &h) != 0) return NULL;
  return tvmffi_py_function_wrap(st, h);
}

/* _convert(value): the FFI value of a Python value, as Python sees FFI values;
 * objects (including ffi.OpaquePyObject) stay wrapped. */
static PyObject *mod_convert(PyObject *module, PyObject *value) {
  tvmffi_py_state *st = state_of(module);
  TVMFFIAny v;
  if (tvmffi_py_to_owned_any(st, value, &v) != 0) return NULL;
  if (v.type_index >= kTVMFFIStaticObjectBegin && v.type_index != kTVMFFIStr &&
      v.type_index != kTVMFFIBytes && v.type_index != kTVMFFIShape) {
    return tvmffi_py_object_wrap(st, v.v_obj);
  }
  return tvmffi_py_from_any(st, &v);
}

/* _register_object(type_index, cls) */
static PyObject *mod_register_object(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  int32_t index;
  if (check_nargs("_register_object", nargs, 2, 2) != 0) return NULL;
  if (tvmffi_py_as_int32(args[0], "type index", &index) != 0) return NULL;
  if (!PyType_Check(args[1]) || !PyType_IsSubtype((PyTypeObject *)args[1], st->object_type)) {
    PyErr_Format(PyExc_TypeError, "%R is not a subclass of tvm_ffi.Object", args[1]);
    return NULL;
  }
  if (tvmffi_py_register_class(st, index, args[1]) != 0) return NULL;
  Py_RETURN_NONE;
}

/* _type_key_to_index(key) -> int (KeyError-kind FFI error when unknown) */
static PyObject *mod_type_key_to_index(PyObject *module, PyObject *key) {
  tvmffi_py_state *st = state_of(module);
  TVMFFIByteArray k;
  int32_t index;
  int rc;
  if (str_to_bytearray(key, &k) != 0) return NULL;
  rc = TVMFFITypeKeyToIndex(&k, &index);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return PyLong_FromLong(index);
}

static const TVMFFITypeInfo *type_info_of(tvmffi_py_state *st, PyObject *index_obj) {
  int32_t index;
  const TVMFFITypeInfo *info;
  if (tvmffi_py_as_int32(index_obj, "type index", &index) != 0) return NULL;
  info = TVMFFIGetTypeInfo(index);
  if (info == NULL) tvmffi_py_raise_from_ffi(st, -1);
  return info;
}

static PyObject *bytes_str(const TVMFFIByteArray *b) {
  return PyUnicode_DecodeUTF8(b->size ? b->data : "", (Py_ssize_t)b->size, "replace");
}

/* _type_info(index) -> (type_key, [ancestor indices], [(name, doc, flags, static_type)],
 *                      [(name, doc, flags, Function)]) */
static PyObject *mod_type_info(PyObject *module, PyObject *index_obj) {
  tvmffi_py_state *st = state_of(module);
  const TVMFFITypeInfo *info = type_info_of(st, index_obj);
  PyObject *ancestors = NULL, *fields = NULL, *methods = NULL, *res = NULL;
  int32_t i, num_fields, num_methods;
  const TVMFFIFieldInfo *field_data;
  const TVMFFIMethodInfo *method_data;
  if (info == NULL) return NULL;
  /* Fields and methods may be registered meanwhile by another thread: count
   * first, then the array, both with acquire order (core/type_registry.cc). */
  num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  field_data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  num_methods = __atomic_load_n(&info->num_methods, __ATOMIC_ACQUIRE);
  method_data = __atomic_load_n(&info->methods, __ATOMIC_ACQUIRE);
  ancestors = PyList_New(info->type_depth);
  fields = PyList_New(num_fields);
  methods = PyList_New(num_methods);
  if (ancestors == NULL || fields == NULL || methods == NULL) goto done;
  for (i = 0; i < info->type_depth; ++i) {
    PyObject *v = PyLong_FromLong(info->type_ancestors[i]->type_index);
    if (v == NULL) goto done;
    PyList_SetItem(ancestors, i, v);
  }
  for (i = 0; i < num_fields; ++i) {
    const TVMFFIFieldInfo *f = &field_data[i];
    PyObject *t = Py_BuildValue("(NNLi)", bytes_str(&f->name), bytes_str(&f->doc),
                                (long long)f->flags, (int)f->field_static_type_index);
    if (t == NULL) goto done;
    PyList_SetItem(fields, i, t);
  }
  for (i = 0; i < num_methods; ++i) {
    const TVMFFIMethodInfo *m = &method_data[i];
    PyObject *fn, *t;
    TVMFFIAny owned;
    memset(&owned, 0, sizeof(owned));
    if (TVMFFIAnyViewToOwnedAny(&m->method, &owned) != 0) {
      tvmffi_py_raise_from_ffi(st, -1);
      goto done;
    }
    fn = tvmffi_py_from_any(st, &owned);
    if (fn == NULL) goto done;
    t = Py_BuildValue("(NNLN)", bytes_str(&m->name), bytes_str(&m->doc), (long long)m->flags, fn);
    if (t == NULL) goto done;
    PyList_SetItem(methods, i, t);
  }
  res = Py_BuildValue("(NOOO)", bytes_str(&info->type_key), ancestors, fields, methods);
done:
  Py_XDECREF(ancestors);
  Py_XDECREF(fields);
  Py_XDECREF(methods);
  return res;
}

static const TVMFFIFieldInfo *field_of(tvmffi_py_state *st, PyObject *obj, PyObject *index_obj,
                                       PyObject *field_obj, TVMFFIObjectHandle *h) {
  const TVMFFITypeInfo *info;
  long fi;
  *h = handle_of(st, obj);
  if (*h == NULL) return NULL;
  info = type_info_of(st, index_obj);
  if (info == NULL) return NULL;
  fi = PyLong_AsLong(field_obj);
  if (fi == -1 && PyErr_Occurred()) return NULL;
  if (fi < 0 || fi >= __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE)) {
    PyErr_Format(PyExc_IndexError, "field %ld out of range", fi);
    return NULL;
  }
  return &__atomic_load_n(&info->fields, __ATOMIC_ACQUIRE)[fi];
}

/* _field_get(obj, type_index, field_index) */
static PyObject *mod_field_get(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  const TVMFFIFieldInfo *f;
  TVMFFIObjectHandle h;
  TVMFFIAny out;
  int rc;
  if (check_nargs("_field_get", nargs, 3, 3) != 0) return NULL;
  f = field_of(st, args[0], args[1], args[2], &h);
  if (f == NULL) return NULL;
  if (f->getter == NULL) {
    PyErr_SetString(PyExc_AttributeError, "field has no getter");
    return NULL;
  }
  memset(&out, 0, sizeof(out));
  rc = f->getter((char *)h + f->offset, &out);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return tvmffi_py_from_any(st, &out);
}

/* _field_set(obj, type_index, field_index, value) */
static PyObject *mod_field_set(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  const TVMFFIFieldInfo *f;
  TVMFFIObjectHandle h;
  TVMFFIAny value;
  tvmffi_py_temps temps;
  int rc;
  if (check_nargs("_field_set", nargs, 4, 4) != 0) return NULL;
  f = field_of(st, args[0], args[1], args[2], &h);
  if (f == NULL) return NULL;
  if (f->setter == NULL) {
    PyErr_SetString(PyExc_AttributeError, "field is read-only");
    return NULL;
  }
  tvmffi_py_temps_init(&temps);
  if (tvmffi_py_to_any(st, args[3], &value, &temps) != 0) {
    tvmffi_py_temps_release(&temps);
    return NULL;
  }
  if (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny cargs[2], result;
    memset(cargs, 0, sizeof(cargs));
    cargs[0].type_index = kTVMFFIOpaquePtr;
    cargs[0].v_ptr = (char *)h + f->offset;
    cargs[1] = value;
    memset(&result, 0, sizeof(result));
    rc = TVMFFIFunctionCall((TVMFFIObjectHandle)f->setter, cargs, 2, &result);
    if (rc == 0 && result.type_index >= kTVMFFIStaticObjectBegin) {
      TVMFFIObjectDecRef(result.v_obj);
    }
  } else {
    rc = ((TVMFFIFieldSetter)f->setter)((char *)h + f->offset, &value);
  }
  tvmffi_py_temps_release(&temps);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _set_class(kind, cls): "dtype" or "shape". */
static PyObject *mod_set_class(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  PyObject **slot;
  const char *kind;
  if (check_nargs("_set_class", nargs, 2, 2) != 0) return NULL;
  kind = PyUnicode_AsUTF8AndSize(args[0], NULL);
  if (kind == NULL) return NULL;
  if (strcmp(kind, "dtype") == 0) {
    slot = &st->dtype_cls;
  } else if (strcmp(kind, "shape") == 0) {
    slot = &st->shape_cls;
  } else {
    PyErr_Format(PyExc_ValueError, "unknown class kind %R", args[0]);
    return NULL;
  }
  {
    PyObject *old = *slot;
    *slot = args[1] == Py_None ? NULL : Py_NewRef(args[1]);
    Py_XDECREF(old);
  }
  Py_RETURN_NONE;
}

/* _set_release_gil_default(flag) */
static PyObject *mod_set_release_gil_default(PyObject *module, PyObject *flag) {
  int v = PyObject_IsTrue(flag);
  if (v < 0) return NULL;
  state_of(module)->release_gil_default = v;
  Py_RETURN_NONE;
}

static PyObject *mod_get_release_gil_default(PyObject *module, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(state_of(module)->release_gil_default);
}

/* _set_finalizing(): called at exit.  Drops the Python callables held by FFI
 * functions, and from then on FFI deleters running on other threads leak
 * their Python references instead of waiting for the GIL. */
static PyObject *mod_set_finalizing(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  tvmffi_py_finalizing_thread = PyThread_get_thread_ident();
  tvmffi_py_finalizing = 1;
  tvmffi_py_drop_callables();
  Py_RETURN_NONE;
}

/* _libtvm_ffi_path() -> str: the file libtvm_ffi was loaded from. */
static PyObject *mod_libtvm_ffi_path(PyObject *module, PyObject *unused) {
  Dl_info info;
  (void)module;
  (void)unused;
  if (dladdr((void *)TVMFFIGetVersion, &info) == 0 || info.dli_fname == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "cannot locate libtvm_ffi");
    return NULL;
  }
  return PyUnicode_DecodeFSDefault(info.dli_fname);
}

static TVMFFISeqCell *seq_cell_of(tvmffi_py_state *st, PyObject *obj) {
  TVMFFIObjectHandle h = handle_of(st, obj);
  int32_t ti;
  if (h == NULL) return NULL;
  ti = TVMFFIObjectGetTypeIndex(h);
  if (ti != kTVMFFIArray && ti != kTVMFFIList) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Array or ffi.List, got %R", obj);
    return NULL;
  }
  return TVMFFISeqGetCellPtr(h);
}

/* _seq_size(obj) -> int */
static PyObject *mod_seq_size(PyObject *module, PyObject *obj) {
  TVMFFISeqCell *cell = seq_cell_of(state_of(module), obj);
  if (cell == NULL) return NULL;
  return PyLong_FromLongLong(cell->size);
}

/* _seq_getitem(obj, i): negative i counts from the end. */
static PyObject *mod_seq_getitem(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  TVMFFISeqCell *cell;
  long long i;
  TVMFFIAny v;
  if (check_nargs("_seq_getitem", nargs, 2, 2) != 0) return NULL;
  cell = seq_cell_of(st, args[0]);
  if (cell == NULL) return NULL;
  i = PyLong_AsLongLong(args[1]);
  if (i == -1 && PyErr_Occurred()) return NULL;
  if (i < 0) i += cell->size;
  if (i < 0 || i >= cell->size) {
    PyErr_Format(PyExc_IndexError, "index %R out of range for %s of size %lld", args[1],
                 TVMFFIObjectGetTypeIndex(((tvmffi_py_object *)args[0])->handle) == kTVMFFIList
                     ? "List"
                     : "Array",
                 (long long)cell->size);
    return NULL;
  }
  v = ((const TVMFFIAny *)cell->data)[i];
  return tvmffi_py_from_view(st, &v);
}

/* _error_info(err) -> (kind, message, backtrace) */
static PyObject *mod_error_info(PyObject *module, PyObject *obj) {
  TVMFFIObjectHandle h = handle_of(state_of(module), obj);
  TVMFFIErrorCell *cell;
  if (h == NULL) return NULL;
  if (TVMFFIObjectGetTypeIndex(h) != kTVMFFIError) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Error, got %R", obj);
    return NULL;
  }
  cell = TVMFFIErrorGetCellPtr(h);
  return Py_BuildValue("(NNN)", bytes_str(&cell->kind), bytes_str(&cell->message),
                       bytes_str(&cell->backtrace));
}

/* _opaque_pyobject(obj) -> the Python object an ffi.OpaquePyObject holds */
static PyObject *mod_opaque_pyobject(PyObject *module, PyObject *obj) {
  TVMFFIObjectHandle h = handle_of(state_of(module), obj);
  if (h == NULL) return NULL;
  if (TVMFFIObjectGetTypeIndex(h) != kTVMFFIOpaquePyObject) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.OpaquePyObject, got %R", obj);
    return NULL;
  }
  return Py_NewRef((PyObject *)TVMFFIOpaqueObjectGetCellPtr(h)->handle);
}

/* _object_use_count(obj) -> strong reference count of the FFI object */
static PyObject *mod_object_use_count(PyObject *module, PyObject *obj) {
  TVMFFIObjectHandle h = handle_of(state_of(module), obj);
  uint64_t c;
  if (h == NULL) return NULL;
  c = __atomic_load_n(&((TVMFFIObject *)h)->combined_ref_count, __ATOMIC_RELAXED);
  return PyLong_FromUnsignedLongLong(c & 0xffffffffu);
}

/* _init_handle_from_iterable(self, fconstructor, iterable): like
 * self.__init_handle_by_constructor__(fconstructor, *iterable), without
 * building an argument tuple in Python. */
static PyObject *mod_init_handle_from_iterable(PyObject *module, PyObject *const *args,
                                               Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  PyObject *tuple;
  TVMFFIAny result;
  TVMFFIObjectHandle old;
  int rc;
  if (check_nargs("_init_handle_from_iterable", nargs, 3, 3) != 0) return NULL;
  if (!PyObject_TypeCheck(args[0], st->object_type)) {
    PyErr_Format(PyExc_TypeError, "expected a tvm_ffi.Object, got %R", args[0]);
    return NULL;
  }
  if (!PyObject_TypeCheck(args[1], st->function_type)) {
    PyErr_Format(PyExc_TypeError, "the constructor must be a tvm_ffi.Function, got %R", args[1]);
    return NULL;
  }
  if (PyTuple_CheckExact(args[2]) || PyList_CheckExact(args[2])) {
    tuple = Py_NewRef(args[2]);
  } else {
    tuple = PySequence_Tuple(args[2]);
  }
  if (tuple == NULL) return NULL;
  rc = tvmffi_py_call_with_tuple(st, ((tvmffi_py_object *)args[1])->handle, tuple, &result);
  Py_DECREF(tuple);
  if (rc != 0) return NULL;
  if (result.type_index < kTVMFFIStaticObjectBegin) {
    PyObject *v = tvmffi_py_from_any(st, &result);
    PyErr_Format(PyExc_TypeError, "the constructor returned %R, not an FFI object", v);
    Py_XDECREF(v);
    return NULL;
  }
  old = ((tvmffi_py_object *)args[0])->handle;
  ((tvmffi_py_object *)args[0])->handle = result.v_obj;
  TVMFFIObjectDecRef(old);
  Py_RETURN_NONE;
}

/* _register_error(kind, cls) */
static PyObject *mod_register_error(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = state_of(module);
  if (check_nargs("_register_error", nargs, 2, 2) != 0) return NULL;
  if (!PyUnicode_Check(args[0])) {
    PyErr_Format(PyExc_TypeError, "an error kind must be a str, got %R", args[0]);
    return NULL;
  }
  if (!PyType_Check(args[1]) ||
      !PyType_IsSubtype((PyTypeObject *)args[1], (PyTypeObject *)PyExc_BaseException)) {
    PyErr_Format(PyExc_TypeError, "%R is not an exception class", args[1]);
    return NULL;
  }
  if (PyDict_SetItem(st->error_name_to_type, args[0], args[1]) != 0 ||
      PyDict_SetItem(st->error_type_to_name, args[1], args[0]) != 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _datatype_from_triple(code, bits, lanes) -> DataType */
static PyObject *mod_datatype_from_triple(PyObject *module, PyObject *const *args,
                                          Py_ssize_t nargs) {
  DLDataType dt;
  long v[3];
  int i;
  if (check_nargs("_datatype_from_triple", nargs, 3, 3) != 0) return NULL;
  for (i = 0; i < 3; ++i) {
    v[i] = PyLong_AsLong(args[i]);
    if (v[i] == -1 && PyErr_Occurred()) return NULL;
  }
  if (v[0] < 0 || v[0] > 255 || v[1] < 0 || v[1] > 255 || v[2] < -32768 || v[2] > 65535) {
    PyErr_Format(PyExc_ValueError, "invalid dtype (%ld, %ld, %ld)", v[0], v[1], v[2]);
    return NULL;
  }
  dt.code = (uint8_t)v[0];
  dt.bits = (uint8_t)v[1];
  dt.lanes = (uint16_t)v[2];
  return tvmffi_py_datatype_new(state_of(module), dt);
}

static PyMethodDef module_methods[] = {
    {"_get_global_func", mod_get_global_func, METH_O, NULL},
    {"_register_global_func", METH_FN(mod_register_global_func), METH_FASTCALL, NULL},
    {"_convert_to_ffi_func", mod_convert_to_ffi_func, METH_O, NULL},
    {"_convert", mod_convert, METH_O, NULL},
    {"_register_object", METH_FN(mod_register_object), METH_FASTCALL, NULL},
    {"_type_key_to_index", mod_type_key_to_index, METH_O, NULL},
    {"_type_info", mod_type_info, METH_O, NULL},
    {"_field_get", METH_FN(mod_field_get), METH_FASTCALL, NULL},
    {"_field_set", METH_FN(mod_field_set), METH_FASTCALL, NULL},
    {"_set_class", METH_FN(mod_set_class), METH_FASTCALL, NULL},
    {"_set_release_gil_default", mod_set_release_gil_default, METH_O, NULL},
    {"_get_release_gil_default", mod_get_release_gil_default, METH_NOARGS, NULL},
    {"_set_finalizing", mod_set_finalizing, METH_NOARGS, NULL},
    {"_libtvm_ffi_path", mod_libtvm_ffi_path, METH_NOARGS, NULL},
    {"_seq_size", mod_seq_size, METH_O, NULL},
    {"_seq_getitem", METH_FN(mod_seq_getitem), METH_FASTCALL, NULL},
    {"_error_info", mod_error_info, METH_O, NULL},
    {"_opaque_pyobject", mod_opaque_pyobject, METH_O, NULL},
    {"_object_use_count", mod_object_use_count, METH_O, NULL},
    {"_register_error", METH_FN(mod_register_error), METH_FASTCALL, NULL},
    {"_init_handle_from_iterable", METH_FN(mod_init_handle_from_iterable), METH_FASTCALL, NULL},
    {"_datatype_from_triple", METH_FN(mod_datatype_from_triple), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

/* ---- state lifecycle ------------------------------------------------------------ */

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
  tvmffi_py_state *st = state_of(module);
  Py_ssize_t i;
  if (st == NULL) return 0;
  Py_VISIT(st->object_type);
  Py_VISIT(st->function_type);
  Py_VISIT(st->device_type);
  Py_VISIT(st->datatype_type);
  Py_VISIT(st->array_base_type);
  for (i = 0; i < st->num_classes; ++i) Py_VISIT(st->classes[i]);
  Py_VISIT(st->error_name_to_type);
  Py_VISIT(st->error_type_to_name);
  Py_VISIT(st->dtype_cls);
  Py_VISIT(st->shape_cls);
  Py_VISIT(st->c_void_p);
  {
    int r = tvmffi_py_tensor_traverse(st, visit, arg);
    if (r != 0) return r;
  }
  return 0;
}

static int module_clear(PyObject *module) {
  tvmffi_py_state *st = state_of(module);
  Py_ssize_t i;
  if (st == NULL) return 0;
  for (i = 0; i < st->num_classes; ++i) {
    st->resolved[i] = NULL;
    Py_CLEAR(st->classes[i]);
  }
  Py_CLEAR(st->object_type);
  Py_CLEAR(st->function_type);
  Py_CLEAR(st->device_type);
  Py_CLEAR(st->datatype_type);
  Py_CLEAR(st->array_base_type);
  Py_CLEAR(st->error_name_to_type);
  Py_CLEAR(st->error_type_to_name);
  Py_CLEAR(st->dtype_cls);
  Py_CLEAR(st->shape_cls);
  Py_CLEAR(st->c_void_p);
  tvmffi_py_tensor_clear(st);
  Py_CLEAR(st->str_ffi_error);
  Py_CLEAR(st->str_value);
  Py_CLEAR(st->str_dtype_slot);
  Py_CLEAR(st->str_cached);
  Py_CLEAR(st->str_dlpack);
  Py_CLEAR(st->str_ffi_object);
  Py_CLEAR(st->str_name);
  return 0;
}

static void module_free(void *module) {
  tvmffi_py_state *st = state_of((PyObject *)module);
  if (st == NULL) return;
  module_clear((PyObject *)module);
  PyMem_Free(st->classes);
  PyMem_Free(st->resolved);
  st->classes = st->resolved = NULL;
  st->num_classes = 0;
  TVMFFIObjectDecRef(st->fn_map);
  TVMFFIObjectDecRef(st->fn_shape);
  st->fn_map = st->fn_shape = NULL;
}

static int intern(PyObject **slot, const char *s) {
  *slot = PyUnicode_InternFromString(s);
  return *slot == NULL ? -1 : 0;
}

static int module_exec(PyObject *module) {
  tvmffi_py_state *st = state_of(module);
  PyObject *ctypes;
  TVMFFIVersion version;
  st->module = module;
  TVMFFIGetVersion(&version);
  if (version.major != TVM_FFI_VERSION_MAJOR || version.minor < TVM_FFI_VERSION_MINOR) {
    PyErr_Format(PyExc_ImportError,
                 "libtvm_ffi %u.%u.%u is not compatible with tvm_ffi.core built for %d.%d.%d",
                 version.major, version.minor, version.patch, TVM_FFI_VERSION_MAJOR,
                 TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH);
    return -1;
  }
  if (intern(&st->str_ffi_error, "__tvm_ffi_error__") != 0 ||
      intern(&st->str_value, "value") != 0 ||
      intern(&st->str_dtype_slot, "_tvm_ffi_dtype") != 0 ||
      intern(&st->str_cached, "_tvm_ffi_cached_object") != 0 ||
      intern(&st->str_dlpack, "__dlpack__") != 0 ||
      intern(&st->str_ffi_object, "__tvm_ffi_object__") != 0 ||
      intern(&st->str_name, "__name__") != 0) {
    return -1;
  }
  ctypes = PyImport_ImportModule("ctypes");
  if (ctypes == NULL) return -1;
  st->c_void_p = PyObject_GetAttrString(ctypes, "c_void_p");
  Py_DECREF(ctypes);
  if (st->c_void_p == NULL) return -1;
  if (tvmffi_py_init_object(module, st) != 0 || tvmffi_py_init_function(module, st) != 0 ||
      tvmffi_py_init_container(module, st) != 0 ||
      tvmffi_py_init_device(module, st) != 0 || tvmffi_py_init_error(module, st) != 0 ||
      tvmffi_py_init_callback(module, st) != 0 || tvmffi_py_init_tensor(module, st) != 0) {
    return -1;
  }
  {
    PyObject *v = Py_BuildValue("(III)", version.major, version.minor, version.patch);
    int rc;
    if (v == NULL) return -1;
    rc = PyModule_AddObjectRef(module, "__ffi_version__", v);
    Py_DECREF(v);
    if (rc != 0) return -1;
  }
  return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    /* FFI callbacks take the GIL with PyGILState_Ensure, which serves the main
     * interpreter only; and the FFI registries are process-wide. */
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#ifdef Py_mod_gil
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tvm_ffi.core",
    .m_doc = "The tvm_ffi C extension: calls the tvm-ffi C ABI from Python.",
    .m_size = sizeof(tvmffi_py_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_core(void) { return PyModuleDef_Init(&module_def); }

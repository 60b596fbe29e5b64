/* convert.c: Python values to FFI values (call arguments) and back (results). */
#include "pyshim.h"

#include <string.h>

/* ---- temporaries ---------------------------------------------------------- */

void tvmffi_py_temps_release(tvmffi_py_temps *t) {
  Py_ssize_t i;
  for (i = 0; i < t->num_temps; ++i) TVMFFIObjectDecRef(t->temps[i]);
  if (t->temps != t->inline_temps) PyMem_Free(t->temps);
  tvmffi_py_temps_init(t);
}

/* Takes ownership of h; on failure h is released and a Python error is set. */
int tvmffi_py_temps_add(tvmffi_py_temps *t, TVMFFIObjectHandle h) {
  if (t->num_temps == t->cap_temps) {
    Py_ssize_t cap = t->cap_temps * 2;
    TVMFFIObjectHandle *mem = PyMem_Malloc(sizeof(TVMFFIObjectHandle) * (size_t)cap);
    if (mem == NULL) {
      TVMFFIObjectDecRef(h);
      PyErr_NoMemory();
      return -1;
    }
    memcpy(mem, t->temps, sizeof(TVMFFIObjectHandle) * (size_t)t->num_temps);
    if (t->temps != t->inline_temps) PyMem_Free(t->temps);
    t->temps = mem;
    t->cap_temps = cap;
  }
  t->temps[t->num_temps++] = h;
  return 0;
}

static void set_object(TVMFFIAny *out, TVMFFIObjectHandle h) {
  out->type_index = TVMFFIObjectGetTypeIndex(h);
  out->v_obj = (TVMFFIObject *)h;
}

/* ---- Python -> FFI ----------------------------------------------------------- */

static int int_to_any(PyObject *obj, TVMFFIAny *out) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow != 0) {
    PyErr_Format(PyExc_OverflowError, "int %R does not fit in the 64-bit signed integer of an FFI value",
                 obj);
    return -1;
  }
  if (v == -1 && PyErr_Occurred()) return -1;
  out->type_index = kTVMFFIInt;
  out->v_int64 = (int64_t)v;
  return 0;
}

int tvmffi_py_str_to_any(PyObject *obj, TVMFFIAny *out, tvmffi_py_temps *temps) {
  Py_ssize_t size;
  const char *data = PyUnicode_AsUTF8AndSize(obj, &size);
  if (data == NULL) return -1;
  if (size <= 7) {
    out->type_index = kTVMFFISmallStr;
    out->small_str_len = (uint32_t)size;
    out->v_int64 = 0;
    memcpy(out->v_bytes, data, (size_t)size);
    return 0;
  }
  if (memchr(data, 0, (size_t)size) == NULL) {
    /* The UTF-8 buffer is cached in the str, which outlives the call. */
    out->type_index = kTVMFFIRawStr;
    out->zero_padding = 0;
    out->v_c_str = data;
    return 0;
  }
  {
    TVMFFIByteArray bytes = {data, (size_t)size};
    if (TVMFFIStringFromByteArray(&bytes, out) != 0) return -1;
    if (out->type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, out->v_obj);
    return 0;
  }
}

static int bytes_to_any(const char *data, Py_ssize_t size, TVMFFIAny *out,
                        tvmffi_py_temps *temps) {
  TVMFFIByteArray bytes = {data, (size_t)size};
  if (size <= 7) {
    out->type_index = kTVMFFISmallBytes;
    out->small_str_len = (uint32_t)size;
    memcpy(out->v_bytes, data, (size_t)size);
    return 0;
  }
  if (TVMFFIBytesFromByteArray(&bytes, out) != 0) return -1;
  if (out->type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, out->v_obj);
  return 0;
}

static TVMFFIObjectHandle lookup_global(const char *name) {
  TVMFFIByteArray n = {name, strlen(name)};
  TVMFFIObjectHandle h = NULL;
  if (TVMFFIFunctionGetGlobal(&n, &h) != 0) return NULL;
  return h;
}

/* Whether converting obj can run Python code (which could change a list
 * being read): only the exact built-in value types are known not to. */
static int converts_without_python_code(PyObject *obj) {
  PyTypeObject *tp = Py_TYPE(obj);
  return obj == Py_None || tp == &PyLong_Type || tp == &PyFloat_Type || tp == &PyBool_Type ||
         tp == &PyUnicode_Type || tp == &PyBytes_Type;
}

/* Calls f with the items of a tuple or list converted to views; *result is
 * owned.  A list is read in place: items whose conversion may run Python code
 * are held by a new reference while converted, and indices are re-checked, so
 * a list changed meanwhile cannot crash the conversion. */
int tvmffi_py_call_with_tuple(tvmffi_py_state *st, TVMFFIObjectHandle f, PyObject *seq,
                              TVMFFIAny *result) {
  int is_list = PyList_CheckExact(seq);
  Py_ssize_t n = is_list ? PyList_Size(seq) : PyTuple_Size(seq), i;
  TVMFFIAny inline_args[TVMFFI_PY_INLINE_ARGS];
  TVMFFIAny *args = inline_args;
  tvmffi_py_temps inner;
  int rc = -1;
  if (n < 0) return -1;
  if (n > INT32_MAX) {
    PyErr_SetString(PyExc_OverflowError, "too many items for an FFI call");
    return -1;
  }
  if (n > TVMFFI_PY_INLINE_ARGS) {
    args = PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)n);
    if (args == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  tvmffi_py_temps_init(&inner);
  for (i = 0; i < n; ++i) {
    PyObject *item = is_list ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
    int crc;
    if (item == NULL) goto done; /* the list shrank while converting */
    if (!is_list || converts_without_python_code(item)) {
      crc = tvmffi_py_to_any(st, item, &args[i], &inner);
    } else {
      Py_INCREF(item);
      crc = tvmffi_py_to_any(st, item, &args[i], &inner);
      Py_DECREF(item);
    }
    if (crc != 0) goto done;
  }
  memset(result, 0, sizeof(*result));
  rc = TVMFFIFunctionCall(f, args, (int32_t)n, result);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    rc = -1;
  }
done:
  tvmffi_py_temps_release(&inner);
  if (args != inline_args) PyMem_Free(args);
  return rc;
}

/* Calls global `name` (looked up once into *slot) with the items of a tuple;
 * the object it returns is kept alive by temps. */
static int call_with_tuple(tvmffi_py_state *st, TVMFFIObjectHandle *slot, const char *name,
                           PyObject *tuple, TVMFFIAny *out, tvmffi_py_temps *temps) {
  TVMFFIAny result;
  if (*slot == NULL) {
    *slot = lookup_global(name);
    if (*slot == NULL) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_RuntimeError, "global function `%s` is not registered", name);
      }
      return -1;
    }
  }
  if (tvmffi_py_call_with_tuple(st, *slot, tuple, &result) != 0) return -1;
  *out = result;
  if (result.type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, result.v_obj);
  return 0;
}

static int owned_object_to_any(TVMFFIObjectHandle h, TVMFFIAny *out, tvmffi_py_temps *temps);

/* ---- nesting guard ------------------------------------------------------------
 * Lists, tuples and dicts convert recursively (their items become the
 * elements of an ffi.Array or ffi.Map).  Each level passes Python's recursion
 * check, so nesting deeper than the interpreter allows raises RecursionError
 * instead of overflowing the C stack, and is linked on this thread's stack of
 * containers being converted, so a container that contains itself raises
 * ValueError at once.  The frames live on the C stack; the per-thread pointer
 * is only ever read and written by its own thread. */
typedef struct nesting_frame {
  PyObject *container; /* borrowed: the caller holds it for the whole conversion */
  struct nesting_frame *outer;
} nesting_frame;

static _Thread_local nesting_frame *tls_converting = NULL;

/* 0 and `frame` linked in, or -1 with RecursionError or ValueError set. */
static int nesting_enter(nesting_frame *frame, PyObject *container) {
  nesting_frame *f;
  for (f = tls_converting; f != NULL; f = f->outer) {
    if (f->container == container) {
      PyObject *name = PyType_GetName(Py_TYPE(container));
      if (name != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "cannot convert a %U that contains itself (a reference cycle) to an FFI value",
                     name);
        Py_DECREF(name);
      }
      return -1;
    }
  }
  if (Py_EnterRecursiveCall(" while converting nested containers to FFI values") != 0) return -1;
  frame->container = container;
  frame->outer = tls_converting;
  /* The frame is unlinked by nesting_leave before its function returns,
   * which GCC cannot see across the two calls. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
  tls_converting = frame;
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif
  return 0;
}

static void nesting_leave(nesting_frame *frame) {
  tls_converting = frame->outer;
  Py_LeaveRecursiveCall();
}

/* A list or tuple becomes an ffi.Array built here (container.c). */
static int sequence_to_array(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                             tvmffi_py_temps *temps) {
  PyObject *seq;
  TVMFFIObjectHandle h;
  nesting_frame frame;
  int rc;
  if (nesting_enter(&frame, obj) != 0) return -1;
  if (PyTuple_CheckExact(obj) || PyList_CheckExact(obj)) {
    seq = Py_NewRef(obj);
  } else {
    seq = PySequence_Tuple(obj); /* subclasses may override item access */
  }
  rc = seq == NULL ? -1 : tvmffi_py_array_from_seq(st, seq, &h);
  Py_XDECREF(seq);
  nesting_leave(&frame);
  if (rc != 0) return -1;
  return owned_object_to_any(h, out, temps);
}

static int dict_to_map_unguarded(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                 tvmffi_py_temps *temps);

static int dict_to_map(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                       tvmffi_py_temps *temps) {
  nesting_frame frame;
  int rc;
  if (nesting_enter(&frame, obj) != 0) return -1;
  rc = dict_to_map_unguarded(st, obj, out, temps);
  nesting_leave(&frame);
  return rc;
}

static int dict_to_map_unguarded(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                 tvmffi_py_temps *temps) {
  PyObject *items = PyDict_Items(obj), *flat;
  Py_ssize_t n, i;
  int rc;
  if (items == NULL) return -1;
  n = PyList_Size(items);
  flat = PyTuple_New(n * 2);
  if (flat == NULL) {
    Py_DECREF(items);
    return -1;
  }
  for (i = 0; i < n; ++i) {
    PyObject *kv = PyList_GetItem(items, i);
    PyTuple_SetItem(flat, 2 * i, Py_NewRef(PyTuple_GetItem(kv, 0)));
    PyTuple_SetItem(flat, 2 * i + 1, Py_NewRef(PyTuple_GetItem(kv, 1)));
  }
  Py_DECREF(items);
  rc = call_with_tuple(st, &st->fn_map, "ffi.Map", flat, out, temps);
  Py_DECREF(flat);
  return rc;
}

/* obj is a core.Object (or subclass) instance. */
static int object_to_any(PyObject *obj, TVMFFIAny *out) {
  TVMFFIObjectHandle h = ((tvmffi_py_object *)obj)->handle;
  if (h == NULL) {
    PyErr_Format(PyExc_ValueError, "%R holds no FFI object (it was never initialised)", obj);
    return -1;
  }
  set_object(out, h);
  return 0;
}

/* Borrowed attribute lookup that treats AttributeError as "absent" (returns 0). */
static int get_optional_attr(PyObject *obj, PyObject *name, PyObject **out) {
  *out = PyObject_GetAttr(obj, name);
  if (*out != NULL) return 1;
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    return 0;
  }
  return -1;
}

static int datatype_attr_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out) {
  PyObject *dt = PyObject_GetAttr(obj, st->str_dtype_slot);
  if (dt == NULL) return -1;
  if (!PyObject_TypeCheck(dt, st->datatype_type)) {
    PyErr_Format(PyExc_TypeError, "%R has no valid _tvm_ffi_dtype", obj);
    Py_DECREF(dt);
    return -1;
  }
  out->type_index = kTVMFFIDataType;
  out->v_dtype = ((tvmffi_py_datatype *)dt)->dtype;
  Py_DECREF(dt);
  return 0;
}

static int c_void_p_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out) {
  PyObject *v = PyObject_GetAttr(obj, st->str_value);
  if (v == NULL) return -1;
  out->type_index = kTVMFFIOpaquePtr;
  if (v == Py_None) {
    out->v_ptr = NULL;
  } else {
    out->v_ptr = PyLong_AsVoidPtr(v);
    if (out->v_ptr == NULL && PyErr_Occurred()) {
      Py_DECREF(v);
      return -1;
    }
  }
  Py_DECREF(v);
  return 0;
}

/* An FFI object made here: owned by temps for the duration of the call. */
static int owned_object_to_any(TVMFFIObjectHandle h, TVMFFIAny *out, tvmffi_py_temps *temps) {
  set_object(out, h);
  return tvmffi_py_temps_add(temps, h);
}

int tvmffi_py_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                     tvmffi_py_temps *temps) {
  PyTypeObject *tp = Py_TYPE(obj);
  PyObject *attr;
  int found;
  memset(out, 0, sizeof(*out));

  /* Exact built-in types first: pointer compares only. */
  if (obj == Py_None) return 0;
  if (tp == &PyLong_Type) return int_to_any(obj, out);
  if (tp == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AsDouble(obj);
    return 0;
  }
  if (obj == Py_True || obj == Py_False) {
    out->type_index = kTVMFFIBool;
    out->v_int64 = obj == Py_True;
    return 0;
  }
  if (tp == &PyUnicode_Type) return tvmffi_py_str_to_any(obj, out, temps);
  if (tp == st->function_type) return object_to_any(obj, out);
  if (tp == st->device_type) {
    out->type_index = kTVMFFIDevice;
    out->v_device = ((tvmffi_py_device *)obj)->device;
    return 0;
  }
  if (tp == &PyBytes_Type) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(obj, &data, &size) != 0) return -1;
    return bytes_to_any(data, size, out, temps);
  }
  if (tp == &PyTuple_Type || tp == &PyList_Type) return sequence_to_array(st, obj, out, temps);
  if (tp == &PyDict_Type) return dict_to_map(st, obj, out, temps);
  if (tp == st->tensor.ndarray_type) {
    return tvmffi_py_tensor_to_any(st, obj, out, temps) < 0 ? -1 : 0;
  }

  /* Subclasses and protocols. */
  if (PyObject_TypeCheck(obj, st->object_type)) return object_to_any(obj, out);
  if (st->dtype_cls != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)st->dtype_cls)) {
    return datatype_attr_to_any(st, obj, out);
  }
  if (tp == st->datatype_type) {
    out->type_index = kTVMFFIDataType;
    out->v_dtype = ((tvmffi_py_datatype *)obj)->dtype;
    return 0;
  }
  if (PyObject_TypeCheck(obj, st->device_type)) {
    out->type_index = kTVMFFIDevice;
    out->v_device = ((tvmffi_py_device *)obj)->device;
    return 0;
  }
  if (PyBool_Check(obj)) {
    out->type_index = kTVMFFIBool;
    out->v_int64 = obj == Py_True;
    return 0;
  }
  if (PyLong_Check(obj)) return int_to_any(obj, out);
  if (PyFloat_Check(obj)) {
    out->type_index = kTVMFFIFloat;
    out->v_float64 = PyFloat_AsDouble(obj);
    return (out->v_float64 == -1.0 && PyErr_Occurred()) ? -1 : 0;
  }
  if (PyUnicode_Check(obj)) return tvmffi_py_str_to_any(obj, out, temps);
  if (PyBytes_Check(obj)) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(obj, &data, &size) != 0) return -1;
    return bytes_to_any(data, size, out, temps);
  }
  if (PyByteArray_Check(obj)) {
    return bytes_to_any(PyByteArray_AsString(obj), PyByteArray_Size(obj), out, temps);
  }
  if (st->c_void_p != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)st->c_void_p)) {
    return c_void_p_to_any(st, obj, out);
  }

  /* numpy arrays and other DLPack producers: a tensor, without a copy (tensor.c). */
  found = tvmffi_py_tensor_to_any(st, obj, out, temps);
  if (found != 0) return found < 0 ? -1 : 0;

  /* __tvm_ffi_object__(): the object to pass instead. */
  found = get_optional_attr(obj, st->str_ffi_object, &attr);
  if (found < 0) return -1;
  if (found) {
    PyObject *res = PyObject_CallNoArgs(attr);
    TVMFFIObjectHandle h;
    Py_DECREF(attr);
    if (res == NULL) return -1;
    if (!PyObject_TypeCheck(res, st->object_type) ||
        ((tvmffi_py_object *)res)->handle == NULL) {
      PyErr_Format(PyExc_TypeError, "__tvm_ffi_object__ of %R returned %R, not an FFI object",
                   obj, res);
      Py_DECREF(res);
      return -1;
    }
    h = ((tvmffi_py_object *)res)->handle;
    TVMFFIObjectIncRef(h);
    Py_DECREF(res);
    return owned_object_to_any(h, out, temps);
  }

  if (PyTuple_Check(obj) || PyList_Check(obj)) return sequence_to_array(st, obj, out, temps);
  if (PyDict_Check(obj)) return dict_to_map(st, obj, out, temps);
  if (PyExceptionInstance_Check(obj)) {
    TVMFFIObjectHandle h;
    if (tvmffi_py_exception_to_error(st, obj, &h) != 0) return -1;
    return owned_object_to_any(h, out, temps);
  }

  /* numbers.Integral and numbers.Real (e.g. numpy scalars). */
  if (PyIndex_Check(obj)) {
    PyObject *idx = PyNumber_Index(obj);
    int rc;
    if (idx == NULL) return -1;
    rc = int_to_any(idx, out);
    Py_DECREF(idx);
    return rc;
  }
  if (PyType_GetSlot(tp, Py_nb_float) != NULL) {
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIFloat;
    out->v_float64 = v;
    return 0;
  }
  if (PyCallable_Check(obj)) {
    TVMFFIObjectHandle h;
    if (tvmffi_py_callable_to_function(st->module, obj, &h) != 0) return -1;
    return owned_object_to_any(h, out, temps);
  }
  {
    TVMFFIObjectHandle h;
    if (tvmffi_py_make_opaque(obj, &h) != 0) return -1;
    return owned_object_to_any(h, out, temps);
  }
}

int tvmffi_py_to_owned_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out) {
  tvmffi_py_temps temps;
  TVMFFIAny view;
  int rc;
  /* Fast paths that need no temporaries and no copy. */
  if (obj == Py_None) {
    memset(out, 0, sizeof(*out));
    return 0;
  }
  tvmffi_py_temps_init(&temps);
  rc = tvmffi_py_to_any(st, obj, &view, &temps);
  if (rc == 0) {
    memset(out, 0, sizeof(*out));
    rc = TVMFFIAnyViewToOwnedAny(&view, out);
    if (rc != 0) tvmffi_py_raise_from_ffi(st, rc);
  }
  tvmffi_py_temps_release(&temps);
  return rc;
}

/* Converts obj to a new FFI object reference; plain values are refused. */
int tvmffi_py_to_object(tvmffi_py_state *st, PyObject *obj, TVMFFIObjectHandle *out) {
  TVMFFIAny v;
  if (tvmffi_py_to_owned_any(st, obj, &v) != 0) return -1;
  if (v.type_index < kTVMFFIStaticObjectBegin) {
    PyErr_Format(PyExc_TypeError, "%R does not convert to an FFI object", obj);
    return -1;
  }
  *out = v.v_obj;
  return 0;
}

/* ---- FFI -> Python ----------------------------------------------------------- */

static PyObject *bytes_view_to_str(const char *data, size_t size) {
  return PyUnicode_DecodeUTF8(data, (Py_ssize_t)size, "surrogateescape");
}

static PyObject *make_c_void_p(tvmffi_py_state *st, void *ptr) {
  PyObject *arg, *res;
  if (st->c_void_p == NULL) {
    return ptr == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr(ptr);
  }
  arg = ptr == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr(ptr);
  if (arg == NULL) return NULL;
  res = tvmffi_py_call1(st->c_void_p, arg);
  Py_DECREF(arg);
  return res;
}

static PyObject *shape_to_py(tvmffi_py_state *st, TVMFFIObjectHandle h) {
  TVMFFIShapeCell *cell = TVMFFIShapeGetCellPtr(h);
  PyObject *tuple, *wrapper, *res, *args[2];
  size_t i;
  tuple = PyTuple_New((Py_ssize_t)cell->size);
  if (tuple == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  for (i = 0; i < cell->size; ++i) {
    PyObject *v = PyLong_FromLongLong(cell->data[i]);
    if (v == NULL) {
      Py_DECREF(tuple);
      TVMFFIObjectDecRef(h);
      return NULL;
    }
    PyTuple_SetItem(tuple, (Py_ssize_t)i, v);
  }
  if (st->shape_cls == NULL) {
    TVMFFIObjectDecRef(h);
    return tuple;
  }
  wrapper = tvmffi_py_object_wrap(st, h);
  if (wrapper == NULL) {
    Py_DECREF(tuple);
    return NULL;
  }
  args[0] = tuple;
  args[1] = wrapper;
  res = PyObject_Vectorcall(st->shape_cls, args, 2, NULL);
  Py_DECREF(tuple);
  Py_DECREF(wrapper);
  return res;
}

/* Steals *value (an owning FFI value) and returns the natural Python value. */
PyObject *tvmffi_py_from_any(tvmffi_py_state *st, TVMFFIAny *value) {
  TVMFFIObjectHandle h;
  switch (value->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(value->v_int64);
    case kTVMFFIBool:
      return PyBool_FromLong(value->v_int64 != 0);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(value->v_float64);
    case kTVMFFIOpaquePtr:
      return make_c_void_p(st, value->v_ptr);
    case kTVMFFIDataType:
      return tvmffi_py_dtype_from_dl(st, value->v_dtype);
    case kTVMFFIDevice:
      return tvmffi_py_device_new(st, value->v_device);
    case kTVMFFIRawStr:
      return bytes_view_to_str(value->v_c_str, strlen(value->v_c_str));
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray *b = (const TVMFFIByteArray *)value->v_ptr;
      return PyBytes_FromStringAndSize(b->data, (Py_ssize_t)b->size);
    }
    case kTVMFFISmallStr:
      return bytes_view_to_str(value->v_bytes, value->small_str_len);
    case kTVMFFISmallBytes:
      return PyBytes_FromStringAndSize(value->v_bytes, (Py_ssize_t)value->small_str_len);
    case kTVMFFIDLTensorPtr:
      PyErr_SetString(PyExc_TypeError, "a borrowed DLTensor* cannot become a Python value");
      return NULL;
    case kTVMFFIObjectRValueRef:
      PyErr_SetString(PyExc_ValueError, "an ObjectRValueRef cannot be a return value");
      return NULL;
    default:
      break;
  }
  if (value->type_index < kTVMFFIStaticObjectBegin) {
    PyErr_Format(PyExc_TypeError, "unknown FFI value type index %d", (int)value->type_index);
    return NULL;
  }
  h = value->v_obj;
  switch (value->type_index) {
    case kTVMFFIStr: {
      TVMFFIByteArray *b = TVMFFIBytesGetByteArrayPtr(h);
      PyObject *res = bytes_view_to_str(b->data, b->size);
      TVMFFIObjectDecRef(h);
      return res;
    }
    case kTVMFFIBytes: {
      TVMFFIByteArray *b = TVMFFIBytesGetByteArrayPtr(h);
      PyObject *res = PyBytes_FromStringAndSize(b->data, (Py_ssize_t)b->size);
      TVMFFIObjectDecRef(h);
      return res;
    }
    case kTVMFFIOpaquePyObject: {
      PyObject *res = Py_NewRef((PyObject *)TVMFFIOpaqueObjectGetCellPtr(h)->handle);
      TVMFFIObjectDecRef(h);
      return res;
    }
    case kTVMFFIFunction:
      return tvmffi_py_function_wrap(st, h);
    case kTVMFFIShape:
      return shape_to_py(st, h);
    default:
      return tvmffi_py_object_wrap(st, h);
  }
}

/* Converts a borrowed view (a callback argument). */
PyObject *tvmffi_py_from_view(tvmffi_py_state *st, const TVMFFIAny *view) {
  TVMFFIAny owned = *view;
  if (view->type_index >= kTVMFFIStaticObjectBegin) {
    TVMFFIObjectIncRef(view->v_obj);
  } else if (view->type_index == kTVMFFIObjectRValueRef) {
    TVMFFIObjectHandle *slot = (TVMFFIObjectHandle *)view->v_ptr;
    TVMFFIObjectHandle h = *slot;
    if (h == NULL) Py_RETURN_NONE;
    *slot = NULL;
    memset(&owned, 0, sizeof(owned));
    set_object(&owned, h);
  }
  return tvmffi_py_from_any(st, &owned);
}

/* protocols.c: the rows of the argument-conversion table that are read off
 * an object's class, for values that are no built-in type, FFI object or
 * tensor (convert.c asks here before its number, callable and opaque rows):
 *
 *   class defines __tvm_ffi_object__()    -> the FFI object it returns
 *   numpy.bool_                           -> bool (numpy integers and floats
 *                                            are ints and floats in convert.c)
 *   class defines __cuda_stream__()       -> opaque pointer: item 1 of the
 *                                            (version, pointer) it returns
 *   class defines __tvm_ffi_opaque_ptr__() -> opaque pointer from the int
 *   numpy.dtype (ml_dtypes' included)     -> DataType
 *   a numpy scalar type (np.float32, ml_dtypes.bfloat16) -> DataType
 *   class defines __dlpack_device__()     -> Device from (type, id)
 *   class defines __tvm_ffi_int__()       -> int
 *   class defines __tvm_ffi_float__()     -> float
 *   class defines __tvm_ffi_value__()     -> the value it returns, converted
 *                                            again (a cycle raises ValueError)
 *
 * Which row applies is decided once per exact class and cached (like
 * upstream, protocols must be defined on the class, not on one instance).
 */
#include "pyshim.h"

#include <string.h>

enum {
  KIND_NONE = 0,
  KIND_FFI_OBJECT,
  KIND_NUMPY_BOOL,
  KIND_CUDA_STREAM,
  KIND_OPAQUE_PTR,
  KIND_NUMPY_DTYPE,
  KIND_DLPACK_DEVICE,
  KIND_INT,
  KIND_FLOAT,
  KIND_VALUE,
};

/* Protocol methods, in the order the table tries them. */
static const struct {
  const char *name;
  int kind;
} kMethods[] = {
    {"__tvm_ffi_object__", KIND_FFI_OBJECT},   {"__cuda_stream__", KIND_CUDA_STREAM},
    {"__tvm_ffi_opaque_ptr__", KIND_OPAQUE_PTR}, {"__dlpack_device__", KIND_DLPACK_DEVICE},
    {"__tvm_ffi_int__", KIND_INT},             {"__tvm_ffi_float__", KIND_FLOAT},
    {"__tvm_ffi_value__", KIND_VALUE},         {NULL, 0}};

/* Whether the class tp has attribute name (looked up on the class). */
static int class_has(PyTypeObject *tp, const char *name) {
  PyObject *v = PyObject_GetAttrString((PyObject *)tp, name);
  if (v != NULL) {
    Py_DECREF(v);
    return 1;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
  PyErr_Clear();
  return 0;
}

/* numpy.<attr> (new reference), or NULL with no error when numpy is not
 * imported: then no value can be a numpy object. */
static PyObject *numpy_attr(const char *attr) {
  PyObject *name = PyUnicode_FromString("numpy"), *np, *v;
  if (name == NULL) return NULL;
  np = PyImport_GetModule(name);
  Py_DECREF(name);
  if (np == NULL) return NULL;
  v = PyObject_GetAttrString(np, attr);
  Py_DECREF(np);
  return v;
}

/* Whether tp is a subclass of numpy.<attr>: 1, 0, or -1. */
static int is_numpy_subclass(PyTypeObject *tp, const char *attr) {
  PyObject *base = numpy_attr(attr);
  int yes;
  if (base == NULL) return PyErr_Occurred() ? -1 : 0;
  yes = PyType_Check(base) && PyType_IsSubtype(tp, (PyTypeObject *)base);
  Py_DECREF(base);
  return yes;
}

static int classify(PyTypeObject *tp) {
  int i, r;
  for (i = 0; kMethods[i].name != NULL; ++i) {
    if (kMethods[i].kind == KIND_DLPACK_DEVICE) {
      /* numpy first: its types have protocol methods of their own. */
      if ((r = is_numpy_subclass(tp, "bool_")) != 0) return r < 0 ? -1 : KIND_NUMPY_BOOL;
      if ((r = is_numpy_subclass(tp, "dtype")) != 0) return r < 0 ? -1 : KIND_NUMPY_DTYPE;
    }
    r = class_has(tp, kMethods[i].name);
    if (r < 0) return -1;
    if (r) return kMethods[i].kind;
  }
  return KIND_NONE;
}

/* The cached kind of tp (classified on first sight; a full cache just stops
 * caching). */
static int kind_of(tvmffi_py_state *st, PyTypeObject *tp) {
  tvmffi_py_protocol_state *ps = &st->protocol;
  int i, kind;
  for (i = 0; i < TVMFFI_PY_PROTOCOL_CACHE; ++i) {
    if (ps->types[i] == tp) return ps->kinds[i];
    if (ps->types[i] == NULL) break;
  }
  kind = classify(tp);
  if (kind >= 0 && i < TVMFFI_PY_PROTOCOL_CACHE) {
    ps->types[i] = (PyTypeObject *)Py_NewRef((PyObject *)tp);
    ps->kinds[i] = (unsigned char)kind;
  }
  return kind;
}

/* obj.<name>() */
static PyObject *call_method(PyObject *obj, const char *name) {
  return PyObject_CallMethod(obj, name, NULL);
}

/* A DataType from the str() of a numpy dtype ("float32", "bfloat16"...). */
static int dtype_to_any(PyObject *dtype, TVMFFIAny *out) {
  PyObject *text = PyObject_Str(dtype);
  TVMFFIByteArray b;
  int rc;
  if (text == NULL) return -1;
  if (tvmffi_py_str_to_bytearray(text, &b) != 0) {
    Py_DECREF(text);
    return -1;
  }
  rc = TVMFFIDataTypeFromString(&b, &out->v_dtype);
  if (rc != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    PyErr_Format(PyExc_ValueError, "numpy dtype %R has no FFI DataType", dtype);
    Py_DECREF(text);
    return -1;
  }
  Py_DECREF(text);
  out->type_index = kTVMFFIDataType;
  return 0;
}

/* An opaque pointer from an int (None: NULL). */
static int pointer_to_any(PyObject *obj, PyObject *v, const char *what, TVMFFIAny *out) {
  void *p = NULL;
  if (v != Py_None) {
    if (!PyLong_Check(v)) {
      PyErr_Format(PyExc_TypeError, "%s of %R returned %R, not an int", what, obj, v);
      return -1;
    }
    p = PyLong_AsVoidPtr(v);
    if (p == NULL && PyErr_Occurred()) return -1;
  }
  out->type_index = kTVMFFIOpaquePtr;
  out->v_ptr = p;
  return 0;
}

/* The value of __tvm_ffi_value__, converted again; `chain` holds the objects
 * whose __tvm_ffi_value__ is being converted, to find cycles. */
static int value_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                        tvmffi_py_temps *temps) {
  tvmffi_py_protocol_state *ps = &st->protocol;
  PyObject *v;
  TVMFFIAny owned;
  int i, rc;
  for (i = 0; i < ps->depth; ++i) {
    if (ps->chain[i] == obj) {
      PyErr_Format(PyExc_ValueError, "__tvm_ffi_value__ of %R leads back to itself (a cycle)",
                   obj);
      return -1;
    }
  }
  if (ps->depth == TVMFFI_PY_VALUE_DEPTH) {
    PyErr_Format(PyExc_RecursionError,
                 "__tvm_ffi_value__ nested more than %d deep (converting %R)",
                 TVMFFI_PY_VALUE_DEPTH, obj);
    return -1;
  }
  v = call_method(obj, "__tvm_ffi_value__");
  if (v == NULL) return -1;
  ps->chain[ps->depth++] = obj;
  /* Owned: the view of a str would borrow from v, which dies here. */
  rc = tvmffi_py_to_owned_any(st, v, &owned);
  --ps->depth;
  Py_DECREF(v);
  if (rc != 0) return -1;
  *out = owned;
  if (owned.type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, owned.v_obj);
  return 0;
}

int tvmffi_py_protocol_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                              tvmffi_py_temps *temps) {
  PyObject *v;
  int kind, rc = 0;
  if (PyType_Check(obj)) {
    /* A numpy scalar type (np.float32, ml_dtypes.bfloat16) names a dtype. */
    int r = is_numpy_subclass((PyTypeObject *)obj, "generic");
    PyObject *dtype_cls, *dtype;
    if (r <= 0) return r;
    dtype_cls = numpy_attr("dtype");
    if (dtype_cls == NULL) return -1;
    dtype = tvmffi_py_call1(dtype_cls, obj);
    Py_DECREF(dtype_cls);
    if (dtype == NULL) return -1;
    rc = dtype_to_any(dtype, out);
    Py_DECREF(dtype);
    return rc < 0 ? -1 : 1;
  }
  kind = kind_of(st, Py_TYPE(obj));
  switch (kind) {
    case KIND_NONE:
      return 0;
    case KIND_FFI_OBJECT: {
      TVMFFIObjectHandle h;
      v = call_method(obj, "__tvm_ffi_object__");
      if (v == NULL) return -1;
      if (!PyObject_TypeCheck(v, st->object_type) || ((tvmffi_py_object *)v)->handle == NULL) {
        PyErr_Format(PyExc_TypeError, "__tvm_ffi_object__ of %R returned %R, not an FFI object",
                     obj, v);
        Py_DECREF(v);
        return -1;
      }
      h = ((tvmffi_py_object *)v)->handle;
      TVMFFIObjectIncRef(h);
      Py_DECREF(v);
      out->type_index = ((TVMFFIObject *)h)->type_index;
      out->v_obj = (TVMFFIObject *)h;
      return tvmffi_py_temps_add(temps, h) != 0 ? -1 : 1;
    }
    case KIND_NUMPY_BOOL: {
      int b = PyObject_IsTrue(obj);
      if (b < 0) return -1;
      out->type_index = kTVMFFIBool;
      out->v_int64 = b;
      return 1;
    }
    case KIND_NUMPY_DTYPE:
      return dtype_to_any(obj, out) < 0 ? -1 : 1;
    case KIND_CUDA_STREAM:
    case KIND_OPAQUE_PTR:
    case KIND_DLPACK_DEVICE:
    case KIND_INT:
    case KIND_FLOAT:
      break;
    case KIND_VALUE:
      return value_to_any(st, obj, out, temps) < 0 ? -1 : 1;
    default:
      return -1; /* classification failed: error set */
  }
  {
    static const char *const names[] = {
        [KIND_CUDA_STREAM] = "__cuda_stream__", [KIND_OPAQUE_PTR] = "__tvm_ffi_opaque_ptr__",
        [KIND_DLPACK_DEVICE] = "__dlpack_device__", [KIND_INT] = "__tvm_ffi_int__",
        [KIND_FLOAT] = "__tvm_ffi_float__"};
    const char *name = names[kind];
    v = call_method(obj, name);
    if (v == NULL) return -1;
    switch (kind) {
      case KIND_CUDA_STREAM:
        if (!PyTuple_Check(v) || PyTuple_Size(v) != 2) {
          PyErr_Format(PyExc_TypeError,
                       "__cuda_stream__ of %R returned %R, not a (version, pointer) tuple", obj, v);
          rc = -1;
        } else {
          rc = pointer_to_any(obj, PyTuple_GetItem(v, 1), name, out);
        }
        break;
      case KIND_OPAQUE_PTR:
        rc = pointer_to_any(obj, v, name, out);
        break;
      case KIND_DLPACK_DEVICE: {
        long type, id;
        if (!PyTuple_Check(v) || PyTuple_Size(v) != 2) {
          PyErr_Format(PyExc_TypeError,
                       "__dlpack_device__ of %R returned %R, not a (device_type, device_id) tuple",
                       obj, v);
          rc = -1;
          break;
        }
        type = PyLong_AsLong(PyTuple_GetItem(v, 0));
        id = type == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PyTuple_GetItem(v, 1));
        if (PyErr_Occurred()) {
          rc = -1;
          break;
        }
        out->type_index = kTVMFFIDevice;
        out->v_device.device_type = (DLDeviceType)type;
        out->v_device.device_id = (int32_t)id;
        break;
      }
      case KIND_INT: {
        int overflow = 0;
        long long x;
        if (!PyLong_Check(v)) {
          PyErr_Format(PyExc_TypeError, "__tvm_ffi_int__ of %R returned %R, not an int", obj, v);
          rc = -1;
          break;
        }
        x = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow != 0) {
          PyErr_Format(PyExc_OverflowError,
                       "int %R does not fit in the 64-bit signed integer of an FFI value", v);
          rc = -1;
        } else if (x == -1 && PyErr_Occurred()) {
          rc = -1;
        } else {
          out->type_index = kTVMFFIInt;
          out->v_int64 = x;
        }
        break;
      }
      case KIND_FLOAT: {
        double x;
        if (!PyFloat_Check(v) && !PyLong_Check(v)) {
          PyErr_Format(PyExc_TypeError, "__tvm_ffi_float__ of %R returned %R, not a float", obj,
                       v);
          rc = -1;
          break;
        }
        x = PyFloat_AsDouble(v);
        if (x == -1.0 && PyErr_Occurred()) {
          rc = -1;
        } else {
          out->type_index = kTVMFFIFloat;
          out->v_float64 = x;
        }
        break;
      }
    }
    Py_DECREF(v);
    return rc < 0 ? -1 : 1;
  }
}

int tvmffi_py_protocol_traverse(tvmffi_py_state *st, visitproc visit, void *arg) {
  int i;
  for (i = 0; i < TVMFFI_PY_PROTOCOL_CACHE; ++i) Py_VISIT(st->protocol.types[i]);
  return 0;
}

void tvmffi_py_protocol_clear(tvmffi_py_state *st) {
  int i;
  for (i = 0; i < TVMFFI_PY_PROTOCOL_CACHE; ++i) Py_CLEAR(st->protocol.types[i]);
}

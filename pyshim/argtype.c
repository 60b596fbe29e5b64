/* argtype.c: what a Python class offers to argument conversion.  Each class
 * gets one record (tvmffi_py_type_record in pyshim.h), decided on first sight
 * and kept in one cache in the module state; its kind (TVMFFI_PY_KIND_*) is
 * the row of the conversion table that applies to the class's instances.
 * convert.c asks here (tvmffi_py_argtype_to_any) for values that are no
 * built-in type and no FFI object wrapper, before its number, callable and
 * opaque rows.  The rows, in the order they are tried:
 *
 *   a tensor protocol (the DLPack C exchange API or __dlpack__) and
 *   __tvm_ffi_object__()                  -> FFI_OBJECT: the object it returns
 *   exactly numpy.ndarray                 -> NUMPY_ARRAY: a tensor (tensor_input.c)
 *   __dlpack_c_exchange_api__ (exchange.c checks it)
 *                                         -> EXCHANGE: a tensor (tensor_input.c)
 *   __dlpack__()                          -> DLPACK: a tensor (tensor_input.c)
 *   __tvm_ffi_object__()                  -> FFI_OBJECT: the FFI object it returns
 *   __cuda_stream__()                     -> CUDA_STREAM: opaque pointer, item 1 of
 *                                            the (version, pointer) it returns
 *   __tvm_ffi_opaque_ptr__()              -> OPAQUE_PTR: opaque pointer from the int
 *   numpy.bool_                           -> NUMPY_BOOL: bool (numpy integers and
 *                                            floats are ints and floats in convert.c)
 *   numpy.dtype (ml_dtypes' included)     -> NUMPY_DTYPE: DataType
 *   __dlpack_device__()                   -> DLPACK_DEVICE: Device from (type, id)
 *   __tvm_ffi_int__()                     -> INT: int
 *   __tvm_ffi_float__()                   -> FLOAT: float
 *   __tvm_ffi_value__()                   -> VALUE: the value it returns, converted
 *                                            again (a cycle raises ValueError)
 *
 * and, for a value that is itself a class, a numpy scalar type (np.float32,
 * ml_dtypes.bfloat16) -> DataType; no other row applies to classes.
 * Protocols are read from the class, not from one instance (as upstream
 * does).  A full cache stops caching: such classes are classified on every
 * conversion.
 */
#include "pyshim.h"

#include <string.h>

/* Protocol methods, in the order the table tries them. */
static const struct {
  const char *name;
  int kind;
} kMethods[] = {{"__tvm_ffi_object__", TVMFFI_PY_KIND_FFI_OBJECT},
                {"__cuda_stream__", TVMFFI_PY_KIND_CUDA_STREAM},
                {"__tvm_ffi_opaque_ptr__", TVMFFI_PY_KIND_OPAQUE_PTR},
                {"__dlpack_device__", TVMFFI_PY_KIND_DLPACK_DEVICE},
                {"__tvm_ffi_int__", TVMFFI_PY_KIND_INT},
                {"__tvm_ffi_float__", TVMFFI_PY_KIND_FLOAT},
                {"__tvm_ffi_value__", TVMFFI_PY_KIND_VALUE},
                {NULL, 0}};

/* ---- classifying a class ----------------------------------------------------------- */

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

/* Whether tp is exactly numpy.ndarray (by name: numpy need not be imported
 * by tvm_ffi). */
static int is_numpy_ndarray(PyTypeObject *tp) {
  PyObject *name = PyType_GetName(tp), *module;
  int yes = 0;
  if (name == NULL) {
    PyErr_Clear();
    return 0;
  }
  if (PyUnicode_CompareWithASCIIString(name, "ndarray") == 0) {
    module = PyObject_GetAttrString((PyObject *)tp, "__module__");
    if (module == NULL) {
      PyErr_Clear();
    } else {
      yes = PyUnicode_Check(module) && PyUnicode_CompareWithASCIIString(module, "numpy") == 0;
      Py_DECREF(module);
    }
  }
  Py_DECREF(name);
  return yes;
}

/* The first protocol row that applies to instances of tp. */
static int protocol_kind(PyTypeObject *tp) {
  int i, r;
  for (i = 0; kMethods[i].name != NULL; ++i) {
    if (kMethods[i].kind == TVMFFI_PY_KIND_DLPACK_DEVICE) {
      /* numpy first: its types have protocol methods of their own. */
      if ((r = is_numpy_subclass(tp, "bool_")) != 0) return r < 0 ? -1 : TVMFFI_PY_KIND_NUMPY_BOOL;
      if ((r = is_numpy_subclass(tp, "dtype")) != 0) return r < 0 ? -1 : TVMFFI_PY_KIND_NUMPY_DTYPE;
    }
    r = class_has(tp, kMethods[i].name);
    if (r < 0) return -1;
    if (r) return kMethods[i].kind;
  }
  return TVMFFI_PY_KIND_NONE;
}

/* Fills *rec for tp (rec->type is left to the caller; rec->exchange_owner a
 * new reference or NULL).  0, or -1 with an error and nothing held. */
static int classify(tvmffi_py_state *st, PyTypeObject *tp, tvmffi_py_type_record *rec) {
  int r;
  memset(rec, 0, sizeof(*rec));
  r = tvmffi_py_exchange_lookup(st, tp, &rec->exchange, &rec->exchange_owner);
  if (r < 0) return -1;
  r = class_has(tp, "__dlpack__");
  if (r < 0) goto fail;
  rec->dlpack = (unsigned char)r;
  if (rec->exchange != NULL || rec->dlpack) {
    /* __tvm_ffi_object__ comes before both tensor protocols for arguments. */
    r = class_has(tp, "__tvm_ffi_object__");
    if (r < 0) goto fail;
    if (r) {
      rec->kind = TVMFFI_PY_KIND_FFI_OBJECT;
    } else if (rec->dlpack && is_numpy_ndarray(tp)) {
      rec->kind = TVMFFI_PY_KIND_NUMPY_ARRAY;
    } else {
      rec->kind = rec->exchange != NULL ? TVMFFI_PY_KIND_EXCHANGE : TVMFFI_PY_KIND_DLPACK;
    }
    return 0;
  }
  /* A value that is a class takes no protocol row (its metaclass's methods
   * are not its own). */
  if (PyType_IsSubtype(tp, &PyType_Type)) return 0;
  r = protocol_kind(tp);
  if (r < 0) return -1;
  rec->kind = (unsigned char)r;
  return 0;
fail:
  Py_CLEAR(rec->exchange_owner);
  rec->exchange = NULL;
  return -1;
}

/* Keeps owner (an exchange API's capsule or class, stolen) for the module's
 * life: containers returned by a call that took such a tensor keep a pointer
 * to the API (pyshim.h).  Once each.  0, or -1 with an error. */
static int keep_owner(tvmffi_py_argtype_state *as, PyObject *owner) {
  Py_ssize_t n, j;
  if (as->extra_exchange_owners == NULL) {
    as->extra_exchange_owners = PyList_New(0);
    if (as->extra_exchange_owners == NULL) {
      Py_DECREF(owner);
      return -1;
    }
  }
  n = PyList_Size(as->extra_exchange_owners);
  for (j = 0; j < n; ++j) {
    if (PyList_GetItem(as->extra_exchange_owners, j) == owner) break;
  }
  if (j == n && PyList_Append(as->extra_exchange_owners, owner) != 0) {
    Py_DECREF(owner);
    return -1;
  }
  Py_DECREF(owner);
  return 0;
}

const tvmffi_py_type_record *tvmffi_py_type_record_of(tvmffi_py_state *st, PyTypeObject *tp,
                                                      tvmffi_py_type_record *scratch) {
  tvmffi_py_argtype_state *as = &st->argtype;
  tvmffi_py_type_record *rec;
  int i;
  for (i = 0; i < TVMFFI_PY_TYPE_CACHE; ++i) {
    if (as->records[i].type == tp) return &as->records[i];
    if (as->records[i].type == NULL) break;
  }
  if (classify(st, tp, scratch) != 0) return NULL;
  /* Classifying ran Python code (class attributes, numpy's import), which
   * may have converted values too: look for tp and a free slot again. */
  for (i = 0; i < TVMFFI_PY_TYPE_CACHE; ++i) {
    if (as->records[i].type == tp) {
      Py_CLEAR(scratch->exchange_owner);
      return &as->records[i];
    }
    if (as->records[i].type == NULL) break;
  }
  if (i == TVMFFI_PY_TYPE_CACHE) {
    /* Not cached: the record lives in the caller's scratch for this one
     * conversion, the API's owner with the module. */
    PyObject *owner = scratch->exchange_owner;
    scratch->exchange_owner = NULL;
    scratch->type = tp; /* borrowed: only for this conversion */
    if (owner != NULL && keep_owner(as, owner) != 0) return NULL;
    return scratch;
  }
  rec = &as->records[i];
  *rec = *scratch; /* the owner's reference moves into the cache */
  rec->type = (PyTypeObject *)Py_NewRef((PyObject *)tp);
  /* convert.c then sends numpy arrays here before any other check, */
  if (rec->kind == TVMFFI_PY_KIND_NUMPY_ARRAY && as->ndarray_type == NULL) {
    as->ndarray_type = tp;
    as->ndarray = rec;
  }
  /* ... and the last exchange-API type straight to tensor_input.c. */
  if (rec->kind == TVMFFI_PY_KIND_EXCHANGE) {
    as->exchange_type = tp;
    as->exchange_api = rec->exchange;
  }
  return rec;
}

/* ---- the protocol rows ------------------------------------------------------------- */

/* obj.<name>() */
static PyObject *call_method(PyObject *obj, const char *name) {
  return PyObject_CallMethod(obj, name, NULL);
}

/* A DataType from the str() of a numpy dtype ("float32", "bfloat16"...). */
static int dtype_to_any(tvmffi_py_state *st, PyObject *dtype, TVMFFIAny *out) {
  PyObject *text;
  TVMFFIByteArray b;
  int rc;
  if (tvmffi_py_dtype_memo_find(st, dtype, &out->v_dtype)) {
    out->type_index = kTVMFFIDataType;
    return 0;
  }
  text = PyObject_Str(dtype);
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
  tvmffi_py_dtype_memo_add(st, dtype, out->v_dtype);
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

/* Borrowed: the objects whose __tvm_ffi_value__ this thread is converting,
 * outermost first, to find cycles, including one through a call that
 * __tvm_ffi_value__ itself makes into tvm_ffi (a new call, so not in any
 * per-call state).  Per thread: another thread converts while this one's
 * __tvm_ffi_value__ runs Python code, and must not see this chain. */
struct value_chain {
  PyObject *chain[TVMFFI_PY_VALUE_DEPTH];
  int depth;
};
static _Thread_local struct value_chain value_chain;

/* The value of __tvm_ffi_value__, converted again. */
static int value_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                        tvmffi_py_temps *temps) {
  struct value_chain *ps = &value_chain;
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
  rc = tvmffi_py_to_owned_any_in(st, v, &owned, temps);
  --ps->depth;
  Py_DECREF(v);
  if (rc != 0) return -1;
  *out = owned;
  if (owned.type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, owned.v_obj);
  return 0;
}

int tvmffi_py_argtype_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                             tvmffi_py_temps *temps) {
  tvmffi_py_type_record scratch;
  const tvmffi_py_type_record *rec = tvmffi_py_type_record_of(st, Py_TYPE(obj), &scratch);
  PyObject *v;
  int kind, rc = 0;
  if (rec == NULL) return -1;
  kind = rec->kind;
  if (kind == TVMFFI_PY_KIND_NUMPY_ARRAY || kind == TVMFFI_PY_KIND_EXCHANGE ||
      kind == TVMFFI_PY_KIND_DLPACK) {
    return tvmffi_py_tensor_arg(st, obj, rec, out, temps) != 0 ? -1 : 1;
  }
  if (PyType_Check(obj)) {
    /* A numpy scalar type (np.float32, ml_dtypes.bfloat16) names a dtype. */
    PyObject *dtype_cls, *dtype;
    int r;
    /* Only numpy scalar types are remembered, so a hit needs no other check. */
    if (tvmffi_py_dtype_memo_find(st, obj, &out->v_dtype)) {
      out->type_index = kTVMFFIDataType;
      return 1;
    }
    r = is_numpy_subclass((PyTypeObject *)obj, "generic");
    if (r <= 0) return r;
    dtype_cls = numpy_attr("dtype");
    if (dtype_cls == NULL) return -1;
    dtype = tvmffi_py_call1(dtype_cls, obj);
    Py_DECREF(dtype_cls);
    if (dtype == NULL) return -1;
    rc = dtype_to_any(st, dtype, out);
    Py_DECREF(dtype);
    if (rc < 0) return -1;
    tvmffi_py_dtype_memo_add(st, obj, out->v_dtype);
    return 1;
  }
  switch (kind) {
    case TVMFFI_PY_KIND_NONE:
      return 0;
    case TVMFFI_PY_KIND_FFI_OBJECT: {
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
    case TVMFFI_PY_KIND_NUMPY_BOOL: {
      int b = PyObject_IsTrue(obj);
      if (b < 0) return -1;
      out->type_index = kTVMFFIBool;
      out->v_int64 = b;
      return 1;
    }
    case TVMFFI_PY_KIND_NUMPY_DTYPE:
      return dtype_to_any(st, obj, out) < 0 ? -1 : 1;
    case TVMFFI_PY_KIND_CUDA_STREAM:
    case TVMFFI_PY_KIND_OPAQUE_PTR:
    case TVMFFI_PY_KIND_DLPACK_DEVICE:
    case TVMFFI_PY_KIND_INT:
    case TVMFFI_PY_KIND_FLOAT:
      break;
    case TVMFFI_PY_KIND_VALUE:
      return value_to_any(st, obj, out, temps) < 0 ? -1 : 1;
    default:
      PyErr_Format(PyExc_SystemError, "argument conversion: unknown kind %d", kind);
      return -1;
  }
  {
    static const char *const names[] = {
        [TVMFFI_PY_KIND_CUDA_STREAM] = "__cuda_stream__", [TVMFFI_PY_KIND_OPAQUE_PTR] = "__tvm_ffi_opaque_ptr__",
        [TVMFFI_PY_KIND_DLPACK_DEVICE] = "__dlpack_device__", [TVMFFI_PY_KIND_INT] = "__tvm_ffi_int__",
        [TVMFFI_PY_KIND_FLOAT] = "__tvm_ffi_float__"};
    const char *name = names[kind];
    v = call_method(obj, name);
    if (v == NULL) return -1;
    switch (kind) {
      case TVMFFI_PY_KIND_CUDA_STREAM:
        if (!PyTuple_Check(v) || PyTuple_Size(v) != 2) {
          PyErr_Format(PyExc_TypeError,
                       "__cuda_stream__ of %R returned %R, not a (version, pointer) tuple", obj, v);
          rc = -1;
        } else {
          rc = pointer_to_any(obj, PyTuple_GetItem(v, 1), name, out);
        }
        break;
      case TVMFFI_PY_KIND_OPAQUE_PTR:
        rc = pointer_to_any(obj, v, name, out);
        break;
      case TVMFFI_PY_KIND_DLPACK_DEVICE: {
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
      case TVMFFI_PY_KIND_INT: {
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
      case TVMFFI_PY_KIND_FLOAT: {
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

/* ---- module state -------------------------------------------------------------------- */

int tvmffi_py_argtype_traverse(tvmffi_py_state *st, visitproc visit, void *arg) {
  int i;
  for (i = 0; i < TVMFFI_PY_TYPE_CACHE; ++i) {
    Py_VISIT(st->argtype.records[i].type);
    Py_VISIT(st->argtype.records[i].exchange_owner);
  }
  Py_VISIT(st->argtype.extra_exchange_owners);
  return 0;
}

void tvmffi_py_argtype_clear(tvmffi_py_state *st) {
  tvmffi_py_argtype_state *as = &st->argtype;
  int i;
  /* The shortcuts borrow from the records. */
  as->ndarray_type = NULL;
  as->ndarray = NULL;
  as->exchange_type = NULL;
  as->exchange_api = NULL;
  for (i = 0; i < TVMFFI_PY_TYPE_CACHE; ++i) {
    Py_CLEAR(as->records[i].type);
    Py_CLEAR(as->records[i].exchange_owner);
    as->records[i].exchange = NULL;
    as->records[i].kind = TVMFFI_PY_KIND_NONE;
    as->records[i].dlpack = 0;
  }
  Py_CLEAR(as->extra_exchange_owners);
}

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

/* ---- integers of any size --------------------------------------------------
 *
 * An int outside the int64 range travels as an ffi.BigInt (78): 64-bit words,
 * least significant first, native byte order within a word, two's
 * complement.  The 3.12 limited API has no native-bytes conversion
 * (PyLong_AsNativeBytes is 3.13), so these slow paths call int.to_bytes and
 * int.from_bytes with byteorder "little" and swap each word on big-endian
 * hosts. */

static int host_is_little_endian(void) {
  const uint16_t probe = 1;
  return *(const unsigned char *)&probe == 1;
}

/* Reverses the bytes of each 8-byte word in place (little <-> native on a
 * big-endian host). */
static void swap_words(char *data, size_t size) {
  size_t i, k;
  for (i = 0; i + 8 <= size; i += 8) {
    for (k = 0; k < 4; ++k) {
      char t = data[i + k];
      data[i + k] = data[i + 7 - k];
      data[i + 7 - k] = t;
    }
  }
}

/* Calls callable(first, "little", signed=True). */
static PyObject *call_little_signed(PyObject *callable, PyObject *first) {
  PyObject *args = Py_BuildValue("(Os)", first, "little");
  PyObject *kwargs = args == NULL ? NULL : Py_BuildValue("{s:O}", "signed", Py_True);
  PyObject *res = kwargs == NULL ? NULL : PyObject_Call(callable, args, kwargs);
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  return res;
}

static int big_int_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                          tvmffi_py_temps *temps) {
  PyObject *nbits_obj, *len_obj, *to_bytes, *bytes;
  size_t nbits, nbytes;
  char *data;
  Py_ssize_t size;
  TVMFFIByteArray content;
  int rc;
  nbits_obj = PyObject_CallMethod(obj, "bit_length", NULL);
  if (nbits_obj == NULL) return -1;
  nbits = PyLong_AsSize_t(nbits_obj);
  Py_DECREF(nbits_obj);
  if (nbits == (size_t)-1 && PyErr_Occurred()) return -1;
  /* One more bit for the sign, rounded up to whole words. */
  nbytes = (nbits / 64 + 1) * 8;
  len_obj = PyLong_FromSize_t(nbytes);
  to_bytes = len_obj == NULL ? NULL : PyObject_GetAttrString(obj, "to_bytes");
  bytes = to_bytes == NULL ? NULL : call_little_signed(to_bytes, len_obj);
  Py_XDECREF(len_obj);
  Py_XDECREF(to_bytes);
  if (bytes == NULL) return -1;
  if (PyBytes_AsStringAndSize(bytes, &data, &size) != 0) {
    Py_DECREF(bytes);
    return -1;
  }
  if (!host_is_little_endian()) swap_words(data, (size_t)size); /* our own fresh bytes */
  content.data = data;
  content.size = (size_t)size;
  rc = TVMFFIBigIntFromByteArray(&content, out);
  Py_DECREF(bytes);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  if (out->type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, out->v_obj);
  return 0;
}

/* Steals *value, a kTVMFFIBigInt. */
static PyObject *big_int_to_py(TVMFFIAny *value) {
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(value);
  PyObject *bytes = PyBytes_FromStringAndSize(content.data, (Py_ssize_t)content.size);
  PyObject *from_bytes, *res = NULL;
  TVMFFIObjectDecRef(value->v_obj);
  if (bytes == NULL) return NULL;
  if (!host_is_little_endian()) swap_words(PyBytes_AsString(bytes), content.size);
  from_bytes = PyObject_GetAttrString((PyObject *)&PyLong_Type, "from_bytes");
  if (from_bytes != NULL) res = call_little_signed(from_bytes, bytes);
  Py_XDECREF(from_bytes);
  Py_DECREF(bytes);
  return res;
}

/* int64 values inline (the fast path); others as an ffi.BigInt. */
static int int_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                      tvmffi_py_temps *temps) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (overflow != 0) return big_int_to_any(st, obj, out, temps);
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
    tvmffi_py_set_small(out, kTVMFFISmallStr, data, (size_t)size);
    return 0;
  }
  if (memchr(data, 0, (size_t)size) == NULL) {
    /* The UTF-8 buffer is cached in the str, which outlives the call. */
    tvmffi_py_set_head(out, kTVMFFIRawStr);
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
    tvmffi_py_set_small(out, kTVMFFISmallBytes, data, (size_t)size);
    return 0;
  }
  if (TVMFFIBytesFromByteArray(&bytes, out) != 0) return -1;
  if (out->type_index >= kTVMFFIStaticObjectBegin) return tvmffi_py_temps_add(temps, out->v_obj);
  return 0;
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
                              tvmffi_py_temps *outer, TVMFFIAny *result) {
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
  tvmffi_py_temps_init_nested(&inner, outer);
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
  rc = seq == NULL ? -1 : tvmffi_py_array_from_seq(st, seq, temps, &h);
  Py_XDECREF(seq);
  nesting_leave(&frame);
  if (rc != 0) return -1;
  return owned_object_to_any(h, out, temps);
}

/* A dict becomes an ffi.Map (map.c), owned by temps; nesting is guarded as
 * for lists (a dict that contains itself, or one nested too deep). */
static int dict_to_map(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                       tvmffi_py_temps *temps) {
  nesting_frame frame;
  int rc;
  if (nesting_enter(&frame, obj) != 0) return -1;
  rc = tvmffi_py_map_from_mapping(st, TVMFFI_PY_G_MAP, obj, temps, out);
  nesting_leave(&frame);
  if (rc != 0) return -1;
  return tvmffi_py_temps_add(temps, out->v_obj);
}

/* obj is a core.Object (or subclass) instance. */
static int object_to_any(PyObject *obj, TVMFFIAny *out) {
  TVMFFIObjectHandle h = ((tvmffi_py_object *)obj)->handle;
  if (h == NULL) {
    /* The type's name, not repr(obj): a repr may itself need the object. */
    PyObject *name = PyType_GetQualName(Py_TYPE(obj));
    if (name != NULL) {
      PyErr_Format(PyExc_ValueError, "this %U object holds no FFI object (it was never "
                   "initialised)", name);
      Py_DECREF(name);
    }
    return -1;
  }
  set_object(out, h);
  return 0;
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

/* ctypes.c_void_p (borrowed), cached once found.  ctypes is not imported
 * with tvm_ffi (start-up time): until some code imports it, no argument can
 * be a c_void_p, and a pointer result imports it (`import_it`).  NULL with no
 * error when not imported; NULL with an error if importing failed. */
PyObject *tvmffi_py_c_void_p_class(tvmffi_py_state *st, int import_it) {
  PyObject *ctypes;
  if (st->c_void_p != NULL) return st->c_void_p;
  if (import_it) {
    ctypes = PyImport_ImportModule("ctypes");
  } else {
    PyObject *name = PyUnicode_FromString("ctypes");
    if (name == NULL) return NULL;
    ctypes = PyImport_GetModule(name);
    Py_DECREF(name);
  }
  if (ctypes == NULL) return NULL;
  st->c_void_p = PyObject_GetAttrString(ctypes, "c_void_p");
  Py_DECREF(ctypes);
  return st->c_void_p;
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
  int found;
  memset(out, 0, sizeof(*out));

  /* Exact built-in types first: pointer compares only. */
  if (obj == Py_None) return 0;
  if (tp == &PyLong_Type) return int_to_any(st, obj, out, temps);
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
  /* Shortcuts to two records of argtype.c: numpy.ndarray, and the last
   * type seen with a DLPack C exchange API (torch.Tensor); tensor_input.c. */
  if (tp == st->argtype.ndarray_type) {
    return tvmffi_py_tensor_arg(st, obj, st->argtype.ndarray, out, temps);
  }
  if (tp == st->argtype.exchange_type) {
    return tvmffi_py_exchange_to_any(st, obj, st->argtype.exchange_api, out, temps);
  }

  if (tp == st->rvalue_ref_type) return tvmffi_py_rvalue_ref_to_any(obj, out);

  /* Subclasses and protocols. */
  if (PyObject_TypeCheck(obj, st->object_type)) {
    if (object_to_any(obj, out) != 0) return -1;
    /* A container carrying an exchange API inside a list or dict argument
     * passes it on as a top-level one does (pyshim.h). */
    if (tvmffi_py_is_container_index(out->type_index) && TVMFFI_PY_IS_CONTAINER(st, obj) &&
        ((tvmffi_py_container *)obj)->exchange != NULL) {
      (temps->root != NULL ? temps->root : temps)->nested_exchange =
          ((tvmffi_py_container *)obj)->exchange;
    }
    return 0;
  }
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
  if (PyLong_Check(obj)) return int_to_any(st, obj, out, temps);
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
  {
    PyObject *cls = tvmffi_py_c_void_p_class(st, 0);
    if (cls == NULL && PyErr_Occurred()) return -1;
    if (cls != NULL && PyObject_TypeCheck(obj, (PyTypeObject *)cls)) {
      return c_void_p_to_any(st, obj, out);
    }
  }

  /* Rows read off the class, by its record (argtype.c): tensors (numpy
   * arrays, the DLPack C exchange API, __dlpack__; tensor_input.c),
   * __tvm_ffi_object__, numpy.bool_, numpy dtypes, __cuda_stream__,
   * __tvm_ffi_int__ ... */
  found = tvmffi_py_argtype_to_any(st, obj, out, temps);
  if (found != 0) return found < 0 ? -1 : 0;

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
    rc = int_to_any(st, idx, out, temps);
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

/* Both entry points below (inlined into each: the callback return path
 * takes the one without an outer state). */
static inline int to_owned_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                               tvmffi_py_temps *outer) {
  tvmffi_py_temps temps;
  TVMFFIAny view;
  int rc;
  /* Fast paths that need no temporaries and no copy. */
  if (obj == Py_None) {
    memset(out, 0, sizeof(*out));
    return 0;
  }
  tvmffi_py_temps_init_nested(&temps, outer);
  rc = tvmffi_py_to_any(st, obj, &view, &temps);
  if (rc == 0) {
    memset(out, 0, sizeof(*out));
    rc = TVMFFIAnyViewToOwnedAny(&view, out);
    if (rc != 0) tvmffi_py_raise_from_ffi(st, rc);
  }
  tvmffi_py_temps_release(&temps);
  return rc;
}

int tvmffi_py_to_owned_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out) {
  return to_owned_any(st, obj, out, NULL);
}

int tvmffi_py_to_owned_any_in(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                              tvmffi_py_temps *outer) {
  return to_owned_any(st, obj, out, outer);
}

/* ---- FFI -> Python ----------------------------------------------------------- */

PyObject *tvmffi_py_str_from_utf8(const char *data, size_t size) {
  if (size == 0) return PyUnicode_FromStringAndSize("", 0);
  return PyUnicode_DecodeUTF8(data, (Py_ssize_t)size, "replace");
}

PyObject *tvmffi_py_small_str(tvmffi_py_state *st, const TVMFFIAny *value) {
  /* Direct-mapped on the inline bytes and length: map keys and short
   * results repeat, and a hit costs a compare instead of a new str. */
  uint64_t bits;
  uint32_t len = value->small_str_len;
  size_t slot;
  PyObject *s;
  if (len > 7) len = 7; /* never, for a valid SmallStr */
  bits = tvmffi_py_small_word(value->v_bytes, len);
  slot = (size_t)(((bits ^ len) * 0x9E3779B97F4A7C15ull) >> 58); /* 6 bits: 64 slots */
  s = st->small_strs[slot];
  if (s != NULL && st->small_str_keys[slot] == bits && st->small_str_lens[slot] == len) {
    return Py_NewRef(s);
  }
  s = tvmffi_py_str_from_utf8(value->v_bytes, len);
  if (s == NULL) return NULL;
  {
    PyObject *old = st->small_strs[slot];
    st->small_strs[slot] = Py_NewRef(s);
    Py_XDECREF(old);
  }
  st->small_str_keys[slot] = bits;
  st->small_str_lens[slot] = (unsigned char)len;
  return s;
}

PyObject *tvmffi_py_str_from_bytearray(const TVMFFIByteArray *b) {
  return tvmffi_py_str_from_utf8(b->data, b->size);
}

int tvmffi_py_str_to_bytearray(PyObject *s, TVMFFIByteArray *out) {
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

static PyObject *make_c_void_p(tvmffi_py_state *st, void *ptr) {
  PyObject *arg, *res, *cls = tvmffi_py_c_void_p_class(st, 1);
  if (cls == NULL) return NULL;
  arg = ptr == NULL ? Py_NewRef(Py_None) : PyLong_FromVoidPtr(ptr);
  if (arg == NULL) return NULL;
  res = tvmffi_py_call1(cls, arg);
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
      return tvmffi_py_str_from_utf8(value->v_c_str, strlen(value->v_c_str));
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray *b = (const TVMFFIByteArray *)value->v_ptr;
      return PyBytes_FromStringAndSize(b->data, (Py_ssize_t)b->size);
    }
    case kTVMFFISmallStr:
      return tvmffi_py_small_str(st, value);
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
  if (value->type_index == kTVMFFIBigInt) return big_int_to_py(value);
  h = value->v_obj;
  switch (value->type_index) {
    case kTVMFFIStr: {
      TVMFFIByteArray *b = TVMFFIBytesGetByteArrayPtr(h);
      PyObject *res = tvmffi_py_str_from_utf8(b->data, b->size);
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

/* ---- module functions of this file -------------------------------------------- */

/* _convert(value): the FFI value of a Python value, as Python sees FFI values;
 * objects (including ffi.OpaquePyObject) stay wrapped. */
static PyObject *mod_convert(PyObject *module, PyObject *value) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIAny v;
  if (tvmffi_py_to_owned_any(st, value, &v) != 0) return NULL;
  if (v.type_index >= kTVMFFIStaticObjectBegin && v.type_index != kTVMFFIStr &&
      v.type_index != kTVMFFIBytes && v.type_index != kTVMFFIShape) {
    return tvmffi_py_object_wrap(st, v.v_obj);
  }
  return tvmffi_py_from_any(st, &v);
}

/* _set_class(kind, cls): "dtype" or "shape". */
static PyObject *mod_set_class(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  PyObject **slot;
  const char *kind;
  if (tvmffi_py_check_nargs("_set_class", nargs, 2, 2) != 0) return NULL;
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
  /* Remembered results were made by the previous class. */
  if (slot == &st->dtype_cls) tvmffi_py_dtype_memo_clear(st);
  Py_RETURN_NONE;
}

static PyMethodDef convert_functions[] = {
    {"_convert", mod_convert, METH_O, NULL},
    {"_set_class", TVMFFI_PY_METH(mod_set_class), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_convert(PyObject *module, tvmffi_py_state *st) {
  (void)st;
  return PyModule_AddFunctions(module, convert_functions);
}

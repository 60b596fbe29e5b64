/* tensor_input.c: every way a Python value becomes an ffi.Tensor, for call
 * arguments (tvmffi_py_tensor_arg) and for from_dlpack
 * (tvmffi_py_tensor_from_object):
 *
 * - exactly numpy.ndarray, dtype seen before: numpy's array struct is read
 *   (no Python call, no capsule);
 * - exactly numpy.ndarray otherwise: the buffer protocol, when the format is
 *   a plain bool/int/float/complex, which also teaches the dtype and checks
 *   the struct layout; bfloat16 and float8 arrays of ml_dtypes through a
 *   same-size unsigned view;
 * - types with a DLPack C exchange API (exchange.c finds and checks the
 *   table): managed_tensor_from_py_object_no_sync, with the API and the
 *   producer's stream recorded in the call's conversion state (a refusal,
 *   BufferError, falls back to __dlpack__ for from_dlpack);
 * - anything else with __dlpack__: the capsule protocol, asking for a
 *   versioned capsule first and falling back to the legacy call; and
 *   DLPack capsules themselves ("dltensor_versioned" or legacy "dltensor")
 *   for from_dlpack.
 * The tensor keeps the Python object alive until its last FFI reference goes.
 *
 * Which of these a type offers is its record in argtype.c (TVMFFI_PY_KIND_*),
 * decided once per type.
 */
#include "pyshim.h"

#include <stdlib.h>
#include <string.h>

/* ---- DLPack capsules ------------------------------------------------------------ */

/* Consumes a "dltensor_versioned" or "dltensor" capsule into a new tensor and
 * renames it "used_...".  On failure the capsule is left as it was, so that
 * its destructor still frees the tensor. */
int tvmffi_py_tensor_from_capsule(tvmffi_py_state *st, PyObject *cap, int32_t align, int contiguous,
                               TVMFFIObjectHandle *out) {
  const char *name;
  int rc;
  if (!PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "expected a DLPack capsule, got %R", cap);
    return -1;
  }
  name = PyCapsule_GetName(cap);
  if (name == NULL && PyErr_Occurred()) return -1;
  if (name != NULL && strcmp(name, TVMFFI_PY_CAPSULE_VERSIONED) == 0) {
    DLManagedTensorVersioned *mt = PyCapsule_GetPointer(cap, TVMFFI_PY_CAPSULE_VERSIONED);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPackVersioned(mt, align, contiguous, out);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return -1;
    }
    /* Cannot fail: the capsule is valid (its pointer was just read). */
    PyCapsule_SetName(cap, TVMFFI_PY_CAPSULE_USED_VERSIONED);
    return 0;
  }
  if (name != NULL && strcmp(name, TVMFFI_PY_CAPSULE_LEGACY) == 0) {
    DLManagedTensor *mt = PyCapsule_GetPointer(cap, TVMFFI_PY_CAPSULE_LEGACY);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPack(mt, align, contiguous, out);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return -1;
    }
    PyCapsule_SetName(cap, TVMFFI_PY_CAPSULE_USED_LEGACY);
    return 0;
  }
  if (name != NULL &&
      (strcmp(name, TVMFFI_PY_CAPSULE_USED_VERSIONED) == 0 || strcmp(name, TVMFFI_PY_CAPSULE_USED_LEGACY) == 0)) {
    PyErr_Format(PyExc_ValueError, "the DLPack capsule was already consumed (its name is '%s')",
                 name);
    return -1;
  }
  PyErr_Format(PyExc_TypeError,
               "expected a DLPack capsule named 'dltensor_versioned' or 'dltensor', got one "
               "named %s%s%s",
               name ? "'" : "", name ? name : "NULL", name ? "'" : "");
  return -1;
}

/* obj.__dlpack__(max_version=(1, 3)), or obj.__dlpack__() for producers
 * that do not know max_version (they raise TypeError), then consumes it. */
static int tensor_from_dlpack_method(tvmffi_py_state *st, PyObject *obj, int32_t align,
                                     int contiguous, TVMFFIObjectHandle *out) {
  PyObject *args[2], *cap;
  int rc;
  args[0] = obj;
  args[1] = st->tensor.max_version;
  cap = PyObject_VectorcallMethod(st->str_dlpack, args, 1, st->tensor.kwnames);
  if (cap == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
    PyErr_Clear();
    cap = PyObject_VectorcallMethod(st->str_dlpack, args, 1, NULL);
    if (cap == NULL) return -1;
  }
  if (!PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "__dlpack__() of %R returned %R, not a DLPack capsule", obj,
                 cap);
    Py_DECREF(cap);
    return -1;
  }
  rc = tvmffi_py_tensor_from_capsule(st, cap, align, contiguous, out);
  if (rc != 0) {
    /* An unconsumed capsule frees its tensor now: its destructor must not
     * see the pending exception. */
    PyObject *exc = PyErr_GetRaisedException();
    Py_DECREF(cap);
    PyErr_SetRaisedException(exc);
  } else {
    Py_DECREF(cap);
  }
  return rc;
}

/* ---- numpy arrays without a capsule ------------------------------------------------ */

/* layout = { DLManagedTensorVersioned, Py_buffer, int64 shape[ndim], int64 strides[ndim] };
 * one malloc block, so that it can be freed without the GIL.  view.obj keeps
 * the array alive: through a buffer export (has_buffer) or as a plain strong
 * reference (numpy's array struct read directly). */
typedef struct {
  DLManagedTensorVersioned mt; /* first: the deleter gets &mt */
  Py_buffer view;
  int has_buffer;
  int64_t dims[];
} py_tensor;

static void release_view(Py_buffer *view, int has_buffer) {
  if (has_buffer) {
    PyBuffer_Release(view);
  } else {
    Py_CLEAR(view->obj);
  }
}

static void py_tensor_deleter(DLManagedTensorVersioned *self) {
  py_tensor *pt = (py_tensor *)self;
  PyGILState_STATE g;
  if (tvmffi_py_gil_enter(&g)) {
    PyObject *exc = PyErr_GetRaisedException();
    release_view(&pt->view, pt->has_buffer);
    PyErr_SetRaisedException(exc);
    tvmffi_py_gil_leave(g);
  }
  free(pt);
}

/* A CPU tensor over the memory *view describes (strides in bytes, itemsize
 * set), of type dtype.  *view is moved in: the tensor owns it, or it is
 * released here.  1: made; 0: not representable (strides that are not a
 * multiple of the item size), nothing raised; -1: error raised. */
static int tensor_from_view(tvmffi_py_state *st, Py_buffer *view, int has_buffer,
                            DLDataType dtype, int32_t align, int contiguous,
                            TVMFFIObjectHandle *out) {
  Py_ssize_t i, ndim = view->ndim, itemsize = view->itemsize;
  py_tensor *pt;
  int rc;
  for (i = 0; i < ndim; ++i) {
    if (view->strides[i] % itemsize != 0) {
      release_view(view, has_buffer);
      return 0;
    }
  }
  pt = malloc(sizeof(py_tensor) + sizeof(int64_t) * 2 * (size_t)ndim);
  if (pt == NULL) {
    release_view(view, has_buffer);
    PyErr_NoMemory();
    return -1;
  }
  for (i = 0; i < ndim; ++i) {
    pt->dims[i] = (int64_t)view->shape[i];
    pt->dims[ndim + i] = (int64_t)(view->strides[i] / itemsize);
  }
  pt->mt.version.major = TVMFFI_PY_DLPACK_MAJOR;
  pt->mt.version.minor = TVMFFI_PY_DLPACK_MINOR;
  pt->mt.manager_ctx = NULL;
  pt->mt.deleter = py_tensor_deleter;
  pt->mt.flags = view->readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  pt->mt.dl_tensor.data = view->buf;
  pt->mt.dl_tensor.device.device_type = kDLCPU;
  pt->mt.dl_tensor.device.device_id = 0;
  pt->mt.dl_tensor.ndim = (int32_t)ndim;
  pt->mt.dl_tensor.dtype = dtype;
  pt->mt.dl_tensor.shape = ndim > 0 ? pt->dims : NULL;
  pt->mt.dl_tensor.strides = ndim > 0 ? pt->dims + ndim : NULL;
  pt->mt.dl_tensor.byte_offset = 0;
  /* numpy keeps no state at the address of a Py_buffer, so it can move. */
  pt->view = *view;
  pt->has_buffer = has_buffer;
  rc = TVMFFITensorFromDLPackVersioned(&pt->mt, align, contiguous, out);
  if (rc != 0) {
    release_view(&pt->view, has_buffer);
    free(pt);
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  return 1;
}

/* The DLPack type of a struct-module format with one item of itemsize bytes,
 * or -1 for anything else (byte-swapped, long double, records...). */
static int format_to_dtype(const char *fmt, Py_ssize_t itemsize, DLDataType *out) {
  int code;
  char c;
  if (fmt == NULL) fmt = "B";
  if (*fmt == '@' || *fmt == '=') {
    ++fmt;
  } else if (*fmt == '<' || *fmt == '>' || *fmt == '!') {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    if (*fmt == '<' && itemsize > 1) return -1;
#else
    if (*fmt != '<' && itemsize > 1) return -1;
#endif
    ++fmt;
  }
  c = fmt[0];
  if (c == 'Z') {
    if ((fmt[1] != 'e' && fmt[1] != 'f' && fmt[1] != 'd') || fmt[2] != '\0') return -1;
    if (itemsize != 4 && itemsize != 8 && itemsize != 16) return -1;
    code = kDLComplex;
  } else {
    if (c == '\0' || fmt[1] != '\0') return -1;
    switch (c) {
      case '?':
        if (itemsize != 1) return -1;
        code = kDLBool;
        break;
      case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
        code = kDLInt;
        break;
      case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
        code = kDLUInt;
        break;
      case 'e': case 'f': case 'd':
        code = kDLFloat;
        break;
      default:
        return -1;
    }
    if (code != kDLBool && itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8) {
      return -1;
    }
    if (code == kDLFloat && itemsize == 1) return -1;
  }
  out->code = (uint8_t)code;
  out->bits = (uint8_t)(itemsize * 8);
  out->lanes = 1;
  return 0;
}

/* The leading fields of numpy's array object: PyArrayObject_fields of
 * numpy's C headers, the layout its inline accessors (PyArray_DATA,
 * PyArray_NDIM, ...) read, unchanged since numpy 1.7.  This file trusts it
 * only after it matched the buffer protocol on real arrays (learn_descr). */
typedef struct {
  PyObject_HEAD
  char *data;
  int nd;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides;
  PyObject *base;
  PyObject *descr;
  int flags;
} numpy_array_head;

#define NUMPY_ARRAY_WRITEABLE 0x0400

/* Whether numpy's array struct of arr says what the buffer view of arr says.
 * Fields are compared before any pointer in them is followed. */
static int ndarray_layout_matches(PyObject *arr, const Py_buffer *view) {
  const numpy_array_head *a = (const numpy_array_head *)arr;
  PyObject *descr;
  Py_ssize_t i;
  int same;
  if ((void *)a->data != view->buf || a->nd != view->ndim) return 0;
  descr = PyObject_GetAttrString(arr, "dtype");
  if (descr == NULL) {
    PyErr_Clear();
    return 0;
  }
  same = descr == a->descr;
  Py_DECREF(descr);
  if (!same || ((a->flags & NUMPY_ARRAY_WRITEABLE) == 0) != (view->readonly != 0)) return 0;
  for (i = 0; i < view->ndim; ++i) {
    if (a->dimensions[i] != view->shape[i] || a->strides[i] != view->strides[i]) return 0;
  }
  return 1;
}

/* Remembers that arrays with arr's numpy dtype (descr) are DLPack type dtype,
 * once the array struct of arr agreed with its buffer view. */
static void learn_descr(tvmffi_py_state *st, PyObject *arr, const Py_buffer *view,
                        DLDataType dtype) {
  tvmffi_py_tensor_state *ts = &st->tensor;
  PyObject *descr = ((const numpy_array_head *)arr)->descr;
  int i;
  if (ts->ndarray_layout < 0) return;
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) {
    if (ts->descrs[i] == descr) return;
    if (ts->descrs[i] == NULL) break;
  }
  if (i == TVMFFI_PY_TENSOR_CACHE) return;
  if (!ndarray_layout_matches(arr, view)) {
    ts->ndarray_layout = -1;
    return;
  }
  ts->ndarray_layout = 1;
  ts->descrs[i] = Py_NewRef(descr);
  ts->dtypes[i] = dtype;
  ts->itemsizes[i] = view->itemsize;
}

/* A numpy array whose dtype was learned: read its struct, no Python call.
 * Same results as tensor_from_view. */
static int tensor_from_ndarray(tvmffi_py_state *st, PyObject *arr, int32_t align, int contiguous,
                               TVMFFIObjectHandle *out) {
  tvmffi_py_tensor_state *ts = &st->tensor;
  const numpy_array_head *a = (const numpy_array_head *)arr;
  Py_buffer view;
  int i;
  if (ts->ndarray_layout <= 0) return 0;
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) {
    if (ts->descrs[i] == a->descr) break;
    if (ts->descrs[i] == NULL) return 0;
  }
  if (i == TVMFFI_PY_TENSOR_CACHE) return 0;
  memset(&view, 0, sizeof(view));
  view.buf = a->data;
  view.obj = Py_NewRef(arr);
  view.itemsize = ts->itemsizes[i];
  view.readonly = (a->flags & NUMPY_ARRAY_WRITEABLE) == 0;
  view.ndim = a->nd;
  view.shape = a->dimensions;
  view.strides = a->strides;
  return tensor_from_view(st, &view, 0, ts->dtypes[i], align, contiguous, out);
}

/* Wraps the buffer of obj as a tensor of type dt (or of the type its format
 * says when dt is NULL).  When learn is a numpy array (obj itself or a view
 * of it), its dtype is remembered for tensor_from_ndarray.  Same results as
 * tensor_from_view. */
static int tensor_from_buffer(tvmffi_py_state *st, PyObject *obj, const DLDataType *dt,
                              PyObject *learn, int32_t align, int contiguous,
                              TVMFFIObjectHandle *out) {
  Py_buffer view;
  DLDataType dtype;
  if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return 0;
  }
  if (view.itemsize <= 0 || view.ndim < 0 ||
      (view.ndim > 0 && (view.shape == NULL || view.strides == NULL)) ||
      format_to_dtype(view.format, view.itemsize, &dtype) != 0 ||
      (dt != NULL && (Py_ssize_t)dt->bits != view.itemsize * 8)) {
    PyBuffer_Release(&view);
    return 0;
  }
  if (dt != NULL) dtype = *dt;
  if (learn != NULL) learn_descr(st, learn, &view, dtype);
  return tensor_from_view(st, &view, 1, dtype, align, contiguous, out);
}

/* numpy dtype names of ml_dtypes types that DLPack can describe: numpy's own
 * __dlpack__ refuses them, and the buffer protocol does not know them. */
static const struct {
  const char *name;
  uint8_t code, bits;
} kMlDtypes[] = {
    {"bfloat16", kDLBfloat, 16},
    {"float8_e3m4", kDLFloat8_e3m4, 8},
    {"float8_e4m3", kDLFloat8_e4m3, 8},
    {"float8_e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8},
    {"float8_e4m3fn", kDLFloat8_e4m3fn, 8},
    {"float8_e4m3fnuz", kDLFloat8_e4m3fnuz, 8},
    {"float8_e5m2", kDLFloat8_e5m2, 8},
    {"float8_e5m2fnuz", kDLFloat8_e5m2fnuz, 8},
    {"float8_e8m0fnu", kDLFloat8_e8m0fnu, 8},
    {NULL, 0, 0}};

/* An ml_dtypes array: its buffer through arr.view(uint8/uint16), typed as the
 * ml_dtypes type.  Same results as tensor_from_buffer. */
static int tensor_from_ml_dtypes(tvmffi_py_state *st, PyObject *arr, int32_t align,
                                 int contiguous, TVMFFIObjectHandle *out) {
  PyObject *dtype, *name, *view;
  const char *s;
  DLDataType dt;
  int i, rc = 0;
  dtype = PyObject_GetAttrString(arr, "dtype");
  if (dtype == NULL) goto clear;
  name = PyObject_GetAttrString(dtype, "name");
  Py_DECREF(dtype);
  if (name == NULL) goto clear;
  s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
  if (s == NULL) {
    Py_DECREF(name);
    goto clear;
  }
  for (i = 0; kMlDtypes[i].name != NULL; ++i) {
    if (strcmp(kMlDtypes[i].name, s) == 0) break;
  }
  Py_DECREF(name);
  if (kMlDtypes[i].name == NULL) return 0;
  dt.code = kMlDtypes[i].code;
  dt.bits = kMlDtypes[i].bits;
  dt.lanes = 1;
  view = PyObject_CallMethod(arr, "view", "s", dt.bits == 8 ? "u1" : "u2");
  if (view == NULL) goto clear;
  rc = tensor_from_buffer(st, view, &dt, arr, align, contiguous, out);
  Py_DECREF(view);
  return rc;
clear:
  PyErr_Clear();
  return 0;
}

/* 1 done (new reference in *out), 0 not possible this way (use __dlpack__),
 * -1 error. */
static int tensor_from_numpy(tvmffi_py_state *st, PyObject *arr, int32_t align, int contiguous,
                             TVMFFIObjectHandle *out) {
  int rc = tensor_from_ndarray(st, arr, align, contiguous, out);
  if (rc == 0) rc = tensor_from_buffer(st, arr, NULL, arr, align, contiguous, out);
  if (rc == 0) rc = tensor_from_ml_dtypes(st, arr, align, contiguous, out);
  return rc;
}

/* ---- the DLPack C exchange API ----------------------------------------------------- */

/* After a producer function returned non-zero: its Python error, or one
 * saying it gave none. */
static void producer_failed(PyObject *obj, const char *what) {
  PyObject *name;
  if (PyErr_Occurred()) return;
  name = PyType_GetQualName(Py_TYPE(obj));
  if (name == NULL) {
    PyErr_Clear();
    name = PyUnicode_FromString("?");
    if (name == NULL) return;
  }
  PyErr_Format(PyExc_BufferError, "%s of the DLPack C exchange API of class %U failed", what,
               name);
  Py_DECREF(name);
}

/* A new DLManagedTensorVersioned for obj from the producer, or NULL with an error. */
static DLManagedTensorVersioned *managed_from_producer(PyObject *obj,
                                                       const DLPackExchangeAPI *api) {
  DLManagedTensorVersioned *mt = NULL;
  if (api->managed_tensor_from_py_object_no_sync(obj, &mt) != 0 || mt == NULL) {
    if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
    producer_failed(obj, "managed_tensor_from_py_object_no_sync");
    return NULL;
  }
  return mt;
}

/* Wraps mt in a tensor (steals mt either way). */
static int tensor_of_managed(tvmffi_py_state *st, DLManagedTensorVersioned *mt, int32_t align,
                             int contiguous, TVMFFIObjectHandle *out) {
  int rc = TVMFFITensorFromDLPackVersioned(mt, align, contiguous, out);
  if (rc != 0) {
    if (mt->deleter != NULL) mt->deleter(mt);
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  return 0;
}

int tvmffi_py_exchange_to_any(tvmffi_py_state *st, PyObject *obj, const DLPackExchangeAPI *api,
                              TVMFFIAny *out, tvmffi_py_temps *temps) {
  DLManagedTensorVersioned *mt = managed_from_producer(obj, api);
  DLDevice device;
  TVMFFIObjectHandle h;
  if (mt == NULL) return -1;
  device = mt->dl_tensor.device;
  if (tensor_of_managed(st, mt, 0, 0, &h) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->zero_padding = 0;
  out->v_obj = (TVMFFIObject *)h;
  if (tvmffi_py_temps_add(temps, h) != 0) return -1;
  tvmffi_py_temps_note_exchange(temps, api);
  /* The stream the producer works on, for the first non-CPU tensor. */
  if (device.device_type != kDLCPU && temps->stream_device_type == -1 &&
      api->current_work_stream != NULL) {
    void *stream = NULL;
    if (api->current_work_stream(device.device_type, device.device_id, &stream) != 0) {
      producer_failed(obj, "current_work_stream");
      return -1;
    }
    temps->stream_device_type = (int32_t)device.device_type;
    temps->stream_device_id = device.device_id;
    temps->stream = stream;
  }
  return 0;
}

/* A new tensor reference for obj through api.  0, or -1 with an error
 * (BufferError when the producer or the checks refused). */
static int exchange_to_tensor(tvmffi_py_state *st, PyObject *obj, const DLPackExchangeAPI *api,
                              int32_t align, int contiguous, TVMFFIObjectHandle *out) {
  DLManagedTensorVersioned *mt = managed_from_producer(obj, api);
  if (mt == NULL) return -1;
  return tensor_of_managed(st, mt, align, contiguous, out);
}


/* ---- by the type's record ------------------------------------------------------------ */

/* A new tensor reference for obj, whose type offers a tensor (rec->dlpack
 * or rec->exchange).  numpy's own paths first; then the exchange API, where
 * a BufferError (the producer or the checks refused) falls back to
 * __dlpack__ when the type has it. */
static int tensor_from_producer(tvmffi_py_state *st, PyObject *obj,
                                const tvmffi_py_type_record *rec, int32_t align, int contiguous,
                                TVMFFIObjectHandle *out) {
  if (rec->kind == TVMFFI_PY_KIND_NUMPY_ARRAY) {
    int rc = tensor_from_numpy(st, obj, align, contiguous, out);
    if (rc != 0) return rc < 0 ? -1 : 0;
  }
  if (rec->exchange != NULL) {
    if (exchange_to_tensor(st, obj, rec->exchange, align, contiguous, out) == 0) return 0;
    if (!rec->dlpack || !PyErr_ExceptionMatches(PyExc_BufferError)) return -1;
    PyErr_Clear();
  }
  return tensor_from_dlpack_method(st, obj, align, contiguous, out);
}

int tvmffi_py_tensor_arg(tvmffi_py_state *st, PyObject *obj, const tvmffi_py_type_record *rec,
                         TVMFFIAny *out, tvmffi_py_temps *temps) {
  TVMFFIObjectHandle h;
  if (rec->kind == TVMFFI_PY_KIND_EXCHANGE) {
    return tvmffi_py_exchange_to_any(st, obj, rec->exchange, out, temps);
  }
  if (tensor_from_producer(st, obj, rec, 0, 0, &h) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->v_obj = (TVMFFIObject *)h;
  return tvmffi_py_temps_add(temps, h);
}

int tvmffi_py_tensor_from_object(tvmffi_py_state *st, PyObject *obj, int32_t align,
                                 int contiguous, TVMFFIObjectHandle *out) {
  tvmffi_py_type_record scratch;
  const tvmffi_py_type_record *rec;
  if (PyCapsule_CheckExact(obj)) {
    return tvmffi_py_tensor_from_capsule(st, obj, align, contiguous, out) != 0 ? -1 : 1;
  }
  rec = tvmffi_py_type_record_of(st, Py_TYPE(obj), &scratch);
  if (rec == NULL) return -1;
  if (!rec->dlpack && rec->exchange == NULL) return 0;
  return tensor_from_producer(st, obj, rec, align, contiguous, out) != 0 ? -1 : 1;
}

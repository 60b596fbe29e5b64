/* tensor.c: core.Tensor, DLPack capsules in and out, and numpy arrays or any
 * other DLPack producer turned into an ffi.Tensor without a copy.
 *
 * In Python terms:
 *
 *   class Tensor(Object):          # final; made by FFI results or from_dlpack
 *       shape, strides, ndim, dtype, device, byte_offset   (read-only)
 *       def numel(self); def size(self, i); def data_ptr(self); def is_contiguous(self)
 *       def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None)
 *       def __dlpack_device__(self) -> (device_type, device_id)
 *   def from_dlpack(obj, require_alignment=0, require_contiguous=False) -> Tensor
 *   def _env_set_current_stream(device_type, device_id, stream) -> previous stream
 *   def _env_get_current_stream(device_type, device_id) -> stream
 *   __dlpack_version__ = (1, 3)
 *
 * How a Python object becomes a tensor (call arguments and from_dlpack):
 * - exactly numpy.ndarray, dtype seen before: numpy's array struct is read
 *   (no Python call, no capsule);
 * - exactly numpy.ndarray otherwise: the buffer protocol, when the format is
 *   a plain bool/int/float/complex, which also teaches the dtype and checks
 *   the struct layout; bfloat16 and float8 arrays of ml_dtypes through a
 *   same-size unsigned view;
 * - anything else with __dlpack__: the capsule protocol, asking for a
 *   versioned capsule first and falling back to the legacy call.
 * The tensor keeps the Python object alive until its last FFI reference goes.
 */
#include "pyshim.h"

#include <stdlib.h>
#include <string.h>

static const char kLegacyName[] = "dltensor";
static const char kVersionedName[] = "dltensor_versioned";
static const char kUsedLegacyName[] = "used_dltensor";
static const char kUsedVersionedName[] = "used_dltensor_versioned";

/* The DLPack version this package asks producers for and writes itself. */
#define TVMFFI_PY_DLPACK_MAJOR 1
#define TVMFFI_PY_DLPACK_MINOR 3

/* Bits of the per-type classification cached in the module state. */
#define KIND_DLPACK 1     /* the type defines __dlpack__                      */
#define KIND_FFI_OBJECT 2 /* ... and __tvm_ffi_object__, which wins for args  */
#define KIND_NUMPY 4      /* exactly numpy.ndarray: the paths without capsule */

/* ---- Python from any thread ---------------------------------------------------- */

/* Whether a deleter running now may take the GIL.  Once the interpreter is
 * finalizing (or gone) Python references are leaked instead. */
static int may_enter_python(void) {
  if (!Py_IsInitialized()) return 0;
  if (tvmffi_py_finalizing) return PyThread_get_thread_ident() == tvmffi_py_finalizing_thread;
  return 1;
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
  if (may_enter_python()) {
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *exc = PyErr_GetRaisedException();
    release_view(&pt->view, pt->has_buffer);
    PyErr_SetRaisedException(exc);
    PyGILState_Release(g);
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

/* ---- DLPack capsules ------------------------------------------------------------ */

/* Consumes a "dltensor_versioned" or "dltensor" capsule into a new tensor and
 * renames it "used_...".  On failure the capsule is left as it was, so that
 * its destructor still frees the tensor. */
static int tensor_from_capsule(tvmffi_py_state *st, PyObject *cap, int32_t align, int contiguous,
                               TVMFFIObjectHandle *out) {
  const char *name;
  int rc;
  if (!PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "expected a DLPack capsule, got %R", cap);
    return -1;
  }
  name = PyCapsule_GetName(cap);
  if (name == NULL && PyErr_Occurred()) return -1;
  if (name != NULL && strcmp(name, kVersionedName) == 0) {
    DLManagedTensorVersioned *mt = PyCapsule_GetPointer(cap, kVersionedName);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPackVersioned(mt, align, contiguous, out);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return -1;
    }
    /* Cannot fail: the capsule is valid (its pointer was just read). */
    PyCapsule_SetName(cap, kUsedVersionedName);
    return 0;
  }
  if (name != NULL && strcmp(name, kLegacyName) == 0) {
    DLManagedTensor *mt = PyCapsule_GetPointer(cap, kLegacyName);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPack(mt, align, contiguous, out);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return -1;
    }
    PyCapsule_SetName(cap, kUsedLegacyName);
    return 0;
  }
  if (name != NULL &&
      (strcmp(name, kUsedVersionedName) == 0 || strcmp(name, kUsedLegacyName) == 0)) {
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
  rc = tensor_from_capsule(st, cap, align, contiguous, out);
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

/* ---- which Python types are tensors ----------------------------------------------- */

static int has_attr(PyObject *obj, PyObject *name) {
  PyObject *v = PyObject_GetAttr(obj, name);
  if (v != NULL) {
    Py_DECREF(v);
    return 1;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
  PyErr_Clear();
  return 0;
}

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

static int classify_type(tvmffi_py_state *st, PyTypeObject *tp) {
  int kind = 0, r;
  r = has_attr((PyObject *)tp, st->str_dlpack);
  if (r < 0) return -1;
  if (r == 0) return 0;
  kind |= KIND_DLPACK;
  r = has_attr((PyObject *)tp, st->str_ffi_object);
  if (r < 0) return -1;
  if (r) kind |= KIND_FFI_OBJECT;
  if (is_numpy_ndarray(tp)) kind |= KIND_NUMPY;
  return kind;
}

/* The KIND_* bits of tp, cached per type (protocols are read from the class,
 * once, as upstream does).  A full cache just stops caching. */
static int kind_of_type(tvmffi_py_state *st, PyTypeObject *tp) {
  int i, kind;
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) {
    if (st->tensor.types[i] == tp) return st->tensor.kinds[i];
    if (st->tensor.types[i] == NULL) break;
  }
  kind = classify_type(st, tp);
  if (kind < 0) return -1;
  if (i < TVMFFI_PY_TENSOR_CACHE) {
    st->tensor.types[i] = (PyTypeObject *)Py_NewRef((PyObject *)tp);
    st->tensor.kinds[i] = (unsigned char)kind;
  }
  /* convert.c then sends numpy arrays here before any other check. */
  if ((kind & KIND_NUMPY) && st->tensor.ndarray_type == NULL) {
    st->tensor.ndarray_type = (PyTypeObject *)Py_NewRef((PyObject *)tp);
  }
  return kind;
}

/* A new tensor reference for obj, whose type has the KIND_DLPACK bit. */
static int tensor_from_producer(tvmffi_py_state *st, PyObject *obj, int kind, int32_t align,
                                int contiguous, TVMFFIObjectHandle *out) {
  if (kind & KIND_NUMPY) {
    int rc = tensor_from_ndarray(st, obj, align, contiguous, out);
    if (rc == 0) rc = tensor_from_buffer(st, obj, NULL, obj, align, contiguous, out);
    if (rc == 0) rc = tensor_from_ml_dtypes(st, obj, align, contiguous, out);
    if (rc != 0) return rc < 0 ? -1 : 0;
  }
  return tensor_from_dlpack_method(st, obj, align, contiguous, out);
}

int tvmffi_py_tensor_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                            tvmffi_py_temps *temps) {
  TVMFFIObjectHandle h;
  int kind = kind_of_type(st, Py_TYPE(obj));
  if (kind < 0) return -1;
  if (!(kind & KIND_DLPACK) || (kind & KIND_FFI_OBJECT)) return 0;
  if (tensor_from_producer(st, obj, kind, 0, 0, &h) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->v_obj = (TVMFFIObject *)h;
  return tvmffi_py_temps_add(temps, h) != 0 ? -1 : 1;
}

/* ---- core.Tensor --------------------------------------------------------------------- */

static DLTensor *tensor_of(PyObject *self) {
  TVMFFIObjectHandle h = ((tvmffi_py_object *)self)->handle;
  if (h == NULL) {
    PyErr_SetString(PyExc_ValueError, "the tensor holds no FFI object");
    return NULL;
  }
  return TVMFFITensorGetDLTensorPtr(h);
}

static PyObject *int64_tuple(const int64_t *v, int32_t n) {
  PyObject *t = PyTuple_New(n);
  int32_t i;
  if (t == NULL) return NULL;
  for (i = 0; i < n; ++i) {
    PyObject *x = PyLong_FromLongLong(v[i]);
    if (x == NULL) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SetItem(t, i, x);
  }
  return t;
}

static PyObject *Tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  (void)type;
  (void)args;
  (void)kwds;
  PyErr_SetString(PyExc_TypeError,
                  "tvm_ffi.Tensor cannot be made directly: use tvm_ffi.from_dlpack(obj)");
  return NULL;
}

static PyObject *Tensor_get_shape(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  (void)closure;
  if (t == NULL) return NULL;
  return int64_tuple(t->shape, t->ndim);
}

/* Strides in elements; compact row-major ones when the tensor has none. */
static PyObject *Tensor_get_strides(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  PyObject *res;
  int64_t *tmp, step = 1;
  int32_t i;
  (void)closure;
  if (t == NULL) return NULL;
  if (t->strides != NULL || t->ndim == 0) return int64_tuple(t->strides, t->ndim);
  tmp = PyMem_Malloc(sizeof(int64_t) * (size_t)t->ndim);
  if (tmp == NULL) return PyErr_NoMemory();
  for (i = t->ndim - 1; i >= 0; --i) {
    tmp[i] = step;
    if (i > 0 && __builtin_mul_overflow(step, t->shape[i], &step)) {
      PyMem_Free(tmp);
      PyErr_SetString(PyExc_OverflowError, "tensor strides overflow int64");
      return NULL;
    }
  }
  res = int64_tuple(tmp, t->ndim);
  PyMem_Free(tmp);
  return res;
}

static PyObject *Tensor_get_ndim(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  (void)closure;
  return t == NULL ? NULL : PyLong_FromLong(t->ndim);
}

static PyObject *Tensor_get_byte_offset(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  (void)closure;
  return t == NULL ? NULL : PyLong_FromUnsignedLongLong(t->byte_offset);
}

static PyObject *Tensor_get_dtype(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  (void)closure;
  if (t == NULL) return NULL;
  return tvmffi_py_dtype_from_dl(PyType_GetModuleState(Py_TYPE(self)), t->dtype);
}

static PyObject *Tensor_get_device(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  (void)closure;
  if (t == NULL) return NULL;
  return tvmffi_py_device_new(PyType_GetModuleState(Py_TYPE(self)), t->device);
}

static PyObject *Tensor_numel(PyObject *self, PyObject *unused) {
  DLTensor *t = tensor_of(self);
  int64_t n = 1;
  int32_t i;
  (void)unused;
  if (t == NULL) return NULL;
  for (i = 0; i < t->ndim; ++i) {
    if (__builtin_mul_overflow(n, t->shape[i], &n)) {
      PyErr_SetString(PyExc_OverflowError, "tensor element count overflows int64");
      return NULL;
    }
  }
  return PyLong_FromLongLong(n);
}

static PyObject *Tensor_size(PyObject *self, PyObject *index) {
  DLTensor *t = tensor_of(self);
  long i;
  if (t == NULL) return NULL;
  i = PyLong_AsLong(index);
  if (i == -1 && PyErr_Occurred()) return NULL;
  if (i < -(long)t->ndim || i >= (long)t->ndim) {
    PyErr_Format(PyExc_IndexError, "dimension %ld out of range for a tensor of %d dimensions", i,
                 (int)t->ndim);
    return NULL;
  }
  if (i < 0) i += t->ndim;
  return PyLong_FromLongLong(t->shape[i]);
}

static PyObject *Tensor_data_ptr(PyObject *self, PyObject *unused) {
  DLTensor *t = tensor_of(self);
  (void)unused;
  if (t == NULL) return NULL;
  return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)t->data + t->byte_offset);
}

/* Row-major contiguity: sizes-1 dimensions may have any stride, and a tensor
 * with no elements is contiguous. */
static PyObject *Tensor_is_contiguous(PyObject *self, PyObject *unused) {
  DLTensor *t = tensor_of(self);
  int64_t expected = 1;
  int overflowed = 0; /* past int64: no stride can match, only size-1 dims may follow */
  int32_t i;
  (void)unused;
  if (t == NULL) return NULL;
  if (t->strides == NULL) Py_RETURN_TRUE;
  for (i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 0) Py_RETURN_TRUE;
  }
  for (i = t->ndim - 1; i >= 0; --i) {
    if (t->shape[i] == 1) continue;
    if (overflowed || t->strides[i] != expected) Py_RETURN_FALSE;
    overflowed = __builtin_mul_overflow(expected, t->shape[i], &expected);
  }
  Py_RETURN_TRUE;
}

static PyObject *Tensor_dlpack_device(PyObject *self, PyObject *unused) {
  DLTensor *t = tensor_of(self);
  (void)unused;
  if (t == NULL) return NULL;
  return Py_BuildValue("(ii)", (int)t->device.device_type, (int)t->device.device_id);
}

static void versioned_capsule_destructor(PyObject *cap) {
  /* Only a capsule nobody consumed still owns its tensor. */
  if (PyCapsule_IsValid(cap, kVersionedName)) {
    DLManagedTensorVersioned *mt = PyCapsule_GetPointer(cap, kVersionedName);
    if (mt->deleter != NULL) mt->deleter(mt);
  }
}

static void legacy_capsule_destructor(PyObject *cap) {
  if (PyCapsule_IsValid(cap, kLegacyName)) {
    DLManagedTensor *mt = PyCapsule_GetPointer(cap, kLegacyName);
    if (mt->deleter != NULL) mt->deleter(mt);
  }
}

/* The (device_type, device_id) pair of a dl_device argument. */
static int parse_dl_device(PyObject *obj, long *type, long *id) {
  if (!PyTuple_Check(obj) || PyTuple_Size(obj) != 2) {
    PyErr_Format(PyExc_TypeError, "dl_device must be a (device_type, device_id) tuple, got %R",
                 obj);
    return -1;
  }
  *type = PyLong_AsLong(PyTuple_GetItem(obj, 0));
  if (*type == -1 && PyErr_Occurred()) return -1;
  *id = PyLong_AsLong(PyTuple_GetItem(obj, 1));
  if (*id == -1 && PyErr_Occurred()) return -1;
  return 0;
}

/* __dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None).
 * The data is never copied and streams are not synchronised: the tensor is
 * handed out as it is. */
static PyObject *Tensor_dlpack(PyObject *self, PyTypeObject *defining_class,
                               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  tvmffi_py_state *st = PyType_GetModuleState(defining_class);
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
  TVMFFIObjectHandle h = ((tvmffi_py_object *)self)->handle;
  DLTensor *t = tensor_of(self);
  Py_ssize_t i, nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);
  int versioned = 0, rc;
  PyObject *cap;
  if (t == NULL) return NULL;
  if (nargs != 0) {
    PyErr_SetString(PyExc_TypeError,
                    "__dlpack__() takes keyword arguments only (stream, max_version, dl_device, "
                    "copy)");
    return NULL;
  }
  for (i = 0; i < nkw; ++i) {
    PyObject *key = PyTuple_GetItem(kwnames, i), **slots[4];
    int k;
    slots[0] = &stream;
    slots[1] = &max_version;
    slots[2] = &dl_device;
    slots[3] = &copy;
    /* Keyword names are interned: compare pointers first. */
    for (k = 0; k < 4 && key != st->tensor.dlpack_kw[k]; ++k) {
    }
    if (k == 4) {
      for (k = 0; k < 4 && PyUnicode_Compare(key, st->tensor.dlpack_kw[k]) != 0; ++k) {
      }
      if (PyErr_Occurred()) return NULL;
    }
    if (k == 4) {
      PyErr_Format(PyExc_TypeError, "__dlpack__() got an unexpected keyword argument %R", key);
      return NULL;
    }
    *slots[k] = args[i];
  }
  if (stream != Py_None && !PyLong_Check(stream)) {
    PyErr_Format(PyExc_TypeError, "__dlpack__(): stream must be None or an int, got %R", stream);
    return NULL;
  }
  if (copy != Py_None) {
    int c = PyObject_IsTrue(copy);
    if (c < 0) return NULL;
    if (c) {
      PyErr_SetString(PyExc_BufferError,
                      "tvm_ffi.Tensor.__dlpack__ cannot copy: copy=True is not supported");
      return NULL;
    }
  }
  if (dl_device != Py_None) {
    long type, id;
    if (parse_dl_device(dl_device, &type, &id) != 0) return NULL;
    if (type != (long)t->device.device_type || id != (long)t->device.device_id) {
      PyErr_Format(PyExc_BufferError,
                   "tvm_ffi.Tensor.__dlpack__ cannot move a tensor on device (%d, %d) to "
                   "device (%ld, %ld)",
                   (int)t->device.device_type, (int)t->device.device_id, type, id);
      return NULL;
    }
  }
  if (max_version != Py_None) {
    long major;
    if (!PyTuple_Check(max_version) || PyTuple_Size(max_version) != 2) {
      PyErr_Format(PyExc_TypeError,
                   "__dlpack__(): max_version must be a (major, minor) tuple, got %R",
                   max_version);
      return NULL;
    }
    major = PyLong_AsLong(PyTuple_GetItem(max_version, 0));
    if (major == -1 && PyErr_Occurred()) return NULL;
    versioned = major >= TVMFFI_PY_DLPACK_MAJOR;
  }
  {
    DLManagedTensorVersioned *mt = NULL;
    rc = TVMFFITensorToDLPackVersioned(h, &mt);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return NULL;
    }
    if (versioned) {
      cap = PyCapsule_New(mt, kVersionedName, versioned_capsule_destructor);
      if (cap == NULL) mt->deleter(mt);
      return cap;
    }
    /* A legacy capsule cannot say "read-only": refuse rather than hand out
     * writable access (numpy does the same). */
    if (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) {
      mt->deleter(mt);
      PyErr_SetString(PyExc_BufferError,
                      "tvm_ffi.Tensor.__dlpack__ cannot export a read-only tensor as a legacy "
                      "DLPack capsule: ask for max_version=(1, 0) or newer");
      return NULL;
    }
    mt->deleter(mt);
  }
  {
    DLManagedTensor *mt = NULL;
    rc = TVMFFITensorToDLPack(h, &mt);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return NULL;
    }
    cap = PyCapsule_New(mt, kLegacyName, legacy_capsule_destructor);
    if (cap == NULL) mt->deleter(mt);
    return cap;
  }
}

static PyObject *Tensor_repr(PyObject *self) {
  tvmffi_py_state *st = PyType_GetModuleState(Py_TYPE(self));
  DLTensor *t = tensor_of(self);
  PyObject *shape, *dtype, *device, *res = NULL;
  if (t == NULL) return NULL;
  shape = int64_tuple(t->shape, t->ndim);
  dtype = tvmffi_py_dtype_from_dl(st, t->dtype);
  device = tvmffi_py_device_new(st, t->device);
  if (shape != NULL && dtype != NULL && device != NULL) {
    res = PyUnicode_FromFormat("tvm_ffi.Tensor(shape=%R, dtype=%S, device=%S)", shape, dtype,
                               device);
  }
  Py_XDECREF(shape);
  Py_XDECREF(dtype);
  Py_XDECREF(device);
  return res;
}

#define TVMFFI_PY_FN(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef Tensor_methods[] = {
    {"numel", Tensor_numel, METH_NOARGS, "The number of elements."},
    {"size", Tensor_size, METH_O, "size(i): the extent of dimension i (negative i counts back)."},
    {"data_ptr", Tensor_data_ptr, METH_NOARGS,
     "The address of the first element (data + byte_offset)."},
    {"is_contiguous", Tensor_is_contiguous, METH_NOARGS,
     "Whether the layout is compact row-major."},
    {"__dlpack__", TVMFFI_PY_FN(Tensor_dlpack), METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None): a DLPack "
     "capsule sharing the data (versioned when max_version >= (1, 0))."},
    {"__dlpack_device__", Tensor_dlpack_device, METH_NOARGS, "(device_type, device_id)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Tensor_getset[] = {
    {"shape", Tensor_get_shape, NULL, "The shape, a tuple of ints.", NULL},
    {"strides", Tensor_get_strides, NULL, "The strides in elements, a tuple of ints.", NULL},
    {"ndim", Tensor_get_ndim, NULL, "The number of dimensions.", NULL},
    {"dtype", Tensor_get_dtype, NULL, "The element type, a tvm_ffi.dtype.", NULL},
    {"device", Tensor_get_device, NULL, "The device, a tvm_ffi.Device.", NULL},
    {"byte_offset", Tensor_get_byte_offset, NULL, "The byte offset of the first element.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Tensor_slots[] = {
    {Py_tp_new, Tensor_new},
    {Py_tp_repr, Tensor_repr},
    {Py_tp_methods, Tensor_methods},
    {Py_tp_getset, Tensor_getset},
    {Py_tp_doc, "An ffi.Tensor: a DLTensor and whoever owns its memory.  Made by FFI functions "
                "and tvm_ffi.from_dlpack; numpy.from_dlpack / torch.from_dlpack take it "
                "without a copy."},
    {0, NULL}};

/* Final (no Py_TPFLAGS_BASETYPE): PyType_GetModuleState(Py_TYPE(self)) is exact. */
static PyType_Spec Tensor_spec = {
    .name = "tvm_ffi.core.Tensor",
    .basicsize = sizeof(tvmffi_py_object),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Tensor_slots,
};

/* ---- module functions -------------------------------------------------------------- */

/* from_dlpack(obj, require_alignment=0, require_contiguous=False) -> Tensor */
static PyObject *mod_from_dlpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
  tvmffi_py_state *st = PyModule_GetState(module);
  PyObject *params[3] = {NULL, NULL, NULL}, *obj;
  static const char *const names[3] = {"obj", "require_alignment", "require_contiguous"};
  Py_ssize_t i, j, nkw = kwnames == NULL ? 0 : PyTuple_Size(kwnames);
  long align = 0;
  int contiguous = 0, kind;
  TVMFFIObjectHandle h = NULL;
  if (nargs > 3) {
    PyErr_Format(PyExc_TypeError, "from_dlpack() takes at most 3 arguments (%zd given)", nargs);
    return NULL;
  }
  for (i = 0; i < nargs; ++i) params[i] = args[i];
  for (i = 0; i < nkw; ++i) {
    PyObject *key = PyTuple_GetItem(kwnames, i);
    for (j = 0; j < 3; ++j) {
      if (PyUnicode_CompareWithASCIIString(key, names[j]) == 0) break;
    }
    if (j == 3) {
      PyErr_Format(PyExc_TypeError, "from_dlpack() got an unexpected keyword argument %R", key);
      return NULL;
    }
    if (params[j] != NULL) {
      PyErr_Format(PyExc_TypeError, "from_dlpack() got multiple values for argument '%s'",
                   names[j]);
      return NULL;
    }
    params[j] = args[nargs + i];
  }
  obj = params[0];
  if (obj == NULL) {
    PyErr_SetString(PyExc_TypeError, "from_dlpack() missing required argument 'obj'");
    return NULL;
  }
  if (params[1] != NULL) {
    align = PyLong_AsLong(params[1]);
    if (align == -1 && PyErr_Occurred()) return NULL;
    if (align < 0 || align > INT32_MAX) {
      PyErr_Format(PyExc_ValueError, "require_alignment must be in [0, 2**31), got %ld", align);
      return NULL;
    }
  }
  if (params[2] != NULL) {
    contiguous = PyObject_IsTrue(params[2]);
    if (contiguous < 0) return NULL;
  }
  if (PyCapsule_CheckExact(obj)) {
    if (tensor_from_capsule(st, obj, (int32_t)align, contiguous, &h) != 0) return NULL;
    return tvmffi_py_object_wrap(st, h);
  }
  /* A Tensor is already one; only the checks need a round trip. */
  if (Py_TYPE(obj) == st->tensor.type && align == 0 && !contiguous) return Py_NewRef(obj);
  kind = kind_of_type(st, Py_TYPE(obj));
  if (kind < 0) return NULL;
  if (!(kind & KIND_DLPACK)) {
    PyErr_Format(PyExc_TypeError,
                 "from_dlpack needs an object with __dlpack__ or a DLPack capsule, got %R", obj);
    return NULL;
  }
  if (tensor_from_producer(st, obj, kind, (int32_t)align, contiguous, &h) != 0) return NULL;
  return tvmffi_py_object_wrap(st, h);
}

static int device_args(PyObject *const *args, int32_t *type, int32_t *id) {
  if (tvmffi_py_as_int32(args[0], "device type", type) != 0) return -1;
  return tvmffi_py_as_int32(args[1], "device id", id);
}

/* _env_set_current_stream(device_type, device_id, stream) -> previous (int) */
static PyObject *mod_env_set_current_stream(PyObject *module, PyObject *const *args,
                                            Py_ssize_t nargs) {
  tvmffi_py_state *st = PyModule_GetState(module);
  int32_t type, id;
  void *stream = NULL;
  TVMFFIStreamHandle prev = NULL;
  int rc;
  if (nargs != 3) {
    PyErr_SetString(PyExc_TypeError,
                    "_env_set_current_stream(device_type, device_id, stream) takes 3 arguments");
    return NULL;
  }
  if (device_args(args, &type, &id) != 0) return NULL;
  if (args[2] != Py_None) {
    stream = PyLong_AsVoidPtr(args[2]);
    if (stream == NULL && PyErr_Occurred()) return NULL;
  }
  rc = TVMFFIEnvSetStream(type, id, stream, &prev);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return PyLong_FromVoidPtr(prev);
}

/* _env_get_current_stream(device_type, device_id) -> int (0 when unset) */
static PyObject *mod_env_get_current_stream(PyObject *module, PyObject *const *args,
                                            Py_ssize_t nargs) {
  int32_t type, id;
  (void)module;
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError,
                    "_env_get_current_stream(device_type, device_id) takes 2 arguments");
    return NULL;
  }
  if (device_args(args, &type, &id) != 0) return NULL;
  return PyLong_FromVoidPtr(TVMFFIEnvGetStream(type, id));
}

static PyMethodDef tensor_functions[] = {
    {"from_dlpack", TVMFFI_PY_FN(mod_from_dlpack), METH_FASTCALL | METH_KEYWORDS,
     "from_dlpack(obj, require_alignment=0, require_contiguous=False): a Tensor sharing the "
     "memory of obj (any object with __dlpack__, or a DLPack capsule)."},
    {"_env_set_current_stream", TVMFFI_PY_FN(mod_env_set_current_stream), METH_FASTCALL, NULL},
    {"_env_get_current_stream", TVMFFI_PY_FN(mod_env_get_current_stream), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

/* ---- state lifecycle ------------------------------------------------------------------- */

int tvmffi_py_tensor_traverse(tvmffi_py_state *st, visitproc visit, void *arg) {
  int i;
  Py_VISIT(st->tensor.type);
  Py_VISIT(st->tensor.kwnames);
  Py_VISIT(st->tensor.max_version);
  Py_VISIT(st->tensor.ndarray_type);
  for (i = 0; i < 4; ++i) Py_VISIT(st->tensor.dlpack_kw[i]);
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) {
    Py_VISIT(st->tensor.types[i]);
    Py_VISIT(st->tensor.descrs[i]);
  }
  return 0;
}

void tvmffi_py_tensor_clear(tvmffi_py_state *st) {
  int i;
  Py_CLEAR(st->tensor.type);
  Py_CLEAR(st->tensor.kwnames);
  Py_CLEAR(st->tensor.max_version);
  Py_CLEAR(st->tensor.ndarray_type);
  for (i = 0; i < 4; ++i) Py_CLEAR(st->tensor.dlpack_kw[i]);
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) {
    Py_CLEAR(st->tensor.types[i]);
    Py_CLEAR(st->tensor.descrs[i]);
  }
  st->tensor.ndarray_layout = 0;
}

int tvmffi_py_init_tensor(PyObject *module, tvmffi_py_state *st) {
  PyObject *version;
  int rc;
  st->tensor.type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &Tensor_spec,
                                                             (PyObject *)st->object_type);
  if (st->tensor.type == NULL) return -1;
  if (PyModule_AddType(module, st->tensor.type) != 0) return -1;
  if (tvmffi_py_register_class(st, kTVMFFITensor, (PyObject *)st->tensor.type) != 0) return -1;
  {
    static const char *const kw[4] = {"stream", "max_version", "dl_device", "copy"};
    int k;
    for (k = 0; k < 4; ++k) {
      st->tensor.dlpack_kw[k] = PyUnicode_InternFromString(kw[k]);
      if (st->tensor.dlpack_kw[k] == NULL) return -1;
    }
    st->tensor.kwnames = PyTuple_Pack(1, st->tensor.dlpack_kw[1]);
  }
  st->tensor.max_version = Py_BuildValue("(ii)", TVMFFI_PY_DLPACK_MAJOR, TVMFFI_PY_DLPACK_MINOR);
  if (st->tensor.kwnames == NULL || st->tensor.max_version == NULL) return -1;
  if (PyModule_AddFunctions(module, tensor_functions) != 0) return -1;
  version = Py_BuildValue("(ii)", TVMFFI_PY_DLPACK_MAJOR, TVMFFI_PY_DLPACK_MINOR);
  if (version == NULL) return -1;
  rc = PyModule_AddObjectRef(module, "__dlpack_version__", version);
  Py_DECREF(version);
  return rc;
}

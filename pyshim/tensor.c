/* tensor.c: core.Tensor, its export as a DLPack capsule, and from_dlpack.
 * The import side (how a Python value becomes a tensor) is tensor_input.c.
 *
 * In Python terms:
 *
 *   class Tensor(Object):          # made by FFI results or from_dlpack; a Python
 *                                  # subclass may stand for it (_set_class_tensor)
 *       shape, strides, ndim, dtype, device, byte_offset   (read-only)
 *       def numel(self); def size(self, i); def data_ptr(self); def is_contiguous(self)
 *       def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None)
 *       def __dlpack_device__(self) -> (device_type, device_id)
 *   def from_dlpack(obj, require_alignment=0, require_contiguous=False) -> Tensor
 *   def _env_set_current_stream(device_type, device_id, stream) -> previous stream
 *   def _env_get_current_stream(device_type, device_id) -> stream
 *   def _set_class_tensor(cls); _CLASS_TENSOR   (the class tensors are wrapped in)
 *   __dlpack_version__ = (1, 3)
 *
 */
#include "pyshim.h"

#include <stdlib.h>
#include <string.h>


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
  return tvmffi_py_dtype_from_dl(((tvmffi_py_object *)self)->state, t->dtype);
}

static PyObject *Tensor_get_device(PyObject *self, void *closure) {
  DLTensor *t = tensor_of(self);
  (void)closure;
  if (t == NULL) return NULL;
  return tvmffi_py_device_new(((tvmffi_py_object *)self)->state, t->device);
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
  if (PyCapsule_IsValid(cap, TVMFFI_PY_CAPSULE_VERSIONED)) {
    DLManagedTensorVersioned *mt = PyCapsule_GetPointer(cap, TVMFFI_PY_CAPSULE_VERSIONED);
    if (mt->deleter != NULL) mt->deleter(mt);
  }
}

static void legacy_capsule_destructor(PyObject *cap) {
  if (PyCapsule_IsValid(cap, TVMFFI_PY_CAPSULE_LEGACY)) {
    DLManagedTensor *mt = PyCapsule_GetPointer(cap, TVMFFI_PY_CAPSULE_LEGACY);
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
      cap = PyCapsule_New(mt, TVMFFI_PY_CAPSULE_VERSIONED, versioned_capsule_destructor);
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
    cap = PyCapsule_New(mt, TVMFFI_PY_CAPSULE_LEGACY, legacy_capsule_destructor);
    if (cap == NULL) mt->deleter(mt);
    return cap;
  }
}

static PyMethodDef Tensor_methods[] = {
    {"numel", Tensor_numel, METH_NOARGS, "The number of elements."},
    {"size", Tensor_size, METH_O, "size(i): the extent of dimension i (negative i counts back)."},
    {"data_ptr", Tensor_data_ptr, METH_NOARGS,
     "The address of the first element (data + byte_offset)."},
    {"is_contiguous", Tensor_is_contiguous, METH_NOARGS,
     "Whether the layout is compact row-major."},
    {"__dlpack__", TVMFFI_PY_METH(Tensor_dlpack), METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
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
    {Py_tp_repr, tvmffi_py_object_repr}, /* float32[2, 3]@cpu:0 */
    {Py_tp_methods, Tensor_methods},
    {Py_tp_getset, Tensor_getset},
    {Py_tp_doc, "An ffi.Tensor: a DLTensor and whoever owns its memory.  Made by FFI functions "
                "and tvm_ffi.from_dlpack; numpy.from_dlpack / torch.from_dlpack take it "
                "without a copy."},
    {0, NULL}};

/* A Python subclass may stand for every tensor (_set_class_tensor): methods take
 * the module state from the wrapper, not from Py_TYPE(self). */
static PyType_Spec Tensor_spec = {
    .name = "tvm_ffi.core.Tensor",
    .basicsize = sizeof(tvmffi_py_object),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_BASETYPE,
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
  int contiguous = 0, found;
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
  /* A Tensor is already one; only the checks need a round trip. */
  if (Py_TYPE(obj) == st->tensor.type && align == 0 && !contiguous) return Py_NewRef(obj);
  found = tvmffi_py_tensor_from_object(st, obj, (int32_t)align, contiguous, &h);
  if (found < 0) return NULL;
  if (found == 0) {
    PyErr_Format(PyExc_TypeError,
                 "from_dlpack needs an object with __dlpack__ or a DLPack capsule, got %R", obj);
    return NULL;
  }
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

/* _set_class_tensor(cls): cls (tvm_ffi.Tensor or a subclass) wraps every tensor from
 * now on; core._CLASS_TENSOR names it. */
static PyObject *mod_set_class_tensor(PyObject *module, PyObject *cls) {
  tvmffi_py_state *st = PyModule_GetState(module);
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, st->tensor.type)) {
    PyErr_Format(PyExc_TypeError, "_set_class_tensor: %R is not a subclass of tvm_ffi.Tensor",
                 cls);
    return NULL;
  }
  if (tvmffi_py_register_class(st, kTVMFFITensor, cls) != 0) return NULL;
  if (PyObject_SetAttrString(module, "_CLASS_TENSOR", cls) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef tensor_functions[] = {
    {"_set_class_tensor", mod_set_class_tensor, METH_O,
     "_set_class_tensor(cls): the class (tvm_ffi.Tensor or a subclass) of every tensor "
     "returned from now on."},
    {"from_dlpack", TVMFFI_PY_METH(mod_from_dlpack), METH_FASTCALL | METH_KEYWORDS,
     "from_dlpack(obj, require_alignment=0, require_contiguous=False): a Tensor sharing the "
     "memory of obj (any object with __dlpack__, or a DLPack capsule)."},
    {"_env_set_current_stream", TVMFFI_PY_METH(mod_env_set_current_stream), METH_FASTCALL, NULL},
    {"_env_get_current_stream", TVMFFI_PY_METH(mod_env_get_current_stream), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

/* ---- state lifecycle ------------------------------------------------------------------- */

int tvmffi_py_tensor_traverse(tvmffi_py_state *st, visitproc visit, void *arg) {
  int i;
  Py_VISIT(st->tensor.type);
  Py_VISIT(st->tensor.kwnames);
  Py_VISIT(st->tensor.max_version);
  for (i = 0; i < 4; ++i) Py_VISIT(st->tensor.dlpack_kw[i]);
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) Py_VISIT(st->tensor.descrs[i]);
  return 0;
}

void tvmffi_py_tensor_clear(tvmffi_py_state *st) {
  int i;
  Py_CLEAR(st->tensor.type);
  Py_CLEAR(st->tensor.kwnames);
  Py_CLEAR(st->tensor.max_version);
  for (i = 0; i < 4; ++i) Py_CLEAR(st->tensor.dlpack_kw[i]);
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) Py_CLEAR(st->tensor.descrs[i]);
  st->tensor.ndarray_layout = 0;
}

int tvmffi_py_init_tensor(PyObject *module, tvmffi_py_state *st) {
  PyObject *version;
  int rc;
  st->tensor.type = tvmffi_py_add_type(module, &Tensor_spec, st->object_type);
  if (st->tensor.type == NULL) return -1;
  if (tvmffi_py_register_class(st, kTVMFFITensor, (PyObject *)st->tensor.type) != 0) return -1;
  if (PyModule_AddObjectRef(module, "_CLASS_TENSOR", (PyObject *)st->tensor.type) != 0) return -1;
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
  if (tvmffi_py_init_exchange(module, st) != 0) return -1;
  version = Py_BuildValue("(ii)", TVMFFI_PY_DLPACK_MAJOR, TVMFFI_PY_DLPACK_MINOR);
  if (version == NULL) return -1;
  rc = PyModule_AddObjectRef(module, "__dlpack_version__", version);
  Py_DECREF(version);
  return rc;
}

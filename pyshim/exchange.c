/* exchange.c: the DLPack C exchange API (DLPack 1.3).
 *
 * A tensor type may publish, on the class, a table of C functions that move
 * its tensors to and from DLManagedTensorVersioned without a Python call:
 * `type(x).__dlpack_c_exchange_api__`, a PyCapsule named
 * "dlpack_exchange_api" (torch.Tensor does; the earlier name
 * `__c_dlpack_exchange_api__` is read too, for the same capsule only).
 * What is trusted is checked in tvmffi_py_exchange_lookup.  With it:
 *
 * - call arguments and from_dlpack take the tensor through
 *   managed_tensor_from_py_object_no_sync (tensor_input.c; the table is
 *   looked up here once per type, for the type's record in argtype.c);
 * - a call that got such tensors runs with the producer's current stream
 *   (current_work_stream, for the first non-CPU tensor) and its tensor
 *   allocator installed in the FFI environment, both restored afterwards;
 * - a tensor result of such a call goes back through
 *   managed_tensor_to_py_object_no_sync: torch in, torch out.
 *
 * TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API=1 (read at import) turns all of this
 * off; tensors then go through __dlpack__.
 *
 * core.DLTensorTestWrapper is a test helper: a tensor type whose exchange
 * API is implemented here over a core.Tensor, with call counters, so the
 * paths above (streams on a fake non-CPU device included) are tested
 * without a GPU and without torch.
 */
#include "pyshim.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EXCHANGE_CAPSULE_NAME "dlpack_exchange_api"

/* ---- finding and checking a table --------------------------------------------------- */

static PyObject *type_name_of(PyTypeObject *tp) {
  PyObject *name = PyType_GetQualName(tp);
  if (name == NULL) {
    PyErr_Clear();
    name = PyUnicode_FromString("?");
  }
  return name;
}

/* What is trusted (docs/tensors.md, "The DLPack C exchange API"): the
 * attribute must be a PyCapsule named exactly "dlpack_exchange_api", the form
 * torch.Tensor (torch._C._dlpack_exchange_api()) and the DLPack 1.3 header
 * define.  Only C code (or ctypes) can make one, and such code can do
 * anything anyway; an int, which any Python code can set, is refused.  The
 * table behind the capsule is then checked before any of its functions is
 * called: the major version, and every entry that DLPack 1.3 says "must not
 * be NULL".  Those checks read the table's first 48 bytes and call nothing. */

/* The entries DLPack 1.3 requires, in table order (dltensor_from_py_object_no_sync
 * may be NULL: it is never called here). */
static const struct {
  const char *name;
  size_t offset;
} kRequired[] = {
    {"managed_tensor_allocator", offsetof(DLPackExchangeAPI, managed_tensor_allocator)},
    {"managed_tensor_from_py_object_no_sync",
     offsetof(DLPackExchangeAPI, managed_tensor_from_py_object_no_sync)},
    {"managed_tensor_to_py_object_no_sync",
     offsetof(DLPackExchangeAPI, managed_tensor_to_py_object_no_sync)},
    {"current_work_stream", offsetof(DLPackExchangeAPI, current_work_stream)},
};

/* 0 if api can be used; else -1 with a ValueError naming the class. */
static int check_api(PyTypeObject *tp, const char *attr_name, const DLPackExchangeAPI *api) {
  const char *null_entry = NULL;
  PyObject *name;
  size_t i;
  if (api->header.version.major == DLPACK_MAJOR_VERSION) {
    for (i = 0; i < sizeof(kRequired) / sizeof(kRequired[0]); ++i) {
      void *fn;
      memcpy(&fn, (const char *)api + kRequired[i].offset, sizeof(fn));
      if (fn == NULL) {
        null_entry = kRequired[i].name;
        break;
      }
    }
    if (null_entry == NULL) return 0;
  }
  name = type_name_of(tp);
  if (name == NULL) return -1;
  if (null_entry == NULL) {
    PyErr_Format(PyExc_ValueError,
                 "%U.%s: the DLPack C exchange API has version %u.%u; tvm_ffi reads major "
                 "version %d",
                 name, attr_name, (unsigned)api->header.version.major,
                 (unsigned)api->header.version.minor, DLPACK_MAJOR_VERSION);
  } else {
    PyErr_Format(PyExc_ValueError,
                 "%U.%s: the DLPack C exchange API has a NULL %s (DLPack %d.%d requires it)",
                 name, attr_name, null_entry, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  }
  Py_DECREF(name);
  return -1;
}

/* attr of tp, or NULL with no error when tp has none. */
static PyObject *class_attr(PyTypeObject *tp, const char *name) {
  PyObject *v = PyObject_GetAttrString((PyObject *)tp, name);
  if (v == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
  return v;
}

int tvmffi_py_exchange_lookup(tvmffi_py_state *st, PyTypeObject *tp, const DLPackExchangeAPI **api,
                              PyObject **owner) {
  PyObject *attr;
  const char *attr_name = "__dlpack_c_exchange_api__";
  *api = NULL;
  *owner = NULL;
  if (st->tensor.skip_exchange) return 0;
  attr = class_attr(tp, attr_name);
  if (attr == NULL && !PyErr_Occurred()) {
    /* The earlier name; cuda-python publishes the same capsule under both. */
    attr_name = "__c_dlpack_exchange_api__";
    attr = class_attr(tp, attr_name);
  }
  if (attr == NULL) return PyErr_Occurred() ? -1 : 0;
  /* PyCapsule_IsValid: a capsule of exactly this name with a non-NULL pointer. */
  if (!PyCapsule_CheckExact(attr) || !PyCapsule_IsValid(attr, EXCHANGE_CAPSULE_NAME)) {
    PyObject *name = type_name_of(tp);
    if (name != NULL) {
      PyErr_Format(PyExc_TypeError,
                   "%U.%s must be a PyCapsule named '" EXCHANGE_CAPSULE_NAME
                   "' holding a DLPackExchangeAPI*, got %R%s",
                   name, attr_name, attr,
                   PyLong_Check(attr) ? " (an int address is not trusted; set "
                                        "TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API=1 to use __dlpack__)"
                                      : "");
      Py_DECREF(name);
    }
    Py_DECREF(attr);
    return -1;
  }
  *api = PyCapsule_GetPointer(attr, EXCHANGE_CAPSULE_NAME);
  if (check_api(tp, attr_name, *api) != 0) {
    *api = NULL;
    Py_DECREF(attr);
    return -1;
  }
  *owner = attr;
  return 1;
}

/* ---- the call ------------------------------------------------------------------------ */

int tvmffi_py_exchange_call(tvmffi_py_state *st, TVMFFIObjectHandle f, TVMFFIAny *args, int32_t n,
                            int release_gil, const tvmffi_py_temps *temps, TVMFFIAny *result) {
  const DLPackExchangeAPI *api = temps->exchange;
  int has_stream = temps->stream_device_type != -1;
  TVMFFIStreamHandle prev_stream = NULL;
  DLPackManagedTensorAllocator prev_alloc = NULL;
  int rc;
  if (has_stream) {
    rc = TVMFFIEnvSetStream(temps->stream_device_type, temps->stream_device_id, temps->stream,
                            &prev_stream);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return TVMFFI_PY_EXCHANGE_PY_ERROR;
    }
  }
  if (api->managed_tensor_allocator != NULL) {
    rc = TVMFFIEnvSetDLPackManagedTensorAllocator(api->managed_tensor_allocator, 0, &prev_alloc);
    if (rc != 0) {
      if (has_stream) {
        TVMFFIEnvSetStream(temps->stream_device_type, temps->stream_device_id, prev_stream, NULL);
      }
      tvmffi_py_raise_from_ffi(st, rc);
      return TVMFFI_PY_EXCHANGE_PY_ERROR;
    }
  }
  if (release_gil) {
    PyThreadState *ts = PyEval_SaveThread();
    rc = tvmffi_py_function_call(f, args, n, result);
    PyEval_RestoreThread(ts);
  } else {
    rc = tvmffi_py_function_call(f, args, n, result);
  }
  /* Restoring cannot fail: both setters only refuse values (a negative
   * device) that were accepted a moment ago, and they leave the error slot
   * (which may hold the call's error) alone on success. */
  if (api->managed_tensor_allocator != NULL) {
    TVMFFIEnvSetDLPackManagedTensorAllocator(prev_alloc, 0, NULL);
  }
  if (has_stream) {
    TVMFFIEnvSetStream(temps->stream_device_type, temps->stream_device_id, prev_stream, NULL);
  }
  return rc;
}

/* ---- tensors out --------------------------------------------------------------------- */

PyObject *tvmffi_py_exchange_result(tvmffi_py_state *st, const DLPackExchangeAPI *api,
                                    TVMFFIAny *result) {
  TVMFFIObjectHandle h = result->v_obj;
  DLManagedTensorVersioned *mt = NULL;
  void *py = NULL;
  if (api->managed_tensor_to_py_object_no_sync == NULL) return tvmffi_py_from_any(st, result);
  if (TVMFFITensorToDLPackVersioned(h, &mt) != 0) {
    /* Only out of memory; the core.Tensor below still works. */
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    return tvmffi_py_from_any(st, result);
  }
  if (api->managed_tensor_to_py_object_no_sync(mt, &py) == 0 && py != NULL) {
    TVMFFIObjectDecRef(h); /* mt holds its own reference, now the producer's */
    return (PyObject *)py;
  }
  /* The producer cannot hold this tensor (a dtype or device it does not
   * know): the result stays a core.Tensor.  DLPack says the call steals mt
   * even when it fails, so mt is not ours to delete any more (at worst the
   * producer leaks it).  An interrupt or a MemoryError is not a refusal and
   * propagates. */
  if (PyErr_Occurred() != NULL && (!PyErr_ExceptionMatches(PyExc_Exception) ||
                                  PyErr_ExceptionMatches(PyExc_MemoryError))) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  PyErr_Clear();
  return tvmffi_py_from_any(st, result);
}

/* ---- elements of returned containers ------------------------------------------------- */

PyObject *tvmffi_py_container_element(PyObject *owner, TVMFFIAny *owned) {
  tvmffi_py_state *st = ((tvmffi_py_object *)owner)->state;
  const DLPackExchangeAPI *api = ((tvmffi_py_container *)owner)->exchange;
  int32_t type_index = owned->type_index;
  PyObject *r;
  if (api == NULL) return tvmffi_py_from_any(st, owned);
  if (type_index == kTVMFFITensor) return tvmffi_py_exchange_result(st, api, owned);
  r = tvmffi_py_from_any(st, owned);
  if (r != NULL && tvmffi_py_is_container_index(type_index) &&
      TVMFFI_PY_IS_CONTAINER(st, r)) {
    ((tvmffi_py_container *)r)->exchange = api;
  }
  return r;
}

PyObject *tvmffi_py_container_element_view(PyObject *owner, const TVMFFIAny *view) {
  TVMFFIAny owned;
  if (((tvmffi_py_container *)owner)->exchange == NULL) {
    return tvmffi_py_from_view(((tvmffi_py_object *)owner)->state, view);
  }
  owned = *view;
  if (owned.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(owned.v_obj);
  return tvmffi_py_container_element(owner, &owned);
}

/* ---- core.DLTensorTestWrapper -------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  PyObject *tensor;  /* a core.Tensor */
  int device_type;   /* reported instead of the tensor's, when >= 0 */
  int device_id;
  int fail;          /* managed_tensor_from_py_object_no_sync raises BufferError */
} test_wrapper;

/* Calls into the test table (process-wide C counters, read by _counts()). */
static long test_count_from, test_count_to, test_count_stream, test_count_alloc, test_count_free;
static void *test_stream = NULL; /* what current_work_stream reports */
/* managed_tensor_to_py_object_no_sync refuses with this exception type
 * (NULL: it does not refuse).  It frees the tensor it was given, which the
 * call steals in every case. */
static PyObject *test_to_py_refusal = NULL;

static PyObject *TestWrapper_new(PyTypeObject *type, PyObject *args, PyObject *kwds);

/* The wrapper's tensor handle for a DLTensorTestWrapper, or for any object
 * with a core.Tensor `tensor` attribute (classes made by the tests). */
static int test_source(PyObject *obj, TVMFFIObjectHandle *h, DLDevice *device, int *fail) {
  PyObject *tensor;
  int is_wrapper = PyType_GetSlot(Py_TYPE(obj), Py_tp_new) == (void *)TestWrapper_new;
  *fail = 0;
  device->device_type = (DLDeviceType)-1;
  device->device_id = 0;
  if (is_wrapper) {
    test_wrapper *w = (test_wrapper *)obj;
    tensor = Py_NewRef(w->tensor);
    *fail = w->fail;
    if (w->device_type >= 0) {
      device->device_type = (DLDeviceType)w->device_type;
      device->device_id = w->device_id;
    }
  } else {
    PyObject *core = PyImport_ImportModule("tvm_ffi.core");
    int ok;
    if (core == NULL) return -1;
    tensor = PyObject_GetAttrString(obj, "tensor");
    ok = tensor != NULL && PyObject_TypeCheck(tensor, tvmffi_py_module_state(core)->tensor.type);
    Py_DECREF(core);
    if (tensor == NULL) return -1;
    if (!ok) {
      PyErr_Format(PyExc_TypeError, "DLTensorTestWrapper: %R is not a tvm_ffi.Tensor", tensor);
      Py_DECREF(tensor);
      return -1;
    }
  }
  *h = ((tvmffi_py_object *)tensor)->handle;
  if (*h == NULL) {
    PyErr_Format(PyExc_TypeError, "DLTensorTestWrapper: %R is not a tvm_ffi.Tensor", tensor);
    Py_DECREF(tensor);
    return -1;
  }
  TVMFFIObjectIncRef(*h);
  Py_DECREF(tensor);
  return 0;
}

static int test_from_py(void *py_object, DLManagedTensorVersioned **out) {
  TVMFFIObjectHandle h;
  DLDevice device;
  int fail, rc;
  ++test_count_from;
  if (test_source((PyObject *)py_object, &h, &device, &fail) != 0) return -1;
  if (fail) {
    TVMFFIObjectDecRef(h);
    PyErr_SetString(PyExc_BufferError, "DLTensorTestWrapper: refused on purpose");
    return -1;
  }
  rc = TVMFFITensorToDLPackVersioned(h, out);
  TVMFFIObjectDecRef(h);
  if (rc != 0) {
    PyErr_SetString(PyExc_MemoryError, "DLTensorTestWrapper: export failed");
    return -1;
  }
  if ((int)device.device_type >= 0) (*out)->dl_tensor.device = device;
  return 0;
}

static int test_to_py(DLManagedTensorVersioned *mt, void **out) {
  PyObject *core, *tensor, *res = NULL;
  tvmffi_py_state *st;
  TVMFFIObjectHandle h;
  ++test_count_to;
  if (test_to_py_refusal != NULL) {
    mt->deleter(mt);
    PyErr_SetString(test_to_py_refusal, "DLTensorTestWrapper: refused");
    return -1;
  }
  /* The one state of tvm_ffi.core (test helper: one interpreter). */
  core = PyImport_ImportModule("tvm_ffi.core");
  if (core == NULL) return -1;
  st = tvmffi_py_module_state(core);
  if (TVMFFITensorFromDLPackVersioned(mt, 0, 0, &h) != 0) {
    Py_DECREF(core);
    tvmffi_py_raise_from_ffi(st, -1);
    return -1;
  }
  tensor = tvmffi_py_object_wrap(st, h);
  if (tensor != NULL) {
    PyObject *cls = PyObject_GetAttrString(core, "DLTensorTestWrapper");
    if (cls != NULL) res = tvmffi_py_call1(cls, tensor);
    Py_XDECREF(cls);
    Py_DECREF(tensor);
  }
  Py_DECREF(core);
  if (res == NULL) return -1;
  *out = res;
  return 0;
}

static int test_current_work_stream(DLDeviceType device_type, int32_t device_id, void **out) {
  (void)device_type;
  (void)device_id;
  ++test_count_stream;
  *out = test_stream;
  return 0;
}

static void test_alloc_deleter(DLManagedTensorVersioned *self) {
  ++test_count_free;
  free(self->dl_tensor.data);
  free(self->dl_tensor.shape);
  free(self);
}

static int test_allocator(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
                          void (*SetError)(void *error_ctx, const char *kind,
                                           const char *message)) {
  DLManagedTensorVersioned *mt;
  size_t numel = 1, bytes;
  int32_t i;
  ++test_count_alloc;
  for (i = 0; i < prototype->ndim; ++i) numel *= (size_t)prototype->shape[i];
  bytes = numel * ((size_t)prototype->dtype.bits * prototype->dtype.lanes + 7) / 8;
  mt = calloc(1, sizeof(*mt));
  if (mt != NULL) {
    mt->dl_tensor.shape = calloc((size_t)(prototype->ndim > 0 ? prototype->ndim : 1),
                                 sizeof(int64_t));
    mt->dl_tensor.data = calloc(bytes > 0 ? bytes : 1, 1);
  }
  if (mt == NULL || mt->dl_tensor.shape == NULL || mt->dl_tensor.data == NULL) {
    if (mt != NULL) {
      free(mt->dl_tensor.shape);
      free(mt->dl_tensor.data);
      free(mt);
    }
    SetError(error_ctx, "MemoryError", "DLTensorTestWrapper allocator: out of memory");
    return -1;
  }
  mt->version.major = DLPACK_MAJOR_VERSION;
  mt->version.minor = DLPACK_MINOR_VERSION;
  mt->deleter = test_alloc_deleter;
  mt->dl_tensor.device = prototype->device;
  mt->dl_tensor.dtype = prototype->dtype;
  mt->dl_tensor.ndim = prototype->ndim;
  for (i = 0; i < prototype->ndim; ++i) mt->dl_tensor.shape[i] = prototype->shape[i];
  *out = mt;
  return 0;
}

static const DLPackExchangeAPI test_api = {
    {{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}, NULL},
    test_allocator,
    test_from_py,
    test_to_py,
    NULL,
    test_current_work_stream,
};
/* Malformed tables for the checks of tvmffi_py_exchange_lookup: every
 * function in them is the counting one, so a test sees any call through. */
#define TEST_VERSION {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION}
static const DLPackExchangeAPI test_api_v2 = {
    {{2, 0}, NULL}, test_allocator, test_from_py, test_to_py, NULL, test_current_work_stream,
};
static const DLPackExchangeAPI test_api_v0 = {
    {{0, 8}, NULL}, test_allocator, test_from_py, test_to_py, NULL, test_current_work_stream,
};
static const DLPackExchangeAPI test_api_null_allocator = {
    {TEST_VERSION, NULL}, NULL, test_from_py, test_to_py, NULL, test_current_work_stream,
};
static const DLPackExchangeAPI test_api_null_from = {
    {TEST_VERSION, NULL}, test_allocator, NULL, test_to_py, NULL, test_current_work_stream,
};
static const DLPackExchangeAPI test_api_null_to = {
    {TEST_VERSION, NULL}, test_allocator, test_from_py, NULL, NULL, test_current_work_stream,
};
static const DLPackExchangeAPI test_api_null_stream = {
    {TEST_VERSION, NULL}, test_allocator, test_from_py, test_to_py, NULL, NULL,
};
#undef TEST_VERSION

/* DLTensorTestWrapper(tensor, device=None, fail=False) */
static PyObject *TestWrapper_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"tensor", "device", "fail", NULL};
  tvmffi_py_state *st = tvmffi_py_state_of_subtype(type);
  PyObject *tensor, *device = Py_None;
  int fail = 0;
  test_wrapper *self;
  if (st == NULL) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|Op", kwlist, &tensor, &device, &fail)) {
    return NULL;
  }
  if (!PyObject_TypeCheck(tensor, st->tensor.type)) {
    PyErr_Format(PyExc_TypeError, "DLTensorTestWrapper needs a tvm_ffi.Tensor, got %R", tensor);
    return NULL;
  }
  if (device != Py_None && !PyObject_TypeCheck(device, st->device_type)) {
    PyErr_Format(PyExc_TypeError, "DLTensorTestWrapper: device must be a tvm_ffi.Device, got %R",
                 device);
    return NULL;
  }
  self = (test_wrapper *)((allocfunc)PyType_GetSlot(type, Py_tp_alloc))(type, 0);
  if (self == NULL) return NULL;
  self->tensor = Py_NewRef(tensor);
  self->device_type = -1;
  self->device_id = 0;
  if (device != Py_None) {
    self->device_type = (int)((tvmffi_py_device *)device)->device.device_type;
    self->device_id = ((tvmffi_py_device *)device)->device.device_id;
  }
  self->fail = fail;
  return (PyObject *)self;
}

static int TestWrapper_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(((test_wrapper *)self)->tensor);
  return 0;
}

static int TestWrapper_clear(PyObject *self) {
  Py_CLEAR(((test_wrapper *)self)->tensor);
  return 0;
}

static void TestWrapper_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  Py_CLEAR(((test_wrapper *)self)->tensor);
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
  Py_DECREF(tp);
}

static PyObject *TestWrapper_get_tensor(PyObject *self, void *closure) {
  (void)closure;
  return Py_NewRef(((test_wrapper *)self)->tensor);
}

/* _counts() -> dict of the calls into the test table since the last _reset(). */
static PyObject *TestWrapper_counts(PyObject *cls, PyObject *unused) {
  (void)cls;
  (void)unused;
  return Py_BuildValue("{s:l,s:l,s:l,s:l,s:l}", "from_py", test_count_from, "to_py",
                       test_count_to, "stream", test_count_stream, "alloc", test_count_alloc,
                       "free", test_count_free);
}

static PyObject *TestWrapper_reset(PyObject *cls, PyObject *unused) {
  (void)cls;
  (void)unused;
  test_count_from = test_count_to = test_count_stream = test_count_alloc = test_count_free = 0;
  Py_RETURN_NONE;
}

/* _set_stream(int): what current_work_stream reports from now on. */
static PyObject *TestWrapper_set_stream(PyObject *cls, PyObject *value) {
  void *v = PyLong_AsVoidPtr(value);
  (void)cls;
  if (v == NULL && PyErr_Occurred()) return NULL;
  test_stream = v;
  Py_RETURN_NONE;
}

/* _set_to_py_refusal(exception type or None). */
static PyObject *TestWrapper_set_to_py_refusal(PyObject *cls, PyObject *value) {
  (void)cls;
  if (value != Py_None && !(PyType_Check(value) &&
                            PyType_IsSubtype((PyTypeObject *)value,
                                             (PyTypeObject *)PyExc_BaseException))) {
    PyErr_Format(PyExc_TypeError, "_set_to_py_refusal takes an exception type or None, got %R",
                 value);
    return NULL;
  }
  {
    PyObject *old = test_to_py_refusal;
    test_to_py_refusal = value == Py_None ? NULL : Py_NewRef(value);
    Py_XDECREF(old);
  }
  Py_RETURN_NONE;
}

/* _api(kind) -> a capsule named "dlpack_exchange_api" of a table: "good",
 * "v2" / "v0" (major version 2 / 0), "null_allocator", "null_from",
 * "null_to", "null_stream" (that required entry NULL); or the good table as
 * "address" (its int address) or "wrong_name" (a capsule named "dltensor"). */
static PyObject *TestWrapper_api(PyObject *cls, PyObject *kind_obj) {
  static const struct {
    const char *kind;
    const DLPackExchangeAPI *api;
  } kTables[] = {
      {"good", &test_api},
      {"address", &test_api},
      {"wrong_name", &test_api},
      {"v2", &test_api_v2},
      {"v0", &test_api_v0},
      {"null_allocator", &test_api_null_allocator},
      {"null_from", &test_api_null_from},
      {"null_to", &test_api_null_to},
      {"null_stream", &test_api_null_stream},
  };
  const char *kind = PyUnicode_AsUTF8AndSize(kind_obj, NULL);
  const DLPackExchangeAPI *api = NULL;
  size_t i;
  (void)cls;
  if (kind == NULL) return NULL;
  for (i = 0; i < sizeof(kTables) / sizeof(kTables[0]); ++i) {
    if (strcmp(kind, kTables[i].kind) == 0) api = kTables[i].api;
  }
  if (api == NULL) {
    PyErr_Format(PyExc_ValueError, "unknown test exchange API kind %R", kind_obj);
    return NULL;
  }
  if (strcmp(kind, "address") == 0) return PyLong_FromVoidPtr((void *)api);
  return PyCapsule_New((void *)api,
                       strcmp(kind, "wrong_name") == 0 ? "dltensor" : EXCHANGE_CAPSULE_NAME,
                       NULL);
}

static PyMethodDef TestWrapper_methods[] = {
    {"_counts", TestWrapper_counts, METH_NOARGS | METH_CLASS, NULL},
    {"_reset", TestWrapper_reset, METH_NOARGS | METH_CLASS, NULL},
    {"_set_stream", TestWrapper_set_stream, METH_O | METH_CLASS, NULL},
    {"_set_to_py_refusal", TestWrapper_set_to_py_refusal, METH_O | METH_CLASS, NULL},
    {"_api", TestWrapper_api, METH_O | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef TestWrapper_getset[] = {
    {"tensor", TestWrapper_get_tensor, NULL, "The wrapped tvm_ffi.Tensor.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot TestWrapper_slots[] = {
    {Py_tp_new, TestWrapper_new},
    {Py_tp_dealloc, TestWrapper_dealloc},
    {Py_tp_traverse, TestWrapper_traverse},
    {Py_tp_clear, TestWrapper_clear},
    {Py_tp_methods, TestWrapper_methods},
    {Py_tp_getset, TestWrapper_getset},
    {Py_tp_doc, "A test tensor type with a DLPack C exchange API over a tvm_ffi.Tensor: "
                "DLTensorTestWrapper(tensor, device=None, fail=False)."},
    {0, NULL}};

static PyType_Spec TestWrapper_spec = {
    .name = "tvm_ffi.core.DLTensorTestWrapper",
    .basicsize = sizeof(test_wrapper),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = TestWrapper_slots,
};

int tvmffi_py_init_exchange(PyObject *module, tvmffi_py_state *st) {
  const char *skip = getenv("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API");
  PyObject *type, *cap;
  int rc;
  st->tensor.skip_exchange = skip != NULL && strcmp(skip, "1") == 0;
  type = PyType_FromModuleAndSpec(module, &TestWrapper_spec, NULL);
  if (type == NULL) return -1;
  cap = PyCapsule_New((void *)&test_api, EXCHANGE_CAPSULE_NAME, NULL);
  rc = cap == NULL ? -1 : PyObject_SetAttrString(type, "__dlpack_c_exchange_api__", cap);
  Py_XDECREF(cap);
  if (rc == 0) rc = PyModule_AddObjectRef(module, "DLTensorTestWrapper", type);
  Py_DECREF(type);
  return rc;
}

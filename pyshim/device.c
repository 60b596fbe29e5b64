/* device.c: core.Device (a DLDevice) and core.DataType (a DLDataType). */
#include "pyshim.h"

#include <string.h>

/* ---- device names ------------------------------------------------------------ */

typedef struct {
  const char *name;
  int32_t code;
} device_name;

/* Names accepted by Device("<name>[:<index>]"). */
static const device_name kParseNames[] = {
    {"cpu", kDLCPU},         {"cuda", kDLCUDA},     {"opencl", kDLOpenCL},
    {"vulkan", kDLVulkan},   {"metal", kDLMetal},   {"mps", kDLMetal},
    {"vpi", kDLVPI},         {"rocm", kDLROCM},     {"ext_dev", kDLExtDev},
    {"hexagon", kDLHexagon}, {"wgpu", kDLWebGPU},   {"webgpu", kDLWebGPU},
    {"maia", kDLMAIA},       {"trn", kDLTrn},       {NULL, 0}};

/* Canonical names for printing, by DLPack code. */
static const char *canonical_name(int32_t code) {
  switch (code) {
    case kDLCPU: return "cpu";
    case kDLCUDA: return "cuda";
    case kDLCUDAHost: return "cuda_host";
    case kDLOpenCL: return "opencl";
    case kDLVulkan: return "vulkan";
    case kDLMetal: return "metal";
    case kDLVPI: return "vpi";
    case kDLROCM: return "rocm";
    case kDLROCMHost: return "rocm_host";
    case kDLExtDev: return "ext_dev";
    case kDLCUDAManaged: return "cuda_managed";
    case kDLOneAPI: return "oneapi";
    case kDLWebGPU: return "webgpu";
    case kDLHexagon: return "hexagon";
    case kDLMAIA: return "maia";
    case kDLTrn: return "trn";
    default: return NULL;
  }
}

static PyObject *type_name_of(DLDevice dev) {
  const char *name = canonical_name((int32_t)dev.device_type);
  if (name != NULL) return PyUnicode_FromString(name);
  return PyUnicode_FromFormat("device_type_%d", (int)dev.device_type);
}

PyObject *tvmffi_py_device_new(tvmffi_py_state *st, DLDevice dev) {
  PyTypeObject *tp = st->device_cls != NULL ? st->device_cls : st->device_type;
  allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
  PyObject *self = alloc(tp, 0);
  if (self != NULL) ((tvmffi_py_device *)self)->device = dev;
  return self;
}

/* An int from an index argument: ints, or objects with .item() (numpy scalars). */
static int index_from_object(PyObject *obj, int32_t *out) {
  long v;
  PyObject *item = NULL;
  if (!PyLong_Check(obj)) {
    if (PyIndex_Check(obj)) {
      item = PyNumber_Index(obj);
    } else {
      item = PyObject_CallMethod(obj, "item", NULL);
      if (item == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "device index must be an int, got %R", obj);
        return -1;
      }
      if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "device index must be an int, got %R", obj);
        Py_DECREF(item);
        return -1;
      }
    }
    if (item == NULL) return -1;
    obj = item;
  }
  v = PyLong_AsLong(obj);
  Py_XDECREF(item);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (v < 0 || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "device index %ld is out of range", v);
    return -1;
  }
  *out = (int32_t)v;
  return 0;
}

static int parse_device_string(PyObject *text, int32_t *code, int32_t *index, int *has_index) {
  Py_ssize_t len;
  const char *s = PyUnicode_AsUTF8AndSize(text, &len);
  const char *end, *colon, *colon2;
  size_t name_len;
  int i;
  if (s == NULL) return -1;
  end = memchr(s, ' ', (size_t)len);
  if (end == NULL) end = s + len;
  colon = memchr(s, ':', (size_t)(end - s));
  if (colon != NULL) {
    colon2 = memchr(colon + 1, ':', (size_t)(end - colon - 1));
    if (colon2 != NULL) {
      PyErr_Format(PyExc_ValueError, "Invalid device: %R", text);
      return -1;
    }
  }
  name_len = (size_t)((colon != NULL ? colon : end) - s);
  *code = -1;
  for (i = 0; kParseNames[i].name != NULL; ++i) {
    if (strlen(kParseNames[i].name) == name_len && memcmp(kParseNames[i].name, s, name_len) == 0) {
      *code = kParseNames[i].code;
      break;
    }
  }
  if (*code < 0) {
    PyErr_Format(PyExc_ValueError, "Unknown device: %.*s", (int)name_len, s);
    return -1;
  }
  *has_index = 0;
  if (colon != NULL) {
    const char *p = colon + 1;
    long v = 0;
    if (p == end) {
      PyErr_Format(PyExc_ValueError, "Invalid device index: %R", text);
      return -1;
    }
    for (; p < end; ++p) {
      if (*p < '0' || *p > '9' || v > INT32_MAX / 10) {
        PyErr_Format(PyExc_ValueError, "Invalid device index: %R", text);
        return -1;
      }
      v = v * 10 + (*p - '0');
    }
    *index = (int32_t)v;
    *has_index = 1;
  }
  return 0;
}

/* Device(type, index=None). */
static PyObject *Device_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"type", "index", NULL};
  PyObject *type_arg, *index_arg = Py_None, *self;
  int32_t code, index = 0;
  int has_index = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Device", kwlist, &type_arg, &index_arg)) {
    return NULL;
  }
  if (index_arg != Py_None && index_from_object(index_arg, &index) != 0) return NULL;
  if (PyUnicode_Check(type_arg)) {
    int32_t parsed_index = 0;
    if (parse_device_string(type_arg, &code, &parsed_index, &has_index) != 0) return NULL;
    if (has_index) index = parsed_index;
  } else if (PyObject_TypeCheck(type_arg, type)) {
    DLDevice d = ((tvmffi_py_device *)type_arg)->device;
    code = (int32_t)d.device_type;
    if (index_arg == Py_None) index = d.device_id;
  } else if (PyIndex_Check(type_arg)) {
    PyObject *v = PyNumber_Index(type_arg);
    long c;
    if (v == NULL) return NULL;
    c = PyLong_AsLong(v);
    Py_DECREF(v);
    if (c == -1 && PyErr_Occurred()) return NULL;
    if (c < 0 || c > INT32_MAX) {
      PyErr_Format(PyExc_ValueError, "Unknown device type code: %ld", c);
      return NULL;
    }
    code = (int32_t)c;
  } else {
    PyErr_Format(PyExc_TypeError, "device type must be a str or an int, got %R", type_arg);
    return NULL;
  }
  {
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    self = alloc(type, 0);
  }
  if (self == NULL) return NULL;
  ((tvmffi_py_device *)self)->device.device_type = (DLDeviceType)code;
  ((tvmffi_py_device *)self)->device.device_id = index;
  return self;
}

static void Device_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  tp_free(self);
  Py_DECREF(tp);
}

static PyObject *Device_str(PyObject *self) {
  DLDevice d = ((tvmffi_py_device *)self)->device;
  PyObject *name = type_name_of(d), *res;
  if (name == NULL) return NULL;
  res = PyUnicode_FromFormat("%U:%d", name, (int)d.device_id);
  Py_DECREF(name);
  return res;
}

static PyObject *Device_repr(PyObject *self) {
  DLDevice d = ((tvmffi_py_device *)self)->device;
  PyObject *name = type_name_of(d), *res;
  if (name == NULL) return NULL;
  res = PyUnicode_FromFormat("device(type='%U', index=%d)", name, (int)d.device_id);
  Py_DECREF(name);
  return res;
}

static PyObject *Device_richcompare(PyObject *self, PyObject *other, int op) {
  DLDevice a, b;
  int eq;
  tvmffi_py_state *st;
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  /* Any two Devices compare by value, Python subclasses included. */
  st = tvmffi_py_state_of_subtype(Py_TYPE(self));
  if (st == NULL) return NULL;
  if (!PyObject_TypeCheck(other, st->device_type)) return PyBool_FromLong(op == Py_NE);
  a = ((tvmffi_py_device *)self)->device;
  b = ((tvmffi_py_device *)other)->device;
  eq = a.device_type == b.device_type && a.device_id == b.device_id;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t Device_hash(PyObject *self) {
  DLDevice d = ((tvmffi_py_device *)self)->device;
  PyObject *t = Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
  Py_hash_t h;
  if (t == NULL) return -1;
  h = PyObject_Hash(t);
  Py_DECREF(t);
  return h;
}

static PyObject *Device_get_type(PyObject *self, void *closure) {
  (void)closure;
  return type_name_of(((tvmffi_py_device *)self)->device);
}

static PyObject *Device_get_index(PyObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLong(((tvmffi_py_device *)self)->device.device_id);
}

static PyObject *Device_dlpack_device_type(PyObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong((long)((tvmffi_py_device *)self)->device.device_type);
}

static PyObject *Device_reduce(PyObject *self, PyObject *unused) {
  DLDevice d = ((tvmffi_py_device *)self)->device;
  (void)unused;
  return Py_BuildValue("(O(ii))", (PyObject *)Py_TYPE(self), (int)d.device_type,
                       (int)d.device_id);
}

static PyMethodDef Device_methods[] = {
    {"dlpack_device_type", Device_dlpack_device_type, METH_NOARGS,
     "The DLPack device type code (compare with DLDeviceType)."},
    {"__device_type_name__", (PyCFunction)(void (*)(void))Device_get_type, METH_NOARGS,
     "The canonical device type name."},
    {"__reduce__", Device_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Device_getset[] = {
    {"type", Device_get_type, NULL, "The device type name, e.g. 'cuda'.", NULL},
    {"index", Device_get_index, NULL, "The device number.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Device_slots[] = {
    {Py_tp_new, Device_new},
    {Py_tp_dealloc, Device_dealloc},
    {Py_tp_str, Device_str},
    {Py_tp_repr, Device_repr},
    {Py_tp_richcompare, Device_richcompare},
    {Py_tp_hash, Device_hash},
    {Py_tp_methods, Device_methods},
    {Py_tp_getset, Device_getset},
    {Py_tp_doc, "Device(type, index=None): a device such as Device('cuda:0') or "
                "Device('cuda', 0)."},
    {0, NULL}};

static PyType_Spec Device_spec = {
    .name = "tvm_ffi.core.Device",
    .basicsize = sizeof(tvmffi_py_device),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Device_slots,
};

/* ---- DataType ------------------------------------------------------------------ */

PyObject *tvmffi_py_datatype_new(tvmffi_py_state *st, DLDataType dt) {
  allocfunc alloc = (allocfunc)PyType_GetSlot(st->datatype_type, Py_tp_alloc);
  PyObject *self = alloc(st->datatype_type, 0);
  if (self != NULL) ((tvmffi_py_datatype *)self)->dtype = dt;
  return self;
}

static PyObject *datatype_to_str(tvmffi_py_state *st, DLDataType dt) {
  TVMFFIAny out;
  PyObject *res;
  int rc;
  memset(&out, 0, sizeof(out));
  rc = TVMFFIDataTypeToString(&dt, &out);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  res = tvmffi_py_from_any(st, &out);
  return res;
}

static uint32_t pack_dtype(DLDataType dt) {
  return (uint32_t)dt.code | ((uint32_t)dt.bits << 8) | ((uint32_t)dt.lanes << 16);
}

/* Returned dtypes: tvm_ffi.dtype when the package set it, else core.DataType.
 * A tvm_ffi.dtype is a str that nobody mutates, so equal results share one. */
PyObject *tvmffi_py_dtype_from_dl(tvmffi_py_state *st, DLDataType dt) {
  tvmffi_py_dtype_memo *m = &st->dtype_memo;
  uint32_t key = pack_dtype(dt);
  PyObject *s, *res;
  int i;
  if (st->dtype_cls == NULL) return tvmffi_py_datatype_new(st, dt);
  for (i = 0; i < TVMFFI_PY_DTYPE_CACHE; ++i) {
    if (m->python_value[i] != NULL && m->python_key[i] == key) return Py_NewRef(m->python_value[i]);
  }
  s = datatype_to_str(st, dt);
  if (s == NULL) return NULL;
  res = tvmffi_py_call1(st->dtype_cls, s);
  Py_DECREF(s);
  if (res != NULL) {
    PyObject *old = m->python_value[m->python_next];
    m->python_key[m->python_next] = key;
    m->python_value[m->python_next] = Py_NewRef(res);
    m->python_next = (m->python_next + 1) % TVMFFI_PY_DTYPE_CACHE;
    Py_XDECREF(old);
  }
  return res;
}

int tvmffi_py_dtype_memo_find(tvmffi_py_state *st, PyObject *key, DLDataType *out) {
  tvmffi_py_dtype_memo *m = &st->dtype_memo;
  int i;
  for (i = 0; i < TVMFFI_PY_DTYPE_CACHE; ++i) {
    if (m->numpy_key[i] == key) {
      *out = m->numpy_value[i];
      return 1;
    }
  }
  return 0;
}

void tvmffi_py_dtype_memo_add(tvmffi_py_state *st, PyObject *key, DLDataType dt) {
  tvmffi_py_dtype_memo *m = &st->dtype_memo;
  PyObject *old = m->numpy_key[m->numpy_next];
  m->numpy_key[m->numpy_next] = Py_NewRef(key);
  m->numpy_value[m->numpy_next] = dt;
  m->numpy_next = (m->numpy_next + 1) % TVMFFI_PY_DTYPE_CACHE;
  Py_XDECREF(old);
}

void tvmffi_py_dtype_memo_clear(tvmffi_py_state *st) {
  tvmffi_py_dtype_memo *m = &st->dtype_memo;
  int i;
  for (i = 0; i < TVMFFI_PY_DTYPE_CACHE; ++i) {
    Py_CLEAR(m->numpy_key[i]);
    Py_CLEAR(m->python_value[i]);
  }
}

int tvmffi_py_dtype_memo_traverse(tvmffi_py_state *st, visitproc visit, void *arg) {
  tvmffi_py_dtype_memo *m = &st->dtype_memo;
  int i;
  for (i = 0; i < TVMFFI_PY_DTYPE_CACHE; ++i) {
    Py_VISIT(m->numpy_key[i]);
    Py_VISIT(m->python_value[i]);
  }
  return 0;
}

/* DataType(str) parses with TVMFFIDataTypeFromString. */
static PyObject *DataType_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  tvmffi_py_state *st = PyType_GetModuleState(type);
  PyObject *text;
  TVMFFIByteArray b;
  Py_ssize_t n;
  DLDataType dt;
  int rc;
  if (st == NULL) return NULL;
  if ((kwds != NULL && PyDict_Size(kwds) != 0) || PyTuple_Size(args) != 1) {
    PyErr_SetString(PyExc_TypeError, "DataType(str) takes exactly one argument");
    return NULL;
  }
  text = PyTuple_GetItem(args, 0);
  if (!PyUnicode_Check(text)) {
    PyErr_Format(PyExc_TypeError, "DataType() needs a str, got %R", text);
    return NULL;
  }
  b.data = PyUnicode_AsUTF8AndSize(text, &n);
  if (b.data == NULL) return NULL;
  b.size = (size_t)n;
  rc = TVMFFIDataTypeFromString(&b, &dt);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return tvmffi_py_datatype_new(st, dt);
}

static void DataType_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  tp_free(self);
  Py_DECREF(tp);
}

static PyObject *DataType_str(PyObject *self) {
  tvmffi_py_state *st = PyType_GetModuleState(Py_TYPE(self));
  if (st == NULL) return NULL;
  return datatype_to_str(st, ((tvmffi_py_datatype *)self)->dtype);
}

static PyObject *DataType_repr(PyObject *self) {
  PyObject *s = DataType_str(self), *res;
  if (s == NULL) return NULL;
  res = PyUnicode_FromFormat("DataType(%R)", s);
  Py_DECREF(s);
  return res;
}

static PyObject *DataType_richcompare(PyObject *self, PyObject *other, int op) {
  DLDataType a, b;
  int eq;
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(other, Py_TYPE(self))) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  a = ((tvmffi_py_datatype *)self)->dtype;
  b = ((tvmffi_py_datatype *)other)->dtype;
  eq = a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t DataType_hash(PyObject *self) {
  DLDataType d = ((tvmffi_py_datatype *)self)->dtype;
  Py_hash_t h = ((Py_hash_t)d.code << 24) ^ ((Py_hash_t)d.bits << 16) ^ (Py_hash_t)d.lanes;
  return h == -1 ? -2 : h;
}

static PyObject *DataType_get_code(PyObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(((tvmffi_py_datatype *)self)->dtype.code);
}
static PyObject *DataType_get_bits(PyObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(((tvmffi_py_datatype *)self)->dtype.bits);
}
static PyObject *DataType_get_lanes(PyObject *self, void *c) {
  /* Scalable vectors store -vscale_factor as a 16-bit value. */
  (void)c;
  return PyLong_FromLong((int16_t)((tvmffi_py_datatype *)self)->dtype.lanes);
}

static PyGetSetDef DataType_getset[] = {
    {"type_code", DataType_get_code, NULL, "DLPack type code.", NULL},
    {"bits", DataType_get_bits, NULL, "Bits per lane.", NULL},
    {"lanes", DataType_get_lanes, NULL, "Number of lanes (negative: scalable).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot DataType_slots[] = {
    {Py_tp_new, DataType_new},
    {Py_tp_dealloc, DataType_dealloc},
    {Py_tp_str, DataType_str},
    {Py_tp_repr, DataType_repr},
    {Py_tp_richcompare, DataType_richcompare},
    {Py_tp_hash, DataType_hash},
    {Py_tp_getset, DataType_getset},
    {Py_tp_doc, "A DLPack data type (code, bits, lanes)."},
    {0, NULL}};

static PyType_Spec DataType_spec = {
    .name = "tvm_ffi.core.DataType",
    .basicsize = sizeof(tvmffi_py_datatype),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = DataType_slots,
};

/* ---- module functions of this file -------------------------------------------- */

/* _datatype_from_triple(code, bits, lanes) -> DataType */
static PyObject *mod_datatype_from_triple(PyObject *module, PyObject *const *args,
                                          Py_ssize_t nargs) {
  DLDataType dt;
  long v[3];
  int i;
  if (tvmffi_py_check_nargs("_datatype_from_triple", nargs, 3, 3) != 0) return NULL;
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
  return tvmffi_py_datatype_new(tvmffi_py_module_state(module), dt);
}

/* _set_class_device(cls): Devices handed to Python (results, callback
 * arguments) are made as `cls`, core.Device or a subclass of it; also sets
 * core._CLASS_DEVICE. */
static PyObject *mod_set_class_device(PyObject *module, PyObject *cls) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, st->device_type)) {
    PyErr_Format(PyExc_TypeError, "_set_class_device needs core.Device or a subclass, got %R",
                 cls);
    return NULL;
  }
  if (PyModule_AddObjectRef(module, "_CLASS_DEVICE", cls) != 0) return NULL;
  if ((PyTypeObject *)cls == st->device_type) {
    Py_CLEAR(st->device_cls);
  } else {
    PyTypeObject *old = st->device_cls;
    st->device_cls = (PyTypeObject *)Py_NewRef(cls);
    Py_XDECREF((PyObject *)old);
  }
  Py_RETURN_NONE;
}

static PyMethodDef device_functions[] = {
    {"_set_class_device", mod_set_class_device, METH_O, NULL},
    {"_datatype_from_triple", TVMFFI_PY_METH(mod_datatype_from_triple), METH_FASTCALL, NULL},
    {"_set_class_device", mod_set_class_device, METH_O,
     "_set_class_device(cls): the class (core.Device or a subclass) of Devices returned to "
     "Python; core._CLASS_DEVICE names it."},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_device(PyObject *module, tvmffi_py_state *st) {
  if ((st->device_type = tvmffi_py_add_type(module, &Device_spec, NULL)) == NULL ||
      (st->datatype_type = tvmffi_py_add_type(module, &DataType_spec, NULL)) == NULL) {
    return -1;
  }
  if (PyModule_AddFunctions(module, device_functions) != 0) return -1;
  return PyModule_AddObjectRef(module, "_CLASS_DEVICE", (PyObject *)st->device_type);
}

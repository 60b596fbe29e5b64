/* cany.c: core.CAny, a Python object that owns one TVMFFIAny.
 *
 * TypeSchema.convert returns one: the value as the FFI would store it (an
 * int schema gives an Int, a short str a SmallStr, a list an ffi.Array ...).
 * An object value holds one reference, released when the CAny goes away.
 * core._to_py_class_value reads it back (CAny._to_py). */
#include "pyshim.h"

typedef struct {
  PyObject_HEAD
  TVMFFIAny value; /* owned: never a view kind (RawStr, ByteArrayPtr, RValueRef) */
} tvmffi_py_cany;

static PyObject *CAny_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"value", NULL};
  PyObject *value = Py_None;
  tvmffi_py_state *st = (tvmffi_py_state *)PyType_GetModuleState(type);
  tvmffi_py_cany *self;
  TVMFFIAny any;
  if (st == NULL) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:CAny", kwlist, &value)) return NULL;
  if (tvmffi_py_to_owned_any(st, value, &any) != 0) return NULL;
  self = (tvmffi_py_cany *)((allocfunc)PyType_GetSlot(type, Py_tp_alloc))(type, 0);
  if (self == NULL) {
    if (any.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(any.v_obj);
    return NULL;
  }
  self->value = any;
  return (PyObject *)self;
}

static void CAny_dealloc(PyObject *obj) {
  tvmffi_py_cany *self = (tvmffi_py_cany *)obj;
  PyTypeObject *tp = Py_TYPE(obj);
  if (self->value.type_index >= kTVMFFIStaticObjectBegin) {
    TVMFFIObjectHandle h = self->value.v_obj;
    self->value.type_index = kTVMFFINone;
    self->value.v_obj = NULL;
    TVMFFIObjectDecRef(h);
  }
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(obj);
  Py_DECREF(tp);
}

static PyObject *CAny_repr(PyObject *obj) {
  const TVMFFIAny *v = &((tvmffi_py_cany *)obj)->value;
  switch (v->type_index) {
    case kTVMFFINone:
      return PyUnicode_FromString("CAny(None)");
    case kTVMFFIInt:
      return PyUnicode_FromFormat("CAny(int=%lld)", (long long)v->v_int64);
    case kTVMFFIBool:
      return PyUnicode_FromString(v->v_int64 ? "CAny(bool=True)" : "CAny(bool=False)");
    case kTVMFFIFloat: {
      /* %R of a float: PyUnicode_FromFormat has no %g. */
      PyObject *f = PyFloat_FromDouble(v->v_float64);
      PyObject *res;
      if (f == NULL) return NULL;
      res = PyUnicode_FromFormat("CAny(float=%R)", f);
      Py_DECREF(f);
      return res;
    }
    default:
      break;
  }
  if (v->type_index >= kTVMFFIStaticObjectBegin) {
    return PyUnicode_FromFormat("CAny(object, type_index=%d)", (int)v->type_index);
  }
  return PyUnicode_FromFormat("CAny(type_index=%d)", (int)v->type_index);
}

static PyObject *CAny_get_type_index(PyObject *obj, void *closure) {
  (void)closure;
  return PyLong_FromLong((long)((tvmffi_py_cany *)obj)->value.type_index);
}

/* _to_py(): the Python value, as an FFI call returning it would give it
 * (objects get a new reference; the CAny keeps its own). */
static PyObject *CAny_to_py(PyObject *obj, PyObject *unused) {
  tvmffi_py_state *st = (tvmffi_py_state *)PyType_GetModuleState(Py_TYPE(obj));
  (void)unused;
  if (st == NULL) return NULL;
  return tvmffi_py_from_view(st, &((tvmffi_py_cany *)obj)->value);
}

static PyMethodDef CAny_methods[] = {
    {"_to_py", CAny_to_py, METH_NOARGS,
     "_to_py(): the held value as a Python value (objects are shared, not copied)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef CAny_getset[] = {
    {"type_index", CAny_get_type_index, NULL, "The TVMFFITypeIndex of the held value.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot CAny_slots[] = {
    {Py_tp_new, CAny_new},
    {Py_tp_dealloc, CAny_dealloc},
    {Py_tp_repr, CAny_repr},
    {Py_tp_methods, CAny_methods},
    {Py_tp_getset, CAny_getset},
    {Py_tp_doc, "CAny(value=None): owns the FFI value (a TVMFFIAny) that value converts to.\n\n"
                "TypeSchema.convert returns one; type_index tells the stored kind and "
                "core._to_py_class_value gives the Python value back."},
    {0, NULL}};

static PyType_Spec CAny_spec = {
    .name = "tvm_ffi.core.CAny",
    .basicsize = sizeof(tvmffi_py_cany),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = CAny_slots,
};

int tvmffi_py_init_cany(PyObject *module, tvmffi_py_state *st) {
  /* The module's dict keeps the type; nothing in C makes a CAny. */
  PyTypeObject *tp = tvmffi_py_add_type(module, &CAny_spec, NULL);
  (void)st;
  if (tp == NULL) return -1;
  Py_DECREF(tp);
  return 0;
}

/* property.c: core.FFIProperty, the data descriptor of a reflected field,
 * and the primitives of Python-defined FFI types: core._alloc_type_index,
 * core._register_type_method, core._register_type_attr, core.MISSING and core.KWARGS.
 *
 * FFIProperty(type_index, field_index, frozen=False) reads field
 * `field_index` of TVMFFIGetTypeInfo(type_index) (the type's own fields, in
 * registration order).  __get__ calls the field's getter on the object's
 * memory and converts the owned result as a function result is converted;
 * __set__ converts the value as a call argument and calls the setter (a
 * TVMFFIFieldSetter, or a Function when kTVMFFIFieldFlagBitSetterIsFunctionObj
 * is set, called with (field address, value)).  No Python frame runs. */
#include "pyshim.h"

#include <stddef.h>
#include <string.h>

typedef struct {
  PyObject_HEAD
  /* Borrowed: the state of the module whose type made this descriptor (the
   * descriptor holds its type, which holds the module). */
  tvmffi_py_state *state;
  /* Stable for the process (TVMFFITypeInfo entries never move). */
  const TVMFFITypeInfo *info;
  int type_index;
  int field_index;
  int frozen;
  PyObject *name; /* str */
  PyObject *doc;  /* str or None */
  /* The fast read (PROP_FAST_*) of a field whose storage its static type
   * index and size tell without doubt, and where it lies (fixed once the
   * field is registered). */
  int fast;
  int64_t offset;
  /* Owned: the last Python class whose instance passed the type check, so
   * that reads from instances of that class skip it. */
  PyTypeObject *checked_type;
  /* The last value read, returned again while the field holds the same one
   * (immutable values only; a plain attribute returns its stored object):
   * a float by its bits, or an ffi.String object (a reference is held, so
   * its address cannot be reused) with its decoded str. */
  PyObject *last_value;
  double last_double;
  TVMFFIObject *last_string;
} ffi_property;

enum {
  PROP_FAST_NONE = 0, /* through the getter */
  PROP_FAST_INT64,    /* kTVMFFIInt, 8 bytes */
  PROP_FAST_DOUBLE,   /* kTVMFFIFloat, 8 bytes */
  PROP_FAST_BOOL,     /* kTVMFFIBool, 1 byte */
  PROP_FAST_OBJECT    /* an object type index, 8 bytes: a handle, NULL reads as None */
};

static int prop_fast_kind(const TVMFFIFieldInfo *f) {
  if (f->field_static_type_index == kTVMFFIInt && f->size == 8) return PROP_FAST_INT64;
  if (f->field_static_type_index == kTVMFFIFloat && f->size == 8) return PROP_FAST_DOUBLE;
  if (f->field_static_type_index == kTVMFFIBool && f->size == 1) return PROP_FAST_BOOL;
  if (f->field_static_type_index >= kTVMFFIStaticObjectBegin && f->size == 8) {
    return PROP_FAST_OBJECT;
  }
  return PROP_FAST_NONE;
}

/* The field record; re-read on each use because the array may move while
 * fields are still being registered (count, then array, acquire order). */
static inline const TVMFFIFieldInfo *prop_field(const ffi_property *p) {
  const TVMFFIFieldInfo *fields = __atomic_load_n(&p->info->fields, __ATOMIC_ACQUIRE);
  return &fields[p->field_index];
}

/* The FFI handle of `obj`, checked to be an instance of the descriptor's
 * type; NULL with TypeError otherwise. */
static TVMFFIObjectHandle prop_handle(ffi_property *p, PyObject *obj) {
  tvmffi_py_state *st = p->state;
  TVMFFIObjectHandle h;
  int32_t t;
  if (!PyObject_TypeCheck(obj, st->object_type)) {
    PyErr_Format(PyExc_TypeError, "field '%U' needs an FFI object, got %R", p->name, obj);
    return NULL;
  }
  if ((h = ((tvmffi_py_object *)obj)->handle) == NULL) {
    /* The type's name, not repr(obj): a generated repr reads the fields. */
    PyObject *name = PyType_GetQualName(Py_TYPE(obj));
    if (name != NULL) {
      PyErr_Format(PyExc_ValueError,
                   "field '%U' cannot be read: this %U object holds no FFI object (it was "
                   "never initialised)", p->name, name);
      Py_DECREF(name);
    }
    return NULL;
  }
  t = ((TVMFFIObject *)h)->type_index;
  if (t != p->type_index) {
    const TVMFFITypeInfo *info = TVMFFIGetTypeInfo(t);
    if (info == NULL) {
      tvmffi_py_raise_from_ffi(st, -1);
      return NULL;
    }
    if (info->type_depth <= p->info->type_depth ||
        info->type_ancestors[p->info->type_depth]->type_index != p->type_index) {
      PyErr_Format(PyExc_TypeError, "field '%U' of %.*s does not apply to %.*s", p->name,
                   (int)p->info->type_key.size, p->info->type_key.data, (int)info->type_key.size,
                   info->type_key.data);
      return NULL;
    }
  }
  return h;
}

/* Keeps `value` (a new reference, or NULL) as the last value read; passes it on. */
static PyObject *prop_remember(ffi_property *p, PyObject *value, double d, TVMFFIObject *string) {
  PyObject *old_value = p->last_value;
  TVMFFIObject *old_string = p->last_string;
  if (value == NULL) return NULL;
  if (string != NULL) TVMFFIObjectIncRef(string);
  p->last_value = Py_NewRef(value);
  p->last_double = d;
  p->last_string = string;
  if (old_string != NULL) TVMFFIObjectDecRef(old_string);
  Py_XDECREF(old_value);
  return value;
}

static PyObject *prop_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
  ffi_property *p = (ffi_property *)self;
  const TVMFFIFieldInfo *f;
  TVMFFIObjectHandle h;
  TVMFFIAny out;
  int rc;
  (void)type;
  if (obj == NULL || obj == Py_None) return Py_NewRef(self);
  if (Py_TYPE(obj) == p->checked_type && p->fast != PROP_FAST_NONE) {
    const char *addr;
    h = ((tvmffi_py_object *)obj)->handle;
    if (h != NULL && ((const TVMFFIObject *)h)->type_index == p->type_index) {
      addr = (const char *)h + p->offset;
      switch (p->fast) {
        case PROP_FAST_INT64:
          return PyLong_FromLongLong(*(const int64_t *)addr);
        case PROP_FAST_DOUBLE: {
          double d = *(const double *)addr;
          if (p->last_value != NULL && memcmp(&d, &p->last_double, sizeof(d)) == 0) {
            return Py_NewRef(p->last_value);
          }
          return prop_remember(p, PyFloat_FromDouble(d), d, NULL);
        }
        case PROP_FAST_BOOL:
          return PyBool_FromLong(*(const unsigned char *)addr != 0);
        default: {
          TVMFFIObject *o = *(TVMFFIObject *const *)addr;
          TVMFFIAny view;
          if (o == NULL) Py_RETURN_NONE;
          if (o->type_index == kTVMFFIStr) {
            if (o == p->last_string) return Py_NewRef(p->last_value);
            view.type_index = kTVMFFIStr;
            view.zero_padding = 0;
            view.v_obj = o;
            return prop_remember(p, tvmffi_py_from_view(p->state, &view), 0.0, o);
          }
          view.type_index = o->type_index;
          view.zero_padding = 0;
          view.v_obj = o;
          return tvmffi_py_from_view(p->state, &view);
        }
      }
    }
  }
  h = prop_handle(p, obj);
  if (h == NULL) return NULL;
  if (Py_TYPE(obj) != p->checked_type &&
      ((const TVMFFIObject *)h)->type_index == p->type_index) {
    PyTypeObject *old = p->checked_type;
    p->checked_type = (PyTypeObject *)Py_NewRef((PyObject *)Py_TYPE(obj));
    Py_XDECREF((PyObject *)old);
  }
  f = prop_field(p);
  if (f->getter == NULL) {
    PyErr_Format(PyExc_AttributeError, "field '%U' has no getter", p->name);
    return NULL;
  }
  memset(&out, 0, sizeof(out));
  rc = f->getter((char *)h + f->offset, &out);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(p->state, rc);
    return NULL;
  }
  return tvmffi_py_from_any(p->state, &out);
}

/* Calls the setter of `f` on the object `h` with the converted `value`. */
static int prop_assign(ffi_property *p, const TVMFFIFieldInfo *f, TVMFFIObjectHandle h,
                       PyObject *value) {
  tvmffi_py_state *st = p->state;
  TVMFFIAny v;
  tvmffi_py_temps temps;
  int rc;
  if (f->setter == NULL) {
    PyErr_Format(PyExc_AttributeError, "field '%U' has no setter", p->name);
    return -1;
  }
  tvmffi_py_temps_init(&temps);
  if (tvmffi_py_to_any(st, value, &v, &temps) != 0) {
    tvmffi_py_temps_release(&temps);
    return -1;
  }
  if (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny args[2], result;
    memset(args, 0, sizeof(args));
    args[0].type_index = kTVMFFIOpaquePtr;
    args[0].v_ptr = (char *)h + f->offset;
    args[1] = v;
    memset(&result, 0, sizeof(result));
    rc = TVMFFIFunctionCall((TVMFFIObjectHandle)f->setter, args, 2, &result);
    if (rc == 0 && result.type_index >= kTVMFFIStaticObjectBegin) {
      TVMFFIObjectDecRef(result.v_obj);
    }
  } else {
    rc = ((TVMFFIFieldSetter)f->setter)((char *)h + f->offset, &v);
  }
  tvmffi_py_temps_release(&temps);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  return 0;
}

static int prop_descr_set(PyObject *self, PyObject *obj, PyObject *value) {
  ffi_property *p = (ffi_property *)self;
  const TVMFFIFieldInfo *f;
  TVMFFIObjectHandle h;
  f = prop_field(p);
  if (value == NULL || p->frozen || !(f->flags & kTVMFFIFieldFlagBitMaskWritable)) {
    PyObject *cls_name = PyType_GetName(Py_TYPE(obj));
    if (cls_name == NULL) return -1;
    if (value == NULL) {
      PyErr_Format(PyExc_AttributeError, "cannot delete field '%U' of '%U'", p->name, cls_name);
    } else if (p->frozen) {
      PyErr_Format(PyExc_AttributeError, "cannot assign to field '%U' of frozen '%U'", p->name,
                   cls_name);
    } else {
      PyErr_Format(PyExc_AttributeError, "field '%U' of '%U' is read-only", p->name, cls_name);
    }
    Py_DECREF(cls_name);
    return -1;
  }
  h = prop_handle(p, obj);
  if (h == NULL) return -1;
  return prop_assign(p, f, h, value);
}

/* .set(obj, value): the setter, whatever `frozen` and the Writable flag say. */
static PyObject *prop_set(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  ffi_property *p = (ffi_property *)self;
  TVMFFIObjectHandle h;
  if (tvmffi_py_check_nargs("set", nargs, 2, 2) != 0) return NULL;
  h = prop_handle(p, args[0]);
  if (h == NULL) return NULL;
  if (prop_assign(p, prop_field(p), h, args[1]) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *prop_new(PyTypeObject *tp, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"type_index", "field_index", "frozen", NULL};
  tvmffi_py_state *st = tvmffi_py_state_of_subtype(tp);
  int type_index, field_index, frozen = 0;
  const TVMFFITypeInfo *info;
  const TVMFFIFieldInfo *f;
  ffi_property *p;
  int32_t num_fields;
  if (st == NULL) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "ii|p:FFIProperty", kwlist, &type_index,
                                   &field_index, &frozen)) {
    return NULL;
  }
  info = TVMFFIGetTypeInfo(type_index);
  if (info == NULL) {
    tvmffi_py_raise_from_ffi(st, -1);
    return NULL;
  }
  num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  if (field_index < 0 || field_index >= num_fields) {
    PyErr_Format(PyExc_IndexError, "type %.*s has %d fields; field index %d is out of range",
                 (int)info->type_key.size, info->type_key.data, (int)num_fields, field_index);
    return NULL;
  }
  p = (ffi_property *)PyType_GenericAlloc(tp, 0);
  if (p == NULL) return NULL;
  p->state = st;
  p->info = info;
  p->type_index = type_index;
  p->field_index = field_index;
  p->frozen = frozen;
  f = prop_field(p);
  p->fast = prop_fast_kind(f);
  p->offset = f->offset;
  p->checked_type = NULL;
  p->name = tvmffi_py_str_from_bytearray(&f->name);
  if (p->name == NULL) {
    Py_DECREF(p);
    return NULL;
  }
  if (f->doc.size == 0) {
    p->doc = Py_NewRef(Py_None);
  } else {
    p->doc = tvmffi_py_str_from_bytearray(&f->doc);
    if (p->doc == NULL) {
      Py_DECREF(p);
      return NULL;
    }
  }
  return (PyObject *)p;
}

static PyObject *prop_repr(PyObject *self) {
  ffi_property *p = (ffi_property *)self;
  return PyUnicode_FromFormat("<FFIProperty '%U' of %.*s%s>", p->name, (int)p->info->type_key.size,
                              p->info->type_key.data, p->frozen ? " (frozen)" : "");
}

static int prop_traverse(PyObject *self, visitproc visit, void *arg) {
  ffi_property *p = (ffi_property *)self;
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(p->name);
  Py_VISIT(p->doc);
  Py_VISIT((PyObject *)p->checked_type);
  Py_VISIT(p->last_value);
  return 0;
}

static int prop_clear(PyObject *self) {
  ffi_property *p = (ffi_property *)self;
  Py_CLEAR(p->name);
  Py_CLEAR(p->doc);
  Py_CLEAR(p->checked_type);
  Py_CLEAR(p->last_value);
  if (p->last_string != NULL) {
    TVMFFIObject *string = p->last_string;
    p->last_string = NULL;
    TVMFFIObjectDecRef(string);
  }
  return 0;
}

static void prop_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  prop_clear(self);
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
  Py_DECREF(tp);
}

static PyMemberDef prop_members[] = {
    {"name", Py_T_OBJECT_EX, offsetof(ffi_property, name), Py_READONLY, NULL},
    {"__doc__", Py_T_OBJECT_EX, offsetof(ffi_property, doc), Py_READONLY, NULL},
    {"type_index", Py_T_INT, offsetof(ffi_property, type_index), Py_READONLY, NULL},
    {"field_index", Py_T_INT, offsetof(ffi_property, field_index), Py_READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyObject *prop_get_frozen(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(((ffi_property *)self)->frozen);
}

/* .fset, as on a property: None when assignment is refused (frozen or not
 * Writable), else the bound .set. */
static PyObject *prop_get_fset(PyObject *self, void *closure) {
  ffi_property *p = (ffi_property *)self;
  (void)closure;
  if (p->frozen || !(prop_field(p)->flags & kTVMFFIFieldFlagBitMaskWritable)) Py_RETURN_NONE;
  return PyObject_GetAttrString(self, "set");
}

static PyGetSetDef prop_getset[] = {{"frozen", prop_get_frozen, NULL, NULL, NULL},
                                    {"fset", prop_get_fset, NULL, NULL, NULL},
                                    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef prop_methods[] = {
    {"set", TVMFFI_PY_METH(prop_set), METH_FASTCALL,
     "set(obj, value): assign through the field's setter, even when frozen."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot prop_slots[] = {
    {Py_tp_new, prop_new},
    {Py_tp_dealloc, prop_dealloc},
    {Py_tp_traverse, prop_traverse},
    {Py_tp_clear, prop_clear},
    {Py_tp_descr_get, prop_descr_get},
    {Py_tp_descr_set, prop_descr_set},
    {Py_tp_repr, prop_repr},
    {Py_tp_members, prop_members},
    {Py_tp_getset, prop_getset},
    {Py_tp_methods, prop_methods},
    {0, NULL}};

static PyType_Spec prop_spec = {
    .name = "tvm_ffi.core.FFIProperty",
    .basicsize = sizeof(ffi_property),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = prop_slots,
};

/* ---- _alloc_type_index, MISSING, KWARGS -------------------------------------- */

/* _alloc_type_index(type_key, parent_type_index) -> int */
static PyObject *mod_alloc_type_index(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIByteArray key;
  int32_t parent, existing, index;
  const TVMFFITypeInfo *parent_info;
  if (tvmffi_py_check_nargs("_alloc_type_index", nargs, 2, 2) != 0) return NULL;
  if (!PyUnicode_Check(args[0])) {
    PyErr_Format(PyExc_TypeError, "type key must be a str, got %R", args[0]);
    return NULL;
  }
  if (tvmffi_py_str_to_bytearray(args[0], &key) != 0) return NULL;
  if (tvmffi_py_as_int32(args[1], "parent type index", &parent) != 0) return NULL;
  if (TVMFFITypeKeyToIndex(&key, &existing) == 0) {
    PyErr_Format(PyExc_ValueError, "type key '%U' is already registered", args[0]);
    return NULL;
  } else {
    /* Unknown key: drop the KeyError the lookup raised. */
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
  }
  parent_info = TVMFFIGetTypeInfo(parent);
  if (parent_info == NULL) {
    tvmffi_py_raise_from_ffi(st, -1);
    return NULL;
  }
  if (parent < kTVMFFIStaticObjectBegin) {
    PyErr_Format(PyExc_ValueError, "parent type index %d is not an object type", (int)parent);
    return NULL;
  }
  index = TVMFFITypeGetOrAllocIndex(&key, -1, parent_info->type_depth + 1, 0, 1, parent);
  if (index < 0) {
    tvmffi_py_raise_from_ffi(st, -1);
    return NULL;
  }
  return PyLong_FromLong(index);
}

/* _register_type_method(type_index, name, func, is_static, doc, metadata):
 * appends `func` (a tvm_ffi.Function) to the type's method table through
 * TVMFFITypeRegisterMethod; doc and metadata (JSON text) may be None. */
static PyObject *mod_register_type_method(PyObject *module, PyObject *const *args,
                                          Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIMethodInfo m;
  TVMFFIObjectHandle h;
  int32_t index;
  int is_static;
  if (tvmffi_py_check_nargs("_register_type_method", nargs, 6, 6) != 0) return NULL;
  if (tvmffi_py_as_int32(args[0], "type index", &index) != 0) return NULL;
  memset(&m, 0, sizeof(m));
  if (!PyUnicode_Check(args[1])) {
    PyErr_Format(PyExc_TypeError, "method name must be a str, got %R", args[1]);
    return NULL;
  }
  if (tvmffi_py_str_to_bytearray(args[1], &m.name) != 0) return NULL;
  if (!PyObject_TypeCheck(args[2], st->function_type)) {
    PyErr_Format(PyExc_TypeError, "method %R needs a tvm_ffi.Function, got %R", args[1], args[2]);
    return NULL;
  }
  h = tvmffi_py_handle_of(st, args[2]);
  if (h == NULL) return NULL;
  is_static = PyObject_IsTrue(args[3]);
  if (is_static < 0) return NULL;
  if (args[4] != Py_None) {
    if (!PyUnicode_Check(args[4])) {
      PyErr_Format(PyExc_TypeError, "method doc must be a str or None, got %R", args[4]);
      return NULL;
    }
    if (tvmffi_py_str_to_bytearray(args[4], &m.doc) != 0) return NULL;
  }
  if (args[5] != Py_None) {
    if (!PyUnicode_Check(args[5])) {
      PyErr_Format(PyExc_TypeError, "method metadata must be a str or None, got %R", args[5]);
      return NULL;
    }
    if (tvmffi_py_str_to_bytearray(args[5], &m.metadata) != 0) return NULL;
  }
  m.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  m.method.type_index = kTVMFFIFunction;
  m.method.v_obj = (TVMFFIObject *)h;
  if (TVMFFITypeRegisterMethod(index, &m) != 0) {
    tvmffi_py_raise_from_ffi(st, -1);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _register_type_attr(type_index, name, value): stores value (converted
 * as a call argument is) in the type-attribute column `name` of the type. */
static PyObject *mod_register_type_attr(PyObject *module, PyObject *const *args,
                                        Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIByteArray name;
  TVMFFIAny value;
  int32_t index;
  int rc;
  if (tvmffi_py_check_nargs("_register_type_attr", nargs, 3, 3) != 0) return NULL;
  if (tvmffi_py_as_int32(args[0], "type index", &index) != 0) return NULL;
  if (!PyUnicode_Check(args[1])) {
    PyErr_Format(PyExc_TypeError, "type attribute name must be a str, got %R", args[1]);
    return NULL;
  }
  if (tvmffi_py_str_to_bytearray(args[1], &name) != 0) return NULL;
  memset(&value, 0, sizeof(value));
  if (tvmffi_py_to_owned_any(st, args[2], &value) != 0) return NULL;
  rc = TVMFFITypeRegisterAttr(index, &name, &value);
  if (value.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(value.v_obj);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyMethodDef property_functions[] = {
    {"_alloc_type_index", TVMFFI_PY_METH(mod_alloc_type_index), METH_FASTCALL, NULL},
    {"_register_type_method", TVMFFI_PY_METH(mod_register_type_method), METH_FASTCALL, NULL},
    {"_register_type_attr", TVMFFI_PY_METH(mod_register_type_attr), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

/* Adds core.<attr> = the object returned by the global `name` (a sentinel). */
static int add_sentinel(PyObject *module, tvmffi_py_state *st, const char *attr,
                        const char *name) {
  TVMFFIByteArray n = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  TVMFFIAny result;
  PyObject *value;
  int rc;
  if (TVMFFIFunctionGetGlobal(&n, &f) != 0) {
    tvmffi_py_raise_from_ffi(st, -1);
    return -1;
  }
  if (f == NULL) {
    PyErr_Format(PyExc_RuntimeError, "global function `%s` is not registered", name);
    return -1;
  }
  memset(&result, 0, sizeof(result));
  rc = TVMFFIFunctionCall(f, NULL, 0, &result);
  TVMFFIObjectDecRef(f);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  value = tvmffi_py_from_any(st, &result);
  if (value == NULL) return -1;
  rc = PyModule_AddObjectRef(module, attr, value);
  Py_DECREF(value);
  return rc;
}

int tvmffi_py_init_property(PyObject *module, tvmffi_py_state *st) {
  PyTypeObject *tp = tvmffi_py_add_type(module, &prop_spec, NULL);
  if (tp == NULL) return -1;
  Py_DECREF(tp); /* the module keeps it */
  if (PyModule_AddFunctions(module, property_functions) != 0) return -1;
  if (add_sentinel(module, st, "MISSING", "ffi.GetInvalidObject") != 0) return -1;
  return add_sentinel(module, st, "KWARGS", "ffi.GetKwargsObject");
}

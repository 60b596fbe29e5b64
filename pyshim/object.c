/* object.c: core.Object, the wrapper of one FFI object reference, and the
 * table of Python classes per FFI type index. */
#include "pyshim.h"

#include <string.h>

/* ---- class table ---------------------------------------------------------- */

static int grow_tables(tvmffi_py_state *st, Py_ssize_t need) {
  Py_ssize_t cap = st->num_classes, i;
  PyObject **classes, **resolved;
  if (need <= cap) return 0;
  if (cap < 256) cap = 256;
  while (cap < need) cap *= 2;
  classes = PyMem_Realloc(st->classes, sizeof(PyObject *) * (size_t)cap);
  if (classes == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  st->classes = classes;
  resolved = PyMem_Realloc(st->resolved, sizeof(PyObject *) * (size_t)cap);
  if (resolved == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  st->resolved = resolved;
  for (i = st->num_classes; i < cap; ++i) {
    st->classes[i] = NULL;
    st->resolved[i] = NULL;
  }
  st->num_classes = cap;
  return 0;
}

int tvmffi_py_register_class(tvmffi_py_state *st, int32_t type_index, PyObject *cls) {
  Py_ssize_t i;
  PyObject *old;
  if (type_index < 0) {
    PyErr_Format(PyExc_ValueError, "invalid type index %d", (int)type_index);
    return -1;
  }
  if (grow_tables(st, (Py_ssize_t)type_index + 1) != 0) return -1;
  old = st->classes[type_index];
  st->classes[type_index] = Py_NewRef(cls);
  /* A new registration can change the nearest ancestor of any type. */
  for (i = 0; i < st->num_classes; ++i) st->resolved[i] = NULL;
  Py_XDECREF(old);
  return 0;
}

int tvmffi_py_is_object_type_slow(tvmffi_py_state *st, PyTypeObject *tp) {
  PyTypeObject *old;
  if (!PyType_IsSubtype(tp, st->object_type)) return 0;
  old = st->object_types[st->object_types_next];
  st->object_types[st->object_types_next] = (PyTypeObject *)Py_NewRef((PyObject *)tp);
  st->object_types_next = (st->object_types_next + 1) % TVMFFI_PY_OBJECT_TYPE_CACHE;
  Py_XDECREF((PyObject *)old);
  return 1;
}

/* A reflected type (one with fields or methods of its own) that no Python
 * class is bound to gets a class made for it on first use, so its fields
 * and methods show: core._fallback_class_factory(type_index) (set by
 * tvm_ffi.registry) makes and binds it.  Returns 0 when a class was bound;
 * otherwise the caller uses the nearest bound ancestor's class, as for a
 * type with nothing reflected.  A failing factory is not fatal: the object
 * still comes back, as an instance of that ancestor's class. */
static int bind_fallback_class(tvmffi_py_state *st, const TVMFFITypeInfo *info) {
  PyObject *factory, *cls;
  /* No Python code runs while an exception is pending (wrapping an error's
   * payload, say): the object then comes back as its ancestor's class. */
  if (st->module == NULL || (info->num_fields == 0 && info->num_methods == 0) ||
      PyErr_Occurred() != NULL) {
    return -1;
  }
  factory = PyObject_GetAttrString(st->module, "_fallback_class_factory");
  if (factory == NULL) {
    PyErr_Clear();
    return -1;
  }
  cls = PyObject_CallFunction(factory, "i", (int)info->type_index);
  Py_DECREF(factory);
  if (cls == NULL || cls == Py_None) {
    PyErr_Clear();
    Py_XDECREF(cls);
    return -1;
  }
  Py_DECREF(cls);
  return info->type_index < st->num_classes && st->classes[info->type_index] != NULL ? 0 : -1;
}

/* Borrowed: the registered class of the type or of its nearest ancestor. */
PyObject *tvmffi_py_class_for_index(tvmffi_py_state *st, int32_t type_index) {
  const TVMFFITypeInfo *info;
  PyObject *cls = NULL;
  int32_t d;
  if (type_index >= 0 && type_index < st->num_classes && st->resolved[type_index] != NULL) {
    return st->resolved[type_index];
  }
  if (type_index >= 0 && type_index < st->num_classes) cls = st->classes[type_index];
  if (cls == NULL) {
    info = TVMFFIGetTypeInfo(type_index);
    if (info == NULL) {
      TVMFFIObjectHandle err = NULL;
      TVMFFIErrorMoveFromRaised(&err);
      TVMFFIObjectDecRef(err);
    } else if (bind_fallback_class(st, info) == 0) {
      cls = st->classes[type_index];
    } else {
      for (d = info->type_depth - 1; d >= 0 && cls == NULL; --d) {
        int32_t anc = info->type_ancestors[d]->type_index;
        if (anc >= 0 && anc < st->num_classes) cls = st->classes[anc];
      }
    }
  }
  if (cls == NULL) cls = (PyObject *)st->object_type;
  if (type_index >= 0) {
    if (grow_tables(st, (Py_ssize_t)type_index + 1) != 0) {
      PyErr_Clear();
    } else {
      st->resolved[type_index] = cls;
    }
  }
  return cls;
}

/* Steals h. */
PyObject *tvmffi_py_object_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h) {
  int32_t type_index = TVMFFIObjectGetTypeIndex(h);
  PyTypeObject *cls;
  allocfunc alloc;
  PyObject *self;
  if (type_index == kTVMFFIFunction) return tvmffi_py_function_wrap(st, h);
  cls = (PyTypeObject *)tvmffi_py_class_for_index(st, type_index);
  alloc = (allocfunc)PyType_GetSlot(cls, Py_tp_alloc);
  self = alloc(cls, 0);
  if (self == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  ((tvmffi_py_object *)self)->handle = h;
  ((tvmffi_py_object *)self)->state = st;
  return self;
}

/* ---- core.Object -------------------------------------------------------------- */

/* The tp_dealloc CPython gives every class made by a class statement (the
 * same function for all of them, in every interpreter): a constant of the
 * process, not a Python object, found once by making such a class. */
static void *python_class_dealloc = NULL;

static int find_python_class_dealloc(void) {
  PyObject *cls;
  if (python_class_dealloc != NULL) return 0;
  cls = PyObject_CallFunction((PyObject *)&PyType_Type, "s(){}", "_tvm_ffi_probe");
  if (cls == NULL) return -1;
  python_class_dealloc = PyType_GetSlot((PyTypeObject *)cls, Py_tp_dealloc);
  Py_DECREF(cls);
  return 0;
}

tvmffi_py_state *tvmffi_py_state_of_subtype(PyTypeObject *tp) {
  /* Python classes have no module of their own; the first base that is not
   * one is a type of the extension (made with its module). */
  PyTypeObject *t = tp;
  while (t != NULL && PyType_GetSlot(t, Py_tp_dealloc) == python_class_dealloc) {
    t = (PyTypeObject *)PyType_GetSlot(t, Py_tp_base);
  }
  if (t == NULL) {
    PyErr_Format(PyExc_TypeError, "%R is not a type of tvm_ffi.core", (PyObject *)tp);
    return NULL;
  }
  return PyType_GetModuleState(t);
}

static PyObject *Object_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  tvmffi_py_state *st = tvmffi_py_state_of_subtype(type);
  allocfunc alloc;
  PyObject *self;
  (void)args;
  (void)kwds;
  if (st == NULL) return NULL;
  alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  self = alloc(type, 0);
  if (self != NULL) {
    ((tvmffi_py_object *)self)->handle = NULL;
    ((tvmffi_py_object *)self)->state = st;
  }
  return self;
}

static void Object_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  TVMFFIObjectHandle h = ((tvmffi_py_object *)self)->handle;
  freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  ((tvmffi_py_object *)self)->handle = NULL;
  if (h != NULL) {
    /* The deleter may run Python code (opaque objects): keep a pending error. */
    PyObject *exc = PyErr_GetRaisedException();
    TVMFFIObjectDecRef(h);
    PyErr_SetRaisedException(exc);
  }
  tp_free(self);
  Py_DECREF(tp);
}

static PyObject *type_key_of(TVMFFIObjectHandle h) {
  const TVMFFITypeInfo *info = TVMFFIGetTypeInfo(TVMFFIObjectGetTypeIndex(h));
  if (info == NULL) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    return PyUnicode_FromString("ffi.Object");
  }
  return PyUnicode_FromStringAndSize(info->type_key.data, (Py_ssize_t)info->type_key.size);
}

PyObject *tvmffi_py_object_repr(PyObject *self) {
  tvmffi_py_object *o = (tvmffi_py_object *)self;
  TVMFFIObjectHandle f;
  TVMFFIAny r;
  PyObject *res;
  if (o->handle == NULL) {
    PyObject *name = PyType_GetName(Py_TYPE(self));
    if (name == NULL) return NULL;
    res = PyUnicode_FromFormat("%U(chandle=None)", name);
    Py_DECREF(name);
    return res;
  }
  f = tvmffi_py_global(o->state, TVMFFI_PY_G_REPR_PRINT);
  if (f == NULL || tvmffi_py_call(o->state, f, &self, 1, 0, &r) != 0) return NULL;
  res = tvmffi_py_result_from_any(o->state, &r);
  if (res != NULL && !PyUnicode_Check(res)) {
    PyErr_SetString(PyExc_TypeError, "ffi.ReprPrint returned a value that is not a str");
    Py_CLEAR(res);
  }
  return res;
}

static Py_hash_t Object_hash(PyObject *self) {
  /* The address rotated right by 4 (allocations are 16-byte aligned). */
  size_t u = (size_t)(uintptr_t)((tvmffi_py_object *)self)->handle;
  Py_hash_t v;
  u = (u >> 4) | (u << (8 * sizeof(u) - 4));
  v = (Py_hash_t)u;
  return v == -1 ? -2 : v;
}

/* The core.Object type among tp's bases (NULL if none); no module state needed. */
static PyTypeObject *find_object_base(PyTypeObject *tp) {
  while (tp != NULL) {
    if (PyType_GetSlot(tp, Py_tp_dealloc) == (void *)Object_dealloc) return tp;
    tp = (PyTypeObject *)PyType_GetSlot(tp, Py_tp_base);
  }
  return NULL;
}

static PyObject *Object_richcompare(PyObject *self, PyObject *other, int op) {
  PyTypeObject *base = find_object_base(Py_TYPE(self));
  int same;
  if ((op != Py_EQ && op != Py_NE) || base == NULL || !PyObject_TypeCheck(other, base)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  same = ((tvmffi_py_object *)self)->handle == ((tvmffi_py_object *)other)->handle;
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

static PyObject *Object_chandle(PyObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromVoidPtr(((tvmffi_py_object *)self)->handle);
}

/* __ctypes_handle__(): the FFI object's address as a ctypes.c_void_p
 * (value None when the wrapper holds no object). */
static PyObject *Object_ctypes_handle(PyObject *self, PyObject *unused) {
  tvmffi_py_object *o = (tvmffi_py_object *)self;
  PyObject *cls = tvmffi_py_c_void_p_class(o->state, 1), *addr, *res;
  (void)unused;
  if (cls == NULL) return NULL;
  if (o->handle == NULL) return PyObject_CallNoArgs(cls);
  addr = PyLong_FromVoidPtr(o->handle);
  if (addr == NULL) return NULL;
  res = tvmffi_py_call1(cls, addr);
  Py_DECREF(addr);
  return res;
}

static PyObject *Object_id(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromVoidPtr(((tvmffi_py_object *)self)->handle);
}

static PyObject *Object_same_as(PyObject *self, PyTypeObject *defining_class,
                                PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs != 1 || (kwnames != NULL && PyTuple_Size(kwnames) != 0)) {
    PyErr_SetString(PyExc_TypeError, "same_as() takes exactly one positional argument");
    return NULL;
  }
  if (!PyObject_TypeCheck(args[0], defining_class)) Py_RETURN_FALSE;
  return PyBool_FromLong(((tvmffi_py_object *)self)->handle ==
                         ((tvmffi_py_object *)args[0])->handle);
}

/* __move_handle_from__(other): self takes over other's FFI object; other is
 * left holding none (as after Object.__new__).  self's previous object, if
 * any, is released. */
static PyObject *Object_move_handle_from(PyObject *self, PyTypeObject *defining_class,
                                         PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kwnames) {
  TVMFFIObjectHandle old;
  if (nargs != 1 || (kwnames != NULL && PyTuple_Size(kwnames) != 0)) {
    PyErr_SetString(PyExc_TypeError,
                    "__move_handle_from__() takes exactly one positional argument");
    return NULL;
  }
  if (!PyObject_TypeCheck(args[0], defining_class)) {
    PyErr_Format(PyExc_TypeError, "__move_handle_from__ needs an FFI object, got %R",
                 (PyObject *)Py_TYPE(args[0]));
    return NULL;
  }
  if (args[0] == self) Py_RETURN_NONE;
  old = ((tvmffi_py_object *)self)->handle;
  ((tvmffi_py_object *)self)->handle = ((tvmffi_py_object *)args[0])->handle;
  ((tvmffi_py_object *)args[0])->handle = NULL;
  if (old != NULL) TVMFFIObjectDecRef(old);
  Py_RETURN_NONE;
}

/* __init_handle_by_constructor__(fconstructor, *args): calls an FFI
 * constructor and installs the object it returns into self. */
static PyObject *Object_init_handle(PyObject *self, PyTypeObject *defining_class,
                                    PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames) {
  tvmffi_py_state *st = PyType_GetModuleState(defining_class);
  TVMFFIAny result;
  TVMFFIObjectHandle old;
  if (st == NULL) return NULL;
  if (nargs < 1 || (kwnames != NULL && PyTuple_Size(kwnames) != 0)) {
    PyErr_SetString(PyExc_TypeError,
                    "__init_handle_by_constructor__(fconstructor, *args) takes positional "
                    "arguments only");
    return NULL;
  }
  if (!PyObject_TypeCheck(args[0], st->function_type)) {
    PyErr_Format(PyExc_TypeError, "the constructor must be a tvm_ffi.Function, got %R", args[0]);
    return NULL;
  }
  if (tvmffi_py_call(st, ((tvmffi_py_object *)args[0])->handle, args + 1, nargs - 1, 0,
                     &result) != 0) {
    return NULL;
  }
  if (result.type_index < kTVMFFIStaticObjectBegin) {
    PyObject *v = tvmffi_py_from_any(st, &result);
    PyErr_Format(PyExc_TypeError, "the constructor returned %R, not an FFI object", v);
    Py_XDECREF(v);
    return NULL;
  }
  old = ((tvmffi_py_object *)self)->handle;
  ((tvmffi_py_object *)self)->handle = result.v_obj;
  ((tvmffi_py_object *)self)->state = st;
  TVMFFIObjectDecRef(old);
  Py_RETURN_NONE;
}

static PyObject *Object_type_index(PyObject *self, void *closure) {
  TVMFFIObjectHandle h = ((tvmffi_py_object *)self)->handle;
  (void)closure;
  if (h == NULL) Py_RETURN_NONE;
  return PyLong_FromLong(TVMFFIObjectGetTypeIndex(h));
}

static PyObject *Object_type_key(PyObject *self, void *closure) {
  TVMFFIObjectHandle h = ((tvmffi_py_object *)self)->handle;
  (void)closure;
  if (h == NULL) Py_RETURN_NONE;
  return type_key_of(h);
}

/* Pickle support: the object's JSON graph (tvm_ffi.serialization._reduce). */
static PyObject *Object_reduce(PyObject *self, PyObject *unused) {
  PyObject *mod = PyImport_ImportModule("tvm_ffi.serialization"), *res;
  (void)unused;
  if (mod == NULL) return NULL;
  res = PyObject_CallMethod(mod, "_reduce", "O", self);
  Py_DECREF(mod);
  return res;
}

static PyObject *Object_move(PyObject *self, PyObject *unused);

static PyMethodDef Object_methods[] = {
    {"__reduce__", Object_reduce, METH_NOARGS, "Pickle support: rebuilt from its JSON graph."},
    {"__chandle__", Object_chandle, METH_NOARGS, "The address of the FFI object (0 if none)."},
    {"__ctypes_handle__", Object_ctypes_handle, METH_NOARGS,
     "The address of the FFI object as a ctypes.c_void_p (value None if none)."},
    {"_move", Object_move, METH_NOARGS,
     "An ObjectRValueRef of self: passed to a call, the callee may take the object."},
    {"same_as", TVMFFI_PY_METH(Object_same_as), METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "Whether both wrappers hold the same FFI object."},
    {"is_", TVMFFI_PY_METH(Object_same_as), METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "same_as under upstream's other name: whether both wrappers hold the same FFI object."},
    {"__move_handle_from__", TVMFFI_PY_METH(Object_move_handle_from),
     METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "Takes over another wrapper's FFI object, leaving that wrapper empty."},
    {"__init_handle_by_constructor__", TVMFFI_PY_METH(Object_init_handle),
     METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "Calls an FFI constructor and stores the object it returns in self."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Object_getset[] = {
    {"__tvm_ffi_type_index__", Object_type_index, NULL, "The FFI type index.", NULL},
    {"__tvm_ffi_type_key__", Object_type_key, NULL, "The FFI type key.", NULL},
    {"id_", Object_id, NULL, "The address of the FFI object, as __chandle__() (0 if none).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot Object_slots[] = {
    {Py_tp_new, Object_new},
    {Py_tp_dealloc, Object_dealloc},
    {Py_tp_repr, tvmffi_py_object_repr},
    {Py_tp_hash, Object_hash},
    {Py_tp_richcompare, Object_richcompare},
    {Py_tp_methods, Object_methods},
    {Py_tp_getset, Object_getset},
    {Py_tp_doc, "Base class of every FFI object wrapper: holds one strong reference."},
    {0, NULL}};

static PyType_Spec Object_spec = {
    .name = "tvm_ffi.core.Object",
    .basicsize = sizeof(tvmffi_py_object),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = Object_slots,
};

/* ---- module functions of this file -------------------------------------------- */

TVMFFIObjectHandle tvmffi_py_handle_of(tvmffi_py_state *st, PyObject *obj) {
  if (!PyObject_TypeCheck(obj, st->object_type) || ((tvmffi_py_object *)obj)->handle == NULL) {
    PyErr_Format(PyExc_TypeError, "expected an FFI object, got %R", obj);
    return NULL;
  }
  return ((tvmffi_py_object *)obj)->handle;
}

/* _register_object(type_index, cls) */
static PyObject *mod_register_object(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  int32_t index;
  if (tvmffi_py_check_nargs("_register_object", nargs, 2, 2) != 0) return NULL;
  if (tvmffi_py_as_int32(args[0], "type index", &index) != 0) return NULL;
  if (!PyType_Check(args[1]) || !PyType_IsSubtype((PyTypeObject *)args[1], st->object_type)) {
    PyErr_Format(PyExc_TypeError, "%R is not a subclass of tvm_ffi.Object", args[1]);
    return NULL;
  }
  if (tvmffi_py_register_class(st, index, args[1]) != 0) return NULL;
  Py_RETURN_NONE;
}

/* _type_key_to_index(key) -> int (KeyError-kind FFI error when unknown) */
static PyObject *mod_type_key_to_index(PyObject *module, PyObject *key) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIByteArray k;
  int32_t index;
  int rc;
  if (tvmffi_py_str_to_bytearray(key, &k) != 0) return NULL;
  rc = TVMFFITypeKeyToIndex(&k, &index);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return PyLong_FromLong(index);
}

static const TVMFFITypeInfo *type_info_of(tvmffi_py_state *st, PyObject *index_obj) {
  int32_t index;
  const TVMFFITypeInfo *info;
  if (tvmffi_py_as_int32(index_obj, "type index", &index) != 0) return NULL;
  info = TVMFFIGetTypeInfo(index);
  if (info == NULL) tvmffi_py_raise_from_ffi(st, -1);
  return info;
}

/* _type_info(index) -> (type_key, [ancestor indices], [(name, doc, flags, static_type)],
 *                      [(name, doc, flags, Function)]) */
/* _type_layout(type_index): (total_size, [(size, alignment, offset), ...])
 * of the type's own fields, in registration order; total_size is None when
 * the type has no metadata of its own or its size is not known (0). */
static PyObject *mod_type_layout(PyObject *module, PyObject *index_obj) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFITypeInfo *info = type_info_of(st, index_obj);
  const TVMFFIFieldInfo *field_data;
  const TVMFFITypeMetadata *meta;
  PyObject *fields, *total;
  int32_t i, num_fields;
  if (info == NULL) return NULL;
  num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  field_data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  meta = __atomic_load_n(&info->metadata, __ATOMIC_ACQUIRE);
  fields = PyList_New(num_fields);
  if (fields == NULL) return NULL;
  for (i = 0; i < num_fields; ++i) {
    const TVMFFIFieldInfo *f = &field_data[i];
    PyObject *t = Py_BuildValue("(LLL)", (long long)f->size, (long long)f->alignment,
                                (long long)f->offset);
    if (t == NULL) {
      Py_DECREF(fields);
      return NULL;
    }
    PyList_SetItem(fields, i, t);
  }
  if (meta != NULL && meta->total_size > 0) {
    total = PyLong_FromLong(meta->total_size);
    if (total == NULL) {
      Py_DECREF(fields);
      return NULL;
    }
  } else {
    total = Py_NewRef(Py_None);
  }
  return Py_BuildValue("(NN)", total, fields);
}

static PyObject *mod_type_info(PyObject *module, PyObject *index_obj) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFITypeInfo *info = type_info_of(st, index_obj);
  PyObject *ancestors = NULL, *fields = NULL, *methods = NULL, *res = NULL;
  int32_t i, num_fields, num_methods;
  const TVMFFIFieldInfo *field_data;
  const TVMFFIMethodInfo *method_data;
  if (info == NULL) return NULL;
  /* Fields and methods may be registered meanwhile by another thread: count
   * first, then the array, both with acquire order (core/type_registry.cc). */
  num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  field_data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  num_methods = __atomic_load_n(&info->num_methods, __ATOMIC_ACQUIRE);
  method_data = __atomic_load_n(&info->methods, __ATOMIC_ACQUIRE);
  ancestors = PyList_New(info->type_depth);
  fields = PyList_New(num_fields);
  methods = PyList_New(num_methods);
  if (ancestors == NULL || fields == NULL || methods == NULL) goto done;
  for (i = 0; i < info->type_depth; ++i) {
    PyObject *v = PyLong_FromLong(info->type_ancestors[i]->type_index);
    if (v == NULL) goto done;
    PyList_SetItem(ancestors, i, v);
  }
  for (i = 0; i < num_fields; ++i) {
    const TVMFFIFieldInfo *f = &field_data[i];
    PyObject *t = Py_BuildValue("(NNLi)", tvmffi_py_str_from_bytearray(&f->name), tvmffi_py_str_from_bytearray(&f->doc),
                                (long long)f->flags, (int)f->field_static_type_index);
    if (t == NULL) goto done;
    PyList_SetItem(fields, i, t);
  }
  for (i = 0; i < num_methods; ++i) {
    const TVMFFIMethodInfo *m = &method_data[i];
    PyObject *fn, *t;
    TVMFFIAny owned;
    memset(&owned, 0, sizeof(owned));
    if (TVMFFIAnyViewToOwnedAny(&m->method, &owned) != 0) {
      tvmffi_py_raise_from_ffi(st, -1);
      goto done;
    }
    fn = tvmffi_py_from_any(st, &owned);
    if (fn == NULL) goto done;
    t = Py_BuildValue("(NNLN)", tvmffi_py_str_from_bytearray(&m->name), tvmffi_py_str_from_bytearray(&m->doc), (long long)m->flags, fn);
    if (t == NULL) goto done;
    PyList_SetItem(methods, i, t);
  }
  res = Py_BuildValue("(NOOO)", tvmffi_py_str_from_bytearray(&info->type_key), ancestors, fields, methods);
done:
  Py_XDECREF(ancestors);
  Py_XDECREF(fields);
  Py_XDECREF(methods);
  return res;
}

/* _member_metadata(index) -> ([field metadata JSON], [method metadata JSON]):
 * the metadata strings of the type's own fields and methods, in order ("" when
 * a member has none). */
static PyObject *mod_member_metadata(PyObject *module, PyObject *index_obj) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFITypeInfo *info = type_info_of(st, index_obj);
  PyObject *fields = NULL, *methods = NULL;
  int32_t i, num_fields, num_methods;
  const TVMFFIFieldInfo *field_data;
  const TVMFFIMethodInfo *method_data;
  if (info == NULL) return NULL;
  num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  field_data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  num_methods = __atomic_load_n(&info->num_methods, __ATOMIC_ACQUIRE);
  method_data = __atomic_load_n(&info->methods, __ATOMIC_ACQUIRE);
  fields = PyList_New(num_fields);
  methods = PyList_New(num_methods);
  if (fields == NULL || methods == NULL) goto fail;
  for (i = 0; i < num_fields; ++i) {
    PyObject *v = tvmffi_py_str_from_bytearray(&field_data[i].metadata);
    if (v == NULL) goto fail;
    PyList_SetItem(fields, i, v);
  }
  for (i = 0; i < num_methods; ++i) {
    PyObject *v = tvmffi_py_str_from_bytearray(&method_data[i].metadata);
    if (v == NULL) goto fail;
    PyList_SetItem(methods, i, v);
  }
  return Py_BuildValue("(NN)", fields, methods);
fail:
  Py_XDECREF(fields);
  Py_XDECREF(methods);
  return NULL;
}

/* _field_defaults(index) -> [value or None]: for each of the type's own
 * fields in order, its default_value_or_factory as a Python value when the
 * field has the HasDefault flag (the factory Function when it also has
 * DefaultFromFactory), else None. */
static PyObject *mod_field_defaults(PyObject *module, PyObject *index_obj) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFITypeInfo *info = type_info_of(st, index_obj);
  const TVMFFIFieldInfo *field_data;
  PyObject *out;
  int32_t i, num_fields;
  if (info == NULL) return NULL;
  num_fields = __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE);
  field_data = __atomic_load_n(&info->fields, __ATOMIC_ACQUIRE);
  out = PyList_New(num_fields);
  if (out == NULL) return NULL;
  for (i = 0; i < num_fields; ++i) {
    const TVMFFIFieldInfo *f = &field_data[i];
    PyObject *v;
    if (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      TVMFFIAny owned;
      memset(&owned, 0, sizeof(owned));
      if (TVMFFIAnyViewToOwnedAny(&f->default_value_or_factory, &owned) != 0) {
        tvmffi_py_raise_from_ffi(st, -1);
        Py_DECREF(out);
        return NULL;
      }
      v = tvmffi_py_from_any(st, &owned);
      if (v == NULL) {
        Py_DECREF(out);
        return NULL;
      }
    } else {
      v = Py_NewRef(Py_None);
    }
    PyList_SetItem(out, i, v);
  }
  return out;
}

static const TVMFFIFieldInfo *field_of(tvmffi_py_state *st, PyObject *obj, PyObject *index_obj,
                                       PyObject *field_obj, TVMFFIObjectHandle *h) {
  const TVMFFITypeInfo *info;
  long fi;
  *h = tvmffi_py_handle_of(st, obj);
  if (*h == NULL) return NULL;
  info = type_info_of(st, index_obj);
  if (info == NULL) return NULL;
  fi = PyLong_AsLong(field_obj);
  if (fi == -1 && PyErr_Occurred()) return NULL;
  if (fi < 0 || fi >= __atomic_load_n(&info->num_fields, __ATOMIC_ACQUIRE)) {
    PyErr_Format(PyExc_IndexError, "field %ld out of range", fi);
    return NULL;
  }
  return &__atomic_load_n(&info->fields, __ATOMIC_ACQUIRE)[fi];
}

/* _field_get(obj, type_index, field_index) */
static PyObject *mod_field_get(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFIFieldInfo *f;
  TVMFFIObjectHandle h;
  TVMFFIAny out;
  int rc;
  if (tvmffi_py_check_nargs("_field_get", nargs, 3, 3) != 0) return NULL;
  f = field_of(st, args[0], args[1], args[2], &h);
  if (f == NULL) return NULL;
  if (f->getter == NULL) {
    PyErr_SetString(PyExc_AttributeError, "field has no getter");
    return NULL;
  }
  memset(&out, 0, sizeof(out));
  rc = f->getter((char *)h + f->offset, &out);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  return tvmffi_py_from_any(st, &out);
}

/* _field_set(obj, type_index, field_index, value) */
static PyObject *mod_field_set(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFIFieldInfo *f;
  TVMFFIObjectHandle h;
  TVMFFIAny value;
  tvmffi_py_temps temps;
  int rc;
  if (tvmffi_py_check_nargs("_field_set", nargs, 4, 4) != 0) return NULL;
  f = field_of(st, args[0], args[1], args[2], &h);
  if (f == NULL) return NULL;
  if (f->setter == NULL) {
    PyErr_SetString(PyExc_AttributeError, "field is read-only");
    return NULL;
  }
  tvmffi_py_temps_init(&temps);
  if (tvmffi_py_to_any(st, args[3], &value, &temps) != 0) {
    tvmffi_py_temps_release(&temps);
    return NULL;
  }
  if (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny cargs[2], result;
    memset(cargs, 0, sizeof(cargs));
    cargs[0].type_index = kTVMFFIOpaquePtr;
    cargs[0].v_ptr = (char *)h + f->offset;
    cargs[1] = value;
    memset(&result, 0, sizeof(result));
    rc = TVMFFIFunctionCall((TVMFFIObjectHandle)f->setter, cargs, 2, &result);
    if (rc == 0 && result.type_index >= kTVMFFIStaticObjectBegin) {
      TVMFFIObjectDecRef(result.v_obj);
    }
  } else {
    rc = ((TVMFFIFieldSetter)f->setter)((char *)h + f->offset, &value);
  }
  tvmffi_py_temps_release(&temps);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _object_use_count(obj) -> strong reference count of the FFI object */
static PyObject *mod_object_use_count(PyObject *module, PyObject *obj) {
  TVMFFIObjectHandle h = tvmffi_py_handle_of(tvmffi_py_module_state(module), obj);
  uint64_t c;
  if (h == NULL) return NULL;
  c = __atomic_load_n(&((TVMFFIObject *)h)->combined_ref_count, __ATOMIC_RELAXED);
  return PyLong_FromUnsignedLongLong(c & 0xffffffffu);
}

/* _init_handle_from_iterable(self, fconstructor, iterable): like
 * self.__init_handle_by_constructor__(fconstructor, *iterable), without
 * building an argument tuple in Python. */
static PyObject *mod_init_handle_from_iterable(PyObject *module, PyObject *const *args,
                                               Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  PyObject *tuple;
  TVMFFIAny result;
  TVMFFIObjectHandle old;
  int rc;
  if (tvmffi_py_check_nargs("_init_handle_from_iterable", nargs, 3, 3) != 0) return NULL;
  if (!PyObject_TypeCheck(args[0], st->object_type)) {
    PyErr_Format(PyExc_TypeError, "expected a tvm_ffi.Object, got %R", args[0]);
    return NULL;
  }
  if (!PyObject_TypeCheck(args[1], st->function_type)) {
    PyErr_Format(PyExc_TypeError, "the constructor must be a tvm_ffi.Function, got %R", args[1]);
    return NULL;
  }
  if (PyTuple_CheckExact(args[2]) || PyList_CheckExact(args[2])) {
    tuple = Py_NewRef(args[2]);
  } else {
    tuple = PySequence_Tuple(args[2]);
  }
  if (tuple == NULL) return NULL;
  rc = tvmffi_py_call_with_tuple(st, ((tvmffi_py_object *)args[1])->handle, tuple, NULL,
                                 &result);
  Py_DECREF(tuple);
  if (rc != 0) return NULL;
  if (result.type_index < kTVMFFIStaticObjectBegin) {
    PyObject *v = tvmffi_py_from_any(st, &result);
    PyErr_Format(PyExc_TypeError, "the constructor returned %R, not an FFI object", v);
    Py_XDECREF(v);
    return NULL;
  }
  old = ((tvmffi_py_object *)args[0])->handle;
  ((tvmffi_py_object *)args[0])->handle = result.v_obj;
  TVMFFIObjectDecRef(old);
  Py_RETURN_NONE;
}

/* The entry of `column` for type index `index`, or NULL when absent (out of
 * the column's range, or None). */
static const TVMFFIAny *type_attr_entry(const TVMFFITypeAttrColumn *column, int32_t index) {
  const TVMFFIAny *entry;
  if (column == NULL || index < column->begin_index ||
      index - column->begin_index >= column->size) {
    return NULL;
  }
  entry = &column->data[index - column->begin_index];
  return entry->type_index == kTVMFFINone ? NULL : entry;
}

/* The method `name` of exactly this type, or NULL. */
static const TVMFFIAny *own_method(const TVMFFITypeInfo *info, const TVMFFIByteArray *name) {
  int32_t i;
  for (i = 0; i < info->num_methods; ++i) {
    const TVMFFIMethodInfo *m = &info->methods[i];
    if (m->name.size == name->size && memcmp(m->name.data, name->data, name->size) == 0) {
      return &m->method;
    }
  }
  return NULL;
}

/* _lookup_type_attr(type_index, attr_key, ancestor=False) -> the value of
 * type attribute `attr_key` for the type (None when it has none).  With
 * ancestor, the nearest ancestor's value is returned when the type has none.
 * Upstream keeps each type's constructor in the "__ffi_init__" column too;
 * here it is a method only, so for that key the method table answers when
 * the column does not. */
static PyObject *mod_lookup_type_attr(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  const TVMFFITypeAttrColumn *column;
  const TVMFFITypeInfo *info;
  const TVMFFIAny *entry;
  TVMFFIByteArray name;
  int ancestor = 0, is_init;
  int32_t depth;
  if (nargs < 2 || nargs > 3) {
    PyErr_Format(PyExc_TypeError,
                 "_lookup_type_attr(type_index, attr_key, ancestor=False) takes 2 or 3 "
                 "arguments (%zd given)",
                 nargs);
    return NULL;
  }
  info = type_info_of(st, args[0]);
  if (info == NULL) return NULL;
  if (tvmffi_py_str_to_bytearray(args[1], &name) != 0) return NULL;
  if (nargs == 3 && (ancestor = PyObject_IsTrue(args[2])) < 0) return NULL;
  column = TVMFFIGetTypeAttrColumn(&name);
  is_init = name.size == 12 && memcmp(name.data, "__ffi_init__", 12) == 0;
  entry = type_attr_entry(column, info->type_index);
  if (entry == NULL && is_init) entry = own_method(info, &name);
  for (depth = info->type_depth - 1; entry == NULL && ancestor && depth >= 0; --depth) {
    entry = type_attr_entry(column, info->type_ancestors[depth]->type_index);
    if (entry == NULL && is_init) entry = own_method(info->type_ancestors[depth], &name);
  }
  if (entry == NULL) Py_RETURN_NONE;
  return tvmffi_py_from_view(st, entry);
}


/* _error_create(kind, message, backtrace) -> a new ffi.Error object. */
static PyObject *mod_error_create(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIByteArray parts[3];
  TVMFFIObjectHandle out = NULL;
  Py_ssize_t i;
  if (nargs != 3) {
    PyErr_Format(PyExc_TypeError,
                 "_error_create(kind, message, backtrace) takes 3 arguments (%zd given)", nargs);
    return NULL;
  }
  for (i = 0; i < 3; ++i) {
    if (tvmffi_py_str_to_bytearray(args[i], &parts[i]) != 0) return NULL;
  }
  if (TVMFFIErrorCreate(&parts[0], &parts[1], &parts[2], &out) != 0) return PyErr_NoMemory();
  return tvmffi_py_object_wrap(st, out);
}

/* _class_for_index(type_index) -> the class objects of the type come back
 * as (its bound class, a fallback class made for it, or the nearest bound
 * ancestor's class). */
static PyObject *mod_class_for_index(PyObject *module, PyObject *index_obj) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  int32_t index;
  if (tvmffi_py_as_int32(index_obj, "type index", &index) != 0) return NULL;
  if (TVMFFIGetTypeInfo(index) == NULL) {
    tvmffi_py_raise_from_ffi(st, -1);
    return NULL;
  }
  return Py_NewRef(tvmffi_py_class_for_index(st, index));
}

static PyMethodDef object_functions[] = {
    {"_class_for_index", mod_class_for_index, METH_O, NULL},
    {"_error_create", TVMFFI_PY_METH(mod_error_create), METH_FASTCALL, NULL},
    {"_lookup_type_attr", TVMFFI_PY_METH(mod_lookup_type_attr), METH_FASTCALL, NULL},
    {"_register_object", TVMFFI_PY_METH(mod_register_object), METH_FASTCALL, NULL},
    {"_type_key_to_index", mod_type_key_to_index, METH_O, NULL},
    {"_type_info", mod_type_info, METH_O, NULL},
    {"_type_layout", mod_type_layout, METH_O, NULL},
    {"_member_metadata", mod_member_metadata, METH_O, NULL},
    {"_field_defaults", mod_field_defaults, METH_O, NULL},
    {"_field_get", TVMFFI_PY_METH(mod_field_get), METH_FASTCALL, NULL},
    {"_field_set", TVMFFI_PY_METH(mod_field_set), METH_FASTCALL, NULL},
    {"_object_use_count", mod_object_use_count, METH_O, NULL},
    {"_init_handle_from_iterable", TVMFFI_PY_METH(mod_init_handle_from_iterable), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

/* ---- core.ObjectRValueRef ----------------------------------------------------
 *
 * ObjectRValueRef(obj) (what obj._move() makes) passes obj's FFI object to a
 * call as kTVMFFIObjectRValueRef: the view points at the wrapper's handle
 * slot, so a callee that takes the object clears the slot and the wrapper is
 * left empty, with no extra reference added and released. */
typedef struct {
  PyObject_HEAD
  PyObject *obj;
} rvalue_ref;

static PyObject *RValueRef_new(PyTypeObject *tp, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"obj", NULL};
  PyObject *obj;
  rvalue_ref *self;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:ObjectRValueRef", kwlist, &obj)) return NULL;
  self = (rvalue_ref *)((allocfunc)PyType_GetSlot(tp, Py_tp_alloc))(tp, 0);
  if (self == NULL) return NULL;
  self->obj = Py_NewRef(obj);
  return (PyObject *)self;
}

static int RValueRef_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((rvalue_ref *)self)->obj);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int RValueRef_clear(PyObject *self) {
  Py_CLEAR(((rvalue_ref *)self)->obj);
  return 0;
}

static void RValueRef_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  RValueRef_clear(self);
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
  Py_DECREF(tp);
}

static PyObject *RValueRef_repr(PyObject *self) {
  return PyUnicode_FromFormat("ObjectRValueRef(%R)", ((rvalue_ref *)self)->obj);
}

int tvmffi_py_rvalue_ref_to_any(PyObject *ref, TVMFFIAny *out) {
  PyObject *obj = ((rvalue_ref *)ref)->obj;
  tvmffi_py_state *st = tvmffi_py_state_of_subtype(Py_TYPE(ref));
  if (st == NULL) return -1;
  if (obj == NULL || !PyObject_TypeCheck(obj, st->object_type)) {
    PyErr_Format(PyExc_TypeError, "ObjectRValueRef needs an FFI object to move, got %R", obj);
    return -1;
  }
  if (((tvmffi_py_object *)obj)->handle == NULL) {
    PyObject *name = PyType_GetName(Py_TYPE(obj));
    if (name == NULL) return -1;
    PyErr_Format(PyExc_ValueError,
                 "ObjectRValueRef: this %U holds no FFI object (moved already, or never "
                 "initialised)",
                 name);
    Py_DECREF(name);
    return -1;
  }
  memset(out, 0, sizeof(*out));
  out->type_index = kTVMFFIObjectRValueRef;
  out->v_ptr = &((tvmffi_py_object *)obj)->handle;
  return 0;
}

static PyMemberDef RValueRef_members[] = {
    {"obj", Py_T_OBJECT_EX, offsetof(rvalue_ref, obj), Py_READONLY, "The object to move."},
    {NULL, 0, 0, 0, NULL}};

static PyType_Slot RValueRef_slots[] = {
    {Py_tp_new, RValueRef_new},
    {Py_tp_dealloc, RValueRef_dealloc},
    {Py_tp_traverse, RValueRef_traverse},
    {Py_tp_clear, RValueRef_clear},
    {Py_tp_repr, RValueRef_repr},
    {Py_tp_members, RValueRef_members},
    {Py_tp_doc,
     "ObjectRValueRef(obj): passes obj to a call by move (obj._move() makes one); a callee "
     "that takes the object leaves obj empty."},
    {0, NULL}};

static PyType_Spec RValueRef_spec = {
    .name = "tvm_ffi.core.ObjectRValueRef",
    .basicsize = sizeof(rvalue_ref),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = RValueRef_slots,
};

/* obj._move(): ObjectRValueRef(obj). */
static PyObject *Object_move(PyObject *self, PyObject *unused) {
  tvmffi_py_state *st = tvmffi_py_state_of_subtype(Py_TYPE(self));
  PyObject *args;
  PyObject *res;
  (void)unused;
  if (st == NULL) return NULL;
  args = PyTuple_Pack(1, self);
  if (args == NULL) return NULL;
  res = RValueRef_new(st->rvalue_ref_type, args, NULL);
  Py_DECREF(args);
  return res;
}

int tvmffi_py_init_object(PyObject *module, tvmffi_py_state *st) {
  if (find_python_class_dealloc() != 0) return -1;
  st->object_type = tvmffi_py_add_type(module, &Object_spec, NULL);
  if (st->object_type == NULL) return -1;
  st->rvalue_ref_type = tvmffi_py_add_type(module, &RValueRef_spec, NULL);
  if (st->rvalue_ref_type == NULL) return -1;
  if (PyModule_AddFunctions(module, object_functions) != 0) return -1;
  return tvmffi_py_register_class(st, kTVMFFIObject, (PyObject *)st->object_type);
}

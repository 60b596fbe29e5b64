/* map.c: the Python protocols of ffi.Map and ffi.Dict as type slots of
 * core.MapBase and core.DictBase (the bases of tvm_ffi.Map and tvm_ffi.Dict),
 * their iterator and their keys/values/items views.
 *
 * Size and iteration read the map objects in place: their layout is ABI in
 * practice (docs/abi.md section 11).  Lookups and mutations, which hash, go
 * through the ffi.Map* / ffi.Dict* global functions, called straight
 * (tvmffi_py_function_call) with handles cached in the module state.  Each
 * TVMFFI_PY_G_MAP_x slot is followed by its Dict twin, so `base + is_dict`
 * picks the right one. */
#include "pyshim.h"

#include <stddef.h>
#include <string.h>

/* ---- the storage, read in place ---------------------------------------------------- */

/* The fields after the object header of every map object, and the entries of
 * both forms: ABI in practice (docs/abi.md section 11, include/tvmffi/map.h). */
typedef struct {
  void *data;
  uint64_t size;
  uint64_t slots; /* bit 63 set: the small form */
  void (*data_deleter)(void *);
  uint32_t fib_shift;
  uint64_t iter_list_head;
  uint64_t iter_list_tail;
} map_cell;

typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
} map_kv;

enum { DENSE_BLOCK_SLOTS = 16 };

typedef struct {
  map_kv kv;
  uint64_t prev;
  uint64_t next;
} dense_item;

typedef struct {
  uint8_t meta[DENSE_BLOCK_SLOTS];
  dense_item items[DENSE_BLOCK_SLOTS];
} dense_block;

_Static_assert(sizeof(TVMFFIObject) == 24, "map fields start at offset 24");
_Static_assert(offsetof(map_cell, fib_shift) == 32 && offsetof(map_cell, iter_list_tail) == 48,
               "map cell layout (docs/abi.md section 11)");
_Static_assert(sizeof(map_kv) == 32 && sizeof(dense_item) == 48 && sizeof(dense_block) == 784,
               "map entry layout (docs/abi.md section 11)");

#define MAP_SMALL_TAG ((uint64_t)1 << 63)
#define MAP_NO_INDEX (~(uint64_t)0)
#define DENSE_EMPTY 0xFF
#define DENSE_PROTECTED 0xFE

static const map_cell *cell_of(const TVMFFIObject *h) {
  return (const map_cell *)((const char *)h + sizeof(TVMFFIObject));
}

static int cell_is_small(const map_cell *c) { return (c->slots & MAP_SMALL_TAG) != 0; }

/* Positions follow the C++ MapBaseObj: a pair index (small form) or an entry
 * index (dense form), in iteration order from cell_begin by cell_next until
 * cell_end. */
static uint64_t cell_begin(const map_cell *c) { return cell_is_small(c) ? 0 : c->iter_list_head; }

static uint64_t cell_end(const map_cell *c) { return cell_is_small(c) ? c->size : MAP_NO_INDEX; }

static const dense_item *dense_at(const map_cell *c, uint64_t pos) {
  return &((const dense_block *)c->data)[pos / DENSE_BLOCK_SLOTS].items[pos % DENSE_BLOCK_SLOTS];
}

static const map_kv *cell_kv(const map_cell *c, uint64_t pos) {
  return cell_is_small(c) ? &((const map_kv *)c->data)[pos] : &dense_at(c, pos)->kv;
}

static uint64_t cell_next(const map_cell *c, uint64_t pos) {
  if (cell_is_small(c)) return pos + 1 < c->size ? pos + 1 : c->size;
  return dense_at(c, pos)->next;
}

/* Whether pos holds a pair now. */
static int cell_is_live(const map_cell *c, uint64_t pos) {
  uint8_t meta;
  if (cell_is_small(c)) return pos < c->size;
  if (c->data == NULL || pos >= c->slots) return 0;
  meta = ((const dense_block *)c->data)[pos / DENSE_BLOCK_SLOTS].meta[pos % DENSE_BLOCK_SLOTS];
  return meta != DENSE_EMPTY && meta != DENSE_PROTECTED;
}

/* The position whose key has the 16 bytes of `key`, or cell_end. */
static uint64_t cell_find_bytes(const map_cell *c, const TVMFFIAny *key) {
  uint64_t pos, end = cell_end(c);
  for (pos = cell_begin(c); pos != end; pos = cell_next(c, pos)) {
    if (memcmp(&cell_kv(c, pos)->key, key, sizeof(TVMFFIAny)) == 0) return pos;
  }
  return end;
}

/* The 16 bytes of the key last in iteration order (dense form); zero when
 * there is none. */
static TVMFFIAny cell_tail_key(const map_cell *c) {
  TVMFFIAny none;
  if (cell_is_small(c) || c->size == 0 || c->iter_list_tail == MAP_NO_INDEX) {
    memset(&none, 0, sizeof(none));
    return none;
  }
  return cell_kv(c, c->iter_list_tail)->key;
}

/* The handle of a Map or Dict wrapper, and whether it is a Dict; NULL with an
 * error for anything else. */
static TVMFFIObject *map_handle(PyObject *self, int *is_dict) {
  TVMFFIObject *h = (TVMFFIObject *)((tvmffi_py_object *)self)->handle;
  if (h == NULL) {
    PyErr_SetString(PyExc_ValueError, "the container holds no FFI object (never initialised)");
    return NULL;
  }
  if (h->type_index != kTVMFFIMap && h->type_index != kTVMFFIDict) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Map or ffi.Dict, got type index %d",
                 (int)h->type_index);
    return NULL;
  }
  *is_dict = h->type_index == kTVMFFIDict;
  return h;
}

/* Calls global `which` (+1 for a Dict) with the map and a key; *result owned. */
static int map_call(tvmffi_py_state *st, int which, TVMFFIObject *h, int is_dict, PyObject *key,
                    TVMFFIAny *result) {
  TVMFFIObjectHandle f = tvmffi_py_global(st, which + is_dict);
  TVMFFIAny args[2];
  tvmffi_py_temps temps;
  int rc;
  if (f == NULL) return -1;
  tvmffi_py_set_head(&args[0], h->type_index);
  args[0].v_obj = h;
  tvmffi_py_temps_init(&temps);
  if (tvmffi_py_arg_to_any(st, key, &args[1], &temps) != 0) {
    tvmffi_py_temps_release(&temps);
    return -1;
  }
  memset(result, 0, sizeof(*result));
  rc = tvmffi_py_function_call(f, args, 2, result);
  if (temps.num_temps != 0) tvmffi_py_temps_release(&temps);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  return 0;
}

/* The size, read in place. */
static Py_ssize_t map_size(PyObject *self) {
  int is_dict;
  TVMFFIObject *h = map_handle(self, &is_dict);
  return h == NULL ? -1 : (Py_ssize_t)cell_of(h)->size;
}

/* The MISSING sentinel (borrowed, immortal), looked up once. */
static TVMFFIObjectHandle missing_object(tvmffi_py_state *st) {
  if (st->missing == NULL) {
    TVMFFIObjectHandle f = tvmffi_py_global(st, TVMFFI_PY_G_GET_MISSING);
    TVMFFIAny r;
    if (f == NULL || tvmffi_py_call(st, f, NULL, 0, 0, &r) != 0) return NULL;
    if (r.type_index < kTVMFFIStaticObjectBegin) {
      PyErr_SetString(PyExc_RuntimeError, "ffi.GetInvalidObject returned no object");
      return NULL;
    }
    st->missing = r.v_obj; /* owned; released with the module state */
  }
  return st->missing;
}

/* 1 and a new reference in *out if the key is present, 0 if not, -1 on error. */
static int map_lookup(PyObject *self, PyObject *key, PyObject **out) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  int is_dict;
  TVMFFIObject *h = map_handle(self, &is_dict);
  TVMFFIObjectHandle missing;
  TVMFFIAny r;
  if (h == NULL) return -1;
  missing = missing_object(st);
  if (missing == NULL) return -1;
  if (map_call(st, TVMFFI_PY_G_MAP_GET_OR_MISSING, h, is_dict, key, &r) != 0) return -1;
  if (r.type_index >= kTVMFFIStaticObjectBegin && r.v_obj == missing) {
    TVMFFIObjectDecRef(r.v_obj);
    return 0;
  }
  *out = tvmffi_py_container_element(self, &r);
  return *out == NULL ? -1 : 1;
}

/* KeyError(key), with the key wrapped so that a tuple key stays one argument. */
static void key_error(PyObject *key) {
  PyObject *arg = PyTuple_Pack(1, key);
  if (arg == NULL) return;
  PyErr_SetObject(PyExc_KeyError, arg);
  Py_DECREF(arg);
}

static PyObject *Map_subscript(PyObject *self, PyObject *key) {
  PyObject *value;
  int found = map_lookup(self, key, &value);
  if (found == 0) key_error(key);
  return found > 0 ? value : NULL;
}

static int Map_contains(PyObject *self, PyObject *key) {
  int is_dict;
  TVMFFIObject *h = map_handle(self, &is_dict);
  TVMFFIAny r;
  if (h == NULL) return -1;
  if (map_call(((tvmffi_py_object *)self)->state, TVMFFI_PY_G_MAP_COUNT, h, is_dict, key, &r) !=
      0) {
    return -1;
  }
  return r.v_int64 != 0;
}

/* get(key, default=None) */
static PyObject *Map_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  PyObject *value;
  int found;
  if (tvmffi_py_check_nargs("get", nargs, 1, 2) != 0) return NULL;
  found = map_lookup(self, args[0], &value);
  if (found < 0) return NULL;
  if (found) return value;
  return Py_NewRef(nargs == 2 ? args[1] : Py_None);
}

/* ---- core.MapIterator --------------------------------------------------------------- */

enum { KIND_KEYS = 0, KIND_VALUES = 1, KIND_ITEMS = 2 };

/* Reads the entries in place, in the order of the C++ iterator.  `pos` is
 * the next entry to return and `key` the bytes of its key (compared, never
 * read through); when the storage moved or the entry no longer holds that
 * key, the key is looked up again.  The size must not change (as for dict);
 * giving a present key a new value is allowed. */
typedef struct {
  PyObject_HEAD
  PyObject *map;           /* the wrapper, held while iterating; NULL when done */
  TVMFFIObject *handle;    /* owned: the map object itself */
  Py_ssize_t remaining;    /* entries not yet returned */
  uint64_t pos;
  TVMFFIAny key;
  uint64_t size;           /* the size, storage and capacity seen last */
  const void *data;
  uint64_t slots;
  TVMFFIAny last;          /* the key returned last (zero before the first) */
  TVMFFIAny tail;          /* dense form: the key last in iteration order, as seen last */
  int tail_seen;           /* tail was read in the dense form */
  int kind;
  int size_changed;        /* seen once: every later call raises */
  PyObject *pair;          /* items: the (key, value) tuple reused while only this holds it */
} map_iter;

static void map_iter_finish(map_iter *it) {
  TVMFFIObject *h = it->handle;
  it->handle = NULL;
  it->remaining = 0;
  if (h != NULL) TVMFFIObjectDecRef(h);
  Py_CLEAR(it->map);
}

/* An owned copy of a stored value. */
static TVMFFIAny copy_stored(const TVMFFIAny *v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(v->v_obj);
  return *v;
}

static PyObject *MapIter_next(PyObject *self) {
  map_iter *it = (map_iter *)self;
  const map_cell *c;
  const map_kv *kv;
  TVMFFIAny k, v;
  PyObject *key = NULL, *value = NULL, *res;
  if (it->handle == NULL) return NULL; /* exhausted, or ended by a changed key */
  c = cell_of(it->handle);
  /* As dict: checked even after the last entry, and sticky. */
  if (it->size_changed || c->size != it->size) {
    it->size_changed = 1;
    PyErr_SetString(PyExc_RuntimeError, "dictionary changed size during iteration");
    return NULL;
  }
  if (it->remaining <= 0) {
    map_iter_finish(it);
    return NULL;
  }
  /* Setting a present key of a dense Dict moves it to the end of the
   * iteration order (as upstream's Dict does).  The key just returned may
   * move (`for k in d: d[k] = ...`): it was visited, and the count of
   * entries left stops the walk before it comes round again.  Any other key
   * moved would be visited twice or skipped, so that raises. */
  if (!cell_is_small(c)) {
    TVMFFIAny tail = cell_tail_key(c);
    if (!it->tail_seen) {
      /* Small until now: a small Dict sets keys in place, so only the turn
       * to the dense form can have reordered, and it keeps the order. */
      it->tail = tail;
      it->tail_seen = 1;
    } else if (memcmp(&tail, &it->tail, sizeof(tail)) != 0) {
      if (memcmp(&tail, &it->last, sizeof(tail)) != 0) {
        map_iter_finish(it);
        PyErr_SetString(PyExc_RuntimeError, "dictionary keys changed during iteration");
        return NULL;
      }
      it->tail = tail;
    }
  }
  if (c->data != it->data || c->slots != it->slots || !cell_is_live(c, it->pos) ||
      memcmp(&cell_kv(c, it->pos)->key, &it->key, sizeof(TVMFFIAny)) != 0) {
    it->pos = cell_find_bytes(c, &it->key);
    if (it->pos == cell_end(c)) {
      /* As dict: raised once, then the iterator is exhausted. */
      map_iter_finish(it);
      PyErr_SetString(PyExc_RuntimeError, "dictionary keys changed during iteration");
      return NULL;
    }
    it->data = c->data;
    it->slots = c->slots;
  }
  /* Everything read before any Python code runs (a conversion may). */
  kv = cell_kv(c, it->pos);
  it->last = kv->key;
  k = copy_stored(&kv->key);
  v = copy_stored(&kv->value);
  if (--it->remaining > 0) {
    it->pos = cell_next(c, it->pos);
    if (it->pos == cell_end(c)) {
      it->remaining = 0; /* the rest moved behind (a present key set again) */
    } else {
      it->key = cell_kv(c, it->pos)->key;
    }
  }
  if (it->kind == KIND_VALUES) {
    if (k.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(k.v_obj);
  } else {
    key = tvmffi_py_container_element(it->map, &k);
  }
  if (it->kind == KIND_KEYS) {
    if (v.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v.v_obj);
    return key;
  }
  if (key == NULL && it->kind == KIND_ITEMS) {
    if (v.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v.v_obj);
    return NULL;
  }
  value = tvmffi_py_container_element(it->map, &v);
  if (it->kind == KIND_VALUES || value == NULL) {
    Py_XDECREF(key);
    return value;
  }
  /* Like dict's items iterator: the pair of the previous step is reused when
   * nothing else holds it (the usual `for k, v in m.items()`). */
  res = it->pair;
  if (res != NULL && Py_REFCNT(res) == 1) {
    PyTuple_SetItem(res, 0, key); /* steals; releases the previous key */
    PyTuple_SetItem(res, 1, value);
    Py_INCREF(res);
    /* The collector may have untracked it while it held only atomic values. */
    if (!PyObject_GC_IsTracked(res)) PyObject_GC_Track(res);
    return res;
  }
  res = PyTuple_New(2);
  if (res == NULL) {
    Py_DECREF(key);
    Py_DECREF(value);
    return NULL;
  }
  PyTuple_SetItem(res, 0, key);
  PyTuple_SetItem(res, 1, value);
  if (it->pair == NULL) it->pair = Py_NewRef(res);
  return res;
}

static PyObject *MapIter_length_hint(PyObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromSsize_t(((map_iter *)self)->remaining);
}

static int MapIter_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(((map_iter *)self)->map);
  Py_VISIT(((map_iter *)self)->pair);
  return 0;
}

static int MapIter_clear(PyObject *self) {
  Py_CLEAR(((map_iter *)self)->pair);
  map_iter_finish((map_iter *)self);
  return 0;
}

static void MapIter_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  MapIter_clear(self);
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
  Py_DECREF(tp);
}

static PyMethodDef MapIter_methods[] = {
    {"__length_hint__", MapIter_length_hint, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};

static PyType_Slot MapIter_slots[] = {
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, MapIter_next},
    {Py_tp_dealloc, MapIter_dealloc},
    {Py_tp_traverse, MapIter_traverse},
    {Py_tp_clear, MapIter_clear},
    {Py_tp_methods, MapIter_methods},
    {Py_tp_doc, "Iterator over the keys, values or items of an ffi.Map or ffi.Dict."},
    {0, NULL}};

static PyType_Spec MapIter_spec = {
    .name = "tvm_ffi.core.MapIterator",
    .basicsize = sizeof(map_iter),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION |
             Py_TPFLAGS_HAVE_GC,
    .slots = MapIter_slots,
};

static PyObject *map_iter_new(PyObject *map, int kind) {
  tvmffi_py_state *st = ((tvmffi_py_object *)map)->state;
  int is_dict;
  TVMFFIObject *h = map_handle(map, &is_dict);
  const map_cell *c;
  map_iter *it;
  if (h == NULL) return NULL;
  it = (map_iter *)((allocfunc)PyType_GetSlot(st->map_iter_type, Py_tp_alloc))(st->map_iter_type,
                                                                              0);
  if (it == NULL) return NULL;
  c = cell_of(h);
  TVMFFIObjectIncRef(h);
  it->map = Py_NewRef(map);
  it->handle = h;
  it->remaining = (Py_ssize_t)c->size;
  it->size = c->size;
  it->data = c->data;
  it->slots = c->slots;
  it->kind = kind;
  it->size_changed = 0;
  it->pair = NULL;
  it->pos = cell_begin(c);
  memset(&it->last, 0, sizeof(it->last));
  it->tail = cell_tail_key(c);
  it->tail_seen = !cell_is_small(c);
  memset(&it->key, 0, sizeof(it->key));
  if (it->remaining > 0) it->key = cell_kv(c, it->pos)->key;
  return (PyObject *)it;
}

static PyObject *Map_iter(PyObject *self) { return map_iter_new(self, KIND_KEYS); }

/* ---- core.MapView: keys(), values(), items() ---------------------------------------- */

typedef struct {
  PyObject_HEAD
  PyObject *map;
  int kind;
} map_view;

static Py_ssize_t MapView_length(PyObject *self) { return map_size(((map_view *)self)->map); }

static PyObject *MapView_iter(PyObject *self) {
  return map_iter_new(((map_view *)self)->map, ((map_view *)self)->kind);
}

static int MapView_contains(PyObject *self, PyObject *x) {
  map_view *v = (map_view *)self;
  if (v->kind == KIND_KEYS) return Map_contains(v->map, x);
  if (v->kind == KIND_ITEMS) {
    PyObject *value;
    int found, eq;
    if (!PyTuple_Check(x) || PyTuple_Size(x) != 2) return 0;
    found = map_lookup(v->map, PyTuple_GetItem(x, 0), &value);
    if (found <= 0) return found;
    eq = PyObject_RichCompareBool(value, PyTuple_GetItem(x, 1), Py_EQ);
    Py_DECREF(value);
    return eq;
  }
  {
    PyObject *it = MapView_iter(self), *item;
    int eq = 0;
    if (it == NULL) return -1;
    while (eq == 0 && (item = PyIter_Next(it)) != NULL) {
      eq = PyObject_RichCompareBool(item, x, Py_EQ);
      Py_DECREF(item);
    }
    Py_DECREF(it);
    if (eq == 0 && PyErr_Occurred()) return -1;
    return eq;
  }
}

static PyObject *MapView_repr(PyObject *self) {
  static const char *names[] = {"keys", "values", "items"};
  PyObject *items = PySequence_List(self), *res;
  if (items == NULL) return NULL;
  res = PyUnicode_FromFormat("%s(%R)", names[((map_view *)self)->kind], items);
  Py_DECREF(items);
  return res;
}

static void MapView_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  Py_XDECREF(((map_view *)self)->map);
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
  Py_DECREF(tp);
}

static PyType_Slot MapView_slots[] = {
    {Py_sq_length, MapView_length},
    {Py_sq_contains, MapView_contains},
    {Py_tp_iter, MapView_iter},
    {Py_tp_repr, MapView_repr},
    {Py_tp_dealloc, MapView_dealloc},
    {Py_tp_doc, "A live view of the keys, values or items of an ffi.Map or ffi.Dict."},
    {0, NULL}};

static PyType_Spec MapView_spec = {
    .name = "tvm_ffi.core.MapView",
    .basicsize = sizeof(map_view),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = MapView_slots,
};

static PyObject *map_view_new(PyObject *map, int kind) {
  tvmffi_py_state *st = ((tvmffi_py_object *)map)->state;
  int is_dict;
  map_view *v;
  if (map_handle(map, &is_dict) == NULL) return NULL;
  v = (map_view *)((allocfunc)PyType_GetSlot(st->map_view_type, Py_tp_alloc))(st->map_view_type,
                                                                             0);
  if (v == NULL) return NULL;
  v->map = Py_NewRef(map);
  v->kind = kind;
  return (PyObject *)v;
}

static PyObject *Map_keys(PyObject *self, PyObject *unused) {
  (void)unused;
  return map_view_new(self, KIND_KEYS);
}

static PyObject *Map_values(PyObject *self, PyObject *unused) {
  (void)unused;
  return map_view_new(self, KIND_VALUES);
}

static PyObject *Map_items(PyObject *self, PyObject *unused) {
  (void)unused;
  return map_view_new(self, KIND_ITEMS);
}

/* ---- comparison, hash, repr, pickle ----------------------------------------------------- */

/* A plain list of (key, value) tuples, in iteration order. */
static PyObject *map_items_list(PyObject *self) {
  PyObject *it = map_iter_new(self, KIND_ITEMS), *res;
  if (it == NULL) return NULL;
  res = PySequence_List(it);
  Py_DECREF(it);
  return res;
}

/* Whether `other` compares with a map: a dict, a Map or Dict, or any
 * collections.abc.Mapping. */
static int is_comparable_mapping(tvmffi_py_state *st, PyObject *other) {
  TVMFFIObject *h;
  if (PyDict_Check(other)) return 1;
  h = tvmffi_py_handle_if_object(st, other);
  if (h != NULL) return h->type_index == kTVMFFIMap || h->type_index == kTVMFFIDict;
  if (st->abc_mapping == NULL) {
    PyObject *abc = PyImport_ImportModule("collections.abc");
    if (abc == NULL) return -1;
    st->abc_mapping = PyObject_GetAttrString(abc, "Mapping");
    Py_DECREF(abc);
    if (st->abc_mapping == NULL) return -1;
  }
  return PyObject_IsInstance(other, st->abc_mapping);
}

/* Equal when both have the same keys and equal values. */
static PyObject *Map_richcompare(PyObject *self, PyObject *other, int op) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  PyObject *items;
  Py_ssize_t n, i;
  int ok, eq = 1;
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  ok = is_comparable_mapping(st, other);
  if (ok < 0) return NULL;
  if (!ok) Py_RETURN_NOTIMPLEMENTED;
  if (tvmffi_py_handle_if_object(st, other) == ((tvmffi_py_object *)self)->handle) {
    return PyBool_FromLong(op == Py_EQ);
  }
  n = map_size(self);
  if (n < 0) return NULL;
  i = PyObject_Size(other);
  if (i < 0) return NULL;
  if (i != n) return PyBool_FromLong(op == Py_NE);
  items = map_items_list(self);
  if (items == NULL) return NULL;
  for (i = 0; i < PyList_Size(items) && eq == 1; ++i) {
    PyObject *kv = PyList_GetItem(items, i);
    PyObject *theirs = PyObject_GetItem(other, PyTuple_GetItem(kv, 0));
    if (theirs == NULL) {
      if (!PyErr_ExceptionMatches(PyExc_KeyError)) {
        eq = -1;
        break;
      }
      PyErr_Clear();
      eq = 0;
      break;
    }
    eq = PyObject_RichCompareBool(PyTuple_GetItem(kv, 1), theirs, Py_EQ);
    Py_DECREF(theirs);
  }
  Py_DECREF(items);
  if (eq < 0) return NULL;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* Equal maps hash alike: the hash of the frozenset of their items. */
static Py_hash_t Map_hash(PyObject *self) {
  PyObject *items, *set;
  Py_hash_t h;
  /* A Dict may hold itself; PyObject_Hash has no recursion guard. */
  if (Py_EnterRecursiveCall(" while hashing an FFI map") != 0) return -1;
  items = map_items_list(self);
  set = items == NULL ? NULL : PyFrozenSet_New(items);
  Py_XDECREF(items);
  h = set == NULL ? -1 : PyObject_Hash(set);
  Py_XDECREF(set);
  Py_LeaveRecursiveCall();
  return h;
}

/* A plain dict of the entries. */
static PyObject *map_to_dict(PyObject *self) {
  PyObject *items = map_items_list(self), *d;
  Py_ssize_t i;
  if (items == NULL) return NULL;
  d = PyDict_New();
  for (i = 0; d != NULL && i < PyList_Size(items); ++i) {
    PyObject *kv = PyList_GetItem(items, i);
    if (PyDict_SetItem(d, PyTuple_GetItem(kv, 0), PyTuple_GetItem(kv, 1)) != 0) Py_CLEAR(d);
  }
  Py_DECREF(items);
  return d;
}

/* Pickles as (type(self), (dict_of_entries,)). */
static PyObject *Map_reduce(PyObject *self, PyObject *unused) {
  PyObject *d = map_to_dict(self);
  (void)unused;
  if (d == NULL) return NULL;
  return Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), d);
}

/* ---- construction ------------------------------------------------------------------------ */

int tvmffi_py_map_from_mapping(tvmffi_py_state *st, int which, PyObject *mapping,
                               tvmffi_py_temps *outer, TVMFFIAny *out) {
  TVMFFIObjectHandle f = tvmffi_py_global(st, which);
  PyObject *flat, *pairs = NULL;
  Py_ssize_t n, i;
  int rc;
  if (f == NULL) return -1;
  if (mapping == NULL || mapping == Py_None) {
    flat = PyTuple_New(0);
  } else if (PyDict_CheckExact(mapping)) {
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    flat = PyTuple_New(2 * PyDict_Size(mapping));
    for (i = 0; flat != NULL && PyDict_Next(mapping, &pos, &k, &v); i += 2) {
      PyTuple_SetItem(flat, i, Py_NewRef(k));
      PyTuple_SetItem(flat, i + 1, Py_NewRef(v));
    }
  } else {
    PyObject *items = PyObject_CallMethod(mapping, "items", NULL);
    if (items == NULL) return -1;
    pairs = PySequence_Tuple(items);
    Py_DECREF(items);
    if (pairs == NULL) return -1;
    n = PyTuple_Size(pairs);
    flat = PyTuple_New(2 * n);
    for (i = 0; flat != NULL && i < n; ++i) {
      PyObject *kv = PySequence_Tuple(PyTuple_GetItem(pairs, i));
      if (kv == NULL || PyTuple_Size(kv) != 2) {
        if (kv != NULL) {
          PyErr_Format(PyExc_ValueError, "items() of %R gave %R, not a (key, value) pair",
                       mapping, kv);
        }
        Py_XDECREF(kv);
        Py_CLEAR(flat);
        break;
      }
      PyTuple_SetItem(flat, 2 * i, Py_NewRef(PyTuple_GetItem(kv, 0)));
      PyTuple_SetItem(flat, 2 * i + 1, Py_NewRef(PyTuple_GetItem(kv, 1)));
      Py_DECREF(kv);
    }
    Py_DECREF(pairs);
  }
  if (flat == NULL) return -1;
  rc = tvmffi_py_call_with_tuple(st, f, flat, outer, out);
  Py_DECREF(flat);
  return rc;
}

static int map_init(PyObject *self, PyObject *args, PyObject *kwds, int which, const char *fmt) {
  static char *kwlist[] = {"input_dict", NULL};
  PyObject *input = NULL;
  TVMFFIAny v;
  TVMFFIObjectHandle old;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &input)) return -1;
  if (tvmffi_py_map_from_mapping(((tvmffi_py_object *)self)->state, which, input, NULL, &v) != 0) {
    return -1;
  }
  old = ((tvmffi_py_object *)self)->handle;
  ((tvmffi_py_object *)self)->handle = v.v_obj;
  if (old != NULL) TVMFFIObjectDecRef(old);
  return 0;
}

static int MapBase_init(PyObject *self, PyObject *args, PyObject *kwds) {
  return map_init(self, args, kwds, TVMFFI_PY_G_MAP, "|O:Map");
}

static PyMethodDef Map_methods[] = {
    {"get", TVMFFI_PY_METH(Map_get), METH_FASTCALL,
     "get(key, default=None): the value of key, or default."},
    {"keys", Map_keys, METH_NOARGS, "A live view of the keys."},
    {"values", Map_values, METH_NOARGS, "A live view of the values."},
    {"items", Map_items, METH_NOARGS, "A live view of the (key, value) pairs."},
    {"__reduce__", Map_reduce, METH_NOARGS, "Pickle support: rebuilt from a dict."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot MapBase_slots[] = {
    {Py_tp_init, MapBase_init},
    {Py_mp_subscript, Map_subscript},
    {Py_mp_length, map_size},
    {Py_sq_length, map_size},
    {Py_sq_contains, Map_contains},
    {Py_tp_iter, Map_iter},
    {Py_tp_richcompare, Map_richcompare},
    {Py_tp_hash, Map_hash},
    {Py_tp_repr, tvmffi_py_object_repr}, /* {"a": 1} */
    {Py_tp_methods, Map_methods},
    {Py_tp_doc, "Base of tvm_ffi.Map: the mapping protocols of ffi.Map and ffi.Dict, in C."},
    {0, NULL}};

static PyType_Spec MapBase_spec = {
    .name = "tvm_ffi.core.MapBase",
    .basicsize = sizeof(tvmffi_py_container),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = MapBase_slots,
};

/* ---- core.DictBase: Dict's mutations -------------------------------------------------- */

/* The handle of a Dict wrapper; NULL with an error for anything else. */
static TVMFFIObject *dict_handle(PyObject *self) {
  int is_dict;
  TVMFFIObject *h = map_handle(self, &is_dict);
  if (h != NULL && !is_dict) {
    PyErr_SetString(PyExc_TypeError, "expected an ffi.Dict, got an ffi.Map (which is immutable)");
    return NULL;
  }
  return h;
}

static int call_discard(tvmffi_py_state *st, int which, PyObject *const *args, Py_ssize_t n) {
  TVMFFIObjectHandle f = tvmffi_py_global(st, which);
  TVMFFIAny result;
  if (f == NULL || tvmffi_py_call(st, f, args, n, 0, &result) != 0) return -1;
  if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
  return 0;
}

static int dict_set(PyObject *self, PyObject *key, PyObject *value) {
  PyObject *args[3];
  args[0] = self;
  args[1] = key;
  args[2] = value;
  return call_discard(((tvmffi_py_object *)self)->state, TVMFFI_PY_G_DICT_SET_ITEM, args, 3);
}

/* Removes key; KeyError(key) when it is missing. */
static int dict_erase(PyObject *self, PyObject *key) {
  PyObject *args[2];
  int found = Map_contains(self, key);
  if (found <= 0) {
    if (found == 0) key_error(key);
    return -1;
  }
  args[0] = self;
  args[1] = key;
  return call_discard(((tvmffi_py_object *)self)->state, TVMFFI_PY_G_DICT_ERASE, args, 2);
}

static int Dict_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  if (dict_handle(self) == NULL) return -1;
  return value == NULL ? dict_erase(self, key) : dict_set(self, key, value);
}

/* pop(key[, default]) */
static PyObject *Dict_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  PyObject *value;
  int found;
  if (tvmffi_py_check_nargs("pop", nargs, 1, 2) != 0) return NULL;
  if (dict_handle(self) == NULL) return NULL;
  found = map_lookup(self, args[0], &value);
  if (found < 0) return NULL;
  if (found == 0) {
    if (nargs == 2) return Py_NewRef(args[1]);
    key_error(args[0]);
    return NULL;
  }
  if (dict_erase(self, args[0]) != 0) {
    Py_DECREF(value);
    return NULL;
  }
  return value;
}

/* setdefault(key, default=None) */
static PyObject *Dict_setdefault(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  PyObject *value, *dflt;
  int found;
  if (tvmffi_py_check_nargs("setdefault", nargs, 1, 2) != 0) return NULL;
  if (dict_handle(self) == NULL) return NULL;
  found = map_lookup(self, args[0], &value);
  if (found != 0) return found > 0 ? value : NULL;
  dflt = nargs == 2 ? args[1] : Py_None;
  if (dict_set(self, args[0], dflt) != 0) return NULL;
  return Py_NewRef(dflt);
}

static PyObject *Dict_clear(PyObject *self, PyObject *unused) {
  PyObject *args[1];
  (void)unused;
  if (dict_handle(self) == NULL) return NULL;
  args[0] = self;
  if (call_discard(((tvmffi_py_object *)self)->state, TVMFFI_PY_G_DICT_CLEAR, args, 1) != 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* Sets every pair of `other`: a mapping (has keys()) or an iterable of pairs. */
static int dict_update_from(PyObject *self, PyObject *other) {
  PyObject *pairs, *it, *item;
  int rc = 0;
  if (PyDict_CheckExact(other)) {
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    PyObject *copy = PyDict_Copy(other); /* setting may run Python code */
    if (copy == NULL) return -1;
    while (rc == 0 && PyDict_Next(copy, &pos, &k, &v)) rc = dict_set(self, k, v);
    Py_DECREF(copy);
    return rc;
  }
  {
    PyObject *keys_name = PyUnicode_FromString("keys");
    int has_keys;
    if (keys_name == NULL) return -1;
    has_keys = PyObject_HasAttr(other, keys_name);
    Py_DECREF(keys_name);
    if (has_keys) {
      pairs = PyObject_CallMethod(other, "items", NULL);
    } else {
      pairs = Py_NewRef(other);
    }
  }
  if (pairs == NULL) return -1;
  it = PyObject_GetIter(pairs);
  Py_DECREF(pairs);
  if (it == NULL) return -1;
  while (rc == 0 && (item = PyIter_Next(it)) != NULL) {
    PyObject *kv = PySequence_Tuple(item);
    if (kv == NULL || PyTuple_Size(kv) != 2) {
      if (kv != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "dictionary update sequence element has length %zd; 2 is required",
                     PyTuple_Size(kv));
      } else if (PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Format(PyExc_TypeError, "cannot convert dictionary update sequence element %R",
                     item);
      }
      rc = -1;
    } else {
      rc = dict_set(self, PyTuple_GetItem(kv, 0), PyTuple_GetItem(kv, 1));
    }
    Py_XDECREF(kv);
    Py_DECREF(item);
  }
  Py_DECREF(it);
  if (rc == 0 && PyErr_Occurred()) rc = -1;
  return rc;
}

/* update([other], **kwargs), like dict.update. */
static PyObject *Dict_update(PyObject *self, PyObject *args, PyObject *kwds) {
  PyObject *other = NULL;
  if (!PyArg_UnpackTuple(args, "update", 0, 1, &other)) return NULL;
  if (dict_handle(self) == NULL) return NULL;
  if (other != NULL && dict_update_from(self, other) != 0) return NULL;
  if (kwds != NULL && dict_update_from(self, kwds) != 0) return NULL;
  Py_RETURN_NONE;
}

static int DictBase_init(PyObject *self, PyObject *args, PyObject *kwds) {
  return map_init(self, args, kwds, TVMFFI_PY_G_DICT, "|O:Dict");
}

static PyMethodDef Dict_methods[] = {
    {"pop", TVMFFI_PY_METH(Dict_pop), METH_FASTCALL,
     "pop(key[, default]): removes key and returns its value (KeyError without default)."},
    {"setdefault", TVMFFI_PY_METH(Dict_setdefault), METH_FASTCALL,
     "setdefault(key, default=None): the value of key, set to default first if missing."},
    {"clear", Dict_clear, METH_NOARGS, "Removes every entry."},
    {"update", TVMFFI_PY_METH(Dict_update), METH_VARARGS | METH_KEYWORDS,
     "update([other], **kwargs): sets the entries of a mapping or of (key, value) pairs."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot DictBase_slots[] = {
    {Py_tp_init, DictBase_init},
    {Py_mp_ass_subscript, Dict_ass_subscript},
    {Py_tp_methods, Dict_methods},
    {Py_tp_doc, "Base of tvm_ffi.Dict: a shared, mutable ffi.Dict."},
    {0, NULL}};

static PyType_Spec DictBase_spec = {
    .name = "tvm_ffi.core.DictBase",
    .basicsize = 0,
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = DictBase_slots,
};

/* ---- init ----------------------------------------------------------------------------- */

int tvmffi_py_init_map(PyObject *module, tvmffi_py_state *st) {
  if ((st->map_iter_type = tvmffi_py_add_type(module, &MapIter_spec, NULL)) == NULL ||
      (st->map_view_type = tvmffi_py_add_type(module, &MapView_spec, NULL)) == NULL ||
      (st->map_base_type = tvmffi_py_add_type(module, &MapBase_spec, st->object_type)) == NULL ||
      (st->dict_base_type = tvmffi_py_add_type(module, &DictBase_spec, st->map_base_type)) == NULL) {
    return -1;
  }
  return 0;
}

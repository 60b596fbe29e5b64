/* container.c: the sequences.  ffi.Array objects built here from Python
 * lists and tuples; core.SeqBase, the Python protocols of ffi.Array and
 * ffi.List as type slots reading their elements in place (the element layout
 * is part of the ABI: a TVMFFISeqCell at header + 24); core.ArrayBase and
 * core.ListBase, the bases of tvm_ffi.Array and tvm_ffi.List, with List's
 * mutations through the ffi.List* global functions. */
#include "pyshim.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * An ffi.Array in the layout of the ABI: the header, the TVMFFISeqCell at
 * header + 24, and the owning elements inline after the cell (data_deleter
 * NULL).  The layout is what readers rely on, not who allocated the object,
 * so like any producer library the extension may make one itself; its
 * deleter, stored in the header, releases it.  Compared with calling the
 * global ffi.Array this saves the array of views, the call and a second pass
 * over the elements that copies each view into an owned value.
 */
typedef struct {
  TVMFFIObject header;
  TVMFFISeqCell cell;
  TVMFFIAny items[];
} py_array;

_Static_assert(offsetof(py_array, cell) == 24, "the sequence cell is at header + 24");
_Static_assert(offsetof(py_array, items) == 56, "Array elements start at header + 56");

/* Called by the last reference, on any thread and with or without the GIL:
 * touches no Python object (elements that hold one take the GIL themselves). */
static void array_deleter(void *self, int flags) {
  py_array *a = (py_array *)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    int64_t i;
    for (i = a->cell.size; i > 0; --i) {
      if (a->items[i - 1].type_index >= kTVMFFIStaticObjectBegin) {
        TVMFFIObjectDecRef(a->items[i - 1].v_obj);
      }
    }
    a->cell.size = 0;
  }
  /* malloc, not PyMem: the last reference may be dropped without the GIL. */
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(a);
}

/* An empty array with room for n elements (strong and weak count 1). */
static py_array *array_alloc(Py_ssize_t n) {
  py_array *a;
  if ((size_t)n > (SIZE_MAX - sizeof(py_array)) / sizeof(TVMFFIAny)) {
    PyErr_NoMemory();
    return NULL;
  }
  a = (py_array *)malloc(sizeof(py_array) + sizeof(TVMFFIAny) * (size_t)n);
  if (a == NULL) {
    PyErr_NoMemory();
    return NULL;
  }
  a->header.combined_ref_count = ((uint64_t)1 << 32) | 1u;
  a->header.type_index = kTVMFFIArray;
  a->header.zero_padding = 0;
  TVM_FFI_OBJECT_DELETER(&a->header) = array_deleter;
  a->cell.data = a->items;
  a->cell.size = 0;
  a->cell.capacity = n;
  a->cell.data_deleter = NULL;
  return a;
}

/* Converts one element into an owned value: the view tvmffi_py_to_any makes, copied where it borrows (a str
 * becomes an ffi.String, an object gains a reference).  `hold`: the item is
 * borrowed from a list, which Python code run by the conversion could
 * change, so hold a reference meanwhile. */
static int item_to_owned(tvmffi_py_state *st, PyObject *item, int hold, tvmffi_py_temps *outer,
                         TVMFFIAny *out) {
  tvmffi_py_temps temps;
  TVMFFIAny view;
  int rc;
  tvmffi_py_temps_init_nested(&temps, outer);
  if (hold) Py_INCREF(item);
  rc = tvmffi_py_to_any(st, item, &view, &temps);
  if (hold) Py_DECREF(item);
  if (rc == 0) {
    if (view.type_index < kTVMFFIStaticObjectBegin && view.type_index != kTVMFFIRawStr &&
        view.type_index != kTVMFFIByteArrayPtr && view.type_index != kTVMFFIObjectRValueRef) {
      *out = view;
    } else {
      rc = TVMFFIAnyViewToOwnedAny(&view, out);
      if (rc != 0) {
        tvmffi_py_raise_from_ffi(st, rc);
        rc = -1;
      }
    }
  }
  tvmffi_py_temps_release(&temps);
  return rc;
}

/* Stores the run of exact ints that fit in int64 (the common case) from
 * items[first] on, stopping at the first other item; returns where it
 * stopped.  A loop of its own so that its few variables stay in registers
 * across the two calls per item.  It runs no Python code, so the list cannot
 * change meanwhile. */
static Py_ssize_t fill_int_run(PyObject *seq, int is_list, Py_ssize_t first, Py_ssize_t n,
                               TVMFFIAny *items) {
  Py_ssize_t i;
  for (i = first; i < n; ++i) {
    PyObject *item = is_list ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
    int overflow = 0;
    long long v;
    if (item == NULL) {
      PyErr_Clear(); /* the list shrank: the caller's own read raises */
      break;
    }
    if (Py_TYPE(item) != &PyLong_Type) break;
    v = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) break;
    items[i].type_index = kTVMFFIInt;
    items[i].zero_padding = 0;
    items[i].v_int64 = (int64_t)v;
  }
  return i;
}

int tvmffi_py_array_from_seq(tvmffi_py_state *st, PyObject *seq, tvmffi_py_temps *outer,
                             TVMFFIObjectHandle *out) {
  int is_list = PyList_CheckExact(seq);
  Py_ssize_t n = is_list ? PyList_Size(seq) : PyTuple_Size(seq), i = 0;
  py_array *a;
  if (n < 0) return -1;
  a = array_alloc(n);
  if (a == NULL) return -1;
  for (;;) {
    PyObject *item;
    TVMFFIAny *slot;
    i = fill_int_run(seq, is_list, i, n, a->items);
    a->cell.size = i;
    if (i == n) break;
    /* One item of another kind (or an int out of range, which raises). */
    item = is_list ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
    if (item == NULL) goto fail; /* the list shrank while converting (IndexError) */
    slot = &a->items[i];
    if (Py_TYPE(item) == &PyFloat_Type) {
      slot->type_index = kTVMFFIFloat;
      slot->zero_padding = 0;
      slot->v_float64 = PyFloat_AsDouble(item);
    } else if (item_to_owned(st, item, is_list, outer, slot) != 0) {
      goto fail;
    }
    a->cell.size = ++i;
  }
  *out = a;
  return 0;
fail:
  TVMFFIObjectDecRef(a); /* releases the elements made so far */
  return -1;
}

/* ---- reading Array and List ------------------------------------------------------ */

/* "Array" or "List", for messages. */
static const char *seq_name(const TVMFFIObject *h) {
  return h->type_index == kTVMFFIList ? "List" : "Array";
}

/* The cell of an Array or List wrapper; NULL with an error for anything else. */
static TVMFFISeqCell *seq_cell(PyObject *self) {
  TVMFFIObject *h = (TVMFFIObject *)((tvmffi_py_object *)self)->handle;
  if (h == NULL) {
    PyErr_SetString(PyExc_ValueError, "the container holds no FFI object (never initialised)");
    return NULL;
  }
  if (h->type_index != kTVMFFIArray && h->type_index != kTVMFFIList) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Array or ffi.List, got type index %d",
                 (int)h->type_index);
    return NULL;
  }
  return TVMFFISeqGetCellPtr(h);
}

/* The Python value of element i of container wrapper self (i must be in range). */
static PyObject *seq_item(PyObject *self, const TVMFFISeqCell *cell, int64_t i) {
  const TVMFFIAny *v = &((const TVMFFIAny *)cell->data)[i];
  switch (v->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(v->v_int64);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(v->v_float64);
    case kTVMFFIBool:
      return PyBool_FromLong(v->v_int64 != 0);
    default:
      return tvmffi_py_container_element_view(self, v);
  }
}

static PyObject *index_error(PyObject *self, PyObject *index, int64_t size) {
  const TVMFFIObject *h = (const TVMFFIObject *)((tvmffi_py_object *)self)->handle;
  PyErr_Format(PyExc_IndexError, "index %R out of range for %s of size %lld", index, seq_name(h),
               (long long)size);
  return NULL;
}

/* The position of an int-like index in a sequence of the given size, with
 * negative indices counted from the end: 0, or -1 with IndexError/TypeError. */
static int normalize_index(PyObject *self, PyObject *index, int64_t size, Py_ssize_t *out) {
  Py_ssize_t i;
  if (PyLong_CheckExact(index)) {
    i = PyLong_AsSsize_t(index);
  } else if (PyIndex_Check(index)) {
    i = PyNumber_AsSsize_t(index, PyExc_IndexError);
  } else {
    const TVMFFIObject *h = (const TVMFFIObject *)((tvmffi_py_object *)self)->handle;
    PyObject *name = PyType_GetName(Py_TYPE(index));
    if (name == NULL) return -1;
    PyErr_Format(PyExc_TypeError, "%s indices must be integers or slices, not %U", seq_name(h),
                 name);
    Py_DECREF(name);
    return -1;
  }
  if (i == -1 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError) &&
        !PyErr_ExceptionMatches(PyExc_IndexError)) {
      return -1;
    }
    PyErr_Clear();
    index_error(self, index, size);
    return -1;
  }
  if (i < 0) i += (Py_ssize_t)size;
  if (i < 0 || i >= size) {
    index_error(self, index, size);
    return -1;
  }
  *out = i;
  return 0;
}

/* A plain list of the elements self[start:stop:step]. */
static PyObject *seq_slice(PyObject *self, PyObject *slice) {
  Py_ssize_t start, stop, step, n, k;
  TVMFFISeqCell *cell;
  PyObject *out;
  if (PySlice_Unpack(slice, &start, &stop, &step) != 0) return NULL;
  cell = seq_cell(self); /* after Unpack: __index__ may have changed a List */
  if (cell == NULL) return NULL;
  n = PySlice_AdjustIndices((Py_ssize_t)cell->size, &start, &stop, step);
  out = PyList_New(n);
  if (out == NULL) return NULL;
  for (k = 0; k < n; ++k, start += step) {
    PyObject *v;
    if (start >= cell->size) { /* a List shrank meanwhile */
      Py_DECREF(out);
      return index_error(self, slice, cell->size);
    }
    v = seq_item(self, cell, start);
    if (v == NULL) {
      Py_DECREF(out);
      return NULL;
    }
    PyList_SetItem(out, k, v);
  }
  return out;
}

static PyObject *Seq_subscript(PyObject *self, PyObject *key) {
  TVMFFISeqCell *cell;
  Py_ssize_t i;
  if (PySlice_Check(key)) return seq_slice(self, key);
  cell = seq_cell(self);
  if (cell == NULL) return NULL;
  if (PyLong_CheckExact(key)) { /* the common case, inline */
    int overflow;
    long long j = PyLong_AsLongLongAndOverflow(key, &overflow);
    if (overflow == 0 && !(j == -1 && PyErr_Occurred())) {
      if (j < 0) j += cell->size;
      if (j >= 0 && j < cell->size) return seq_item(self, cell, j);
      return index_error(self, key, cell->size);
    }
    PyErr_Clear();
  }
  if (normalize_index(self, key, cell->size, &i) != 0) return NULL;
  cell = seq_cell(self); /* __index__ may have run Python code */
  if (cell == NULL) return NULL;
  if (i >= cell->size) return index_error(self, key, cell->size);
  return seq_item(self, cell, i);
}

/* sq_item: i is already made non-negative by the caller (PySequence_GetItem). */
static PyObject *Seq_item_at(PyObject *self, Py_ssize_t i) {
  TVMFFISeqCell *cell = seq_cell(self);
  if (cell == NULL) return NULL;
  if (i < 0 || i >= cell->size) {
    PyObject *index = PyLong_FromSsize_t(i);
    if (index != NULL) {
      index_error(self, index, cell->size);
      Py_DECREF(index);
    }
    return NULL;
  }
  return seq_item(self, cell, i);
}

static Py_ssize_t Seq_length(PyObject *self) {
  TVMFFISeqCell *cell = seq_cell(self);
  return cell == NULL ? -1 : (Py_ssize_t)cell->size;
}

/* Whether element v equals the Python value `value`: 1, 0, or -1 on error. */
static int item_equals(tvmffi_py_state *st, const TVMFFIAny *v, PyObject *value) {
  PyObject *item;
  int eq;
  if (PyLong_CheckExact(value) && (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool)) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0) return 0;
    return x == v->v_int64;
  }
  if (PyUnicode_CheckExact(value) && v->type_index == kTVMFFISmallStr) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(value, &n);
    if (s == NULL) {
      PyErr_Clear(); /* unencodable (lone surrogates): equal to no FFI string */
      return 0;
    }
    return (size_t)n == v->small_str_len && memcmp(s, v->v_bytes, (size_t)n) == 0;
  }
  item = tvmffi_py_from_view(st, v);
  if (item == NULL) return -1;
  eq = PyObject_RichCompareBool(item, value, Py_EQ);
  Py_DECREF(item);
  return eq;
}

static int Seq_contains(PyObject *self, PyObject *value) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  int64_t i;
  for (i = 0;; ++i) {
    TVMFFISeqCell *cell = seq_cell(self); /* re-read: __eq__ may change a List */
    TVMFFIAny v;
    int eq;
    if (cell == NULL) return -1;
    if (i >= cell->size) return 0;
    v = ((const TVMFFIAny *)cell->data)[i];
    if (v.type_index >= kTVMFFIStaticObjectBegin) {
      TVMFFIObjectIncRef(v.v_obj); /* held while compared */
      eq = item_equals(st, &v, value);
      TVMFFIObjectDecRef(v.v_obj);
    } else {
      eq = item_equals(st, &v, value);
    }
    if (eq != 0) return eq;
  }
}

/* A plain list of all elements. */
static PyObject *seq_to_list(PyObject *self) {
  PyObject *all = PySlice_New(NULL, NULL, NULL), *res;
  if (all == NULL) return NULL;
  res = seq_slice(self, all);
  Py_DECREF(all);
  return res;
}

/* ---- core.SeqIterator -------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  PyObject *seq; /* the Array or List wrapper; NULL once exhausted */
  int64_t next;
} seq_iter;

static PyObject *SeqIter_next(PyObject *self) {
  seq_iter *it = (seq_iter *)self;
  TVMFFISeqCell *cell;
  if (it->seq == NULL) return NULL;
  cell = seq_cell(it->seq);
  if (cell == NULL) return NULL;
  if (it->next < cell->size) {
    return seq_item(it->seq, cell, it->next++);
  }
  Py_CLEAR(it->seq);
  return NULL;
}

static PyObject *SeqIter_length_hint(PyObject *self, PyObject *unused) {
  seq_iter *it = (seq_iter *)self;
  TVMFFISeqCell *cell;
  (void)unused;
  if (it->seq == NULL) return PyLong_FromLong(0);
  cell = seq_cell(it->seq);
  if (cell == NULL) return NULL;
  return PyLong_FromLongLong(cell->size > it->next ? cell->size - it->next : 0);
}

static void SeqIter_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  Py_XDECREF(((seq_iter *)self)->seq);
  ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
  Py_DECREF(tp);
}

static PyMethodDef SeqIter_methods[] = {
    {"__length_hint__", SeqIter_length_hint, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};

static PyType_Slot SeqIter_slots[] = {
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, SeqIter_next},
    {Py_tp_dealloc, SeqIter_dealloc},
    {Py_tp_methods, SeqIter_methods},
    {Py_tp_doc, "Iterator over an ffi.Array or ffi.List (reads each element when reached)."},
    {0, NULL}};

static PyType_Spec SeqIter_spec = {
    .name = "tvm_ffi.core.SeqIterator",
    .basicsize = sizeof(seq_iter),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = SeqIter_slots,
};

static PyObject *Seq_iter(PyObject *self) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  seq_iter *it;
  if (seq_cell(self) == NULL) return NULL;
  it = (seq_iter *)((allocfunc)PyType_GetSlot(st->seq_iter_type, Py_tp_alloc))(st->seq_iter_type,
                                                                              0);
  if (it == NULL) return NULL;
  it->seq = Py_NewRef(self);
  it->next = 0;
  return (PyObject *)it;
}

/* ---- comparison, hash, repr, pickle ----------------------------------------------------- */

/* Whether `other` compares with a sequence: list, tuple, an Array or List, or
 * any collections.abc.Sequence except str, bytes and bytearray. */
static int is_comparable_sequence(tvmffi_py_state *st, PyObject *other) {
  TVMFFIObject *h;
  if (PyList_Check(other) || PyTuple_Check(other)) return 1;
  if (PyUnicode_Check(other) || PyBytes_Check(other) || PyByteArray_Check(other)) return 0;
  h = tvmffi_py_handle_if_object(st, other);
  if (h != NULL) return h->type_index == kTVMFFIArray || h->type_index == kTVMFFIList;
  if (st->abc_sequence == NULL) {
    PyObject *abc = PyImport_ImportModule("collections.abc");
    if (abc == NULL) return -1;
    st->abc_sequence = PyObject_GetAttrString(abc, "Sequence");
    Py_DECREF(abc);
    if (st->abc_sequence == NULL) return -1;
  }
  return PyObject_IsInstance(other, st->abc_sequence);
}

/* Whether two elements are equal without Python: 1 or 0, or -2 when only
 * Python can tell (objects, or values of different kinds). */
static int pod_equal(const TVMFFIAny *x, const TVMFFIAny *y) {
  if (x->type_index != y->type_index) return -2;
  switch (x->type_index) {
    case kTVMFFINone:
      return 1;
    case kTVMFFIInt:
    case kTVMFFIBool:
      return x->v_int64 == y->v_int64;
    case kTVMFFIFloat:
      return x->v_float64 == y->v_float64;
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      return x->small_str_len == y->small_str_len &&
             memcmp(x->v_bytes, y->v_bytes, x->small_str_len) == 0;
    default:
      return x->type_index >= kTVMFFIStaticObjectBegin && x->v_obj == y->v_obj ? 1 : -2;
  }
}

/* Whether two elements are equal: in C when pod_equal can tell, else in
 * Python.  1, 0, or -1 on error. */
static int views_equal(tvmffi_py_state *st, const TVMFFIAny *x, const TVMFFIAny *y) {
  PyObject *b;
  int eq = pod_equal(x, y);
  if (eq != -2) return eq;
  b = tvmffi_py_from_view(st, y);
  if (b == NULL) return -1;
  eq = item_equals(st, x, b);
  Py_DECREF(b);
  return eq;
}

/* Element i of self against element i of other (an Array/List wrapper, a
 * list or tuple, or any sequence): 1, 0, or -1 on error.  Elements are read
 * again for each i: Python __eq__ may change a List meanwhile. */
static int element_equals(tvmffi_py_state *st, PyObject *self, PyObject *other, int other_is_seq,
                          Py_ssize_t i) {
  TVMFFISeqCell *cell = seq_cell(self);
  TVMFFIAny v;
  int eq;
  if (cell == NULL) return -1;
  if (i >= cell->size) return 0; /* a List shrank */
  v = ((const TVMFFIAny *)cell->data)[i];
  if (v.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(v.v_obj);
  if (other_is_seq) {
    TVMFFISeqCell *ocell = seq_cell(other);
    if (ocell == NULL) {
      eq = -1;
    } else if (i >= ocell->size) {
      eq = 0;
    } else {
      TVMFFIAny w = ((const TVMFFIAny *)ocell->data)[i];
      if (w.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(w.v_obj);
      eq = views_equal(st, &v, &w);
      if (w.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(w.v_obj);
    }
  } else {
    PyObject *b;
    if (PyList_CheckExact(other) || PyTuple_CheckExact(other)) {
      b = PyList_CheckExact(other) ? PyList_GetItem(other, i) : PyTuple_GetItem(other, i);
      Py_XINCREF(b);
    } else {
      b = PySequence_GetItem(other, i);
    }
    if (b == NULL) {
      if (PyErr_ExceptionMatches(PyExc_IndexError)) { /* the list shrank */
        PyErr_Clear();
        eq = 0;
      } else {
        eq = -1;
      }
    } else {
      eq = item_equals(st, &v, b);
      Py_DECREF(b);
    }
  }
  if (v.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v.v_obj);
  return eq;
}

static PyObject *Seq_richcompare(PyObject *self, PyObject *other, int op) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  TVMFFIObject *oh;
  Py_ssize_t n, i;
  int ok, other_is_seq;
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  ok = is_comparable_sequence(st, other);
  if (ok < 0) return NULL;
  if (!ok) Py_RETURN_NOTIMPLEMENTED;
  oh = tvmffi_py_handle_if_object(st, other);
  if (oh == ((tvmffi_py_object *)self)->handle) return PyBool_FromLong(op == Py_EQ);
  other_is_seq = oh != NULL;
  n = Seq_length(self);
  if (n < 0) return NULL;
  i = PyObject_Size(other);
  if (i < 0) return NULL;
  if (i != n) return PyBool_FromLong(op == Py_NE);
  for (i = 0; i < n; ++i) {
    int eq = -2;
    if (other_is_seq) {
      /* Runs of plain values compare here, with no Python code running
       * (so neither cell can change under the loop). */
      const TVMFFISeqCell *c1 = seq_cell(self), *c2 = seq_cell(other);
      if (c1 == NULL || c2 == NULL) return NULL;
      while (i < n && i < c1->size && i < c2->size) {
        eq = pod_equal(&((const TVMFFIAny *)c1->data)[i], &((const TVMFFIAny *)c2->data)[i]);
        if (eq != 1) break;
        ++i;
      }
      if (i == n) break;
      if (i >= c1->size || i >= c2->size) eq = 0; /* a List shrank meanwhile */
    }
    if (eq == -2) eq = element_equals(st, self, other, other_is_seq, i);
    if (eq < 0) return NULL;
    if (!eq) return PyBool_FromLong(op == Py_NE);
  }
  return PyBool_FromLong(op == Py_EQ);
}

/* Equal sequences hash alike, and like the tuple of their elements. */
static Py_hash_t Seq_hash(PyObject *self) {
  PyObject *items, *tuple;
  Py_hash_t h;
  /* A List may hold itself (through the FFI: a new wrapper each time), and
   * PyObject_Hash has no recursion guard of its own. */
  if (Py_EnterRecursiveCall(" while hashing an FFI sequence") != 0) return -1;
  items = seq_to_list(self);
  tuple = items == NULL ? NULL : PyList_AsTuple(items);
  Py_XDECREF(items);
  h = tuple == NULL ? -1 : PyObject_Hash(tuple);
  Py_XDECREF(tuple);
  Py_LeaveRecursiveCall();
  return h;
}

/* Pickles as (type(self), (list_of_elements,)): a round trip for elements
 * that pickle themselves (plain values and containers of them). */
static PyObject *Seq_reduce(PyObject *self, PyObject *unused) {
  PyObject *items = seq_to_list(self), *res;
  (void)unused;
  if (items == NULL) return NULL;
  res = Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), items);
  return res;
}

static PyMethodDef Seq_methods[] = {
    {"__reduce__", Seq_reduce, METH_NOARGS, "Pickle support: rebuilt from a list."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot SeqBase_slots[] = {
    {Py_mp_subscript, Seq_subscript},
    {Py_mp_length, Seq_length},
    {Py_sq_length, Seq_length},
    {Py_sq_item, Seq_item_at},
    {Py_sq_contains, Seq_contains},
    {Py_tp_iter, Seq_iter},
    {Py_tp_richcompare, Seq_richcompare},
    {Py_tp_hash, Seq_hash},
    {Py_tp_repr, tvmffi_py_object_repr}, /* (1, "x") or [1, "x"] */
    {Py_tp_methods, Seq_methods},
    {Py_tp_doc, "Python sequence protocols of ffi.Array and ffi.List, in C."},
    {0, NULL}};

static PyType_Spec SeqBase_spec = {
    .name = "tvm_ffi.core.SeqBase",
    .basicsize = sizeof(tvmffi_py_container),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = SeqBase_slots,
};

/* ---- core.ArrayBase ---------------------------------------------------------------- */

/* The single optional argument of a container constructor (NULL if none). */
static int parse_one_optional(PyObject *args, PyObject *kwds, const char *fmt, char *kwname,
                              PyObject **out) {
  char *kwlist[2];
  kwlist[0] = kwname;
  kwlist[1] = NULL;
  *out = NULL;
  if (kwds == NULL && PyTuple_Size(args) == 1) {
    *out = PyTuple_GetItem(args, 0); /* the common call: no argument parsing */
    return 0;
  }
  return PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, out) ? 0 : -1;
}

/* An exact list or tuple of the items of any iterable (new reference). */
static PyObject *as_list_or_tuple(PyObject *input) {
  if (input == NULL) return PyTuple_New(0);
  if (PyList_CheckExact(input) || PyTuple_CheckExact(input)) return Py_NewRef(input);
  return PySequence_Tuple(input);
}

static void install_handle(PyObject *self, TVMFFIObjectHandle h) {
  TVMFFIObjectHandle old = ((tvmffi_py_object *)self)->handle;
  ((tvmffi_py_object *)self)->handle = h;
  if (old != NULL) TVMFFIObjectDecRef(old);
}

/* ArrayBase(input_list=()): a new ffi.Array of the items of any iterable. */
static int ArrayBase_init(PyObject *self, PyObject *args, PyObject *kwds) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  PyObject *input, *seq;
  TVMFFIObjectHandle h;
  int rc;
  if (parse_one_optional(args, kwds, "|O:Array", "input_list", &input) != 0) return -1;
  seq = as_list_or_tuple(input);
  if (seq == NULL) return -1;
  rc = tvmffi_py_array_from_seq(st, seq, NULL, &h);
  Py_DECREF(seq);
  if (rc != 0) return -1;
  install_handle(self, h);
  return 0;
}

static PyType_Slot ArrayBase_slots[] = {
    {Py_tp_init, ArrayBase_init},
    {Py_tp_doc, "Base of tvm_ffi.Array: builds the ffi.Array in C."},
    {0, NULL}};

static PyType_Spec ArrayBase_spec = {
    .name = "tvm_ffi.core.ArrayBase",
    .basicsize = 0,
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = ArrayBase_slots,
};

/* ---- core.ListBase: List's mutations ------------------------------------------------- */

/* Calls global `which` with args; the result is dropped. */
static int call_discard(tvmffi_py_state *st, int which, PyObject *const *args, Py_ssize_t n) {
  TVMFFIObjectHandle f = tvmffi_py_global(st, which);
  TVMFFIAny result;
  if (f == NULL || tvmffi_py_call(st, f, args, n, 0, &result) != 0) return -1;
  if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
  return 0;
}

/* Calls global `which` with (self, i[, value]) and drops the result. */
static int call_at(tvmffi_py_state *st, int which, PyObject *self, Py_ssize_t i,
                   PyObject *value) {
  PyObject *args[3];
  int rc;
  args[0] = self;
  args[1] = PyLong_FromSsize_t(i);
  args[2] = value;
  if (args[1] == NULL) return -1;
  rc = call_discard(st, which, args, value == NULL ? 2 : 3);
  Py_DECREF(args[1]);
  return rc;
}

static int ListBase_init(PyObject *self, PyObject *args, PyObject *kwds) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  PyObject *input, *seq;
  TVMFFIObjectHandle f = tvmffi_py_global(st, TVMFFI_PY_G_LIST);
  TVMFFIAny result;
  int rc;
  if (f == NULL) return -1;
  if (parse_one_optional(args, kwds, "|O:List", "input_list", &input) != 0) return -1;
  seq = as_list_or_tuple(input);
  if (seq == NULL) return -1;
  rc = tvmffi_py_call_with_tuple(st, f, seq, NULL, &result);
  Py_DECREF(seq);
  if (rc != 0) return -1;
  install_handle(self, result.v_obj);
  return 0;
}

/* A List wrapper's size; -1 with an error if it is none. */
static int64_t list_size(PyObject *self) {
  TVMFFISeqCell *cell = seq_cell(self);
  if (cell == NULL) return -1;
  if (((TVMFFIObject *)((tvmffi_py_object *)self)->handle)->type_index != kTVMFFIList) {
    PyErr_SetString(PyExc_TypeError, "expected an ffi.List");
    return -1;
  }
  return cell->size;
}

/* lst[slice] = values: plain slices may change the length; extended ones
 * need as many values as positions. */
static int list_assign_slice(PyObject *self, PyObject *slice, PyObject *value) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  Py_ssize_t start, stop, step, n, k;
  PyObject *values;
  int64_t size;
  int rc = 0;
  if (PySlice_Unpack(slice, &start, &stop, &step) != 0) return -1;
  /* A copy first: `lst[a:b] = lst` must read lst before changing it. */
  values = PySequence_List(value);
  if (values == NULL) return -1;
  size = list_size(self);
  if (size < 0) goto fail;
  n = PySlice_AdjustIndices((Py_ssize_t)size, &start, &stop, step);
  if (step == 1) {
    PyObject *args[4];
    args[0] = self;
    args[1] = PyLong_FromSsize_t(start);
    args[2] = PyLong_FromSsize_t(stop < start ? start : stop);
    args[3] = values;
    rc = (args[1] == NULL || args[2] == NULL)
             ? -1
             : call_discard(st, TVMFFI_PY_G_LIST_REPLACE_SLICE, args, 4);
    Py_XDECREF(args[1]);
    Py_XDECREF(args[2]);
    Py_DECREF(values);
    return rc;
  }
  if (PyList_Size(values) != n) {
    PyErr_Format(PyExc_ValueError,
                 "attempt to assign sequence of size %zd to extended slice of size %zd",
                 PyList_Size(values), n);
    goto fail;
  }
  for (k = 0; k < n && rc == 0; ++k, start += step) {
    rc = call_at(st, TVMFFI_PY_G_LIST_SET_ITEM, self, start, PyList_GetItem(values, k));
  }
  Py_DECREF(values);
  return rc;
fail:
  Py_DECREF(values);
  return -1;
}

static int list_delete_slice(PyObject *self, PyObject *slice) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  Py_ssize_t start, stop, step, n;
  int64_t size;
  if (PySlice_Unpack(slice, &start, &stop, &step) != 0) return -1;
  size = list_size(self);
  if (size < 0) return -1;
  n = PySlice_AdjustIndices((Py_ssize_t)size, &start, &stop, step);
  if (n == 0) return 0;
  if (step == 1) {
    PyObject *args[3];
    int rc;
    args[0] = self;
    args[1] = PyLong_FromSsize_t(start);
    args[2] = PyLong_FromSsize_t(stop);
    rc = (args[1] == NULL || args[2] == NULL)
             ? -1
             : call_discard(st, TVMFFI_PY_G_LIST_ERASE_RANGE, args, 3);
    Py_XDECREF(args[1]);
    Py_XDECREF(args[2]);
    return rc;
  }
  /* From the highest position down, so that earlier ones do not move. */
  if (step > 0) {
    start += (n - 1) * step;
    step = -step;
  }
  for (; n > 0; --n, start += step) {
    if (call_at(st, TVMFFI_PY_G_LIST_ERASE, self, start, NULL) != 0) return -1;
  }
  return 0;
}

/* lst[key] = value, or del lst[key] when value is NULL. */
static int List_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  int64_t size;
  Py_ssize_t i;
  if (PySlice_Check(key)) {
    return value == NULL ? list_delete_slice(self, key) : list_assign_slice(self, key, value);
  }
  size = list_size(self);
  if (size < 0) return -1;
  if (normalize_index(self, key, size, &i) != 0) return -1;
  return call_at(((tvmffi_py_object *)self)->state,
                 value == NULL ? TVMFFI_PY_G_LIST_ERASE : TVMFFI_PY_G_LIST_SET_ITEM, self, i,
                 value);
}

static PyObject *List_append(PyObject *self, PyObject *value) {
  PyObject *args[2];
  args[0] = self;
  args[1] = value;
  if (list_size(self) < 0) return NULL;
  if (call_discard(((tvmffi_py_object *)self)->state, TVMFFI_PY_G_LIST_APPEND, args, 2) != 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject *List_extend(PyObject *self, PyObject *iterable) {
  PyObject *items = PySequence_List(iterable); /* a copy: lst.extend(lst) doubles once */
  Py_ssize_t k, n;
  if (items == NULL) return NULL;
  n = PyList_Size(items);
  for (k = 0; k < n; ++k) {
    PyObject *r = List_append(self, PyList_GetItem(items, k));
    if (r == NULL) {
      Py_DECREF(items);
      return NULL;
    }
    Py_DECREF(r);
  }
  Py_DECREF(items);
  Py_RETURN_NONE;
}

/* insert(index, value): like list.insert, the index is clamped to [0, len]. */
static PyObject *List_insert(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  Py_ssize_t i;
  int64_t size;
  if (tvmffi_py_check_nargs("insert", nargs, 2, 2) != 0) return NULL;
  i = PyNumber_AsSsize_t(args[0], NULL); /* TypeError for a float, as for list */
  if (i == -1 && PyErr_Occurred()) return NULL;
  size = list_size(self);
  if (size < 0) return NULL;
  if (i < 0) i += (Py_ssize_t)size;
  if (i < 0) i = 0;
  if (i > size) i = (Py_ssize_t)size;
  if (call_at(((tvmffi_py_object *)self)->state, TVMFFI_PY_G_LIST_INSERT, self, i, args[1]) !=
      0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

/* pop(index=-1): removes and returns lst[index]. */
static PyObject *List_pop(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = ((tvmffi_py_object *)self)->state;
  PyObject *fargs[2];
  TVMFFIObjectHandle f;
  TVMFFIAny result;
  Py_ssize_t i = -1;
  int64_t size;
  int rc;
  if (tvmffi_py_check_nargs("pop", nargs, 0, 1) != 0) return NULL;
  if (nargs == 1) {
    i = PyNumber_AsSsize_t(args[0], PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
  }
  size = list_size(self);
  if (size < 0) return NULL;
  if (size == 0) {
    PyErr_SetString(PyExc_IndexError, "pop from empty List");
    return NULL;
  }
  if (i < 0) i += (Py_ssize_t)size;
  if (i < 0 || i >= size) {
    PyErr_SetString(PyExc_IndexError, "pop index out of range");
    return NULL;
  }
  fargs[0] = self;
  fargs[1] = PyLong_FromSsize_t(i);
  if (fargs[1] == NULL) return NULL;
  f = tvmffi_py_global(st, TVMFFI_PY_G_LIST_POP);
  rc = f == NULL ? -1 : tvmffi_py_call(st, f, fargs, 2, 0, &result);
  Py_DECREF(fargs[1]);
  if (rc != 0) return NULL;
  return tvmffi_py_result_from_any(st, &result);
}

static PyObject *List_simple(PyObject *self, int which) {
  PyObject *args[1];
  args[0] = self;
  if (list_size(self) < 0) return NULL;
  if (call_discard(((tvmffi_py_object *)self)->state, which, args, 1) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *List_clear(PyObject *self, PyObject *unused) {
  (void)unused;
  return List_simple(self, TVMFFI_PY_G_LIST_CLEAR);
}

static PyObject *List_reverse(PyObject *self, PyObject *unused) {
  (void)unused;
  return List_simple(self, TVMFFI_PY_G_LIST_REVERSE);
}

static PyObject *List_iadd(PyObject *self, PyObject *other) {
  PyObject *r = List_extend(self, other);
  if (r == NULL) return NULL;
  Py_DECREF(r);
  return Py_NewRef(self);
}

static PyMethodDef List_methods[] = {
    {"append", List_append, METH_O, "Appends a value."},
    {"extend", List_extend, METH_O, "Appends every item of an iterable."},
    {"insert", TVMFFI_PY_METH(List_insert), METH_FASTCALL,
     "insert(index, value): inserts before index (clamped to the list, like list.insert)."},
    {"pop", TVMFFI_PY_METH(List_pop), METH_FASTCALL,
     "pop(index=-1): removes and returns the value at index."},
    {"clear", List_clear, METH_NOARGS, "Removes every value."},
    {"reverse", List_reverse, METH_NOARGS, "Reverses the list in place."},
    {NULL, NULL, 0, NULL}};

static PyType_Slot ListBase_slots[] = {
    {Py_tp_init, ListBase_init},
    {Py_mp_ass_subscript, List_ass_subscript},
    {Py_nb_inplace_add, List_iadd},
    {Py_tp_methods, List_methods},
    {Py_tp_doc, "Base of tvm_ffi.List: a shared, mutable ffi.List."},
    {0, NULL}};

static PyType_Spec ListBase_spec = {
    .name = "tvm_ffi.core.ListBase",
    .basicsize = 0,
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = ListBase_slots,
};

/* ---- init ----------------------------------------------------------------------------- */

/* ---- module functions of this file -------------------------------------------- */

static TVMFFISeqCell *seq_cell_of(tvmffi_py_state *st, PyObject *obj) {
  TVMFFIObjectHandle h = tvmffi_py_handle_of(st, obj);
  int32_t ti;
  if (h == NULL) return NULL;
  ti = TVMFFIObjectGetTypeIndex(h);
  if (ti != kTVMFFIArray && ti != kTVMFFIList) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Array or ffi.List, got %R", obj);
    return NULL;
  }
  return TVMFFISeqGetCellPtr(h);
}

/* _seq_size(obj) -> int */
static PyObject *mod_seq_size(PyObject *module, PyObject *obj) {
  TVMFFISeqCell *cell = seq_cell_of(tvmffi_py_module_state(module), obj);
  if (cell == NULL) return NULL;
  return PyLong_FromLongLong(cell->size);
}

/* _seq_getitem(obj, i): negative i counts from the end. */
static PyObject *mod_seq_getitem(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFISeqCell *cell;
  long long i;
  TVMFFIAny v;
  if (tvmffi_py_check_nargs("_seq_getitem", nargs, 2, 2) != 0) return NULL;
  cell = seq_cell_of(st, args[0]);
  if (cell == NULL) return NULL;
  i = PyLong_AsLongLong(args[1]);
  if (i == -1 && PyErr_Occurred()) return NULL;
  if (i < 0) i += cell->size;
  if (i < 0 || i >= cell->size) {
    PyErr_Format(PyExc_IndexError, "index %R out of range for %s of size %lld", args[1],
                 TVMFFIObjectGetTypeIndex(((tvmffi_py_object *)args[0])->handle) == kTVMFFIList
                     ? "List"
                     : "Array",
                 (long long)cell->size);
    return NULL;
  }
  v = ((const TVMFFIAny *)cell->data)[i];
  return TVMFFI_PY_IS_CONTAINER(st, args[0]) ? tvmffi_py_container_element_view(args[0], &v)
                                              : tvmffi_py_from_view(st, &v);
}

static PyMethodDef container_functions[] = {
    {"_seq_size", mod_seq_size, METH_O, NULL},
    {"_seq_getitem", TVMFFI_PY_METH(mod_seq_getitem), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_container(PyObject *module, tvmffi_py_state *st) {
  PyTypeObject *seq_base;
  st->seq_iter_type = tvmffi_py_add_type(module, &SeqIter_spec, NULL);
  if (st->seq_iter_type == NULL) return -1;
  seq_base = tvmffi_py_add_type(module, &SeqBase_spec, st->object_type);
  if (seq_base == NULL) return -1;
  st->array_base_type = tvmffi_py_add_type(module, &ArrayBase_spec, seq_base);
  st->list_base_type =
      st->array_base_type == NULL ? NULL : tvmffi_py_add_type(module, &ListBase_spec, seq_base);
  Py_DECREF(seq_base); /* the module and its subtypes keep it */
  if (PyModule_AddFunctions(module, container_functions) != 0) return -1;
  return st->list_base_type == NULL ? -1 : 0;
}

/* container.c: ffi.Array objects built here from Python lists and tuples,
 * and core.ArrayBase, whose __init__ does that without a Python frame. */
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
static int item_to_owned(tvmffi_py_state *st, PyObject *item, int hold, TVMFFIAny *out) {
  tvmffi_py_temps temps;
  TVMFFIAny view;
  int rc;
  tvmffi_py_temps_init(&temps);
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

int tvmffi_py_array_from_seq(tvmffi_py_state *st, PyObject *seq, TVMFFIObjectHandle *out) {
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
    } else if (item_to_owned(st, item, is_list, slot) != 0) {
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

/* ---- core.ArrayBase -------------------------------------------------------- */

static int ArrayBase_init(PyObject *self, PyObject *args, PyObject *kwds);

/* The module state, from the type of an instance: tp_init slots get no
 * defining class, and Python subclasses (tvm_ffi.Array) have no module of
 * their own, so walk the base chain up to core.ArrayBase: the last type on it
 * whose __init__ is still ArrayBase_init. */
static tvmffi_py_state *state_of_instance(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  for (;;) {
    PyTypeObject *base = (PyTypeObject *)PyType_GetSlot(tp, Py_tp_base);
    if (base == NULL || PyType_GetSlot(base, Py_tp_init) != (void *)ArrayBase_init) break;
    tp = base;
  }
  return PyType_GetModuleState(tp);
}

/* ArrayBase(input_list=()): a new ffi.Array of the items of any iterable. */
static int ArrayBase_init(PyObject *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"input_list", NULL};
  tvmffi_py_state *st = state_of_instance(self);
  PyObject *input = NULL, *seq;
  TVMFFIObjectHandle h, old;
  int rc;
  if (st == NULL) return -1;
  if (kwds == NULL && PyTuple_Size(args) == 1) {
    input = PyTuple_GetItem(args, 0); /* the common call: no argument parsing */
  } else if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Array", kwlist, &input)) {
    return -1;
  }
  if (input == NULL) {
    seq = PyTuple_New(0);
  } else if (PyList_CheckExact(input) || PyTuple_CheckExact(input)) {
    seq = Py_NewRef(input);
  } else {
    seq = PySequence_Tuple(input);
  }
  if (seq == NULL) return -1;
  rc = tvmffi_py_array_from_seq(st, seq, &h);
  Py_DECREF(seq);
  if (rc != 0) return -1;
  old = ((tvmffi_py_object *)self)->handle;
  ((tvmffi_py_object *)self)->handle = h;
  if (old != NULL) TVMFFIObjectDecRef(old);
  return 0;
}

static PyType_Slot ArrayBase_slots[] = {
    {Py_tp_init, ArrayBase_init},
    {Py_tp_doc, "Base of tvm_ffi.Array: builds the ffi.Array in C."},
    {0, NULL}};

static PyType_Spec ArrayBase_spec = {
    .name = "tvm_ffi.core.ArrayBase",
    .basicsize = 0, /* the layout of core.Object */
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = ArrayBase_slots,
};

int tvmffi_py_init_container(PyObject *module, tvmffi_py_state *st) {
  st->array_base_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &ArrayBase_spec,
                                                                 (PyObject *)st->object_type);
  if (st->array_base_type == NULL) return -1;
  return PyModule_AddType(module, st->array_base_type);
}

/* dlpack.c: DLPack producers as ffi.Tensor: capsules ("dltensor_versioned"
 * or legacy "dltensor"), objects with __dlpack__ (a versioned capsule asked
 * for first), types with a DLPack C exchange API (exchange.c), and which
 * Python types are tensors at all (cached per type). */
#include "pyshim.h"

#include <string.h>

/* Bits of the per-type classification cached in the module state. */
#define KIND_DLPACK 1     /* the type defines __dlpack__                      */
#define KIND_FFI_OBJECT 2 /* ... and __tvm_ffi_object__, which wins for args  */
#define KIND_NUMPY 4      /* exactly numpy.ndarray: the paths without capsule */
#define KIND_EXCHANGE 8   /* the type publishes a DLPack C exchange API       */

/* ---- DLPack capsules ------------------------------------------------------------ */

/* Consumes a "dltensor_versioned" or "dltensor" capsule into a new tensor and
 * renames it "used_...".  On failure the capsule is left as it was, so that
 * its destructor still frees the tensor. */
int tvmffi_py_tensor_from_capsule(tvmffi_py_state *st, PyObject *cap, int32_t align, int contiguous,
                               TVMFFIObjectHandle *out) {
  const char *name;
  int rc;
  if (!PyCapsule_CheckExact(cap)) {
    PyErr_Format(PyExc_TypeError, "expected a DLPack capsule, got %R", cap);
    return -1;
  }
  name = PyCapsule_GetName(cap);
  if (name == NULL && PyErr_Occurred()) return -1;
  if (name != NULL && strcmp(name, TVMFFI_PY_CAPSULE_VERSIONED) == 0) {
    DLManagedTensorVersioned *mt = PyCapsule_GetPointer(cap, TVMFFI_PY_CAPSULE_VERSIONED);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPackVersioned(mt, align, contiguous, out);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return -1;
    }
    /* Cannot fail: the capsule is valid (its pointer was just read). */
    PyCapsule_SetName(cap, TVMFFI_PY_CAPSULE_USED_VERSIONED);
    return 0;
  }
  if (name != NULL && strcmp(name, TVMFFI_PY_CAPSULE_LEGACY) == 0) {
    DLManagedTensor *mt = PyCapsule_GetPointer(cap, TVMFFI_PY_CAPSULE_LEGACY);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPack(mt, align, contiguous, out);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return -1;
    }
    PyCapsule_SetName(cap, TVMFFI_PY_CAPSULE_USED_LEGACY);
    return 0;
  }
  if (name != NULL &&
      (strcmp(name, TVMFFI_PY_CAPSULE_USED_VERSIONED) == 0 || strcmp(name, TVMFFI_PY_CAPSULE_USED_LEGACY) == 0)) {
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
  rc = tvmffi_py_tensor_from_capsule(st, cap, align, contiguous, out);
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

/* The KIND_* bits of tp; *api and *owner (a new reference) when it
 * publishes an exchange API. */
static int classify_type(tvmffi_py_state *st, PyTypeObject *tp, const DLPackExchangeAPI **api,
                         PyObject **owner) {
  int kind = 0, r;
  r = tvmffi_py_exchange_lookup(st, tp, api, owner);
  if (r < 0) return -1;
  if (r) kind |= KIND_EXCHANGE;
  r = has_attr((PyObject *)tp, st->str_dlpack);
  if (r < 0) goto fail;
  if (r) kind |= KIND_DLPACK;
  if (kind == 0) return kind;
  /* __tvm_ffi_object__ comes before both tensor protocols for arguments. */
  r = has_attr((PyObject *)tp, st->str_ffi_object);
  if (r < 0) goto fail;
  if (r) kind |= KIND_FFI_OBJECT;
  if ((kind & KIND_DLPACK) && is_numpy_ndarray(tp)) kind |= KIND_NUMPY;
  return kind;
fail:
  if (kind & KIND_EXCHANGE) Py_CLEAR(*owner);
  return -1;
}

/* The KIND_* bits of tp, cached per type (protocols are read from the class,
 * once, as upstream does), and its exchange API in *api (borrowed; NULL if
 * none).  A full cache stops caching; the owner of an API found then is
 * kept in extra_exchange_owners (once each). */
static int kind_of_type(tvmffi_py_state *st, PyTypeObject *tp, const DLPackExchangeAPI **api) {
  int i, kind;
  PyObject *owner = NULL;
  *api = NULL;
  for (i = 0; i < TVMFFI_PY_TENSOR_CACHE; ++i) {
    if (st->tensor.types[i] == tp) {
      *api = st->tensor.exchange_apis[i];
      return st->tensor.kinds[i];
    }
    if (st->tensor.types[i] == NULL) break;
  }
  kind = classify_type(st, tp, api, &owner);
  if (kind < 0) return -1;
  if (i < TVMFFI_PY_TENSOR_CACHE) {
    st->tensor.types[i] = (PyTypeObject *)Py_NewRef((PyObject *)tp);
    st->tensor.kinds[i] = (unsigned char)kind;
    st->tensor.exchange_apis[i] = *api;
    st->tensor.exchange_owners[i] = owner; /* the reference moves here */
    owner = NULL;
  } else if (owner != NULL) {
    /* Not cached, but a container returned by a call taking this type keeps
     * a pointer to the API (pyshim.h): its owner lives on with the module. */
    if (st->tensor.extra_exchange_owners == NULL) {
      st->tensor.extra_exchange_owners = PyList_New(0);
      if (st->tensor.extra_exchange_owners == NULL) {
        Py_DECREF(owner);
        return -1;
      }
    }
    Py_ssize_t n = PyList_Size(st->tensor.extra_exchange_owners), j;
    for (j = 0; j < n; ++j) {
      if (PyList_GetItem(st->tensor.extra_exchange_owners, j) == owner) break;
    }
    if (j == n && PyList_Append(st->tensor.extra_exchange_owners, owner) != 0) {
      Py_DECREF(owner);
      return -1;
    }
  }
  Py_XDECREF(owner);
  /* convert.c then sends numpy arrays here before any other check. */
  if ((kind & KIND_NUMPY) && st->tensor.ndarray_type == NULL) {
    st->tensor.ndarray_type = (PyTypeObject *)Py_NewRef((PyObject *)tp);
  }
  /* ... and the last exchange-API type straight to exchange.c. */
  if ((kind & KIND_EXCHANGE) && !(kind & KIND_FFI_OBJECT) && i < TVMFFI_PY_TENSOR_CACHE) {
    PyTypeObject *old = st->tensor.exchange_type;
    st->tensor.exchange_type = (PyTypeObject *)Py_NewRef((PyObject *)tp);
    st->tensor.exchange_api = *api;
    Py_XDECREF((PyObject *)old);
  }
  return kind;
}

/* A new tensor reference for obj, whose type has the KIND_DLPACK or
 * KIND_EXCHANGE bit.  numpy's own paths first; then the exchange API, where
 * a BufferError (the producer or the checks refused) falls back to
 * __dlpack__ when the type has it. */
static int tensor_from_producer(tvmffi_py_state *st, PyObject *obj, int kind,
                                const DLPackExchangeAPI *api, int32_t align, int contiguous,
                                TVMFFIObjectHandle *out) {
  if (kind & KIND_NUMPY) {
    int rc = tvmffi_py_tensor_from_numpy(st, obj, align, contiguous, out);
    if (rc != 0) return rc < 0 ? -1 : 0;
  }
  if (kind & KIND_EXCHANGE) {
    if (tvmffi_py_exchange_to_tensor(st, obj, api, align, contiguous, out) == 0) return 0;
    if (!(kind & KIND_DLPACK) || !PyErr_ExceptionMatches(PyExc_BufferError)) return -1;
    PyErr_Clear();
  }
  return tensor_from_dlpack_method(st, obj, align, contiguous, out);
}

int tvmffi_py_tensor_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                            tvmffi_py_temps *temps) {
  TVMFFIObjectHandle h;
  const DLPackExchangeAPI *api;
  int kind = kind_of_type(st, Py_TYPE(obj), &api);
  if (kind < 0) return -1;
  if (kind & KIND_FFI_OBJECT) return 0;
  if ((kind & KIND_EXCHANGE) && !(kind & KIND_NUMPY)) {
    return tvmffi_py_exchange_to_any(st, obj, api, out, temps) != 0 ? -1 : 1;
  }
  if (!(kind & KIND_DLPACK)) return 0;
  if (tensor_from_producer(st, obj, kind, api, 0, 0, &h) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->v_obj = (TVMFFIObject *)h;
  return tvmffi_py_temps_add(temps, h) != 0 ? -1 : 1;
}

int tvmffi_py_tensor_from_object(tvmffi_py_state *st, PyObject *obj, int32_t align,
                                 int contiguous, TVMFFIObjectHandle *out) {
  const DLPackExchangeAPI *api;
  int kind;
  if (PyCapsule_CheckExact(obj)) {
    return tvmffi_py_tensor_from_capsule(st, obj, align, contiguous, out) != 0 ? -1 : 1;
  }
  kind = kind_of_type(st, Py_TYPE(obj), &api);
  if (kind < 0) return -1;
  if (!(kind & (KIND_DLPACK | KIND_EXCHANGE))) return 0;
  return tensor_from_producer(st, obj, kind, api, align, contiguous, out) != 0 ? -1 : 1;
}

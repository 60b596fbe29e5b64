/* pyshim.h: declarations shared by the files of the tvm_ffi.core extension. */
#ifndef TVMFFI_PYSHIM_H_
#define TVMFFI_PYSHIM_H_

/* Need limited C API 3.12: Py_TPFLAGS_HAVE_VECTORCALL, PyObject_Vectorcall,
 * PyErr_GetRaisedException, Py_T_PYSSIZET and the __vectorcalloffset__ member. */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030C0000
#endif
#if Py_LIMITED_API < 0x030C0000
#error "pyshim needs Py_LIMITED_API >= 0x030C0000 (Python 3.12): vectorcall is not in older limited APIs"
#endif

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#if PY_VERSION_HEX < 0x030C0000
#error "tvm_ffi.core must be compiled against Python 3.12 or newer headers"
#endif

/* Symbols shared between the files of the extension stay inside it. */
#if defined(__GNUC__)
#define TVMFFI_PY_HIDDEN __attribute__((visibility("hidden")))
#else
#define TVMFFI_PY_HIDDEN
#endif

/* tensor.c's part of the module state, visited and cleared by
 * tvmffi_py_tensor_traverse/clear.  Owned references; NULL = unset or free. */
#define TVMFFI_PY_TENSOR_CACHE 16
typedef struct {
  PyTypeObject *type;         /* core.Tensor (subclass of Object, final)   */
  PyTypeObject *ndarray_type; /* numpy.ndarray, once an array was seen     */
  PyObject *kwnames;          /* ("max_version",), to call __dlpack__      */
  PyObject *max_version;      /* (1, 3)                                    */
  PyObject *dlpack_kw[4];     /* "stream", "max_version", "dl_device", "copy" */
  /* Python types and what tensor.c found on them (its KIND_* bits). */
  PyTypeObject *types[TVMFFI_PY_TENSOR_CACHE];
  unsigned char kinds[TVMFFI_PY_TENSOR_CACHE];
  /* numpy dtypes (descr objects) with their DLPack types and item sizes. */
  PyObject *descrs[TVMFFI_PY_TENSOR_CACHE];
  DLDataType dtypes[TVMFFI_PY_TENSOR_CACHE];
  Py_ssize_t itemsizes[TVMFFI_PY_TENSOR_CACHE];
  /* numpy's array struct agreed with the buffer protocol: 1 yes, -1 no, 0 untested. */
  int ndarray_layout;
} tvmffi_py_tensor_state;

/*
 * Module state: every Python object the extension keeps lives here (no
 * file-level PyObject*).  Owned references unless noted; all cleared by
 * m_clear and visited by m_traverse.
 */
typedef struct {
  /* Heap types made in exec. */
  PyTypeObject *object_type;   /* core.Object: base of every FFI object wrapper */
  PyTypeObject *function_type; /* core.Function (subclass of Object, final)     */
  PyTypeObject *device_type;   /* core.Device                                   */
  PyTypeObject *datatype_type; /* core.DataType                                 */
  PyTypeObject *array_base_type; /* core.ArrayBase: base of tvm_ffi.Array        */

  /* Python classes for FFI type indices, set by the package (register_object). */
  PyObject **classes;          /* classes[i]: class registered for index i, or NULL */
  PyObject **resolved;         /* cache: nearest registered class, or NULL          */
  Py_ssize_t num_classes;

  /* Error kind <-> exception class tables (dicts), seeded with built-ins. */
  PyObject *error_name_to_type;
  PyObject *error_type_to_name;

  /* Classes supplied by the pure-Python layer (may be NULL until then). */
  PyObject *dtype_cls;  /* tvm_ffi.dtype (a str subclass)           */
  PyObject *shape_cls;  /* tvm_ffi.Shape (a tuple subclass)         */
  PyObject *c_void_p;   /* ctypes.c_void_p                          */

  /* core.Tensor and the DLPack argument path (tensor.c). */
  tvmffi_py_tensor_state tensor;

  /* Interned attribute names. */
  PyObject *str_ffi_error;   /* "__tvm_ffi_error__"      */
  PyObject *str_value;       /* "value"                  */
  PyObject *str_dtype_slot;  /* "_tvm_ffi_dtype"         */
  PyObject *str_cached;      /* "_tvm_ffi_cached_object" */
  PyObject *str_dlpack;      /* "__dlpack__"             */
  PyObject *str_ffi_object;  /* "__tvm_ffi_object__"     */
  PyObject *str_name;        /* "__name__"               */

  /* Global functions looked up once (owned FFI references, may be NULL). */
  TVMFFIObjectHandle fn_map;
  TVMFFIObjectHandle fn_shape;

  /* Default of Function.release_gil for newly made wrappers. */
  int release_gil_default;
  /* Borrowed: the module object that owns this state. */
  PyObject *module;
  /* Cached tp_alloc of function_type. */
  allocfunc function_alloc;
} tvmffi_py_state;

/* PyObject_CallOneArg is not in the limited API. */
static inline PyObject *tvmffi_py_call1(PyObject *f, PyObject *arg) {
  PyObject *args[1];
  args[0] = arg;
  return PyObject_Vectorcall(f, args, 1, NULL);
}

/* core.Object instances: one owned FFI handle (NULL until initialised). */
typedef struct {
  PyObject_HEAD
  TVMFFIObjectHandle handle;
} tvmffi_py_object;

/* core.Function instances: an Object plus the vectorcall entry and a dict. */
typedef struct {
  PyObject_HEAD
  TVMFFIObjectHandle handle;
  vectorcallfunc vectorcall;
  PyObject *dict;
  /* Borrowed: kept valid by the reference each instance holds on its type. */
  tvmffi_py_state *state;
  int release_gil;
} tvmffi_py_function;

/* core.Device instances. */
typedef struct {
  PyObject_HEAD
  DLDevice device;
} tvmffi_py_device;

/* core.DataType instances. */
typedef struct {
  PyObject_HEAD
  DLDataType dtype;
} tvmffi_py_datatype;

/*
 * Objects made while converting call arguments, released after the call.
 * Small calls use the inline buffers only.
 */
#define TVMFFI_PY_INLINE_ARGS 8
typedef struct {
  TVMFFIObjectHandle inline_temps[TVMFFI_PY_INLINE_ARGS];
  TVMFFIObjectHandle *temps;
  Py_ssize_t num_temps;
  Py_ssize_t cap_temps;
} tvmffi_py_temps;

/* Set once Python starts finalizing: deleters then leak instead of calling in. */
TVMFFI_PY_HIDDEN extern volatile int tvmffi_py_finalizing;
TVMFFI_PY_HIDDEN extern volatile unsigned long tvmffi_py_finalizing_thread;

/* module.c */
TVMFFI_PY_HIDDEN tvmffi_py_state *tvmffi_py_state_of_type(PyTypeObject *tp);

/* object.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_object(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_object_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_class_for_index(tvmffi_py_state *st, int32_t type_index);
TVMFFI_PY_HIDDEN int tvmffi_py_register_class(tvmffi_py_state *st, int32_t type_index,
                                              PyObject *cls);

/* function.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_function(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_function_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h);
TVMFFI_PY_HIDDEN int tvmffi_py_call_handle(TVMFFIObjectHandle f, TVMFFIAny *args, int32_t n,
                                           TVMFFIAny *result);

/* No temporaries yet (the inline buffer only); inline: every call starts so. */
static inline void tvmffi_py_temps_init(tvmffi_py_temps *t) {
  t->temps = t->inline_temps;
  t->num_temps = 0;
  t->cap_temps = TVMFFI_PY_INLINE_ARGS;
}

/* convert.c */
TVMFFI_PY_HIDDEN void tvmffi_py_temps_release(tvmffi_py_temps *t);
TVMFFI_PY_HIDDEN int tvmffi_py_temps_add(tvmffi_py_temps *t, TVMFFIObjectHandle h);
TVMFFI_PY_HIDDEN int tvmffi_py_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                      tvmffi_py_temps *temps);
/* An exact or derived str: a small string, a borrowed UTF-8 view, or (with
 * NUL bytes inside) an ffi.String owned by temps. */
TVMFFI_PY_HIDDEN int tvmffi_py_str_to_any(PyObject *obj, TVMFFIAny *out, tvmffi_py_temps *temps);
TVMFFI_PY_HIDDEN int tvmffi_py_to_owned_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_from_any(tvmffi_py_state *st, TVMFFIAny *value);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_from_view(tvmffi_py_state *st, const TVMFFIAny *view);
TVMFFI_PY_HIDDEN int tvmffi_py_call_with_tuple(tvmffi_py_state *st, TVMFFIObjectHandle f,
                                              PyObject *tuple, TVMFFIAny *result);
TVMFFI_PY_HIDDEN int tvmffi_py_to_object(tvmffi_py_state *st, PyObject *obj,
                                         TVMFFIObjectHandle *out);

/*
 * The conversions of the most common call arguments and results, inline so
 * that Function_vectorcall makes no call into convert.c for them.  Both fall
 * back to the general functions for everything else, errors included.
 */
static inline int tvmffi_py_arg_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                       tvmffi_py_temps *temps) {
  PyTypeObject *tp = Py_TYPE(obj);
  if (tp == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow == 0 && (v != -1 || !PyErr_Occurred())) {
      out->type_index = kTVMFFIInt;
      out->zero_padding = 0;
      out->v_int64 = (int64_t)v;
      return 0;
    }
    /* Out of range: the general path raises the OverflowError naming the value. */
  } else if (tp == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->zero_padding = 0;
    out->v_float64 = PyFloat_AsDouble(obj);
    return 0;
  } else if (tp == &PyUnicode_Type) {
    return tvmffi_py_str_to_any(obj, out, temps);
  } else if (obj != Py_None && obj != Py_True && obj != Py_False &&
             PyObject_TypeCheck(obj, st->object_type)) {
    /* An FFI object wrapper (usually of a Python subclass): passed as is.
     * The type index is read from the object header (ABI layout). */
    TVMFFIObject *h = (TVMFFIObject *)((tvmffi_py_object *)obj)->handle;
    if (h != NULL) {
      out->type_index = h->type_index;
      out->zero_padding = 0;
      out->v_obj = h;
      return 0;
    }
    /* Never initialised: the general path raises the ValueError. */
  }
  return tvmffi_py_to_any(st, obj, out, temps);
}

/* Steals *value, like tvmffi_py_from_any. */
static inline PyObject *tvmffi_py_result_from_any(tvmffi_py_state *st, TVMFFIAny *value) {
  switch (value->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(value->v_int64);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(value->v_float64);
    case kTVMFFIBool:
      return PyBool_FromLong(value->v_int64 != 0);
    default:
      return tvmffi_py_from_any(st, value);
  }
}

/* container.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_container(PyObject *module, tvmffi_py_state *st);
/* A new ffi.Array (new reference in *out) of the items of an exact list or tuple. */
TVMFFI_PY_HIDDEN int tvmffi_py_array_from_seq(tvmffi_py_state *st, PyObject *seq,
                                              TVMFFIObjectHandle *out);

/* callback.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_callback(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_callable_to_function(PyObject *module, PyObject *callable,
                                                    TVMFFIObjectHandle *out);
TVMFFI_PY_HIDDEN int tvmffi_py_make_opaque(PyObject *obj, TVMFFIObjectHandle *out);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_module_of_state(tvmffi_py_state *st);
TVMFFI_PY_HIDDEN void tvmffi_py_drop_callables(void);

/* error.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_error(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN void tvmffi_py_raise_from_ffi(tvmffi_py_state *st, int rc);
TVMFFI_PY_HIDDEN void tvmffi_py_set_ffi_error_from_python(tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_exception_to_error(tvmffi_py_state *st, PyObject *exc,
                                                  TVMFFIObjectHandle *out);

/* tensor.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_tensor(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_tensor_traverse(tvmffi_py_state *st, visitproc visit, void *arg);
TVMFFI_PY_HIDDEN void tvmffi_py_tensor_clear(tvmffi_py_state *st);
/* 1: obj (a numpy array or any __dlpack__ producer) became a tensor owned by
 * temps; 0: obj is no tensor, nothing done; -1: error raised. */
TVMFFI_PY_HIDDEN int tvmffi_py_tensor_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                             tvmffi_py_temps *temps);

/* device.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_device(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_device_new(tvmffi_py_state *st, DLDevice dev);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_datatype_new(tvmffi_py_state *st, DLDataType dt);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_dtype_from_dl(tvmffi_py_state *st, DLDataType dt);

/* *out = obj (an int or an object with __index__) as an int32; OverflowError
 * naming `what` and the value when it does not fit, never a silent
 * truncation.  0, or -1 with an exception set. */
static inline int tvmffi_py_as_int32(PyObject *obj, const char *what, int32_t *out) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
  if (v == -1 && overflow == 0 && PyErr_Occurred()) return -1;
  if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(PyExc_OverflowError, "%s %R does not fit in a 32-bit signed integer", what, obj);
    return -1;
  }
  *out = (int32_t)v;
  return 0;
}

#endif /* TVMFFI_PYSHIM_H_ */

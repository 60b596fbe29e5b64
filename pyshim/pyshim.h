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

#include <string.h>

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

/* tensor.c's part of the module state (and tensor_input.c's numpy cache),
 * visited and cleared by tvmffi_py_tensor_traverse/clear.  Owned
 * references; NULL = unset or free. */
#define TVMFFI_PY_TENSOR_CACHE 16
typedef struct {
  PyTypeObject *type;         /* core.Tensor (subclass of Object, final)   */
  PyObject *kwnames;          /* ("max_version",), to call __dlpack__      */
  PyObject *max_version;      /* (1, 3)                                    */
  PyObject *dlpack_kw[4];     /* "stream", "max_version", "dl_device", "copy" */
  /* numpy dtypes (descr objects) with their DLPack types and item sizes. */
  PyObject *descrs[TVMFFI_PY_TENSOR_CACHE];
  DLDataType dtypes[TVMFFI_PY_TENSOR_CACHE];
  Py_ssize_t itemsizes[TVMFFI_PY_TENSOR_CACHE];
  /* numpy's array struct agreed with the buffer protocol: 1 yes, -1 no, 0 untested. */
  int ndarray_layout;
  /* TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API=1 at import: never use the C API. */
  int skip_exchange;
} tvmffi_py_tensor_state;

#define TVMFFI_PY_OBJECT_TYPE_CACHE 4
#define TVMFFI_PY_SMALL_STR_CACHE 64

/*
 * argtype.c: what a Python class offers to argument conversion, one record
 * per class, and the one vocabulary of conversion rows (the kind: which row
 * of argtype.c's table applies to the class's instances).
 */
enum {
  TVMFFI_PY_KIND_NONE = 0,      /* none: convert.c's generic rows            */
  TVMFFI_PY_KIND_FFI_OBJECT,    /* __tvm_ffi_object__() (wins over tensors)  */
  TVMFFI_PY_KIND_NUMPY_ARRAY,   /* exactly numpy.ndarray: a tensor           */
  TVMFFI_PY_KIND_EXCHANGE,      /* DLPack C exchange API: a tensor           */
  TVMFFI_PY_KIND_DLPACK,        /* __dlpack__(): a tensor                    */
  TVMFFI_PY_KIND_NUMPY_BOOL,    /* numpy.bool_: bool                         */
  TVMFFI_PY_KIND_CUDA_STREAM,   /* __cuda_stream__(): opaque pointer         */
  TVMFFI_PY_KIND_OPAQUE_PTR,    /* __tvm_ffi_opaque_ptr__(): opaque pointer  */
  TVMFFI_PY_KIND_NUMPY_DTYPE,   /* numpy.dtype: DataType                     */
  TVMFFI_PY_KIND_DLPACK_DEVICE, /* __dlpack_device__(): Device               */
  TVMFFI_PY_KIND_INT,           /* __tvm_ffi_int__(): int                    */
  TVMFFI_PY_KIND_FLOAT,         /* __tvm_ffi_float__(): float                */
  TVMFFI_PY_KIND_VALUE          /* __tvm_ffi_value__(): converted again      */
};

typedef struct {
  PyTypeObject *type;                /* owned; NULL: a free slot                  */
  const DLPackExchangeAPI *exchange; /* its checked exchange API, or NULL
                                      * (borrowed from exchange_owner)          */
  PyObject *exchange_owner;          /* owned: the capsule that holds the table  */
  unsigned char kind;                /* TVMFFI_PY_KIND_*: the row for arguments  */
  unsigned char dlpack;              /* defines __dlpack__ (from_dlpack, and the
                                      * fallback when the exchange API refuses)  */
} tvmffi_py_type_record;

#define TVMFFI_PY_TYPE_CACHE 32
#define TVMFFI_PY_VALUE_DEPTH 64
typedef struct {
  /* The records of the classes seen, filled in order (a full cache stops caching). */
  tvmffi_py_type_record records[TVMFFI_PY_TYPE_CACHE];
  /* Shortcuts into records, borrowed, for convert.c's pointer compares:
   * numpy.ndarray, and the last class found with an exchange API (KIND_EXCHANGE). */
  PyTypeObject *ndarray_type;
  const tvmffi_py_type_record *ndarray;
  PyTypeObject *exchange_type;
  const DLPackExchangeAPI *exchange_api;
  /* Owners of exchange APIs met after the cache was full: kept for the
   * module's life, since returned containers keep the API pointer. */
  PyObject *extra_exchange_owners; /* list or NULL */
} tvmffi_py_argtype_state;

/* Data types both ways, remembered (device.c).  Converting a numpy dtype
 * means str(dtype) (microseconds in numpy) and a parse; making a returned
 * tvm_ffi.dtype means formatting and a Python constructor.  Both are pure
 * functions of their input, so a few recent answers are kept: `from_numpy`
 * by the identity of the numpy dtype (or numpy scalar type) it was read
 * from, `to_python` by the packed DLDataType.  Entries are strong
 * references; a slot is reused round robin. */
#define TVMFFI_PY_DTYPE_CACHE 16
typedef struct tvmffi_py_dtype_memo {
  PyObject *numpy_key[TVMFFI_PY_DTYPE_CACHE];
  DLDataType numpy_value[TVMFFI_PY_DTYPE_CACHE];
  int numpy_next;
  uint32_t python_key[TVMFFI_PY_DTYPE_CACHE];
  PyObject *python_value[TVMFFI_PY_DTYPE_CACHE];
  int python_next;
} tvmffi_py_dtype_memo;

/* Global functions the extension calls, by slot in tvmffi_py_state.globals
 * (names in module.c). */
enum {
  TVMFFI_PY_G_MAP,
  TVMFFI_PY_G_DICT,
  TVMFFI_PY_G_SHAPE,
  TVMFFI_PY_G_LIST,
  TVMFFI_PY_G_MAP_COUNT,
  TVMFFI_PY_G_DICT_COUNT,
  TVMFFI_PY_G_MAP_GET_OR_MISSING,
  TVMFFI_PY_G_DICT_GET_OR_MISSING,
  TVMFFI_PY_G_DICT_SET_ITEM,
  TVMFFI_PY_G_DICT_ERASE,
  TVMFFI_PY_G_DICT_CLEAR,
  TVMFFI_PY_G_LIST_SET_ITEM,
  TVMFFI_PY_G_LIST_APPEND,
  TVMFFI_PY_G_LIST_INSERT,
  TVMFFI_PY_G_LIST_POP,
  TVMFFI_PY_G_LIST_ERASE,
  TVMFFI_PY_G_LIST_ERASE_RANGE,
  TVMFFI_PY_G_LIST_REPLACE_SLICE,
  TVMFFI_PY_G_LIST_REVERSE,
  TVMFFI_PY_G_LIST_CLEAR,
  TVMFFI_PY_G_GET_MISSING,
  TVMFFI_PY_G_REPR_PRINT,
  TVMFFI_PY_GLOBAL_COUNT
};

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
  PyTypeObject *rvalue_ref_type; /* core.ObjectRValueRef: an argument to move    */
  PyTypeObject *array_base_type; /* core.ArrayBase: base of tvm_ffi.Array        */
  PyTypeObject *list_base_type;  /* core.ListBase: base of tvm_ffi.List          */
  PyTypeObject *map_base_type;   /* core.MapBase: base of tvm_ffi.Map            */
  PyTypeObject *dict_base_type;  /* core.DictBase: base of tvm_ffi.Dict          */
  PyTypeObject *seq_iter_type;   /* core.SeqIterator                             */
  PyTypeObject *map_iter_type;   /* core.MapIterator                             */
  PyTypeObject *map_view_type;   /* core.MapView: keys(), values(), items()      */

  /* Python classes for FFI type indices, set by the package (register_object). */
  PyObject **classes;          /* classes[i]: class registered for index i, or NULL */
  PyObject **resolved;         /* cache: nearest registered class, or NULL          */
  Py_ssize_t num_classes;

  /* Error kind <-> exception class tables (dicts), seeded with built-ins. */
  PyObject *error_name_to_type;
  PyObject *error_type_to_name;

  /* Native frames in Python tracebacks (error.c); set by tvm_ffi.error. */
  PyObject *tb_type;          /* types.TracebackType, or NULL until set          */
  PyObject *tb_frame_factory; /* (file, func) -> a frame object with that code  */
  PyObject *tb_frames;        /* dict: backtrace line -> (frame, lineno)        */

  /* Classes supplied by the pure-Python layer (may be NULL until then). */
  PyObject *dtype_cls;  /* tvm_ffi.dtype (a str subclass)           */
  PyObject *shape_cls;  /* tvm_ffi.Shape (a tuple subclass)         */
  PyObject *c_void_p;   /* ctypes.c_void_p                          */
  /* The class of Devices handed to Python (core._set_class_device: a
   * subclass of device_type), NULL for device_type itself. */
  PyTypeObject *device_cls;

  /* core.Tensor and tensor input (tensor.c, tensor_input.c). */
  tvmffi_py_tensor_state tensor;
  /* What Python classes offer to argument conversion (argtype.c). */
  tvmffi_py_argtype_state argtype;
  /* Recent data type conversions (device.c). */
  tvmffi_py_dtype_memo dtype_memo;

  /* Recently seen subclasses of core.Object (owned; tvmffi_py_is_object_type). */
  PyTypeObject *object_types[TVMFFI_PY_OBJECT_TYPE_CACHE];
  int object_types_next;

  /* tvmffi_py_small_str's cache: 64 slots of (inline bytes, length, str). */
  PyObject *small_strs[TVMFFI_PY_SMALL_STR_CACHE];
  uint64_t small_str_keys[TVMFFI_PY_SMALL_STR_CACHE];
  unsigned char small_str_lens[TVMFFI_PY_SMALL_STR_CACHE];

  /* Interned attribute names. */
  PyObject *str_ffi_error;   /* "__tvm_ffi_error__"      */
  PyObject *str_value;       /* "value"                  */
  PyObject *str_dtype_slot;  /* "_tvm_ffi_dtype"         */
  PyObject *str_cached;      /* "_tvm_ffi_cached_object" */
  PyObject *str_dlpack;      /* "__dlpack__"             */
  PyObject *str_ffi_object;  /* "__tvm_ffi_object__"     */
  PyObject *str_name;        /* "__name__"               */

  /* Global functions looked up on first use (owned FFI references, NULL
   * until then); see tvmffi_py_global. */
  TVMFFIObjectHandle globals[TVMFFI_PY_GLOBAL_COUNT];
  /* Borrowed, immortal: the MISSING sentinel (ffi.GetInvalidObject), NULL until looked up. */
  TVMFFIObjectHandle missing;
  /* collections.abc.Sequence / Mapping, imported on first use (may be NULL). */
  PyObject *abc_sequence;
  PyObject *abc_mapping;

  /* Default of Function.release_gil for newly made wrappers. */
  int release_gil_default;
  /* Borrowed: the module object that owns this state. */
  PyObject *module;
  /* Cached tp_alloc of function_type. */
  allocfunc function_alloc;
} tvmffi_py_state;

/*
 * Calls an FFI function.  For an ffi.Function (the usual case) this calls
 * the safe_call entry of its cell directly (TVMFFIFunctionCell is ABI
 * layout), which is what TVMFFIFunctionCall does after its checks; anything
 * else goes through TVMFFIFunctionCall, which raises the right error.
 * Never inlined: its frame is the boundary where a native backtrace taken
 * under a Python call stops (core/backtrace.cc matches its name).
 */
int tvmffi_py_function_call(TVMFFIObjectHandle f, TVMFFIAny *args, int32_t n, TVMFFIAny *result);

/* PyObject_CallOneArg is not in the limited API. */
static inline PyObject *tvmffi_py_call1(PyObject *f, PyObject *arg) {
  PyObject *args[1];
  args[0] = arg;
  return PyObject_Vectorcall(f, args, 1, NULL);
}

/*
 * core.Object instances: one owned FFI handle (NULL until initialised) and
 * the state of the module that made the wrapper.  `state` is borrowed: the
 * instance holds its type, whose chain of bases reaches a type of that
 * module, which holds the module.
 */
typedef struct {
  PyObject_HEAD
  TVMFFIObjectHandle handle;
  tvmffi_py_state *state;
} tvmffi_py_object;

/* Wrappers of ffi.Array, ffi.List, ffi.Map and ffi.Dict (core.SeqBase and
 * core.MapBase): an Object plus the DLPack C exchange API of the call that
 * returned the container (NULL: none), so that tensors read out of it go back
 * to Python as that producer's tensors (torch in, torch out) and containers
 * read out of it carry the same API. */
typedef struct {
  tvmffi_py_object base;
  const DLPackExchangeAPI *exchange;
} tvmffi_py_container;

static inline int tvmffi_py_is_container_index(int32_t type_index) {
  return type_index == kTVMFFIArray || type_index == kTVMFFIList || type_index == kTVMFFIMap ||
         type_index == kTVMFFIDict;
}

/* Whether obj is a wrapper with the tvmffi_py_container layout. */
#define TVMFFI_PY_IS_CONTAINER(st, obj)                                                   \
  (PyObject_TypeCheck((obj), (st)->array_base_type) ||                                   \
   PyObject_TypeCheck((obj), (st)->list_base_type) ||                                    \
   PyObject_TypeCheck((obj), (st)->map_base_type))

/* core.Function instances: an Object plus the vectorcall entry and a dict. */
typedef struct {
  PyObject_HEAD
  TVMFFIObjectHandle handle;
  tvmffi_py_state *state;
  vectorcallfunc vectorcall;
  PyObject *dict;
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
 * The conversion state of one call (or of one value converted on its own):
 * the objects made while converting, released after the call (small calls
 * use the inline buffer only), and what the tensors met say about the call.
 * Every conversion function takes it explicitly; nothing of it lives in the
 * module state, so a call made while converting (Python code run by
 * __tvm_ffi_value__, __dlpack__ ...) has its own and leaves this one alone.
 *
 * A list, tuple or dict argument is converted into a container with a state
 * of its own (its elements' temporaries die when the container is built);
 * that state is nested: `root` points at the state of the call.
 */
#define TVMFFI_PY_INLINE_ARGS 8
typedef struct tvmffi_py_temps {
  TVMFFIObjectHandle inline_temps[TVMFFI_PY_INLINE_ARGS];
  TVMFFIObjectHandle *temps;
  Py_ssize_t num_temps;
  Py_ssize_t cap_temps;
  /* The DLPack C exchange API of the first argument converted through one
   * (NULL: none), and the stream its producer reported for the first
   * non-CPU such tensor (stream_device_type -1: none). */
  const DLPackExchangeAPI *exchange;
  int32_t stream_device_type;
  int32_t stream_device_id;
  void *stream;
  /* The state of the call this one is nested in, or NULL (this one is it). */
  struct tvmffi_py_temps *root;
  /* In a root: the exchange API of the last tensor, or container carrying
   * one, met inside a nested conversion (the call's API when no argument
   * itself had one). */
  const DLPackExchangeAPI *nested_exchange;
} tvmffi_py_temps;


/* PyCFunctionFast and friends are not in the 3.12 limited API: method
 * tables store every method as a PyCFunction, cast through this. */
#define TVMFFI_PY_METH(f) ((PyCFunction)(void (*)(void))(f))

/* module.c */
/* Borrowed handle of global function `which` (TVMFFI_PY_G_*), looked up on
 * first use; NULL with a RuntimeError naming it when it is not registered. */
TVMFFI_PY_HIDDEN TVMFFIObjectHandle tvmffi_py_global(tvmffi_py_state *st, int which);
/* Whether nargs lies in [lo, hi]; else a TypeError naming the function. */
TVMFFI_PY_HIDDEN int tvmffi_py_check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t lo,
                                           Py_ssize_t hi);

/* A new heap type from spec (with base, or NULL) added to the module under
 * its name: a new reference, or NULL with an error. */
TVMFFI_PY_HIDDEN PyTypeObject *tvmffi_py_add_type(PyObject *module, PyType_Spec *spec,
                                                  PyTypeObject *base);

/* The state of the module object `module` (its m_size block). */
static inline tvmffi_py_state *tvmffi_py_module_state(PyObject *module) {
  return (tvmffi_py_state *)PyModule_GetState(module);
}

/* object.c */
/* The FFI object of an initialised wrapper (borrowed); NULL with a TypeError
 * naming obj for anything else. */
TVMFFI_PY_HIDDEN TVMFFIObjectHandle tvmffi_py_handle_of(tvmffi_py_state *st, PyObject *obj);
/* The module state of tp, a type of this extension or a Python subclass of
 * one (which has no module of its own): the state of the nearest base made by
 * the extension.  NULL with an error if there is none. */
TVMFFI_PY_HIDDEN tvmffi_py_state *tvmffi_py_state_of_subtype(PyTypeObject *tp);
TVMFFI_PY_HIDDEN int tvmffi_py_init_object(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_object_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h);
/* repr() of every FFI object wrapper: the text of ffi.ReprPrint. */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_object_repr(PyObject *self);
/* An ObjectRValueRef argument: a kTVMFFIObjectRValueRef view of the slot of
 * the object it refers to (the callee may take the object, leaving the
 * wrapper empty).  -1 with a TypeError/ValueError for a bad or empty one. */
TVMFFI_PY_HIDDEN int tvmffi_py_rvalue_ref_to_any(PyObject *ref, TVMFFIAny *out);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_class_for_index(tvmffi_py_state *st, int32_t type_index);
TVMFFI_PY_HIDDEN int tvmffi_py_register_class(tvmffi_py_state *st, int32_t type_index,
                                              PyObject *cls);

/* exchange.c: the Python value of an element read out of container wrapper
 * `owner` (steals `owned`): with the owner's exchange API, a tensor becomes
 * the producer's tensor and a container carries the API on. */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_container_element(PyObject *owner, TVMFFIAny *owned);
/* The same for a borrowed element. */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_container_element_view(PyObject *owner,
                                                            const TVMFFIAny *view);

/* function.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_function(PyObject *module, tvmffi_py_state *st);

/* property.c: core.FFIProperty, _alloc_type_index, MISSING, KWARGS. */
TVMFFI_PY_HIDDEN int tvmffi_py_init_property(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_function_wrap(tvmffi_py_state *st, TVMFFIObjectHandle h);
/* callback.c: drops a Python reference from any thread (an FFI deleter). */
TVMFFI_PY_HIDDEN void tvmffi_py_release_pyobject(void *obj);

/* No temporaries yet (the inline buffer only); inline: every call starts so. */
static inline void tvmffi_py_temps_init(tvmffi_py_temps *t) {
  t->temps = t->inline_temps;
  t->num_temps = 0;
  t->cap_temps = TVMFFI_PY_INLINE_ARGS;
  t->root = NULL;
  t->exchange = NULL;
  t->stream_device_type = -1;
  t->nested_exchange = NULL;
}

/* A state nested in `outer` (NULL: a root of its own). */
static inline void tvmffi_py_temps_init_nested(tvmffi_py_temps *t, tvmffi_py_temps *outer) {
  tvmffi_py_temps_init(t);
  if (outer != NULL) t->root = outer->root != NULL ? outer->root : outer;
}

/* Records that a tensor (or a container) converted with state t came
 * through exchange API api: t's own first API, and the root's nested one. */
static inline void tvmffi_py_temps_note_exchange(tvmffi_py_temps *t,
                                                 const DLPackExchangeAPI *api) {
  if (t->exchange == NULL) t->exchange = api;
  (t->root != NULL ? t->root : t)->nested_exchange = api;
}

/* convert.c */
/* A str from UTF-8 bytes of the library (names, messages, string values):
 * the one decoding policy of the extension.  Invalid bytes become U+FFFD,
 * so decoding never fails and the str always encodes back. */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_str_from_utf8(const char *data, size_t size);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_str_from_bytearray(const TVMFFIByteArray *b);
/* The str of a SmallStr value, from a small cache of recent ones (strs are
 * immutable, so equal short strings may share one object). */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_small_str(tvmffi_py_state *st, const TVMFFIAny *value);
/* The UTF-8 bytes of a str (borrowed from it); TypeError for anything else. */
TVMFFI_PY_HIDDEN int tvmffi_py_str_to_bytearray(PyObject *s, TVMFFIByteArray *out);
/* Registers _convert and _set_class. */
TVMFFI_PY_HIDDEN int tvmffi_py_init_convert(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN void tvmffi_py_temps_release(tvmffi_py_temps *t);
TVMFFI_PY_HIDDEN int tvmffi_py_temps_add(tvmffi_py_temps *t, TVMFFIObjectHandle h);
TVMFFI_PY_HIDDEN int tvmffi_py_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                      tvmffi_py_temps *temps);
/* An exact or derived str: a small string, a borrowed UTF-8 view, or (with
 * NUL bytes inside) an ffi.String owned by temps. */
TVMFFI_PY_HIDDEN int tvmffi_py_str_to_any(PyObject *obj, TVMFFIAny *out, tvmffi_py_temps *temps);
/* An owned value of obj (a copy where the view would borrow), converted in
 * a state of its own. */
TVMFFI_PY_HIDDEN int tvmffi_py_to_owned_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out);
/* The same, in a state nested in `outer` (NULL: none): for a value met while
 * converting the arguments of a call. */
TVMFFI_PY_HIDDEN int tvmffi_py_to_owned_any_in(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                               tvmffi_py_temps *outer);
/* ctypes.c_void_p (borrowed): NULL without an error when ctypes is not imported
 * and import_it is 0, NULL with an error when importing failed. */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_c_void_p_class(tvmffi_py_state *st, int import_it);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_from_any(tvmffi_py_state *st, TVMFFIAny *value);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_from_view(tvmffi_py_state *st, const TVMFFIAny *view);
/* Calls f with the items of a tuple or list, converted in a state nested in
 * `outer` (NULL: none); *result owned. */
TVMFFI_PY_HIDDEN int tvmffi_py_call_with_tuple(tvmffi_py_state *st, TVMFFIObjectHandle f,
                                              PyObject *tuple, tvmffi_py_temps *outer,
                                              TVMFFIAny *result);

/* object.c: whether tp is core.Object or a subclass, remembering the answer
 * for a few types (see tvmffi_py_is_object_type). */
TVMFFI_PY_HIDDEN int tvmffi_py_is_object_type_slow(tvmffi_py_state *st, PyTypeObject *tp);

/* Whether tp is core.Object or a subclass.  PyObject_TypeCheck walks the MRO
 * of Python subclasses (tvm_ffi.Array is four deep); the last types found
 * are held (strong references, so an address cannot be reused) and matched
 * by pointer. */
static inline int tvmffi_py_is_object_type(tvmffi_py_state *st, PyTypeObject *tp) {
  int i;
  for (i = 0; i < TVMFFI_PY_OBJECT_TYPE_CACHE; ++i) {
    if (st->object_types[i] == tp) return 1;
  }
  return tvmffi_py_is_object_type_slow(st, tp);
}

/* Sets the first 8 bytes of a value (type index, then zero padding or the
 * length of a small string) in ONE store.  The callee copies its arguments 8
 * bytes at a time; a word written as two 4-byte stores cannot be forwarded
 * from the store buffer, and that load then waits for both stores to retire
 * (measured: ~10 ns per object argument). */
static inline void tvmffi_py_set_head2(TVMFFIAny *out, int32_t type_index, uint32_t second) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  uint64_t head = ((uint64_t)(uint32_t)type_index << 32) | second;
#else
  uint64_t head = ((uint64_t)second << 32) | (uint32_t)type_index;
#endif
  memcpy(out, &head, sizeof(head));
}

static inline void tvmffi_py_set_head(TVMFFIAny *out, int32_t type_index) {
  tvmffi_py_set_head2(out, type_index, 0);
}

/* The 8-byte word holding data[0..size) (size <= 8) in memory order, the rest
 * zero.  Assembled in a register: a memcpy of a variable size into a local
 * stores byte by byte, and reading that local back as one word stalls as
 * above. */
static inline uint64_t tvmffi_py_small_word(const char *data, size_t size) {
  uint64_t word = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  memcpy(&word, data, size);
#else
  size_t i;
  for (i = 0; i < size; ++i) word |= (uint64_t)(unsigned char)data[i] << (8 * i);
#endif
  return word;
}

/* A small string or bytes value (size <= 7) in two 8-byte stores (see above). */
static inline void tvmffi_py_set_small(TVMFFIAny *out, int32_t type_index, const char *data,
                                       size_t size) {
  uint64_t word = tvmffi_py_small_word(data, size);
  tvmffi_py_set_head2(out, type_index, (uint32_t)size);
  memcpy(out->v_bytes, &word, sizeof(word));
}

/* tensor_input.c (declared here for tvmffi_py_arg_to_any below): a call
 * argument through the exchange API api.  0, or -1 with an error. */
TVMFFI_PY_HIDDEN int tvmffi_py_exchange_to_any(tvmffi_py_state *st, PyObject *obj,
                                               const DLPackExchangeAPI *api, TVMFFIAny *out,
                                               tvmffi_py_temps *temps);

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
      tvmffi_py_set_head(out, kTVMFFIInt);
      out->v_int64 = (int64_t)v;
      return 0;
    }
    /* Out of range: the general path raises the OverflowError naming the value. */
  } else if (tp == &PyFloat_Type) {
    tvmffi_py_set_head(out, kTVMFFIFloat);
    out->v_float64 = PyFloat_AsDouble(obj);
    return 0;
  } else if (tp == &PyUnicode_Type) {
    return tvmffi_py_str_to_any(obj, out, temps);
  } else if (obj != Py_None && tp != &PyBool_Type && tvmffi_py_is_object_type(st, tp)) {
    /* An FFI object wrapper (usually of a Python subclass): passed as is.
     * The type index is read from the object header (ABI layout). */
    TVMFFIObject *h = (TVMFFIObject *)((tvmffi_py_object *)obj)->handle;
    if (h != NULL) {
      tvmffi_py_set_head(out, h->type_index);
      out->v_obj = h;
      /* A container returned by a call that took framework tensors passes
       * that exchange API on, so this call's tensor results convert back. */
      if (temps->exchange == NULL && tvmffi_py_is_container_index(h->type_index) &&
          TVMFFI_PY_IS_CONTAINER(st, obj)) {
        temps->exchange = ((tvmffi_py_container *)obj)->exchange;
      }
      return 0;
    }
    /* Never initialised: the general path raises the ValueError. */
  }
  /* The last type seen with a DLPack C exchange API (torch.Tensor): what
   * tvmffi_py_to_any does for it after its exact-type checks, none of which
   * such a type can pass. */
  if (__builtin_expect(tp == st->argtype.exchange_type, 0)) {
    return tvmffi_py_exchange_to_any(st, obj, st->argtype.exchange_api, out, temps);
  }
  return tvmffi_py_to_any(st, obj, out, temps);
}

/* exchange.c (declared here for the inline call loop below): calls f with
 * the stream and tensor allocator of the arguments' DLPack C exchange API
 * installed, then restores both.  The FFI return code, or
 * TVMFFI_PY_EXCHANGE_PY_ERROR with a Python error set (and no result) when
 * installing or restoring failed. */
#define TVMFFI_PY_EXCHANGE_PY_ERROR (-1000)
TVMFFI_PY_HIDDEN int tvmffi_py_exchange_call(tvmffi_py_state *st, TVMFFIObjectHandle f,
                                             TVMFFIAny *args, int32_t n, int release_gil,
                                             const tvmffi_py_temps *temps, TVMFFIAny *result);
/* error.c (declared here for the inline call loop below) */
TVMFFI_PY_HIDDEN void tvmffi_py_raise_from_ffi(tvmffi_py_state *st, int rc);

/*
 * The convert-call-release loop: converts args[0..n) to views, calls f
 * (releasing the GIL around the call if asked), releases the temporaries.
 * 0 and an owned *result, or -1 with a Python error set.  Inline: it is the
 * whole body of Function.__call__, where every nanosecond shows.
 */
static inline int tvmffi_py_call_ex(tvmffi_py_state *st, TVMFFIObjectHandle f,
                                    PyObject *const *args, Py_ssize_t n, int release_gil,
                                    TVMFFIAny *result, const DLPackExchangeAPI **exchange_out) {
  TVMFFIAny inline_args[TVMFFI_PY_INLINE_ARGS], *cargs = inline_args;
  tvmffi_py_temps temps;
  Py_ssize_t i;
  int rc;
  if (n > INT32_MAX) {
    PyErr_SetString(PyExc_OverflowError, "too many arguments for an FFI call");
    return -1;
  }
  if (n > TVMFFI_PY_INLINE_ARGS) {
    cargs = PyMem_Malloc(sizeof(TVMFFIAny) * (size_t)n);
    if (cargs == NULL) {
      PyErr_NoMemory();
      return -1;
    }
  }
  tvmffi_py_temps_init(&temps);
  for (i = 0; i < n; ++i) {
    if (tvmffi_py_arg_to_any(st, args[i], &cargs[i], &temps) != 0) {
      tvmffi_py_temps_release(&temps);
      if (cargs != inline_args) PyMem_Free(cargs);
      return -1;
    }
  }
  if (temps.exchange == NULL) temps.exchange = temps.nested_exchange;
  memset(result, 0, sizeof(*result));
  if (temps.exchange != NULL) {
    /* Tensors came through a DLPack C exchange API (exchange.c). */
    if (exchange_out != NULL) *exchange_out = temps.exchange;
    rc = tvmffi_py_exchange_call(st, f, cargs, (int32_t)n, release_gil, &temps, result);
    if (rc == TVMFFI_PY_EXCHANGE_PY_ERROR) {
      tvmffi_py_temps_release(&temps);
      if (cargs != inline_args) PyMem_Free(cargs);
      return -1;
    }
  } else if (release_gil) {
    PyThreadState *ts = PyEval_SaveThread();
    rc = tvmffi_py_function_call(f, cargs, (int32_t)n, result);
    PyEval_RestoreThread(ts);
  } else {
    rc = tvmffi_py_function_call(f, cargs, (int32_t)n, result);
  }
  if (temps.num_temps != 0) tvmffi_py_temps_release(&temps);
  if (cargs != inline_args) PyMem_Free(cargs);
  if (rc != 0) {
    tvmffi_py_raise_from_ffi(st, rc);
    return -1;
  }
  return 0;
}

/* tvmffi_py_call_ex without asking which exchange API the arguments used. */
static inline int tvmffi_py_call(tvmffi_py_state *st, TVMFFIObjectHandle f,
                                 PyObject *const *args, Py_ssize_t n, int release_gil,
                                 TVMFFIAny *result) {
  return tvmffi_py_call_ex(st, f, args, n, release_gil, result, NULL);
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
/* A new ffi.Array (new reference in *out) of the items of an exact list or
 * tuple, converted in states nested in `outer` (NULL: none). */
TVMFFI_PY_HIDDEN int tvmffi_py_array_from_seq(tvmffi_py_state *st, PyObject *seq,
                                              tvmffi_py_temps *outer, TVMFFIObjectHandle *out);
/* The FFI object of obj if it is an initialised wrapper (borrowed), else NULL
 * with no error set. */
static inline TVMFFIObject *tvmffi_py_handle_if_object(tvmffi_py_state *st, PyObject *obj) {
  if (!PyObject_TypeCheck(obj, st->object_type)) return NULL;
  return (TVMFFIObject *)((tvmffi_py_object *)obj)->handle;
}

/* map.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_map(PyObject *module, tvmffi_py_state *st);
/* A new ffi.Map or ffi.Dict (global `which`) of the items of a dict or any
 * mapping with items(), converted in a state nested in `outer` (NULL: none);
 * result in *out (owned). */
TVMFFI_PY_HIDDEN int tvmffi_py_map_from_mapping(tvmffi_py_state *st, int which, PyObject *mapping,
                                                tvmffi_py_temps *outer, TVMFFIAny *out);

/* callback.c */
/* The exit gate: takes the GIL (PyGILState_Ensure into *g) and returns 1
 * when this thread may run Python code; returns 0, touching nothing, once
 * interpreter exit has begun (other than on the finalizing thread) or the
 * interpreter is gone.  Code that may run on any thread (deleters, callbacks)
 * enters Python only through it; a refused deleter leaks its Python
 * references.  Each 1 is paired with tvmffi_py_gil_leave(*g). */
TVMFFI_PY_HIDDEN int tvmffi_py_gil_enter(PyGILState_STATE *g);
TVMFFI_PY_HIDDEN void tvmffi_py_gil_leave(PyGILState_STATE g);
TVMFFI_PY_HIDDEN int tvmffi_py_init_callback(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_callable_to_function(PyObject *module, PyObject *callable,
                                                    TVMFFIObjectHandle *out);
/* The same, delivering tensor arguments through `exchange` (kept alive by
 * exchange_owner, may be NULL) as that producer's tensors. */
TVMFFI_PY_HIDDEN int tvmffi_py_callable_to_function_ex(PyObject *module, PyObject *callable,
                                                       const DLPackExchangeAPI *exchange,
                                                       PyObject *exchange_owner,
                                                       TVMFFIObjectHandle *out);
TVMFFI_PY_HIDDEN int tvmffi_py_make_opaque(PyObject *obj, TVMFFIObjectHandle *out);
TVMFFI_PY_HIDDEN void tvmffi_py_drop_callables(void);

/* error.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_error(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN void tvmffi_py_set_ffi_error_from_python(tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_exception_to_error(tvmffi_py_state *st, PyObject *exc,
                                                  TVMFFIObjectHandle *out);

/* tensor.c: core.Tensor, its DLPack export, from_dlpack */
TVMFFI_PY_HIDDEN int tvmffi_py_init_tensor(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_tensor_traverse(tvmffi_py_state *st, visitproc visit, void *arg);
TVMFFI_PY_HIDDEN void tvmffi_py_tensor_clear(tvmffi_py_state *st);

/* DLPack: the version asked for and written, and the capsule names (string
 * literals: capsule names must outlive the capsule). */
#define TVMFFI_PY_DLPACK_MAJOR 1
#define TVMFFI_PY_DLPACK_MINOR 3
#define TVMFFI_PY_CAPSULE_LEGACY "dltensor"
#define TVMFFI_PY_CAPSULE_VERSIONED "dltensor_versioned"
#define TVMFFI_PY_CAPSULE_USED_LEGACY "used_dltensor"
#define TVMFFI_PY_CAPSULE_USED_VERSIONED "used_dltensor_versioned"

/* tensor_input.c: Python values as tensors */
/* A call argument whose type's record (argtype.c) says it is a tensor
 * (KIND_NUMPY_ARRAY, KIND_EXCHANGE or KIND_DLPACK): a tensor owned by temps
 * (with its exchange API and stream recorded there).  0, or -1 with an error. */
TVMFFI_PY_HIDDEN int tvmffi_py_tensor_arg(tvmffi_py_state *st, PyObject *obj,
                                          const tvmffi_py_type_record *rec, TVMFFIAny *out,
                                          tvmffi_py_temps *temps);
/* tvmffi_py_exchange_to_any (above): a call argument through an exchange
 * API, which convert.c and tvmffi_py_arg_to_any call directly for the last
 * type seen with one. */
/* Consumes a DLPack capsule into a new tensor reference: 0, or -1 with an error. */
TVMFFI_PY_HIDDEN int tvmffi_py_tensor_from_capsule(tvmffi_py_state *st, PyObject *cap,
                                                   int32_t align, int contiguous,
                                                   TVMFFIObjectHandle *out);
/* A capsule or any tensor producer as a new tensor reference (from_dlpack):
 * 1 done, 0 obj is neither (nothing done), -1 error. */
TVMFFI_PY_HIDDEN int tvmffi_py_tensor_from_object(tvmffi_py_state *st, PyObject *obj,
                                                  int32_t align, int contiguous,
                                                  TVMFFIObjectHandle *out);

/* exchange.c: the DLPack C exchange API (type(x).__dlpack_c_exchange_api__) */
/* The validated exchange API published by class tp: 1 (*api set, *owner a
 * new reference that keeps it alive), 0 none (or skipped by the
 * environment), -1 error (a malformed or unsupported table). */
TVMFFI_PY_HIDDEN int tvmffi_py_exchange_lookup(tvmffi_py_state *st, PyTypeObject *tp,
                                               const DLPackExchangeAPI **api, PyObject **owner);
/* Steals *result, a kTVMFFITensor: the producer's own tensor type through
 * api when it can take it back, else a core.Tensor. */
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_exchange_result(tvmffi_py_state *st,
                                                     const DLPackExchangeAPI *api,
                                                     TVMFFIAny *result);
TVMFFI_PY_HIDDEN int tvmffi_py_init_exchange(PyObject *module, tvmffi_py_state *st);

/* argtype.c: what a Python class offers to argument conversion */
/* The record of class tp: the cached one, or (cache full) one filled into
 * *scratch for this conversion only.  NULL with an error when classifying
 * tp raised (nothing is cached then). */
TVMFFI_PY_HIDDEN const tvmffi_py_type_record *tvmffi_py_type_record_of(
    tvmffi_py_state *st, PyTypeObject *tp, tvmffi_py_type_record *scratch);
/* The row of obj's class: 1 obj converted into *out (objects made are owned
 * by temps); 0 no row applies (KIND_NONE); -1 error raised. */
TVMFFI_PY_HIDDEN int tvmffi_py_argtype_to_any(tvmffi_py_state *st, PyObject *obj, TVMFFIAny *out,
                                              tvmffi_py_temps *temps);
TVMFFI_PY_HIDDEN int tvmffi_py_argtype_traverse(tvmffi_py_state *st, visitproc visit, void *arg);
TVMFFI_PY_HIDDEN void tvmffi_py_argtype_clear(tvmffi_py_state *st);

/* cany.c: core.CAny, an owned TVMFFIAny (TypeSchema.convert results). */
TVMFFI_PY_HIDDEN int tvmffi_py_init_cany(PyObject *module, tvmffi_py_state *st);

/* device.c */
TVMFFI_PY_HIDDEN int tvmffi_py_init_device(PyObject *module, tvmffi_py_state *st);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_device_new(tvmffi_py_state *st, DLDevice dev);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_datatype_new(tvmffi_py_state *st, DLDataType dt);
TVMFFI_PY_HIDDEN PyObject *tvmffi_py_dtype_from_dl(tvmffi_py_state *st, DLDataType dt);
/* 1 and *out set when `key` (a numpy dtype or scalar type) was converted lately, else 0. */
TVMFFI_PY_HIDDEN int tvmffi_py_dtype_memo_find(tvmffi_py_state *st, PyObject *key, DLDataType *out);
TVMFFI_PY_HIDDEN void tvmffi_py_dtype_memo_add(tvmffi_py_state *st, PyObject *key, DLDataType dt);
/* Forget every entry (module clear, and when the package sets its dtype class). */
TVMFFI_PY_HIDDEN void tvmffi_py_dtype_memo_clear(tvmffi_py_state *st);
TVMFFI_PY_HIDDEN int tvmffi_py_dtype_memo_traverse(tvmffi_py_state *st, visitproc visit, void *arg);

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

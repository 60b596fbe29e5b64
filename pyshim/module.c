/* module.c: the tvm_ffi.core module object: its state (tvmffi_py_state), the
 * lifecycle of that state (exec, traverse, clear, free) and the table of
 * global functions the extension calls.  Everything else lives in the area
 * files, and each registers its own types and module functions from its
 * init function:
 *
 *   object.c    core.Object, the class table, reflection (_type_info, _field_get ...)
 *   function.c  core.Function, the global function registry
 *   convert.c   Python values <-> FFI values, the convert-call-release loop
 *   argtype.c   what a Python class offers to argument conversion: one cached
 *               record per class, its kind (TVMFFI_PY_KIND_*), the protocol rows
 *   container.c Array / List protocols (core.SeqBase, ArrayBase, ListBase)
 *   map.c       Map / Dict protocols (core.MapBase, DictBase, views, iterator)
 *   device.c    core.Device, core.DataType
 *   error.c     FFI errors <-> Python exceptions
 *   callback.c  Python callables as FFI functions, ffi.OpaquePyObject, exit
 *   tensor.c    core.Tensor, its DLPack export, from_dlpack
 *   tensor_input.c  Python values as tensors: DLPack capsules and __dlpack__,
 *               numpy arrays without a capsule, the DLPack C exchange API
 *   exchange.c  the DLPack C exchange API: the checked table, stream and
 *               allocator around a call, tensors back out; DLTensorTestWrapper
 *   property.c  core.FFIProperty (field descriptor), _alloc_type_index, MISSING, KWARGS
 */
#include "pyshim.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>


/* Names of the TVMFFI_PY_G_* global functions, in enum order. */
static const char *const kGlobalNames[TVMFFI_PY_GLOBAL_COUNT] = {
    "ffi.Map",
    "ffi.Dict",
    "ffi.Shape",
    "ffi.List",
    "ffi.MapCount",
    "ffi.DictCount",
    "ffi.MapGetItemOrMissing",
    "ffi.DictGetItemOrMissing",
    "ffi.DictSetItem",
    "ffi.DictErase",
    "ffi.DictClear",
    "ffi.ListSetItem",
    "ffi.ListAppend",
    "ffi.ListInsert",
    "ffi.ListPop",
    "ffi.ListErase",
    "ffi.ListEraseRange",
    "ffi.ListReplaceSlice",
    "ffi.ListReverse",
    "ffi.ListClear",
    "ffi.GetInvalidObject",
    "ffi.ReprPrint",
};

TVMFFIObjectHandle tvmffi_py_global(tvmffi_py_state *st, int which) {
  TVMFFIObjectHandle h = st->globals[which];
  if (h == NULL) {
    const char *name = kGlobalNames[which];
    TVMFFIByteArray n = {name, strlen(name)};
    int rc = TVMFFIFunctionGetGlobal(&n, &h);
    if (rc != 0) {
      tvmffi_py_raise_from_ffi(st, rc);
      return NULL;
    }
    if (h == NULL) {
      PyErr_Format(PyExc_RuntimeError, "global function `%s` is not registered", name);
      return NULL;
    }
    st->globals[which] = h;
  }
  return h;
}

static tvmffi_py_state *state_of(PyObject *module) {
  return (tvmffi_py_state *)PyModule_GetState(module);
}

int tvmffi_py_check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t lo, Py_ssize_t hi) {
  if (nargs < lo || nargs > hi) {
    if (lo == hi) {
      PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, lo, nargs);
    } else {
      PyErr_Format(PyExc_TypeError, "%s() takes %zd to %zd arguments (%zd given)", name, lo, hi,
                   nargs);
    }
    return -1;
  }
  return 0;
}

PyTypeObject *tvmffi_py_add_type(PyObject *module, PyType_Spec *spec, PyTypeObject *base) {
  PyTypeObject *tp = (PyTypeObject *)PyType_FromModuleAndSpec(module, spec, (PyObject *)base);
  if (tp == NULL) return NULL;
  if (PyModule_AddType(module, tp) != 0) {
    Py_DECREF(tp);
    return NULL;
  }
  return tp;
}

/* _libtvm_ffi_path() -> str: the file libtvm_ffi was loaded from (the
 * library this module was checked against in exec). */
static PyObject *mod_libtvm_ffi_path(PyObject *module, PyObject *unused) {
  Dl_info info;
  (void)module;
  (void)unused;
  if (dladdr((void *)TVMFFIGetVersion, &info) == 0 || info.dli_fname == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "cannot locate libtvm_ffi");
    return NULL;
  }
  return PyUnicode_DecodeFSDefault(info.dli_fname);
}

/* Python dlopen()s this extension RTLD_LOCAL, so libtvm_ffi, loaded as its
 * dependency, serves only it.  A kernel library built with the headers but
 * not linked with -ltvm_ffi needs the TVMFFI* symbols in the global scope:
 * re-opening the loaded library with RTLD_GLOBAL | RTLD_NOLOAD moves it
 * there (as upstream's package does) without loading anything. */
static int promote_libtvm_ffi_to_global(void) {
  Dl_info info;
  void *handle;
  if (dladdr((void *)TVMFFIGetVersion, &info) == 0 || info.dli_fname == NULL) {
    PyErr_SetString(PyExc_ImportError, "cannot locate libtvm_ffi");
    return -1;
  }
  handle = dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
  if (handle == NULL) {
    const char *why = dlerror();
    PyErr_Format(PyExc_ImportError, "cannot make %s global: %s", info.dli_fname,
                 why ? why : "dlopen failed");
    return -1;
  }
  /* The reference is kept: the library stays loaded as long as the process. */
  return 0;
}

/* _dlopen_global(path): loads a shared library RTLD_GLOBAL and keeps it for
 * the life of the process (the package loads libtvm_ffi_testing so, as
 * upstream's extension does by linking it; ctypes would cost its import). */
static PyObject *mod_dlopen_global(PyObject *module, PyObject *arg) {
  PyObject *bytes;
  void *handle;
  (void)module;
  if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
  handle = dlopen(PyBytes_AsString(bytes), RTLD_NOW | RTLD_GLOBAL);
  if (handle == NULL) {
    const char *why = dlerror();
    PyErr_Format(PyExc_OSError, "cannot load %R: %s", arg, why ? why : "dlopen failed");
    Py_DECREF(bytes);
    return NULL;
  }
  Py_DECREF(bytes);
  Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_libtvm_ffi_path", mod_libtvm_ffi_path, METH_NOARGS, NULL},
    {"_dlopen_global", mod_dlopen_global, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

/* ---- state lifecycle ------------------------------------------------------------ */

static int module_traverse(PyObject *module, visitproc visit, void *arg) {
  tvmffi_py_state *st = state_of(module);
  Py_ssize_t i;
  if (st == NULL) return 0;
  Py_VISIT(st->object_type);
  Py_VISIT(st->function_type);
  Py_VISIT(st->device_type);
  Py_VISIT(st->datatype_type);
  Py_VISIT(st->rvalue_ref_type);
  Py_VISIT(st->array_base_type);
  Py_VISIT(st->list_base_type);
  Py_VISIT(st->map_base_type);
  Py_VISIT(st->dict_base_type);
  Py_VISIT(st->seq_iter_type);
  Py_VISIT(st->map_iter_type);
  Py_VISIT(st->map_view_type);
  Py_VISIT(st->abc_sequence);
  for (i = 0; i < TVMFFI_PY_OBJECT_TYPE_CACHE; ++i) Py_VISIT(st->object_types[i]);
  for (i = 0; i < TVMFFI_PY_SMALL_STR_CACHE; ++i) Py_VISIT(st->small_strs[i]);
  Py_VISIT(st->abc_mapping);
  for (i = 0; i < st->num_classes; ++i) Py_VISIT(st->classes[i]);
  Py_VISIT(st->error_name_to_type);
  Py_VISIT(st->error_type_to_name);
  Py_VISIT(st->tb_type);
  Py_VISIT(st->tb_frame_factory);
  Py_VISIT(st->tb_frames);
  Py_VISIT(st->dtype_cls);
  Py_VISIT(st->shape_cls);
  Py_VISIT(st->device_cls);
  Py_VISIT(st->c_void_p);
  {
    int r = tvmffi_py_tensor_traverse(st, visit, arg);
    if (r == 0) r = tvmffi_py_argtype_traverse(st, visit, arg);
    if (r == 0) r = tvmffi_py_dtype_memo_traverse(st, visit, arg);
    if (r != 0) return r;
  }
  return 0;
}

static int module_clear(PyObject *module) {
  tvmffi_py_state *st = state_of(module);
  Py_ssize_t i;
  if (st == NULL) return 0;
  for (i = 0; i < st->num_classes; ++i) {
    st->resolved[i] = NULL;
    Py_CLEAR(st->classes[i]);
  }
  Py_CLEAR(st->object_type);
  Py_CLEAR(st->function_type);
  Py_CLEAR(st->device_type);
  Py_CLEAR(st->datatype_type);
  Py_CLEAR(st->rvalue_ref_type);
  Py_CLEAR(st->array_base_type);
  Py_CLEAR(st->list_base_type);
  Py_CLEAR(st->map_base_type);
  Py_CLEAR(st->dict_base_type);
  Py_CLEAR(st->seq_iter_type);
  Py_CLEAR(st->map_iter_type);
  Py_CLEAR(st->map_view_type);
  Py_CLEAR(st->abc_sequence);
  for (i = 0; i < TVMFFI_PY_OBJECT_TYPE_CACHE; ++i) Py_CLEAR(st->object_types[i]);
  for (i = 0; i < TVMFFI_PY_SMALL_STR_CACHE; ++i) Py_CLEAR(st->small_strs[i]);
  Py_CLEAR(st->abc_mapping);
  Py_CLEAR(st->error_name_to_type);
  Py_CLEAR(st->error_type_to_name);
  Py_CLEAR(st->tb_type);
  Py_CLEAR(st->tb_frame_factory);
  Py_CLEAR(st->tb_frames);
  Py_CLEAR(st->dtype_cls);
  Py_CLEAR(st->shape_cls);
  Py_CLEAR(st->device_cls);
  Py_CLEAR(st->c_void_p);
  tvmffi_py_tensor_clear(st);
  tvmffi_py_argtype_clear(st);
  tvmffi_py_dtype_memo_clear(st);
  Py_CLEAR(st->str_ffi_error);
  Py_CLEAR(st->str_value);
  Py_CLEAR(st->str_dtype_slot);
  Py_CLEAR(st->str_cached);
  Py_CLEAR(st->str_dlpack);
  Py_CLEAR(st->str_ffi_object);
  Py_CLEAR(st->str_name);
  return 0;
}

static void module_free(void *module) {
  tvmffi_py_state *st = state_of((PyObject *)module);
  int i;
  if (st == NULL) return;
  module_clear((PyObject *)module);
  PyMem_Free(st->classes);
  PyMem_Free(st->resolved);
  st->classes = st->resolved = NULL;
  st->num_classes = 0;
  for (i = 0; i < TVMFFI_PY_GLOBAL_COUNT; ++i) {
    TVMFFIObjectDecRef(st->globals[i]);
    st->globals[i] = NULL;
  }
  TVMFFIObjectDecRef(st->missing);
  st->missing = NULL;
}

static int intern(PyObject **slot, const char *s) {
  *slot = PyUnicode_InternFromString(s);
  return *slot == NULL ? -1 : 0;
}

static int module_exec(PyObject *module) {
  tvmffi_py_state *st = state_of(module);
  TVMFFIVersion version;
  st->module = module;
  TVMFFIGetVersion(&version);
  if (version.major != TVM_FFI_VERSION_MAJOR || version.minor < TVM_FFI_VERSION_MINOR) {
    PyErr_Format(PyExc_ImportError,
                 "libtvm_ffi %u.%u.%u is not compatible with tvm_ffi.core built for %d.%d.%d",
                 version.major, version.minor, version.patch, TVM_FFI_VERSION_MAJOR,
                 TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH);
    return -1;
  }
  if (promote_libtvm_ffi_to_global() != 0) return -1;
  if (intern(&st->str_ffi_error, "__tvm_ffi_error__") != 0 ||
      intern(&st->str_value, "value") != 0 ||
      intern(&st->str_dtype_slot, "_tvm_ffi_dtype") != 0 ||
      intern(&st->str_cached, "_tvm_ffi_cached_object") != 0 ||
      intern(&st->str_dlpack, "__dlpack__") != 0 ||
      intern(&st->str_ffi_object, "__tvm_ffi_object__") != 0 ||
      intern(&st->str_name, "__name__") != 0) {
    return -1;
  }
  if (tvmffi_py_init_object(module, st) != 0 || tvmffi_py_init_convert(module, st) != 0 ||
      tvmffi_py_init_function(module, st) != 0 ||
      tvmffi_py_init_container(module, st) != 0 || tvmffi_py_init_map(module, st) != 0 ||
      tvmffi_py_init_device(module, st) != 0 || tvmffi_py_init_error(module, st) != 0 ||
      tvmffi_py_init_callback(module, st) != 0 || tvmffi_py_init_tensor(module, st) != 0 ||
      tvmffi_py_init_property(module, st) != 0 || tvmffi_py_init_cany(module, st) != 0) {
    return -1;
  }
  {
    PyObject *v = Py_BuildValue("(III)", version.major, version.minor, version.patch);
    int rc;
    if (v == NULL) return -1;
    rc = PyModule_AddObjectRef(module, "__ffi_version__", v);
    Py_DECREF(v);
    if (rc != 0) return -1;
  }
  return 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    /* FFI callbacks take the GIL with PyGILState_Ensure, which serves the main
     * interpreter only; and the FFI registries are process-wide. */
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#ifdef Py_mod_gil
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tvm_ffi.core",
    .m_doc = "The tvm_ffi C extension: calls the tvm-ffi C ABI from Python.",
    .m_size = sizeof(tvmffi_py_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit_core(void) { return PyModuleDef_Init(&module_def); }

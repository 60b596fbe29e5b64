/* error.c: FFI errors to Python exceptions and back. */
#include "pyshim.h"

#include <string.h>

static int byte_array_equals(const TVMFFIByteArray *b, const char *s) {
  size_t n = strlen(s);
  return b->size == n && (n == 0 || memcmp(b->data, s, n) == 0);
}

/* The Python exception an ffi.Error came from, if it carries one (borrowed). */
static PyObject *original_exception(TVMFFIObjectHandle err) {
  TVMFFIErrorCell *cell = TVMFFIErrorGetCellPtr(err);
  TVMFFIObjectHandle ctx = cell->extra_context;
  PyObject *exc;
  if (ctx == NULL || TVMFFIObjectGetTypeIndex(ctx) != kTVMFFIOpaquePyObject) return NULL;
  exc = (PyObject *)TVMFFIOpaqueObjectGetCellPtr(ctx)->handle;
  return PyExceptionInstance_Check(exc) ? exc : NULL;
}

void tvmffi_py_raise_from_ffi(tvmffi_py_state *st, int rc) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCell *cell;
  PyObject *cls, *kind, *msg, *exc, *orig, *wrapper;

  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_RuntimeError, "an FFI call failed with code %d but left no error", rc);
    }
    return;
  }
  if (TVMFFIObjectGetTypeIndex(err) != kTVMFFIError) {
    TVMFFIObjectDecRef(err);
    PyErr_SetString(PyExc_RuntimeError, "an FFI call failed and raised a non-Error object");
    return;
  }
  cell = TVMFFIErrorGetCellPtr(err);
  /* The Python error is already set (e.g. KeyboardInterrupt from a signal check). */
  if (byte_array_equals(&cell->kind, "EnvErrorAlreadySet") && PyErr_Occurred()) {
    TVMFFIObjectDecRef(err);
    return;
  }
  PyErr_Clear();
  /* A Python exception that crossed C or C++ comes back as the same object. */
  orig = original_exception(err);
  if (orig != NULL) {
    PyErr_SetRaisedException(Py_NewRef(orig));
    TVMFFIObjectDecRef(err);
    return;
  }
  kind = tvmffi_py_str_from_bytearray(&cell->kind);
  msg = tvmffi_py_str_from_bytearray(&cell->message);
  if (kind == NULL || msg == NULL) {
    Py_XDECREF(kind);
    Py_XDECREF(msg);
    TVMFFIObjectDecRef(err);
    return;
  }
  cls = PyDict_GetItemWithError(st->error_name_to_type, kind); /* borrowed */
  if (cls == NULL) {
    if (PyErr_Occurred()) PyErr_Clear();
    cls = PyExc_RuntimeError;
  }
  exc = tvmffi_py_call1(cls, msg);
  Py_DECREF(kind);
  Py_DECREF(msg);
  if (exc == NULL) {
    TVMFFIObjectDecRef(err);
    return;
  }
  if (!PyExceptionInstance_Check(exc)) {
    Py_DECREF(exc);
    TVMFFIObjectDecRef(err);
    PyErr_SetString(PyExc_TypeError, "a registered error class did not make an exception");
    return;
  }
  wrapper = tvmffi_py_object_wrap(st, err); /* steals err */
  if (wrapper == NULL) {
    Py_DECREF(exc);
    return;
  }
  if (PyObject_SetAttr(exc, st->str_ffi_error, wrapper) != 0) PyErr_Clear();
  Py_DECREF(wrapper);
  PyErr_SetRaisedException(exc);
}

/* The registered kind of exc's class or of its nearest registered base. */
static PyObject *kind_of_exception(tvmffi_py_state *st, PyObject *exc) {
  PyObject *mro = PyObject_GetAttrString((PyObject *)Py_TYPE(exc), "__mro__");
  Py_ssize_t i, n;
  if (mro == NULL) return NULL;
  n = PyTuple_Size(mro);
  for (i = 0; i < n; ++i) {
    PyObject *name = PyDict_GetItemWithError(st->error_type_to_name, PyTuple_GetItem(mro, i));
    if (name != NULL) {
      Py_DECREF(mro);
      return Py_NewRef(name);
    }
    if (PyErr_Occurred()) {
      Py_DECREF(mro);
      return NULL;
    }
  }
  Py_DECREF(mro);
  return PyUnicode_FromString("RuntimeError");
}

/* Python traceback frames as FFI backtrace lines, most recent call first. */
enum { kMaxFrames = 100 };
static PyObject *format_backtrace(PyObject *exc) {
  PyObject *tb = PyException_GetTraceback(exc), *lines, *sep, *res;
  if (tb == NULL) return PyUnicode_FromStringAndSize("", 0);
  lines = PyList_New(0);
  if (lines == NULL) {
    Py_DECREF(tb);
    return NULL;
  }
  while (tb != NULL && tb != Py_None) {
    PyObject *frame = PyObject_GetAttrString(tb, "tb_frame");
    PyObject *lineno = PyObject_GetAttrString(tb, "tb_lineno");
    PyObject *code = frame ? PyObject_GetAttrString(frame, "f_code") : NULL;
    PyObject *file = code ? PyObject_GetAttrString(code, "co_filename") : NULL;
    PyObject *name = code ? PyObject_GetAttrString(code, "co_name") : NULL;
    PyObject *line = NULL, *next;
    if (file && name && lineno) {
      line = PyUnicode_FromFormat("  File \"%U\", line %S, in %U\n", file, lineno, name);
    }
    Py_XDECREF(frame);
    Py_XDECREF(lineno);
    Py_XDECREF(code);
    Py_XDECREF(file);
    Py_XDECREF(name);
    if (line == NULL || PyList_Append(lines, line) != 0) {
      Py_XDECREF(line);
      Py_DECREF(lines);
      Py_DECREF(tb);
      return NULL;
    }
    Py_DECREF(line);
    next = PyObject_GetAttrString(tb, "tb_next");
    Py_DECREF(tb);
    tb = next;
    if (tb == NULL) {
      Py_DECREF(lines);
      return NULL;
    }
  }
  Py_XDECREF(tb);
  /* Most recent call first, at most kMaxFrames of them. */
  if (PyList_Reverse(lines) != 0) {
    Py_DECREF(lines);
    return NULL;
  }
  if (PyList_Size(lines) > kMaxFrames) {
    PyObject *head = PyList_GetSlice(lines, 0, kMaxFrames);
    Py_DECREF(lines);
    if (head == NULL) return NULL;
    lines = head;
  }
  sep = PyUnicode_FromStringAndSize("", 0);
  if (sep == NULL) {
    Py_DECREF(lines);
    return NULL;
  }
  res = PyUnicode_Join(sep, lines);
  Py_DECREF(sep);
  Py_DECREF(lines);
  return res;
}

static int utf8_of(PyObject *s, TVMFFIByteArray *out) {
  Py_ssize_t n;
  const char *data = PyUnicode_AsUTF8AndSize(s, &n);
  if (data == NULL) return -1;
  out->data = data;
  out->size = (size_t)n;
  return 0;
}

/* A new ffi.Error for a Python exception.  Its extra_context holds the
 * exception itself, so that it comes back to Python as the same object; an
 * exception that came from FFI keeps its Error as the cause. */
int tvmffi_py_exception_to_error(tvmffi_py_state *st, PyObject *exc, TVMFFIObjectHandle *out) {
  PyObject *kind = NULL, *msg = NULL, *bt = NULL, *prev = NULL;
  TVMFFIObjectHandle cause = NULL, ctx = NULL;
  TVMFFIByteArray k, m, b;
  int rc = -1;

  prev = PyObject_GetAttr(exc, st->str_ffi_error);
  if (prev == NULL) {
    PyErr_Clear();
  } else if (PyObject_TypeCheck(prev, st->object_type) &&
             ((tvmffi_py_object *)prev)->handle != NULL &&
             TVMFFIObjectGetTypeIndex(((tvmffi_py_object *)prev)->handle) == kTVMFFIError) {
    TVMFFIErrorCell *cell;
    cause = ((tvmffi_py_object *)prev)->handle;
    cell = TVMFFIErrorGetCellPtr(cause);
    kind = tvmffi_py_str_from_bytearray(&cell->kind);
  }
  if (kind == NULL) {
    if (PyErr_Occurred()) goto done;
    kind = kind_of_exception(st, exc);
    if (kind == NULL) goto done;
  }
  msg = PyObject_Str(exc);
  if (msg == NULL) goto done;
  bt = format_backtrace(exc);
  if (bt == NULL) goto done;
  if (utf8_of(kind, &k) != 0 || utf8_of(msg, &m) != 0 || utf8_of(bt, &b) != 0) goto done;
  if (tvmffi_py_make_opaque(exc, &ctx) != 0) goto done;
  if (TVMFFIErrorCreateWithCauseAndExtraContext(&k, &m, &b, cause, ctx, out) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIObjectDecRef(err);
    PyErr_NoMemory();
    goto done;
  }
  rc = 0;
done:
  TVMFFIObjectDecRef(ctx);
  Py_XDECREF(prev);
  Py_XDECREF(kind);
  Py_XDECREF(msg);
  Py_XDECREF(bt);
  return rc;
}

/* Moves the pending Python exception into this thread's FFI error slot. */
void tvmffi_py_set_ffi_error_from_python(tvmffi_py_state *st) {
  PyObject *exc = PyErr_GetRaisedException();
  TVMFFIObjectHandle err = NULL;
  if (exc == NULL) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "a Python callback failed without an exception");
    return;
  }
  if (tvmffi_py_exception_to_error(st, exc, &err) != 0) {
    PyObject *inner = PyErr_GetRaisedException();
    Py_XDECREF(inner);
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "a Python callback raised an exception that "
                                                 "could not be converted to an FFI error");
    Py_DECREF(exc);
    return;
  }
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
  Py_DECREF(exc);
}

/* ---- module functions of this file -------------------------------------------- */

/* _error_info(err) -> (kind, message, backtrace) */
static PyObject *mod_error_info(PyObject *module, PyObject *obj) {
  TVMFFIObjectHandle h = tvmffi_py_handle_of(tvmffi_py_module_state(module), obj);
  TVMFFIErrorCell *cell;
  if (h == NULL) return NULL;
  if (TVMFFIObjectGetTypeIndex(h) != kTVMFFIError) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Error, got %R", obj);
    return NULL;
  }
  cell = TVMFFIErrorGetCellPtr(h);
  return Py_BuildValue("(NNN)", tvmffi_py_str_from_bytearray(&cell->kind), tvmffi_py_str_from_bytearray(&cell->message),
                       tvmffi_py_str_from_bytearray(&cell->backtrace));
}

/* _register_error(kind, cls) */
static PyObject *mod_register_error(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  if (tvmffi_py_check_nargs("_register_error", nargs, 2, 2) != 0) return NULL;
  if (!PyUnicode_Check(args[0])) {
    PyErr_Format(PyExc_TypeError, "an error kind must be a str, got %R", args[0]);
    return NULL;
  }
  if (!PyType_Check(args[1]) ||
      !PyType_IsSubtype((PyTypeObject *)args[1], (PyTypeObject *)PyExc_BaseException)) {
    PyErr_Format(PyExc_TypeError, "%R is not an exception class", args[1]);
    return NULL;
  }
  if (PyDict_SetItem(st->error_name_to_type, args[0], args[1]) != 0 ||
      PyDict_SetItem(st->error_type_to_name, args[1], args[0]) != 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyMethodDef error_functions[] = {
    {"_error_info", mod_error_info, METH_O, NULL},
    {"_register_error", TVMFFI_PY_METH(mod_register_error), METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_error(PyObject *module, tvmffi_py_state *st) {
  static const char *names[] = {"RuntimeError", "ValueError",     "TypeError",
                                "AttributeError", "KeyError",     "IndexError",
                                "AssertionError", "MemoryError",  "OverflowError",
                                "NotImplementedError", "ZeroDivisionError", NULL};
  PyObject *classes[] = {PyExc_RuntimeError, PyExc_ValueError,     PyExc_TypeError,
                         PyExc_AttributeError, PyExc_KeyError,     PyExc_IndexError,
                         PyExc_AssertionError, PyExc_MemoryError,  PyExc_OverflowError,
                         PyExc_NotImplementedError, PyExc_ZeroDivisionError};
  int i;
  st->error_name_to_type = PyDict_New();
  st->error_type_to_name = PyDict_New();
  if (st->error_name_to_type == NULL || st->error_type_to_name == NULL) return -1;
  for (i = 0; names[i] != NULL; ++i) {
    PyObject *name = PyUnicode_InternFromString(names[i]);
    if (name == NULL) return -1;
    if (PyDict_SetItem(st->error_name_to_type, name, classes[i]) != 0 ||
        PyDict_SetItem(st->error_type_to_name, classes[i], name) != 0) {
      Py_DECREF(name);
      return -1;
    }
    Py_DECREF(name);
  }
  if (PyModule_AddObjectRef(module, "ERROR_NAME_TO_TYPE", st->error_name_to_type) != 0 ||
      PyModule_AddObjectRef(module, "ERROR_TYPE_TO_NAME", st->error_type_to_name) != 0) {
    return -1;
  }
  if (PyModule_AddFunctions(module, error_functions) != 0) return -1;
  return 0;
}

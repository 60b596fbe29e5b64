/* error.c: FFI errors to Python exceptions and back. */
#include "pyshim.h"

#include <string.h>

static int byte_array_equals(const TVMFFIByteArray *b, const char *s) {
  size_t n = strlen(s);
  return b->size == n && (n == 0 || memcmp(b->data, s, n) == 0);
}

/* The deleter of the errors libtvm_ffi makes (set at module init). */
static void (*library_error_deleter)(void *, int) = NULL;

/* Whether err's cell has cause_chain and extra_context (v0.1.8 and later).
 * Errors libtvm_ffi makes do.  An error object made by another library's own
 * code (apache-tvm-ffi's C++ headers allocate it in the kernel) may have the
 * 56-byte cell of 0.1.0-0.1.7, followed by that code's own members
 * (abi-v0.1.md, 2.7); the cell has no size or version field to tell, so the
 * trailing fields of such an error are never read. */
static int has_v018_fields(TVMFFIObjectHandle err) {
  return library_error_deleter != NULL &&
         TVM_FFI_OBJECT_DELETER((TVMFFIObject *)err) == library_error_deleter;
}

/* The type index of ffi.VisitErrorContext, or -1 when it is not registered. */
static int32_t visit_error_context_index(void) {
  static int32_t index = -2;
  if (index == -2) {
    static const char kKey[] = "ffi.VisitErrorContext";
    TVMFFIByteArray key = {kKey, sizeof(kKey) - 1};
    int32_t found = -1;
    if (TVMFFITypeKeyToIndex(&key, &found) != 0) {
      TVMFFIObjectHandle ignored = NULL;
      TVMFFIErrorMoveFromRaised(&ignored);
      if (ignored != NULL) TVMFFIObjectDecRef(ignored);
      found = -1;
    }
    index = found;
  }
  return index;
}

/* The Python exception an ffi.Error came from, if it carries one (borrowed). */
static PyObject *original_exception(TVMFFIObjectHandle err) {
  TVMFFIErrorCell *cell = TVMFFIErrorGetCellPtr(err);
  TVMFFIObjectHandle ctx;
  PyObject *exc;
  if (!has_v018_fields(err)) return NULL;
  ctx = cell->extra_context;
  /* A structural walk wraps the context in ffi.VisitErrorContext chains; the
   * earlier context is its prev_error_context (at header + 32). */
  while (ctx != NULL && visit_error_context_index() >= 0 &&
         TVMFFIObjectGetTypeIndex(ctx) == visit_error_context_index()) {
    ctx = *(TVMFFIObjectHandle *)((char *)ctx + sizeof(TVMFFIObject) + sizeof(void *));
  }
  if (ctx == NULL || TVMFFIObjectGetTypeIndex(ctx) != kTVMFFIOpaquePyObject) return NULL;
  exc = (PyObject *)TVMFFIOpaqueObjectGetCellPtr(ctx)->handle;
  return PyExceptionInstance_Check(exc) ? exc : NULL;
}

/* ---- Native frames in Python tracebacks ------------------------------------
 *
 * An FFI error's backtrace is text, most recent call first (abi-v0.1.md
 * §6.6).  Each of its lines becomes a traceback entry whose frame's code
 * carries the line's file and function name, so traceback.print_exc() and
 * pytest show the native frames between the Python frames, in call order.
 * A frame per line is made once (by tvm_ffi.error._native_frame, from the
 * code of a generator that never runs, so it refers to no caller) and kept
 * in st->tb_frames. */

enum { kMaxCachedFrames = 4096 };

/* (frame, lineno) for one backtrace line, or Py_None if the line is not in
 * the §6.6 form (borrowed; NULL with an exception set on failure). */
static PyObject *frame_for_line(tvmffi_py_state *st, const char *line, size_t n) {
  static const char kFile[] = "  File \"", kLine[] = "\", line ", kIn[] = ", in ";
  PyObject *key, *entry, *file = NULL, *func = NULL, *frame = NULL;
  const char *p, *end = line + n, *file_end = NULL, *num, *func_begin = NULL;
  long lineno = 0;
  int rc;

  key = PyUnicode_DecodeUTF8(line, (Py_ssize_t)n, "replace");
  if (key == NULL) return NULL;
  entry = PyDict_GetItemWithError(st->tb_frames, key);
  if (entry != NULL || PyErr_Occurred()) {
    Py_DECREF(key);
    return entry;
  }
  /* Parse `  File "<file>", line <n>, in <func>`. */
  if (n > sizeof(kFile) - 1 && memcmp(line, kFile, sizeof(kFile) - 1) == 0) {
    for (p = line + sizeof(kFile) - 1; p + sizeof(kLine) - 1 <= end; ++p) {
      if (memcmp(p, kLine, sizeof(kLine) - 1) == 0) {
        file_end = p;
        break;
      }
    }
  }
  if (file_end != NULL) {
    num = file_end + sizeof(kLine) - 1;
    for (p = num; p < end && *p >= '0' && *p <= '9'; ++p) {
      if (lineno < 100000000) lineno = lineno * 10 + (*p - '0');
    }
    if (p > num && (size_t)(end - p) >= sizeof(kIn) - 1 &&
        memcmp(p, kIn, sizeof(kIn) - 1) == 0) {
      func_begin = p + sizeof(kIn) - 1;
    }
  }
  if (func_begin == NULL) {
    entry = Py_None;
  } else {
    const char *file_begin = line + sizeof(kFile) - 1;
    file = PyUnicode_DecodeUTF8(file_begin, file_end - file_begin, "replace");
    func = file ? PyUnicode_DecodeUTF8(func_begin, end - func_begin, "replace") : NULL;
    frame = func ? PyObject_CallFunctionObjArgs(st->tb_frame_factory, file, func, NULL) : NULL;
    entry = frame ? Py_BuildValue("(Ol)", frame, lineno) : NULL;
    Py_XDECREF(file);
    Py_XDECREF(func);
    Py_XDECREF(frame);
    if (entry == NULL) {
      Py_DECREF(key);
      return NULL;
    }
  }
  /* Distinct lines are few (frames of code that raises); a program that
   * makes many (generated code) only refills the cache. */
  if (PyDict_Size(st->tb_frames) >= kMaxCachedFrames) PyDict_Clear(st->tb_frames);
  rc = PyDict_SetItem(st->tb_frames, key, entry);
  if (entry != Py_None) Py_DECREF(entry); /* the dict keeps it (or it failed) */
  Py_DECREF(key);
  return rc == 0 ? entry : NULL;
}

/* A new traceback: one entry per line of text[0:size] (outermost first),
 * followed by `tail` (the deeper entries, or None).  Returns a new reference;
 * `tail` itself when tracebacks are not set up or the text has no line. */
static PyObject *native_traceback(tvmffi_py_state *st, const char *text, size_t size,
                                  PyObject *tail) {
  PyObject *tb = Py_NewRef(tail);
  const char *p = text, *end = text + size;
  if (st->tb_type == NULL || st->tb_frame_factory == NULL || st->tb_frames == NULL) return tb;
  /* Lines are most recent call first: wrap from the innermost outwards. */
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    PyObject *entry = frame_for_line(st, p, (size_t)(line_end - p));
    p = nl ? nl + 1 : end;
    if (entry == NULL) {
      Py_DECREF(tb);
      return NULL;
    }
    if (entry != Py_None) {
      PyObject *args[4], *lasti = PyLong_FromLong(-1), *next;
      if (lasti == NULL) {
        Py_DECREF(tb);
        return NULL;
      }
      args[0] = tb;
      args[1] = PyTuple_GetItem(entry, 0);
      args[2] = lasti;
      args[3] = PyTuple_GetItem(entry, 1);
      next = PyObject_Vectorcall(st->tb_type, args, 4, NULL);
      Py_DECREF(lasti);
      Py_DECREF(tb);
      if (next == NULL) return NULL;
      tb = next;
    }
  }
  return tb;
}

/* Puts the frames of text in front of exc's traceback.  Failures are
 * swallowed: a traceback without native frames beats losing the error. */
static void splice_native_frames(tvmffi_py_state *st, PyObject *exc, const char *text,
                                 size_t size) {
  PyObject *old, *tb;
  if (size == 0 || st->tb_type == NULL) return;
  old = PyException_GetTraceback(exc);
  tb = native_traceback(st, text, size, old ? old : Py_None);
  Py_XDECREF(old);
  if (tb == NULL) {
    PyErr_Clear();
    return;
  }
  if (PyException_SetTraceback(exc, tb) != 0) PyErr_Clear();
  Py_DECREF(tb);
}

static PyObject *format_backtrace(PyObject *exc);

/* A Python exception coming back from C++ through `err` (whose extra_context
 * holds it): put the native frames it crossed in front of its traceback, and
 * attach a copy of err without the context (err -> exc -> err would be a
 * cycle the garbage collector cannot see through). */
static void annotate_returning_exception(tvmffi_py_state *st, PyObject *exc,
                                         TVMFFIObjectHandle err) {
  TVMFFIErrorCell *cell = TVMFFIErrorGetCellPtr(err);
  TVMFFIObjectHandle copy = NULL;
  PyObject *py_part, *wrapper;
  Py_ssize_t n = 0;
  const char *py_text;

  /* The backtrace starts with the Python frames the exception had when it
   * entered C++; what follows was added by the C++ layers it crossed. */
  py_part = format_backtrace(exc);
  py_text = py_part ? PyUnicode_AsUTF8AndSize(py_part, &n) : NULL;
  if (py_text != NULL && (size_t)n <= cell->backtrace.size &&
      memcmp(cell->backtrace.data, py_text, (size_t)n) == 0) {
    splice_native_frames(st, exc, cell->backtrace.data + n, cell->backtrace.size - (size_t)n);
  }
  Py_XDECREF(py_part);
  PyErr_Clear();
  if (TVMFFIErrorCreateWithCauseAndExtraContext(&cell->kind, &cell->message, &cell->backtrace,
                                                cell->cause_chain, NULL, &copy) != 0) {
    return;
  }
  wrapper = tvmffi_py_object_wrap(st, copy); /* steals copy */
  if (wrapper == NULL || PyObject_SetAttr(exc, st->str_ffi_error, wrapper) != 0) PyErr_Clear();
  Py_XDECREF(wrapper);
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
    Py_INCREF(orig);
    annotate_returning_exception(st, orig, err);
    PyErr_SetRaisedException(orig);
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
  splice_native_frames(st, exc, cell->backtrace.data, cell->backtrace.size);
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
  {
    /* The native frames that called this callback, up to their own caller. */
    const TVMFFIByteArray *callers = TVMFFIBacktrace(NULL, 0, NULL, 2);
    TVMFFIErrorCell *cell = TVMFFIErrorGetCellPtr(err);
    if (callers != NULL && callers->size != 0) {
      cell->update_backtrace(err, callers, kTVMFFIBacktraceUpdateModeAppend);
    }
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

/* _error_extra_context(err): the error's extra context converted as a call
 * result (a new reference), or None when it has none (or its cell may not
 * have that field). */
static PyObject *mod_error_extra_context(PyObject *module, PyObject *obj) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  TVMFFIObjectHandle h = tvmffi_py_handle_of(st, obj), ctx;
  TVMFFIAny value;
  if (h == NULL) return NULL;
  if (TVMFFIObjectGetTypeIndex(h) != kTVMFFIError) {
    PyErr_Format(PyExc_TypeError, "expected an ffi.Error, got %R", obj);
    return NULL;
  }
  /* An error made by other code may have no extra_context field (has_v018_fields). */
  if (!has_v018_fields(h)) Py_RETURN_NONE;
  ctx = TVMFFIErrorGetCellPtr(h)->extra_context;
  if (ctx == NULL) Py_RETURN_NONE;
  memset(&value, 0, sizeof(value));
  value.type_index = TVMFFIObjectGetTypeIndex(ctx);
  value.v_obj = (TVMFFIObject *)ctx;
  TVMFFIObjectIncRef(ctx);
  return tvmffi_py_from_any(st, &value);
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

/* _set_traceback_factory(TracebackType, factory): factory(file, func) makes
 * the frame object for a native frame. */
static PyObject *mod_set_traceback_factory(PyObject *module, PyObject *const *args,
                                           Py_ssize_t nargs) {
  tvmffi_py_state *st = tvmffi_py_module_state(module);
  PyObject *frames;
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "_set_traceback_factory expects 2 arguments, got %zd", nargs);
    return NULL;
  }
  if (!PyType_Check(args[0]) || !PyCallable_Check(args[1])) {
    PyErr_Format(PyExc_TypeError, "_set_traceback_factory expects a type and a callable, got "
                 "%R and %R", args[0], args[1]);
    return NULL;
  }
  frames = PyDict_New();
  if (frames == NULL) return NULL;
  Py_CLEAR(st->tb_frames);
  Py_CLEAR(st->tb_type);
  Py_CLEAR(st->tb_frame_factory);
  st->tb_frames = frames;
  st->tb_type = Py_NewRef(args[0]);
  st->tb_frame_factory = Py_NewRef(args[1]);
  Py_RETURN_NONE;
}

static PyMethodDef error_functions[] = {
    {"_error_info", mod_error_info, METH_O, NULL},
    {"_error_extra_context", mod_error_extra_context, METH_O, NULL},
    {"_register_error", TVMFFI_PY_METH(mod_register_error), METH_FASTCALL, NULL},
    {"_set_traceback_factory", TVMFFI_PY_METH(mod_set_traceback_factory), METH_FASTCALL,
     "Installs the maker of native frames for tracebacks."},
    {NULL, NULL, 0, NULL}};

int tvmffi_py_init_error(PyObject *module, tvmffi_py_state *st) {
  if (PyModule_AddFunctions(module, error_functions) != 0) return -1;
  if (library_error_deleter == NULL) {
    TVMFFIByteArray empty = {"", 0};
    TVMFFIObjectHandle probe = NULL;
    if (TVMFFIErrorCreate(&empty, &empty, &empty, &probe) != 0) {
      PyErr_SetString(PyExc_MemoryError, "cannot create an ffi.Error");
      return -1;
    }
    library_error_deleter = TVM_FFI_OBJECT_DELETER((TVMFFIObject *)probe);
    TVMFFIObjectDecRef(probe);
  }
  static const char *names[] = {"RuntimeError", "ValueError",     "TypeError",
                                "AttributeError", "KeyError",     "IndexError",
                                "AssertionError", "MemoryError",  "OverflowError",
                                "NotImplementedError", "ZeroDivisionError", "RecursionError",
                                NULL};
  PyObject *classes[] = {PyExc_RuntimeError, PyExc_ValueError,     PyExc_TypeError,
                         PyExc_AttributeError, PyExc_KeyError,     PyExc_IndexError,
                         PyExc_AssertionError, PyExc_MemoryError,  PyExc_OverflowError,
                         PyExc_NotImplementedError, PyExc_ZeroDivisionError,
                         PyExc_RecursionError};
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

"""FFI error kinds and the Python exception classes they map to."""
import types

from . import core

ERROR_NAME_TO_TYPE = core.ERROR_NAME_TO_TYPE
ERROR_TYPE_TO_NAME = core.ERROR_TYPE_TO_NAME


def register_error(name_or_cls=None, cls=None):
    """Map an FFI error kind to a Python exception class (both directions).

    Forms::

        @register_error               # kind = the class name
        class MyError(RuntimeError): ...

        @register_error("mylib.MyError")
        class MyError(RuntimeError): ...

        register_error("mylib.MyError", MyError)

    An FFI error of that kind raises ``MyError(message)`` in Python; a
    ``MyError`` raised by a Python callback reaches C++ with that kind.
    """
    if isinstance(name_or_cls, type) and cls is None:
        core._register_error(name_or_cls.__name__, name_or_cls)
        return name_or_cls

    def register(mycls):
        name = name_or_cls if name_or_cls is not None else mycls.__name__
        core._register_error(name, mycls)
        return mycls

    if cls is not None:
        return register(cls)
    return register


# Native frames in Python tracebacks ------------------------------------------
#
# An FFI error raised into Python carries its native frames (file, line and
# function of each) as traceback entries after the Python frame that made the
# call.  A traceback entry needs a frame object; this makes one whose code
# has the native frame's file and function name.  It is the frame of a
# generator that is never started, so it holds no reference to any caller.
# The extension calls this once per distinct backtrace line and keeps the
# result.


def _native_frame_template():
    yield  # pragma: no cover - never runs


_FRAME_CODE = _native_frame_template.__code__
_FRAME_GLOBALS = {"__name__": "tvm_ffi.native", "__builtins__": {}}


def _native_frame(filename, funcname):
    code = _FRAME_CODE.replace(co_filename=filename, co_name=funcname, co_qualname=funcname)
    return types.FunctionType(code, _FRAME_GLOBALS)().gi_frame


core._set_traceback_factory(types.TracebackType, _native_frame)


class TracebackManager:
    """Makes traceback entries for native frames (upstream's name):
    ``append_traceback(tb, filename, lineno, func)`` returns a new traceback
    whose first entry is ``func`` at ``filename:lineno`` and whose rest is
    ``tb`` (may be None).  Frames are cached per (filename, func)."""

    def __init__(self) -> None:
        self._frames = {}

    def _create_frame(self, filename: str, lineno: int, func: str) -> types.FrameType:
        key = (filename, func)
        frame = self._frames.get(key)
        if frame is None:
            frame = self._frames[key] = _native_frame(filename, func)
        return frame

    def append_traceback(self, tb, filename: str, lineno: int, func: str) -> types.TracebackType:
        if not isinstance(lineno, int) or lineno < 0:
            raise ValueError(f"lineno must be a non-negative int, got {lineno!r}")
        frame = self._create_frame(str(filename), lineno, str(func))
        return types.TracebackType(tb, frame, frame.f_lasti, lineno)


def _parse_backtrace(backtrace: str) -> list:
    """The ``(filename, lineno, function)`` of each ``File "f", line n, in fn``
    line of a backtrace, in order; other lines are skipped."""
    import re  # noqa: PLC0415

    out = []
    for m in re.finditer(r'File "([^"]*)", line (\d+), in (.+)$', backtrace, re.M):
        out.append((m.group(1), int(m.group(2)), m.group(3).strip()))
    return out

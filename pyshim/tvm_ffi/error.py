"""FFI error kinds and the Python exception classes they map to."""
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

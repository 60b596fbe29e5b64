"""Helpers for packages built on tvm_ffi (upstream's ``tvm_ffi.utils``):
``FileLock`` (a cross-process advisory lock), ``kwargs_wrapper`` (Python
signatures with keywords and defaults over positional-only FFI functions)
and ``unpack_dataclass`` (dataclasses to tuples for FFI calls)."""
from . import kwargs_wrapper, unpack_dataclass
from .lockfile import FileLock

__all__ = ["FileLock", "kwargs_wrapper", "unpack_dataclass"]

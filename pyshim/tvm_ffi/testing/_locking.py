"""``run_with_gpu_lock``: one test process at a time on the GPU.

Test processes running side by side (pytest-xdist workers, several suites on
one machine) take an exclusive lock (:class:`tvm_ffi.utils.FileLock`) on one
lock file before GPU work and drop it after.  The lock file lives in ``$TVM_FFI_TEST_LOCK_DIR`` when
set, else in ``<tmpdir>/tvm-ffi-test-locks``; the lock is per process and
re-entrant within it (a nested call does not wait for itself).
"""
from __future__ import annotations

import os
import tempfile
import threading

_LOCK_DIR_ENV = "TVM_FFI_TEST_LOCK_DIR"
_depth = 0
_mutex = threading.RLock()  # threads of this process queue here, not on flock


def gpu_lock_path() -> str:
    """The lock file's path (its directory is created if missing)."""
    directory = os.environ.get(_LOCK_DIR_ENV) or os.path.join(
        tempfile.gettempdir(), "tvm-ffi-test-locks"
    )
    os.makedirs(directory, exist_ok=True)
    return os.path.join(directory, "gpu.lock")


def run_with_gpu_lock(func, /, *args, **kwargs):
    """Call ``func(*args, **kwargs)`` holding the GPU lock; return its result.

    Exceptions of ``func`` propagate after the lock is released.
    """
    from ..utils.lockfile import FileLock  # noqa: PLC0415

    global _depth
    if not callable(func):
        raise TypeError(f"run_with_gpu_lock needs a callable, got {func!r}")
    with _mutex:
        if _depth > 0:  # already held by this thread: re-enter
            _depth += 1
            try:
                return func(*args, **kwargs)
            finally:
                _depth -= 1
        with FileLock(gpu_lock_path()):
            _depth = 1
            try:
                return func(*args, **kwargs)
            finally:
                _depth = 0

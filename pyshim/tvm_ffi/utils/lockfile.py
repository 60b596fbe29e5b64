"""``FileLock``: an exclusive advisory lock on a file (``flock``), shared by
every process that locks the same path.  It is not re-entrant: one instance
holds the lock at most once."""
from __future__ import annotations

import os
import time


class FileLock:
    """An exclusive lock on ``lock_file_path`` (created if missing)::

        with FileLock("/tmp/build.lock"):
            ...  # one process at a time

    ``acquire()`` tries once and returns whether it got the lock;
    ``blocking_acquire(timeout=None)`` waits (TimeoutError after ``timeout``
    seconds); ``release()`` unlocks.  The open descriptor is
    ``_file_descriptor`` (None while the lock is not held).
    """

    def __init__(self, lock_file_path: str) -> None:
        self.lock_file_path = os.fspath(lock_file_path)
        self._file_descriptor: int | None = None

    def __enter__(self) -> FileLock:
        self.blocking_acquire()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> bool:
        self.release()
        return False

    def _open(self) -> int:
        return os.open(self.lock_file_path, os.O_RDWR | os.O_CREAT, 0o666)

    def acquire(self) -> bool:
        """Take the lock if no one holds it; False if another process (or this
        instance already) holds it."""
        import fcntl

        if self._file_descriptor is not None:
            return False
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except OSError as e:
            os.close(fd)
            raise RuntimeError(f"cannot lock {self.lock_file_path!r}: {e}") from e
        self._file_descriptor = fd
        return True

    def blocking_acquire(self, timeout: float | None = None, poll_interval: float = 0.1) -> bool:
        """Wait for the lock; with ``timeout`` (seconds), TimeoutError when it
        is not free by then.  RuntimeError if this instance holds it already."""
        import fcntl

        if self._file_descriptor is not None:
            raise RuntimeError(f"FileLock({self.lock_file_path!r}) is already held by this instance")
        if timeout is None:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # the kernel queues the waiters
            except BaseException:
                os.close(fd)
                raise
            self._file_descriptor = fd
            return True
        deadline = time.monotonic() + timeout
        while not self.acquire():
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    f"Failed to acquire lock on '{self.lock_file_path}' after {timeout} seconds."
                )
            time.sleep(poll_interval)
        return True

    def release(self) -> None:
        """Unlock and close; nothing when the lock is not held."""
        import fcntl

        fd, self._file_descriptor = self._file_descriptor, None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

"""The GIL: released around long C calls when asked, and callbacks from
native threads that C code waits for."""
import threading
import time

import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (loads testing.*)


def _sleep_fn(release):
    f = tvm_ffi.get_global_func("testing.py_sleep_ms")
    f.release_gil = release
    return f


def _spins_during_sleep(release):
    """How often another Python thread ran while a 300 ms C call was
    certainly in progress.  The spinner stamps the time every 256 turns.
    The call started at some s with t0 <= s <= t1 - 0.3 (t0 taken before the
    call, t1 after it returned), so it certainly covered [t1 - 0.3, t0 + 0.3]:
    only stamps inside that window count.  Counting by time keeps the result
    free of how long the caller waits for the GIL around the call, which is
    long on a loaded machine.  Returns (stamps in the window, its length)."""
    sleep = _sleep_fn(release)
    stamps = []
    stop = threading.Event()

    def spin():
        turns = 0
        while not stop.is_set():
            turns += 1
            if turns % 256 == 0:
                stamps.append(time.monotonic())

    th = threading.Thread(target=spin)
    th.start()
    try:
        time.sleep(0.01)
        t0 = time.monotonic()
        sleep(300)
        t1 = time.monotonic()
    finally:
        stop.set()
        th.join()
    lo, hi = t1 - 0.3 + 0.005, t0 + 0.3 - 0.005
    return sum(1 for t in stamps if lo < t < hi), hi - lo


def _spins_in_a_long_window(release):
    # A very loaded machine can delay the call's start so much that the
    # window shrinks; take the first attempt with at least 100 ms of it.
    for _ in range(5):
        count, window = _spins_during_sleep(release)
        if window >= 0.1:
            return count
    raise AssertionError("the 300 ms call never had a 100 ms window in 5 attempts")


def test_long_c_call_with_release_gil_lets_python_threads_run():
    # Released: the other thread runs through the call.  Held: no Python
    # code can run anywhere while the caller sits in C holding the GIL.
    assert _spins_in_a_long_window(True) > 10
    assert _spins_in_a_long_window(False) == 0


def test_c_waits_for_native_thread_calling_python():
    call_in_thread = tvm_ffi.get_global_func("testing.py_call_in_thread")
    call_in_thread.release_gil = True
    tids = []

    def cb(x):
        tids.append(threading.get_ident())
        return x * 2

    assert call_in_thread(cb, 21) == 42
    assert tids and tids[0] != threading.get_ident()
    for i in range(100):
        assert call_in_thread(cb, i) == 2 * i


def test_callbacks_from_many_python_threads():
    call_in_thread = tvm_ffi.get_global_func("testing.py_call_in_thread")
    call_in_thread.release_gil = True
    results = []
    lock = threading.Lock()

    def worker(k):
        for i in range(200):
            r = call_in_thread(lambda x: x + k, i)
            with lock:
                results.append(r == i + k)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(results) == 800 and all(results)


def test_objects_released_on_native_threads():
    call_in_thread = tvm_ffi.get_global_func("testing.py_call_in_thread")
    call_in_thread.release_gil = True

    class Thing:
        pass

    thing = Thing()
    before = __import__("sys").getrefcount(thing)
    # The worker thread receives an opaque object and a callback and drops them.
    for _ in range(100):
        call_in_thread(lambda x: None, thing)
    assert __import__("sys").getrefcount(thing) == before

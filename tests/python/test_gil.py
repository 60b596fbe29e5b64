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
    sleep = _sleep_fn(release)
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    th = threading.Thread(target=spin)
    th.start()
    try:
        time.sleep(0.01)
        start = counter[0]
        sleep(300)
        during = counter[0] - start
    finally:
        stop.set()
        th.join()
    return during


def test_long_c_call_with_release_gil_lets_python_threads_run():
    released = _spins_during_sleep(True)
    held = _spins_during_sleep(False)
    # Released: the other thread spins for the whole 300 ms.  Held: it only
    # runs around the switches in and out of the call (a few ms at most).
    assert released > 1000
    assert held * 5 < released, (held, released)


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

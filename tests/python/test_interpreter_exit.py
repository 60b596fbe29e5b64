"""Interpreter exit while native threads call into Python.

Native threads (tests/python/kernels/exit_threads_kernel.c) keep calling a
Python callback, dropping the FFI objects it returns (which hold Python
objects) and polling TVMFFIEnvCheckSignals(), while the main thread exits.
Every run must end cleanly: exit code 0, no "Fatal Python error", no
"terminate called".  Before the exit gate in pyshim/callback.c about a third
of such runs aborted.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import time

import pytest

from tvm_ffi import libinfo

KERNEL_SRC = pathlib.Path(__file__).parent / "kernels" / "exit_threads_kernel.c"
RUNS = int(os.environ.get("TVM_FFI_TEST_EXIT_RUNS", "30"))


@pytest.fixture(scope="module")
def kernel_lib(tmp_path_factory):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler (cc or gcc) to build the test kernel")
    out = tmp_path_factory.mktemp("exit_kernel") / "libexit_threads_kernel.so"
    subprocess.run([cc, "-O1", "-std=c11", "-shared", "-fPIC", "-pthread",
                    "-I", libinfo.find_include_path(), str(KERNEL_SRC), "-o", str(out),
                    "-L", libinfo.find_lib_dir(), "-l:" + os.path.basename(libinfo.find_libtvm_ffi()),
                    "-Wl,-rpath," + libinfo.find_lib_dir()],
                   check=True)
    return str(out)


# argv: kernel library, seconds to let the threads run, number of threads.
SCRIPT = textwrap.dedent("""
    import ctypes, sys, time
    import numpy as np
    import tvm_ffi

    lib = ctypes.CDLL(sys.argv[1])
    start = tvm_ffi.get_global_func("ffi.FunctionFromExternC")(
        None, ctypes.cast(lib.exit_threads_start, ctypes.c_void_p), None)

    def callback():
        # An ffi.Array holding an ffi.OpaquePyObject, an ffi.Function over a
        # Python callable and a tensor over a numpy array's buffer: the
        # native thread releases all three.
        return (object(), lambda: None, np.zeros(2))

    assert start(callback, int(sys.argv[3])) == int(sys.argv[3])
    time.sleep(float(sys.argv[2]))
    print("main thread done", flush=True)
""")


def _run(kernel_lib, seconds, threads, script=SCRIPT):
    return subprocess.run([sys.executable, "-c", script, kernel_lib, str(seconds), str(threads)],
                          capture_output=True, text=True, timeout=60)


def _assert_clean(proc):
    detail = f"exit code {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert "Fatal Python error" not in proc.stderr, detail
    assert "terminate called" not in proc.stderr, detail
    assert proc.returncode == 0, detail
    assert proc.stdout.splitlines()[-1] == "main thread done", detail


def test_exit_while_native_threads_call_back_and_release_python_objects(kernel_lib):
    failures = []
    for i in range(RUNS):
        # Exit at different points of the threads' loops.
        proc = _run(kernel_lib, 0.002 * (i % 10), 4)
        try:
            _assert_clean(proc)
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, f"{len(failures)} of {RUNS} runs did not exit cleanly; first:\n{failures[0]}"


# A callback that is running when the main thread exits: exit waits for it
# (so it never loses the GIL to a finalizing interpreter) and it completes.
SLOW_SCRIPT = textwrap.dedent("""
    import ctypes, sys, threading, time
    import tvm_ffi

    lib = ctypes.CDLL(sys.argv[1])
    start = tvm_ffi.get_global_func("ffi.FunctionFromExternC")(
        None, ctypes.cast(lib.exit_threads_start, ctypes.c_void_p), None)
    entered = threading.Event()
    calls = [0]

    def callback():
        calls[0] += 1
        if calls[0] == 1:
            entered.set()
            time.sleep(0.3)
            print("slow callback finished", flush=True)
        return None

    start(callback, 1)
    assert entered.wait(10)
    print("main thread done", flush=True)
""")


def test_exit_waits_for_a_callback_running_on_a_native_thread(kernel_lib):
    proc = _run(kernel_lib, 0, 1, SLOW_SCRIPT)
    assert proc.stdout.splitlines()[:2] == ["main thread done", "slow callback finished"], proc
    assert proc.returncode == 0 and proc.stderr == "", proc


# A callback blocked for good: exit waits a bounded time, then goes on.
BLOCKED_SCRIPT = textwrap.dedent("""
    import ctypes, sys, threading, time
    import tvm_ffi

    lib = ctypes.CDLL(sys.argv[1])
    start = tvm_ffi.get_global_func("ffi.FunctionFromExternC")(
        None, ctypes.cast(lib.exit_threads_start, ctypes.c_void_p), None)
    entered, never = threading.Event(), threading.Event()

    def callback():
        entered.set()
        never.wait()

    start(callback, 1)
    assert entered.wait(10)
    print("main thread done", flush=True)
""")


def test_exit_does_not_wait_for_ever_on_a_blocked_callback(kernel_lib):
    begin = time.monotonic()
    proc = _run(kernel_lib, 0, 1, BLOCKED_SCRIPT)
    _assert_clean(proc)
    assert proc.stderr == ""
    assert time.monotonic() - begin < 30

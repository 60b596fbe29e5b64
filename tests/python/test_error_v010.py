"""An error raised by a kernel built against apache-tvm-ffi 0.1.0's headers.

Its error object has the 56-byte TVMFFIErrorCell of 0.1.0 (no cause_chain,
no extra_context; abi-v0.1.md §2.7), followed by the kernel's own members.
tvm_ffi reads only the 0.1.0 fields of an error it did not make, so the
error arrives as the Python exception it names, and is freed once.  The
calls run in a subprocess: reading the missing fields crashed the process.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tvm_ffi import libinfo

KERNEL_SRC = Path(__file__).parent / "kernels" / "v010_error_kernel.c"

_RUN = r"""
import ctypes, gc, sys, traceback
import tvm_ffi

lib = ctypes.CDLL(sys.argv[1])
from_c = tvm_ffi.get_global_func("ffi.FunctionFromExternC")
def func(name):
    return from_c(None, ctypes.cast(getattr(lib, name), ctypes.c_void_p), None)
raise_it, live = func("raise_v010_error"), func("live_errors")
for _ in range(3):
    try:
        raise_it()
    except ValueError as e:
        print(type(e).__name__, str(e), e.__cause__ is None)
        del e
gc.collect()
print("live", live())
"""


@pytest.fixture(scope="module")
def kernel_lib(tmp_path_factory):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler (cc or gcc) to build the test kernel")
    out = tmp_path_factory.mktemp("v010") / "libv010_error_kernel.so"
    subprocess.run([cc, "-O1", "-std=c11", "-Wall", "-Werror", "-shared", "-fPIC",
                    "-I", libinfo.find_include_path(), str(KERNEL_SRC), "-o", str(out),
                    "-L", libinfo.find_lib_dir(), "-l:" + os.path.basename(libinfo.find_libtvm_ffi()),
                    "-Wl,-rpath," + libinfo.find_lib_dir()],
                   check=True)
    return str(out)


def test_v010_error_becomes_its_python_exception(kernel_lib):
    proc = subprocess.run([sys.executable, "-c", _RUN, kernel_lib],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stdout.splitlines() == ["ValueError raised by a 0.1.0 kernel True"] * 3 + ["live 0"]

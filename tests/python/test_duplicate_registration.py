"""Two libraries registering the same types and globals: never an abort.

apache-tvm-ffi's libtvm_ffi_testing.so and ours register the same testing.*
types and globals.  Whichever loads second repeats registrations the first
made; its load-time initialisers must not end the process (upstream's throw
on a failed registration, which terminates).  The first registration is kept
and one warning line names the two libraries.  Each order runs in its own
subprocess (ctypes only, RTLD_GLOBAL, our libtvm_ffi.so first so every
testing library binds to it).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi.libinfo

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM_TESTING = ROOT / "third_party" / "upstream" / "lib" / "libtvm_ffi_testing.so"

_LOAD = r"""
import ctypes, sys
for path in sys.argv[1:]:
    ctypes.CDLL(path, ctypes.RTLD_GLOBAL)
print("loaded", len(sys.argv) - 1)
"""


def _load_in_order(*paths):
    return subprocess.run([sys.executable, "-c", _LOAD, *map(str, paths)],
                          capture_output=True, text=True, timeout=120)


def _ours():
    return tvm_ffi.libinfo.find_libtvm_ffi(), tvm_ffi.libinfo.find_libtvm_ffi_testing()


def _upstream_testing():
    if not UPSTREAM_TESTING.exists():
        if os.environ.get("TVM_FFI_REQUIRE_UPSTREAM"):
            raise RuntimeError(f"TVM_FFI_REQUIRE_UPSTREAM is set but {UPSTREAM_TESTING} is missing")
        pytest.skip(f"{UPSTREAM_TESTING} missing (run .ci/fetch-upstream.sh)")
    return str(UPSTREAM_TESTING)


def _warning(second, first):
    return (f"tvm-ffi: warning: {second} registers ", f", already registered by {first}; the first "
            "registration is kept (further repeats between these two libraries are skipped "
            "silently)")


def _check(proc, second, first):
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "loaded 3\n"
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    head, tail = _warning(second, first)
    assert lines[0].startswith(head) and lines[0].endswith(tail), lines[0]


def test_upstream_testing_after_ours():
    lib, testing = _ours()
    upstream = _upstream_testing()
    _check(_load_in_order(lib, testing, upstream), upstream, testing)


def test_ours_after_upstream_testing():
    lib, testing = _ours()
    upstream = _upstream_testing()
    _check(_load_in_order(lib, upstream, testing), testing, upstream)


def test_second_copy_of_our_testing_library(tmp_path):
    # The same registrations from a copy under another file name (another
    # loaded object): skipped with the warning, whatever upstream is.
    lib, testing = _ours()
    copy = tmp_path / "libtvm_ffi_testing_copy.so"
    shutil.copyfile(testing, copy)
    _check(_load_in_order(lib, testing, copy), str(copy), testing)

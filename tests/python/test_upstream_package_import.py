"""apache-tvm-ffi 0.1.15.post2's own Python package over OUR libtvm_ffi.so:
it imports, tvm_ffi.testing included (that needs every type key it looks up
at import, and ffi.Enum with upstream's field layout), and converts a list.

The package comes from the wheel .ci/fetch-upstream.sh downloads (a cp311
wheel, so it runs under Python 3.11 from pyenv).  Without the wheel the test
is SKIPPED (a failure under TVM_FFI_REQUIRE_UPSTREAM=1); without Python 3.11
it is SKIPPED.
"""
import glob
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import tvm_ffi.libinfo

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / "third_party" / "upstream" / "download"

_SCRIPT = r"""
import tvm_ffi
import tvm_ffi.testing
print(tvm_ffi.__file__.startswith(__import__("sys").argv[1]), list(tvm_ffi.convert([1, 2])))
"""


def _python311():
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted(glob.glob(os.path.join(root, "versions", "3.11.*", "bin", "python3.11")))
    return found[-1] if found else shutil.which("python3.11")


def test_upstream_package_imports_over_our_library(tmp_path):
    wheels = sorted(WHEELS.glob("apache_tvm_ffi-0.1.15.post2-cp311-*.whl"))
    if not wheels:
        if os.environ.get("TVM_FFI_REQUIRE_UPSTREAM"):
            raise RuntimeError(f"TVM_FFI_REQUIRE_UPSTREAM is set but no wheel in {WHEELS}")
        pytest.skip(f"no upstream wheel in {WHEELS} (run .ci/fetch-upstream.sh)")
    python = _python311()
    if python is None:
        pytest.skip("no Python 3.11 for upstream's cp311 wheel")
    with zipfile.ZipFile(wheels[0]) as whl:
        whl.extractall(tmp_path)
    shutil.copyfile(tvm_ffi.libinfo.find_libtvm_ffi(), tmp_path / "tvm_ffi" / "lib" / "libtvm_ffi.so")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    proc = subprocess.run([python, "-c", _SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-3000:])
    assert proc.stdout.splitlines()[-1] == "True [1, 2]"

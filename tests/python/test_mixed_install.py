"""tvm-ffi and apache-tvm-ffi both install the import package tvm_ffi; pip
lets the second overwrite the first file by file.  Our __init__ refuses a
folder holding files of both, before it imports the extension (issue 20).

The mixed folder is made the way pip makes it: upstream's wheel unpacked
first (the cp311 wheel .ci/fetch-upstream.sh downloads), our package's files
over it.  Without the wheel that case is SKIPPED (a failure under
TVM_FFI_REQUIRE_UPSTREAM=1); the synthetic cases always run.
"""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import tvm_ffi

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / "third_party" / "upstream" / "download"
OURS = Path(tvm_ffi.__file__).parent


def _our_files_into(folder):
    """Our package's top-level entries, as symbolic links, over `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for entry in OURS.iterdir():
        target = folder / entry.name
        if target.is_dir() and not target.is_symlink():
            continue  # pip merges folders; the check looks only at the top level
        if target.exists() or target.is_symlink():
            target.unlink()
        target.symlink_to(entry)


def _import_in(site):
    return subprocess.run(
        [sys.executable, "-c", "import tvm_ffi"],
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True, text=True, timeout=120,
    )


def test_real_upstream_wheel_then_ours_is_refused(tmp_path):
    wheels = sorted(WHEELS.glob("apache_tvm_ffi-0.1.15.post2-*.whl"))
    if not wheels:
        if os.environ.get("TVM_FFI_REQUIRE_UPSTREAM"):
            pytest.fail(f"no apache-tvm-ffi wheel in {WHEELS} (run .ci/fetch-upstream.sh)")
        pytest.skip("no apache-tvm-ffi wheel (run .ci/fetch-upstream.sh)")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheels[0]) as whl:
        whl.extractall(site)
    upstream_core = sorted(p.name for p in (site / "tvm_ffi").glob("core.cpython-*.so"))
    assert upstream_core, "the upstream wheel has no compiled core"
    _our_files_into(site / "tvm_ffi")
    done = _import_in(site)
    assert done.returncode != 0
    assert "ImportError: tvm_ffi: " in done.stderr
    assert "mixes two distributions" in done.stderr
    assert upstream_core[0] in done.stderr
    assert "pip uninstall -y tvm-ffi apache-tvm-ffi" in done.stderr


@pytest.mark.parametrize("stray", ["core.cpython-312-x86_64-linux-gnu.so", "core.so", "cython"])
def test_each_upstream_marker_is_refused(tmp_path, stray):
    folder = tmp_path / "site" / "tvm_ffi"
    _our_files_into(folder)
    if stray == "cython":
        (folder / stray).mkdir()
    else:
        (folder / stray).write_bytes(b"")
    done = _import_in(tmp_path / "site")
    assert done.returncode != 0
    assert f"files of apache-tvm-ffi are here ({stray})" in done.stderr


def test_our_own_files_pass_the_check():
    # The folder this session imported from: only our files, so the check is
    # quiet (the import of this test module already proved it); the check
    # itself, run again, returns without raising.
    assert tvm_ffi._refuse_mixed_installation() is None
    assert "core.abi3.so" in os.listdir(OURS)

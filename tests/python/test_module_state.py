"""The extension: module isolation (multi-phase init) and its build guards."""
import importlib.util
import os
import shutil
import subprocess
import sysconfig

import pytest

import tvm_ffi
import tvm_ffi.testing  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_second_module_instance_has_its_own_types():
    spec = importlib.util.find_spec("tvm_ffi.core")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod is not tvm_ffi.core
    assert mod.Function is not tvm_ffi.core.Function
    echo = mod._get_global_func("testing.echo")
    assert type(echo) is mod.Function
    assert echo("works") == "works"
    assert echo(echo).same_as(echo)
    # The second instance has no Python classes registered: objects come back
    # as its own base Object.
    arr = echo([1, 2])
    assert type(arr) is mod.Object
    assert mod._seq_getitem(arr, 1) == 2


def test_function_uses_vectorcall():
    f = tvm_ffi.get_global_func("testing.echo")
    assert type(f).__flags__ & (1 << 11)  # Py_TPFLAGS_HAVE_VECTORCALL
    assert "__vectorcalloffset__" in type(f).__dict__


def test_extension_is_abi3():
    assert tvm_ffi.core.__file__.endswith(".abi3.so")


def _compile_pyshim_header(limited_api):
    src = os.path.join(ROOT, "pyshim", "module.c")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not os.path.exists(src):
        pytest.skip("needs a C compiler and the pyshim sources")
    cmd = [cc, "-fsyntax-only", f"-DPy_LIMITED_API={limited_api}",
           f"-I{sysconfig.get_paths()['include']}", f"-I{os.path.join(ROOT, 'include')}", src]
    return subprocess.run(cmd, capture_output=True, text=True)


def test_limited_api_floor_is_enforced_at_compile_time():
    ok = _compile_pyshim_header("0x030C0000")
    assert ok.returncode == 0, ok.stderr
    low = _compile_pyshim_header("0x030B0000")
    assert low.returncode != 0
    assert "pyshim needs Py_LIMITED_API >= 0x030C0000" in low.stderr

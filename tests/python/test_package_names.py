"""Top-level names of upstream's package that issue 20 lists: tvm_ffi.CAny,
tvm_ffi.LIB, tvm_ffi._version, _dtype.float4_e2m1fn_x2, utils.unpack_dataclass."""
import ctypes
import subprocess
import sys

import pytest

import tvm_ffi
import tvm_ffi._version as version_module
from tvm_ffi import _dtype, core, libinfo


def test_version_module_agrees_with_the_package():
    assert version_module.version == version_module.__version__ == tvm_ffi.__version__
    assert version_module.version_tuple == tvm_ffi.__version_tuple__
    assert ".".join(map(str, version_module.version_tuple)) == tvm_ffi.__version__
    assert version_module.commit_id is None and version_module.__commit_id__ is None


def test_cany_is_cores():
    assert tvm_ffi.CAny is core.CAny
    assert repr(tvm_ffi.CAny(5)) == "CAny(int=5)"


def test_lib_is_libtvm_ffi_loaded_global():
    lib = tvm_ffi.LIB
    assert isinstance(lib, ctypes.CDLL)
    assert lib._name == str(libinfo.find_libtvm_ffi())
    assert tvm_ffi.LIB is lib  # loaded once
    # A C function of the library, called through the handle.
    lib.TVMFFIGetVersion.restype = None
    parts = (ctypes.c_uint32 * 3)()
    lib.TVMFFIGetVersion(parts)
    assert tuple(parts)[:2] == (0, 1)


def test_lib_is_not_loaded_by_import():
    code = "import tvm_ffi, sys; print('LIB' in vars(tvm_ffi), 'ctypes' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "False"


def test_float4_pair_alias():
    assert _dtype.float4_e2m1fn_x2 == tvm_ffi.float4_e2m1fnx2
    assert str(_dtype.float4_e2m1fn_x2) == "float4_e2m1fnx2"  # upstream's str


def test_utils_exposes_unpack_dataclass():
    import dataclasses

    import tvm_ffi.utils

    @dataclasses.dataclass
    class P:
        a: int
        b: str

    assert tvm_ffi.utils.unpack_dataclass.unpack_dataclass_to_tuple(P(1, "x")) == (1, "x")


def test_lazy_top_level_names_are_stored_after_first_use():
    # Names made or imported on first use go into the module then, so later
    # reads are plain attribute reads (a module __getattr__ runs each time a
    # name is missing, and an import statement there costs about a microsecond).
    import tvm_ffi
    from tvm_ffi import structural

    first = tvm_ffi.structural_hash
    assert first is structural.structural_hash
    assert vars(tvm_ffi)["structural_hash"] is first
    assert tvm_ffi.DLDeviceType is vars(tvm_ffi)["DLDeviceType"]
    with pytest.raises(AttributeError, match="module 'tvm_ffi' has no attribute 'no_such_name'"):
        tvm_ffi.no_such_name
    assert "no_such_name" not in vars(tvm_ffi)

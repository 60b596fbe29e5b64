"""Registry parity: every global function and type key that apache-tvm-ffi
0.1.15.post2's libtvm_ffi.so registers exists in ours.

Each library is loaded alone in a subprocess and enumerated through the C ABI
only (ffi.FunctionListGlobalNamesFunctor, ffi.GetRegisteredTypeKeys), so the
two registries are read the same way.  The upstream library comes from
.ci/fetch-upstream.sh; without it the test is SKIPPED (a failure under
TVM_FFI_REQUIRE_UPSTREAM=1).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tvm_ffi.libinfo

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM_LIB = ROOT / "third_party" / "upstream" / "lib" / "libtvm_ffi.so"

# Reads one library's registry with ctypes and prints it as JSON.
_ENUMERATE = r"""
import ctypes, json, sys

class Any(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("aux", ctypes.c_uint32), ("v", ctypes.c_uint64)]

class ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]

lib = ctypes.CDLL(sys.argv[1], ctypes.RTLD_LOCAL)
lib.TVMFFIFunctionGetGlobal.argtypes = [ctypes.POINTER(ByteArray), ctypes.POINTER(ctypes.c_void_p)]
lib.TVMFFIFunctionCall.argtypes = [ctypes.c_void_p, ctypes.POINTER(Any), ctypes.c_int32,
                                   ctypes.POINTER(Any)]

def get_global(name):
    raw = name.encode()
    buf = ctypes.create_string_buffer(raw)
    ba = ByteArray(ctypes.cast(buf, ctypes.c_void_p), len(raw))
    handle = ctypes.c_void_p()
    if lib.TVMFFIFunctionGetGlobal(ctypes.byref(ba), ctypes.byref(handle)) != 0 or not handle.value:
        raise SystemExit("no global " + name)
    return handle.value

def call(func, *args):
    packed = (Any * max(1, len(args)))()
    for i, a in enumerate(args):
        if isinstance(a, int):
            packed[i].type_index = 1
            packed[i].v = a & (2 ** 64 - 1)
        else:
            packed[i] = a
    out = Any(0, 0, 0)
    if lib.TVMFFIFunctionCall(func, packed, len(args), ctypes.byref(out)) != 0:
        raise SystemExit("call failed")
    return out

def as_str(a):
    if a.type_index == 11:  # kTVMFFISmallStr: bytes inline, length in the aux field
        return ctypes.string_at(ctypes.addressof(a) + 8, a.aux).decode()
    assert a.type_index == 65, a.type_index  # kTVMFFIStr: header (24 bytes), then a ByteArray
    cell = ByteArray.from_address(a.v + 24)
    return ctypes.string_at(cell.data, cell.size).decode()

functor = call(get_global("ffi.FunctionListGlobalNamesFunctor")).v
count = call(functor, -1).v
names = sorted(as_str(call(functor, i)) for i in range(count))
keys = call(get_global("ffi.GetRegisteredTypeKeys"))
size = call(get_global("ffi.ArraySize"), keys).v
get_item = get_global("ffi.ArrayGetItem")
type_keys = sorted(as_str(call(get_item, keys, i)) for i in range(size))
print(json.dumps({"globals": names, "type_keys": type_keys}))
"""

# Upstream's names that ours still lacks, each with the reason.  The goal is
# an empty set: remove an entry when it is implemented (the test fails on a
# stale entry).
EXPECTED_MISSING_GLOBALS: dict[str, str] = {}
EXPECTED_MISSING_TYPE_KEYS: dict[str, str] = {}


def _registry(lib_path):
    proc = subprocess.run([sys.executable, "-c", _ENUMERATE, str(lib_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def registries():
    if not UPSTREAM_LIB.exists():
        if os.environ.get("TVM_FFI_REQUIRE_UPSTREAM"):
            raise RuntimeError(f"TVM_FFI_REQUIRE_UPSTREAM is set but {UPSTREAM_LIB} is missing")
        pytest.skip(f"{UPSTREAM_LIB} missing (run .ci/fetch-upstream.sh)")
    return _registry(UPSTREAM_LIB), _registry(tvm_ffi.libinfo.find_libtvm_ffi())


def test_upstream_registry_read(registries):
    # The enumeration itself works: upstream 0.1.15.post2 registers 100 ffi.*
    # globals and these well-known names.
    upstream, _ = registries
    assert len(upstream["globals"]) == 100
    assert "ffi.Array" in upstream["globals"]
    assert {"ffi.Object", "ffi.String", "ffi.StructuralKey", "int"} <= set(upstream["type_keys"])


@pytest.mark.parametrize("kind,expected", [("globals", EXPECTED_MISSING_GLOBALS),
                                           ("type_keys", EXPECTED_MISSING_TYPE_KEYS)])
def test_every_upstream_name_exists(registries, kind, expected):
    upstream, ours = registries
    missing = sorted(set(upstream[kind]) - set(ours[kind]))
    assert missing == sorted(expected)

"""`import tvm_ffi` stays light: the modules it used to pull in are not
imported (their absence, not a timing, is what is tested here)."""
import subprocess
import sys

HEAVY = ("typing", "json", "enum", "ctypes", "collections", "numbers", "re")


def test_import_does_not_pull_in_heavy_modules():
    code = (
        "import sys; before = set(sys.modules); import tvm_ffi; "
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules and m not in before))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_lazy_names_still_work():
    code = (
        "import tvm_ffi, ctypes; from tvm_ffi import DLDeviceType; "
        "from tvm_ffi._dtype import DataTypeCode; import tvm_ffi.testing as t; "
        "assert DLDeviceType.kDLCUDA == 2 and DataTypeCode.BFLOAT == 4; "
        "assert isinstance(tvm_ffi.get_global_func_metadata('testing.nop'), dict); "
        "p = t.echo(ctypes.c_void_p(16)); assert isinstance(p, ctypes.c_void_p) and p.value == 16; "
        "print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


def test_pointer_results_import_ctypes_on_demand():
    code = (
        "import sys, tvm_ffi\n"
        "class P:\n"
        "    def __tvm_ffi_opaque_ptr__(self):\n"
        "        return 32\n"
        "assert 'ctypes' not in sys.modules\n"
        "p = tvm_ffi.Array([P()])[0]\n"
        "print(type(p).__module__, type(p).__name__, p.value)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ctypes c_void_p 32", out.stderr

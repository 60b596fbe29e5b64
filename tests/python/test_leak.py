"""No FFI object is leaked at interpreter exit."""
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import tvm_ffi
    import tvm_ffi.testing as t

    kept = t.py_leak_probe()                       # a module global
    in_list = [t.py_leak_probe() for _ in range(3)]
    arr = tvm_ffi.Array([t.py_leak_probe(), {"k": t.py_leak_probe()}])

    class Node:
        pass

    a, b = Node(), Node()                          # a reference cycle
    a.other, b.other = b, a
    a.probe = t.py_leak_probe()

    def cb(x):
        return x
    f = tvm_ffi.convert(cb)                        # a Python callback as FFI function
    f.probe = t.py_leak_probe()
    opaque = tvm_ffi.convert(Node())               # an FFI object holding a Python object
    opaque.pyobject().probe = t.py_leak_probe()
    assert t.py_leak_probe_count() == 9
    print("ok", flush=True)
    """
)


def test_no_ffi_object_leaked_at_exit():
    env = dict(os.environ, TVM_FFI_TESTING_REPORT_PROBES="1")
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
    assert "live leak probes at exit: 0" in proc.stderr, proc.stderr

"""Reference counts are unchanged after many calls of each kind."""
import sys

import pytest

import tvm_ffi
import tvm_ffi.testing as t

N = 100_000


class Thing:
    pass


def _loop(f, *args):
    for _ in range(N):
        f(*args)


@pytest.mark.parametrize(
    "value",
    [7, 2.5, "short", "a string longer than seven bytes", b"bytes longer than seven",
     (1, 2), [1, "x"], {"k": 1}, Thing()],
    ids=["int", "float", "small-str", "str", "bytes", "tuple", "list", "dict", "opaque"],
)
def test_python_refcount_of_arguments(value):
    before = sys.getrefcount(value)
    _loop(t.echo, value)
    _loop(t.nop, value)
    assert sys.getrefcount(value) == before


def test_ffi_object_use_count_unchanged():
    obj = t.make_test_object_base(1, 2.0, "s")
    before_py = sys.getrefcount(obj)
    before = t.object_use_count(obj)
    _loop(t.echo, obj)
    _loop(t.nop, obj)
    _loop(t.apply, lambda x: x, obj)
    assert t.object_use_count(obj) == before == 1
    assert sys.getrefcount(obj) == before_py


def test_callbacks_do_not_leak():
    thing = Thing()

    def cb(x):
        return x

    before_cb = sys.getrefcount(cb)
    before = sys.getrefcount(thing)
    _loop(t.apply, cb, thing)
    assert sys.getrefcount(thing) == before
    assert sys.getrefcount(cb) == before_cb


def test_function_wrappers_do_not_leak():
    f = tvm_ffi.Function(lambda: 1)
    before = t.object_use_count(f)
    for _ in range(N):
        g = t.echo(f)
        assert g is not None
    del g
    assert t.object_use_count(f) == before


# Raising is slow (each FFI error captures a backtrace), so fewer rounds.
ERROR_ROUNDS = 1000


def test_raised_errors_do_not_leak():
    err = ValueError("x")

    def cb():
        raise err

    before = sys.getrefcount(err)
    for _ in range(ERROR_ROUNDS):
        try:
            t.apply(cb)
        except ValueError:
            pass
    err.__traceback__ = None
    assert sys.getrefcount(err) == before
    probe = t.py_leak_probe()
    before_count = t.py_leak_probe_count()
    for _ in range(ERROR_ROUNDS):
        try:
            t.raise_error("ValueError", "y")
        except ValueError:
            pass
    assert t.py_leak_probe_count() == before_count
    del probe


def test_containers_and_probes_freed():
    start = t.py_leak_probe_count()
    for _ in range(N // 10):
        a = tvm_ffi.Array([t.py_leak_probe(), t.py_leak_probe()])
        m = tvm_ffi.Map({"p": t.py_leak_probe()})
    assert t.py_leak_probe_count() == start + 3
    del a, m
    assert t.py_leak_probe_count() == start


def test_results_refcount_fresh():
    r = t.echo(Thing())
    assert sys.getrefcount(r) == 2

"""Functions: calls, the global registry, Python callbacks, release_gil."""
import pytest

import tvm_ffi
import tvm_ffi.testing as t


def test_call_returns_natural_values():
    assert t.add_one(41) == 42
    assert t.nop() is None
    assert isinstance(t.echo, tvm_ffi.Function)


def test_call_takes_positional_arguments_only():
    with pytest.raises(TypeError, match="^FFI functions take positional arguments only$"):
        t.echo(x=1)


def test_arity_and_type_errors_come_from_the_callee():
    with pytest.raises(TypeError) as info:
        t.add_one()
    assert str(info.value) == (
        "Mismatched number of arguments when calling: `testing.add_one(0: int) -> int`. "
        "Expected 1 but got 0 arguments"
    )
    with pytest.raises(TypeError) as info:
        t.add_one("x")
    assert str(info.value) == (
        "Mismatched type on argument #0 when calling: `testing.add_one(0: int) -> int`. "
        "Expected `int` but got `ffi.SmallStr`"
    )


def test_arity_error_of_a_typed_global_shows_its_signature():
    # Upstream's wording: the name, the numbered parameter types, the return type.
    sig = "`testing.make_c_int_pair(0: int, 1: int) -> ffi.Object`"
    f = tvm_ffi.get_global_func("testing.make_c_int_pair")
    with pytest.raises(TypeError) as info:
        f(1)
    assert str(info.value) == (
        "Mismatched number of arguments when calling: " + sig + ". Expected 2 but got 1 arguments"
    )
    with pytest.raises(TypeError) as info:
        f(1, 2, 3)
    assert str(info.value) == (
        "Mismatched number of arguments when calling: " + sig + ". Expected 2 but got 3 arguments"
    )


def test_many_arguments():
    args = list(range(20))
    assert t.apply(lambda *a: sum(a), *args) == sum(args)


def test_get_global_func():
    f = tvm_ffi.get_global_func("testing.add_one")
    assert isinstance(f, tvm_ffi.Function)
    assert f(1) == 2
    with pytest.raises(ValueError) as info:
        tvm_ffi.get_global_func("testing.does_not_exist")
    assert str(info.value) == "Cannot find global function testing.does_not_exist"
    assert tvm_ffi.get_global_func("testing.does_not_exist", allow_missing=True) is None


def test_register_global_func_decorator_and_direct():
    @tvm_ffi.register_global_func("pytest_fn.add_two")
    def add_two(x):
        return x + 2

    assert isinstance(add_two, tvm_ffi.Function)
    assert add_two.__name__ == "add_two"
    assert add_two(1) == 3
    assert tvm_ffi.get_global_func("pytest_fn.add_two").same_as(add_two)

    f = tvm_ffi.register_global_func("pytest_fn.mul", lambda a, b: a * b)
    assert tvm_ffi.get_global_func("pytest_fn.mul")(6, 7) == 42
    assert f(2, 3) == 6

    @tvm_ffi.register_global_func
    def pytest_fn_bare(x):
        return -x

    assert tvm_ffi.get_global_func("pytest_fn_bare")(5) == -5
    assert tvm_ffi.remove_global_func("pytest_fn_bare") is True
    assert tvm_ffi.get_global_func("pytest_fn_bare", allow_missing=True) is None


def test_register_taken_name_needs_override():
    tvm_ffi.register_global_func("pytest_fn.taken", lambda: 1)
    with pytest.raises(RuntimeError) as info:
        tvm_ffi.register_global_func("pytest_fn.taken", lambda: 2)
    assert str(info.value) == (
        "global function `pytest_fn.taken` is already registered; "
        "pass override=True to replace it"
    )
    assert tvm_ffi.get_global_func("pytest_fn.taken")() == 1
    tvm_ffi.register_global_func("pytest_fn.taken", lambda: 2, override=True)
    assert tvm_ffi.get_global_func("pytest_fn.taken")() == 2


def test_cpp_calls_python_registered_function():
    tvm_ffi.register_global_func("pytest_fn.concat", lambda a, b: a + b, override=True)
    assert t.py_call_global("pytest_fn.concat", "ab", "cd") == "abcd"
    assert t.py_call_global("pytest_fn.concat", [1], [2]) == [1, 2]


def test_callback_receives_converted_arguments():
    seen = []

    def cb(*args):
        seen.append(args)
        return len(args)

    assert t.apply(cb, 1, 2.5, "s", None, True) == 5
    assert seen == [(1, 2.5, "s", None, True)]


def test_callback_result_converts_back():
    assert t.apply(lambda: "a long string result") == "a long string result"
    assert t.apply(lambda: b"bytes!!!!") == b"bytes!!!!"
    arr = t.apply(lambda: [1, 2, 3])
    assert isinstance(arr, tvm_ffi.Array)
    assert list(arr) == [1, 2, 3]


def test_function_passed_as_argument_is_the_same_object():
    assert t.echo(t.add_one).same_as(t.add_one)
    f = t.echo(lambda x: x * 3)
    assert isinstance(f, tvm_ffi.Function)
    assert f(5) == 15


def test_function_wraps_callables():
    f = tvm_ffi.Function(lambda x: x + 100)
    assert f(1) == 101
    assert tvm_ffi.Function(f) is f
    assert tvm_ffi.convert_func(abs)(-3) == 3
    with pytest.raises(TypeError, match="^Function\\(\\) needs a callable, got 3$"):
        tvm_ffi.Function(3)


def test_function_has_a_dict():
    f = tvm_ffi.Function(lambda: None)
    f.custom = 7
    assert f.custom == 7


def test_release_gil_property():
    f = tvm_ffi.Function(lambda: 1)
    assert f.release_gil is False
    f.release_gil = True
    assert f.release_gil is True
    assert f() == 1
    f.release_gil = 0
    assert f.release_gil is False
    assert tvm_ffi.get_global_func("testing.nop").release_gil is False


def test_init_ffi_api():
    import sys
    import types

    mod = types.ModuleType("pytest_ns_mod")
    sys.modules["pytest_ns_mod"] = mod
    try:
        tvm_ffi.register_global_func("pytest_ns.hello", lambda: "hi", override=True)
        tvm_ffi.register_global_func("pytest_ns.sub.skip", lambda: 0, override=True)
        tvm_ffi.register_global_func("pytest_nsx.other", lambda: 0, override=True)
        tvm_ffi.init_ffi_api("pytest_ns", "pytest_ns_mod")
        assert mod.hello() == "hi"
        assert mod.hello.__name__ == "hello"
        assert not hasattr(mod, "skip")
        assert not hasattr(mod, "sub")
        assert not hasattr(mod, "other")
    finally:
        del sys.modules["pytest_ns_mod"]


def test_list_global_func_names():
    names = tvm_ffi.list_global_func_names()
    assert "testing.echo" in names
    assert "ffi.Array" in names


def test_old_names_do_not_exist():
    for name in ("_init_api", "register_func"):
        assert not hasattr(tvm_ffi, name)


def test_function_subclass_with_its_own_init_starts_empty():
    class Jit(tvm_ffi.Function):
        def __init__(self, metadata):
            self.metadata = metadata

    f = Jit(128)  # not a callable: an empty wrapper for __init__ to fill
    assert f.metadata == 128 and f.__chandle__() == 0
    with pytest.raises(ValueError, match=r"^the Function holds no FFI function \(chandle=None\)$"):
        f(1)
    f.__move_handle_from__(tvm_ffi.convert(lambda x: x + 1))
    assert f(1) == 2 and isinstance(f, Jit)
    # core.Function itself still wants exactly one callable.
    with pytest.raises(TypeError, match=r"^Function\(\) needs a callable, got 128$"):
        tvm_ffi.Function(128)


def _refcount_after(fn):
    import sys

    keep = object()
    before = sys.getrefcount(keep)
    f = fn(keep)
    held = sys.getrefcount(keep) - before
    del f
    return held, sys.getrefcount(keep) - before


def test_function_from_extern_c_symbol():
    import tvm_ffi.testing  # noqa: F401  (registers testing.get_add_one_c_symbol)

    sym = tvm_ffi.get_global_func("testing.get_add_one_c_symbol")()
    f = tvm_ffi.Function.__from_extern_c__(sym)
    assert type(f) is tvm_ffi.Function and f(1) == 2 and f(41) == 42
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `int`"):
        f(None)
    # keep_alive_object: held exactly as long as the Function, then released once.
    assert _refcount_after(lambda k: tvm_ffi.Function.__from_extern_c__(
        sym, keep_alive_object=k)) == (1, 0)
    with pytest.raises(ValueError, match=r"__from_extern_c__\(\): the symbol address is 0"):
        tvm_ffi.Function.__from_extern_c__(0)
    with pytest.raises(TypeError, match="needs the symbol's address as an int, got 'x'"):
        tvm_ffi.Function.__from_extern_c__("x")
    with pytest.raises(TypeError, match="got 2 positional arguments"):
        tvm_ffi.Function.__from_extern_c__(sym, [])  # keep_alive_object is keyword only
    with pytest.raises(TypeError, match="unexpected keyword argument 'keep'"):
        tvm_ffi.Function.__from_extern_c__(sym, keep=[])


def test_function_from_mlir_packed_safe_call():
    import tvm_ffi.testing  # noqa: F401

    sym = tvm_ffi.get_global_func("testing.get_mlir_add_one_c_symbol")()
    f = tvm_ffi.Function.__from_mlir_packed_safe_call__(sym)
    assert f(1) == 2 and f(-3) == -2
    with pytest.raises(TypeError, match="Cannot convert from type `None` to `int`"):
        f(None)
    assert _refcount_after(lambda k: tvm_ffi.Function.__from_mlir_packed_safe_call__(
        sym, keep_alive_object=k)) == (1, 0)
    assert _refcount_after(lambda k: tvm_ffi.Function.__from_mlir_packed_safe_call__(
        sym, k)) == (1, 0)
    with pytest.raises(ValueError, match="the symbol address is 0"):
        tvm_ffi.Function.__from_mlir_packed_safe_call__(0)

"""Errors: FFI error kinds to Python classes, Python exceptions through C++."""
import pytest

import tvm_ffi
import tvm_ffi.testing as t


@pytest.mark.parametrize(
    "kind, cls",
    [("ValueError", ValueError), ("TypeError", TypeError), ("IndexError", IndexError),
     ("AttributeError", AttributeError), ("RuntimeError", RuntimeError),
     ("MemoryError", MemoryError), ("AssertionError", AssertionError)],
)
def test_ffi_error_kind_maps_to_python_class(kind, cls):
    with pytest.raises(cls) as info:
        t.raise_error(kind, "the message")
    assert type(info.value) is cls
    assert str(info.value) == "the message"
    err = info.value.__tvm_ffi_error__
    assert err.kind == kind
    assert err.message == "the message"


def test_key_error():
    with pytest.raises(KeyError) as info:
        t.raise_error("KeyError", "missing")
    assert type(info.value) is KeyError
    assert info.value.args == ("missing",)


def test_unknown_kind_is_runtime_error():
    with pytest.raises(RuntimeError) as info:
        t.raise_error("InternalError", "broken invariant")
    assert type(info.value) is RuntimeError
    assert str(info.value) == "broken invariant"
    assert info.value.__tvm_ffi_error__.kind == "InternalError"


def test_register_error_forms():
    @tvm_ffi.register_error
    class PytestFirstError(Exception):
        pass

    @tvm_ffi.register_error("pytest.SecondError")
    class SecondError(Exception):
        pass

    class ThirdError(Exception):
        pass

    tvm_ffi.register_error("pytest.ThirdError", ThirdError)

    with pytest.raises(PytestFirstError, match="^one$"):
        t.raise_error("PytestFirstError", "one")
    with pytest.raises(SecondError, match="^two$"):
        t.raise_error("pytest.SecondError", "two")
    with pytest.raises(ThirdError, match="^three$"):
        t.raise_error("pytest.ThirdError", "three")


def test_python_exception_through_cpp_is_the_same_object():
    err = ZeroDivisionError("from python")

    def cb():
        raise err

    with pytest.raises(ZeroDivisionError) as info:
        t.apply(cb)
    assert info.value is err


def test_python_exception_through_two_levels_of_cpp():
    class MyError(Exception):
        pass

    err = MyError("deep")

    def inner():
        raise err

    def outer():
        return t.apply(inner)

    with pytest.raises(MyError) as info:
        t.apply(outer)
    assert info.value is err


def test_python_exception_seen_by_cpp_has_kind_and_message():
    class Custom(ValueError):
        pass

    def cb():
        raise Custom("bad value here")

    # The C++ side sees kind ValueError (nearest registered base): returned as
    # an Error object by a callback that catches nothing.
    def catcher():
        try:
            cb()
        except Exception as exc:  # noqa: BLE001
            return exc

    err = t.echo(catcher())
    assert err.kind == "ValueError"
    assert err.message == "bad value here"
    assert 'in cb' in err.backtrace


def test_ffi_error_reraised_by_python_callback_keeps_kind():
    def cb():
        t.raise_error("IndexError", "inner index")

    with pytest.raises(IndexError) as info:
        t.apply(cb)
    assert str(info.value) == "inner index"


def test_callback_with_wrong_arity_raises_type_error():
    def cb(a, b):
        return a + b

    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        t.apply(cb, 1)


def test_error_in_argument_conversion_inside_callback_result():
    class BadIndex:
        def __index__(self):
            raise OverflowError("no index for BadIndex")

    with pytest.raises(OverflowError, match="^no index for BadIndex$"):
        t.apply(lambda: BadIndex())


def test_errors_raised_in_threads_come_back():
    t.py_call_in_thread.release_gil = True
    err = RuntimeError("in a thread")

    def cb():
        raise err

    with pytest.raises(RuntimeError) as info:
        t.py_call_in_thread(cb)
    assert info.value is err

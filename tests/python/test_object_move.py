"""Object._move / core.ObjectRValueRef, core.CContainerBase,
core.ObjectConvertible and Error.extra_context."""
import pickle

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core

echo = tvm_ffi.get_global_func("testing.echo")


def test_move_into_cxx_takes_the_object_without_a_new_reference():
    x = tvm_ffi.convert([1, 2])
    handle = x.__chandle__()
    ref = x._move()
    assert type(ref) is core.ObjectRValueRef and ref.obj is x
    assert repr(ref) == "ObjectRValueRef((1, 2))"
    y = echo(ref)
    assert x.__chandle__() == 0  # the callee took it
    assert y.__chandle__() == handle
    assert core._object_use_count(y) == 1
    with pytest.raises(ValueError, match="this Array holds no FFI object"):
        echo(x._move())
    # By copy, the source keeps its object.
    z = echo(y)
    assert y.__chandle__() == handle and z.same_as(y)


def test_move_into_a_python_callback():
    seen = []

    def cb(a):
        seen.append(a)
        return a

    f = tvm_ffi.convert(cb)
    x = tvm_ffi.convert([3])
    out = f(x._move())
    assert x.__chandle__() == 0
    assert list(out) == [3] and seen[0].same_as(out)


def test_rvalue_ref_needs_an_object():
    with pytest.raises(TypeError, match="ObjectRValueRef needs an FFI object to move, got 3"):
        echo(core.ObjectRValueRef(3))
    with pytest.raises(TypeError):
        core.ObjectRValueRef()
    with pytest.raises(AttributeError):
        core.ObjectRValueRef(1).obj = 2


def test_container_base():
    for value in ([1], {"a": 1}, tvm_ffi.List([1]), tvm_ffi.Dict({"a": 1})):
        assert isinstance(tvm_ffi.convert(value), core.CContainerBase)
    assert not isinstance(tvm_ffi.testing.TestIntPair(1, 2), core.CContainerBase)
    assert not isinstance([1], core.CContainerBase)
    assert issubclass(tvm_ffi.Map, core.CContainerBase)
    assert not issubclass(tvm_ffi.Object, core.CContainerBase)
    assert tvm_ffi.CContainerBase is core.CContainerBase


def test_object_convertible():
    pair = tvm_ffi.testing.TestIntPair(3, 4)

    class Holder(tvm_ffi.ObjectConvertible):
        def asobject(self):
            return pair

    assert tvm_ffi.ObjectConvertible is core.ObjectConvertible
    assert echo(Holder()).same_as(pair)
    assert tvm_ffi.convert([Holder()])[0].same_as(pair)

    class Missing(core.ObjectConvertible):
        pass

    with pytest.raises(NotImplementedError, match="Missing does not define asobject"):
        echo(Missing())


def test_error_extra_context():
    err = core.Error("ValueError", "boom", "")
    assert err.extra_context is None
    # An Error made from a Python exception carries that exception.
    exc = KeyError("k")
    made = tvm_ffi.convert(exc)
    assert isinstance(made, core.Error) and made.extra_context is exc
    assert pickle.loads(pickle.dumps(made)).extra_context is None
    assert pickle.loads(pickle.dumps(err)).extra_context is None
    with pytest.raises(TypeError, match="expected an ffi.Error"):
        core._error_extra_context(tvm_ffi.convert([1]))

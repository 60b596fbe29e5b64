"""What the DLPack C exchange API lookup trusts (docs/tensors.md).

A class attribute __dlpack_c_exchange_api__ (or __c_dlpack_exchange_api__) is
used only when it is a PyCapsule named exactly "dlpack_exchange_api" whose
table has major version 1 and every entry DLPack 1.3 requires.  Anything
else is a TypeError or ValueError naming the class, and nothing in the
table is called (the fake tables' functions count their calls).
"""
import numpy as np
import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core

W = core.DLTensorTestWrapper
ATTRS = ["__dlpack_c_exchange_api__", "__c_dlpack_exchange_api__"]


@pytest.fixture(autouse=True)
def reset_counts():
    W._reset()
    yield


def _producer(attr, value):
    """A fresh tensor-like class publishing value as attr, and an instance."""
    cls = type("FakeProducer", (), {attr: value, "__init__": lambda self, x: setattr(self, "tensor", x)})
    return cls, cls(tvm_ffi.from_dlpack(np.arange(3, dtype="float32")))


def _assert_refused(obj, error, message):
    with pytest.raises(error, match=message):
        t.tensor_noop(obj)  # a call argument
    with pytest.raises(error, match=message):
        tvm_ffi.from_dlpack(obj)  # from_dlpack
    with pytest.raises(error, match=message):
        tvm_ffi.convert_func(lambda x: x, tensor_cls=type(obj))  # callback tensor class
    assert W._counts() == {"from_py": 0, "to_py": 0, "stream": 0, "alloc": 0, "free": 0}


@pytest.mark.parametrize("attr", ATTRS)
def test_the_published_form_is_accepted(attr):
    a = np.arange(3, dtype="float32")
    _, obj = _producer(attr, W._api("good"))
    obj.tensor = tvm_ffi.from_dlpack(a)
    assert t.tensor_data_ptr(obj) == a.ctypes.data
    assert W._counts()["from_py"] == 1


@pytest.mark.parametrize("attr", ATTRS)
def test_an_int_address_is_refused(attr):
    # The int form of early producers: any Python code can set an int, so it
    # is never taken as a pointer, even when it points at a valid table.
    _, obj = _producer(attr, W._api("address"))
    _assert_refused(obj, TypeError,
                    rf"^FakeProducer\.{attr} must be a PyCapsule named 'dlpack_exchange_api' "
                    r"holding a DLPackExchangeAPI\*, got \d+ \(an int address is not trusted; "
                    r"set TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API=1 to use __dlpack__\)$")


@pytest.mark.parametrize("attr", ATTRS)
def test_a_capsule_with_another_name_is_refused(attr):
    _, obj = _producer(attr, W._api("wrong_name"))
    _assert_refused(obj, TypeError,
                    rf"^FakeProducer\.{attr} must be a PyCapsule named 'dlpack_exchange_api' "
                    r"holding a DLPackExchangeAPI\*, got <capsule object \"dltensor\" at 0x[0-9a-f]+>$")


@pytest.mark.parametrize("value", ["nope", 1.5, None, object()])
def test_other_values_are_refused(value):
    _, obj = _producer("__dlpack_c_exchange_api__", value)
    _assert_refused(obj, TypeError,
                    r"^FakeProducer\.__dlpack_c_exchange_api__ must be a PyCapsule named "
                    r"'dlpack_exchange_api' holding a DLPackExchangeAPI\*, got ")


@pytest.mark.parametrize("kind,version", [("v2", "2.0"), ("v0", "0.8")])
@pytest.mark.parametrize("attr", ATTRS)
def test_a_table_of_another_major_version_is_refused(attr, kind, version):
    _, obj = _producer(attr, W._api(kind))
    _assert_refused(obj, ValueError,
                    rf"^FakeProducer\.{attr}: the DLPack C exchange API has version "
                    rf"{version}; tvm_ffi reads major version 1$")


@pytest.mark.parametrize("kind,entry", [
    ("null_allocator", "managed_tensor_allocator"),
    ("null_from", "managed_tensor_from_py_object_no_sync"),
    ("null_to", "managed_tensor_to_py_object_no_sync"),
    ("null_stream", "current_work_stream"),
])
def test_a_table_with_a_null_required_entry_is_refused(kind, entry):
    _, obj = _producer("__dlpack_c_exchange_api__", W._api(kind))
    _assert_refused(obj, ValueError,
                    rf"^FakeProducer\.__dlpack_c_exchange_api__: the DLPack C exchange API has "
                    rf"a NULL {entry} \(DLPack 1\.3 requires it\)$")


def test_the_new_name_is_read_first():
    # A good capsule under the new name wins over a bad value under the old.
    _, obj = _producer("__dlpack_c_exchange_api__", W._api("good"))
    type(obj).__c_dlpack_exchange_api__ = 12345
    t.tensor_noop(obj)
    assert W._counts()["from_py"] == 1

"""The DLPack C exchange API (type(x).__dlpack_c_exchange_api__), through
core.DLTensorTestWrapper: a tensor type whose exchange functions are
implemented in the extension and count their calls.  Runs without torch and
without a GPU (a fake "cuda:0" device and fake stream integers)."""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core

W = core.DLTensorTestWrapper
CUDA0 = tvm_ffi.device("cuda:0")
CPU0 = tvm_ffi.device("cpu:0")


@pytest.fixture(autouse=True)
def reset_counts():
    W._reset()
    W._set_stream(0)
    yield
    W._set_stream(0)


def wrapped(device=None, fail=False):
    a = np.arange(6, dtype="float32").reshape(2, 3)
    return a, W(tvm_ffi.from_dlpack(a), device=device, fail=fail)


def counts(**expected):
    base = {"from_py": 0, "to_py": 0, "stream": 0, "alloc": 0, "free": 0}
    base.update(expected)
    return base


def test_the_class_publishes_a_capsule():
    cap = W.__dlpack_c_exchange_api__
    assert type(cap).__name__ == "PyCapsule"
    assert "dlpack_exchange_api" in repr(cap)


def test_argument_goes_through_the_exchange_api_without_a_copy():
    a, w = wrapped()
    assert t.tensor_data_ptr(w) == a.ctypes.data
    assert t.tensor_shape(w) == (2, 3)
    assert t.tensor_sum_f32(w) == 15.0
    # One import per argument; a CPU tensor asks for no stream; no tensor came back.
    assert W._counts() == counts(from_py=3)


def test_three_arguments_three_imports_one_call():
    _, w = wrapped()
    assert t.tensor_noop3(w, w, w) is None
    assert W._counts() == counts(from_py=3)


def test_tensor_result_goes_back_to_the_producer_type():
    a, w = wrapped()
    r = t.echo(w)
    assert type(r) is W
    assert r.tensor.data_ptr() == a.ctypes.data and r.tensor.shape == (2, 3)
    assert W._counts() == counts(from_py=1, to_py=1)
    # Without exchange-API arguments a tensor result stays a tvm_ffi.Tensor.
    x = t.echo(tvm_ffi.from_dlpack(a))
    assert type(x) is tvm_ffi.Tensor
    assert W._counts() == counts(from_py=1, to_py=1)


def test_from_dlpack_uses_the_exchange_api():
    a, w = wrapped()
    x = tvm_ffi.from_dlpack(w)
    assert type(x) is tvm_ffi.Tensor and x.data_ptr() == a.ctypes.data
    assert W._counts() == counts(from_py=1)
    with pytest.raises(RuntimeError, match="not aligned to 64 bytes"):
        tvm_ffi.from_dlpack(W(tvm_ffi.from_dlpack(a[:, 1:])), require_alignment=64)


def test_producer_error_propagates():
    _, w = wrapped(fail=True)
    with pytest.raises(BufferError, match="refused on purpose"):
        t.tensor_noop(w)
    # No __dlpack__ to fall back to: from_dlpack raises the producer's error.
    with pytest.raises(BufferError, match="refused on purpose"):
        tvm_ffi.from_dlpack(w)


def test_stream_of_a_non_cpu_tensor_is_set_for_the_call_and_restored():
    _, w = wrapped(device=CUDA0)
    W._set_stream(0x1234)
    seen = tvm_ffi.convert(lambda *xs: (xs[0].device.dlpack_device_type(), tvm_ffi.get_raw_stream(CUDA0)))
    assert tvm_ffi.get_raw_stream(CUDA0) == 0
    assert list(seen(w)) == [2, 0x1234]
    assert tvm_ffi.get_raw_stream(CUDA0) == 0
    # Asked once per call, for the first non-CPU tensor only.
    assert list(seen(w, w, w)) == [2, 0x1234]
    assert W._counts()["stream"] == 2
    # An explicit outer stream comes back after the call.
    with tvm_ffi.use_raw_stream(CUDA0, 0x99):
        assert list(seen(w)) == [2, 0x1234]
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x99
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_stream_restored_when_the_call_raises():
    _, w = wrapped(device=CUDA0)
    W._set_stream(0x5678)

    def boom(x):
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x5678
        raise KeyError("inside")

    f = tvm_ffi.convert(boom)
    with pytest.raises(KeyError, match="inside"):
        f(w)
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_cpu_tensors_leave_streams_alone():
    _, w = wrapped()
    seen = tvm_ffi.convert(lambda x: tvm_ffi.get_raw_stream(CPU0))
    with tvm_ffi.use_raw_stream(CPU0, 0x77):
        assert seen(w) == 0x77
    assert W._counts()["stream"] == 0


def test_allocator_is_installed_for_the_call_and_restored():
    _, w = wrapped()
    make = tvm_ffi.convert(lambda x: t.env_tensor_alloc("float32", 4, 5))
    r = make(w)
    assert type(r) is W and r.tensor.shape == (4, 5) and r.tensor.dtype == "float32"
    assert W._counts() == counts(from_py=1, to_py=1, alloc=1)
    del r
    gc.collect()
    assert W._counts()["free"] == 1
    # Outside the call the environment has no allocator again.
    with pytest.raises(RuntimeError, match="no DLPack tensor allocator is set"):
        t.env_tensor_alloc("float32", 2)


def test_no_reference_leaks():
    a, w = wrapped(device=CUDA0)
    x = w.tensor
    before = (sys.getrefcount(w), sys.getrefcount(x))
    for _ in range(200):
        t.tensor_noop(w)
        t.echo(w)
        tvm_ffi.from_dlpack(w)
    gc.collect()
    assert (sys.getrefcount(w), sys.getrefcount(x)) == before


class _Holder:
    def __init__(self, tensor):
        self.tensor = tensor


# What is trusted and the checks before the first call: test_exchange_trust.py.


def test_environment_switch_turns_the_exchange_api_off():
    code = (
        "import numpy as np, tvm_ffi, tvm_ffi.testing as t\n"
        "from tvm_ffi import core\n"
        "W = core.DLTensorTestWrapper\n"
        "w = W(tvm_ffi.from_dlpack(np.zeros(3, dtype='float32')))\n"
        "try:\n"
        "    tvm_ffi.from_dlpack(w)\n"
        "except TypeError as e:\n"
        "    print('TypeError', 'from_dlpack needs' in str(e))\n"
        "print(W._counts()['from_py'])\n"
    )
    env = dict(os.environ, TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split() == ["TypeError", "True", "0"], out.stderr


@pytest.mark.parametrize("refusal", [ValueError, TypeError])
def test_producer_refusing_a_result_leaves_a_tvm_ffi_tensor(refusal):
    # The producer owns (and here frees) the DLPack tensor it refused; the
    # result is the library's own tensor, still alive and usable.
    a = np.arange(6, dtype="float32")
    w = W(tvm_ffi.from_dlpack(a))
    W._set_to_py_refusal(refusal)
    try:
        r = t.echo(w)
    finally:
        W._set_to_py_refusal(None)
    assert type(r) is tvm_ffi.Tensor
    assert r.data_ptr() == a.ctypes.data
    assert W._counts()["to_py"] == 1
    np.testing.assert_array_equal(np.from_dlpack(r), a)


@pytest.mark.parametrize("exc", [KeyboardInterrupt, MemoryError])
def test_interrupt_in_producer_result_propagates(exc):
    a = np.arange(3, dtype="float32")
    w = W(tvm_ffi.from_dlpack(a))
    W._set_to_py_refusal(exc)
    try:
        with pytest.raises(exc, match="DLTensorTestWrapper: refused"):
            t.echo(w)
    finally:
        W._set_to_py_refusal(None)


def test_tvm_ffi_object_protocol_wins_over_the_exchange_api():
    # Argument rule 6 (__tvm_ffi_object__) comes before rule 7 (exchange API).
    arr = tvm_ffi.Array([1, 2])

    class Both(_Holder):
        __dlpack_c_exchange_api__ = W._api("good")

        def __tvm_ffi_object__(self):
            return arr

    b = Both(tvm_ffi.from_dlpack(np.arange(2, dtype="float32")))
    for _ in range(2):  # the second call takes the per-type cache
        r = t.echo(b)
        assert isinstance(r, tvm_ffi.Array) and r.same_as(arr)
    assert W._counts()["from_py"] == 0
    # from_dlpack still takes the tensor protocol.
    assert tvm_ffi.from_dlpack(b).shape == (2,)


def test_tensors_inside_returned_containers_convert_back_when_read():
    a = np.arange(4, dtype="float32")
    w = W(tvm_ffi.from_dlpack(a))
    r = t.echo([w, 1, "s"])
    assert isinstance(r, tvm_ffi.Array)
    assert W._counts()["to_py"] == 0  # lazily: nothing converted yet
    first = r[0]
    assert type(first) is W and t.tensor_data_ptr(first) == a.ctypes.data
    assert W._counts()["to_py"] == 1
    assert [type(x) for x in r] == [W, int, str]
    assert type(r[-3]) is W and type(r[:1][0]) is W
    m = t.echo({"k": w, "n": [w]})
    assert isinstance(m, tvm_ffi.Map)
    assert type(m["k"]) is W and type(m.get("k")) is W
    assert type(m["n"][0]) is W  # a nested container carries the API on
    assert {k: type(v) for k, v in m.items()}["k"] is W
    assert type([v for v in m.values() if not isinstance(v, tvm_ffi.Array)][0]) is W


def test_a_returned_container_passes_its_exchange_api_on():
    a = np.arange(2, dtype="float32")
    r = t.echo([W(tvm_ffi.from_dlpack(a))])
    get = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    x = get(r, 0)  # the only argument is the container
    assert type(x) is W and t.tensor_data_ptr(x) == a.ctypes.data
    assert type(t.echo(r)[0]) is W
    assert type(t.echo([r])[0][0]) is W  # also from inside a list argument


def test_containers_from_calls_without_an_exchange_api_hold_tvm_ffi_tensors():
    a = np.arange(2, dtype="float32")
    r = t.echo([tvm_ffi.from_dlpack(a)])
    assert type(r[0]) is tvm_ffi.Tensor
    assert W._counts()["to_py"] == 0


def test_convert_func_with_tensor_cls_delivers_that_class():
    seen = []

    def f(x, y):
        seen.append((type(x), type(y)))
        return x

    a = np.arange(3, dtype="float32")
    fn = tvm_ffi.convert_func(f, tensor_cls=W)
    r = t.apply(fn, tvm_ffi.from_dlpack(a), 5)
    assert seen == [(W, int)]
    assert W._counts()["to_py"] == 1
    # The W the callable returned went back through the exchange API.
    assert type(r) is tvm_ffi.Tensor and r.data_ptr() == a.ctypes.data
    seen.clear()
    plain = tvm_ffi.convert_func(f)
    t.apply(plain, tvm_ffi.from_dlpack(a), 5)
    assert seen == [(tvm_ffi.Tensor, int)]


def test_convert_func_tensor_cls_errors():
    with pytest.raises(TypeError, match=r"tensor_cls <class 'int'> has no __dlpack_c_exchange_api__"):
        tvm_ffi.convert_func(lambda x: x, tensor_cls=int)
    with pytest.raises(TypeError, match="tensor_cls must be a class, got 3"):
        tvm_ffi.convert_func(lambda x: x, tensor_cls=3)
    with pytest.raises(TypeError, match="convert_func needs a callable, got 7"):
        tvm_ffi.convert_func(7, tensor_cls=W)


def test_the_exchange_api_of_an_uncached_type_stays_alive_for_returned_containers():
    # A container returned by a call keeps the API pointer of the type that
    # came in.  With the per-type cache full, the API's owner (here the
    # class's capsule) must still be kept, not dropped after the call.
    base = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    # More classes than the per-type record cache holds (32, argtype.c).
    fillers = [type(f"Fill{i}", (W,), {}) for i in range(40)]
    for cls in fillers:
        t.echo(cls(base))
    cap = W._api("good")
    Late = type("Late", (W,), {"__dlpack_c_exchange_api__": cap})
    before = sys.getrefcount(cap)
    r = t.echo([Late(base)])
    del Late
    gc.collect()
    assert sys.getrefcount(cap) == before  # the class's reference moved to the module
    assert type(r[0]) is W


# ---- the exchange API is state of the call, not of the module ----------------------
# A call made while the arguments of another are converted (by __tvm_ffi_value__,
# __dlpack__ ...) has a conversion state of its own: it neither forgets the outer
# call's exchange API nor hands its own to the outer call.


class CallsWhileConverted:
    """Converts to `value`, calling testing.echo(arg) on the way."""

    def __init__(self, arg, value=7):
        self.arg = arg
        self.value = value
        self.result = None

    def __tvm_ffi_value__(self):
        self.result = t.echo(self.arg)
        return self.value


def test_a_call_made_during_conversion_keeps_the_outer_calls_exchange_api():
    a = np.arange(3, dtype="float32")
    w = W(tvm_ffi.from_dlpack(a))
    inner = CallsWhileConverted(1)
    # w (inside the list) gives the outer call its exchange API; the inner call,
    # made while the next item converts, has none and must not reset it.
    r = t.echo([w, inner])
    assert inner.result == 1
    assert list(r)[1] == 7
    first = r[0]
    assert type(first) is W and t.tensor_data_ptr(first) == a.ctypes.data
    # The same for a dict argument and for a top-level argument after the list.
    m = t.echo({"w": w, "x": CallsWhileConverted(2)})
    assert type(m["w"]) is W and m["x"] == 7
    get = tvm_ffi.get_global_func("ffi.ArrayGetItem")
    x = get([w], CallsWhileConverted(3, value=0))
    assert type(x) is W and t.tensor_data_ptr(x) == a.ctypes.data


def test_a_call_made_during_conversion_does_not_give_the_outer_call_its_exchange_api():
    a = np.arange(3, dtype="float32")
    b = np.arange(5, dtype="float32")
    w = W(tvm_ffi.from_dlpack(b))
    inner = CallsWhileConverted(w)
    # The inner call takes w through the exchange API; the outer call has only a
    # tvm_ffi.Tensor and must stay a call without one (no allocator, no W back).
    W._reset()
    r = t.echo([tvm_ffi.from_dlpack(a), inner])
    # The inner call: w in through the API once, its result out once.
    assert W._counts() == counts(from_py=1, to_py=1)
    assert type(inner.result) is W
    first = r[0]
    # The outer call had no exchange API: its result holds a tvm_ffi.Tensor,
    # and reading it calls nothing of the API.
    assert type(first) is tvm_ffi.Tensor
    assert W._counts() == counts(from_py=1, to_py=1)
    assert t.tensor_data_ptr(first) == a.ctypes.data
    assert t.tensor_data_ptr(inner.result) == b.ctypes.data


def test_exchange_api_of_a_tensor_returned_by_tvm_ffi_value_reaches_the_call():
    # __tvm_ffi_value__ returning an exchange-API tensor is converted in a state
    # nested in the call's: the call gets the API (torch in, torch out).
    a = np.arange(2, dtype="float32")
    w = W(tvm_ffi.from_dlpack(a))

    class Holder:
        def __tvm_ffi_value__(self):
            return w

    out = t.echo([Holder()])
    assert type(out[0]) is W and t.tensor_data_ptr(out[0]) == a.ctypes.data

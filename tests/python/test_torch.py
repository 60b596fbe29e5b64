"""torch tensors through tvm_ffi: the DLPack C exchange API that torch
publishes (torch.Tensor.__dlpack_c_exchange_api__), torch in -> torch out,
from_dlpack, the environment switch, streams (CPU semantics), use_torch_stream.

Skipped without torch, except when TVM_FFI_REQUIRE_TORCH=1 (CI), where a
missing torch fails instead."""
import gc
import os
import subprocess
import sys

import pytest

import tvm_ffi
import tvm_ffi.testing as t

if os.environ.get("TVM_FFI_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

CPU0 = tvm_ffi.device("cpu:0")
CUDA0 = tvm_ffi.device("cuda:0")


def run_python(code, **env):
    full = dict(os.environ, **env)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_torch_publishes_the_exchange_capsule():
    cap = type(torch.empty(0)).__dlpack_c_exchange_api__
    assert type(cap).__name__ == "PyCapsule" and "dlpack_exchange_api" in repr(cap)


def test_argument_without_copy():
    a = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    assert t.tensor_data_ptr(a) == a.data_ptr()
    assert t.tensor_shape(a) == (3, 4) and t.tensor_strides(a) == (4, 1)
    assert t.tensor_dtype(a) == "float32"
    # A strided view: same memory, the view's strides and offset.
    v = a[:, 1::2]
    assert t.tensor_data_ptr(v) == v.data_ptr()
    assert t.tensor_strides(v) == (4, 2)
    assert t.tensor_sum_f32(v) == float(v.sum())
    assert t.tensor_noop3(a, a, v) is None


def test_kernel_writes_are_seen_by_torch():
    a = torch.zeros(5, dtype=torch.float32)
    t.tensor_add_one_f32(a)
    assert a.tolist() == [1.0] * 5


@pytest.mark.parametrize(
    "dtype,name",
    [
        (torch.float16, "float16"),
        (torch.bfloat16, "bfloat16"),
        (torch.bool, "bool"),
        (torch.int8, "int8"),
        (torch.int64, "int64"),
        (torch.uint8, "uint8"),
        (torch.complex64, None),  # DLPack code 5: no dtype text (see docs/tensors.md)
    ],
)
def test_torch_in_torch_out(dtype, name):
    a = torch.zeros(2, 3, dtype=dtype)
    r = t.echo(a)
    assert type(r) is torch.Tensor
    assert r.dtype == dtype and r.shape == (2, 3) and r.data_ptr() == a.data_ptr()
    if name is not None:
        assert t.tensor_dtype(a) == name


def test_result_made_by_the_callee_comes_back_as_torch_when_torch_came_in():
    a = torch.ones(2, dtype=torch.float32)
    make = tvm_ffi.convert(lambda x: t.make_tensor_f32(3, 2))
    r = make(a)
    assert type(r) is torch.Tensor and r.shape == (3, 2) and float(r.sum()) == 0.0
    # Without a torch argument the same function returns a tvm_ffi.Tensor.
    r2 = make(1)
    assert type(r2) is tvm_ffi.Tensor and r2.shape == (3, 2)


def test_allocator_of_torch_is_installed_during_the_call():
    a = torch.ones(2, dtype=torch.float32)
    alloc = tvm_ffi.convert(lambda x: t.env_tensor_alloc("float32", 4, 2))
    r = alloc(a)
    assert type(r) is torch.Tensor and r.shape == (4, 2) and r.dtype == torch.float32
    r.fill_(3.0)  # memory torch owns and can write
    assert float(r.sum()) == 24.0
    with pytest.raises(RuntimeError, match="no DLPack tensor allocator is set"):
        t.env_tensor_alloc("float32", 2)


def test_from_dlpack_torch():
    a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = tvm_ffi.from_dlpack(a)
    assert type(x) is tvm_ffi.Tensor
    assert x.shape == (2, 3) and x.dtype == "float32" and x.data_ptr() == a.data_ptr()
    assert x.device == CPU0
    b = torch.from_dlpack(x)
    assert b.data_ptr() == a.data_ptr()
    with pytest.raises(RuntimeError, match="not aligned to 64 bytes"):
        tvm_ffi.from_dlpack(a[:, 1:], require_alignment=64)


def test_no_reference_leaks():
    a = torch.ones(4)
    before = sys.getrefcount(a)
    for _ in range(1000):
        t.tensor_noop(a)
        t.echo(a)
        tvm_ffi.from_dlpack(a)
    gc.collect()
    assert sys.getrefcount(a) == before


def test_parameter_subclass_goes_through_the_exchange_api():
    p = torch.nn.Parameter(torch.ones(3))
    assert t.tensor_data_ptr(p) == p.data_ptr()


_COUNT_DLPACK = (
    "import torch, tvm_ffi, tvm_ffi.testing as t\n"
    "calls = [0]\n"
    "orig = torch.Tensor.__dlpack__\n"
    "def counted(self, *a, **k):\n"
    "    calls[0] += 1\n"
    "    return orig(self, *a, **k)\n"
    "torch.Tensor.__dlpack__ = counted\n"
    "a = torch.ones(3)\n"
    "for _ in range(10):\n"
    "    t.tensor_noop(a)\n"
    "tvm_ffi.from_dlpack(a)\n"
    "print(calls[0], type(t.echo(a)).__module__)\n"
)


def test_exchange_api_replaces_dunder_dlpack():
    assert run_python(_COUNT_DLPACK) == ["0", "torch"]


def test_environment_switch_falls_back_to_dunder_dlpack():
    # 10 calls and one from_dlpack, each through torch's __dlpack__; results
    # stay tvm_ffi tensors.
    out = run_python(_COUNT_DLPACK, TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API="1")
    assert out == ["11", "tvm_ffi.core"]


def test_cpu_call_leaves_the_stream_alone():
    a = torch.ones(2)
    seen = tvm_ffi.convert(lambda x: (tvm_ffi.get_raw_stream(CPU0), tvm_ffi.get_raw_stream(CUDA0)))
    assert list(seen(a)) == [0, 0]
    with tvm_ffi.use_raw_stream(CPU0, 0x44), tvm_ffi.use_raw_stream(CUDA0, 0x55):
        assert list(seen(a)) == [0x44, 0x55]
    assert list(seen(a)) == [0, 0]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU-only behaviour")
def test_use_torch_stream_without_a_gpu_raises_torchs_error():
    with pytest.raises((RuntimeError, AssertionError)):
        with tvm_ffi.use_torch_stream():
            pass
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_use_torch_stream_on_a_gpu():
    s = torch.cuda.Stream()
    with tvm_ffi.use_torch_stream(torch.cuda.stream(s)):
        assert tvm_ffi.get_raw_stream(CUDA0) == s.cuda_stream
    a = torch.ones(2, device="cuda")
    seen = tvm_ffi.convert(lambda x: tvm_ffi.get_raw_stream(CUDA0))
    with torch.cuda.stream(s):
        assert seen(a) == s.cuda_stream


def test_tensors_in_a_returned_container_come_back_as_torch():
    a = torch.arange(6, dtype=torch.float32)
    b = torch.ones(2, dtype=torch.int64)
    r = t.echo([a, {"b": b}, 3])
    assert isinstance(r, tvm_ffi.Array)
    x = r[0]
    assert type(x) is torch.Tensor and x.data_ptr() == a.data_ptr()
    inner = r[1]
    assert isinstance(inner, tvm_ffi.Map)
    assert type(inner["b"]) is torch.Tensor and torch.equal(inner["b"], b)
    assert [type(v) for v in r][::2] == [torch.Tensor, int]
    # The container passes torch on to a call that only takes it.
    assert type(tvm_ffi.get_global_func("ffi.ArrayGetItem")(r, 0)) is torch.Tensor


def test_convert_func_with_torch_tensor_cls():
    seen = []

    def f(x):
        seen.append(type(x))
        return x * 2

    fn = tvm_ffi.convert_func(f, tensor_cls=torch.Tensor)
    r = t.apply(fn, tvm_ffi.from_dlpack(torch.arange(3, dtype=torch.float32)))
    assert seen == [torch.Tensor]
    assert torch.equal(torch.from_dlpack(r), torch.tensor([0.0, 2.0, 4.0]))

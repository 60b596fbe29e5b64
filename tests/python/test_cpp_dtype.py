"""tvm_ffi.cpp.dtype.to_cpp_dtype: the C++ spelling of a dtype.  Expected
values were observed from apache-tvm-ffi 0.1.15.post2 (to_cpp_dtype and its
CPU/CUDA/ROCM maps) on a machine without a GPU."""
import pytest

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi.cpp import dtype as cpp_dtype
from tvm_ffi.cpp.dtype import to_cpp_dtype

CPU = {
    "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float32": "float", "float64": "double", "bool": "bool",
}
CUDA = {
    "float16": "__half", "bfloat16": "__nv_bfloat16", "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2", "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1", "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}
ROCM = {
    "float16": "__half", "bfloat16": "__hip_bfloat16", "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz", "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz", "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}


def test_maps_are_upstreams():
    assert cpp_dtype.CPU_DTYPE_MAP == CPU
    assert cpp_dtype.CUDA_DTYPE_MAP == CUDA
    assert cpp_dtype.ROCM_DTYPE_MAP == ROCM
    assert tvm_ffi.cpp.to_cpp_dtype is to_cpp_dtype
    assert tvm_ffi.cpp.dtype is cpp_dtype


@pytest.mark.parametrize("name,cpp", sorted(CPU.items()))
def test_cpu_dtypes(name, cpp):
    assert to_cpp_dtype(name) == cpp
    assert to_cpp_dtype("torch." + name) == cpp  # str(torch.int32) == "torch.int32"


def test_dtype_objects_go_through_str():
    assert to_cpp_dtype(tvm_ffi.dtype("int32")) == "int32_t"
    assert to_cpp_dtype(tvm_ffi.float32) == "float"
    assert to_cpp_dtype(tvm_ffi.bool) == "bool"


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float8_e4m3fn", "float4_e2m1fn_x2",
                                  "complex64", "int4", "", "Float32", "torch.bfloat16"])
def test_without_a_gpu_other_dtypes_are_refused(monkeypatch, name):
    monkeypatch.setattr(cpp_dtype, "_backend", lambda: "cpu")
    shown = name[len("torch."):] if name.startswith("torch.") else name
    with pytest.raises(ValueError) as err:
        to_cpp_dtype(name)
    assert str(err.value) == f"Unsupported dtype string: {shown} for backend = 'cpu'"


def test_non_string_is_named_by_its_str(monkeypatch):
    monkeypatch.setattr(cpp_dtype, "_backend", lambda: "cpu")
    with pytest.raises(ValueError, match=r"^Unsupported dtype string: 5 for backend = 'cpu'$"):
        to_cpp_dtype(5)


@pytest.mark.parametrize("backend,table", [("cuda", CUDA), ("rocm", ROCM)])
def test_gpu_dtypes_follow_the_backend(monkeypatch, backend, table):
    monkeypatch.setattr(cpp_dtype, "_backend", lambda: backend)
    for name, cpp in table.items():
        assert to_cpp_dtype(name) == cpp
        assert to_cpp_dtype("torch." + name) == cpp
    assert to_cpp_dtype("int64") == "int64_t"  # the CPU map comes first
    other = "float8_e4m3fnuz" if backend == "cuda" else "float8_e8m0fnu"
    with pytest.raises(ValueError, match=f"for backend = '{backend}'"):
        to_cpp_dtype(other)


def test_backend_without_torch_is_cpu(monkeypatch):
    import sys

    cpp_dtype._backend.cache_clear()
    monkeypatch.setitem(sys.modules, "torch", None)
    try:
        assert cpp_dtype._backend() == "cpu"
    finally:
        cpp_dtype._backend.cache_clear()

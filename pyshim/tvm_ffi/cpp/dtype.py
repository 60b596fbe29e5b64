"""C++ spellings of dtypes for generated kernel sources: ``to_cpp_dtype``.

Dtypes with a standard C++ type are the same everywhere (``CPU_DTYPE_MAP``);
the low-precision floats are spelled by the GPU toolchain, CUDA's
(``CUDA_DTYPE_MAP``) or ROCm's (``ROCM_DTYPE_MAP``), and only when torch
reports such a GPU.
"""
from __future__ import annotations

import functools
from typing import Any

CPU_DTYPE_MAP = {
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float32": "float",
    "float64": "double",
    "bool": "bool",
}

CUDA_DTYPE_MAP = {
    "float16": "__half",
    "bfloat16": "__nv_bfloat16",
    "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2",
    "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1",
    "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}

ROCM_DTYPE_MAP = {
    "float16": "__half",
    "bfloat16": "__hip_bfloat16",
    "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz",
    "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz",
    "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}

_GPU_MAPS = {"cuda": CUDA_DTYPE_MAP, "rocm": ROCM_DTYPE_MAP}


@functools.cache
def _backend() -> str:
    """``"cuda"`` or ``"rocm"`` when torch is installed and sees such a GPU,
    else ``"cpu"`` (asked once per process)."""
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return "cpu"
    if not torch.cuda.is_available():
        return "cpu"
    if getattr(torch.version, "cuda", None) is not None:
        return "cuda"
    if getattr(torch.version, "hip", None) is not None:
        return "rocm"
    return "cpu"


def to_cpp_dtype(dtype_str: str | Any) -> str:
    """The C++ type name of a dtype: ``to_cpp_dtype("float32") == "float"``.

    ``dtype_str`` is a dtype name or any object whose ``str()`` is one (a
    ``tvm_ffi.dtype``, a ``torch.dtype``: the ``torch.`` prefix is dropped).
    GPU-only types resolve through the map of the GPU torch reports; an
    unknown dtype (or a GPU type without such a GPU) raises ValueError naming
    the dtype and the backend.
    """
    name = dtype_str if isinstance(dtype_str, str) else str(dtype_str)
    if name.startswith("torch."):
        name = name[len("torch.") :]
    found = CPU_DTYPE_MAP.get(name)
    if found is not None:
        return found
    backend = _backend()
    found = _GPU_MAPS.get(backend, {}).get(name)
    if found is not None:
        return found
    raise ValueError(f"Unsupported dtype string: {name} for backend = {backend!r}")


__all__ = ["CPU_DTYPE_MAP", "CUDA_DTYPE_MAP", "ROCM_DTYPE_MAP", "to_cpp_dtype"]

"""Compiling CUDA C++ source to a CUBIN at run time with NVRTC
(``nvrtc_compile``), through NVIDIA's ``cuda-python`` bindings.

The CUBIN can be loaded with the CUDA driver API (for instance
``tvm_ffi.utils.embed_cubin`` or ``cuModuleLoadData``).
"""
from __future__ import annotations

from collections.abc import Sequence


def _bindings():
    try:
        from cuda.bindings import driver, nvrtc  # noqa: PLC0415
    except ImportError as err:
        raise RuntimeError(
            "tvm_ffi.cpp.nvrtc needs NVIDIA's CUDA Python bindings (the module "
            "cuda.bindings), which are not installed: pip install cuda-python"
        ) from err
    return driver, nvrtc


def _check(what: str, result, ok) -> None:
    if result != ok:
        raise RuntimeError(f"{what} failed: {result}")


def _current_arch(driver) -> str:
    """``sm_<major><minor>`` of the current device (device 0 without a context)."""
    ok = driver.CUresult.CUDA_SUCCESS
    try:
        (result,) = driver.cuInit(0)
        _check("cuInit", result, ok)
        result, device = driver.cuCtxGetDevice()
        if result != ok:
            device = 0
        attr = driver.CUdevice_attribute
        result, major = driver.cuDeviceGetAttribute(
            attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device)
        _check("reading the compute capability (major)", result, ok)
        result, minor = driver.cuDeviceGetAttribute(
            attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device)
        _check("reading the compute capability (minor)", result, ok)
    except Exception as err:
        raise RuntimeError(
            f"Failed to auto-detect GPU architecture: {err}. "
            "Pass arch= explicitly (for example arch='sm_80')."
        ) from err
    return f"sm_{major}{minor}"


def nvrtc_compile(
    source: str,
    *,
    name: str = "kernel.cu",
    arch: str | None = None,
    extra_opts: Sequence[str] | None = None,
) -> bytes:
    """Compile CUDA C++ ``source`` to CUBIN bytes with NVRTC.

    ``name`` is the file name compiler messages use; ``arch`` the target
    (``"sm_80"`` ...; default: the current GPU's); ``extra_opts`` further
    NVRTC options (str or bytes).  The options always include
    ``--gpu-architecture=<arch>`` and ``-default-device``.  Raises
    RuntimeError with NVRTC's log when compilation fails, and when the CUDA
    Python bindings are missing (saying what to install).
    """
    driver, nvrtc = _bindings()
    if arch is None:
        arch = _current_arch(driver)
    ok = nvrtc.nvrtcResult.NVRTC_SUCCESS
    result, prog = nvrtc.nvrtcCreateProgram(source.encode(), name.encode(), 0, None, None)
    _check("creating the NVRTC program", result, ok)
    try:
        opts = [b"--gpu-architecture=" + arch.encode(), b"-default-device"]
        for opt in extra_opts or ():
            opts.append(opt.encode() if isinstance(opt, str) else bytes(opt))
        (result,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
        if result != ok:
            raise RuntimeError(_failure_message(nvrtc, prog, result, ok))
        result, size = nvrtc.nvrtcGetCUBINSize(prog)
        _check("reading the CUBIN size from NVRTC", result, ok)
        cubin = b" " * size
        (result,) = nvrtc.nvrtcGetCUBIN(prog, cubin)
        _check("reading the CUBIN from NVRTC", result, ok)
        return cubin
    finally:
        nvrtc.nvrtcDestroyProgram(prog)


def _failure_message(nvrtc, prog, result, ok) -> str:
    log_result, size = nvrtc.nvrtcGetProgramLogSize(prog)
    if log_result != ok or size <= 0:
        return f"NVRTC compilation failed: {result}"
    log = b" " * size
    (log_result,) = nvrtc.nvrtcGetProgramLog(prog, log)
    if log_result != ok:
        return f"NVRTC compilation failed (couldn't get log): {result}"
    return "NVRTC compilation failed:\n" + log.decode("utf-8", "replace")


__all__ = ["nvrtc_compile"]

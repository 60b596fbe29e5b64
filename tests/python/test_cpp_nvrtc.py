"""tvm_ffi.cpp.nvrtc.nvrtc_compile: upstream's signature; without NVIDIA's
CUDA Python bindings it says what to install; with (fake) bindings it drives
NVRTC as documented."""
import inspect
import sys
import types

import pytest

from tvm_ffi.cpp import nvrtc


def test_signature_is_upstreams():
    sig = inspect.signature(nvrtc.nvrtc_compile)
    assert list(sig.parameters) == ["source", "name", "arch", "extra_opts"]
    assert sig.parameters["name"].default == "kernel.cu"
    assert sig.parameters["arch"].default is None
    assert sig.parameters["extra_opts"].default is None
    assert all(sig.parameters[p].kind is inspect.Parameter.KEYWORD_ONLY
               for p in ("name", "arch", "extra_opts"))


def test_without_cuda_python_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda", None)
    monkeypatch.setitem(sys.modules, "cuda.bindings", None)
    with pytest.raises(RuntimeError, match=r"pip install cuda-python") as err:
        nvrtc.nvrtc_compile("__global__ void k() {}", arch="sm_80")
    assert isinstance(err.value.__cause__, ImportError)


class _FakeNvrtc:
    """Records the calls; compiles successfully unless `fail_log` is set."""

    nvrtcResult = types.SimpleNamespace(NVRTC_SUCCESS=0, NVRTC_ERROR_COMPILATION=6)

    def __init__(self, fail_log=None):
        self.fail_log = fail_log
        self.calls = []

    def nvrtcCreateProgram(self, src, name, n, headers, names):
        self.calls.append(("create", src, name))
        return 0, "prog"

    def nvrtcCompileProgram(self, prog, n, opts):
        self.calls.append(("compile", n, list(opts)))
        return (6 if self.fail_log else 0,)

    def nvrtcGetProgramLogSize(self, prog):
        return 0, len(self.fail_log)

    def nvrtcGetProgramLog(self, prog, buf):
        assert len(buf) == len(self.fail_log)
        self.log_buffer = buf
        return (0,)

    def nvrtcGetCUBINSize(self, prog):
        return 0, 4

    def nvrtcGetCUBIN(self, prog, buf):
        self.calls.append(("cubin", len(buf)))
        return (0,)

    def nvrtcDestroyProgram(self, prog):
        self.calls.append(("destroy", prog))


def _install(monkeypatch, fake):
    bindings = types.ModuleType("cuda.bindings")
    bindings.nvrtc = fake
    bindings.driver = types.SimpleNamespace()
    cuda = types.ModuleType("cuda")
    cuda.bindings = bindings
    monkeypatch.setitem(sys.modules, "cuda", cuda)
    monkeypatch.setitem(sys.modules, "cuda.bindings", bindings)


def test_compiles_with_arch_and_extra_options(monkeypatch):
    fake = _FakeNvrtc()
    _install(monkeypatch, fake)
    out = nvrtc.nvrtc_compile("src", name="k.cu", arch="sm_90", extra_opts=["-DX=1", b"-lineinfo"])
    assert isinstance(out, bytes) and len(out) == 4
    assert fake.calls == [
        ("create", b"src", b"k.cu"),
        ("compile", 4, [b"--gpu-architecture=sm_90", b"-default-device", b"-DX=1", b"-lineinfo"]),
        ("cubin", 4),
        ("destroy", "prog"),
    ]


def test_compile_failure_raises_with_the_log_and_frees_the_program(monkeypatch):
    fake = _FakeNvrtc(fail_log=b"ERRLOG")
    _install(monkeypatch, fake)
    with pytest.raises(RuntimeError) as err:
        nvrtc.nvrtc_compile("src", arch="sm_80")
    # The log buffer the bindings filled in place is what the message shows
    # (the fake leaves it as allocated: six spaces).
    assert str(err.value) == "NVRTC compilation failed:\n" + " " * 6
    assert fake.calls[-1] == ("destroy", "prog")


def test_arch_detection_failure_asks_for_arch(monkeypatch):
    fake = _FakeNvrtc()
    _install(monkeypatch, fake)

    def cu_init(flags):
        return ("CUDA_ERROR_NO_DEVICE",)

    sys.modules["cuda.bindings"].driver = types.SimpleNamespace(
        cuInit=cu_init, CUresult=types.SimpleNamespace(CUDA_SUCCESS=0))
    with pytest.raises(RuntimeError, match="Failed to auto-detect GPU architecture: .*arch="):
        nvrtc.nvrtc_compile("src")
    assert fake.calls == []  # nothing created

"""tvm_ffi._optional_torch_c_dlpack: whether torch tensors publish the DLPack C exchange API."""
import sys
import types

import pytest

from tvm_ffi import _optional_torch_c_dlpack as m


def _torch(cuda: bool, hip=None, cuda_version=None, tensor=None):
    return types.SimpleNamespace(
        cuda=types.SimpleNamespace(is_available=lambda: cuda),
        version=types.SimpleNamespace(hip=hip, cuda=cuda_version),
        Tensor=tensor,
    )


def test_extension_device():
    assert m._torch_extension_device(_torch(False)) == "cpu"
    assert m._torch_extension_device(_torch(True, cuda_version="12.8")) == "cuda"
    assert m._torch_extension_device(_torch(True, hip="7.2")) == "rocm"
    no_version = types.SimpleNamespace(cuda=types.SimpleNamespace(is_available=lambda: True))
    assert m._torch_extension_device(no_version) == "cuda"


def test_check_and_update_reads_both_spellings():
    class New:
        __dlpack_c_exchange_api__ = object()

    class Legacy:
        __c_dlpack_exchange_api__ = capsule = object()

    class Neither:
        pass

    assert m._check_and_update_dlpack_c_exchange_api(New)
    assert m._check_and_update_dlpack_c_exchange_api(Legacy)
    assert Legacy.__dlpack_c_exchange_api__ is Legacy.capsule  # published under the new name
    assert not m._check_and_update_dlpack_c_exchange_api(Neither)
    assert not m._check_and_update_dlpack_c_exchange_api(int)  # cannot be set: False, no error


def test_torch_with_the_api_needs_no_addon(monkeypatch):
    tensor = type("Tensor", (), {"__dlpack_c_exchange_api__": object()})
    monkeypatch.setitem(sys.modules, "torch", _torch(True, tensor=tensor))
    monkeypatch.setitem(sys.modules, m.ADDON_PACKAGE, None)  # importing it would fail
    assert m.load_torch_c_dlpack_extension() is None


def test_addon_that_adds_the_api_is_returned(monkeypatch):
    tensor = type("Tensor", (), {})
    monkeypatch.setitem(sys.modules, "torch", _torch(True, tensor=tensor))
    addon = types.ModuleType(m.ADDON_PACKAGE)
    monkeypatch.setitem(sys.modules, m.ADDON_PACKAGE, addon)
    assert m.load_torch_c_dlpack_extension() is None  # imported, but added nothing
    tensor.__c_dlpack_exchange_api__ = object()
    assert m.load_torch_c_dlpack_extension() is None  # the legacy name is enough: no addon
    del tensor.__c_dlpack_exchange_api__, tensor.__dlpack_c_exchange_api__

    def add_api_on_import(name, *args, **kwargs):
        tensor.__dlpack_c_exchange_api__ = object()
        return addon

    monkeypatch.setattr(m.importlib, "import_module", add_api_on_import)
    assert m.load_torch_c_dlpack_extension() is addon


def test_no_torch_no_addon(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert m.load_torch_c_dlpack_extension() is None
    tensor = type("Tensor", (), {})
    monkeypatch.setitem(sys.modules, "torch", _torch(False, tensor=tensor))
    monkeypatch.setitem(sys.modules, m.ADDON_PACKAGE, None)
    assert m.load_torch_c_dlpack_extension() is None
    with pytest.raises(AttributeError):
        tensor.__dlpack_c_exchange_api__  # noqa: B018 - nothing was published


def _torch_with_stream(cuda: bool, stream_cls):
    fake = _torch(cuda)
    fake.cuda.Stream = stream_cls
    return fake


def test_patch_torch_cuda_stream_protocol_adds_the_method(monkeypatch):
    class Stream:
        cuda_stream = 0x1234

    monkeypatch.setitem(sys.modules, "torch", _torch_with_stream(True, Stream))
    m.patch_torch_cuda_stream_protocol()
    assert Stream().__cuda_stream__() == (0, 0x1234)


def test_patch_torch_cuda_stream_protocol_keeps_an_existing_method(monkeypatch):
    class Stream:
        def __cuda_stream__(self):
            return (0, 7)

    own = Stream.__cuda_stream__
    monkeypatch.setitem(sys.modules, "torch", _torch_with_stream(True, Stream))
    m.patch_torch_cuda_stream_protocol()
    assert Stream.__cuda_stream__ is own


def test_patch_torch_cuda_stream_protocol_without_cuda_or_torch(monkeypatch):
    class Stream:
        pass

    monkeypatch.setitem(sys.modules, "torch", _torch_with_stream(False, Stream))
    m.patch_torch_cuda_stream_protocol()
    assert not hasattr(Stream, "__cuda_stream__")
    monkeypatch.setitem(sys.modules, "torch", None)
    assert m.patch_torch_cuda_stream_protocol() is None

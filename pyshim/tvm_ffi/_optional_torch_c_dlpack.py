"""Whether torch tensors offer the DLPack C exchange API, and what can make them.

The fast path for torch tensors is ``torch.Tensor.__dlpack_c_exchange_api__``: a
capsule named ``dlpack_exchange_api`` holding a ``DLPackExchangeAPI*`` (see
docs/tensors.md). Recent torch releases define it themselves; for older ones
the optional ``torch_c_dlpack_ext`` package may add it when imported. This
package compiles no torch addon of its own: without either, torch tensors take
the ``__dlpack__`` capsule path, which works for every torch version.

Nothing here imports torch unless asked: :func:`load_torch_c_dlpack_extension`
is called by whoever wants the fast path.
"""
from __future__ import annotations

import importlib
from typing import Any

#: The attribute a tensor class publishes its exchange API under, and the older
#: spelling some producers still use.
EXCHANGE_API_ATTR = "__dlpack_c_exchange_api__"
LEGACY_EXCHANGE_API_ATTR = "__c_dlpack_exchange_api__"

#: The optional package that adds the API to torch releases without it.
ADDON_PACKAGE = "torch_c_dlpack_ext"


def _torch_extension_device(torch_module: Any) -> str:
    """The device a torch addon would be built for: ``"cpu"`` without a GPU,
    ``"rocm"`` for a HIP build of torch, ``"cuda"`` otherwise (also when the torch
    build does not say which)."""
    if not torch_module.cuda.is_available():
        return "cpu"
    version = getattr(torch_module, "version", None)
    if getattr(version, "hip", None):
        return "rocm"
    return "cuda"


def _check_and_update_dlpack_c_exchange_api(tensor_cls: object) -> bool:
    """Whether ``tensor_cls`` publishes the exchange API. A class that has it only
    under the older name gets the current name too (when the class allows it)."""
    if getattr(tensor_cls, EXCHANGE_API_ATTR, None) is not None:
        return True
    legacy = getattr(tensor_cls, LEGACY_EXCHANGE_API_ATTR, None)
    if legacy is None:
        return False
    try:
        setattr(tensor_cls, EXCHANGE_API_ATTR, legacy)
    except (AttributeError, TypeError):
        return False
    return True


def load_torch_c_dlpack_extension() -> Any:
    """Make ``torch.Tensor`` publish the DLPack C exchange API if something can.

    Returns None when there is nothing to do (torch is not installed, or its
    tensors already publish the API, in which case the addon package is not even
    imported) or nothing that can do it (the addon package is not installed, or
    importing it did not add the API). Returns the imported addon module when it
    added the API.
    """
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return None
    if _check_and_update_dlpack_c_exchange_api(torch.Tensor):
        return None
    try:
        addon = importlib.import_module(ADDON_PACKAGE)
    except ImportError:
        return None
    return addon if _check_and_update_dlpack_c_exchange_api(torch.Tensor) else None


def _torch_cuda_stream_protocol(stream: Any) -> tuple[int, int]:
    """``__cuda_stream__`` of a torch CUDA stream: (protocol version 0, the
    ``cudaStream_t`` as an int)."""
    return (0, stream.cuda_stream)


def patch_torch_cuda_stream_protocol() -> None:
    """Give ``torch.cuda.Stream`` the ``__cuda_stream__`` protocol (which
    tvm_ffi reads stream arguments through) on torch releases that lack it.

    Does nothing when torch is not installed, has no usable CUDA, or its
    streams already have the method.  Like the rest of this module, it imports
    torch only when called.
    """
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return
    if not torch.cuda.is_available():
        return
    if not hasattr(torch.cuda.Stream, "__cuda_stream__"):
        torch.cuda.Stream.__cuda_stream__ = _torch_cuda_stream_protocol

"""Streams: the FFI environment's current stream per device, set from Python.

Kernels called through the FFI launch on ``TVMFFIEnvGetStream(device)``, a
per-thread value.  A call that gets tensors through a framework's DLPack C
exchange API (torch) sets it for the call from the framework's current
stream by itself; these helpers set it explicitly:

- ``StreamContext(device, stream)``: a ``with`` block that sets the stream of
  ``device`` on entry and restores the previous one on exit (nestable);
- ``use_raw_stream(device, stream)``: the same for an int or
  ``ctypes.c_void_p`` stream handle (e.g. a ``cudaStream_t``);
- ``use_torch_stream(context=None)``: enters the given torch stream or graph
  context (if any) and sets the FFI stream of the current CUDA device to
  ``torch.cuda.current_stream()``; restores both on exit;
- ``get_raw_stream(device)``: the current stream of ``device`` as an int
  (0 when none is set).

Setting a stream needs no GPU: on a CPU-only machine a fake integer on
``cuda:0`` is stored and read back as is.
"""
from __future__ import annotations

from . import core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _stream_value(stream):
    """The int (or None) that core._env_set_current_stream takes."""
    if stream is None or isinstance(stream, int):
        return stream
    return stream.value  # ctypes.c_void_p; None for NULL


class StreamContext:
    """Sets the FFI stream of ``device`` while the ``with`` block runs."""

    def __init__(self, device: core.Device, stream: Any) -> None:
        self.device_type = device.dlpack_device_type()
        self.device_id = device.index
        self.stream = stream
        self.prev_stream = None

    def __enter__(self) -> StreamContext:
        self.prev_stream = core._env_set_current_stream(
            self.device_type, self.device_id, _stream_value(self.stream)
        )
        return self

    def __exit__(self, *args: Any) -> None:
        core._env_set_current_stream(self.device_type, self.device_id, self.prev_stream)


def use_raw_stream(device: core.Device, stream: Any) -> StreamContext:
    """A :class:`StreamContext` for a raw stream handle (an int or ``ctypes.c_void_p``)."""
    if not isinstance(stream, int):
        import ctypes

        if not isinstance(stream, ctypes.c_void_p):
            raise ValueError(
                "use_raw_stream takes an int or ctypes.c_void_p stream handle, got "
                f"{type(stream).__name__}; use use_torch_stream for torch.cuda.Stream or "
                "torch.cuda.graph"
            )
    return StreamContext(device, stream)


def get_raw_stream(device: core.Device) -> int:
    """The current FFI stream of ``device`` as an int (0 when unset)."""
    return core._env_get_current_stream(device.dlpack_device_type(), device.index)


class TorchStreamContext:
    """Enters a torch stream/graph context and mirrors torch's current stream into the FFI."""

    def __init__(self, context: Any) -> None:
        self.torch_context = context
        self.ffi_context = None

    def __enter__(self) -> TorchStreamContext:
        import torch

        if self.torch_context is not None:
            self.torch_context.__enter__()
        try:
            current = torch.cuda.current_stream()
            dev = core.Device(str(current.device), None)
            self.ffi_context = StreamContext(dev, current.cuda_stream)
            self.ffi_context.__enter__()
        except BaseException:
            if self.torch_context is not None:
                self.torch_context.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *args: Any) -> None:
        try:
            if self.torch_context is not None:
                self.torch_context.__exit__(*args)
        finally:
            self.ffi_context.__exit__(*args)


def use_torch_stream(context: Any = None) -> TorchStreamContext:
    """An FFI stream context following torch: ``with use_torch_stream(torch.cuda.stream(s)):``.

    Raises ImportError when torch is not installed.
    """
    try:
        import torch  # noqa: F401
    except ImportError as err:
        raise ImportError("use_torch_stream needs torch, which cannot be imported") from err
    return TorchStreamContext(context)


__all__ = ["StreamContext", "use_raw_stream", "use_torch_stream", "get_raw_stream"]

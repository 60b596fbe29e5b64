"""Tensors.  :class:`Tensor` and :func:`from_dlpack` are implemented in the
extension (pyshim/tensor.c); this module names them for the package.

- ``Tensor``: an ``ffi.Tensor`` (shape, strides, dtype, device, ``__dlpack__``,
  ``__dlpack_device__``); FFI functions return it, and ``numpy.from_dlpack``
  or ``torch.from_dlpack`` take it without a copy.
- ``from_dlpack(obj, require_alignment=0, require_contiguous=False)``: a
  Tensor sharing the memory of a numpy array, a torch tensor, any object with
  ``__dlpack__``, or a DLPack capsule.
"""
from .core import Tensor, from_dlpack, __dlpack_version__

__all__ = ["Tensor", "from_dlpack", "__dlpack_version__"]

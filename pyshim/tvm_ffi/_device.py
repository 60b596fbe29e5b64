"""Devices: :class:`tvm_ffi.Device` lives in the extension; this adds the enum."""
from . import core
from .core import Device


# (name, DLPack code) of DLDeviceType.  The IntEnum itself is made on first
# use: importing enum is a noticeable part of `import tvm_ffi`.
_DEVICE_TYPES = (
    ("kDLCPU", 1),
    ("kDLCUDA", 2),
    ("kDLCUDAHost", 3),
    ("kDLOpenCL", 4),
    ("kDLVulkan", 7),
    ("kDLMetal", 8),
    ("kDLVPI", 9),
    ("kDLROCM", 10),
    ("kDLROCMHost", 11),
    ("kDLExtDev", 12),
    ("kDLCUDAManaged", 13),
    ("kDLOneAPI", 14),
    ("kDLWebGPU", 15),
    ("kDLHexagon", 16),
    ("kDLMAIA", 17),
    ("kDLTrn", 18),
)


def __getattr__(name):
    if name == "DLDeviceType":
        from enum import IntEnum

        cls = IntEnum("DLDeviceType", _DEVICE_TYPES, module=__name__)
        cls.__doc__ = "DLPack device type codes."
        globals()["DLDeviceType"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def device(device_type, index=None) -> Device:
    """Make a :class:`Device`: ``device("cuda:0")``, ``device("cuda", 0)`` or ``device(2, 0)``."""
    return core._CLASS_DEVICE(device_type, index)  # core.Device unless _set_class_device

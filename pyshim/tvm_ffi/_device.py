"""Devices: :class:`tvm_ffi.Device` lives in the extension; this adds the enum."""
from enum import IntEnum

from .core import Device


class DLDeviceType(IntEnum):
    """DLPack device type codes."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18


def device(device_type, index=None) -> Device:
    """Make a :class:`Device`: ``device("cuda:0")``, ``device("cuda", 0)`` or ``device(2, 0)``."""
    return Device(device_type, index)

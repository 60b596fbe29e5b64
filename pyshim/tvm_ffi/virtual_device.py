"""tvm_ffi.VirtualDevice: where a value lives, as a set of optional constraints.

The FFI type "ffi.VirtualDevice" (see docs/reflection.md): four read-only
fields, each of which may be unconstrained: ``device_type_int`` (-1),
``virtual_device_id`` (-1), ``target`` (None) and ``memory_scope`` ("").
"""
from __future__ import annotations

from . import core
from .registry import get_global_func, register_object

_new = get_global_func("ffi.VirtualDevice")
_fully_unconstrained = get_global_func("ffi.VirtualDeviceFullyUnconstrained")
_canonical = get_global_func("ffi.VirtualDeviceCanonical")
_join = get_global_func("ffi.VirtualDeviceJoin")
_default = get_global_func("ffi.VirtualDeviceDefault")
_is_fully_unconstrained = get_global_func("ffi.VirtualDeviceIsFullyUnconstrained")
_is_fully_constrained = get_global_func("ffi.VirtualDeviceIsFullyConstrained")


@register_object("ffi.VirtualDevice")
class VirtualDevice(core.Object):
    """VirtualDevice(device=None, target=None, memory_scope="").

    ``device`` is a :class:`tvm_ffi.Device` (sets the device type and
    ``virtual_device_id`` from its index), a DLPack device type int (the
    id stays unconstrained) or None.  ``target`` is any FFI object or None.
    Equality and hashing are by value: two VirtualDevices are equal when
    their constraints are (targets by identity).
    """

    def __init__(self, device=None, target=None, memory_scope: str = "") -> None:
        if device is None:
            device_type, device_id = -1, -1
        elif isinstance(device, core.Device):
            device_type, device_id = device.dlpack_device_type(), device.index
        elif isinstance(device, int) and not isinstance(device, bool):
            device_type, device_id = device, -1
        else:
            raise TypeError(
                f"VirtualDevice: device must be a tvm_ffi.Device, a device type int or None, "
                f"got {type(device).__name__}"
            )
        if not isinstance(memory_scope, str):
            raise TypeError(
                f"VirtualDevice: memory_scope must be a str, got {type(memory_scope).__name__}"
            )
        self.__init_handle_by_constructor__(_new, device_type, device_id, target, memory_scope)

    def device_type(self) -> int:
        """The DLPack device type, -1 when unconstrained."""
        return self.device_type_int

    def is_fully_unconstrained(self) -> bool:
        return bool(_is_fully_unconstrained(self))

    def is_fully_constrained(self) -> bool:
        return bool(_is_fully_constrained(self))

    @staticmethod
    def fully_unconstrained() -> VirtualDevice:
        """The one shared VirtualDevice with nothing constrained."""
        return _fully_unconstrained()

    @staticmethod
    def canonical(vd: VirtualDevice) -> VirtualDevice:
        """The one object with ``vd``'s constraints (the fully unconstrained
        object when there are none)."""
        return _canonical(vd)

    @staticmethod
    def join(a: VirtualDevice, b: VirtualDevice) -> VirtualDevice | None:
        """The constraints of both, or None when they contradict."""
        return _join(a, b)

    @staticmethod
    def default(a: VirtualDevice, b: VirtualDevice) -> VirtualDevice:
        """``a`` with its unconstrained fields taken from ``b``."""
        return _default(a, b)

    def __repr__(self) -> str:
        parts = []
        if self.device_type_int != -1:
            parts.append(f"device_type={self.device_type_int}")
        if self.virtual_device_id != -1:
            parts.append(f"virtual_device_id={self.virtual_device_id}")
        if self.target is not None:
            parts.append(f"target={self.target!r}")
        if self.memory_scope:
            parts.append(f"memory_scope={str(self.memory_scope)!r}")
        return f"VirtualDevice({', '.join(parts)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VirtualDevice):
            return NotImplemented
        return _canonical(self).same_as(_canonical(other))

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(_canonical(self).__chandle__())

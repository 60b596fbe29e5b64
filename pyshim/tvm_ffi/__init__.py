"""tvm_ffi: Python bindings of the tvm-ffi stable C ABI.

The compiled part, :mod:`tvm_ffi.core`, is a hand-written C extension on the
CPython 3.12 limited API; everything else is plain Python on top of it.
"""
import sys as _sys

if _sys.version_info < (3, 12):  # pragma: no cover - the wheel is cp312-abi3
    raise ImportError(
        "tvm_ffi needs Python 3.12 or newer (its extension uses the 3.12 limited API); "
        f"this is Python {_sys.version.split()[0]}"
    )

import atexit as _atexit
import os as _os


def _refuse_mixed_installation():
    """Stop when apache-tvm-ffi was installed into this same folder.

    Both distributions (tvm-ffi and apache-tvm-ffi) install the import package
    ``tvm_ffi``, and pip lets the second overwrite the first file by file.
    Upstream's compiled core (``core.cpython-3XX-<platform>.so``) is preferred
    by the import system over our ``core.abi3.so``, so a mixed folder would run
    our Python files on upstream's extension.
    """
    here = _os.path.dirname(__file__)
    foreign = sorted(
        name for name in _os.listdir(here)
        if (name.startswith("core.") and name.endswith((".so", ".pyd")) and name != "core.abi3.so")
        or name == "cython"
    )
    if foreign:
        raise ImportError(
            f"tvm_ffi: {here} mixes two distributions: tvm-ffi and apache-tvm-ffi both install "
            f"the package tvm_ffi, and files of apache-tvm-ffi are here ({', '.join(foreign)}). "
            "Keep one of them: `pip uninstall -y tvm-ffi apache-tvm-ffi`, then "
            "`pip install tvm-ffi` (or apache-tvm-ffi)."
        )


_refuse_mixed_installation()

from . import core
from .core import CAny, Device, Function, Object
from ._device import device
from ._dtype import dtype
from ._dtype import (  # the named dtypes (tvm_ffi.float32 ...); `bool` is dtype("bool")
    bool,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float64,
    float32,
    float16,
    bfloat16,
    float8_e3m4,
    float8_e4m3,
    float8_e4m3b11fnuz,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
    float6_e2m3fn,
    float6_e3m2fn,
    float4_e2m1fn,
    float4_e2m1fnx2,
)
from ._convert import ObjectConvertible, convert, convert_func
from .error import register_error
from .registry import (
    get_global_func,
    get_global_func_metadata,
    get_registered_type_keys,
    init_ffi_api,
    list_global_func_names,
    register_global_func,
    register_object,
    remove_global_func,
)
from .container import Array, CContainerBase, Dict, List, Map, Shape
from ._tensor import Tensor, from_dlpack
from . import libinfo
from .module import Module, load_module, system_lib
from .virtual_device import VirtualDevice
from . import serialization
from .type_schema import TypeSchema as _TypeSchema

from . import _type_info  # noqa: E402,F401  (core._lookup_..., core.object_repr)
from . import _native  # noqa: E402,F401  (core.String, core.Bytes, core.PyNativeObject)
from .container import Error as _Error, OpaquePyObject as _OpaquePyObject

core.TypeSchema = _TypeSchema  # upstream spells it tvm_ffi.core.TypeSchema
# Upstream's core names for classes that live in Python here.  Every FFI
# object class derives from core.Object, which is upstream's CObject too.
core.Error = _Error
core.OpaquePyObject = _OpaquePyObject
core.CObject = core.Object
from ._field_access import ByteArrayArg as _ByteArrayArg, FieldGetter as _FieldGetter  # noqa: E402
from ._field_access import FieldSetter as _FieldSetter  # noqa: E402

core.FieldGetter = _FieldGetter
core.FieldSetter = _FieldSetter
core.ByteArrayArg = _ByteArrayArg


def _core_getattr(name):
    # core.DLDeviceType is tvm_ffi.DLDeviceType, made on first use (_device.py).
    if name == "DLDeviceType":
        from ._device import DLDeviceType

        return DLDeviceType
    raise AttributeError(f"module 'tvm_ffi.core' has no attribute {name!r}")


if not hasattr(core, "__getattr__"):
    core.__getattr__ = _core_getattr
_type_info._bind_builtin_classes(
    {
        "ffi.Object": core.Object,
        "ffi.Function": core.Function,
        "DataType": core.DataType,
        "Device": core.Device,
        "ffi.Tensor": Tensor,
        "ffi.Shape": Shape,
        "ffi.String": _native.String,
        "ffi.Bytes": _native.Bytes,
    }
)

# apache-tvm-ffi's extension links libtvm_ffi_testing, so its testing.*
# functions and testing types exist as soon as tvm_ffi is imported, and code
# and tests written for it call them without importing tvm_ffi.testing.  The
# library is loaded the same way here (a few milliseconds; not the Python
# module tvm_ffi.testing, which imports more).  A build without it loads none.
try:
    _testing_lib_path = libinfo.find_libtvm_ffi_testing()
except RuntimeError:
    _testing_lib_path = None
if _testing_lib_path is not None:
    core._dlopen_global(_testing_lib_path)
del _testing_lib_path

# Measured on the reference machine: releasing and re-taking the GIL costs
# about 60 ns, more than a whole minimal call, so calls keep the GIL unless a
# Function's release_gil is set (docs/python.md, "The GIL").
core._set_release_gil_default(
    _os.environ.get("TVM_FFI_RELEASE_GIL_BY_DEFAULT", "0") not in ("", "0")
)
# From interpreter exit on, FFI objects released by other threads leak their
# Python references instead of waiting for a GIL that will never come.
_atexit.register(core._set_finalizing)


_STRUCTURAL = (
    "DefRegionKind",
    "InplaceMode",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "deep_copy",
    "get_first_structural_mismatch",
    "repr_print",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
    "visit_fields",
)


def __getattr__(name):
    # Names made or imported on first use.  The value is then stored in the
    # module, so later reads are plain attribute reads (this function runs
    # only for a name the module does not have yet).
    value = _lazy_attribute(name)
    globals()[name] = value
    return value


def _lazy_attribute(name):
    # DLDeviceType is an IntEnum made on first use (see _device.py).
    if name == "DLDeviceType":
        from ._device import DLDeviceType

        return DLDeviceType
    if name == "LIB":  # libtvm_ffi as a ctypes.CDLL, loaded (RTLD_GLOBAL) on first use
        return libinfo.load_lib_ctypes("apache-tvm-ffi", "tvm_ffi", "RTLD_GLOBAL")
    if name == "cpp":  # the compiler driver, imported when first used
        import importlib

        return importlib.import_module(".cpp", __name__)
    if name in _STRUCTURAL:  # imported when first used (see structural.py)
        from . import structural

        return getattr(structural, name)
    if name == "dataclasses":  # imported when first used
        import importlib

        return importlib.import_module(".dataclasses", __name__)
    if name == "method":  # with dataclasses, imported when first used
        from .dataclasses._typemethod import method

        return method
    if name in ("access_path", "utils"):
        import importlib

        return importlib.import_module("." + name, __name__)
    if name == "ModulePropertyMask":  # likewise (see module.py)
        from .module import ModulePropertyMask

        return ModulePropertyMask
    if name in ("StreamContext", "use_raw_stream", "use_torch_stream", "get_raw_stream"):
        from . import stream  # imported on first use (see stream.py)

        return getattr(stream, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from ._version import __version__, __version_tuple__  # noqa: E402

__all__ = [
    "Array",
    "CAny",
    "LIB",
    "DLDeviceType",
    "Dict",
    "List",
    "Device",
    "Function",
    "Map",
    "Module",
    "ModulePropertyMask",
    "Object",
    "ObjectConvertible",
    "Shape",
    "StreamContext",
    "Tensor",
    "VirtualDevice",
    "access_path",
    "convert",
    "dataclasses",
    *_STRUCTURAL,
    "convert_func",
    "device",
    "dtype",
    "from_dlpack",
    "get_global_func",
    "get_global_func_metadata",
    "get_raw_stream",
    "get_registered_type_keys",
    "init_ffi_api",
    "libinfo",
    "load_module",
    "list_global_func_names",
    "method",
    "register_error",
    "register_global_func",
    "register_object",
    "serialization",
    "remove_global_func",
    "system_lib",
    "use_raw_stream",
    "use_torch_stream",
    "utils",
    "cpp",
    *_dtype._NAMED,
    "__version__",
    "__version_tuple__",
]

"""The testing helpers: loads libtvm_ffi_testing (the testing.* global
functions and object types used by the tests) and exposes

- every ``testing.<name>`` global function as ``tvm_ffi.testing.<name>``
  (``tvm_ffi.testing.echo`` ...);
- Python classes over its object types (``TestObjectBase``, ``TestIntPair``,
  ``TestCompare`` ...) and ``create_object`` (``add_one`` and
  ``make_unregistered_object`` are the global functions themselves);
- ``run_with_gpu_lock``, which serialises GPU work across test processes.

The names are those of upstream apache-tvm-ffi's ``tvm_ffi.testing``.
"""
import ctypes

from .. import libinfo
from ..registry import init_ffi_api

_LIB = ctypes.CDLL(libinfo.find_libtvm_ffi_testing(), mode=ctypes.RTLD_GLOBAL)
init_ffi_api("testing", __name__)

from . import _ffi_api  # noqa: E402,F401  (the same functions, per-namespace module)

from ._locking import run_with_gpu_lock  # noqa: E402
from .testing import (  # noqa: E402
    TestCompare,
    TestCustomCompare,
    TestCustomHash,
    TestEqWithoutHash,
    TestFrozenCxx,
    TestHash,
    TestIntPair,
    TestNonCopyable,
    TestObjectBase,
    TestObjectDerived,
    TestObjectPtrHolder,
    _SchemaAllTypes,
    _TestCxxAutoInit,
    _TestCxxAutoInitAllInitOff,
    _TestCxxAutoInitChild,
    _TestCxxAutoInitKwOnlyDefaults,
    _TestCxxAutoInitParent,
    _TestCxxAutoInitSimple,
    _TestCxxClassBase,
    _TestCxxClassDerived,
    _TestCxxClassDerivedDerived,
    _TestCxxEnumHolder,
    _TestCxxInitSubset,
    _TestCxxIntEnum,
    _TestCxxKwOnly,
    _TestCxxNoAutoInit,
    _TestCxxStrEnum,
    create_object,
)

"""Loads libtvm_ffi_testing (the testing.* global functions used by the tests)
and exposes them as attributes of this module: ``tvm_ffi.testing.echo``..."""
import ctypes

from . import libinfo
from .registry import init_ffi_api

_LIB = ctypes.CDLL(libinfo.find_libtvm_ffi_testing(), mode=ctypes.RTLD_GLOBAL)
init_ffi_api("testing", __name__)

"""The ``ffi.*`` global functions of libtvm_ffi as attributes of this module
(``_ffi_api.DeepCopy``, ``_ffi_api.RecursiveEq`` ...), looked up on import;
upstream's name for the same module."""
from .registry import init_ffi_api

init_ffi_api("ffi", __name__)

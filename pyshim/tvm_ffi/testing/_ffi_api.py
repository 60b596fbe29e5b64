"""The ``testing.*`` global functions of libtvm_ffi_testing as module
attributes (``tvm_ffi.testing._ffi_api.echo`` ...), the per-namespace module
upstream's packages make with ``init_ffi_api``.  ``tvm_ffi.testing`` loads the
library first and re-exports the same functions."""
from ..registry import init_ffi_api

init_ffi_api("testing", __name__)

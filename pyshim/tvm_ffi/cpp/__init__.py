"""Compiling C++ kernels against the installed tvm_ffi headers and loading them.

    mod = tvm_ffi.cpp.load_inline(
        "add", cpp_sources="int64_t add(int64_t a, int64_t b) { return a + b; }",
        functions=["add"])
    mod.add(1, 2)   # 3

See docs/modules.md.
"""
from . import dtype
from .dtype import to_cpp_dtype
from .extension import build, build_inline, load, load_inline

__all__ = ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]

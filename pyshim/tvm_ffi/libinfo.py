"""Where libtvm_ffi, its headers and its CMake / pkg-config files are.

The installed wheel layout is ``tvm_ffi/lib`` (libraries, ``cmake/tvm_ffi``,
``pkgconfig``) and ``tvm_ffi/include``; a source checkout uses the build
directory and the repository's ``include/``.
"""
from __future__ import annotations

import os

from . import core

_PKG_DIR = os.path.dirname(os.path.realpath(__file__))
_REPO_DIR = os.path.dirname(os.path.dirname(_PKG_DIR))


def find_libtvm_ffi() -> str:
    """The path of the libtvm_ffi shared library this process loaded."""
    return os.path.realpath(core._libtvm_ffi_path())


def find_lib_dir() -> str:
    """The directory of libtvm_ffi."""
    return os.path.dirname(find_libtvm_ffi())


def find_libtvm_ffi_testing() -> str:
    """The path of libtvm_ffi_testing (the testing.* functions), next to libtvm_ffi."""
    path = os.path.join(find_lib_dir(), "libtvm_ffi_testing.so")
    if not os.path.exists(path):
        raise RuntimeError(f"cannot find libtvm_ffi_testing.so; looked in {find_lib_dir()}")
    return path


def _first_existing(candidates: list[str], what: str) -> str:
    for path in candidates:
        if os.path.isdir(path):
            return path
    raise RuntimeError(f"cannot find {what}; looked in: {', '.join(candidates)}")


def find_include_path() -> str:
    """The directory holding ``tvm/ffi/c_api.h``."""
    return _first_existing(
        [os.path.join(_PKG_DIR, "include"), os.path.join(_REPO_DIR, "include")], "the headers"
    )


def find_cmake_path() -> str:
    """The directory holding ``tvm_ffiConfig.cmake`` (for ``-Dtvm_ffi_DIR=...``)."""
    lib_dir = find_lib_dir()
    return _first_existing(
        [os.path.join(lib_dir, "cmake", "tvm_ffi"), os.path.join(_PKG_DIR, "lib", "cmake", "tvm_ffi")],
        "the CMake package files",
    )


def find_pkgconfig_path() -> str:
    """The directory holding ``tvm_ffi.pc``."""
    lib_dir = find_lib_dir()
    return _first_existing(
        [os.path.join(lib_dir, "pkgconfig"), os.path.join(_PKG_DIR, "lib", "pkgconfig")],
        "the pkg-config files",
    )


def find_source_dir() -> str | None:
    """The root of the C/C++ sources (``core/``, ``c_api/``, ``CMakeLists.txt``)
    when this package runs from a source checkout or its build tree; None for
    an installed wheel, which carries no sources."""
    markers = ("CMakeLists.txt", os.path.join("core", "backtrace.cc"), os.path.join("c_api", "exports.map"))
    if all(os.path.isfile(os.path.join(_REPO_DIR, m)) for m in markers):
        return _REPO_DIR
    return None


def include_paths() -> list[str]:
    return [find_include_path()]

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


def find_dlpack_include_path() -> str:
    """The include directory for DLPack's types.  Here it is the directory of
    :func:`find_include_path`: ``tvm/ffi/c_api.h`` declares the DLPack 1.x
    structs itself (no separate ``dlpack/dlpack.h`` ships), so code that
    includes ``tvm/ffi/c_api.h`` needs no other path.  When a
    ``dlpack/dlpack.h`` is installed next to the headers, that directory is it."""
    candidates = [os.path.join(_PKG_DIR, "include"), os.path.join(_REPO_DIR, "include")]
    for path in candidates:
        if os.path.isfile(os.path.join(path, "dlpack", "dlpack.h")):
            return path
    return find_include_path()


def find_source_path() -> str:
    """The source tree: the directory with ``include/tvm/ffi/c_api.h`` and the
    C/C++ sources (a checkout, or the installed package, which carries the
    headers)."""
    for path in (_REPO_DIR, _PKG_DIR):
        if os.path.isfile(os.path.join(path, "include", "tvm", "ffi", "c_api.h")):
            return path
    raise RuntimeError(f"cannot find the tvm-ffi sources; looked in: {_REPO_DIR}, {_PKG_DIR}")


def _find_library_by_basename(package: str, target_name: str, extra_lib_paths=None):
    """The ``pathlib.Path`` of ``lib<target_name>.so``, looked for in
    ``extra_lib_paths`` (a list of ``pathlib.Path``), then next to
    libtvm_ffi, then among ``package``'s installed files; RuntimeError
    naming the places when it is in none."""
    from pathlib import Path  # noqa: PLC0415

    name = f"lib{target_name}.so"
    dirs = []
    for i, p in enumerate(extra_lib_paths or ()):
        if not isinstance(p, Path):
            raise TypeError(f"extra_lib_paths[{i}] must be a pathlib.Path, got {p!r}")
        dirs.append(str(p))
    dirs.append(find_lib_dir())
    try:
        from importlib import metadata  # noqa: PLC0415

        for f in metadata.files(package) or ():
            if f.name == name:
                dirs.append(os.path.dirname(str(f.locate())))
    except Exception:  # noqa: BLE001 - no such distribution: only the other places
        pass
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return Path(os.path.realpath(path))
    raise RuntimeError(f"cannot find {name}; looked in: {', '.join(dirs)}")


def find_cython_lib() -> str:
    """Upstream's path of its Cython extension; there is none here (the
    extension, ``core.abi3.so``, is hand-written C), so RuntimeError."""
    raise RuntimeError(
        "tvm_ffi has no Cython library: its extension is the C module "
        f"{core.__file__}"
    )


def find_python_helper_include_path() -> str:
    """Upstream's directory of ``tvm_ffi_python_helpers.h``; that header does
    not exist here (the extension is plain C on the limited API), so
    RuntimeError."""
    raise RuntimeError("tvm_ffi ships no tvm_ffi_python_helpers.h (its extension is plain C)")


def find_windows_implib() -> str:
    """The Windows import library of tvm_ffi; this build is for Linux and
    macOS only, so RuntimeError."""
    raise RuntimeError("tvm_ffi has no Windows import library (tvm_ffi.lib) on this platform")


def load_lib_ctypes(package: str, target_name: str, mode: str, extra_lib_paths=None):
    """``ctypes.CDLL`` of ``lib<target_name>.so`` (found as :func:`_find_library_by_basename`
    says), opened with ``ctypes.<mode>`` (``"RTLD_LOCAL"`` or ``"RTLD_GLOBAL"``)."""
    import ctypes  # noqa: PLC0415

    if mode not in ("RTLD_LOCAL", "RTLD_GLOBAL"):
        raise ValueError(f"mode must be 'RTLD_LOCAL' or 'RTLD_GLOBAL', got {mode!r}")
    path = _find_library_by_basename(package, target_name, extra_lib_paths)
    return ctypes.CDLL(str(path), getattr(ctypes, mode))


def load_lib_module(package: str, target_name: str, keep_module_alive: bool = True,
                    extra_lib_paths=None):
    """``lib<target_name>.so`` (found as :func:`_find_library_by_basename` says) loaded as
    a :class:`tvm_ffi.Module`."""
    from .module import load_module  # noqa: PLC0415

    path = _find_library_by_basename(package, target_name, extra_lib_paths)
    return load_module(str(path), keep_module_alive=keep_module_alive)

"""``tvm-ffi-config`` (or ``python -m tvm_ffi.config``): where the installed
library, headers and build files are, and the flags to compile and link
against them.

Each flag prints one line, in the order the flags are given; a flag that
names something this installation does not have (``--sourcedir`` without a
source checkout) exits with status 2 and says why on stderr.
"""
import argparse
import sys

from . import libinfo


def _cflags() -> str:
    # Both directories, as apache-tvm-ffi prints them, even when they are one.
    return f"-I{libinfo.find_include_path()} -I{libinfo.find_dlpack_include_path()}"


def _ldflags() -> str:
    lib_dir = libinfo.find_lib_dir()
    return f"-L{lib_dir} -Wl,-rpath,{lib_dir}"


# flag -> (help, function printing its value).  Same names as apache-tvm-ffi's
# command where the notion exists here.
_QUERIES = {
    "--includedir": ("directory holding tvm/ffi/c_api.h", libinfo.find_include_path),
    "--dlpack-includedir": (
        "directory to add for the DLPack types: the same as --includedir, since "
        "tvm/ffi/c_api.h defines DLPack 1.x itself (no dlpack/dlpack.h is installed)",
        libinfo.find_dlpack_include_path),
    "--libdir": ("directory holding libtvm_ffi.so", libinfo.find_lib_dir),
    "--libfiles": ("full path of libtvm_ffi.so", libinfo.find_libtvm_ffi),
    "--libs": ("libraries to link: -ltvm_ffi", lambda: "-ltvm_ffi"),
    "--cmakedir": ("directory of tvm_ffiConfig.cmake (for -Dtvm_ffi_DIR=...)",
                   libinfo.find_cmake_path),
    "--pkgconfigdir": ("directory of tvm_ffi.pc (for PKG_CONFIG_PATH)",
                       libinfo.find_pkgconfig_path),
    "--sourcedir": ("the tree holding include/tvm/ffi/c_api.h: the checkout, or the "
                    "installed package", libinfo.find_source_path),
    "--cython-lib-path": ("upstream's Cython library: there is none here, so an error",
                          libinfo.find_cython_lib),
    "--cflags": ("C compiler flags: -I the headers and -I the DLPack headers", _cflags),
    "--cxxflags": ("C++ compiler flags", lambda: f"{_cflags()} -std=c++17"),
    "--ldflags": ("linker flags: search path and run-time path of libtvm_ffi", _ldflags),
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-config", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, (text, _) in _QUERIES.items():
        parser.add_argument(flag, dest="queries", action="append_const", const=flag, help=text)
    return parser


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.queries:
        parser.print_help()
        return 0
    lines = []
    for flag in args.queries:
        try:
            lines.append(_QUERIES[flag][1]())
        except (LookupError, RuntimeError) as err:
            print(f"tvm-ffi-config: {flag}: {err}", file=sys.stderr)
            return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

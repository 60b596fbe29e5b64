"""``python -m tvm_ffi.config``: compiler and linker flags for code that uses libtvm_ffi."""
import argparse
import sys

from . import libinfo


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tvm_ffi.config", description=__doc__)
    parser.add_argument("--includedir", action="store_true", help="header directory")
    parser.add_argument("--dlpack-includedir", action="store_true",
                        help="include directory for DLPack's types")
    parser.add_argument("--sourcedir", action="store_true", help="source tree of tvm-ffi")
    parser.add_argument("--cython-lib-path", action="store_true",
                        help="upstream's Cython library (there is none here: an error)")
    parser.add_argument("--libdir", action="store_true", help="library directory")
    parser.add_argument("--libfiles", action="store_true", help="path of libtvm_ffi")
    parser.add_argument("--cmakedir", action="store_true", help="directory for -Dtvm_ffi_DIR")
    parser.add_argument("--pkgconfigdir", action="store_true", help="directory of tvm_ffi.pc")
    parser.add_argument("--libs", action="store_true", help="linker flags for the library")
    parser.add_argument("--cflags", action="store_true", help="C compiler flags")
    parser.add_argument("--cxxflags", action="store_true", help="C++ compiler flags")
    parser.add_argument("--ldflags", action="store_true", help="linker search flags")
    args = parser.parse_args(argv)
    out = []
    if args.cython_lib_path:
        try:
            libinfo.find_cython_lib()
        except RuntimeError as e:
            print(f"python -m tvm_ffi.config: {e}", file=sys.stderr)
            return 1
    if args.includedir:
        out.append(libinfo.find_include_path())
    if args.dlpack_includedir:
        out.append(libinfo.find_dlpack_include_path())
    if args.sourcedir:
        out.append(libinfo.find_source_path())
    if args.libdir:
        out.append(libinfo.find_lib_dir())
    if args.libfiles:
        out.append(libinfo.find_libtvm_ffi())
    if args.cmakedir:
        out.append(libinfo.find_cmake_path())
    if args.pkgconfigdir:
        out.append(libinfo.find_pkgconfig_path())
    if args.libs:
        out.append("-ltvm_ffi")
    if args.cflags:
        out.append(f"-I{libinfo.find_include_path()}")
    if args.cxxflags:
        out.append(f"-I{libinfo.find_include_path()} -std=c++17")
    if args.ldflags:
        out.append(f"-L{libinfo.find_lib_dir()} -Wl,-rpath,{libinfo.find_lib_dir()}")
    if not out:
        parser.print_help()
        return 0
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

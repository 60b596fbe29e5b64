"""`python -m tvm_ffi.config` and the `tvm-ffi-config` script: the flags they
print let a plain C compiler build and run a program against the library the
installed package carries."""
import os
import shutil
import subprocess
import sys

import pytest

from tvm_ffi import libinfo


def config(*flags):
    out = subprocess.run([sys.executable, "-m", "tvm_ffi.config", *flags],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def test_directories():
    include = config("--includedir")
    assert include == libinfo.find_include_path()
    assert os.path.isfile(os.path.join(include, "tvm", "ffi", "c_api.h"))
    assert config("--libdir") == os.path.dirname(libinfo.find_libtvm_ffi())
    try:
        libinfo.find_cmake_path()
        installed = True
    except RuntimeError:  # the package of a build tree (make asan) has no CMake files
        installed = False
    if installed:
        assert os.path.isfile(os.path.join(config("--cmakedir"), "tvm_ffiConfig.cmake"))
    # The DLPack directory too, as upstream prints it (here the same directory).
    assert config("--cflags") == f"-I{include} -I{libinfo.find_dlpack_include_path()}"
    assert config("--cxxflags") == config("--cflags") + " -std=c++17"
    assert config("--libs") == "-ltvm_ffi"


def test_console_script_matches_module():
    script = os.path.join(os.path.dirname(sys.executable), "tvm-ffi-config")
    if not os.path.exists(script):
        pytest.skip("tvm-ffi-config is installed only with the wheel")
    out = subprocess.run([script, "--includedir", "--libdir"], check=True,
                         capture_output=True, text=True).stdout.strip()
    assert out == config("--includedir", "--libdir")


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_flags_build_a_program(tmp_path):
    src = tmp_path / "version.c"
    src.write_text(
        "#include <stdio.h>\n#include <tvm/ffi/c_api.h>\n"
        "int main(void) { TVMFFIVersion v; TVMFFIGetVersion(&v);\n"
        "  printf(\"%u.%u\\n\", v.major, v.minor); return 0; }\n")
    exe = tmp_path / "version"
    flags = config("--cflags").split() + config("--ldflags").split() + config("--libs").split()
    subprocess.run(["cc", str(src), "-o", str(exe), *flags], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    assert out == "0.1\n"


# apache-tvm-ffi's command accepts these (--cython-lib-path is an error here:
# there is no Cython layer).
UPSTREAM_FLAGS = ["--includedir", "--dlpack-includedir", "--cmakedir", "--sourcedir", "--libfiles",
                  "--libdir", "--libs", "--cxxflags", "--cflags", "--ldflags", "--cython-lib-path"]


def run_config(*flags):
    return subprocess.run([sys.executable, "-m", "tvm_ffi.config", *flags],
                          capture_output=True, text=True)


def test_help_lists_every_upstream_flag():
    out = config("--help")
    for flag in UPSTREAM_FLAGS + ["--pkgconfigdir"]:
        assert flag in out, flag
    assert config() == out  # no flag: the help


def test_lines_follow_the_order_of_the_flags():
    include, lib_dir = libinfo.find_include_path(), libinfo.find_lib_dir()
    assert config("--libdir", "--includedir").splitlines() == [lib_dir, include]
    assert config("--includedir", "--libdir").splitlines() == [include, lib_dir]


def test_dlpack_includedir_and_libfiles():
    include = config("--dlpack-includedir")
    # tvm/ffi/c_api.h defines the DLPack 1.x types itself.
    assert include == config("--includedir")
    assert "DLManagedTensorVersioned" in open(os.path.join(include, "tvm", "ffi", "c_api.h")).read()
    libfile = config("--libfiles")
    assert libfile == libinfo.find_libtvm_ffi()
    assert os.path.basename(libfile) == "libtvm_ffi.so" and os.path.isfile(libfile)


def test_sourcedir_is_the_tree_with_the_headers():
    src = config("--sourcedir")
    assert src == libinfo.find_source_path()
    assert os.path.isfile(os.path.join(src, "include", "tvm", "ffi", "c_api.h"))


def test_cython_lib_path_is_a_clear_error():
    res = run_config("--cython-lib-path")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("tvm-ffi-config: --cython-lib-path: tvm_ffi has no Cython library")


def test_unknown_flag_is_refused_by_name():
    res = run_config("--includedir", "--no-such-flag")
    assert res.returncode == 2 and res.stdout == ""
    assert "unrecognized arguments: --no-such-flag" in res.stderr


@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")
def test_cxxflags_build_a_cpp_program(tmp_path):
    src = tmp_path / "version.cc"
    src.write_text(
        "#include <cstdio>\n#include <tvm/ffi/c_api.h>\n"
        "int main() { TVMFFIVersion v; TVMFFIGetVersion(&v);\n"
        "  std::printf(\"%u.%u\\n\", v.major, v.minor); return 0; }\n")
    exe = tmp_path / "version"
    flags = config("--cxxflags").split() + config("--ldflags").split() + config("--libs").split()
    assert "-std=c++17" in flags
    subprocess.run(["c++", str(src), "-o", str(exe), *flags], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    assert out == "0.1\n"

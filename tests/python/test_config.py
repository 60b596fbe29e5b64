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
    assert config("--cflags") == f"-I{include}"
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


def test_upstream_path_flags():
    assert config("--dlpack-includedir") == libinfo.find_dlpack_include_path()
    src = config("--sourcedir")
    assert src == libinfo.find_source_path()
    assert os.path.isfile(os.path.join(src, "include", "tvm", "ffi", "c_api.h"))
    out = subprocess.run([sys.executable, "-m", "tvm_ffi.config", "--cython-lib-path"],
                         capture_output=True, text=True)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("python -m tvm_ffi.config: tvm_ffi has no Cython library")

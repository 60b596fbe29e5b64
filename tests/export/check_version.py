"""The version is written in four places; they must agree.

The header's TVM_FFI_VERSION_MAJOR/MINOR/PATCH are the authority; CMake's
project() version (pkg-config, CMake package), pyproject.toml and the Python
package's __version__ (pyshim/tvm_ffi/_version.py) must equal it.

    usage: check_version.py <source root>
"""
import re
import sys
from pathlib import Path


def main() -> int:
    root = Path(sys.argv[1])
    header = (root / "include/tvm/ffi/c_api.h").read_text()
    parts = [re.search(rf"#define TVM_FFI_VERSION_{p} (\d+)", header).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    want = ".".join(parts)
    found = {
        "CMakeLists.txt project()": re.search(
            r"project\(tvm_ffi VERSION ([\d.]+)", (root / "CMakeLists.txt").read_text()).group(1),
        "pyproject.toml": re.search(
            r'^version = "([^"]+)"', (root / "pyproject.toml").read_text(), re.M).group(1),
        "tvm_ffi.__version__": re.search(
            r'^version = __version__ = "([^"]+)"',
            (root / "pyshim/tvm_ffi/_version.py").read_text(), re.M).group(1),
        "tvm_ffi.__version_tuple__": ".".join(re.search(
            r"^version_tuple = __version_tuple__ = \((\d+), (\d+), (\d+)\)",
            (root / "pyshim/tvm_ffi/_version.py").read_text(), re.M).groups()),
    }
    bad = {k: v for k, v in found.items() if v != want}
    for k, v in found.items():
        print(f"{'ok  ' if v == want else 'FAIL'} {k}: {v}")
    print(f"header version {want}: {len(found) - len(bad)} agree, {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

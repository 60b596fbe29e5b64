#!/usr/bin/env bash
# The package tests (`make package-test`):
#   wheel  built and checked by .ci/build-wheel.sh (manylinux tag from
#          `auditwheel show`, NEEDED of every .so, line tables, size), then
#          installed into a fresh venv: import and call, the traceback and
#          config tests, and a consumer built with find_package(tvm_ffi) and
#          with pkg-config while neither can see libunwind's (or any other
#          system package's) build files;
#   sdist  built with `python -m build --sdist`; holds no tests/bench/examples;
#          a plain `cmake -S` of it configures; `pip install` of the tarball
#          into a fresh venv builds, and the installed package imports and calls.
# Any failure stops the script non-zero.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${TVM_FFI_PACKAGE_TEST_DIR:-$ROOT/build-package-test}"
CACHE="${TVM_FFI_CACHE_DIR:-$HOME/.cache/tvm-ffi}"
TOOLS="$CACHE/venv-wheel-tools"  # made by build-wheel.sh

fail() {
  echo "package-tests: FAILED: $*" >&2
  exit 1
}
step() { echo "=== package-tests: $*"; }

if command -v pyenv >/dev/null 2>&1; then
  PYENV_ROOT="$(pyenv root)"
else
  PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"
fi
PY312="$(ls -d "$PYENV_ROOT"/versions/3.12.*/bin/python3.12 2>/dev/null | sort -V | tail -n 1)"
[ -n "$PY312" ] || fail "no Python 3.12 under $PYENV_ROOT/versions (install it with pyenv)"

rm -rf "$WORK"
mkdir -p "$WORK"

# The call every installed package must answer.
SMOKE='
import tvm_ffi
arr = tvm_ffi.get_global_func("ffi.Array")(1, 2, 3)
assert list(arr) == [1, 2, 3], list(arr)
assert str(tvm_ffi.dtype("float32x4")) == "float32x4"
print("import and call ok:", tvm_ffi.__file__)
'

# Wheel ------------------------------------------------------------------------------
step "building and checking the wheel (.ci/build-wheel.sh)"
WHEEL="$(bash "$ROOT/.ci/build-wheel.sh" | tail -n 1)" || fail "build-wheel.sh"
[ -f "$WHEEL" ] || fail "build-wheel.sh printed no wheel path"
step "wheel: $(basename "$WHEEL") ($(stat -c %s "$WHEEL") bytes)"

step "wheel: fresh venv"
"$PY312" -m venv "$WORK/venv-wheel"
VPY="$WORK/venv-wheel/bin/python"
"$VPY" -m pip install --quiet "$WHEEL" pytest || fail "installing the wheel"
(cd "$WORK" && "$VPY" -c "$SMOKE") || fail "import and call from the wheel"
(cd "$WORK" && "$VPY" -m pytest -q -p no:cacheprovider \
  "$ROOT/tests/python/test_traceback.py" "$ROOT/tests/python/test_config.py") ||
  fail "the traceback and config tests on the installed wheel"

# A library frame from the wheel: the source path relative to the tree, the
# raising line, a short name.
(cd "$WORK" && "$VPY" - <<'EOF') || fail "library frames of the installed wheel"
import traceback, tvm_ffi
try:
    tvm_ffi.dtype("float33x")
except ValueError as e:
    frame = traceback.extract_tb(e.__traceback__)[-1]
print(f"innermost frame: {frame.filename}, line {frame.lineno}, in {frame.name}")
assert frame.filename == "core/dtype.cc" and frame.lineno > 0, frame
assert frame.name.startswith("tvm::ffi::detail::core::dtype::") and len(frame.name) <= 128, frame.name
EOF

CONFIG="$WORK/venv-wheel/bin/tvm-ffi-config"
CMAKEDIR="$("$CONFIG" --cmakedir)" || fail "tvm-ffi-config --cmakedir"
PCDIR="$("$CONFIG" --pkgconfigdir)" || fail "tvm-ffi-config --pkgconfigdir"
LIBDIR="$("$CONFIG" --libdir)" || fail "tvm-ffi-config --libdir"
case "$CMAKEDIR" in "$WORK/venv-wheel/"*) ;; *) fail "--cmakedir is outside the venv: $CMAKEDIR" ;; esac

mkdir -p "$WORK/consumer"
cat >"$WORK/consumer/app.c" <<'EOF'
#include <stdio.h>
#include <tvm/ffi/c_api.h>
int main(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  TVMFFIByteArray name = {"ffi.Array", 9};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&name, &f) != 0 || f == NULL) return 1;
  TVMFFIObjectDecRef(f);
  printf("tvm_ffi %u.%u\n", v.major, v.minor);
  return 0;
}
EOF
cat >"$WORK/consumer/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(consumer C CXX)
find_package(tvm_ffi 0.1 REQUIRED CONFIG)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE tvm_ffi::tvm_ffi)
if(TARGET tvm_ffi::tvm_ffi_static)
  message(FATAL_ERROR "the wheel ships no libtvm_ffi.a, yet tvm_ffi::tvm_ffi_static exists")
endif()
# apache-tvm-ffi's names (tests/install/check_cmake_targets.sh builds with them).
foreach(name tvm_ffi::header tvm_ffi::shared)
  if(NOT TARGET ${name})
    message(FATAL_ERROR "the wheel's CMake package has no ${name}")
  endif()
endforeach()
EOF
# Nothing from the system's pkg-config files (libunwind.pc among them), and no
# PkgConfig module at all: the package must not need them.
step "wheel: find_package(tvm_ffi) without pkg-config or libunwind's build files"
env PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= \
  cmake -S "$WORK/consumer" -B "$WORK/consumer/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -Dtvm_ffi_DIR="$CMAKEDIR" >"$WORK/consumer.log" 2>&1 ||
  { cat "$WORK/consumer.log"; fail "configuring a find_package(tvm_ffi) consumer"; }
cmake --build "$WORK/consumer/build" >>"$WORK/consumer.log" 2>&1 ||
  { cat "$WORK/consumer.log"; fail "building the find_package(tvm_ffi) consumer"; }
# Found through the imported target's run-time path (no LD_LIBRARY_PATH).
out="$("$WORK/consumer/build/app_shared")" || fail "app_shared failed"
[ "$out" = "tvm_ffi 0.1" ] || fail "app_shared printed '$out'"
echo "app_shared: $out"

step "wheel: pkg-config with only the wheel's tvm_ffi.pc"
pc() { PKG_CONFIG_LIBDIR="$PCDIR" PKG_CONFIG_PATH= pkg-config "$@"; }
pc --exists tvm_ffi || fail "pkg-config cannot find tvm_ffi in $PCDIR"
for mode in "" "--static"; do
  # shellcheck disable=SC2086
  flags="$(pc $mode --cflags --libs tvm_ffi)" || fail "pkg-config $mode tvm_ffi"
  echo "pkg-config $mode: $flags"
  ! grep -q unwind <<<"$flags" || fail "pkg-config $mode names libunwind: $flags"
done
# shellcheck disable=SC2046
cc "$WORK/consumer/app.c" -o "$WORK/consumer/app_pc" $(pc --cflags --libs tvm_ffi) ||
  fail "building with pkg-config's flags"
out="$(LD_LIBRARY_PATH="$LIBDIR" "$WORK/consumer/app_pc")" || fail "app_pc failed"
[ "$out" = "tvm_ffi 0.1" ] || fail "app_pc printed '$out'"
echo "app_pc: $out"

# sdist ------------------------------------------------------------------------------
step "sdist: python -m build --sdist"
"$TOOLS/bin/python" -m build --sdist --no-isolation --outdir "$WORK/sdist" "$ROOT" \
  >"$WORK/sdist.log" 2>&1 || { cat "$WORK/sdist.log"; fail "python -m build --sdist"; }
shopt -s nullglob
tarballs=("$WORK"/sdist/tvm_ffi-*.tar.gz)
[ "${#tarballs[@]}" -eq 1 ] || fail "expected one sdist, got: ${tarballs[*]:-none}"
SDIST="${tarballs[0]}"
step "sdist: $(basename "$SDIST") ($(stat -c %s "$SDIST") bytes)"
tops="$(tar tzf "$SDIST" | sed 's|^[^/]*/||' | cut -d/ -f1 | sort -u | tr '\n' ' ')"
echo "top level: $tops"
for part in CMakeLists.txt pyproject.toml cmake c_api core include pyshim testing; do
  grep -qw -- "$part" <<<"$tops" || fail "the sdist has no $part"
done
for part in tests bench examples fuzz .ci; do
  ! grep -qw -- "$part" <<<"$tops" || fail "the sdist carries $part/"
done

step "sdist: plain cmake -S of the unpacked tarball configures"
mkdir -p "$WORK/unpacked"
tar xzf "$SDIST" -C "$WORK/unpacked"
src=("$WORK"/unpacked/tvm_ffi-*)
cmake -S "${src[0]}" -B "$WORK/unpacked-build" -G Ninja >"$WORK/unpacked-cmake.log" 2>&1 ||
  { cat "$WORK/unpacked-cmake.log"; fail "cmake -S of the unpacked sdist"; }
if cmake -S "${src[0]}" -B "$WORK/unpacked-build-tests" -DTVM_FFI_BUILD_TESTS=ON \
  >"$WORK/unpacked-tests.log" 2>&1; then
  fail "TVM_FFI_BUILD_TESTS=ON configured without tests/"
fi
# (CMake wraps the message: compare it on one line.)
tr -s ' \n' '  ' <"$WORK/unpacked-tests.log" | grep -q "TVM_FFI_BUILD_TESTS=ON but .*/tests/ is missing" ||
  { cat "$WORK/unpacked-tests.log"; fail "TVM_FFI_BUILD_TESTS=ON without tests/: no clear message"; }

step "sdist: pip install of the tarball into a fresh venv (builds the library)"
"$PY312" -m venv "$WORK/venv-sdist"
start=$(date +%s)
CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-2}" CMAKE_C_COMPILER_LAUNCHER=ccache \
  CMAKE_CXX_COMPILER_LAUNCHER=ccache \
  "$WORK/venv-sdist/bin/python" -m pip install "$SDIST" >"$WORK/sdist-install.log" 2>&1 ||
  { tail -n 60 "$WORK/sdist-install.log"; fail "pip install $(basename "$SDIST")"; }
echo "pip install of the sdist took $(( $(date +%s) - start )) s"
(cd "$WORK" && "$WORK/venv-sdist/bin/python" -c "$SMOKE") || fail "import and call from the sdist"
"$WORK/venv-sdist/bin/tvm-ffi-config" --libfiles || fail "tvm-ffi-config of the sdist install"

step "all package checks passed"

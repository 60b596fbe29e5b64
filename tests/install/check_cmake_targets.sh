#!/usr/bin/env bash
# The installed CMake package serves a project written for apache-tvm-ffi:
# `cmake --install` the build into a fresh prefix, then configure, build and
# run tests/install/upstream_cmake (find_package(tvm_ffi CONFIG REQUIRED),
# tvm_ffi::header and tvm_ffi::shared) against that prefix only.  pkg-config
# is made unusable and CMake's PkgConfig module unfindable: the package must
# not need them (nor libunwind's pkg-config file).
#
#   bash check_cmake_targets.sh <build dir> <work dir>
#
# TVM_FFI_EXTRA_FLAGS is added to every compile and link (the sanitizer build
# uses it).
set -euo pipefail
BUILD="$1"
WORK="$2"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXTRA="${TVM_FFI_EXTRA_FLAGS:-}"

rm -rf "$WORK"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
# Nothing of the source tree may leak in: build from a copy.
cp -r "$HERE/upstream_cmake" "$WORK/consumer"

echo "=== upstream-style CMake consumer against $WORK/prefix"
env PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= \
  cmake -S "$WORK/consumer" -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$WORK/prefix" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
  -DCMAKE_CXX_FLAGS="$EXTRA" -DCMAKE_EXE_LINKER_FLAGS="$EXTRA" \
  -DCMAKE_SHARED_LINKER_FLAGS="$EXTRA" >"$WORK/configure.log" 2>&1 ||
  { cat "$WORK/configure.log"; echo "cmake_targets: configuring failed" >&2; exit 1; }
cmake --build "$WORK/build" >"$WORK/build.log" 2>&1 ||
  { cat "$WORK/build.log"; echo "cmake_targets: building failed" >&2; exit 1; }

# The kernel was built with the headers only: libtvm_ffi is not among its
# dependencies.
kernel="$(find "$WORK/build" -maxdepth 1 -name 'libkernel.so' -print -quit)"
[ -n "$kernel" ] || { echo "cmake_targets: libkernel.so was not built" >&2; exit 1; }
if readelf -d "$kernel" | grep -q 'NEEDED.*libtvm_ffi'; then
  echo "cmake_targets: the tvm_ffi::header kernel depends on libtvm_ffi:" >&2
  readelf -d "$kernel" | grep NEEDED >&2
  exit 1
fi
echo "kernel (tvm_ffi::header): no libtvm_ffi dependency"
# The host finds libtvm_ffi through the imported target's run-time path.
"$WORK/build/host"
echo "cmake_targets: ok"

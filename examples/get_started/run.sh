#!/usr/bin/env bash
# Builds add_one against an INSTALLED tvm-ffi two ways -- with CMake
# (find_package(tvm_ffi)) and with one plain c++ command line -- then calls
# it from C and from C++ (and from Python when $PYTHON is set: an interpreter
# that imports tvm_ffi and numpy).
#
#   bash run.sh <install prefix> <work dir>
#
# TVM_FFI_EXTRA_FLAGS is added to every compile and link (the sanitizer build
# uses it).  Any failure stops the script non-zero.
set -euo pipefail

PREFIX="$(cd "$1" && pwd)"
WORK="$2"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXTRA="${TVM_FFI_EXTRA_FLAGS:-}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"

LIBDIR="$(dirname "$(find "$PREFIX" -name 'libtvm_ffi.so' -print -quit)")"
[ -n "$LIBDIR" ] && [ "$LIBDIR" != "." ] || { echo "get_started: no libtvm_ffi.so under $PREFIX" >&2; exit 1; }

echo "=== get_started: CMake build against $PREFIX"
cmake -S "$HERE" -B "$WORK/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS="$EXTRA" -DCMAKE_CXX_FLAGS="$EXTRA" \
  -DCMAKE_EXE_LINKER_FLAGS="$EXTRA" -DCMAKE_SHARED_LINKER_FLAGS="$EXTRA" >/dev/null
cmake --build "$WORK/cmake" >/dev/null
"$WORK/cmake/run_c" "$WORK/cmake/libadd_one.so"
"$WORK/cmake/run_cpp" "$WORK/cmake/libadd_one.so"

echo "=== get_started: one c++ command line"
# shellcheck disable=SC2086
c++ -std=c++17 -O2 -shared -fPIC $EXTRA -I"$PREFIX/include" "$HERE/add_one.cc" \
  -o "$WORK/libadd_one.so" -L"$LIBDIR" -ltvm_ffi -Wl,-rpath,"$LIBDIR"
"$WORK/cmake/run_c" "$WORK/libadd_one.so"
"$WORK/cmake/run_cpp" "$WORK/libadd_one.so"

# Python: when $PYTHON is set it must work (`make` sets it to the test
# environment, with the build tree's tvm_ffi on PYTHONPATH).
if [ -n "${PYTHON:-}" ]; then
  echo "=== get_started: Python ($PYTHON)"
  "$PYTHON" -c "import tvm_ffi, numpy" ||
    { echo "get_started: $PYTHON cannot import tvm_ffi and numpy" >&2; exit 1; }
  "$PYTHON" "$HERE/run.py" "$WORK/libadd_one.so"
else
  echo "=== get_started: Python skipped (set PYTHON to an interpreter with tvm_ffi and numpy)"
fi
echo "get_started: ok"

#!/usr/bin/env bash
# Runs a test program that was linked with OUR libtvm_ffi on UPSTREAM's
# libtvm_ffi.so instead: both have SONAME libtvm_ffi.so, so putting upstream's
# directory first on LD_LIBRARY_PATH swaps the library without relinking.
# Sets TVM_FFI_TEST_ON_UPSTREAM=1 so the program skips (with a printed reason)
# exactly the checks that depend on a difference listed in docs/abi.md.
#   usage: run_on_upstream.sh <directory holding upstream's libtvm_ffi.so> <program> [args...]
set -euo pipefail
dir="$(cd "$1" && pwd)"
shift
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TVM_FFI_TEST_ON_UPSTREAM=1
# Leaks inside upstream's library are not ours to report.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# The swap must really happen: the program must resolve libtvm_ffi.so there.
resolved="$(ldd "$1" | awk '$1 == "libtvm_ffi.so" { print $3 }')"
if [ "$resolved" != "$dir/libtvm_ffi.so" ]; then
  echo "FAIL: $1 resolves libtvm_ffi.so to '$resolved', not $dir/libtvm_ffi.so"
  exit 1
fi
echo "running $(basename "$1") on upstream's $resolved"
exec "$@"

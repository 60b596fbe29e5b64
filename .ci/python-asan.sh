#!/usr/bin/env bash
# The Python suite under AddressSanitizer and UndefinedBehaviorSanitizer,
# against the sanitized build tree that `make asan` has just built and tested
# (the library and the extension, -DTVM_FFI_SANITIZE=ON
# -DTVM_FFI_BUILD_PYTHON=ON; nothing is compiled here), with Python 3.12 from
# pyenv and torch (TVM_FFI_REQUIRE_TORCH=1).
#
#   ASAN_BUILD=<build dir> bash .ci/python-asan.sh
#
# The interpreter itself is not instrumented, so the ASan runtime is
# preloaded (with libstdc++), and leak detection is off: CPython keeps memory alive at exit
# by design.  Any ASan or UBSan report fails the run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ASAN_BUILD:-$ROOT/build-asan}"
# shellcheck source=python-env.sh
source "$ROOT/.ci/python-env.sh"

[ -f "$BUILD/python/tvm_ffi/core.abi3.so" ] || {
  echo "python-asan: $BUILD/python/tvm_ffi/core.abi3.so is missing; run \`make asan\`" >&2
  exit 1
}
PY312="$(find_python 3.12)"
# The environment make test-python-full uses for Python 3.12 (test
# requirements and torch).  The wheel that target installs into it is taken
# out, so that the sanitized build tree is the only tvm_ffi on the path.
VENV="$(torch_venv "$PY312")"
"$VENV/bin/python" -m pip uninstall --quiet --yes tvm-ffi >/dev/null 2>&1 || true

# libstdc++ is preloaded too: ASan intercepts __cxa_throw only when the C++
# runtime is present at start-up, and python itself is a C program.
PRELOAD="$(gcc -print-file-name=libasan.so) $(g++ -print-file-name=libstdc++.so)"
echo "=== python-asan: tests/python with $PRELOAD preloaded"
cd "$BUILD"
LD_PRELOAD="$PRELOAD" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  PYTHONPATH="$BUILD/python" TVM_FFI_REQUIRE_TORCH=1 \
  "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/tests/python"

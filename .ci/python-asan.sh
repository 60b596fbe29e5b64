#!/usr/bin/env bash
# The Python suite under AddressSanitizer and UndefinedBehaviorSanitizer:
# builds the library and the extension with -DTVM_FFI_SANITIZE=ON into
# build-asan/ (next to the C/C++ sanitizer build `make asan` makes) and runs
# tests/python against that build with Python 3.12 from pyenv.
#
# The interpreter itself is not instrumented, so the ASan runtime is
# preloaded (with libstdc++), and leak detection is off: CPython keeps memory alive at exit
# by design.  Any ASan or UBSan report fails the run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ASAN_BUILD:-$ROOT/build-asan}"
VENV="$BUILD/venv-python-asan"

if command -v pyenv >/dev/null 2>&1; then PYENV_ROOT="$(pyenv root)"; else PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"; fi
PY312="$(ls -d "$PYENV_ROOT"/versions/3.12.*/bin/python3.12 2>/dev/null | sort -V | tail -n 1)"
[ -n "$PY312" ] || { echo "python-asan: no Python 3.12 under $PYENV_ROOT" >&2; exit 1; }

cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTVM_FFI_SANITIZE=ON \
  -DTVM_FFI_BUILD_BENCH=OFF -DTVM_FFI_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PY312"
cmake --build "$BUILD" -j 2

if [ ! -x "$VENV/bin/python" ]; then
  "$PY312" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet pytest numpy ml_dtypes
fi
# torch loads under the preloaded ASan runtime, so its tests run here too.
if ! "$VENV/bin/python" -c "import torch" >/dev/null 2>&1; then
  bash "$ROOT/.ci/install-torch.sh" "$VENV/bin/python"
fi

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

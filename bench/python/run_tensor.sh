#!/usr/bin/env bash
# Tensor-passing benchmark: bench_tensor.py in this project's wheel and in
# apache-tvm-ffi from the package index, each in its own venv with numpy,
# then one table side by side.  Results go to build-bench-tensor/.
#
#   bash bench/python/run_tensor.sh            # builds the wheel from this tree
#   TVM_FFI_DEV_BUILD=build bash ...           # uses <build>/python instead of a wheel
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/bench/python"
WORK="${TVM_FFI_BENCH_TENSOR_DIR:-$ROOT/build-bench-tensor}"

if command -v pyenv >/dev/null 2>&1; then PYENV_ROOT="$(pyenv root)"; else PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"; fi
PY="$(ls -d "$PYENV_ROOT"/versions/3.12.*/bin/python3.12 2>/dev/null | sort -V | tail -n 1)"
[ -n "$PY" ] || { echo "bench/python: no pyenv Python 3.12" >&2; exit 1; }
mkdir -p "$WORK"

echo "== bench_tensor: this project ($PY)"
if [ ! -x "$WORK/venv/bin/python" ]; then "$PY" -m venv "$WORK/venv"; fi
"$WORK/venv/bin/python" -m pip install --quiet --upgrade pip numpy
if [ -n "${TVM_FFI_DEV_BUILD:-}" ]; then
  export PYTHONPATH="$(cd "$ROOT/$TVM_FFI_DEV_BUILD" && pwd)/python"
else
  rm -rf "$WORK/dist"
  "$WORK/venv/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$WORK/dist" "$ROOT"
  "$WORK/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$WORK"/dist/*.whl
fi
(cd "$HERE" && "$WORK/venv/bin/python" bench_tensor.py --label tvm-ffi --json "$WORK/ours.json")
unset PYTHONPATH
files=("$WORK/ours.json")

echo "== bench_tensor: apache-tvm-ffi from the package index (own venv)"
if [ ! -x "$WORK/venv-apache/bin/python" ]; then "$PY" -m venv "$WORK/venv-apache"; fi
if "$WORK/venv-apache/bin/python" -m pip install --quiet --upgrade pip apache-tvm-ffi numpy; then
  (cd "$HERE" && "$WORK/venv-apache/bin/python" bench_tensor.py --label apache-tvm-ffi \
    --json "$WORK/apache.json")
  files+=("$WORK/apache.json")
else
  echo "bench_tensor: apache-tvm-ffi could not be installed; its column is left out" >&2
fi

echo
echo "== tensor passing: ns per call (ratio to np.add in the same process)"
(cd "$HERE" && "$WORK/venv/bin/python" bench_tensor.py --report "${files[@]}")

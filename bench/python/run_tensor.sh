#!/usr/bin/env bash
# Tensor-passing benchmark: bench_tensor.py in this project's wheel and in
# apache-tvm-ffi from the package index, each in its own venv with numpy and
# torch (.ci/install-torch.sh), then one table side by side.  Results go to build-bench-tensor/.
#
#   bash bench/python/run_tensor.sh            # builds the wheel from this tree
#   TVM_FFI_DEV_BUILD=build bash ...           # uses <build>/python instead of a wheel
#   TVM_FFI_WHEEL=dist/x.whl bash ...          # installs a wheel built already (run.sh)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh" # ROOT, HERE, PY, bench_venv, bench_install_wheel
WORK="${TVM_FFI_BENCH_TENSOR_DIR:-$ROOT/build-bench-tensor}"
mkdir -p "$WORK"

# torch rows: torch in both venvs (TVM_FFI_BENCH_TORCH=0 leaves it out).
with_torch() {
  if [ "${TVM_FFI_BENCH_TORCH:-1}" != "0" ]; then bash "$ROOT/.ci/install-torch.sh" "$1/bin/python"; fi
}

echo "== bench_tensor: this project ($PY)"
bench_venv "$WORK/venv" pip numpy
with_torch "$WORK/venv"
if [ -n "${TVM_FFI_DEV_BUILD:-}" ]; then
  export PYTHONPATH="$(cd "$ROOT/$TVM_FFI_DEV_BUILD" && pwd)/python"
elif [ -n "${TVM_FFI_WHEEL:-}" ]; then
  "$WORK/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$TVM_FFI_WHEEL"
else
  bench_install_wheel "$WORK/venv" "$WORK/dist"
fi
(cd "$HERE" && "$WORK/venv/bin/python" bench_tensor.py --label tvm-ffi --json "$WORK/ours.json")
unset PYTHONPATH
files=("$WORK/ours.json")

echo "== bench_tensor: apache-tvm-ffi from the package index (own venv)"
if bench_venv "$WORK/venv-apache" pip apache-tvm-ffi numpy && with_torch "$WORK/venv-apache"; then
  (cd "$HERE" && "$WORK/venv-apache/bin/python" bench_tensor.py --label apache-tvm-ffi \
    --json "$WORK/apache.json")
  files+=("$WORK/apache.json")
else
  echo "bench_tensor: apache-tvm-ffi could not be installed; its column is left out" >&2
fi

echo
echo "== tensor passing: ns per call (ratio to np.add in the same process)"
(cd "$HERE" && "$WORK/venv/bin/python" bench_tensor.py --report "${files[@]}")

#!/usr/bin/env bash
# Structural hash and equality of a 10 000-node tree (bench_structural.py),
# this project against apache-tvm-ffi, each in its own venv; prints one table.
# Results go to build-bench-structural/.
#
#   bash bench/python/run_structural.sh           # builds the wheel from this tree
#   TVM_FFI_DEV_BUILD=build bash ...              # uses <build>/python instead (Release build)
#   TVM_FFI_WHEEL=dist/x.whl bash ...             # installs a wheel built already (run.sh)
#
# apache-tvm-ffi: the wheel fetched into third_party/ (cp311: installed in a
# Python 3.11 venv from pyenv), else the package index in a Python 3.12 venv.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh" # ROOT, HERE, PY, bench_venv, bench_install_wheel
WORK="${TVM_FFI_BENCH_STRUCTURAL_DIR:-$ROOT/build-bench-structural}"
mkdir -p "$WORK"

echo "== bench_structural: this project ($PY)"
bench_venv "$WORK/venv" pip
if [ -n "${TVM_FFI_DEV_BUILD:-}" ]; then
  export PYTHONPATH="$(cd "$ROOT/$TVM_FFI_DEV_BUILD" && pwd)/python"
elif [ -n "${TVM_FFI_WHEEL:-}" ]; then
  "$WORK/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$TVM_FFI_WHEEL"
else
  bench_install_wheel "$WORK/venv" "$WORK/dist"
fi
(cd "$HERE" && "$WORK/venv/bin/python" bench_structural.py --label tvm-ffi) | tee "$WORK/ours.json"
unset PYTHONPATH

echo "== bench_structural: apache-tvm-ffi"
WHEEL="$(ls "$ROOT"/third_party/upstream/download/apache_tvm_ffi-*.whl \
  "$ROOT"/third_party/download/apache_tvm_ffi-*.whl 2>/dev/null | head -n 1 || true)"
PY311="$(ls -d "$PYENV_ROOT"/versions/3.11.*/bin/python3.11 2>/dev/null | sort -V | tail -n 1 || true)"
if [ -n "$WHEEL" ] && [ -n "$PY311" ] && [[ "$WHEEL" == *cp311* ]]; then
  [ -x "$WORK/venv-apache/bin/python" ] || "$PY311" -m venv "$WORK/venv-apache"
  "$WORK/venv-apache/bin/python" -m pip install --quiet typing_extensions
  "$WORK/venv-apache/bin/python" -m pip install --quiet --no-deps "$WHEEL"
else
  bench_venv "$WORK/venv-apache" pip apache-tvm-ffi
fi
(cd "$WORK" && "$WORK/venv-apache/bin/python" "$HERE/bench_structural.py" --label apache-tvm-ffi) |
  tee "$WORK/apache.json"

"$WORK/venv/bin/python" - "$WORK/ours.json" "$WORK/apache.json" <<'PY'
import json, sys
ours, theirs = (json.load(open(p)) for p in sys.argv[1:3])
print()
print(f"| 10 000-node tree (ms, best of 7) | tvm-ffi (Py {ours['python']}) "
      f"| apache-tvm-ffi (Py {theirs['python']}) | ratio |")
print("|---|---:|---:|---:|")
for key, label in (("hash_ms", "structural_hash"), ("equal_ms", "structural_equal")):
    print(f"| {label} | {ours[key]:.2f} | {theirs[key]:.2f} | {ours[key] / theirs[key]:.2f} |")
PY

#!/usr/bin/env bash
# A @py_class instance against plain Python dataclasses (bench_dataclass.py):
# construction and field reads, this project and apache-tvm-ffi, each in its
# own venv; prints one table.  Results go to build-bench-dataclass/.
#
#   bash bench/python/run_dataclass.sh           # builds the wheel from this tree
#   TVM_FFI_DEV_BUILD=build bash ...             # uses <build>/python instead (Release build)
#   TVM_FFI_WHEEL=dist/x.whl bash ...            # installs a wheel built already
#
# apache-tvm-ffi: the cp311 wheel in third_party/ (a Python 3.11 venv from
# pyenv), else the package index in a Python 3.12 venv.  Each build's ratio
# is to the plain dataclass measured in its own process and interpreter.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh" # ROOT, HERE, PY, bench_venv, bench_install_wheel
WORK="${TVM_FFI_BENCH_DATACLASS_DIR:-$ROOT/build-bench-dataclass}"
mkdir -p "$WORK"

echo "== bench_dataclass: this project ($PY)"
bench_venv "$WORK/venv"
if [ -n "${TVM_FFI_DEV_BUILD:-}" ]; then
  export PYTHONPATH="$(cd "$ROOT/$TVM_FFI_DEV_BUILD" && pwd)/python"
elif [ -n "${TVM_FFI_WHEEL:-}" ]; then
  "$WORK/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$TVM_FFI_WHEEL"
else
  bench_install_wheel "$WORK/venv" "$WORK/dist"
fi
(cd "$WORK" && "$WORK/venv/bin/python" "$HERE/bench_dataclass.py" --label tvm-ffi) | tee "$WORK/ours.json"
unset PYTHONPATH

echo "== bench_dataclass: apache-tvm-ffi"
WHEEL="$(ls "$ROOT"/third_party/upstream/download/apache_tvm_ffi-*.whl \
  "$ROOT"/third_party/download/apache_tvm_ffi-*.whl 2>/dev/null | head -n 1 || true)"
PY311="$(ls -d "$PYENV_ROOT"/versions/3.11.*/bin/python3.11 2>/dev/null | sort -V | tail -n 1 || true)"
if [ -n "$WHEEL" ] && [ -n "$PY311" ] && [[ "$WHEEL" == *cp311* ]]; then
  if [ ! -x "$WORK/venv-apache/bin/python" ]; then
    "$PY311" -m venv "$WORK/venv-apache"
    "$WORK/venv-apache/bin/python" -m pip install --quiet typing_extensions
    "$WORK/venv-apache/bin/python" -m pip install --quiet --no-deps "$WHEEL"
  fi
else
  bench_venv "$WORK/venv-apache" apache-tvm-ffi
fi
(cd "$WORK" && "$WORK/venv-apache/bin/python" "$HERE/bench_dataclass.py" --label apache-tvm-ffi) |
  tee "$WORK/apache.json"

"$WORK/venv/bin/python" - "$WORK/ours.json" "$WORK/apache.json" <<'PY'
import json, sys
ours, theirs = (json.load(open(p)) for p in sys.argv[1:3])
print()
print(f"| ns per op (best of 7) | tvm-ffi py_class | dataclass | ratio "
      f"| apache-tvm-ffi py_class | dataclass | ratio |")
print(f"| (Python) | {ours['python']} | | | {theirs['python']} | | |")
print("|---|---:|---:|---:|---:|---:|---:|")
rows = (("new", "P(1, 2.0, 'a name')"), ("new_kw", "P(x=1, y=2.0, name='a name')"),
        ("get_x", "p.x (int)"), ("get_y", "p.y (float)"), ("get_name", "p.name (str)"),
        ("set_x", "p.x = 5"))
for key, label in rows:
    o, od = ours[f"ffi_{key}_ns"], ours[f"dataclass_{key}_ns"]
    t, td = theirs[f"ffi_{key}_ns"], theirs[f"dataclass_{key}_ns"]
    print(f"| {label} | {o:.0f} | {od:.0f} | {o / od:.2f} | {t:.0f} | {td:.0f} | {t / td:.2f} |")
PY

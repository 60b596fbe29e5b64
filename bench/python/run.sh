#!/usr/bin/env bash
# Python call-overhead benchmark (`make bench` runs this).
#
# 1. Builds the tvm_ffi wheel with pyenv's Python 3.12 and installs it in a
#    venv together with pybind11 and nanobind; builds the peer modules
#    (a C library for ctypes, a pybind11 module, a nanobind module).
# 2. Installs apache-tvm-ffi from the package index in a venv of its own (its
#    import name is also tvm_ffi).
# 3. Runs bench_calls.py in each venv (each against a CPython builtin of the
#    same shape in the same process) and prints one table of ratios.
# Output also goes to build-bench-python/table.md and chart.png.
# 4. Runs bench_containers.py (container reads and calls against list/dict
#    and builtins) in both venvs: one table, also in containers.md.
# 5. Runs run_tensor.sh (tensor passing) with the same wheel: its own table.
# 6. Runs run_structural.sh (structural hash/equality) with the same wheel.
# 7. Runs bench_ffi_property.py (reflected field reads against a plain dataclass).
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh" # ROOT, HERE, PY, bench_venv, bench_install_wheel
WORK="${TVM_FFI_BENCH_DIR:-$ROOT/build-bench-python}"

mkdir -p "$WORK"
echo "== bench/python: tvm_ffi wheel, pybind11, nanobind ($PY)"
bench_venv "$WORK/venv" pip pybind11 nanobind matplotlib
bench_install_wheel "$WORK/venv" "$WORK/dist"

cmake -S "$HERE/peers" -B "$WORK/peers" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPython_EXECUTABLE="$WORK/venv/bin/python" \
  -Dpybind11_DIR="$("$WORK/venv/bin/python" -m pybind11 --cmakedir)" \
  -Dnanobind_DIR="$("$WORK/venv/bin/python" -m nanobind --cmake_dir)" >/dev/null
cmake --build "$WORK/peers" -j 2 >/dev/null

cd "$HERE"
"$WORK/venv/bin/python" bench_calls.py --label tvm_ffi --peers "$WORK/peers" --json "$WORK/ours.json"

files=("$WORK/ours.json")
echo "== bench/python: apache-tvm-ffi from the package index (own venv)"
if bench_venv "$WORK/venv-apache" apache-tvm-ffi; then
  "$WORK/venv-apache/bin/python" bench_calls.py --label apache-tvm-ffi --json "$WORK/apache.json"
  files+=("$WORK/apache.json")
else
  echo "bench/python: apache-tvm-ffi could not be installed; its column is left out" >&2
fi

echo
echo "== Python call overhead: ns per call, and the ratio to the CPython builtin of the same shape"
"$WORK/venv/bin/python" report.py "${files[@]}" --markdown "$WORK/table.md" --png "$WORK/chart.png"

echo
echo "== Python containers and calls: ns per read, next to list/dict in the same process"
"$WORK/venv/bin/python" bench_containers.py --label tvm_ffi --json "$WORK/containers-ours.json"
cfiles=("$WORK/containers-ours.json")
if [ -x "$WORK/venv-apache/bin/python" ]; then
  (cd "$WORK" && "$WORK/venv-apache/bin/python" "$HERE/bench_containers.py" --label apache-tvm-ffi \
    --json "$WORK/containers-apache.json") && cfiles+=("$WORK/containers-apache.json")
fi
"$WORK/venv/bin/python" bench_containers.py --report "${cfiles[@]}" --markdown "$WORK/containers.md"

echo
TVM_FFI_WHEEL="$(ls "$WORK"/dist/*.whl | head -n 1)" bash "$HERE/run_tensor.sh"

echo
TVM_FFI_WHEEL="$(ls "$WORK"/dist/*.whl | head -n 1)" bash "$HERE/run_structural.sh"

echo
echo "== Python field reads: core.FFIProperty against a plain dataclass (ns per read)"
"$WORK/venv/bin/python" bench_ffi_property.py --json "$WORK/ffi-property.json"

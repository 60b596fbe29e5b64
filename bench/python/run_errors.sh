#!/usr/bin/env bash
# Raise-and-catch benchmark, side by side with apache-tvm-ffi in one run:
# from Python (bench_errors.py in each implementation's venv) and through the
# C ABI (raise_driver.c, one binary, dlopen()ing each libtvm_ffi).
# Backtraces are on in both (their default).  Prints one table.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh" # ROOT, HERE, PY, bench_venv, bench_install_wheel
WORK="${TVM_FFI_BENCH_DIR:-$ROOT/build-bench-python}"
mkdir -p "$WORK"

bench_venv "$WORK/venv" pip
if [ -n "${TVM_FFI_WHEEL:-}" ]; then
  "$WORK/venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$TVM_FFI_WHEEL"
else
  bench_install_wheel "$WORK/venv" "$WORK/dist"
fi
have_apache=1
bench_venv "$WORK/venv-apache" apache-tvm-ffi || have_apache=0

libdir() { "$1/bin/python" -c 'import os, tvm_ffi; print(os.path.join(os.path.dirname(tvm_ffi.__file__), "lib"))'; }

# libgcc_s linked in, as in a C++ program: C++ throws and the backtraces
# use its unwinder.
cc -O2 -I "$ROOT/include" "$HERE/raise_driver.c" -o "$WORK/raise_driver" -ldl \
  -Wl,--no-as-needed -lgcc_s

ours_py="$("$WORK/venv/bin/python" "$HERE/bench_errors.py" --label tvm_ffi)"
ours_lib="$(libdir "$WORK/venv")"
ours_nobt="$(TVM_TRACEBACK_LIMIT=0 "$WORK/venv/bin/python" "$HERE/bench_errors.py" --label tvm_ffi)"
ours_c="$("$WORK/raise_driver" "$ours_lib/libtvm_ffi.so" "$ours_lib/libtvm_ffi_testing.so" testing.raise_error 20000)"
apache_py="{}"
apache_c="n/a"
if [ "$have_apache" = 1 ]; then
  apache_py="$("$WORK/venv-apache/bin/python" "$HERE/bench_errors.py" --label apache-tvm-ffi)"
  alib="$(libdir "$WORK/venv-apache")"
  atest="-"
  [ -f "$alib/libtvm_ffi_testing.so" ] && atest="$alib/libtvm_ffi_testing.so"
  apache_c="$("$WORK/raise_driver" "$alib/libtvm_ffi.so" "$atest" testing.test_raise_error 20000)"
fi

"$WORK/venv/bin/python" - "$ours_py" "$apache_py" "$ours_c" "$apache_c" "$ours_nobt" <<'PY'
import json, sys
ours, apache, nobt = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[5])
rows = [("C++ raises in a Function, C caller takes the error (C ABI, raise_driver)", float(sys.argv[3]),
         None if sys.argv[4] == "n/a" else float(sys.argv[4]))]
for k in ours:
    if k != "label":
        rows.append((k, ours[k], apache.get(k)))
print("| raise and catch | tvm_ffi (ns) | apache-tvm-ffi (ns) | ratio |")
print("|---|---:|---:|---:|")
for name, a, b in rows:
    ratio = f"{a / b:.2f}" if b else "n/a"
    print(f"| {name} | {a:,.0f} | {'n/a' if b is None else f'{b:,.0f}'} | {ratio} |")
k = "C++ raises, Python catches"
cold = ours.get(k + ", frame cache emptied first")
print()
print(f"tvm_ffi, {k}: without backtraces (TVM_TRACEBACK_LIMIT=0) {nobt[k]:,.0f} ns; "
      f"capture with a warm cache adds {ours[k] - nobt[k]:,.0f} ns; "
      f"naming every frame again adds {cold - ours[k]:,.0f} ns")
PY

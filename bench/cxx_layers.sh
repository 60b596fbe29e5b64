#!/usr/bin/env bash
# Side-by-side: the same C++ benchmark (bench/cxx_layers/bench_layers.cc)
# built against this project's headers (include/tvm/ffi) and against
# apache-tvm-ffi's (third_party/upstream), both linked to our libtvm_ffi.
#
#   bash bench/cxx_layers.sh [BUILD_DIR]     (make bench runs it)
#
# Two measures per operation:
#   ns/op   best over ROUNDS runs of each binary, the binaries taking turns
#           (each run already keeps the best of 7 timed loops)
#   instr   instructions per operation counted by callgrind: the difference
#           of two `--count KEY N` runs over the difference of their N.  Exact
#           and independent of machine load.  Needs valgrind; CXX_LAYERS_INSTR=0
#           skips it.
# The ratio columns are ours / upstream: at most 1.00 means ours is as fast.
set -euo pipefail

build="${1:-build}"
dir="$build/bench/cxx_layers"
ours="$dir/cxx_layers_ours"
theirs="$dir/cxx_layers_upstream"
rounds="${ROUNDS:-3}"

if [ ! -x "$ours" ]; then
  echo "cxx_layers: $ours is not built (cmake --build $build --target cxx_layers_ours)" >&2
  exit 1
fi
if [ ! -x "$theirs" ]; then
  echo "cxx_layers: SKIPPED: $theirs is not built; the upstream headers are absent" \
       "(run: bash .ci/fetch-upstream.sh, then rebuild)"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for r in $(seq "$rounds"); do
  "$ours" > "$tmp/ours.$r"
  "$theirs" > "$tmp/upstream.$r"
done

keys="$(grep -v '^#' "$tmp/ours.1" | cut -f1)"

# instructions/op for one binary and key (empty when valgrind is missing).
instr() {
  local bin="$1" key="$2" n1=20000 n2=40000 a b
  a="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --count "$key" "$n1" \
         2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')"
  b="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --count "$key" "$n2" \
         2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')"
  awk -v a="$a" -v b="$b" -v n="$((n2 - n1))" 'BEGIN { printf "%.1f", (b - a) / n }'
}

: > "$tmp/instr"
if [ "${CXX_LAYERS_INSTR:-1}" != 0 ] && command -v valgrind > /dev/null; then
  for k in $keys; do
    printf '%s\t%s\t%s\n' "$k" "$(instr "$ours" "$k")" "$(instr "$theirs" "$k")" >> "$tmp/instr"
  done
fi

echo "C++ headers side by side: ours (include/tvm/ffi) vs upstream (apache-tvm-ffi headers),"
echo "both on this build's libtvm_ffi. $(date -u '+%Y-%m-%d %H:%M UTC'); CPU:" \
     "$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1); nproc $(nproc);" \
     "load $(cut -d' ' -f1-3 /proc/loadavg); compiler $(sed -n 's/^# compiler\t//p' "$tmp/ours.1")"
echo
awk -F'\t' -v rounds="$rounds" -v tmp="$tmp" '
  function best(side, key,   r, f, line, v, b) {
    b = ""
    for (r = 1; r <= rounds; r++) {
      f = tmp "/" side "." r
      while ((getline line < f) > 0) {
        split(line, v, "\t")
        if (v[1] == key && (b == "" || v[2] + 0 < b + 0)) b = v[2]
      }
      close(f)
    }
    return b
  }
  BEGIN {
    while ((getline line < (tmp "/instr")) > 0) {
      split(line, v, "\t"); io[v[1]] = v[2]; iu[v[1]] = v[3]; have_instr = 1
    }
    printf "| Operation | ours ns | upstream ns | ratio |"
    if (have_instr) printf " ours instr | upstream instr | ratio |"
    printf "\n|---|---:|---:|---:|"
    if (have_instr) printf "---:|---:|---:|"
    printf "\n"
  }
  /^#/ { next }
  {
    o = best("ours", $1); u = best("upstream", $1)
    printf "| %s | %.1f | %.1f | %.2f |", $3, o, u, (u > 0 ? o / u : 0)
    if (have_instr) printf " %s | %s | %.2f |", io[$1], iu[$1], (iu[$1] > 0 ? io[$1] / iu[$1] : 0)
    printf "\n"
  }' "$tmp/ours.1"

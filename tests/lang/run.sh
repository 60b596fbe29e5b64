#!/usr/bin/env bash
# `make test-lang`: the same program in C, Rust, Go, Node.js and Java, each
# opening libtvm_ffi at run time.  Needs TVM_FFI_LIB and TVM_FFI_TESTING_LIB
# (paths of the built libraries) and LANG_BUILD (a scratch directory).
# Each test prints "N passed, M failed" last; this script fails unless every
# one ends with "N passed, 0 failed" and exits 0.
#
#   tests/lang/run.sh [c rust go node java]   (default: all five)
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
: "${TVM_FFI_LIB:?set TVM_FFI_LIB to the path of libtvm_ffi.so}"
: "${TVM_FFI_TESTING_LIB:?set TVM_FFI_TESTING_LIB to the path of libtvm_ffi_testing.so}"
: "${LANG_BUILD:?set LANG_BUILD to a build directory}"
export TVM_FFI_LIB TVM_FFI_TESTING_LIB
mkdir -p "$LANG_BUILD"

build_and_run() {
  case "$1" in
    c)
      ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I "$ROOT/include" "$HERE/c/lang_test.c" -ldl \
        -o "$LANG_BUILD/c_lang_test" && "$LANG_BUILD/c_lang_test" ;;
    rust)
      (cd "$HERE/rust" && CARGO_TARGET_DIR="$LANG_BUILD/rust" cargo build --release --locked --quiet) &&
        "$LANG_BUILD/rust/release/lang_test" ;;
    go)
      (cd "$HERE/go" && go build -o "$LANG_BUILD/go_lang_test" .) && "$LANG_BUILD/go_lang_test" ;;
    node)
      (cd "$HERE/node" && { [ -d node_modules/koffi ] || npm ci --no-audit --no-fund --silent; }) &&
        node "$HERE/node/lang_test.js" ;;
    java)
      # target/ inside the sample is git-ignored; the JVM gets the library paths from the environment.
      (cd "$HERE/java" && mvn -q -B -Dstyle.color=never compile exec:exec) ;;
    *) echo "unknown language $1" >&2; return 2 ;;
  esac
}

langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(c rust go node java)
failed=()
for lang in "${langs[@]}"; do
  echo "=== test-lang: $lang"
  start=$(date +%s)
  out="$(build_and_run "$lang" 2>&1)"
  rc=$?
  # Maven colours its output even with -q: drop escape sequences before matching.
  out="$(printf '%s\n' "$out" | sed 's/\x1b\[[0-9;]*m//g')"
  printf '%s\n' "$out"
  last="$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | tail -n 1)"
  if [ $rc -ne 0 ] || ! [[ "$last" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
    echo "=== test-lang: $lang FAILED (exit $rc)"
    failed+=("$lang")
  else
    echo "=== test-lang: $lang ok ($(( $(date +%s) - start )) s)"
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "test-lang: FAILED: ${failed[*]}"
  exit 1
fi
echo "test-lang: all passed (${langs[*]})"

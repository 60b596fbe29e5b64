#!/usr/bin/env bash
# Runs upstream apache-tvm-ffi's own C++ test suite (tests/cpp and
# tests/cpp/extra of its source distribution, GoogleTest) against OUR
# library, one executable per test file, and prints how many of its tests
# pass.  Nothing of upstream is committed: the sdist is downloaded at run time
# into a cache folder outside the clone (the same one run_python_suite.sh
# uses), and upstream's headers and libraries come from .ci/fetch-upstream.sh.
#
# Modes (arguments; default: ours upstream-headers):
#   ours              compiled against OUR headers (include/), linked with our
#                     libtvm_ffi.so and libtvm_ffi_testing.so
#   upstream-headers  compiled against UPSTREAM's headers and linked as
#                     upstream's build links them, then run on OUR
#                     libtvm_ffi.so with upstream's libtvm_ffi_testing.so
#                     (see "Which testing library" below)
#   baseline          upstream's headers on upstream's own libraries: what
#                     passes on upstream when each file is its own executable
#
# Which testing library in mode upstream-headers: upstream's.  The test
# executables link libtvm_ffi_testing.so for the testing.* functions and
# types it registers (test_metadata.cc's testing.schema_*, for one).  Ours
# registers the same names, but it is built from our headers; with upstream's
# copy every line of code in the process except libtvm_ffi.so is
# upstream-compiled, so a failure is our runtime's and nothing else's.
# Upstream's testing library needs only C functions of the ABI (it loads on
# ours), and the two cannot both be loaded: they register the same names.
#
# Environment:
#   TVM_FFI_BUILD_DIR         our build directory, with libtvm_ffi.so and
#                             libtvm_ffi_testing.so (default: <repo>/build).  A
#                             sanitized build (make asan's build-asan) works:
#                             the executables are not instrumented, the ASan
#                             runtime is preloaded (leak checking off: the
#                             tests' own registrations live until exit)
#   TVM_FFI_UPSTREAM_DIR      where .ci/fetch-upstream.sh unpacked upstream's
#                             headers and libraries (default: <repo>/third_party/upstream)
#   TVM_FFI_UPSTREAM_VERSION  the release (default 0.1.15.post2)
#   TVM_FFI_UPSTREAM_CACHE    the cache folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi);
#                             the work folder is <cache>/cpp-suite-<version>/<mode>,
#                             wiped when its mode runs
#   TVM_FFI_CPP_SUITE_JOBS    parallel compilations (default 2)
#   TVM_FFI_CPP_SUITE_TIMEOUT seconds allowed per run of an executable (default 300)
#   TVM_FFI_CPP_SUITE_BASELINE  upstream's pass count, the 100% of the
#                             percentages, when the baseline mode has not run
#                             (its results in the cache are used when present);
#                             default 542, measured with this script
#   TVM_FFI_CPP_SUITE_MIN_PERCENT_OURS, TVM_FFI_CPP_SUITE_MIN_PERCENT_UPSTREAM_HEADERS
#                             when set, the run fails if that mode's passes are
#                             under this percentage of upstream's
#   TVM_FFI_CPP_SUITE_FAIL_ON_CRASH  when 1, the run fails if a test crashes
#                             (a signal or the timeout) in mode ours or upstream-headers
#   TVM_FFI_CPP_SUITE_FILES   space-separated test files (e.g. "test_any.cc
#                             extra/test_json_parser.cc") instead of all of them
#
# Printed per mode, per file and in total:
#   cpp-suite: <mode> <file>: passed=N failed=N crashed=N skipped=N [COMPILE-FAILED: ...|LOAD-FAILED: ...]
#   cpp-suite: <mode> total: passed=N failed=N crashed=N skipped=N compile-failed=N load-failed=N files=N percent=P (of upstream's B)
#
# Upstream builds the suite as one executable, in which test_reflection.cc
# registers the reflection of the test types that other files use too; so
# each file's executable also links test_reflection.o and runs only the
# file's own tests (a gtest filter).  An executable that crashes is run again
# without the tests that crashed, so a crash costs only its test.  The
# executables run with LD_BIND_NOW=1: a missing symbol is a load failure.
# <work>/<mode>/not-passing.tsv lists every test that passes on upstream
# (baseline results, when present) but not in the mode, with its first
# failure line.
#
# Exit status: 0 whatever the counts, except 2 when the suite cannot run, and
# 1 when a threshold above is not met or (mode upstream-headers) an
# executable fails to load on our library.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VERSION="${TVM_FFI_UPSTREAM_VERSION:-0.1.15.post2}"
CACHE="${TVM_FFI_UPSTREAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi}"
BUILD="$(cd "${TVM_FFI_BUILD_DIR:-$ROOT/build}" 2>/dev/null && pwd)" || BUILD="${TVM_FFI_BUILD_DIR:-$ROOT/build}"
UP="${TVM_FFI_UPSTREAM_DIR:-$ROOT/third_party/upstream}"
JOBS="${TVM_FFI_CPP_SUITE_JOBS:-2}"
TIMEOUT="${TVM_FFI_CPP_SUITE_TIMEOUT:-300}"
CXX="${CXX:-g++}"

die() {
  echo "cpp-suite: FAILED: $*" >&2
  exit 2
}

if [ "$#" -gt 0 ]; then modes=("$@"); else modes=(ours upstream-headers); fi
for m in "${modes[@]}"; do
  case "$m" in ours | upstream-headers | baseline) ;; *) die "unknown mode '$m' (ours, upstream-headers, baseline)" ;; esac
done

command -v "$CXX" >/dev/null 2>&1 || die "no C++ compiler '$CXX'"
[ -f /usr/include/gtest/gtest.h ] || die "no GoogleTest headers (apt-get install libgtest-dev)"
GTEST_LIBS=()
for lib in gtest_main gtest; do
  a="$("$CXX" -print-file-name="lib$lib.a")"
  [ -f "$a" ] || die "no lib$lib.a (apt-get install libgtest-dev)"
  GTEST_LIBS+=("$a")
done
LAUNCHER=()
if command -v ccache >/dev/null 2>&1; then LAUNCHER=(ccache); fi

for m in "${modes[@]}"; do
  if [ "$m" != baseline ]; then
    for lib in libtvm_ffi.so libtvm_ffi_testing.so; do
      [ -f "$BUILD/$lib" ] || die "no $BUILD/$lib (make build, or set TVM_FFI_BUILD_DIR)"
    done
  fi
  if [ "$m" != ours ]; then
    for f in tvm_ffi/tvm/ffi/function.h dlpack/dlpack/dlpack.h lib/libtvm_ffi.so lib/libtvm_ffi_testing.so; do
      [ -f "$UP/$f" ] || die "no $UP/$f (run: bash .ci/fetch-upstream.sh)"
    done
  fi
done

# Upstream's sources: the same download as run_python_suite.sh.
mkdir -p "$CACHE"
SRC="$CACHE/apache_tvm_ffi-$VERSION"
if [ ! -d "$SRC/tests/cpp" ]; then
  python3 -m pip download --quiet --no-deps --no-binary apache-tvm-ffi \
    "apache-tvm-ffi==$VERSION" -d "$CACHE/dist" ||
    die "downloading the apache-tvm-ffi $VERSION sdist"
  tarball="$CACHE/dist/apache_tvm_ffi-$VERSION.tar.gz"
  [ -f "$tarball" ] || die "no $tarball after the download"
  tar -xzf "$tarball" -C "$CACHE" || die "unpacking $tarball"
fi
[ -d "$SRC/tests/cpp" ] || die "no tests/cpp in $SRC"

if [ -n "${TVM_FFI_CPP_SUITE_FILES:-}" ]; then
  read -r -a files <<<"$TVM_FFI_CPP_SUITE_FILES"
else
  mapfile -t files < <(cd "$SRC/tests/cpp" && ls test_*.cc extra/test_*.cc | sort)
fi
[ "${#files[@]}" -gt 0 ] || die "no test files in $SRC/tests/cpp"

# A sanitized libtvm_ffi.so needs its runtime first in the process: the
# executables are not instrumented, so it is preloaded.
PRELOAD=""
if [ -f "$BUILD/libtvm_ffi.so" ]; then
  PRELOAD="$(ldd "$BUILD/libtvm_ffi.so" | awk '/lib(asan|ubsan)\.so/ {print $3}' | tr '\n' ':')"
  PRELOAD="${PRELOAD%:}"
fi

SUITE="$CACHE/cpp-suite-$VERSION"

# Flags of one mode: compile_flags_<mode> and link_flags_<mode> (arrays).
mode_flags() {
  local mode="$1" work="$SUITE/$1"
  CFLAGS=(-std=c++17 -O1 -DTVM_FFI_CMAKE_LITTLE_ENDIAN=1 -pthread -w)
  LDFLAGS=(-pthread -Wl,--no-as-needed)
  case "$mode" in
    ours)
      CFLAGS+=(-I"$ROOT/include")
      LDFLAGS+=(-L"$BUILD" -ltvm_ffi_testing -ltvm_ffi -Wl,-rpath,"$BUILD")
      ;;
    upstream-headers)
      CFLAGS+=(-I"$UP/tvm_ffi" -I"$UP/dlpack")
      LDFLAGS+=(-L"$UP/lib" -ltvm_ffi_testing -ltvm_ffi -Wl,-rpath,"$work/lib")
      ;;
    baseline)
      CFLAGS+=(-I"$UP/tvm_ffi" -I"$UP/dlpack")
      LDFLAGS+=(-L"$UP/lib" -ltvm_ffi_testing -ltvm_ffi -Wl,-rpath,"$UP/lib")
      ;;
  esac
}

# compile_one <mode> <file>: compile one test file (ccache); a failure leaves
# <name>.compile-failed with the first error line.
compile_one() {
  local mode="$1" file="$2" name work
  name="$(echo "${file%.cc}" | tr '/' '_')"
  work="$SUITE/$mode"
  mode_flags "$mode"
  if ! "${LAUNCHER[@]}" "$CXX" "${CFLAGS[@]}" -c "$SRC/tests/cpp/$file" -o "$work/obj/$name.o" \
    >"$work/log/$name.build.log" 2>&1; then
    { grep -m1 -E 'error' "$work/log/$name.build.log" || tail -n1 "$work/log/$name.build.log"; } \
      >"$work/log/$name.compile-failed"
  fi
}

# link_one <mode> <file>: one executable per test file.  Upstream builds its
# suite as one executable, and test_reflection.cc's static initializers
# register the reflection of the shared test types (testing_object.h) that
# other files use; so every other file's executable also links
# test_reflection.o, and runs only its own file's tests (a gtest filter).
link_one() {
  local mode="$1" file="$2" name work support=()
  name="$(echo "${file%.cc}" | tr '/' '_')"
  work="$SUITE/$mode"
  [ -f "$work/log/$name.compile-failed" ] && return
  mode_flags "$mode"
  if [ "$name" != test_reflection ] && [ -f "$work/obj/test_reflection.o" ]; then
    support=("$work/obj/test_reflection.o")
  fi
  if ! "$CXX" "$work/obj/$name.o" "${support[@]}" -o "$work/bin/$name" "${GTEST_LIBS[@]}" \
    "${LDFLAGS[@]}" >>"$work/log/$name.build.log" 2>&1; then
    { grep -m1 -E 'undefined reference|error' "$work/log/$name.build.log" ||
      tail -n1 "$work/log/$name.build.log"; } >"$work/log/$name.compile-failed"
  fi
  # The file's own tests, as gtest names them.
  { grep -oE '^[[:space:]]*TEST(_F)?\([[:space:]]*[A-Za-z0-9_]+[[:space:]]*,[[:space:]]*[A-Za-z0-9_]+' \
    "$SRC/tests/cpp/$file" || true; } | sed -E 's/^[[:space:]]*TEST(_F)?\([[:space:]]*//; s/[[:space:]]*,[[:space:]]*/./' |
    paste -sd: >"$work/bin/$name.tests"
}

# parse_run <log>: one line per finished test, "<test>\t<status>", and for a
# test that started but did not finish, "<test>\tcrashed".
parse_run() {
  awk '
    /^\[ RUN      \] / { cur = $4; next }
    /^\[       OK \] / { print $4 "\tpassed"; cur = ""; next }
    /^\[  SKIPPED \] / && / \([0-9]+ ms\)/ { print $4 "\tskipped"; cur = ""; next }
    /^\[  FAILED  \] / && / \([0-9]+ ms\)/ { print $4 "\tfailed"; cur = ""; next }
    END { if (cur != "") print cur "\tcrashed" }
  ' "$1"
}

# run_one <mode> <name>: runs the executable, again without each test that
# crashed, and appends "<file>\t<test>\t<status>" lines to results.tsv.
run_one() {
  local mode="$1" name="$2" work exe filter="" attempt=0 rc log crashed own
  work="$SUITE/$mode"
  exe="$work/bin/$name"
  own="$(cat "$work/bin/$name.tests")"
  : >"$work/log/$name.run.log"
  declare -A status=()
  while :; do
    attempt=$((attempt + 1))
    log="$work/log/$name.run$attempt.log"
    set +e
    (cd "$work" && LD_BIND_NOW=1 LD_PRELOAD="${PRELOAD_FOR_MODE}" ASAN_OPTIONS=detect_leaks=0 \
      timeout -k 10 "$TIMEOUT" "$exe" --gtest_color=no "--gtest_filter=${own:--*}${filter:+-${filter#:}}" >"$log" 2>&1)
    rc=$?
    set -e
    cat "$log" >>"$work/log/$name.run.log"
    if ! grep -q '^\[==========\]' "$log"; then
      if grep -qE 'error while loading shared libraries|symbol lookup error|undefined symbol' "$log"; then
        grep -m1 -E 'error while loading shared libraries|symbol lookup error|undefined symbol' "$log" |
          sed 's/^.*: \(symbol lookup error\|error while loading\)/\1/' >"$work/log/$name.load-failed"
        return
      fi
    fi
    crashed=""
    while IFS=$'\t' read -r test st; do
      status[$test]="$st"
      [ "$st" = crashed ] && crashed="$test"
    done < <(parse_run "$log")
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ -z "$crashed" ] || [ "$attempt" -ge 40 ]; then
      if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ -z "$crashed" ]; then
        echo "exit status $rc outside any test" >"$work/log/$name.exit-crash"
      fi
      break
    fi
    [ "$rc" -eq 124 ] && status[$crashed]=timeout
    filter="$filter:$crashed"
  done
  local t
  for t in "${!status[@]}"; do printf '%s\t%s\t%s\n' "$name" "$t" "${status[$t]}"; done |
    sort >>"$work/results.tsv"
}

# first_failure <mode> <name> <test>: why a test failed, on one line: the
# first failure or crash message of its output and the lines that follow it.
first_failure() {
  awk -v t="$3" '
    $0 == "[ RUN      ] " t { on = 1; next }
    on && /^\[ *(OK|FAILED|SKIPPED|RUN) *\] / { exit }
    on && !got && /Failure|terminate|Segmentation|Abort|AddressSanitizer|runtime error|Check failed/ {
      got = 1; n = 0 }
    got { sub(/^.*tests\/cpp\//, ""); gsub(/^ +| +$/, ""); out = out (n++ ? " " : "") $0; if (n >= 6) exit }
    END { print on ? (got ? out : "(no message: the process died in this test)") : "(not run)" }
  ' "$SUITE/$1/log/$2.run.log" | cut -c1-400
}

export -f mode_flags compile_one
export SUITE SRC ROOT UP BUILD CXX
export GTEST_LIBS_STR="${GTEST_LIBS[*]}" LAUNCHER_STR="${LAUNCHER[*]}"

baseline_passed=""
if [ -f "$SUITE/baseline/results.tsv" ] && [ -f "$SUITE/baseline/complete" ]; then
  baseline_passed="$(awk -F'\t' '$3 == "passed"' "$SUITE/baseline/results.tsv" | wc -l)"
fi

status_code=0
# The baseline first, so the other modes are measured against this run's figure.
ordered=()
for m in "${modes[@]}"; do [ "$m" = baseline ] && ordered+=("$m"); done
for m in "${modes[@]}"; do [ "$m" != baseline ] && ordered+=("$m"); done

for mode in "${ordered[@]}"; do
  work="$SUITE/$mode"
  rm -rf "$work"
  mkdir -p "$work/obj" "$work/bin" "$work/log" "$work/lib"
  : >"$work/results.tsv"
  PRELOAD_FOR_MODE=""
  if [ "$mode" = upstream-headers ]; then
    # Our runtime under the soname, upstream's testing library beside it.
    ln -s "$BUILD/libtvm_ffi.so" "$work/lib/libtvm_ffi.so"
    cp "$UP/lib/libtvm_ffi_testing.so" "$work/lib/libtvm_ffi_testing.so"
    PRELOAD_FOR_MODE="$PRELOAD"
  elif [ "$mode" = ours ]; then
    PRELOAD_FOR_MODE="$PRELOAD"
  fi
  echo "cpp-suite: $mode: building ${#files[@]} files (-O1, $JOBS jobs${LAUNCHER:+, ccache})"
  to_compile=("${files[@]}")
  [[ " ${files[*]} " == *" test_reflection.cc "* ]] || to_compile+=(test_reflection.cc)
  printf '%s\n' "${to_compile[@]}" | xargs -P "$JOBS" -I{} bash -c '
    LAUNCHER=($LAUNCHER_STR); compile_one "$0" "$1"' "$mode" {}
  for file in "${files[@]}"; do link_one "$mode" "$file"; done
  for file in "${files[@]}"; do
    name="$(echo "${file%.cc}" | tr '/' '_')"
    [ -f "$work/log/$name.compile-failed" ] || run_one "$mode" "$name"
  done

  # Per-file and total counts.
  pass_total=0 fail_total=0 crash_total=0 skip_total=0 cf_total=0 lf_total=0
  for file in "${files[@]}"; do
    name="$(echo "${file%.cc}" | tr '/' '_')"
    read -r p f c s < <(awk -F'\t' -v n="$name" '$1 == n {
        if ($3 == "passed") p++; else if ($3 == "failed") f++;
        else if ($3 == "skipped") s++; else c++ }
      END { print p + 0, f + 0, c + 0, s + 0 }' "$work/results.tsv")
    note=""
    if [ -f "$work/log/$name.compile-failed" ]; then
      note="  COMPILE-FAILED: $(cut -c1-200 "$work/log/$name.compile-failed" | sed "s|$SRC/tests/cpp/||")"
      cf_total=$((cf_total + 1))
    elif [ -f "$work/log/$name.load-failed" ]; then
      note="  LOAD-FAILED: $(cut -c1-200 "$work/log/$name.load-failed")"
      lf_total=$((lf_total + 1))
    elif [ -f "$work/log/$name.exit-crash" ]; then
      note="  EXIT-CRASH: $(cat "$work/log/$name.exit-crash")"
    fi
    echo "cpp-suite: $mode $file: passed=$p failed=$f crashed=$c skipped=$s$note"
    pass_total=$((pass_total + p)) fail_total=$((fail_total + f))
    crash_total=$((crash_total + c)) skip_total=$((skip_total + s))
  done
  if [ "$mode" = baseline ]; then
    baseline_passed="$pass_total"
    touch "$work/complete"
  fi
  base="${baseline_passed:-${TVM_FFI_CPP_SUITE_BASELINE:-542}}"
  percent="$(awk -v p="$pass_total" -v b="$base" 'BEGIN { printf "%.1f", (b > 0) ? 100 * p / b : 0 }')"
  echo "cpp-suite: $mode total: passed=$pass_total failed=$fail_total crashed=$crash_total" \
    "skipped=$skip_total compile-failed=$cf_total load-failed=$lf_total files=${#files[@]}" \
    "percent=$percent (of upstream's $base)"

  # Tests that pass on upstream but not here, each with its first failure.
  if [ "$mode" != baseline ] && [ -f "$SUITE/baseline/results.tsv" ]; then
    : >"$work/not-passing.tsv"
    declare -A in_run=()
    for file in "${files[@]}"; do in_run[$(echo "${file%.cc}" | tr '/' '_')]=1; done
    while IFS=$'\t' read -r name test st; do
      [ "$st" = passed ] && [ -n "${in_run[$name]:-}" ] || continue
      got="$(awk -F'\t' -v n="$name" -v t="$test" '$1 == n && $2 == t { print $3 }' "$work/results.tsv")"
      [ "$got" = passed ] && continue
      if [ -f "$work/log/$name.compile-failed" ]; then
        why="compile-failed: $(cut -c1-200 "$work/log/$name.compile-failed" | sed "s|$SRC/tests/cpp/||")"
      elif [ -f "$work/log/$name.load-failed" ]; then
        why="load-failed: $(cat "$work/log/$name.load-failed")"
      else
        why="${got:-not run}: $(first_failure "$mode" "$name" "$test")"
      fi
      printf '%s\t%s\t%s\n' "$name" "$test" "$why" >>"$work/not-passing.tsv"
    done <"$SUITE/baseline/results.tsv"
    echo "cpp-suite: $mode: $(wc -l <"$work/not-passing.tsv") of upstream's passing tests do not pass; list in $work/not-passing.tsv"
  fi

  # Thresholds.
  case "$mode" in
    ours) min="${TVM_FFI_CPP_SUITE_MIN_PERCENT_OURS:-}" ;;
    upstream-headers) min="${TVM_FFI_CPP_SUITE_MIN_PERCENT_UPSTREAM_HEADERS:-}" ;;
    *) min="" ;;
  esac
  if [ -n "$min" ] && awk -v p="$percent" -v m="$min" 'BEGIN { exit !(p < m) }'; then
    echo "cpp-suite: FAILED: $mode passes $percent% of upstream's tests, under the required $min%" >&2
    status_code=1
  fi
  if [ "$mode" = upstream-headers ] && [ "$lf_total" -gt 0 ]; then
    echo "cpp-suite: FAILED: $lf_total executables built against upstream's headers do not load on our library" >&2
    status_code=1
  fi
  if [ "$mode" != baseline ] && [ "${TVM_FFI_CPP_SUITE_FAIL_ON_CRASH:-0}" = 1 ] && [ "$crash_total" -gt 0 ]; then
    echo "cpp-suite: FAILED: $crash_total tests crashed in mode $mode" >&2
    status_code=1
  fi
done
exit "$status_code"

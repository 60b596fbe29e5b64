#!/usr/bin/env bash
# Runs one test program of the sanitizer build.  LeakSanitizer checks for
# leaks at exit from a tracer thread that stops the whole process; on a
# loaded machine that tracer itself sometimes crashes ("Tracer caught signal
# 11 ... LeakSanitizer has encountered a fatal error") after every test has
# passed.  That is a fault of the sanitizer runtime, not a finding: the
# program is run once more.  Any other failure, a leak report included,
# stands at the first run.
#   tests/lsan_retry.sh PROGRAM [ARGS...]
set -uo pipefail
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
rc=0
for attempt in 1 2; do
  "$@" >"$out" 2>&1
  rc=$?
  cat "$out"
  [ "$rc" -eq 0 ] && exit 0
  if ! grep -q "Tracer caught signal" "$out" ||
     ! grep -q "LeakSanitizer has encountered a fatal error" "$out" ||
     grep -q "ERROR: LeakSanitizer: detected memory leaks" "$out"; then
    exit "$rc"
  fi
  echo "lsan_retry: run $attempt: LeakSanitizer's tracer crashed (no finding); running again" >&2
done
exit "$rc"

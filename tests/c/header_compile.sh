#!/usr/bin/env bash
# Compiles each source against the public headers with gcc and clang in every
# language mode the header promises, with warnings as errors: header_compile.c
# (portable accessors) and upstream_style.c (union members reached directly,
# as C code written for upstream's header does).
#   usage: header_compile.sh <include dir> <source>...
set -u
inc="$1"
shift
sources=("$@")
warn="-pedantic-errors -Wall -Wextra -Werror"
passed=0
failed=0

check() {  # check <description> <compiler command...>
  local what="$1" src
  shift
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "FAIL $what: compiler $1 not found"
    failed=$((failed + 1))
    return
  fi
  for src in "${sources[@]}"; do
    if "$@" -I"$inc" $warn -fsyntax-only "$src"; then
      echo "ok   $what $(basename "$src")"
      passed=$((passed + 1))
    else
      echo "FAIL $what $(basename "$src")"
      failed=$((failed + 1))
    fi
  done
}

for cc in gcc clang; do
  for std in c89 c99 c11 c17; do
    check "$cc -std=$std" "$cc" -std="$std"
  done
  check "$cc -std=c89 -Wc++-compat -Wdeclaration-after-statement" \
        "$cc" -std=c89 -Wc++-compat -Wdeclaration-after-statement
  check "$cc -std=c11 -DTVM_FFI_NAMED_UNIONS" "$cc" -std=c11 -DTVM_FFI_NAMED_UNIONS
done
for cxx in g++ clang++; do
  for std in c++11 c++14 c++17 c++20; do
    check "$cxx -std=$std" "$cxx" -x c++ -std="$std"
  done
  check "$cxx -std=c++17 -DTVM_FFI_NAMED_UNIONS" "$cxx" -x c++ -std=c++17 -DTVM_FFI_NAMED_UNIONS
done

# A C89/C99 compiler without GCC's extensions (simulated by undefining the
# compiler's identification macros) gets the named unions; the portable
# accessors of header_compile.c still work there.
for cc in gcc clang; do
  for std in c89 c99; do
    if "$cc" -std="$std" -U__GNUC__ -U__clang__ -I"$inc" $warn -fsyntax-only "${sources[0]}"; then
      echo "ok   $cc -std=$std without __GNUC__ $(basename "${sources[0]}")"
      passed=$((passed + 1))
    else
      echo "FAIL $cc -std=$std without __GNUC__ $(basename "${sources[0]}")"
      failed=$((failed + 1))
    fi
  done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Compiles header_compile.c against the public headers with gcc and clang in
# every language mode the header promises, with warnings as errors.
#   usage: header_compile.sh <include dir> <header_compile.c>
set -u
inc="$1"
src="$2"
warn="-pedantic-errors -Wall -Wextra -Werror"
passed=0
failed=0

check() {  # check <description> <compiler command...>
  local what="$1"
  shift
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "FAIL $what: compiler $1 not found"
    failed=$((failed + 1))
    return
  fi
  if "$@" -I"$inc" $warn -fsyntax-only "$src"; then
    echo "ok   $what"
    passed=$((passed + 1))
  else
    echo "FAIL $what"
    failed=$((failed + 1))
  fi
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

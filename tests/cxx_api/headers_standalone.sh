#!/usr/bin/env bash
# Each public C++ header (include/tvm/ffi/**/*.h, not the C headers) compiles
# on its own, as the first include of a translation unit, with every warning
# an error, under g++ and (when installed) clang++.
#   usage: headers_standalone.sh <include dir>
set -euo pipefail
inc="$(cd "$1" && pwd)"
compilers=(g++)
if command -v clang++ > /dev/null; then compilers+=(clang++); fi
fail=0
count=0
while IFS= read -r header; do
  rel="${header#"$inc"/}"
  case "$rel" in tvm/ffi/c_api.h | tvm/ffi/extra/c_env_api.h) continue ;; esac
  for cxx in "${compilers[@]}"; do
    if ! printf '#include <%s>\n#include <%s>\n' "$rel" "$rel" |
        "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I"$inc" -x c++ -; then
      echo "FAIL: $rel does not compile alone with $cxx"
      fail=1
    fi
  done
  count=$((count + 1))
done < <(find "$inc/tvm/ffi" -name '*.h' | sort)
echo "$count headers checked with ${compilers[*]}"
exit $fail

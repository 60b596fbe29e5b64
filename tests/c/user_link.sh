#!/usr/bin/env bash
# Builds a C test the way a user of the installed library would -- plain
# `cc -std=c99 file.c -ltvm_ffi` -- and runs it.
#   usage: user_link.sh <cc> "<extra flags>" <include dir> <lib dir> <source> <output>
set -euo pipefail
cc="$1"
extra="$2"
inc="$3"
libdir="$4"
src="$5"
out="$6"
# shellcheck disable=SC2086  # extra holds several flags
set -x
"$cc" -std=c99 -Wall -Wextra -Werror $extra -I"$inc" "$src" -o "$out" \
  -L"$libdir" -Wl,-rpath,"$libdir" -ltvm_ffi
{ set +x; } 2>/dev/null
"$out"

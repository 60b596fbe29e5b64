#!/usr/bin/env bash
# The installed tree works for a kernel author: `cmake --install` the build
# into a fresh prefix, then build and run examples/get_started against that
# prefix only (CMake find_package and a plain c++ line), never the sources.
#
#   bash check_install.sh <build dir> <work dir>
set -euo pipefail
BUILD="$1"
WORK="$2"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

rm -rf "$WORK"
mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$WORK/prefix" >/dev/null
for header in tvm/ffi/c_api.h tvm/ffi/extra/c_env_api.h tvm/ffi/function.h \
              tvm/ffi/container/tensor.h tvm/ffi/extra/module.h; do
  [ -f "$WORK/prefix/include/$header" ] || { echo "install: $header was not installed" >&2; exit 1; }
done
# The retired C++ layer (include/tvmffi) is not installed.
[ ! -e "$WORK/prefix/include/tvmffi" ] || { echo "install: include/tvmffi was installed" >&2; exit 1; }
# Nothing of the source tree may leak in: build from a copy of the example.
cp -r "$ROOT/examples/get_started" "$WORK/example"
bash "$WORK/example/run.sh" "$WORK/prefix" "$WORK/build"

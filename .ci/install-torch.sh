#!/usr/bin/env bash
# Installs torch from the package index into the venv of the given Python:
#
#   bash .ci/install-torch.sh <venv>/bin/python
#
# The default torch wheel for Linux needs the nvidia-* CUDA wheels to import
# at all (even on a machine without a GPU), about 5 GB together.  They are
# kept in a wheelhouse outside the work tree (TVM_FFI_TORCH_WHEELHOUSE,
# default <cache>/torch-wheels, <cache> being $TVM_FFI_CACHE_DIR or
# ${XDG_CACHE_HOME:-~/.cache}/tvm-ffi), so only the first run on a machine
# downloads them; `pip download` fetches only what the wheelhouse lacks, then
# the install reads the wheelhouse alone.  TVM_FFI_TORCH_SPEC picks the
# version (default: torch==2.15.0, pinned so that the wheelhouse stays valid
# and CI does not download a new 5 GB set when torch releases).
# .ci/python-env.sh (torch_venv) calls it once per cached environment.
set -euo pipefail

PY="${1:?usage: install-torch.sh <venv python>}"
HOUSE="${TVM_FFI_TORCH_WHEELHOUSE:-${TVM_FFI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi}/torch-wheels}"
SPEC="${TVM_FFI_TORCH_SPEC:-torch==2.15.0}"
mkdir -p "$HOUSE"

start=$(date +%s)
"$PY" -m pip download --quiet --dest "$HOUSE" "$SPEC"
fetched=$(date +%s)
"$PY" -m pip install --quiet --no-index --find-links "$HOUSE" "$SPEC"
done_at=$(date +%s)
"$PY" -c 'import torch, sys; print("install-torch: torch", torch.__version__, "on Python", sys.version.split()[0])'
echo "install-torch: resolve/download $((fetched - start)) s, install $((done_at - fetched)) s"

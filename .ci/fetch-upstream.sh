#!/usr/bin/env bash
# Downloads the reference apache-tvm-ffi release from PyPI (no dependencies,
# nothing installed) and unpacks what the compatibility tests need:
#
#   third_party/upstream/tvm_ffi/tvm/ffi/**.h     its whole public header tree
#                                                 (C header and C++ headers)
#   third_party/upstream/dlpack/dlpack/dlpack.h   the official DLPack header
#   third_party/upstream/lib/libtvm_ffi.so        its runtime library
#   third_party/upstream/lib/libtvm_ffi_testing.so   and its testing library
#
# The header trees live in separate folders so a test can put the official
# dlpack.h on its include path without also picking up upstream's headers.
# All of it is ignored by git and never committed.  The download is kept in
# third_party/upstream/download, so a second run costs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

dest=third_party/upstream
spec="${TVM_FFI_UPSTREAM_SPEC:-apache-tvm-ffi==0.1.15.post2}"
stamp="$dest/.unpacked-$(echo "$spec" | tr -c 'A-Za-z0-9.=\n' '_')"

if [ -f "$stamp" ]; then
  echo "fetch-upstream: $spec already unpacked in $dest"
  exit 0
fi

mkdir -p "$dest/download"
# Any CPython wheel carries the same headers and libraries; ask for a binary
# wheel so pip never tries to build the source distribution.
python3 -m pip download --no-deps --only-binary=:all: --disable-pip-version-check \
  -d "$dest/download" "$spec"

python3 - "$dest" "$spec" <<'PY'
import glob, os, sys, zipfile

dest, spec = sys.argv[1], sys.argv[2]
version = spec.split("==")[-1] if "==" in spec else ""
archives = sorted(glob.glob(os.path.join(dest, "download", "apache_tvm_ffi-%s*.whl" % version)))
if not archives:
    sys.exit("fetch-upstream: pip downloaded no wheel for %s" % spec)

def target(name):
    """Where a member of the wheel goes, or None to leave it out."""
    if name.endswith("/"):
        return None
    if name.startswith("tvm_ffi/include/dlpack/"):
        return os.path.join(dest, "dlpack", name[len("tvm_ffi/include/"):])
    if name.startswith("tvm_ffi/include/tvm/ffi/") and name.endswith(".h"):
        return os.path.join(dest, "tvm_ffi", name[len("tvm_ffi/include/"):])
    if name in ("tvm_ffi/lib/libtvm_ffi.so", "tvm_ffi/lib/libtvm_ffi_testing.so"):
        return os.path.join(dest, "lib", os.path.basename(name))
    return None

count = 0
with zipfile.ZipFile(archives[-1]) as z:
    for name in z.namelist():
        out = target(name)
        if out is None:
            continue
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(z.read(name))
        count += 1
needed = ["tvm_ffi/tvm/ffi/c_api.h", "tvm_ffi/tvm/ffi/extra/c_env_api.h",
          "tvm_ffi/tvm/ffi/container/map.h", "dlpack/dlpack/dlpack.h",
          "lib/libtvm_ffi.so", "lib/libtvm_ffi_testing.so"]
missing = [n for n in needed if not os.path.exists(os.path.join(dest, n))]
if missing:
    sys.exit("fetch-upstream: not found in %s: %s" % (archives[-1], ", ".join(missing)))
print("fetch-upstream: %d files from %s into %s" % (count, os.path.basename(archives[-1]), dest))
PY
touch "$stamp"

#!/usr/bin/env bash
# Downloads the apache-tvm-ffi package from PyPI (no dependencies, nothing
# installed) and unpacks only its C headers, for the compatibility tests:
#
#   third_party/upstream/tvm_ffi/tvm/ffi/c_api.h        (+ extra/c_env_api.h)
#   third_party/upstream/dlpack/dlpack/dlpack.h
#
# The two live in separate folders so a test can put the official dlpack.h on
# its include path without also picking up upstream's c_api.h.  They are
# ignored by git and never committed.
set -euo pipefail
cd "$(dirname "$0")/.."

dest=third_party/upstream
spec="${TVM_FFI_UPSTREAM_SPEC:-apache-tvm-ffi>=0.1,<0.2}"

if [ -f "$dest/tvm_ffi/tvm/ffi/c_api.h" ] && [ -f "$dest/dlpack/dlpack/dlpack.h" ]; then
  echo "fetch-upstream: headers already in $dest"
  exit 0
fi

mkdir -p "$dest/download"
python3 -m pip download --no-deps --disable-pip-version-check -d "$dest/download" "$spec"

python3 - "$dest" <<'PY'
import glob, os, sys, tarfile, zipfile

dest = sys.argv[1]
wanted = {  # suffix inside the archive -> where it goes
    "include/tvm/ffi/c_api.h": "tvm_ffi/tvm/ffi/c_api.h",
    "include/tvm/ffi/extra/c_env_api.h": "tvm_ffi/tvm/ffi/extra/c_env_api.h",
    "include/dlpack/dlpack.h": "dlpack/dlpack/dlpack.h",
}

def members(path):
    if path.endswith(".whl") or path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                yield name, (lambda n=name: z.read(n))
    else:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.isfile():
                    yield m.name, (lambda m=m: t.extractfile(m).read())

archives = sorted(glob.glob(os.path.join(dest, "download", "apache_tvm_ffi-*")) +
                  glob.glob(os.path.join(dest, "download", "apache-tvm-ffi-*")))
if not archives:
    sys.exit("fetch-upstream: pip downloaded nothing")
found = {}
for name, read in members(archives[-1]):
    for suffix, out in wanted.items():
        # Prefer the copy under include/ over a 3rdparty/ duplicate.
        if name.endswith(suffix) and (out not in found or "3rdparty" in found[out]):
            target = os.path.join(dest, out)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(read())
            found[out] = name
missing = sorted(set(wanted.values()) - set(found))
if missing:
    sys.exit("fetch-upstream: not found in %s: %s" % (archives[-1], ", ".join(missing)))
for out, name in sorted(found.items()):
    print("fetch-upstream: %s <- %s" % (os.path.join(dest, out), name))
PY

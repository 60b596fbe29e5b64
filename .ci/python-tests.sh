#!/usr/bin/env bash
# The Python suite: builds the tvm_ffi wheel ONCE with Python 3.12, audits it
# with `abi3audit --strict`, then installs that same wheel into fresh Python
# 3.12 and 3.13 virtual environments and runs tests/python in each.
# Both interpreters come from pyenv.  Any failure stops the script non-zero.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${TVM_FFI_PYTHON_CI_DIR:-$ROOT/build-python-ci}"

fail() {
  echo "python-tests: FAILED: $*" >&2
  exit 1
}
step() { echo "=== python-tests: $*"; }

if command -v pyenv >/dev/null 2>&1; then
  PYENV_ROOT="$(pyenv root)"
else
  PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"
fi

# The newest installed pyenv interpreter of a minor version, e.g. 3.12 -> 3.12.1.
find_python() {
  local minor="$1" found
  found="$(ls -d "$PYENV_ROOT"/versions/"$minor".*/bin/python"$minor" 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$found" ] || fail "no Python $minor under $PYENV_ROOT/versions (install it with pyenv)"
  echo "$found"
}

PY312="$(find_python 3.12)"
PY313="$(find_python 3.13)"
step "Python 3.12: $PY312; Python 3.13: $PY313; work dir: $WORK"

rm -rf "$WORK"
mkdir -p "$WORK/dist"

step "building the wheel once with Python 3.12"
"$PY312" -m venv "$WORK/venv-build"
"$WORK/venv-build/bin/python" -m pip install --quiet --upgrade pip abi3audit
"$WORK/venv-build/bin/python" -m pip wheel --no-deps --wheel-dir "$WORK/dist" "$ROOT" ||
  fail "building the wheel"
shopt -s nullglob
wheels=("$WORK"/dist/*.whl)
[ "${#wheels[@]}" -eq 1 ] || fail "expected exactly one wheel, got: ${wheels[*]:-none}"
WHEEL="${wheels[0]}"
case "$(basename "$WHEEL")" in
  *-cp312-abi3-*.whl) ;;
  *) fail "wheel $(basename "$WHEEL") is not tagged cp312-abi3" ;;
esac
step "wheel: $(basename "$WHEEL")"
# One copy of the library (SONAME libtvm_ffi.so, no versioned symlink chain
# that a wheel would turn into copies).
libs="$("$PY312" -c 'import sys, zipfile; print("\n".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if "/libtvm_ffi.so" in n))' "$WHEEL")"
[ "$libs" = "tvm_ffi/lib/libtvm_ffi.so" ] || fail "the wheel must carry exactly tvm_ffi/lib/libtvm_ffi.so, has: $libs"

# Building for an older Python must stop with a clear message.
PY311="$(ls -d "$PYENV_ROOT"/versions/3.11.*/bin/python3.11 2>/dev/null | sort -V | tail -n 1)"
if [ -n "$PY311" ]; then
  step "Python 3.11 must be refused"
  if out="$("$PY311" -m pip wheel --no-deps --wheel-dir "$WORK/dist-311" "$ROOT" 2>&1)"; then
    fail "building with Python 3.11 succeeded"
  fi
  grep -q "requires a different Python: 3.11" <<<"$out" ||
    fail "building with Python 3.11 failed without the expected message: $out"
  echo "refused as expected: $(grep 'requires a different Python' <<<"$out")"
fi

step "abi3audit --strict"
"$WORK/venv-build/bin/abi3audit" --strict --verbose "$WHEEL" || fail "abi3audit rejected the wheel"

for PY in "$PY312" "$PY313"; do
  ver="$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  venv="$WORK/venv-$ver"
  step "Python $ver: installing the same wheel"
  "$PY" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet "$WHEEL" pytest numpy ml_dtypes ||
    fail "installing the wheel into Python $ver"
  # torch from the package index (wheels kept between runs: .ci/install-torch.sh);
  # TVM_FFI_REQUIRE_TORCH=1 makes the torch tests fail instead of skipping.
  step "Python $ver: installing torch"
  torch_start=$(date +%s)
  bash "$ROOT/.ci/install-torch.sh" "$venv/bin/python" || fail "installing torch into Python $ver"
  echo "python-tests: torch install on Python $ver took $(( $(date +%s) - torch_start )) s"
  # Run from outside the source tree so that the installed package is tested.
  step "Python $ver: pytest tests/python"
  (cd "$WORK" && TVM_FFI_REQUIRE_TORCH=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/tests/python") ||
    fail "the Python suite on Python $ver"
  "$venv/bin/python" - <<'PY' || fail "the installed layout on Python $ver"
import os, tvm_ffi
from tvm_ffi import libinfo
assert os.path.dirname(libinfo.find_libtvm_ffi()).startswith(os.path.dirname(tvm_ffi.__file__)), \
    libinfo.find_libtvm_ffi()
assert os.path.exists(os.path.join(libinfo.find_include_path(), "tvm", "ffi", "c_api.h"))
assert os.path.exists(os.path.join(libinfo.find_include_path(), "tvmffi", "tvmffi.h"))
assert os.path.exists(os.path.join(libinfo.find_cmake_path(), "tvm_ffiConfig.cmake"))
print("installed layout ok:", libinfo.find_libtvm_ffi())
PY
done

step "all Python checks passed (3.12 and 3.13, one cp312-abi3 wheel)"

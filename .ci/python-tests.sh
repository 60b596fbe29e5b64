#!/usr/bin/env bash
# The Python suite (tests/python), two ways:
#
#   bash .ci/python-tests.sh quick <build dir>   (make test)
#       Python 3.12 from pyenv, the extension of the CMake build tree
#       (PYTHONPATH=<build dir>/python), numpy and ml_dtypes, no torch: the
#       torch tests skip.  No wheel build, no download once the venv exists.
#
#   bash .ci/python-tests.sh [full]              (make test-python-full, CI)
#       builds the wheel ONCE with Python 3.12 (.ci/build-wheel.sh: manylinux
#       tag, `abi3audit --strict`, NEEDED lists), checks that Python 3.11 is refused, then installs that same
#       wheel into Python 3.12 and 3.13 environments with torch and runs
#       tests/python in each with TVM_FFI_REQUIRE_TORCH=1 (a missing torch
#       fails instead of skipping).
#
#   bash .ci/python-tests.sh wheel <dist dir>    only the wheel build
#
# The virtual environments are kept between runs outside the clone
# (.ci/python-env.sh); the torch wheels too (.ci/install-torch.sh).
# Any failure stops the script non-zero.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=python-env.sh
source "$ROOT/.ci/python-env.sh"


fail() {
  echo "python-tests: FAILED: $*" >&2
  exit 1
}
step() { echo "=== python-tests: $*"; }

run_pytest() {  # <python> <work dir> [env assignments...]
  local py="$1" work="$2"
  shift 2
  # From outside the source tree, so that the package under test is the one
  # on the path (the build tree or the installed wheel), never pyshim/.
  (cd "$work" && env "$@" "$py" -m pytest -q -p no:cacheprovider "$ROOT/tests/python") ||
    fail "the Python suite with $py"
}

quick() {
  local build
  build="$(cd "${1:?usage: python-tests.sh quick <build dir>}" && pwd)"
  [ -f "$build/python/tvm_ffi/core.abi3.so" ] ||
    fail "$build/python/tvm_ffi/core.abi3.so is missing: configure $build with -DTVM_FFI_BUILD_PYTHON=ON"
  local py venv
  py="$(find_python 3.12)" || fail "Python 3.12 is required"
  venv="$(test_venv "$py")" || fail "creating the test environment"
  step "Python $("$venv/bin/python" -c 'import sys; print(sys.version.split()[0])'): tests/python on $build/python (torch tests skip)"
  run_pytest "$venv/bin/python" "$build" PYTHONPATH="$build/python"
}

# ---------------------------------------------------------------------------
# The wheel: .ci/build-wheel.sh builds THE wheel (manylinux-tagged by
# auditwheel, NEEDED lists and size checked; its build directory kept, so a
# second build is incremental).  build_wheel <dist dir> copies it there.
build_wheel() {
  local dist="$1" wheel
  wheel="$(WERROR="${WERROR:-OFF}" bash "$ROOT/.ci/build-wheel.sh" | tail -n 1)" ||
    fail "building the wheel (.ci/build-wheel.sh)"
  [ -f "$wheel" ] || fail ".ci/build-wheel.sh printed no wheel path"
  cp "$wheel" "$dist/"
}
# ---------------------------------------------------------------------------

full() {
  local work="${TVM_FFI_PYTHON_CI_DIR:-$ROOT/build-python-ci}"
  local py312 py313
  py312="$(find_python 3.12)" || fail "Python 3.12 is required"
  py313="$(find_python 3.13)" || fail "Python 3.13 is required"
  step "Python 3.12: $py312; Python 3.13: $py313; work dir: $work"
  rm -rf "$work/dist" "$work/dist-311"
  mkdir -p "$work/dist"

  step "building the wheel once with Python 3.12"
  build_wheel "$work/dist"
  shopt -s nullglob
  local wheels=("$work"/dist/*.whl)
  [ "${#wheels[@]}" -eq 1 ] || fail "expected exactly one wheel, got: ${wheels[*]:-none}"
  local wheel="${wheels[0]}"
  case "$(basename "$wheel")" in
    *-cp312-abi3-*.whl) ;;
    *) fail "wheel $(basename "$wheel") is not tagged cp312-abi3" ;;
  esac
  step "wheel: $(basename "$wheel")"
  # One copy of the library (SONAME libtvm_ffi.so, no versioned symlink chain
  # that a wheel would turn into copies).
  local libs
  libs="$("$py312" -c 'import sys, zipfile; print("\n".join(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if "/libtvm_ffi.so" in n))' "$wheel")"
  [ "$libs" = "tvm_ffi/lib/libtvm_ffi.so" ] || fail "the wheel must carry exactly tvm_ffi/lib/libtvm_ffi.so, has: $libs"

  # Building for an older Python must stop with a clear message.
  local py311 out
  if py311="$(find_python 3.11 2>/dev/null)"; then
    step "Python 3.11 must be refused"
    if out="$("$py311" -m pip wheel --no-deps --wheel-dir "$work/dist-311" "$ROOT" 2>&1)"; then
      fail "building with Python 3.11 succeeded"
    fi
    grep -q "requires a different Python: 3.11" <<<"$out" ||
      fail "building with Python 3.11 failed without the expected message: $out"
    echo "refused as expected: $(grep 'requires a different Python' <<<"$out")"
  fi

  local py ver venv
  for py in "$py312" "$py313"; do
    ver="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    venv="$(torch_venv "$py")" || fail "creating the Python $ver environment with torch"
    step "Python $ver: installing the wheel"
    "$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel" ||
      fail "installing the wheel into Python $ver"
    step "Python $ver: pytest tests/python (torch required)"
    run_pytest "$venv/bin/python" "$work" TVM_FFI_REQUIRE_TORCH=1
    "$venv/bin/python" - <<'PY' || fail "the installed layout on Python $ver"
import os, tvm_ffi
from tvm_ffi import libinfo
assert os.path.dirname(libinfo.find_libtvm_ffi()).startswith(os.path.dirname(tvm_ffi.__file__)), \
    libinfo.find_libtvm_ffi()
assert os.path.exists(os.path.join(libinfo.find_include_path(), "tvm", "ffi", "c_api.h"))
assert not os.path.exists(os.path.join(libinfo.find_include_path(), "tvmffi"))
assert os.path.exists(os.path.join(libinfo.find_cmake_path(), "tvm_ffiConfig.cmake"))
print("installed layout ok:", libinfo.find_libtvm_ffi())
PY
  done
  step "all Python checks passed (3.12 and 3.13, one cp312-abi3 wheel, torch)"
}

case "${1:-}" in
  quick) shift; quick "$@" ;;
  full | "") shift || true; full "$@" ;;
  wheel) shift; build_wheel "$(mkdir -p "${1:?usage: python-tests.sh wheel <dist dir>}" && cd "$1" && pwd)" ;;
  *) echo "usage: python-tests.sh quick <build dir> | full | wheel <dist dir>" >&2; exit 2 ;;
esac

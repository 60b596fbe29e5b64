# Sourced by run.sh and run_tensor.sh (not run on its own): the setup the two
# Python benchmarks share.
#
# Sets ROOT (the source tree), HERE (bench/python) and PY (pyenv's newest
# Python 3.12; exits when there is none), and defines
#   bench_venv <dir> [package...]         creates the venv <dir> unless it exists,
#                                         then pip-installs the packages (--upgrade)
#   bench_install_wheel <venv> <dist dir> builds this tree's wheel into <dist dir>
#                                         and installs it in <venv>

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/bench/python"

if command -v pyenv >/dev/null 2>&1; then
  PYENV_ROOT="$(pyenv root)"
else
  PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"
fi
PY="$(ls -d "$PYENV_ROOT"/versions/3.12.*/bin/python3.12 2>/dev/null | sort -V | tail -n 1 || true)"
[ -n "$PY" ] || { echo "bench/python: no pyenv Python 3.12" >&2; exit 1; }

bench_venv() {
  local dir="$1"
  shift
  if [ ! -x "$dir/bin/python" ]; then "$PY" -m venv "$dir" || return 1; fi
  if [ "$#" -gt 0 ]; then "$dir/bin/python" -m pip install --quiet --upgrade "$@"; fi
}

bench_install_wheel() {
  rm -rf "$2"
  "$1/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$2" "$ROOT"
  "$1/bin/python" -m pip install --quiet --force-reinstall --no-deps "$2"/*.whl
}

# Sourced by the CI scripts (or run, see the end): finds the pyenv
# interpreters and keeps the Python virtual environments the tests use.
#
#   source .ci/python-env.sh
#   py="$(find_python 3.12)"                       # newest pyenv 3.12.x
#   venv="$(cached_venv "$py" test -r .ci/requirements-test.txt)"
#   "$venv/bin/python" -m pytest ...
#
# The environments live OUTSIDE the clone, in $TVM_FFI_CACHE_DIR (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi/venvs), so a fresh clone or `git
# clean` reuses them.  Each one is named <name>-<python version>-<key>, where
# the key hashes the interpreter, the pip arguments and the contents of every
# requirements file named with -r: changing a pin makes a new environment
# (and the older ones of that name are removed).  An environment is used only
# once it is complete (the .ready stamp written last), so an interrupted
# install is redone, never half-used.

TVM_FFI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TVM_FFI_CACHE_DIR="${TVM_FFI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tvm-ffi}"

_pyenv_root() {
  if command -v pyenv >/dev/null 2>&1; then pyenv root; else echo "${PYENV_ROOT:-$HOME/.pyenv}"; fi
}

# find_python 3.12 -> path of the newest installed pyenv 3.12.x interpreter.
# Fails (non-zero, message on stderr) when there is none.
find_python() {
  local minor="$1" found
  found="$(ls -d "$(_pyenv_root)"/versions/"$minor".*/bin/python"$minor" 2>/dev/null |
           sort -V | tail -n 1)"
  if [ -z "$found" ]; then
    echo "python-env: no Python $minor under $(_pyenv_root)/versions (install it with pyenv)" >&2
    return 1
  fi
  echo "$found"
}

# cached_venv <python> <name> <pip install arguments...> -> the venv directory.
# All progress goes to stderr, so the result can be captured with $(...).
cached_venv() {
  local py="$1" name="$2"
  shift 2
  local ver key arg dir
  ver="$("$py" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')" || return 1
  # The key: the interpreter, the arguments, and for `-r <file>` the file's
  # contents instead of its path (so every clone shares the environment).
  key="$({
    echo "$py $ver"
    local prev=""
    for arg in "$@"; do
      if [ "$prev" = "-r" ]; then cat "$arg"; else echo "arg $arg"; fi
      prev="$arg"
    done
  } | sha256sum | cut -c1-12)"
  dir="$TVM_FFI_CACHE_DIR/venvs/$name-$ver-$key"
  if [ ! -f "$dir/.ready" ]; then
    mkdir -p "$TVM_FFI_CACHE_DIR/venvs"
    # One creator at a time (two clones may run their tests together).
    (
      flock 9
      [ -f "$dir/.ready" ] && exit 0
      start=$(date +%s)
      echo "python-env: creating $dir" >&2
      # Older environments of this name (other pins, other interpreter) go.
      rm -rf "$TVM_FFI_CACHE_DIR/venvs/$name-$ver-"* "$dir"
      "$py" -m venv "$dir" >&2 || exit 1
      "$dir/bin/python" -m pip install --quiet "$@" >&2 ||
        { echo "python-env: pip install $* failed" >&2; exit 1; }
      touch "$dir/.ready"
      echo "python-env: $name ready in $(( $(date +%s) - start )) s" >&2
    ) 9>"$TVM_FFI_CACHE_DIR/venvs/.lock" || return 1
  fi
  echo "$dir"
}

# The environment of .ci/requirements-test.txt (pytest, numpy, ml_dtypes) for <python>.
test_venv() {
  cached_venv "$1" test -r "$TVM_FFI_ROOT/.ci/requirements-test.txt"
}

# The environment with the test requirements and torch for <python> (make
# test-python-full and make asan share it).  torch comes from the package index, installed
# once per environment; its wheels are kept in a wheelhouse between runs
# (.ci/install-torch.sh).
torch_venv() {
  local py="$1" spec="${TVM_FFI_TORCH_SPEC:-torch==2.15.0}" venv
  venv="$(cached_venv "$py" "torch-${spec//[^A-Za-z0-9.]/_}" -r "$TVM_FFI_ROOT/.ci/requirements-test.txt")" || return 1
  if [ ! -f "$venv/.torch-ready" ]; then
    (
      flock 9
      [ -f "$venv/.torch-ready" ] && exit 0
      echo "python-env: installing $spec into $venv" >&2
      TVM_FFI_TORCH_SPEC="$spec" bash "$TVM_FFI_ROOT/.ci/install-torch.sh" "$venv/bin/python" >&2 &&
        touch "$venv/.torch-ready"
    ) 9>"$TVM_FFI_CACHE_DIR/venvs/.lock" || return 1
  fi
  echo "$venv"
}

# Run as a script, for the Makefile:
#   bash .ci/python-env.sh find-python 3.12   the interpreter (empty output, status 1 if none)
#   bash .ci/python-env.sh test-python        the python of the 3.12 test environment
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    find-python) find_python "${2:?usage: python-env.sh find-python <version>}" ;;
    test-python)
      py="$(find_python 3.12)"
      venv="$(test_venv "$py")"
      echo "$venv/bin/python" ;;
    *) echo "usage: python-env.sh find-python <version> | test-python" >&2; exit 2 ;;
  esac
fi

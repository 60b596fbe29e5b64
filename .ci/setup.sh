#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine needs to build, test and
# benchmark tvm-ffi, then fetches the upstream apache-tvm-ffi C headers that
# the compatibility tests compile against.  Safe to run again.
#
#   bash .ci/setup.sh && make         # build and run the demo and get_started
#   bash .ci/setup.sh && make test    # build and run the contributor's suite
#
# Also creates the Python 3.12 test environment (pytest, numpy, ml_dtypes;
# about 20 MB from PyPI, once per machine) in the cache folder outside the
# clone (.ci/python-env.sh), so that `make test` downloads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build make gcc g++ clang   # the build (clang for the header tests)
  ccache                                 # compiler cache (the Makefile uses it when present)
  pkg-config
  libdw-dev                              # file:line in backtraces (libdw, loaded at run time)
  catch2                                 # the C++ tests (Catch2 v2)
  binutils                               # nm, for the export-list test
  python3 python3-dev python3-pip python3-venv   # pyshim, pip download of upstream
  python3-pytest python3-numpy           # the Python tests
  ca-certificates
  openjdk-17-jdk-headless maven          # make test-lang: the Java sample (JNA from Maven Central)
  libclang-rt-14-dev valgrind            # make fuzz (libFuzzer for clang 14), make valgrind
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi

bash .ci/fetch-upstream.sh

# Python: 3.12 (the extension's limited API; make, make test) and 3.13
# (make test-python-full) come from pyenv, as on the CI machines.
bash .ci/python-env.sh find-python 3.12 >/dev/null ||
  { echo "setup: make and make test need Python 3.12 from pyenv" >&2; exit 1; }
bash .ci/python-env.sh find-python 3.13 >/dev/null ||
  echo "setup: note: no Python 3.13 from pyenv; make test-python-full needs it" >&2
echo "setup: Python test environment: $(bash .ci/python-env.sh test-python)"

# make test-lang: the packages of the language samples (tests/lang/), fetched
# once into the tools' own caches on this machine (~/.cargo, ~/.m2, the Go
# build cache; node_modules inside the sample, ignored by git).  Rust, Go and
# Node.js themselves come with the machine and cannot be installed from here.
for tool in cargo go node npm java mvn; do
  command -v "$tool" >/dev/null 2>&1 ||
    { echo "setup: $tool not found; make test-lang needs Rust (cargo), Go, Node.js 20 + npm, JDK 17 + Maven" >&2; exit 1; }
done
(cd tests/lang/rust && cargo fetch --locked --quiet)
(cd tests/lang/node && npm ci --no-audit --no-fund --silent)
(cd tests/lang/java && mvn -q -B -Dstyle.color=never dependency:resolve dependency:resolve-plugins)
echo "setup: language sample packages ready (cargo, npm, maven)"

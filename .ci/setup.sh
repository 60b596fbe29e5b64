#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine needs to build, test and
# benchmark tvm-ffi, then fetches the upstream apache-tvm-ffi C headers that
# the compatibility tests compile against.  Safe to run again.
#
#   bash .ci/setup.sh && make         # build and run the demo
#   bash .ci/setup.sh && make test    # build and run every test
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build make gcc g++ clang   # the build (clang for the header tests)
  pkg-config libunwind-dev               # backtraces
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

# The front door.  Every target configures with CMake + Ninja, so a fresh
# checkout needs nothing but what .ci/setup.sh installs.
#
#   make          Release build in build/, then the demo and examples/get_started
#                 (C, C++ and Python, the Python side on the build tree)
#   make test     the contributor's suite, a few minutes: ctest (C, C++, compat,
#                 install), tests/python on Python 3.12 with numpy (no torch:
#                 those tests skip), and the language samples (make test-lang)
#   make test-python-full  the wheel, built once and installed into Python 3.12
#                 and 3.13 with torch (torch tests required); CI
#   make test-upstream-python  upstream apache-tvm-ffi's tests/python on our
#                 package, and on upstream's package over our library; CI
#   make asan     ctest and tests/python under ASan + UBSan, in build-asan/
#   make fuzz     libFuzzer targets (clang, ASan + UBSan) in build-fuzz/, each run FUZZ_SECONDS
#   make tsan     the C++ suite (with the thread-stress test) under ThreadSanitizer, in build-tsan/
#   make valgrind the C tests of build/ under valgrind memcheck
#   make test-lang  the dlopen samples in C, Rust, Go, Node.js and Java (tests/lang/)
#   make test-upstream-cpp  apache-tvm-ffi's own C++ test suite on build/: against
#                 our headers, and against upstream's on our libtvm_ffi.so
#                 (tests/upstream/run_cpp_suite.sh; BUILD=build-asan after make asan)
#   make bench    Release build, then the benchmarks (bench/cxx_layers.sh:
#                 our C++ headers against apache-tvm-ffi's, side by side)
#   make clean    remove the build directories
#
# .ci/run is CI: `make test`, then every other target above except bench,
# with WERROR=ON.  Each build directory is one configuration, built once.

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
JOBS       ?= 2
CMAKE_ARGS ?=
# ON: warnings are errors in every target of the project (CMake's
# CMAKE_COMPILE_WARNING_AS_ERROR; .ci/run sets it).  Off by default, so that
# a newer compiler's new warning does not stop a newcomer's build.
WERROR     ?= OFF

# ccache when installed (.ci/setup.sh installs it).  Paths are hashed relative
# to the checkout, so two clones of the repository share hits.
ifneq ($(shell command -v ccache 2>/dev/null),)
LAUNCHER := -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
endif

# The Python extension is built on the 3.12 limited API: Python 3.12 from
# pyenv (Debian 12's python3 is 3.11).  Without it the build has no extension
# and the targets that run Python stop with the reason.
PYTHON312 := $(shell bash .ci/python-env.sh find-python 3.12 2>/dev/null)
ifneq ($(PYTHON312),)
PYTHON_ARGS := -DTVM_FFI_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(PYTHON312)
endif
NEED_PYTHON = @test -n "$(PYTHON312)" || \
  { echo "make: $@ needs Python 3.12 from pyenv (bash .ci/python-env.sh find-python 3.12)" >&2; exit 1; }

CONFIGURE = cmake -S . -G Ninja -DCMAKE_BUILD_TYPE=Release $(LAUNCHER) \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=$(WERROR) $(CMAKE_ARGS)
SANITIZER_ENV = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: all build demo test test-ctest test-python test-python-full test-upstream-python asan bench clean test-lang \
        test-lang-run fuzz tsan valgrind test-upstream-cpp

all: demo

build:
	$(CONFIGURE) $(PYTHON_ARGS) -B $(BUILD)
	cmake --build $(BUILD) -j $(JOBS)

# examples/get_started against an installed copy of build/: C and C++, and
# Python on the build tree's extension (PYTHONPATH) with numpy.
demo: build
	$(NEED_PYTHON)
	./$(BUILD)/demo
	py="$$(bash .ci/python-env.sh test-python)" && \
	  PYTHON="$$py" PYTHONPATH=$(abspath $(BUILD))/python \
	  bash tests/install/check_install.sh $(BUILD) $(BUILD)/get_started

test: build
	$(MAKE) --no-print-directory test-ctest test-python test-lang-run

# The pieces of `make test` (without the build step; .ci/run times each).
# The doc test (tests/docs) runs the docs' Python blocks with the test
# environment's interpreter (numpy) on the build tree, and must not skip them.
test-ctest:
	$(NEED_PYTHON)
	py="$$(bash .ci/python-env.sh test-python)" && \
	  TVM_FFI_DOC_PYTHON="$$py" TVM_FFI_REQUIRE_DOC_PYTHON=1 \
	  ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-python:
	$(NEED_PYTHON)
	bash .ci/python-tests.sh quick $(BUILD)

# Upstream apache-tvm-ffi's Python suite, on our package and on upstream's
# package over our library (.ci/upstream-python.sh; issue 20).
test-upstream-python: build
	bash .ci/upstream-python.sh ours $(BUILD)
	bash .ci/upstream-python.sh upstream-package $(BUILD)

test-python-full:
	WERROR=$(WERROR) bash .ci/python-tests.sh full

test-lang: build
	$(MAKE) --no-print-directory test-lang-run

test-lang-run:
	TVM_FFI_LIB=$(abspath $(BUILD))/libtvm_ffi.so \
	  TVM_FFI_TESTING_LIB=$(abspath $(BUILD))/libtvm_ffi_testing.so \
	  LANG_BUILD=$(abspath $(BUILD))/lang bash tests/lang/run.sh

# Upstream's C++ suite, one executable per test file (docs/cxx.md, "Upstream's
# C++ test suite").  Compiled against upstream's headers, its executables must
# load on our libtvm_ffi.so and pass at least CPP_SUITE_MIN_UPSTREAM_HEADERS
# percent of what passes on upstream (measured: 99.4); compiled against ours,
# at least CPP_SUITE_MIN_OURS percent (issue 19 asks for 90; measured: 99.4).
# The baseline (upstream's headers on upstream's library) runs first: it is
# the 100% and it names the tests that do not pass here.  Needs the build (and
# bash .ci/fetch-upstream.sh); with BUILD=build-asan the same executables run
# on the sanitized library (no new compilation: ccache).
CPP_SUITE_MIN_OURS             ?= 98.7
CPP_SUITE_MIN_UPSTREAM_HEADERS ?= 98.7
CPP_SUITE_MODES                ?= baseline ours upstream-headers
test-upstream-cpp:
	TVM_FFI_BUILD_DIR=$(abspath $(BUILD)) \
	  TVM_FFI_CPP_SUITE_MIN_PERCENT_OURS=$(CPP_SUITE_MIN_OURS) \
	  TVM_FFI_CPP_SUITE_MIN_PERCENT_UPSTREAM_HEADERS=$(CPP_SUITE_MIN_UPSTREAM_HEADERS) \
	  bash tests/upstream/run_cpp_suite.sh $(CPP_SUITE_MODES)

# One sanitized configuration (library, tests and Python extension), built
# once, then ctest and tests/python (.ci/python-asan.sh) on it.
asan:
	$(NEED_PYTHON)
	$(CONFIGURE) $(PYTHON_ARGS) -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTVM_FFI_SANITIZE=ON \
	  -DTVM_FFI_BUILD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	$(SANITIZER_ENV) ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)
	ASAN_BUILD=$(abspath $(ASAN_BUILD)) bash .ci/python-asan.sh

bench: build
	@set -e; benches="$$(find $(BUILD)/bench -maxdepth 1 -name 'bench_*' -type f -executable | sort)"; \
	  [ -n "$$benches" ] || { echo "make bench: no bench_* executables in $(BUILD)/bench" >&2; exit 1; }; \
	  for b in $$benches; do echo "== $$b"; "$$b"; done
	bash bench/python/run.sh
	bash bench/cxx_layers.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD) build-wheel build-python-ci

# Reliability (docs/reliability.md) ------------------------------------------------
FUZZ_SECONDS   ?= 30
FUZZ_TARGETS   ?= fuzz_dtype fuzz_dlpack fuzz_globals fuzz_json_graph

# New inputs go to $(FUZZ_BUILD)/corpus/<target>; fuzz/corpus/<target> (the
# committed seeds) is only read.  A crash leaves its input in $(FUZZ_BUILD)/.
fuzz:
	CC=clang CXX=clang++ $(CONFIGURE) -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DTVM_FFI_SANITIZE=ON -DTVM_FFI_BUILD_FUZZ=ON -DTVM_FFI_BUILD_TESTS=OFF \
	  -DTVM_FFI_BUILD_BENCH=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t && echo "== $$t ($(FUZZ_SECONDS) s)" && \
	  $(SANITIZER_ENV) \
	  ./$(FUZZ_BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/$$t- $(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$t \
	    2>$(FUZZ_BUILD)/$$t.log || { tail -n 60 $(FUZZ_BUILD)/$$t.log; exit 1; }; \
	  grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units)" $(FUZZ_BUILD)/$$t.log; \
	done

# ThreadSanitizer over the C++ suite; suppressions (none today) would go in
# tests/tsan.supp, each with its reason.  Only the C++ suite is built.
tsan:
	$(CONFIGURE) -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
	  -DTVM_FFI_BUILD_BENCH=OFF
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target tvm_ffi_cpp_tests
	TSAN_OPTIONS="halt_on_error=1 suppressions=$(abspath tests/tsan.supp)" \
	  ./$(TSAN_BUILD)/tests/tvm_ffi_cpp_tests

# memcheck over the C tests of the Release build in $(BUILD)/ (no extra
# build); tests/valgrind.supp records the known false positives (none
# today), each with its reason.  No C test found is an error.
valgrind: build
	@set -e; tests="$$(find $(BUILD)/tests -maxdepth 1 -name 'c_test_*' -type f -executable | sort)"; \
	  [ -n "$$tests" ] || { echo "make valgrind: no c_test_* executables in $(BUILD)/tests" >&2; exit 1; }; \
	  mkdir -p $(BUILD)/valgrind; \
	  for t in $$tests; do \
	    log=$(BUILD)/valgrind/$$(basename $$t).log; echo "== valgrind $$t"; \
	    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	      --suppressions=tests/valgrind.supp $$t > $$log 2>&1 || { tail -n 80 $$log; exit 1; }; \
	  done; echo "valgrind: all C tests clean ($$(echo $$tests | wc -w))"

# The sdist installs and the wheel is portable (.ci/package-tests.sh: manylinux
# tag, NEEDED lists, find_package and pkg-config from the wheel, pip install of
# the sdist into a fresh venv).
.PHONY: package-test
package-test:
	bash .ci/package-tests.sh

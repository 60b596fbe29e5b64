# The front door.  Every target configures with CMake + Ninja, so a fresh
# checkout needs nothing but the packages that .ci/setup.sh installs.
#
#   make          Release build in build/, then run the demo and examples/get_started
#   make test     build and run every test (ctest, then the Python tests)
#   make asan     everything (C, C++ and Python suites) under ASan + UBSan, in build-asan/
#   make bench    Release build, then run the benchmarks (bench/cxx_layers.sh:
#                 our C++ headers against apache-tvm-ffi's, side by side)
#   make test-lang  the dlopen samples in C, Rust, Go, Node.js and Java (tests/lang/)
#   make fuzz     libFuzzer targets (clang, ASan + UBSan) in build-fuzz/, each run FUZZ_SECONDS
#   make tsan     the C++ suite (with the thread-stress test) under ThreadSanitizer, in build-tsan/
#   make valgrind the C tests of build/ under valgrind memcheck
#   make clean    remove the build directories

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= 2
CMAKE_ARGS ?=

CONFIGURE = cmake -S . -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

.PHONY: all build demo test asan bench clean test-lang fuzz tsan valgrind

all: demo

build:
	$(CONFIGURE) -B $(BUILD)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	./$(BUILD)/demo
	bash tests/install/check_install.sh $(BUILD) $(BUILD)/get_started

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	if [ -f .ci/python-tests.sh ]; then bash .ci/python-tests.sh; fi

asan:
	$(CONFIGURE) -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DTVM_FFI_SANITIZE=ON \
	  -DTVM_FFI_BUILD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)
	ASAN_BUILD=$(abspath $(ASAN_BUILD)) bash .ci/python-asan.sh

bench: build
	@for b in $(BUILD)/bench/bench_*; do \
	  if [ -f "$$b" ] && [ -x "$$b" ]; then echo "== $$b"; "$$b" || exit 1; fi; \
	done
	if [ -f bench/python/run.sh ]; then bash bench/python/run.sh; fi
	bash bench/cxx_layers.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD)

# Reliability (docs/reliability.md) ------------------------------------------------
FUZZ_BUILD     ?= build-fuzz
FUZZ_SECONDS   ?= 30
FUZZ_TARGETS   ?= fuzz_dtype fuzz_dlpack fuzz_globals fuzz_json_graph
TSAN_BUILD     ?= build-tsan

# New inputs go to $(FUZZ_BUILD)/corpus/<target>; fuzz/corpus/<target> (the
# committed seeds) is only read.  A crash leaves its input in $(FUZZ_BUILD)/.
fuzz:
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DTVM_FFI_SANITIZE=ON -DTVM_FFI_BUILD_FUZZ=ON -DTVM_FFI_BUILD_TESTS=OFF \
	  -DTVM_FFI_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t && echo "== $$t ($(FUZZ_SECONDS) s)" && \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ./$(FUZZ_BUILD)/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/$$t- $(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$t \
	    2>$(FUZZ_BUILD)/$$t.log || { tail -n 60 $(FUZZ_BUILD)/$$t.log; exit 1; }; \
	  grep -E "^(#[0-9]+ *DONE|stat::number_of_executed_units)" $(FUZZ_BUILD)/$$t.log; \
	done

# ThreadSanitizer over the C++ suite; suppressions (none today) would go in
# tests/tsan.supp, each with its reason.
tsan:
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
	  -DTVM_FFI_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target tvm_ffi_cpp_tests
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(abspath tests/tsan.supp)" \
	  ./$(TSAN_BUILD)/tests/tvm_ffi_cpp_tests

# memcheck over the C tests; tests/valgrind.supp records the known false
# positives (libunwind reading the stack), each with its reason.
# (The C tests of the Release build in $(BUILD)/, so no extra build.)
valgrind: build
	@set -e; for t in $(BUILD)/tests/c_test_*; do \
	  [ -f "$$t" ] && [ -x "$$t" ] || continue; \
	  echo "== valgrind $$t"; \
	  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --suppressions=tests/valgrind.supp $$t > $$t.valgrind.log 2>&1 || \
	    { tail -n 80 $$t.valgrind.log; exit 1; }; \
	done; echo "valgrind: all C tests clean"

test-lang: build
	TVM_FFI_LIB=$(abspath $(BUILD))/libtvm_ffi.so \
	  TVM_FFI_TESTING_LIB=$(abspath $(BUILD))/libtvm_ffi_testing.so \
	  LANG_BUILD=$(abspath $(BUILD))/lang bash tests/lang/run.sh

# The sdist installs and the wheel is portable (.ci/package-tests.sh: manylinux
# tag, NEEDED lists, find_package and pkg-config from the wheel, pip install of
# the sdist into a fresh venv).
.PHONY: package-test
package-test:
	bash .ci/package-tests.sh

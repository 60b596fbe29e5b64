# The front door.  Every target configures with CMake + Ninja, so a fresh
# checkout needs nothing but the packages that .ci/setup.sh installs.
#
#   make          Release build in build/, then run the demo and examples/get_started
#   make test     build and run every test (ctest, then the Python tests)
#   make asan     everything (C, C++ and Python suites) under ASan + UBSan, in build-asan/
#   make bench    Release build, then run the benchmarks (bench/cxx_layers.sh:
#                 our C++ headers against apache-tvm-ffi's, side by side)
#   make test-lang  the dlopen samples in C, Rust, Go, Node.js and Java (tests/lang/)
#   make clean    remove the build directories

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= 2
CMAKE_ARGS ?=

CONFIGURE = cmake -S . -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

.PHONY: all build demo test asan bench clean test-lang

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
	rm -rf $(BUILD) $(ASAN_BUILD)

test-lang: build
	TVM_FFI_LIB=$(abspath $(BUILD))/libtvm_ffi.so \
	  TVM_FFI_TESTING_LIB=$(abspath $(BUILD))/libtvm_ffi_testing.so \
	  LANG_BUILD=$(abspath $(BUILD))/lang bash tests/lang/run.sh

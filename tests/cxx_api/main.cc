// Catch2 entry point for the tests of the public C++ API (include/tvm/ffi/*.h).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

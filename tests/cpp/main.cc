// Catch2 entry point for the C++ tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

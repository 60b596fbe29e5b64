// Shapes: the ABI layout, ffi.Shape and the C++ Shape.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

TEST_CASE("Shape: layout is header, ShapeCell at +24, inline dims at +40", "[shape]") {
  Any shape = Call("ffi.Shape", int64_t(2), int64_t(3), int64_t(-1));
  REQUIRE(shape.type_index() == kTVMFFIShape);
  char* base = static_cast<char*>(HandleOf(shape));
  TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(HandleOf(shape));
  CHECK(reinterpret_cast<std::uintptr_t>(reinterpret_cast<char*>(cell)) ==
        reinterpret_cast<std::uintptr_t>(base + 24));
  CHECK(reinterpret_cast<std::uintptr_t>(reinterpret_cast<const char*>(cell->data)) ==
        reinterpret_cast<std::uintptr_t>(base + 40));
  REQUIRE(cell->size == 3);
  CHECK(cell->data[0] == 2);
  CHECK(cell->data[1] == 3);
  CHECK(cell->data[2] == -1);
}

TEST_CASE("Shape: ffi.Shape with no arguments is rank 0", "[shape]") {
  Any shape = Call("ffi.Shape");
  Shape s = shape.cast<Shape>();
  CHECK(s.size() == 0);
  CHECK(s.Product() == 1);
}

TEST_CASE("Shape: ffi.Shape refuses non-integers naming the argument", "[shape]") {
  CHECK(ThrownBy([] { Call("ffi.Shape", int64_t(1), "2"); }) ==
        "TypeError: In function ffi.Shape: argument 2: expected int, got str");
  CHECK(ThrownBy([] { Call("ffi.Shape", 1.5); }) ==
        "TypeError: In function ffi.Shape: argument 1: expected int, got float");
}

TEST_CASE("Shape: C++ Shape reads the cell and checks indices", "[shape]") {
  Shape s{4, 5, 6};
  CHECK(s.size() == 3);
  CHECK(s[1] == 5);
  CHECK(s.Product() == 120);
  CHECK(std::vector<int64_t>(s.begin(), s.end()) == std::vector<int64_t>{4, 5, 6});
  CHECK(TVMFFIShapeGetCellPtr(HandleOf(s))->data == s.data());
  CHECK(ThrownBy([&] { (void)s.at(3); }) == "IndexError: indexing 3 on a Shape of size 3");
  CHECK(ThrownBy([&] { (void)s.at(static_cast<size_t>(-1)); }) ==
        "IndexError: indexing 18446744073709551615 on a Shape of size 3");
}

TEST_CASE("Shape: passes through typed functions", "[shape]") {
  Function rank = Function::FromTyped([](Shape s) { return s.size(); }, "testing.rank");
  CHECK(rank(Shape{1, 2}).cast<int64_t>() == 2);
  CHECK(rank(Call("ffi.Shape", int64_t(7))).cast<int64_t>() == 1);
  // tvm::ffi::Shape takes an Array of ints as a copy (upstream's
  // conversion); anything else is refused naming the argument.
  CHECK(rank(Call("ffi.Array", int64_t(4), int64_t(5))).cast<int64_t>() == 2);
  CHECK(ThrownBy([&] { rank(Call("ffi.Map")); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `testing.rank(0: ffi.Shape) -> "
        "int`. Expected `ffi.Shape` but got `ffi.Map`");
}

TEST_CASE("Shape: testing.shape_product", "[shape]") {
  Any shape = Call("ffi.Shape", int64_t(2), int64_t(3));
  CHECK(CallTesting("testing.shape_product", shape).cast<int64_t>() == 6);
  // An Array of ints converts to a Shape parameter (upstream's Shape does so).
  CHECK(CallTesting("testing.shape_product", Call("ffi.Array", int64_t(4), int64_t(5)))
            .cast<int64_t>() == 20);
  CHECK(ThrownBy([] { CallTesting("testing.shape_product", Call("ffi.Map")); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `testing.shape_product(0: "
        "ffi.Shape) -> int`. Expected `ffi.Shape` but got `ffi.Map`");
}

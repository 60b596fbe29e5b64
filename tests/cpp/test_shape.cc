// Shapes: the ABI layout, ffi.Shape and the C++ Shape.
#include <catch2/catch.hpp>

#include <vector>

#include "test_util.h"
#include <tvmffi/shape.h>

using namespace tvmffi::core;
using namespace test_util;

TEST_CASE("Shape: layout is header, ShapeCell at +24, inline dims at +40", "[shape]") {
  Any shape = Call("ffi.Shape", int64_t(2), int64_t(3), int64_t(-1));
  REQUIRE(shape.type_index() == kTVMFFIShape);
  char* base = static_cast<char*>(HandleOf(shape));
  TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(HandleOf(shape));
  CHECK(reinterpret_cast<char*>(cell) == base + 24);
  CHECK(reinterpret_cast<const char*>(cell->data) == base + 40);
  REQUIRE(cell->size == 3);
  CHECK(cell->data[0] == 2);
  CHECK(cell->data[1] == 3);
  CHECK(cell->data[2] == -1);
}

TEST_CASE("Shape: ffi.Shape with no arguments is rank 0", "[shape]") {
  Any shape = Call("ffi.Shape");
  Shape s = shape.As<Shape>();
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
  CHECK(s.ToVector() == std::vector<int64_t>{4, 5, 6});
  CHECK(TVMFFIShapeGetCellPtr(s.handle())->data == s.data());
  CHECK(ThrownBy([&] { (void)s[3]; }) == "IndexError: index 3 out of range for Shape of size 3");
  CHECK(ThrownBy([&] { (void)s[-1]; }) ==
        "IndexError: index -1 out of range for Shape of size 3");
}

TEST_CASE("Shape: passes through typed functions", "[shape]") {
  Function rank = Function::FromTyped([](Shape s) { return s.size(); }, "testing.rank");
  CHECK(rank(Shape{1, 2}).As<int64_t>() == 2);
  CHECK(rank(Call("ffi.Shape", int64_t(7))).As<int64_t>() == 1);
  CHECK(ThrownBy([&] { rank(Call("ffi.Array", int64_t(1))); }) ==
        "TypeError: In function testing.rank: argument 1: expected ffi.Shape, got ffi.Array");
}

TEST_CASE("Shape: testing.shape_product", "[shape]") {
  Any shape = Call("ffi.Shape", int64_t(2), int64_t(3));
  CHECK(CallTesting("testing.shape_product", shape).As<int64_t>() == 6);
  CHECK(ThrownBy([] { CallTesting("testing.shape_product", Call("ffi.Array")); }) ==
        "TypeError: In function testing.shape_product: argument 1: expected ffi.Shape, got "
        "ffi.Array");
}

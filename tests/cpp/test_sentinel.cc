// Sentinels: MISSING and KWARGS are bare ffi.Object instances, one each.
#include <catch2/catch.hpp>

#include "test_util.h"
#include <tvmffi/sentinel.h>

using namespace tvmffi::core;
using namespace test_util;

TEST_CASE("Sentinel: ffi.GetInvalidObject returns the same bare object", "[sentinel]") {
  Any a = Call("ffi.GetInvalidObject");
  Any b = Call("ffi.GetInvalidObject");
  REQUIRE(a.type_index() == kTVMFFIObject);
  CHECK(HandleOf(a) == HandleOf(b));
  CHECK(HandleOf(a) == MissingSentinel());
  CHECK(IsMissing(*a.raw()));
}

TEST_CASE("Sentinel: ffi.GetKwargsObject is a different bare object", "[sentinel]") {
  Any k = Call("ffi.GetKwargsObject");
  REQUIRE(k.type_index() == kTVMFFIObject);
  CHECK(HandleOf(k) == HandleOf(Call("ffi.GetKwargsObject")));
  CHECK(HandleOf(k) == KwargsSentinel());
  CHECK(HandleOf(k) != MissingSentinel());
  CHECK_FALSE(IsMissing(*k.raw()));
}

TEST_CASE("Sentinel: references are counted but the object never dies", "[sentinel]") {
  Any a = Call("ffi.GetInvalidObject");
  uint32_t before = Object::FromHandle(HandleOf(a))->use_count();
  {
    Any b = Call("ffi.GetInvalidObject");
    CHECK(Object::FromHandle(HandleOf(a))->use_count() == before + 1);
  }
  CHECK(Object::FromHandle(HandleOf(a))->use_count() == before);
}

// Sentinels: MISSING and KWARGS are bare ffi.Object instances, one each.
#include <catch2/catch.hpp>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// The sentinels as the first call of their global returned them, kept for
// the process: later calls must keep returning these very objects.
TVMFFIObjectHandle MissingSentinel() {
  static TVMFFIObjectHandle h = HandleOf(Call("ffi.GetInvalidObject"));
  return h;
}
TVMFFIObjectHandle KwargsSentinel() {
  static TVMFFIObjectHandle h = HandleOf(Call("ffi.GetKwargsObject"));
  return h;
}
bool IsMissing(const TVMFFIAny& v) {
  return v.type_index == kTVMFFIObject && v.v_obj == MissingSentinel();
}

}  // namespace

TEST_CASE("Sentinel: ffi.GetInvalidObject returns the same bare object", "[sentinel]") {
  Any a = Call("ffi.GetInvalidObject");
  Any b = Call("ffi.GetInvalidObject");
  REQUIRE(a.type_index() == kTVMFFIObject);
  CHECK(HandleOf(a) == HandleOf(b));
  CHECK(HandleOf(a) == MissingSentinel());
  CHECK(IsMissing(*RawOf(a)));
}

TEST_CASE("Sentinel: ffi.GetKwargsObject is a different bare object", "[sentinel]") {
  Any k = Call("ffi.GetKwargsObject");
  REQUIRE(k.type_index() == kTVMFFIObject);
  CHECK(HandleOf(k) == HandleOf(Call("ffi.GetKwargsObject")));
  CHECK(HandleOf(k) == KwargsSentinel());
  CHECK(HandleOf(k) != MissingSentinel());
  CHECK_FALSE(IsMissing(*RawOf(k)));
}

TEST_CASE("Sentinel: references are counted but the object never dies", "[sentinel]") {
  Any a = Call("ffi.GetInvalidObject");
  uint32_t before = ObjectOf(HandleOf(a))->use_count();
  {
    Any b = Call("ffi.GetInvalidObject");
    CHECK(ObjectOf(HandleOf(a))->use_count() == before + 1);
  }
  CHECK(ObjectOf(HandleOf(a))->use_count() == before);
}

// ffi.VisitInterrupt: the global, the layout and the reflected `value`.
#include <catch2/catch.hpp>

#include <cstring>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

TEST_CASE("VisitInterrupt: ffi.VisitInterrupt(value) keeps value at +24", "[visit_interrupt]") {
  Any payload = Call("ffi.Array", int64_t(1));
  Any v = Call("ffi.VisitInterrupt", payload);
  REQUIRE(v.type_index() == kTVMFFIVisitInterrupt);
  const TVMFFIAny* stored =
      reinterpret_cast<const TVMFFIAny*>(reinterpret_cast<const char*>(RawOf(v)->v_obj) + 24);
  CHECK(stored->v_obj == RawOf(payload)->v_obj);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIVisitInterrupt);
  REQUIRE(info->num_fields == 1);
  const TVMFFIFieldInfo& f = info->fields[0];
  CHECK(std::string(f.name.data, f.name.size) == "value");
  CHECK(f.offset == 24);
  CHECK((f.flags & kTVMFFIFieldFlagBitMaskWritable) == 0);
  CHECK((f.flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0);
  TVMFFIAny got;
  std::memset(&got, 0, sizeof(got));
  REQUIRE(f.getter(const_cast<TVMFFIAny*>(stored), &got) == 0);
  Any owned = AnyUnsafe::MoveTVMFFIAnyRawToAny(got);
  CHECK(RawOf(owned)->v_obj == RawOf(payload)->v_obj);
  CHECK(Call("ffi.VisitInterrupt", Any()).type_index() == kTVMFFIVisitInterrupt);
}

// ffi.StructuralMutator: the type with upstream's layout and its hook columns
// (the mutation engine is not implemented yet).
#include <catch2/catch.hpp>

#include <cstring>

#include "test_util.h"

using namespace test_util;

TEST_CASE("StructuralMutator: the type and its hook columns exist", "[structural_mutate]") {
  TVMFFIByteArray key = {"ffi.StructuralMutator", 21};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&key, &index) == 0);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  REQUIRE(info->metadata != nullptr);
  CHECK(info->metadata->total_size == 40);  // header, vtable, def_region_mode
  CHECK(info->metadata->creator == nullptr);  // made only by an engine
  for (const char* name : {"__s_mutate__", "__s_maybe_inplace_mutate__", "__s_visit__"}) {
    TVMFFIByteArray n = {name, std::strlen(name)};
    CHECK(TVMFFIGetTypeAttrColumn(&n) != nullptr);
  }
}

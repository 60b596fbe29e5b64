// ffi.MakeObjectFromPackedArgs: an object of a reflected type from field names and values.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

int32_t SKwIndex() {
  TestingGlobal("testing.make_snode_chain");  // loads the testing library
  TVMFFIByteArray name = {"testing.SKw", 11};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&name, &index) == 0);
  return index;
}

// The value of field `name` of obj (through its getter).
Any FieldOf(const Any& obj, const std::string& name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj.type_index());
  for (int32_t i = 0; i < info->num_fields; ++i) {
    const TVMFFIFieldInfo& f = info->fields[i];
    if (std::string(f.name.data, f.name.size) != name) continue;
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    REQUIRE(f.getter(reinterpret_cast<char*>(RawOf(obj)->v_obj) + f.offset, &out) == 0);
    return AnyUnsafe::MoveTVMFFIAnyRawToAny(out);
  }
  FAIL("no field " << name);
  return Any();
}

}  // namespace

TEST_CASE("MakeObjectFromPackedArgs: by type key or index; defaults fill the rest",
          "[object_factory]") {
  int32_t t = SKwIndex();
  Any a = Call("ffi.MakeObjectFromPackedArgs", std::string("testing.SKw"), std::string("a"),
               int64_t(7), std::string("c"), std::string("see"));
  REQUIRE(a.type_index() == t);
  CHECK(FieldOf(a, "a").cast<int64_t>() == 7);
  CHECK(FieldOf(a, "b").cast<int64_t>() == 2);  // default
  CHECK(FieldOf(a, "c").cast<std::string>() == "see");
  CHECK(FieldOf(a, "d").cast<double>() == 0.5);  // default of an init=False field
  Any b = Call("ffi.MakeObjectFromPackedArgs", int64_t(t), std::string("b"), int64_t(3),
               std::string("a"), int64_t(1), std::string("d"), 1.5);
  CHECK(FieldOf(b, "a").cast<int64_t>() == 1);
  CHECK(FieldOf(b, "b").cast<int64_t>() == 3);
  CHECK(FieldOf(b, "d").cast<double>() == 1.5);
}

TEST_CASE("MakeObjectFromPackedArgs: errors name the field or type", "[object_factory]") {
  SKwIndex();
  CHECK(ThrownBy([] { Call("ffi.MakeObjectFromPackedArgs", std::string("testing.SKw")); }) ==
        "TypeError: Required field `a` not set in type `testing.SKw`");
  CHECK(ThrownBy([] {
          Call("ffi.MakeObjectFromPackedArgs", std::string("testing.SKw"), std::string("a"),
               int64_t(1), std::string("zz"), int64_t(2));
        }) == "TypeError: Type `testing.SKw` does not have field `zz`");
  CHECK(ThrownBy([] {
          Call("ffi.MakeObjectFromPackedArgs", std::string("testing.SKw"), std::string("a"));
        }) ==
        "TypeError: ffi.MakeObjectFromPackedArgs: expected a type and name/value pairs, got 2 "
        "arguments");
  CHECK(ThrownBy([] { Call("ffi.MakeObjectFromPackedArgs", std::string("no.SuchType")); }) ==
        "KeyError: type key `no.SuchType` is not registered");
  CHECK(ThrownBy([] {
          Call("ffi.MakeObjectFromPackedArgs", std::string("testing.SKw"), std::string("a"),
               std::string("not an int"));
        }).rfind("TypeError: ", 0) == 0);
}

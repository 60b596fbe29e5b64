// Built-in globals: ffi.String, ffi.Bytes, ffi.GetRegisteredTypeKeys.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

TEST_CASE("Builtin globals: ffi.String makes owned strings, small or heap", "[builtin_globals]") {
  Any s = Call("ffi.String", "abc");
  CHECK(s.type_index() == kTVMFFISmallStr);
  CHECK(StrOf(s) == "abc");
  std::string text = "longer than seven";
  Any h = Call("ffi.String", text.c_str());
  CHECK(h.type_index() == kTVMFFIStr);
  CHECK(StrOf(h) == text);
  CHECK(ThrownBy([] { Call("ffi.String", int64_t(1)); }) ==
        "TypeError: In function ffi.String: argument 1: expected str, got int");
  CHECK(ThrownBy([] { Call("ffi.String", Bytes("a", 1)); }) ==
        "TypeError: In function ffi.String: argument 1: expected str, got bytes");
}

TEST_CASE("Builtin globals: ffi.Bytes makes owned bytes", "[builtin_globals]") {
  TVMFFIByteArray raw{"a\0b", 3};
  TVMFFIAny arg{};
  arg.type_index = kTVMFFIByteArrayPtr;
  arg.v_ptr = &raw;
  Any b;
  Function::GetGlobalRequired("ffi.Bytes").CallPacked(reinterpret_cast<const AnyView*>(&arg), 1,
                                                      &b);
  CHECK(b.type_index() == kTVMFFISmallBytes);
  Bytes bytes = b.cast<Bytes>();
  CHECK(std::string(bytes) == std::string("a\0b", 3));
  CHECK(ThrownBy([] { Call("ffi.Bytes", "s"); }) ==
        "TypeError: In function ffi.Bytes: argument 1: expected bytes, got str");
}

TEST_CASE("Builtin globals: ffi.GetRegisteredTypeKeys lists the built-in keys",
          "[builtin_globals]") {
  Any keys = Call("ffi.GetRegisteredTypeKeys");
  REQUIRE(keys.type_index() == kTVMFFIArray);
  std::set<std::string> seen;
  for (String k : keys.cast<Array<String>>()) seen.insert(std::string(k));
  for (const char* expected : {"ffi.Object", "ffi.String", "ffi.Array", "ffi.Map", "ffi.Shape",
                               "ffi.List", "ffi.Dict", "int", "None"}) {
    CHECK(seen.count(expected) == 1);
  }
}

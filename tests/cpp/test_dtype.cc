// Dtypes: every name of the grammar parsed and printed, and the errors.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// Parses through the C ABI; on failure returns {255,255,255} and leaves the error.
DLDataType Parse(const std::string& text, int* rc) {
  TVMFFIByteArray b{text.data(), text.size()};
  DLDataType out = DType(255, 255, 255);
  *rc = TVMFFIDataTypeFromString(&b, &out);
  return out;
}

std::string ParseError(const std::string& text) {
  int rc = 0;
  Parse(text, &rc);
  if (rc != 0) return TakeRaised();
  return "parsed";
}

// Prints through the C ABI; checks the result is an owned heap String.
std::string Print(DLDataType t) {
  TVMFFIAny out;
  std::memset(&out, 0xAB, sizeof(out));
  REQUIRE(TVMFFIDataTypeToString(&t, &out) == 0);
  REQUIRE(out.type_index == kTVMFFIStr);
  CHECK(out.zero_padding == 0);
  CHECK(ObjectOf(out.v_obj)->use_count() == 1);
  const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(out.v_obj);
  std::string text(b->data, b->size);
  CHECK(b->data[b->size] == '\0');
  TVMFFIObjectDecRef(out.v_obj);
  return text;
}

struct Case {
  const char* text;
  int code, bits, lanes;
  const char* canonical;
};

// Scalable lanes are stored as -N in the int16 view of `lanes`.
constexpr int Scalable(int n) { return 65536 - n; }

const Case kCases[] = {
    // void
    {"", 3, 0, 0, ""},
    {"void", 3, 0, 0, ""},
    // integers
    {"int8", 0, 8, 1, "int8"},
    {"int16", 0, 16, 1, "int16"},
    {"int32", 0, 32, 1, "int32"},
    {"int64", 0, 64, 1, "int64"},
    {"int4", 0, 4, 1, "int4"},
    {"int1", 0, 1, 1, "int1"},
    {"int", 0, 32, 1, "int32"},
    {"int0", 0, 32, 1, "int32"},
    {"int255", 0, 255, 1, "int255"},
    {"i8", 0, 8, 1, "int8"},
    {"i16", 0, 16, 1, "int16"},
    {"i32", 0, 32, 1, "int32"},
    {"i64", 0, 64, 1, "int64"},
    {"uint8", 1, 8, 1, "uint8"},
    {"uint16", 1, 16, 1, "uint16"},
    {"uint32", 1, 32, 1, "uint32"},
    {"uint64", 1, 64, 1, "uint64"},
    {"uint", 1, 32, 1, "uint32"},
    {"u1", 1, 1, 1, "uint1"},
    {"u8", 1, 8, 1, "uint8"},
    {"u16", 1, 16, 1, "uint16"},
    {"u32", 1, 32, 1, "uint32"},
    {"u64", 1, 64, 1, "uint64"},
    // floats
    {"float16", 2, 16, 1, "float16"},
    {"float32", 2, 32, 1, "float32"},
    {"float64", 2, 64, 1, "float64"},
    {"float", 2, 32, 1, "float32"},
    {"float8", 2, 8, 1, "float8"},
    {"f16", 2, 16, 1, "float16"},
    {"f32", 2, 32, 1, "float32"},
    {"f64", 2, 64, 1, "float64"},
    {"bfloat16", 4, 16, 1, "bfloat16"},
    {"bfloat", 4, 16, 1, "bfloat16"},
    {"bf16", 4, 16, 1, "bfloat16"},
    // bool and handle
    {"bool", 6, 8, 1, "bool"},
    {"boolx4", 6, 8, 4, "bool8x4"},
    {"bool8x4", 6, 8, 4, "bool8x4"},
    {"bool1", 6, 1, 1, "bool1"},
    {"handle", 3, 64, 1, "handle"},
    {"handle64", 3, 64, 1, "handle"},
    {"handle0", 3, 64, 1, "handle"},  // bits 0: the default
    {"handle32", 3, 32, 1, "handle32"},
    {"handle3", 3, 3, 1, "handle3"},
    {"handlex4", 3, 64, 4, "handlex4"},
    {"int0", 0, 32, 1, "int32"},
    // lanes
    {"int8x4", 0, 8, 4, "int8x4"},
    {"float32x16", 2, 32, 16, "float32x16"},
    {"uint16x1", 1, 16, 1, "uint16"},
    {"i32x8", 0, 32, 8, "int32x8"},
    {"bf16x2", 4, 16, 2, "bfloat16x2"},
    {"floatx4", 2, 32, 4, "float32x4"},
    {"int8x32767", 0, 8, 32767, "int8x32767"},
    {"int32xvscalex4", 0, 32, Scalable(4), "int32xvscalex4"},
    {"float16xvscalex8", 2, 16, Scalable(8), "float16xvscalex8"},
    {"int8xvscalex32768", 0, 8, Scalable(32768), "int8xvscalex32768"},
    {"uintxvscalex2", 1, 32, Scalable(2), "uint32xvscalex2"},
    // float8
    {"float8_e3m4", 7, 8, 1, "float8_e3m4"},
    {"float8_e4m3", 8, 8, 1, "float8_e4m3"},
    {"float8_e4m3b11fnuz", 9, 8, 1, "float8_e4m3b11fnuz"},
    {"float8_e4m3fn", 10, 8, 1, "float8_e4m3fn"},
    {"float8_e4m3fnuz", 11, 8, 1, "float8_e4m3fnuz"},
    {"float8_e5m2", 12, 8, 1, "float8_e5m2"},
    {"float8_e5m2fnuz", 13, 8, 1, "float8_e5m2fnuz"},
    {"float8_e8m0fnu", 14, 8, 1, "float8_e8m0fnu"},
    {"fp8_e3m4", 7, 8, 1, "float8_e3m4"},
    {"fp8_e4m3", 8, 8, 1, "float8_e4m3"},
    {"fp8_e4m3b11fnuz", 9, 8, 1, "float8_e4m3b11fnuz"},
    {"fp8_e4m3fn", 10, 8, 1, "float8_e4m3fn"},
    {"fp8_e4m3fnuz", 11, 8, 1, "float8_e4m3fnuz"},
    {"fp8_e5m2", 12, 8, 1, "float8_e5m2"},
    {"fp8_e5m2fnuz", 13, 8, 1, "float8_e5m2fnuz"},
    {"fp8_e8m0fnu", 14, 8, 1, "float8_e8m0fnu"},
    {"f8_e3m4", 7, 8, 1, "float8_e3m4"},
    {"f8_e4m3", 8, 8, 1, "float8_e4m3"},
    {"f8_e4m3b11fnuz", 9, 8, 1, "float8_e4m3b11fnuz"},
    {"f8_e4m3fn", 10, 8, 1, "float8_e4m3fn"},
    {"f8_e4m3fnuz", 11, 8, 1, "float8_e4m3fnuz"},
    {"f8_e5m2", 12, 8, 1, "float8_e5m2"},
    {"f8_e5m2fnuz", 13, 8, 1, "float8_e5m2fnuz"},
    {"f8_e8m0fnu", 14, 8, 1, "float8_e8m0fnu"},
    {"float8_e4m3fnx4", 10, 8, 4, "float8_e4m3fnx4"},
    {"float8_e4m3x2", 8, 8, 2, "float8_e4m3x2"},
    {"float8_e5m2xvscalex4", 12, 8, Scalable(4), "float8_e5m2xvscalex4"},
    // float6
    {"float6_e2m3fn", 15, 6, 1, "float6_e2m3fn"},
    {"float6_e3m2fn", 16, 6, 1, "float6_e3m2fn"},
    {"fp6_e2m3fn", 15, 6, 1, "float6_e2m3fn"},
    {"fp6_e3m2fn", 16, 6, 1, "float6_e3m2fn"},
    {"f6_e2m3fn", 15, 6, 1, "float6_e2m3fn"},
    {"f6_e3m2fn", 16, 6, 1, "float6_e3m2fn"},
    {"float6_e3m2fnx8", 16, 6, 8, "float6_e3m2fnx8"},
    // float4
    {"float4_e2m1fn", 17, 4, 1, "float4_e2m1fn"},
    {"fp4_e2m1fn", 17, 4, 1, "float4_e2m1fn"},
    {"f4_e2m1fn", 17, 4, 1, "float4_e2m1fn"},
    {"float4_e2m1fnx2", 17, 4, 2, "float4_e2m1fnx2"},
    {"float4_e2m1fn_x2", 17, 4, 2, "float4_e2m1fnx2"},
    {"fp4_e2m1fn_x4", 17, 4, 4, "float4_e2m1fnx4"},
};

}  // namespace

TEST_CASE("DType: every name parses, prints canonically and parses back", "[dtype]") {
  for (const Case& c : kCases) {
    INFO("text: \"" << c.text << "\"");
    int rc = 0;
    DLDataType t = Parse(c.text, &rc);
    REQUIRE(rc == 0);
    CHECK(int(t.code) == c.code);
    CHECK(int(t.bits) == c.bits);
    CHECK(int(t.lanes) == c.lanes);
    CHECK(Print(t) == c.canonical);
    DLDataType again = Parse(c.canonical, &rc);
    REQUIRE(rc == 0);
    CHECK((again == t));
  }
}

TEST_CASE("DType: lanes beyond the int16 range print as their int16 view", "[dtype]") {
  int rc = 0;
  DLDataType t = Parse("int8x32768", &rc);
  REQUIRE(rc == 0);
  CHECK(Print(t) == "int8xvscalex32768");  // the same 16 bits
  CHECK((Parse("int8xvscalex32768", &rc) == t));
  t = Parse("int8x40000", &rc);
  REQUIRE(rc == 0);
  CHECK(Print(t) == "int8xvscalex25536");
  CHECK((Parse("int8xvscalex25536", &rc) == t));
}

TEST_CASE("DType: dtypes no name spells are refused, never printed as another", "[dtype]") {
  // Printing them the old way lost information: "int32" for 0 lanes,
  // "int0" (which parses as int32) for 0 bits, "int8" for lanes 65535.
  struct Bad {
    DLDataType t;
    const char* message;
  } bad[] = {
      {DType(0, 32, 0),
       "ValueError: cannot format dtype {code 0, bits 32, lanes 0}: 0 lanes has no name"},
      {DType(0, 0, 1),
       "ValueError: cannot format dtype {code 0, bits 0, lanes 1}: 0 bits has no name (a bits "
       "suffix of 0 means the default)"},
      {DType(3, 0, 1),
       "ValueError: cannot format dtype {code 3, bits 0, lanes 1}: 0 bits has no name (a bits "
       "suffix of 0 means the default)"},
      {DType(0, 8, 65535),
       "ValueError: cannot format dtype {code 0, bits 8, lanes 65535}: 65535 lanes and 1 "
       "scalable lane share the encoding -1 and cannot be told apart"},
      {DType(kDLFloat8_e4m3fn, 16, 1),
       "ValueError: cannot format dtype {code 10, bits 16, lanes 1}: a narrow float name "
       "implies its bits"},
  };
  for (const Bad& b : bad) {
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    CHECK(TVMFFIDataTypeToString(&b.t, &out) == -1);
    CHECK(TakeRaised() == b.message);
    CHECK(out.type_index == kTVMFFINone);
  }
  // And the names for that encoding are refused when parsed.
  for (const char* text : {"int8x65535", "int32xvscalex1"}) {
    CHECK(ParseError(text) == std::string("ValueError: invalid dtype `") + text +
                                  "`: 65535 lanes and 1 scalable lane share the encoding -1 and "
                                  "cannot be told apart");
  }
}

TEST_CASE("DType: invalid names are ValueErrors naming the text", "[dtype]") {
  const char* unknown[] = {"float33x", "int8x",    "int8x4y",      "i",          "u",
                           "f",        "bf",       "complex64",    "Int8",       " int8",
                           "int8 ",    "intx",     "int-8",        "float8_e9m9", "float8_",
                           "float8_e4m3fn16",      "float8_e4m3fn_x2",           "float6_e2m1fn",
                           "fp4_e2m1fnx",          "custom[",      "custom[]",   "custom[]8",
                           "int8xvscalex",         "int8x+4",      "handlex",    "voidx4",
                           "bool_",    "xint8",    "i8x4x4"};
  for (const char* text : unknown) {
    INFO("text: \"" << text << "\"");
    CHECK(ParseError(text) == std::string("ValueError: unknown dtype `") + text + "`");
  }
  CHECK(ParseError("int256") == "ValueError: invalid dtype `int256`: bits must be at most 255");
  CHECK(ParseError("int99999999999") ==
        "ValueError: invalid dtype `int99999999999`: bits must be at most 255");
  CHECK(ParseError("int8x0") == "ValueError: invalid dtype `int8x0`: lanes must be in [1, 65535]");
  CHECK(ParseError("int8x65536") ==
        "ValueError: invalid dtype `int8x65536`: lanes must be in [1, 65535]");
  CHECK(ParseError("int8xvscalex0") ==
        "ValueError: invalid dtype `int8xvscalex0`: scalable lanes must be in [1, 32768]");
  CHECK(ParseError("int8xvscalex32769") ==
        "ValueError: invalid dtype `int8xvscalex32769`: scalable lanes must be in [1, 32768]");
  // Text is taken by length, not up to a NUL.
  std::string with_nul("int8\0x", 6);
  CHECK(ParseError(with_nul) == "ValueError: unknown dtype `" + with_nul + "`");
}

TEST_CASE("DType: NULL arguments", "[dtype]") {
  DLDataType t;
  CHECK(TVMFFIDataTypeFromString(nullptr, &t) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFIDataTypeFromString: str must not be NULL");
  TVMFFIByteArray b{"int8", 4};
  CHECK(TVMFFIDataTypeFromString(&b, nullptr) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFIDataTypeFromString: out must not be NULL");
  TVMFFIAny out;
  CHECK(TVMFFIDataTypeToString(nullptr, &out) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFIDataTypeToString: dtype must not be NULL");
}

TEST_CASE("DType: printing unknown codes is a ValueError", "[dtype]") {
  struct Bad {
    DLDataType t;
    const char* message;
  } bad[] = {
      {DType(5, 64, 1),
       "ValueError: cannot format dtype {code 5, bits 64, lanes 1}: unknown type code 5"},
      {DType(18, 8, 1),
       "ValueError: cannot format dtype {code 18, bits 8, lanes 1}: unknown type code 18"},
      {DType(128, 8, 2),
       "ValueError: cannot format dtype {code 128, bits 8, lanes 2}: unknown type code 128"},
  };
  for (const Bad& b : bad) {
    TVMFFIAny out;
    std::memset(&out, 0, sizeof(out));
    CHECK(TVMFFIDataTypeToString(&b.t, &out) == -1);
    CHECK(TakeRaised() == b.message);
    CHECK(out.type_index == kTVMFFINone);
  }
}

TEST_CASE("DType: custom types go through the dtype.get_custom_type_* globals", "[dtype]") {
  // Before the globals exist, custom names and codes are refused.
  REQUIRE_FALSE(Function::GetGlobal("dtype.get_custom_type_code").has_value());
  REQUIRE_FALSE(Function::GetGlobal("dtype.get_custom_type_name").has_value());
  CHECK(ParseError("custom[posit]16") ==
        "ValueError: invalid dtype `custom[posit]16`: global function "
        "`dtype.get_custom_type_code` is not registered");
  TVMFFIAny out;
  DLDataType custom = DType(130, 16, 1);
  CHECK(TVMFFIDataTypeToString(&custom, &out) == -1);
  CHECK(TakeRaised() ==
        "ValueError: cannot format dtype with custom type code 130: global function "
        "`dtype.get_custom_type_name` is not registered");

  Function::SetGlobal("dtype.get_custom_type_code",
                      Function::FromTyped([](const std::string& name) -> int64_t {
                        if (name == "posit") return 130;
                        if (name == "low") return 100;
                        throw Error("ValueError", "unknown custom type `" + name + "`", "");
                      }));
  Function::SetGlobal("dtype.get_custom_type_name", Function::FromTyped([](int64_t code) {
                        if (code == 130) return std::string("posit");
                        throw Error("ValueError", "unknown custom code " + std::to_string(code), "");
                      }));
  const Case cases[] = {
      {"custom[posit]16", 130, 16, 1, "custom[posit]16"},
      {"custom[posit]", 130, 32, 1, "custom[posit]32"},
      {"custom[posit]8x4", 130, 8, 4, "custom[posit]8x4"},
      {"custom[posit]x2", 130, 32, 2, "custom[posit]32x2"},
  };
  for (const Case& c : cases) {
    INFO("text: " << c.text);
    int rc = 0;
    DLDataType t = Parse(c.text, &rc);
    REQUIRE(rc == 0);
    CHECK(int(t.code) == c.code);
    CHECK(int(t.bits) == c.bits);
    CHECK(int(t.lanes) == c.lanes);
    CHECK(Print(t) == c.canonical);
  }
  CHECK(ParseError("custom[other]") == "ValueError: unknown custom type `other`");
  CHECK(ParseError("custom[low]8") ==
        "ValueError: invalid dtype `custom[low]8`: custom type code 100 is out of range [129, "
        "255]");
  CHECK(ParseError("custom[posit]8y") == "ValueError: unknown dtype `custom[posit]8y`");
  DLDataType other = DType(131, 8, 1);
  CHECK(TVMFFIDataTypeToString(&other, &out) == -1);
  CHECK(TakeRaised() == "ValueError: unknown custom code 131");
}

TEST_CASE("DType: header-only helpers", "[dtype]") {
  CHECK((StringToDLDataType("float16x2") == DType(2, 16, 2)));
  CHECK(DLDataTypeToString(DType(4, 16, 1)) == "bfloat16");
  CHECK(ThrownBy([] { StringToDLDataType("nope"); }) == "ValueError: unknown dtype `nope`");
  // AnyView to DLDataType accepts strings.
  AnyView text("int8x4");
  CHECK((text.cast<DLDataType>() == DType(0, 8, 4)));
}

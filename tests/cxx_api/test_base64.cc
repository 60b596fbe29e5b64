// extra/base64.h: Base64Encode, Base64Decode.
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <string>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

std::string Encode(const std::string& raw) {
  return std::string(Base64Encode(Bytes(raw)));
}

std::string Decode(const std::string& text) {
  Bytes b = Base64Decode(String(text));
  return std::string(b.data(), b.size());
}

}  // namespace

TEST_CASE("base64: the RFC 4648 vectors", "[base64]") {
  const char* vectors[][2] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                              {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                              {"foobar", "Zm9vYmFy"}};
  for (const auto& v : vectors) {
    CHECK(Encode(v[0]) == v[1]);
    CHECK(Decode(v[1]) == v[0]);
  }
}

TEST_CASE("base64: every byte value round-trips", "[base64]") {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= all.size(); n += 37) {
    std::string part = all.substr(all.size() - n);
    std::string text = Encode(part);
    CHECK(text.size() == (n + 2) / 3 * 4);
    CHECK(Decode(text) == part);
  }
  CHECK(Encode(std::string("\xfb\xff\xbf", 3)) == "+/+/");
  // From a raw byte array too.
  TVMFFIByteArray raw{"\0\0\0", 3};
  CHECK(std::string(Base64Encode(raw)) == "AAAA");
}

TEST_CASE("base64: bad input is an error naming it", "[base64]") {
  CHECK(ErrorOf([] { Decode("Zm9"); }) ==
        "InternalError: Check failed: bytes.size % 4 == 0 (3 vs. 0) : invalid base64 encoding");
  CHECK(ErrorOf([] { Decode("Zm9v!A=="); }) ==
        "ValueError: invalid base64 character '!' (0x21) at position 4");
  CHECK(ErrorOf([] { Decode("Zg==Zg=="); }) ==
        "ValueError: invalid base64 character '=' (0x3d) at position 2");
  CHECK(ErrorOf([] { Decode("Z=g="); }) ==
        "ValueError: invalid base64 character '=' (0x3d) at position 1");
  CHECK(ErrorOf([] { Decode(std::string("Zm9\n", 4)); }) ==
        "ValueError: invalid base64 character 0x0a at position 3");
  CHECK(ErrorOf([] { Decode("Zm9\xc3"); }) ==
        "ValueError: invalid base64 character 0xc3 at position 3");
}

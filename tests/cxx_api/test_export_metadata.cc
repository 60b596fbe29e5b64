// TVM_FFI_DLL_EXPORT_TYPED_FUNC with TVM_FFI_DLL_EXPORT_INCLUDE_METADATA: the
// metadata and doc symbols next to the function.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/function.h>

#include <catch2/catch.hpp>

#include <string>

using namespace tvm::ffi;

namespace {
double Mean(int64_t a, int64_t b) { return (a + b) / 2.0; }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(cxx_api_test_mean, Mean);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(cxx_api_test_mean, "Mean of two integers.");

namespace {
// Calls a zero-argument exported symbol and returns its string result.
String CallNoArgs(int (*symbol)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*)) {
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  REQUIRE(symbol(nullptr, nullptr, 0, &result) == 0);
  return detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(result).cast<String>();
}
}  // namespace

TEST_CASE("function: exported metadata and doc symbols", "[function]") {
  CHECK(CallNoArgs(__tvm_ffi__metadata_cxx_api_test_mean) ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":)"
        R"(\"float\"}],\"params\":[{\"type\":\"int\"},{\"type\":\"int\"}]}}"})");
  CHECK(CallNoArgs(__tvm_ffi__doc_cxx_api_test_mean) == "Mean of two integers.");
  Function mean = Function::FromExternC(nullptr, __tvm_ffi_cxx_api_test_mean, nullptr);
  CHECK(mean(3, 4).cast<double>() == 3.5);
}

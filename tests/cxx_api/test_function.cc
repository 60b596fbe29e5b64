// function.h (Function, TypedFunction, the safe-call brackets, the export
// macro), function_detail.h, dtype.h and device.h.
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <algorithm>
#include <string>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

int64_t Scale(int64_t x, double factor) { return static_cast<int64_t>(x * factor); }
void Fail(String why) { TVM_FFI_THROW(ValueError) << "failed: " << why; }

// A C closure for FromExternC: counts its calls and its release.
struct Closure {
  int calls = 0;
  int released = 0;
};
int ClosureCall(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  Closure* closure = static_cast<Closure*>(self);
  ++closure->calls;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = num_args == 1 ? args[0].v_int64 * 10 : -1;
  return 0;
}
void ClosureRelease(void* self) { ++static_cast<Closure*>(self)->released; }

}  // namespace

// Exported exactly as a kernel library would; called below through its C symbol.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(cxx_api_test_scale, Scale);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(cxx_api_test_fail, Fail);

TEST_CASE("function: typed functions convert arguments and results", "[function]") {
  Function scale = Function::FromTyped(Scale);
  CHECK(scale(4, 2.5).cast<int64_t>() == 10);
  CHECK(scale(4, 2).cast<int64_t>() == 8);  // int converts to double
  CHECK(ErrorOf([&] { scale(4); }) ==
        "TypeError: Mismatched number of arguments when calling: `(0: int, 1: float) -> int`. "
        "Expected 2 but got 1 arguments");
  Function named = Function::FromTyped(Scale, "scale");
  CHECK(ErrorOf([&] { named("x", 1.0); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`scale(0: int, 1: float) -> int`. Expected `int` but got `const char*`");

  Function join = Function::FromTyped([](const String& a, std::string b, Optional<int> n) {
    return a + b + (n.has_value() ? std::to_string(*n) : std::string("-"));
  });
  CHECK(join("ab", String("cd"), 3).cast<String>() == "abcd3");
  CHECK(join("ab", "cd", nullptr).cast<String>() == "abcd-");

  Function packed = Function::FromPacked([](PackedArgs args, Any* rv) {
    int64_t total = 0;
    for (int i = 0; i < args.size(); ++i) total += args[i].cast<int64_t>();
    *rv = total;
  });
  CHECK(packed(1, 2, 3).cast<int>() == 6);
  CHECK(packed().cast<int>() == 0);
  CHECK(packed(true).cast<int>() == 1);

  TypedFunction<int(int, int)> add = [](int a, int b) { return a + b; };
  CHECK(add(2, 3) == 5);
  TypedFunction<String(int)> wrong_ret = Function::FromTyped([](int x) { return x; });
  CHECK(ErrorOf([&] { wrong_ret(1); }) == "TypeError: Cannot convert from type `int` to `str`");
  CHECK(TypeTraits<TypedFunction<int(int, String)>>::TypeStr() == "(0: int, 1: str) -> int");
  CHECK(TypedFunction<void(int)>::TypeSchema() ==
        R"({"type":"ffi.Function","named_args":{"return":[{"type":"None"}],)"
        R"("params":[{"type":"int"}]}})");
}

TEST_CASE("function: errors cross the C ABI both ways", "[function]") {
  Function fail = Function::FromTyped(Fail, "fail");
  // Through the C call: -1 and the error in the slot.
  TVMFFIAny arg;
  TypeTraits<const char*>::CopyToAnyView("reason", &arg);
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  REQUIRE(TVMFFIFunctionCall(detail::ObjectUnsafe::GetHeader(fail.get()), &arg, 1, &result) == -1);
  Error err = detail::MoveFromSafeCallRaised();
  CHECK(err.kind() == "ValueError");
  CHECK(err.message() == "failed: reason");
  // Through C++: thrown.
  CHECK(ErrorOf([&] { fail("again"); }) == "ValueError: failed: again");
  // A std::exception becomes an InternalError at the boundary.
  Function throws_std = Function::FromTyped([]() -> int { throw std::runtime_error("plain"); });
  REQUIRE(TVMFFIFunctionCall(detail::ObjectUnsafe::GetHeader(throws_std.get()), nullptr, 0,
                             &result) == -1);
  CHECK(detail::MoveFromSafeCallRaised().kind() == "InternalError");
  // A runtime function's error reaches C++ callers as an Error.
  Function parse = Function::GetGlobalRequired("ffi.String");
  CHECK(parse("text").cast<String>() == "text");
}

TEST_CASE("function: globals", "[function]") {
  Function::SetGlobal("cxx_api_test.twice", Function::FromTyped([](int x) { return 2 * x; }));
  Function twice = Function::GetGlobalRequired("cxx_api_test.twice");
  CHECK(twice(21).cast<int>() == 42);
  CHECK(ErrorOf([] {
          Function::SetGlobal("cxx_api_test.twice", Function::FromTyped([](int x) { return x; }));
        }).find("cxx_api_test.twice") != std::string::npos);
  Function::SetGlobal("cxx_api_test.twice", Function::FromTyped([](int x) { return 3 * x; }), true);
  CHECK(Function::GetGlobalRequired(String("cxx_api_test.twice"))(2).cast<int>() == 6);
  std::vector<String> names = Function::ListGlobalNames();
  CHECK(std::count(names.begin(), names.end(), String("cxx_api_test.twice")) == 1);
  Function::RemoveGlobal("cxx_api_test.twice");
  CHECK_FALSE(Function::GetGlobal("cxx_api_test.twice").has_value());
  CHECK(ErrorOf([] { Function::GetGlobalRequired("cxx_api_test.nope"); }) ==
        "ValueError: Function cxx_api_test.nope not found");
  CHECK(TypeKeyToIndex("ffi.Function") == kTVMFFIFunction);
}

TEST_CASE("function: C closures and in-place callables", "[function]") {
  Closure closure;
  {
    Function f = Function::FromExternC(&closure, ClosureCall, ClosureRelease);
    CHECK(f(4).cast<int>() == 40);
    CHECK(Function::InvokeExternC(&closure, ClosureCall, 5).cast<int>() == 50);
    CHECK(closure.calls == 2);
    CHECK(closure.released == 0);
  }
  CHECK(closure.released == 1);

  struct Counter {
    int hits = 0;
    void operator()(const AnyView*, int32_t, Any* rv) { *rv = ++hits; }
  };
  auto [func, counter] = Function::FromPackedInplace<Counter>();
  func();
  func();
  CHECK(counter->hits == 2);
  CHECK(func().cast<int>() == 3);
}

TEST_CASE("function: the exported C symbol of TVM_FFI_DLL_EXPORT_TYPED_FUNC", "[function]") {
  TVMFFIAny args[2];
  TypeTraits<int>::CopyToAnyView(6, &args[0]);
  TypeTraits<double>::CopyToAnyView(0.5, &args[1]);
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  REQUIRE(__tvm_ffi_cxx_api_test_scale(nullptr, args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt);
  CHECK(result.v_int64 == 3);
  REQUIRE(__tvm_ffi_cxx_api_test_scale(nullptr, args, 1, &result) == -1);
  CHECK(detail::MoveFromSafeCallRaised().message() ==
        "Mismatched number of arguments when calling: "
        "`cxx_api_test_scale(0: int, 1: float) -> int`. Expected 2 but got 1 arguments");
  TypeTraits<const char*>::CopyToAnyView("why", &args[0]);
  REQUIRE(__tvm_ffi_cxx_api_test_fail(nullptr, args, 1, &result) == -1);
  CHECK(detail::MoveFromSafeCallRaised().message() == "failed: why");
}

TEST_CASE("dtype and device: conversions and names", "[dtype]") {
  DLDataType f32 = StringToDLDataType("float32");
  CHECK(f32.code == kDLFloat);
  CHECK(f32.bits == 32);
  CHECK(f32.lanes == 1);
  CHECK(DLDataTypeToString(f32) == "float32");
  CHECK(DLDataTypeToString(DLDataType{kDLInt, 8, 4}) == "int8x4");
  CHECK(ErrorOf([] { StringToDLDataType("floaty"); }).find("floaty") != std::string::npos);
  CHECK(DTypeAbbrev(f32) == "f32");
  CHECK(DTypeAbbrev(DLDataType{kDLBfloat, 16, 1}) == "bf16");
  CHECK(DTypeAbbrev(DLDataType{kDLUInt, 8, 4}) == "u8x4");
  CHECK(DTypeAbbrev(DLDataType{kDLBool, 8, 1}) == "bool");
  CHECK(DTypeAbbrev(DLDataType{kDLFloat8_e4m3fn, 8, 1}) == "f8_e4m3fn");
  CHECK(DTypeAbbrev(DLDataType{kDLOpaqueHandle, 0, 0}) == "void");
  CHECK(DTypeAbbrev(DLDataType{kDLFloat, 32, static_cast<uint16_t>(-4)}) == "f32xvscalex4");
  CHECK(ErrorOf([] { DTypeAbbrev(DLDataType{kDLComplex, 64, 1}); }) ==
        "ValueError: DLDataType contains unknown type_code=5");
  CHECK(std::string(detail::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(130))) == "custom");
  CHECK(DTypeIsFloat(DLDataType{kDLFloat4_e2m1fn, 4, 1}));
  CHECK_FALSE(DTypeIsFloat(DLDataType{kDLInt, 32, 1}));
  CHECK(DTypeIsInt(DLDataType{kDLUInt, 1, 1}));
  CHECK(f32 == DLDataType{kDLFloat, 32, 1});
  CHECK(f32 != DLDataType{kDLFloat, 64, 1});

  Any dtype_any = f32;
  CHECK(dtype_any.type_index() == kTVMFFIDataType);
  CHECK(Any("int16").cast<DLDataType>() == DLDataType{kDLInt, 16, 1});
  CHECK_FALSE(Any(3).try_cast<DLDataType>().has_value());

  Any device_any = DLDevice{kDLCUDA, 2};
  CHECK(device_any.type_index() == kTVMFFIDevice);
  CHECK(device_any.cast<DLDevice>().device_id == 2);
  DLDevice parsed = Any("cuda:3").cast<DLDevice>();
  CHECK(parsed.device_type == kDLCUDA);
  CHECK(parsed.device_id == 3);
  CHECK(Any("mps").cast<DLDevice>().device_type == kDLMetal);
  CHECK(Any("cpu extra words").cast<DLDevice>().device_type == kDLCPU);
  CHECK_FALSE(Any("cuda:").try_cast<DLDevice>().has_value());
  CHECK_FALSE(Any("cuda:1:2").try_cast<DLDevice>().has_value());
  CHECK_FALSE(Any("tpu").try_cast<DLDevice>().has_value());
  CHECK_FALSE(Any("cuda:99999999999").try_cast<DLDevice>().has_value());
}

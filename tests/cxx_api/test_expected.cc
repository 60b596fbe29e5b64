// expected.h: Expected, Unexpected, the RET_CHECK macros, and
// Function::CallExpected.
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <string>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

Expected<int> Half(int x) {
  TVM_FFI_RET_CHECK(x % 2 == 0, ValueError) << "odd " << x;
  TVM_FFI_RET_ICHECK_GE(x, 0) << "negative";
  return x / 2;
}

Expected<void> MustBePositive(int x) {
  if (x <= 0) return TVM_FFI_UNEXPECTED(ValueError) << "got " << x;
  return Expected<void>();
}

}  // namespace

TEST_CASE("expected: values, errors and their access", "[expected]") {
  STATIC_REQUIRE(sizeof(Expected<int>) == sizeof(TVMFFIAny));
  Expected<int> ok = Half(8);
  CHECK(ok.is_ok());
  CHECK(ok.has_value());
  CHECK(ok.value() == 4);
  CHECK(ok.value_or(-1) == 4);
  CHECK(ok.type_index() == kTVMFFIInt);
  CHECK(ErrorOf([&] { ok.error(); }) ==
        "RuntimeError: Bad expected access: contains value, not error");

  Expected<int> odd = Half(3);
  CHECK(odd.is_err());
  CHECK(odd.value_or(-1) == -1);
  CHECK(odd.error().kind() == "ValueError");
  CHECK(odd.error().message() == "Check failed: (x % 2 == 0) is false: odd 3");
  CHECK(odd.error().backtrace().find("test_expected.cc") != std::string::npos);
  CHECK(ErrorOf([&] { odd.value(); }) == "ValueError: Check failed: (x % 2 == 0) is false: odd 3");
  CHECK(Half(-2).error().message() == "Check failed: x >= 0 (-2 vs. 0) : negative");

  CHECK(MustBePositive(1).is_ok());
  CHECK(ErrorOf([] { MustBePositive(0).value(); }) == "ValueError: got 0");

  Expected<String> str = String("value");
  CHECK(str.value() == "value");
  Expected<String> failed = Unexpected(Error("KeyError", "k", ""));
  CHECK(failed.error().kind() == "KeyError");
}

TEST_CASE("expected: conversions between Expected and Any", "[expected]") {
  Expected<int> four = 4;
  Expected<Any> any = four;
  CHECK(any.value().cast<int>() == 4);
  CHECK(any.as_or_error<int>().value() == 4);
  Expected<String> not_str = any.as_or_error<String>();
  CHECK(not_str.error().message() == "Cannot treat type `int` as type `str`");
  Expected<double> widened = Expected<int>(3);
  CHECK(widened.value() == 3.0);
  Expected<double> passed = Expected<int>(Error("IndexError", "i", ""));
  CHECK(passed.error().kind() == "IndexError");

  Any holds_error = Expected<int>(Error("ValueError", "v", ""));
  CHECK(holds_error.type_index() == kTVMFFIError);
  CHECK(holds_error.cast<Expected<int>>().is_err());
  CHECK(Any(Expected<int>(5)).cast<Expected<int>>().value() == 5);
  CHECK(Any(Expected<void>()) == nullptr);
  CHECK(TypeTraits<Expected<int>>::TypeStr() == "Expected<int>");
  CHECK(TypeTraits<Expected<int>>::TypeSchema() ==
        R"({"type":"Expected","args":[{"type":"int"},{"type":"ffi.Error"}]})");
}

TEST_CASE("expected: CallExpected does not throw", "[expected]") {
  Function twice = Function::FromTyped([](int x) { return 2 * x; });
  CHECK(twice.CallExpected<int>(4).value() == 8);
  CHECK(twice.CallExpected(4).value().cast<int>() == 8);
  Expected<String> mismatch = twice.CallExpected<String>(4);
  CHECK(mismatch.error().message() ==
        "CallExpected: result type mismatch, expected str, but got int");
  Expected<int> raised = twice.CallExpected<int>("x");
  CHECK(raised.error().kind() == "TypeError");
  Function nothing = Function::FromTyped([]() {});
  CHECK(nothing.CallExpected<void>().is_ok());
  CHECK(twice.CallExpected<void>(1).error().message() ==
        "CallExpected: result type mismatch, expected void, but got int");
  Function returns_error = Function::FromTyped([]() { return Error("ValueError", "as value", ""); });
  CHECK(returns_error.CallExpected<int>().error().message() == "as value");
}

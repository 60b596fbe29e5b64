// Functions: C and C++ functions, typed argument conversion, the global registry.
#include <catch2/catch.hpp>

#include <atomic>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

int AddSafeCall(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n != 2) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add takes 2 arguments");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 + args[1].v_int64 + (self ? *static_cast<int*>(self) : 0);
  return 0;
}

int PlainAdd(void*, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return AddSafeCall(nullptr, args, n, result);
}

void* g_seen_handle = nullptr;
int RecordHandle(void* handle, const TVMFFIAny*, int32_t, TVMFFIAny*) {
  g_seen_handle = handle;
  return 0;
}

int g_deleted = 0;
void CountDelete(void* self) {
  CHECK(*static_cast<int*>(self) == 100);
  ++g_deleted;
}

}  // namespace

TEST_CASE("Function: a C function with a closure and a deleter", "[function]") {
  static int offset = 100;
  g_deleted = 0;
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(&offset, &AddSafeCall, &CountDelete, &f) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(f) == kTVMFFIFunction);
  CHECK(TVMFFIFunctionGetCellPtr(f)->cpp_call == nullptr);
  TVMFFIAny args[2] = {};
  args[0].type_index = kTVMFFIInt;
  args[0].v_int64 = 1;
  args[1].type_index = kTVMFFIInt;
  args[1].v_int64 = 2;
  TVMFFIAny result = {};
  REQUIRE(TVMFFIFunctionCall(f, args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt);
  CHECK(result.v_int64 == 103);
  CHECK(Raised(TVMFFIFunctionCall(f, args, 1, &result)) == "TypeError: add takes 2 arguments");
  CHECK(g_deleted == 0);
  TVMFFIObjectDecRef(f);
  CHECK(g_deleted == 1);
}

TEST_CASE("Function: without self and deleter the safe-call gets the function handle",
          "[function]") {
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &RecordHandle, nullptr, &f) == 0);
  CHECK(TVMFFIFunctionGetCellPtr(f)->safe_call == &RecordHandle);
  TVMFFIAny result = {};
  REQUIRE(TVMFFIFunctionCall(f, nullptr, 0, &result) == 0);
  CHECK(g_seen_handle == f);
  TVMFFIObjectDecRef(f);
}

TEST_CASE("Function: bad arguments to the C API are errors, not crashes", "[function]") {
  TVMFFIObjectHandle f = nullptr;
  CHECK(Raised(TVMFFIFunctionCreate(nullptr, nullptr, nullptr, &f)) ==
        "ValueError: TVMFFIFunctionCreate: safe_call must not be NULL");
  TVMFFIAny result = {};
  CHECK(Raised(TVMFFIFunctionCall(nullptr, nullptr, 0, &result)) ==
        "ValueError: TVMFFIFunctionCall: func must not be NULL");
  TVMFFIAny s = {};
  TVMFFIByteArray text = {"a string long enough", 20};
  REQUIRE(TVMFFIStringFromByteArray(&text, &s) == 0);
  CHECK(Raised(TVMFFIFunctionCall(s.v_obj, nullptr, 0, &result)) ==
        "TypeError: TVMFFIFunctionCall: the callee is str, not ffi.Function");
  TVMFFIObjectDecRef(s.v_obj);
}

TEST_CASE("Function: typed C++ functions convert arguments and results", "[function]") {
  Function f = Function::FromTyped(
      [](int64_t a, double b, const std::string& s, bool flag) {
        return std::to_string(a) + "/" + std::to_string(static_cast<int>(b)) + "/" + s +
               (flag ? "!" : "?");
      },
      "demo");
  Any r = f(7, 2.5, "hey", true);
  CHECK(r.cast<std::string>() == "7/2/hey!");
  // A float parameter accepts an int; an int parameter refuses a float.
  CHECK(f(1, 3, "x", false).cast<std::string>() == "1/3/x?");
  CHECK(ThrownBy([&] { f(1.5, 2.0, "x", true); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `demo(0: int, 1: float, 2: "
        "std::string, 3: bool) -> std::string`. Expected `int` but got `float`");
  CHECK(ThrownBy([&] { f(1, 2.0, 3, true); }) ==
        "TypeError: Mismatched type on argument #2 when calling: `demo(0: int, 1: float, 2: "
        "std::string, 3: bool) -> std::string`. Expected `std::string` but got `int`");
  CHECK(ThrownBy([&] { f(1, 2.0); }) ==
        "TypeError: Mismatched number of arguments when calling: `demo(0: int, 1: float, 2: "
        "std::string, 3: bool) -> std::string`. Expected 4 but got 2 arguments");
}

TEST_CASE("Function: an unnamed typed function reports the bare argument", "[function]") {
  Function f = Function::FromTyped([](int64_t x) { return x * 2; });
  CHECK(f(21).cast<int64_t>() == 42);
  CHECK(ThrownBy([&] { f("no"); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `(0: int) -> int`. Expected "
        "`int` but got `const char*`");
  CHECK(ThrownBy([&] { f(); }) ==
        "TypeError: Mismatched number of arguments when calling: `(0: int) -> int`. Expected 1 "
        "but got 0 arguments");
}

TEST_CASE("Function: exceptions inside become errors at the boundary", "[function]") {
  Function raise_value = Function::FromTyped([]() -> int {
    TVM_FFI_THROW(ValueError) << "bad " << 3;
    TVM_FFI_UNREACHABLE();
  });
  Function raise_std = Function::FromTyped([]() -> int { throw std::runtime_error("std failure"); });
  TVMFFIAny result = {};
  CHECK(Raised(TVMFFIFunctionCall(HandleOf(raise_value), nullptr, 0, &result)) ==
        "ValueError: bad 3");
  CHECK(Raised(TVMFFIFunctionCall(HandleOf(raise_std), nullptr, 0, &result)) ==
        "InternalError: std failure");
  CHECK(result.type_index == kTVMFFINone);
}

TEST_CASE("Function: the global registry", "[function]") {
  Function f = Function::FromTyped([](int64_t x) { return x + 1; });
  Function::SetGlobal("test_function.inc", f);
  CHECK(f.use_count() == 2);
  std::optional<Function> got = Function::GetGlobal("test_function.inc");
  REQUIRE(got.has_value());
  CHECK(got->same_as(f));
  CHECK((*got)(41).cast<int64_t>() == 42);
  CHECK_FALSE(Function::GetGlobal("test_function.missing").has_value());

  CHECK(ThrownBy([&] { Function::SetGlobal("test_function.inc", f); }) ==
        "RuntimeError: global function `test_function.inc` is already registered; pass "
        "allow_override to replace it");
  Function g = Function::FromTyped([](int64_t x) { return x + 2; });
  Function::SetGlobal("test_function.inc", g, /*allow_override=*/true);
  CHECK(Function::GetGlobalRequired("test_function.inc")(40).cast<int64_t>() == 42);
  got.reset();
  CHECK(f.use_count() == 1);

  Function remove = Function::GetGlobalRequired("ffi.FunctionRemoveGlobal");
  CHECK(remove("test_function.inc").cast<bool>() == true);
  CHECK(remove("test_function.inc").cast<bool>() == false);
  CHECK(g.use_count() == 1);
  CHECK(ThrownBy([&] { Function::GetGlobalRequired("test_function.inc"); }) ==
        "ValueError: Function test_function.inc not found");
}

TEST_CASE("Function: C registration through TVMFFIFunctionSetGlobal", "[function]") {
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &RecordHandle, nullptr, &f) == 0);
  TVMFFIByteArray name = {"test_function.c_global", 22};
  REQUIRE(TVMFFIFunctionSetGlobal(&name, f, 0) == 0);
  CHECK(Raised(TVMFFIFunctionSetGlobal(&name, f, 0)) ==
        "RuntimeError: global function `test_function.c_global` is already registered; pass "
        "allow_override to replace it");
  REQUIRE(TVMFFIFunctionSetGlobal(&name, f, 1) == 0);
  TVMFFIObjectHandle found = nullptr;
  REQUIRE(TVMFFIFunctionGetGlobal(&name, &found) == 0);
  CHECK(found == f);
  TVMFFIObjectDecRef(found);
  Function::GetGlobalRequired("ffi.FunctionRemoveGlobal")("test_function.c_global");
  TVMFFIObjectDecRef(f);

  TVMFFIByteArray missing = {"test_function.none", 18};
  found = &found;
  REQUIRE(TVMFFIFunctionGetGlobal(&missing, &found) == 0);
  CHECK(found == nullptr);

  TVMFFIAny text = {};
  TVMFFIByteArray long_text = {"definitely not a function", 25};
  REQUIRE(TVMFFIStringFromByteArray(&long_text, &text) == 0);
  CHECK(Raised(TVMFFIFunctionSetGlobal(&name, text.v_obj, 0)) ==
        "TypeError: global `test_function.c_global` must be an ffi.Function, got str");
  TVMFFIObjectDecRef(text.v_obj);
}

TEST_CASE("Function: metadata and the list of global names", "[function]") {
  Function f = Function::FromTyped([]() { return 1; });
  SetGlobalWithInfo("test_function.meta", f, false, "doc text", "{\"arity\": 0}");
  Function meta = Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata");
  CHECK(meta("test_function.meta").cast<std::string>() == "{\"arity\": 0}");
  CHECK(ThrownBy([&] { meta("test_function.nope"); }) ==
        "KeyError: global function `test_function.nope` is not registered");

  Function list = Function::GetGlobalRequired("ffi.FunctionListGlobalNamesFunctor")()
                      .cast<Function>();
  int64_t count = list(-1).cast<int64_t>();
  bool found = false;
  for (int64_t i = 0; i < count; ++i) {
    if (list(i).cast<std::string>() == "test_function.meta") found = true;
  }
  CHECK(found);
  CHECK(ThrownBy([&] { list(count); }).rfind("IndexError: index " + std::to_string(count), 0) ==
        0);
  Function::GetGlobalRequired("ffi.FunctionRemoveGlobal")("test_function.meta");
}

TEST_CASE("Function: concurrent lookups and registrations", "[function]") {
  // Catch2 assertions are not thread-safe: the threads count, the main thread checks.
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 200; ++i) {
        std::string name = "test_function.thread" + std::to_string(t) + "_" + std::to_string(i);
        Function::SetGlobal(name, Function::FromTyped([i]() { return i; }));
        if (Function::GetGlobalRequired(name)().cast<int>() != i) ++failures;
        if (!Function::GetGlobalRequired("ffi.FunctionRemoveGlobal")(name).cast<bool>()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);
}

TEST_CASE("Function: a C++ function calls a C function through the ABI", "[function]") {
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIFunctionCreate(nullptr, &PlainAdd, nullptr, &h) == 0);
  Function c_add = RefOf<Function>(AdoptHandle(h));
  CHECK(c_add(20, 22).cast<int64_t>() == 42);
  CHECK(ThrownBy([&] { c_add(1); }) == "TypeError: add takes 2 arguments");
}

TEST_CASE("Function: C++ calls check the callee as TVMFFIFunctionCall does", "[function]") {
  // tvm::ffi::Function calls its callee's C++ entry directly (as upstream's
  // does); the checks are TVMFFIFunctionCall's, reached through the C API.
  TVMFFIAny out{};
  CHECK(Raised(TVMFFIFunctionCall(nullptr, nullptr, 0, &out)) ==
        "ValueError: TVMFFIFunctionCall: func must not be NULL");
  String text("a string long enough");
  CHECK(Raised(TVMFFIFunctionCall(HandleOf(text), nullptr, 0, &out)) ==
        "TypeError: TVMFFIFunctionCall: the callee is str, not ffi.Function");
}

TEST_CASE("Function: a typed function writes its result into the caller's slot", "[function]") {
  // Results are complete values (padding word zero) and owned by the caller.
  String text("a result long enough for the heap");
  Function get_int = Function::FromTyped([]() { return int64_t(-7); });
  Function get_str = Function::FromTyped([text]() { return text; });
  Function get_any = Function::FromTyped([text]() { return Any(text); });
  // (a typed function cannot return an AnyView in tvm::ffi: a packed one sets it)
  Function get_view = Function::FromPacked(
      [](const AnyView*, int32_t, Any* rv) { *rv = AnyView("borrowed chars"); });
  Function get_none = Function::FromTyped([]() {});
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  REQUIRE(TVMFFIFunctionCall(HandleOf(get_int), nullptr, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt);
  CHECK(result.zero_padding == 0);
  CHECK(result.v_int64 == -7);

  std::memset(&result, 0, sizeof(result));
  CHECK(UseCountOf(text) == 3);  // `text` and the two closures
  REQUIRE(TVMFFIFunctionCall(HandleOf(get_str), nullptr, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFIStr);
  CHECK(result.zero_padding == 0);
  CHECK(result.v_obj == HandleOf(text));
  CHECK(UseCountOf(text) == 4);
  TVMFFIObjectDecRef(result.v_obj);

  std::memset(&result, 0, sizeof(result));
  REQUIRE(TVMFFIFunctionCall(HandleOf(get_any), nullptr, 0, &result) == 0);
  CHECK(result.v_obj == HandleOf(text));
  CHECK(UseCountOf(text) == 4);
  TVMFFIObjectDecRef(result.v_obj);
  CHECK(UseCountOf(text) == 3);

  // A returned view of borrowed chars becomes an owned string.
  Any viewed = get_view();
  CHECK(viewed.type_index() == kTVMFFIStr);
  CHECK(viewed.cast<std::string>() == "borrowed chars");

  std::memset(&result, 0, sizeof(result));
  REQUIRE(TVMFFIFunctionCall(HandleOf(get_none), nullptr, 0, &result) == 0);
  CHECK(result.type_index == kTVMFFINone);
}

TEST_CASE("Function: a packed function that fails after setting its result releases it",
          "[function]") {
  int deleted = 0;
  ObjectRef obj = MakeCounted(&deleted);
  Function f = Function::FromPacked([obj](const AnyView*, int32_t, Any* rv) {
    *rv = Any(obj);
    TVM_FFI_THROW(RuntimeError) << "failed after setting the result";
  });
  CHECK(obj.use_count() == 2);
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  CHECK(Raised(TVMFFIFunctionCall(HandleOf(f), nullptr, 0, &result)) ==
        "RuntimeError: failed after setting the result");
  CHECK(result.type_index == kTVMFFINone);
  CHECK(obj.use_count() == 2);  // the result's reference was dropped
  f = Function();
  CHECK(obj.use_count() == 1);
  obj = ObjectRef();
  CHECK(deleted == 1);
}

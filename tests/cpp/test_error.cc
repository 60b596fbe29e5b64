// Errors: creation, the thread-local slot, backtraces, causes.
#include <dlfcn.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "core/impl/array.h"
#include "core/impl/function.h"
#include "core/impl/string.h"

using namespace tvm::ffi::detail::impl;
using namespace test_util;

namespace {

TVMFFIObjectHandle TakeRaisedHandle() {
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  return h;
}

}  // namespace

TEST_CASE("Error: create copies kind, message and backtrace", "[error]") {
  TVMFFIByteArray kind = ByteArrayOf("ValueError"), msg = ByteArrayOf("bad value 3");
  TVMFFIByteArray bt = ByteArrayOf("  File \"x\", line 1, in f\n");
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &h) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(h) == kTVMFFIError);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(h);
  CHECK(TextOf(cell->kind) == "ValueError");
  CHECK(TextOf(cell->message) == "bad value 3");
  CHECK(TextOf(cell->backtrace) == "  File \"x\", line 1, in f\n");
  CHECK(cell->cause_chain == nullptr);
  CHECK(cell->extra_context == nullptr);
  // TVMFFIErrorCreate never touches the slot.
  CHECK(TakeRaisedHandle() == nullptr);
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: update_backtrace replaces and appends", "[error]") {
  TVMFFIByteArray kind = ByteArrayOf("RuntimeError"), msg = ByteArrayOf("m");
  TVMFFIByteArray bt = ByteArrayOf("inner\n");
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &h) == 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(h);
  TVMFFIByteArray more = ByteArrayOf("outer\n");
  cell->update_backtrace(h, &more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(TextOf(cell->backtrace) == "inner\nouter\n");
  TVMFFIByteArray fresh = ByteArrayOf("only\n");
  cell->update_backtrace(h, &fresh, kTVMFFIBacktraceUpdateModeReplace);
  CHECK(TextOf(cell->backtrace) == "only\n");
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: cause and extra context are owned by the error", "[error]") {
  TVMFFIByteArray kind = ByteArrayOf("KeyError"), msg = ByteArrayOf("inner");
  TVMFFIByteArray empty = ByteArrayOf("");
  TVMFFIObjectHandle cause = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &empty, &cause) == 0);
  ObjectPtr<PlainObject> context = MakeObject<PlainObject>();
  TVMFFIByteArray kind2 = ByteArrayOf("RuntimeError"), msg2 = ByteArrayOf("outer");
  TVMFFIObjectHandle err = nullptr;
  REQUIRE(TVMFFIErrorCreateWithCauseAndExtraContext(&kind2, &msg2, &empty, cause,
                                                    context->handle(), &err) == 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  CHECK(cell->cause_chain == cause);
  CHECK(cell->extra_context == context->handle());
  CHECK(context.use_count() == 2);
  CHECK(Object::FromHandle(cause)->use_count() == 2);
  TVMFFIObjectDecRef(err);
  CHECK(context.use_count() == 1);
  CHECK(Object::FromHandle(cause)->use_count() == 1);
  TVMFFIObjectDecRef(cause);
}

TEST_CASE("Error: the slot holds one error per thread", "[error]") {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "first");
  TVMFFIErrorSetRaisedFromCStr("TypeError", "second");  // replaces and releases the first
  std::thread other([] { CHECK(TakeRaisedHandle() == nullptr); });
  other.join();
  TVMFFIObjectHandle h = TakeRaisedHandle();
  REQUIRE(h != nullptr);
  CHECK(TextOf(TVMFFIErrorGetCellPtr(h)->kind) == "TypeError");
  CHECK(TextOf(TVMFFIErrorGetCellPtr(h)->message) == "second");
  CHECK(Object::FromHandle(h)->use_count() == 1);
  CHECK(TakeRaisedHandle() == nullptr);

  // SetRaised borrows: the caller keeps its reference.
  TVMFFIErrorSetRaised(h);
  CHECK(Object::FromHandle(h)->use_count() == 2);
  TVMFFIObjectHandle again = TakeRaisedHandle();
  CHECK(again == h);
  TVMFFIObjectDecRef(again);
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: message parts skip NULL entries", "[error]") {
  const char* parts[] = {"argument ", nullptr, "3", " is bad"};
  TVMFFIErrorSetRaisedFromCStrParts("IndexError", parts, 4);
  TVMFFIObjectHandle h = TakeRaisedHandle();
  REQUIRE(h != nullptr);
  CHECK(TextOf(TVMFFIErrorGetCellPtr(h)->message) == "argument 3 is bad");
  CHECK(TextOf(TVMFFIErrorGetCellPtr(h)->kind) == "IndexError");
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: backtraces name the frames, most recent first", "[error]") {
  const TVMFFIByteArray* bt = TVMFFIBacktrace("my_file.cc", 42, "MyFunction", 0);
  REQUIRE(bt != nullptr);
  std::string text = TextOf(*bt);
  CHECK(text.rfind("  File \"my_file.cc\", line 42, in MyFunction\n", 0) == 0);
  // The frames below are real: this test function's runner is among them.
  CHECK(text.find("Catch") != std::string::npos);
}

TEST_CASE("Error: a C++ throw through a Function keeps kind, message and backtrace",
          "[error]") {
  Function f = Function::FromTyped([](int64_t x) -> int64_t {
    if (x < 0) TVM_FFI_IMPL_THROW(ValueError) << "negative input " << x;
    return x;
  });
  try {
    f(-5);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.kind() == "ValueError");
    CHECK(e.message() == "negative input -5");
    CHECK(std::string(e.what()) == "ValueError: negative input -5");
    CHECK(e.backtrace().find("File \"") != std::string::npos);
    CHECK(e.object().use_count() == 1);
  }
}

TEST_CASE("Error: a C++ error raised from another keeps it as its cause", "[error]") {
  Function f = Function::FromTyped([]() -> int {
    try {
      TVM_FFI_IMPL_THROW(KeyError) << "key `k` not found";
    } catch (const Error& inner) {
      throw Error("RuntimeError", "lookup failed", inner);
    }
  });
  try {
    f();
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "RuntimeError: lookup failed");
    std::optional<Error> cause = e.cause();
    REQUIRE(cause.has_value());
    CHECK(std::string(cause->what()) == "KeyError: key `k` not found");
    CHECK_FALSE(cause->cause().has_value());
    // The outer error and the local `cause` hold the inner one.
    CHECK(cause->object().use_count() == 2);
  }
}

// ---------------------------------------------------------------------------
// Backtraces: format, machinery left out, the frame cache, layers.

namespace {

// Every line is `  File "<file>", line <n>, in <function>`.
bool AllLinesWellFormed(const std::string& text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) return false;  // every line ends with \n
    std::string line = text.substr(pos, nl - pos);
    size_t q = line.find("\", line ");
    if (line.rfind("  File \"", 0) != 0 || q == std::string::npos) return false;
    size_t num = q + 8, in = line.find(", in ", num);
    if (in == std::string::npos || in == num) return false;
    for (size_t i = num; i < in; ++i) {
      if (line[i] < '0' || line[i] > '9') return false;
    }
    pos = nl + 1;
  }
  return true;
}

std::vector<int64_t> CacheStats() {
  Any s = Function::GetGlobalRequired("ffi.BacktraceCacheStats")();
  Array<int64_t> a = s.As<Array<int64_t>>();
  return {a[0], a[1], a[2]};
}

__attribute__((noinline)) void RaiseFromOnePlace() {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "same place");
}

__attribute__((noinline)) std::string CallerSegmentOfCallee() {
  Function f = Function::FromPacked([](const AnyView*, int32_t, Any* rv) {
    const TVMFFIByteArray* bt = TVMFFIBacktrace(nullptr, 0, nullptr, 2);
    *rv = Any(String(std::string(bt->data, bt->size)));
  });
  // Through TVMFFIFunctionCall, as a C caller would (Function::operator()
  // enters the callee directly, with no boundary frame in between).
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  out.zero_padding = 0;
  out.v_int64 = 0;
  REQUIRE(TVMFFIFunctionCall(f.handle(), nullptr, 0, &out) == 0);
  Any rv = Any::Adopt(out);
  return rv.As<String>().operator std::string();
}

}  // namespace

TEST_CASE("Backtrace: lines follow the text format and leave out the raise machinery",
          "[error]") {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "x");
  TVMFFIObjectHandle h = TakeRaisedHandle();
  REQUIRE(h != nullptr);
  std::string bt = TextOf(TVMFFIErrorGetCellPtr(h)->backtrace);
  CHECK(AllLinesWellFormed(bt));
  // The innermost frame is this test, not the slot setter or the capture.
  CHECK(bt.find("TVMFFIErrorSetRaised") == std::string::npos);
  CHECK(bt.find("CaptureBacktrace") == std::string::npos);
  CHECK(bt.find("SetRaisedWithBacktrace") == std::string::npos);
  CHECK(bt.rfind("  File \"", 0) == 0);
  CHECK(bt.substr(0, bt.find('\n')).find("C_A_T_C_H") != std::string::npos);
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Backtrace: a second raise from the same place is served by the cache", "[error]") {
  Function::GetGlobalRequired("ffi.BacktraceCacheClear")();
  CHECK(CacheStats() == std::vector<int64_t>{0, 0, 0});
  std::vector<int64_t> after[2];
  for (int i = 0; i < 2; ++i) {  // one call site: the same frames twice
    RaiseFromOnePlace();
    TVMFFIObjectDecRef(TakeRaisedHandle());
    after[i] = CacheStats();
  }
  CHECK(after[0][0] == 0);
  CHECK(after[0][1] > 2);  // every frame of the walk named once
  CHECK(after[0][2] == after[0][1]);
  // The second walk: all hits, nothing new named.
  CHECK(after[1] == std::vector<int64_t>{after[0][1], after[0][1], after[0][2]});
}

TEST_CASE("Backtrace: any library unloaded (not only through ffi.Module) drops the cache",
          "[error]") {
  Function::GetGlobalRequired("ffi.BacktraceCacheClear")();
  std::vector<int64_t> after[3];
  for (int i = 0; i < 3; ++i) {  // one call site: the same frames each time
    if (i == 1) {
      // A plain dlopen/dlclose by someone else: the loader's unload count moves.
      void* lib = dlopen(TVM_FFI_TEST_MODULE_COMPOSITE, RTLD_NOW | RTLD_LOCAL);
      REQUIRE(lib != nullptr);
      REQUIRE(dlclose(lib) == 0);
    }
    RaiseFromOnePlace();
    TVMFFIObjectDecRef(TakeRaisedHandle());
    after[i] = CacheStats();
  }
  int64_t n = after[0][1];
  REQUIRE(n > 2);
  CHECK(after[0] == std::vector<int64_t>{0, n, n});
  // After the unload every frame is named afresh: no hits.
  CHECK(after[1] == std::vector<int64_t>{0, n, n});
  // With nothing unloaded since, the next raise is all hits.
  CHECK(after[2] == std::vector<int64_t>{n, n, n});
}

TEST_CASE("Backtrace: mode 2 gives the native caller of a callee, from inside it", "[error]") {
  std::string bt = CallerSegmentOfCallee();
  CHECK(AllLinesWellFormed(bt));
  // The frames that called TVMFFIFunctionCall (this file's helper), none of
  // the callee's (a lambda inside the helper).
  INFO(bt);
  CHECK(bt.find("CallerSegmentOfCallee") != std::string::npos);
  CHECK(bt.find("{lambda") == std::string::npos);
}

TEST_CASE("Backtrace: an error crossing a C++ layer gains that layer's frames once", "[error]") {
  Function inner = Function::FromTyped([]() -> int { TVM_FFI_IMPL_THROW(IndexError) << "deep"; });
  // outer calls inner through the C ABI, as a layer built by another
  // library would: TVMFFIFunctionCall is the boundary inner's capture stops at.
  Function outer = Function::FromTyped([inner]() -> int {
    TVMFFIAny out;
    out.type_index = kTVMFFINone;
    out.zero_padding = 0;
    out.v_int64 = 0;
    int rc = TVMFFIFunctionCall(inner.handle(), nullptr, 0, &out);
    if (rc != 0) ThrowRaised(rc);
    return 0;
  });
  std::string inner_bt, outer_bt;
  {
    TVMFFIAny out;
    out.type_index = kTVMFFINone;
    out.zero_padding = 0;
    out.v_int64 = 0;
    REQUIRE(TVMFFIFunctionCall(inner.handle(), nullptr, 0, &out) != 0);
    TVMFFIObjectHandle h = TakeRaisedHandle();
    inner_bt = TextOf(TVMFFIErrorGetCellPtr(h)->backtrace);
    TVMFFIObjectDecRef(h);
  }
  try {
    outer();
  } catch (const Error& e) {
    CHECK(e.kind() == "IndexError");
    outer_bt = e.backtrace();
  }
  CHECK(AllLinesWellFormed(outer_bt));
  // With debug information and no optimisation the typed-call wrappers
  // around the lambda (real frames whose demangled names start with a return
  // type) are left out.  Optimised, they are inlined frames that DWARF names
  // without their namespace, and stay.
#ifndef __OPTIMIZE__
  if (inner_bt.find("test_error.cc") != std::string::npos) {
    INFO(inner_bt);
    CHECK(inner_bt.find("TypedFunctionObj") == std::string::npos);
    CHECK(inner_bt.find("CallTyped") == std::string::npos);
    CHECK(inner_bt.find("{lambda") != std::string::npos);
  }
#endif
  // inner's capture stops at its FFI call; outer adds the frames above it.
  size_t inner_lines = std::count(inner_bt.begin(), inner_bt.end(), '\n');
  size_t outer_lines = std::count(outer_bt.begin(), outer_bt.end(), '\n');
  CHECK(outer_lines > inner_lines);
  // Appending again (as a second ThrowRaised would) is recognised and skipped.
  TVMFFIByteArray whole = {outer_bt.data(), outer_bt.size()};
  TVMFFIByteArray tail = {outer_bt.data() + outer_bt.find('\n') + 1,
                          outer_bt.size() - outer_bt.find('\n') - 1};
  CHECK(detail::EndsWithSameFunctions(whole, tail));
  TVMFFIByteArray other = ByteArrayOf("  File \"x\", line 3, in nowhere\n");
  CHECK_FALSE(detail::EndsWithSameFunctions(whole, other));
}

namespace {

// An operand whose formatting throws.
struct Unprintable {};
std::ostream& operator<<(std::ostream&, const Unprintable&) {
  throw std::runtime_error("cannot print an Unprintable");
}
std::string Refuse() { TVM_FFI_IMPL_THROW(KeyError) << "no text for you"; }

}  // namespace

TEST_CASE("Error: an operand that throws while the message is built propagates", "[error]") {
  // This used to throw from the builder's destructor during unwinding:
  // std::terminate.
  std::string what;
  try {
    TVM_FFI_IMPL_THROW(ValueError) << "bad value " << Unprintable();
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  CHECK(what == "cannot print an Unprintable");
  // An operand whose evaluation raises an Error: that error, not the outer one.
  CHECK(ThrownBy([] { TVM_FFI_IMPL_THROW(ValueError) << "outer " << Refuse(); }) ==
        "KeyError: no text for you");
  // Through the C ABI: the inner error comes back as the call's error.
  Function f = Function::FromTyped([](int64_t x) -> int64_t {
    TVM_FFI_IMPL_THROW(ValueError) << "x=" << x << Unprintable();
  });
  TVMFFIAny arg, result;
  std::memset(&arg, 0, sizeof(arg));
  std::memset(&result, 0, sizeof(result));
  arg.type_index = kTVMFFIInt;
  arg.v_int64 = 5;
  CHECK(Raised(TVMFFIFunctionCall(f.handle(), &arg, 1, &result)) ==
        "InternalError: cannot print an Unprintable");
}

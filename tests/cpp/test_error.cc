// Errors: creation, the thread-local slot, backtraces, causes.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <thread>

#include "test_util.h"
#include <tvmffi/function.h>

using namespace tvmffi::core;
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
    if (x < 0) TVMFFI_THROW(ValueError) << "negative input " << x;
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
      TVMFFI_THROW(KeyError) << "key `k` not found";
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

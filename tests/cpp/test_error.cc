// Errors: creation, the thread-local slot, backtraces, causes.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <thread>

#include "core/function.h"

using namespace tvmffi::core;

namespace {

TVMFFIByteArray B(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

std::string Text(const TVMFFIByteArray& b) { return std::string(b.data, b.size); }

TVMFFIObjectHandle TakeRaised() {
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  return h;
}

}  // namespace

TEST_CASE("Error: create copies kind, message and backtrace", "[error]") {
  TVMFFIByteArray kind = B("ValueError"), msg = B("bad value 3"), bt = B("  File \"x\", line 1, in f\n");
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &h) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(h) == kTVMFFIError);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(h);
  CHECK(Text(cell->kind) == "ValueError");
  CHECK(Text(cell->message) == "bad value 3");
  CHECK(Text(cell->backtrace) == "  File \"x\", line 1, in f\n");
  CHECK(cell->cause_chain == nullptr);
  CHECK(cell->extra_context == nullptr);
  // TVMFFIErrorCreate never touches the slot.
  CHECK(TakeRaised() == nullptr);
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: update_backtrace replaces and appends", "[error]") {
  TVMFFIByteArray kind = B("RuntimeError"), msg = B("m"), bt = B("inner\n");
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &bt, &h) == 0);
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(h);
  TVMFFIByteArray more = B("outer\n");
  cell->update_backtrace(h, &more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(Text(cell->backtrace) == "inner\nouter\n");
  TVMFFIByteArray fresh = B("only\n");
  cell->update_backtrace(h, &fresh, kTVMFFIBacktraceUpdateModeReplace);
  CHECK(Text(cell->backtrace) == "only\n");
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: cause and extra context are owned by the error", "[error]") {
  TVMFFIByteArray kind = B("KeyError"), msg = B("inner"), empty = B("");
  TVMFFIObjectHandle cause = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &msg, &empty, &cause) == 0);
  ObjectPtr<PlainObject> context = MakeObject<PlainObject>();
  TVMFFIByteArray kind2 = B("RuntimeError"), msg2 = B("outer");
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
  std::thread other([] { CHECK(TakeRaised() == nullptr); });
  other.join();
  TVMFFIObjectHandle h = TakeRaised();
  REQUIRE(h != nullptr);
  CHECK(Text(TVMFFIErrorGetCellPtr(h)->kind) == "TypeError");
  CHECK(Text(TVMFFIErrorGetCellPtr(h)->message) == "second");
  CHECK(Object::FromHandle(h)->use_count() == 1);
  CHECK(TakeRaised() == nullptr);

  // SetRaised borrows: the caller keeps its reference.
  TVMFFIErrorSetRaised(h);
  CHECK(Object::FromHandle(h)->use_count() == 2);
  TVMFFIObjectHandle again = TakeRaised();
  CHECK(again == h);
  TVMFFIObjectDecRef(again);
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: message parts skip NULL entries", "[error]") {
  const char* parts[] = {"argument ", nullptr, "3", " is bad"};
  TVMFFIErrorSetRaisedFromCStrParts("IndexError", parts, 4);
  TVMFFIObjectHandle h = TakeRaised();
  REQUIRE(h != nullptr);
  CHECK(Text(TVMFFIErrorGetCellPtr(h)->message) == "argument 3 is bad");
  CHECK(Text(TVMFFIErrorGetCellPtr(h)->kind) == "IndexError");
  TVMFFIObjectDecRef(h);
}

TEST_CASE("Error: backtraces name the frames, most recent first", "[error]") {
  const TVMFFIByteArray* bt = TVMFFIBacktrace("my_file.cc", 42, "MyFunction", 0);
  REQUIRE(bt != nullptr);
  std::string text = Text(*bt);
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

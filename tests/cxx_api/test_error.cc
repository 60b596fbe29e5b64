// error.h: Error and ErrorObj, TVM_FFI_THROW, the check macros, and errors
// through the thread's error slot.
#include <tvm/ffi/error.h>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <string>

using namespace tvm::ffi;

namespace {

// Runs `fn`, which must throw an Error; returns it.
template <typename F>
Error Caught(F fn) {
  try {
    fn();
  } catch (const Error& err) {
    return err;
  }
  FAIL("no tvm::ffi::Error was thrown");
  return Error("Unreachable", "", "");
}

TVMFFIByteArray Bytes(const char* text) { return TVMFFIByteArray{text, std::strlen(text)}; }

}  // namespace

TEST_CASE("error: the class layout is upstream's", "[error]") {
  // { vptr of the std::exception primary base, ObjectRef }.
  STATIC_REQUIRE(sizeof(Error) == 2 * sizeof(void*));
  Error err("ValueError", "m", "");
  const ObjectRef& ref = err;
  const std::exception& exc = err;
  CHECK(reinterpret_cast<const char*>(&ref) - reinterpret_cast<const char*>(&err) ==
        static_cast<ptrdiff_t>(sizeof(void*)));
  CHECK(static_cast<const void*>(&exc) == static_cast<const void*>(&err));
  STATIC_REQUIRE(offsetof(TVMFFIErrorCell, extra_context) == 64);
  CHECK(reinterpret_cast<const char*>(static_cast<const TVMFFIErrorCell*>(err.get())) -
            reinterpret_cast<const char*>(err.get()) ==
        static_cast<ptrdiff_t>(sizeof(TVMFFIObject)));
}

TEST_CASE("error: an Error holds kind, message and backtrace", "[error]") {
  Error err("ValueError", "bad value 3", "  File \"b.cc\", line 2, in g\n  File \"a.cc\", line 1, in f\n");
  CHECK(err.kind() == "ValueError");
  CHECK(err.message() == "bad value 3");
  CHECK(std::string(err.what()) == "bad value 3");
  CHECK(err->type_index() == kTVMFFIError);
  CHECK(err.GetTypeKey() == "ffi.Error");
  CHECK(err.TracebackMostRecentCallLast() ==
        "  File \"a.cc\", line 1, in f\n  File \"b.cc\", line 2, in g\n");
  CHECK(err.FullMessage() ==
        "Traceback (most recent call last):\n"
        "  File \"a.cc\", line 1, in f\n  File \"b.cc\", line 2, in g\n"
        "ValueError: bad value 3\n");
  CHECK_FALSE(err.cause_chain().has_value());
  CHECK_FALSE(err.extra_context().has_value());

  TVMFFIByteArray more = Bytes("  File \"c.cc\", line 3, in h\n");
  err.UpdateBacktrace(&more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(err.backtrace() ==
        "  File \"b.cc\", line 2, in g\n  File \"a.cc\", line 1, in f\n"
        "  File \"c.cc\", line 3, in h\n");
  err.UpdateBacktrace(&more, kTVMFFIBacktraceUpdateModeReplace);
  CHECK(err.backtrace() == "  File \"c.cc\", line 3, in h\n");
  CHECK(Error("K", "m", "").TracebackMostRecentCallLast() == "");
  CHECK(Error("K", "m", "no newline").TracebackMostRecentCallLast() == "no newline\n");
}

TEST_CASE("error: cause chain and extra context are owned", "[error]") {
  Error cause("KeyError", "k", "");
  Error ctx("ValueError", "context object", "");
  Error err("RuntimeError", "outer", "", cause, ctx);
  CHECK(cause.use_count() == 2);
  REQUIRE(err.cause_chain().has_value());
  CHECK(err.cause_chain()->same_as(cause));
  CHECK(err.cause_chain()->message() == "k");
  CHECK(err.extra_context()->same_as(ctx));
  {
    Error gone = err;
  }
  err = Error("X", "", "");
  CHECK(cause.use_count() == 1);
  CHECK(ctx.use_count() == 1);
}

TEST_CASE("error: TVM_FFI_THROW and the check macros", "[error]") {
  Error thrown = Caught([] { TVM_FFI_THROW(TypeError) << "expected int, got " << 2.5; });
  CHECK(thrown.kind() == "TypeError");
  CHECK(thrown.message() == "expected int, got 2.5");
  // The backtrace names this file.
  CHECK(thrown.backtrace().find("test_error.cc") != std::string::npos);

  int three = 3;
  Error check = Caught([&] { TVM_FFI_ICHECK(three == 4) << "detail " << 7; });
  CHECK(check.kind() == "InternalError");
  CHECK(check.message() == "Check failed: (three == 4) is false: detail 7");

  Error lt = Caught([&] { TVM_FFI_ICHECK_LT(three, 2) << "too big"; });
  CHECK(lt.message() == "Check failed: three < 2 (3 vs. 2) : too big");
  Error eq = Caught([&] { TVM_FFI_CHECK_EQ(three, 4, ValueError); });
  CHECK(eq.kind() == "ValueError");
  CHECK(eq.message() == "Check failed: three == 4 (3 vs. 4) : ");
  CHECK(Caught([&] { TVM_FFI_ICHECK_NE(three, 3); }).message() ==
        "Check failed: three != 3 (3 vs. 3) : ");
  CHECK(Caught([&] { TVM_FFI_ICHECK_GE(three, 4); }).message() ==
        "Check failed: three >= 4 (3 vs. 4) : ");
  CHECK(Caught([&] { TVM_FFI_ICHECK_GT(three, 3); }).message() ==
        "Check failed: three > 3 (3 vs. 3) : ");
  CHECK(Caught([&] { TVM_FFI_ICHECK_LE(three, 1); }).message() ==
        "Check failed: three <= 1 (3 vs. 1) : ");

  int* null = nullptr;
  Error nn = Caught([&] { (void)TVM_FFI_ICHECK_NOTNULL(null); });
  CHECK(nn.message() == "Check not null: null ");
  CHECK(TVM_FFI_ICHECK_NOTNULL(&three) == &three);

  // Passing checks do not throw and do not evaluate the message.
  int evaluated = 0;
  TVM_FFI_ICHECK(three == 3) << ++evaluated;
  TVM_FFI_ICHECK_EQ(three, 3) << ++evaluated;
  CHECK(evaluated == 0);
}

TEST_CASE("error: a check is one statement inside an unbraced if/else", "[error]") {
  int taken = 0;
  bool outer = false;
  if (outer)
    TVM_FFI_ICHECK(false) << "never";
  else
    taken = 1;
  CHECK(taken == 1);
  if (outer)
    TVM_FFI_ICHECK_EQ(1, 2);
  else
    taken = 2;
  CHECK(taken == 2);
}

TEST_CASE("error: an Error crosses the C slot in both directions", "[error]") {
  Error err("IndexError", "index 9 out of range", "  File \"x.cc\", line 1, in f\n");
  detail::SetSafeCallRaised(err);
  CHECK(err.use_count() == 2);  // the slot holds a reference
  Error back = detail::MoveFromSafeCallRaised();
  CHECK(back.same_as(err));
  CHECK(err.use_count() == 2);

  // An error made by the runtime, seen through the C++ class.
  TVMFFIByteArray kind = Bytes("AttributeError");
  TVMFFIByteArray message = Bytes("no attribute 'x'");
  TVMFFIByteArray trace = Bytes("");
  TVMFFIObjectHandle handle = nullptr;
  REQUIRE(TVMFFIErrorCreate(&kind, &message, &trace, &handle) == 0);
  TVMFFIErrorSetRaised(handle);
  REQUIRE(TVMFFIObjectDecRef(handle) == 0);
  Error runtime = detail::MoveFromSafeCallRaised();
  CHECK(runtime.kind() == "AttributeError");
  CHECK(std::string(runtime.what()) == "no attribute 'x'");
  CHECK(runtime.use_count() == 1);
  TVMFFIByteArray frame = Bytes("  File \"y.cc\", line 5, in g\n");
  runtime.UpdateBacktrace(&frame, kTVMFFIBacktraceUpdateModeAppend);
  CHECK(runtime.backtrace() == "  File \"y.cc\", line 5, in g\n");

  CHECK(EnvErrorAlreadySet().kind() == "EnvErrorAlreadySet");
}

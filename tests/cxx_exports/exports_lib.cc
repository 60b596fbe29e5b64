// A library that uses the C++ symbols libtvm_ffi.so exports (issue 19, tests
// 2 and 4): json::Parse/Stringify, ToJSONGraph/FromJSONGraph,
// StructuralEqual::Equal, StructuralHash::Hash, DeepCopy, ReprPrint, the
// Recursive* comparisons, and tvm::ffi::Error thrown and caught across the
// library boundary.  The same source is built three ways (CMakeLists.txt):
// against upstream's headers and run on our library, against ours and run on
// ours, and against ours and run on upstream's.  exports_driver.c loads it
// and calls tvm_ffi_cxx_exports_run.
#include <tvm/ffi/any.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/string.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

namespace ffi = ::tvm::ffi;

// The first failed check, for the driver to print.
std::string g_failure;

#define EXPECT(cond)                                                              \
  do {                                                                            \
    if (!(cond)) {                                                                \
      if (g_failure.empty()) g_failure = std::string("line ") +                   \
                                         std::to_string(__LINE__) + ": " + #cond; \
      return;                                                                     \
    }                                                                             \
  } while (0)

#define EXPECT_EQ_STR(actual, expected)                                                   \
  do {                                                                                    \
    std::string a_ = (actual);                                                            \
    std::string e_ = (expected);                                                          \
    if (a_ != e_) {                                                                       \
      if (g_failure.empty())                                                              \
        g_failure = std::string("line ") + std::to_string(__LINE__) + ": " + #actual +    \
                    " is \"" + a_ + "\", expected \"" + e_ + "\"";                        \
      return;                                                                             \
    }                                                                                     \
  } while (0)

const ffi::Object* ObjectOf(const ffi::Any& value) {
  return value.cast<ffi::ObjectRef>().get();
}

void CheckJson() {
  ffi::Any v = ffi::json::Parse("[1, 2.5, true, null, \"x\\n\", -7]");
  EXPECT(v.type_index() == ffi::TypeIndex::kTVMFFIArray);
  EXPECT_EQ_STR(std::string(ffi::json::Stringify(v)), "[1,2.5,true,null,\"x\\n\",-7]");
  EXPECT_EQ_STR(std::string(ffi::json::Stringify(ffi::json::Parse("[1, [2]]"), 2)),
                "[\n  1,\n  [\n    2\n  ]\n]");
  EXPECT(ffi::json::Parse("42").cast<int64_t>() == 42);
  EXPECT_EQ_STR(std::string(ffi::json::Parse("\"caf\\u00e9\"").cast<ffi::String>()),
                "caf\xc3\xa9");
  EXPECT_EQ_STR(std::string(ffi::json::Stringify(ffi::Any(nullptr))), "null");

  // A parse error through error_msg: None back, the message out, nothing thrown.
  ffi::String message("unchanged");
  ffi::Any bad = ffi::json::Parse("[1,", &message);
  EXPECT(bad.type_index() == ffi::TypeIndex::kTVMFFINone);
  EXPECT(std::string(message) != "unchanged");
  EXPECT(!std::string(message).empty());
  // On success error_msg is cleared, as upstream's runtime does.
  ffi::String cleared("stale");
  EXPECT(ffi::json::Parse("true", &cleared).cast<bool>());
  EXPECT_EQ_STR(std::string(cleared), "");

  // Without error_msg the runtime's ValueError reaches us as a tvm::ffi::Error.
  bool caught = false;
  try {
    ffi::json::Parse("{\"a\": }");
  } catch (const ffi::Error& err) {
    caught = true;
    EXPECT_EQ_STR(err.kind(), "ValueError");
    EXPECT(!err.message().empty());
  }
  EXPECT(caught);

  // A value JSON cannot hold: an Error naming the type, caught here as
  // std::exception.  (Its kind differs: TypeError here, ValueError on
  // upstream's runtime.)
  caught = false;
  try {
    ffi::json::Stringify(ffi::Any(DLDevice{kDLCPU, 0}));
  } catch (const std::exception& err) {
    caught = true;
    EXPECT(dynamic_cast<const ffi::Error*>(&err) != nullptr);
    EXPECT(std::string(err.what()).find("Device") != std::string::npos);
  }
  EXPECT(caught);
}

void CheckStructural() {
  ffi::Any a = ffi::json::Parse("[1, [2, 3], \"s\"]");
  ffi::Any b = ffi::json::Parse("[1, [2, 3], \"s\"]");
  ffi::Any c = ffi::json::Parse("[1, [2, 4], \"s\"]");
  EXPECT(ObjectOf(a) != ObjectOf(b));
  EXPECT(ffi::StructuralEqual::Equal(a, b));
  EXPECT(ffi::StructuralEqual()(a, b));
  EXPECT(!ffi::StructuralEqual::Equal(a, c));
  EXPECT(!ffi::StructuralEqual::Equal(a, ffi::Any(1)));
  EXPECT(ffi::StructuralHash::Hash(a) == ffi::StructuralHash::Hash(b));
  EXPECT(ffi::StructuralHash()(a) == ffi::StructuralHash::Hash(b, false, false));
  EXPECT(ffi::StructuralHash::Hash(a) != ffi::StructuralHash::Hash(c));
  EXPECT(ffi::StructuralHash::Hash(ffi::Any(5)) == ffi::StructuralHash::Hash(ffi::Any(5)));
}

void CheckDeepCopyAndRepr() {
  ffi::Any src = ffi::json::Parse("[[1, 2], [\"a\"], 3.5]");
  ffi::Any copy = ffi::DeepCopy(src);
  EXPECT(ObjectOf(copy) != nullptr);
  EXPECT(ObjectOf(copy) != ObjectOf(src));
  EXPECT(ffi::StructuralEqual::Equal(src, copy));
  EXPECT_EQ_STR(std::string(ffi::json::Stringify(copy)), "[[1,2],[\"a\"],3.5]");
  // Leaves are values: DeepCopy of an int is the int.
  EXPECT(ffi::DeepCopy(ffi::Any(7)).cast<int64_t>() == 7);

  EXPECT_EQ_STR(std::string(ffi::ReprPrint(ffi::Any(42))), "42");
  EXPECT_EQ_STR(std::string(ffi::ReprPrint(ffi::Any(nullptr))), "None");
  EXPECT_EQ_STR(std::string(ffi::ReprPrint(ffi::Any(ffi::String("a\"b")))), "\"a\\\"b\"");
  EXPECT_EQ_STR(std::string(ffi::ReprPrint(ffi::Any(false))), "False");
  // Arrays print as lists here and as tuples on upstream's runtime.
  const char* on_upstream = std::getenv("TVM_FFI_TEST_ON_UPSTREAM");
  bool upstream_runtime = on_upstream != nullptr && on_upstream[0] == '1';
  EXPECT_EQ_STR(std::string(ffi::ReprPrint(ffi::json::Parse("[1, \"a\", [true]]"))),
                upstream_runtime ? "(1, \"a\", (True,))" : "[1, \"a\", [True]]");
}

void CheckRecursive() {
  ffi::Any one_two = ffi::json::Parse("[1, 2]");
  ffi::Any one_two_b = ffi::json::Parse("[1, 2]");
  ffi::Any one_three = ffi::json::Parse("[1, 3]");
  EXPECT(ffi::RecursiveEq(one_two, one_two_b));
  EXPECT(!ffi::RecursiveEq(one_two, one_three));
  EXPECT(ffi::RecursiveLt(one_two, one_three));
  EXPECT(!ffi::RecursiveLt(one_three, one_two));
  EXPECT(ffi::RecursiveLe(one_two, one_two_b));
  EXPECT(ffi::RecursiveLe(one_two, one_three));
  EXPECT(ffi::RecursiveGt(one_three, one_two));
  EXPECT(!ffi::RecursiveGt(one_two, one_two_b));
  EXPECT(ffi::RecursiveGe(one_two, one_two_b));
  EXPECT(!ffi::RecursiveGe(one_two, one_three));
  EXPECT(ffi::RecursiveHash(one_two) == ffi::RecursiveHash(one_two_b));
  EXPECT(ffi::RecursiveHash(one_two) != ffi::RecursiveHash(one_three));
}

void CheckJSONGraph() {
  ffi::Any value = ffi::json::Parse("[1, [\"x\", 2.5], null]");
  ffi::Any graph = ffi::ToJSONGraph(value);
  // The graph is JSON: it survives the text form.
  ffi::Any reparsed = ffi::json::Parse(ffi::json::Stringify(graph));
  ffi::Any back = ffi::FromJSONGraph(reparsed);
  EXPECT(ffi::StructuralEqual::Equal(value, back));
  EXPECT(ObjectOf(back) != ObjectOf(value));
  // metadata is kept in the graph.
  ffi::Any with_meta = ffi::ToJSONGraph(ffi::Any(3), ffi::json::Parse("{\"k\": \"v\"}"));
  std::string text = ffi::json::Stringify(with_meta);
  EXPECT(text.find("\"metadata\":{\"k\":\"v\"}") != std::string::npos);
  EXPECT(ffi::FromJSONGraph(with_meta).cast<int64_t>() == 3);
}

void CheckErrorAcrossLibraries() {
  // Thrown here, caught here through the exported typeinfo.
  bool caught = false;
  try {
    TVM_FFI_THROW(IndexError) << "index " << 9 << " out of range";
  } catch (const ffi::Error& err) {
    caught = true;
    EXPECT_EQ_STR(err.kind(), "IndexError");
    EXPECT_EQ_STR(err.message(), "index 9 out of range");
  }
  EXPECT(caught);
  // A runtime error caught by a base class of Error.
  caught = false;
  try {
    ffi::FromJSONGraph(ffi::Any(5));
  } catch (const std::exception& err) {
    caught = true;
    EXPECT(dynamic_cast<const ffi::Error*>(&err) != nullptr);
  }
  EXPECT(caught);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int tvm_ffi_cxx_exports_run(char* out,
                                                                             size_t out_size) {
  g_failure.clear();
  try {
    CheckJson();
    if (g_failure.empty()) CheckStructural();
    if (g_failure.empty()) CheckDeepCopyAndRepr();
    if (g_failure.empty()) CheckRecursive();
    if (g_failure.empty()) CheckJSONGraph();
    if (g_failure.empty()) CheckErrorAcrossLibraries();
  } catch (const std::exception& err) {
    g_failure = std::string("unexpected exception: ") + err.what();
  }
  if (g_failure.empty()) return 0;
  std::snprintf(out, out_size, "%s", g_failure.c_str());
  return 1;
}

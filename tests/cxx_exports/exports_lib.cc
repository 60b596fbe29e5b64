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
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

// ModuleObj, from either copy of tvm/ffi/extra/module.h.
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/memory.h>

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
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
  // Arrays print as tuples, on both runtimes.
  EXPECT_EQ_STR(std::string(ffi::ReprPrint(ffi::json::Parse("[1, \"a\", [true]]"))),
                "(1, \"a\", (True,))");
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

// A module subclassed from the exported ModuleObj: its vtable's inherited
// entries and its typeinfo's base come from the runtime.  Function `tag`
// adds `step`; it documents itself.
class StepModule : public ffi::ModuleObj {
 public:
  StepModule(std::string tag, int64_t step) : tag_(std::move(tag)), step_(step) {}
  const char* kind() const final { return "cxx_exports.step"; }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (std::string(name) != tag_) return std::nullopt;
    int64_t step = step_;
    return ffi::Function::FromTyped([step](int64_t x) { return x + step; });
  }
  ffi::Optional<ffi::String> GetFunctionDoc(const ffi::String& name) final {
    if (std::string(name) != tag_) return std::nullopt;
    return ffi::String("adds " + std::to_string(step_));
  }
  // As a subclass may: an import added without ImportModule.
  void AddImportDirectly(const ffi::Module& other) { imports_.push_back(other); }

 private:
  std::string tag_;
  int64_t step_;
};

ffi::Module MakeStep(const char* tag, int64_t step) {
  return ffi::Module(ffi::make_object<StepModule>(tag, step));
}

int g_context_marker;

void CheckModule() {
  ffi::Module a = MakeStep("fa", 1);
  ffi::Module b = MakeStep("fb", 10);
  ffi::Module c = MakeStep("fc", 100);
  EXPECT(a.as<ffi::ModuleObj>() != nullptr);
  EXPECT(dynamic_cast<StepModule*>(a.operator->()) != nullptr);
  EXPECT_EQ_STR(std::string(a->kind()), "cxx_exports.step");
  EXPECT(a->GetPropertyMask() == 0);
  EXPECT(a->imports().size() == 0);

  ffi::Optional<ffi::Function> fa = a->GetFunction("fa", false);
  EXPECT(fa.has_value());
  EXPECT((*fa)(5).cast<int64_t>() == 6);
  EXPECT(!a->GetFunction("fb", true).has_value());

  // a imports b, b imports c: depth-first lookups through the imports.
  a->ImportModule(b);
  b->ImportModule(c);
  EXPECT(a->imports().size() == 1);
  EXPECT(a->imports()[0].cast<ffi::Module>().same_as(b));
  ffi::Optional<ffi::Function> fc = a->GetFunction("fc", true);
  EXPECT(fc.has_value());
  EXPECT((*fc)(1).cast<int64_t>() == 101);
  EXPECT(!a->GetFunction("fc", false).has_value());
  EXPECT(a->ImplementsFunction("fc", true));
  EXPECT(!a->ImplementsFunction("fc", false));
  EXPECT(!a->ImplementsFunction("nothing", true));
  ffi::Optional<ffi::String> doc = a->GetFunctionDoc("fb", true);
  EXPECT(doc.has_value());
  EXPECT_EQ_STR(std::string(*doc), "adds 10");
  EXPECT(!a->GetFunctionDoc("fb", false).has_value());
  EXPECT(!a->GetFunctionMetadata("fb", true).has_value());

  // A cycle is refused, and nothing is imported.
  bool caught = false;
  try {
    c->ImportModule(a);
  } catch (const ffi::Error& err) {
    caught = true;
    EXPECT_EQ_STR(err.kind(), "RuntimeError");
    // "... would make a cycle of imports" here, "Cyclic dependency ..." upstream.
    std::string lower = err.message();
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT(lower.find("cycl") != std::string::npos);
  }
  EXPECT(caught);
  EXPECT(c->imports().size() == 0);

  // The default WriteToFile (inline in the header) throws naming the kind.
  caught = false;
  try {
    a->WriteToFile("x", "y");
  } catch (const ffi::Error& err) {
    caught = true;
    EXPECT(err.message().find("cxx_exports.step") != std::string::npos);
  }
  EXPECT(caught);

  a->ClearImports();
  EXPECT(a->imports().size() == 0);
  EXPECT(!a->GetFunction("fb", true).has_value());

  // This library, loaded as a module by the runtime; imported into `a`.
  Dl_info info;
  EXPECT(dladdr(reinterpret_cast<void*>(&MakeStep), &info) != 0 && info.dli_fname != nullptr);
  ffi::Module self = ffi::Module::LoadFromFile(info.dli_fname);
  EXPECT_EQ_STR(std::string(self->kind()), "library");
  ffi::Optional<ffi::Function> add_two = self->GetFunction("cxx_exports_add_two");
  EXPECT(add_two.has_value());
  EXPECT((*add_two)(40).cast<int64_t>() == 42);
  EXPECT(self->ImplementsFunction("cxx_exports_add_two", false));
  EXPECT(!self->GetFunction("no_such_function", true).has_value());
  a->ImportModule(self);
  ffi::Optional<ffi::Function> through = a->GetFunction("cxx_exports_add_two", true);
  EXPECT(through.has_value());
  EXPECT((*through)(1).cast<int64_t>() == 3);
  a->ClearImports();

  // The module the runtime's ffi.ModuleLoadFromFile returns (on our runtime a
  // core module, not laid out as a ModuleObj), imported both ways.
  ffi::Module raw = ffi::Function::GetGlobalRequired("ffi.ModuleLoadFromFile")(info.dli_fname)
                        .cast<ffi::Module>();
  a->ImportModule(raw);
  through = a->GetFunction("cxx_exports_add_two", true);
  EXPECT(through.has_value());
  EXPECT((*through)(2).cast<int64_t>() == 4);
  a->ClearImports();
  static_cast<StepModule*>(a.operator->())->AddImportDirectly(raw);
  EXPECT(a->ImplementsFunction("cxx_exports_add_two", true));
  through = a->GetFunction("cxx_exports_add_two", true);
  EXPECT(through.has_value());
  EXPECT((*through)(3).cast<int64_t>() == 5);
  a->ClearImports();

  // A missing file is an Error.
  caught = false;
  try {
    ffi::Module::LoadFromFile("/nonexistent/libnothing.so");
  } catch (const ffi::Error& err) {
    caught = true;
    EXPECT(err.message().find("/nonexistent/libnothing.so") != std::string::npos);
  }
  EXPECT(caught);

  // Context symbols registered through the C API are visited.
  EXPECT(TVMFFIEnvModRegisterContextSymbol("cxx_exports_context_marker", &g_context_marker) == 0);
  int seen = 0;
  ffi::Module::VisitContextSymbols(
      ffi::TypedFunction<void(ffi::String, void*)>([&seen](ffi::String name, void* symbol) {
        if (std::string(name) == "cxx_exports_context_marker" && symbol == &g_context_marker) {
          ++seen;
        }
      }));
  EXPECT(seen == 1);
}

}  // namespace

static int64_t AddTwo(int64_t x) { return x + 2; }
TVM_FFI_DLL_EXPORT_TYPED_FUNC(cxx_exports_add_two, AddTwo);

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
    if (g_failure.empty()) CheckModule();
  } catch (const std::exception& err) {
    g_failure = std::string("unexpected exception: ") + err.what();
  }
  if (g_failure.empty()) return 0;
  std::snprintf(out, out_size, "%s", g_failure.c_str());
  return 1;
}

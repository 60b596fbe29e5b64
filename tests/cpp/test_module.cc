// Modules: loading kernel libraries, their functions, metadata and docs,
// errors, library lifetime, context symbols, imports and composite modules.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <tvm/ffi/extra/c_env_api.h>
#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// ffi.Module through the library's globals (the old C++ layer's Module; the
// tests exercise the library's loader, not a C++ module class).
class ModuleObj : public Object {
 public:
  static constexpr const uint32_t _type_index = TypeIndex::kTVMFFIModule;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.Module", ModuleObj, Object);
};

enum ModulePropertyMask : int {
  kModuleBinarySerializable = 0b001,
  kModuleRunnable = 0b010,
  kModuleCompilationExportable = 0b100,
};

std::optional<std::string> OptionalText(const Any& v) {
  if (v == nullptr) return std::nullopt;
  return v.cast<std::string>();
}

class Mod : public ObjectRef {
 public:
  static Mod LoadFromFile(const std::string& path) {
    return Global("ffi.ModuleLoadFromFile")(String(path)).cast<Mod>();
  }
  static Mod SystemLib(const std::string& symbol_prefix = "") {
    return Global("ffi.SystemLib")(symbol_prefix).cast<Mod>();
  }
  std::optional<Function> GetFunction(const std::string& name, bool query_imports = false) const {
    Any f = Global("ffi.ModuleGetFunction")(*this, name, query_imports);
    if (f == nullptr) return std::nullopt;
    return f.cast<Function>();
  }
  Function GetFunctionRequired(const std::string& name, bool query_imports = false) const {
    std::optional<Function> f = GetFunction(name, query_imports);
    if (!f.has_value()) {
      TVM_FFI_THROW(AttributeError) << "Module has no function '" << name << "' (" << Describe()
                                    << ")";
    }
    return *f;
  }
  Function operator[](const std::string& name) const { return GetFunctionRequired(name); }
  bool ImplementsFunction(const std::string& name, bool query_imports = false) const {
    return Global("ffi.ModuleImplementsFunction")(*this, name, query_imports).cast<bool>();
  }
  std::optional<std::string> GetFunctionMetadata(const std::string& name,
                                                 bool query_imports = false) const {
    return OptionalText(Global("ffi.ModuleGetFunctionMetadata")(*this, name, query_imports));
  }
  std::optional<std::string> GetFunctionDoc(const std::string& name,
                                            bool query_imports = false) const {
    return OptionalText(Global("ffi.ModuleGetFunctionDoc")(*this, name, query_imports));
  }
  std::string kind() const { return Global("ffi.ModuleGetKind")(*this).cast<std::string>(); }
  int GetPropertyMask() const { return Global("ffi.ModuleGetPropertyMask")(*this).cast<int>(); }
  std::string Describe() const { return Global("ffi.ModuleDescribe")(*this).cast<std::string>(); }
  void ImportModule(const Mod& other) const { Global("ffi.ModuleImportModule")(*this, other); }
  void ClearImports() const { Global("ffi.ModuleClearImports")(*this); }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Mod, ObjectRef, ModuleObj);

 private:
  static Function Global(const char* name) { return Function::GetGlobalRequired(name); }
};

// The imports of `mod`, read from the reflected field `imports_`, as bindings do.
Array<Mod> ImportsOf(const Mod& mod) {
  return ReflectedField(Any(mod), "imports_").cast<Array<Mod>>();
}

}  // namespace

#ifndef TVM_FFI_TEST_MODULE_KERNEL
#error "TVM_FFI_TEST_MODULE_KERNEL (path of tests/module/kernel.cc's library) must be defined"
#endif

namespace {

const std::string kKernel = TVM_FFI_TEST_MODULE_KERNEL;
const std::string kComposite = TVM_FFI_TEST_MODULE_COMPOSITE;
const std::string kCompositeCycle = TVM_FFI_TEST_MODULE_COMPOSITE_CYCLE;

// Whether `path` is mapped into this process (the library is loaded).
bool IsMapped(const std::string& path) {
  char resolved[4096];
  if (realpath(path.c_str(), resolved) == nullptr) return false;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.size() >= std::strlen(resolved) &&
        line.compare(line.size() - std::strlen(resolved), std::string::npos, resolved) == 0) {
      return true;
    }
  }
  return false;
}

std::string TempFile(const std::string& name, const std::string& content) {
  std::string path = "/tmp/tvm_ffi_test_module_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path) << content;
  return path;
}

int SysTriple(void*, const TVMFFIAny* args, int32_t, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 * 3;
  return 0;
}
int SysSubOne(void*, const TVMFFIAny* args, int32_t, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = args[0].v_int64 - 1;
  return 0;
}
int SysPrefixed(void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = 1;
  return 0;
}
int SysUnprefixed(void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->v_int64 = 2;
  return 0;
}

}  // namespace

TEST_CASE("Module: load a library and call its typed exports", "[module]") {
  Mod mod = Mod::LoadFromFile(kKernel);
  CHECK(mod.kind() == "library");
  CHECK(mod.GetPropertyMask() == (kModuleBinarySerializable | kModuleRunnable));
  CHECK(mod.Describe() == "library \"" + kKernel + "\"");
  CHECK(mod["add_one"](41).cast<int64_t>() == 42);
  CHECK(mod["greet"]("you").cast<std::string>() == "hello, you");
  CHECK(mod["mul2"](1.5).cast<double>() == 3.0);
  CHECK(mod.ImplementsFunction("add_one"));
  CHECK_FALSE(mod.ImplementsFunction("no_such_function"));
  CHECK(ImportsOf(mod).size() == 0);

  float data[3] = {1.0f, 2.0f, 3.5f};
  int64_t shape[1] = {3};
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DType(kDLFloat, 32);
  t.shape = shape;
  mod["add_one_tensor"](BorrowedTensor(t));
  CHECK(data[0] == 2.0f);
  CHECK(data[1] == 3.0f);
  CHECK(data[2] == 4.5f);
  mod["add_one_tensor"](&t);  // a DLTensor* works too
  CHECK(data[0] == 3.0f);
}

TEST_CASE("Module: metadata and docs of exported functions", "[module]") {
  Mod mod = Mod::LoadFromFile(kKernel);
  CHECK(mod.GetFunctionMetadata("add_one") ==
        std::optional<std::string>(
            "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"named_args\\\":{"
            "\\\"return\\\":[{\\\"type\\\":\\\"int\\\"}],\\\"params\\\":[{\\\"type\\\":\\\"int\\\"}]}}\"}"));
  CHECK(mod.GetFunctionMetadata("greet") ==
        std::optional<std::string>(
            "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"named_args\\\":{"
            "\\\"return\\\":[{\\\"type\\\":\\\"ffi.String\\\"}],\\\"params\\\":[{\\\"type\\\":"
            "\\\"ffi.String\\\"}]}}\"}"));
  CHECK(mod.GetFunctionMetadata("add_one_tensor") ==
        std::optional<std::string>(
            "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"named_args\\\":{"
            "\\\"return\\\":[{\\\"type\\\":\\\"None\\\"}],\\\"params\\\":[{\\\"type\\\":"
            "\\\"DLTensor*\\\"}]}}\"}"));
  CHECK(mod.GetFunctionDoc("add_one") == std::optional<std::string>("Returns x + 1.\nFor tests."));
  CHECK(mod.GetFunctionDoc("greet") == std::nullopt);
  CHECK(mod.GetFunctionMetadata("no_such_function") == std::nullopt);
}

TEST_CASE("Module: errors name the path, or the function and the library", "[module]") {
  std::string missing = "/tmp/tvm_ffi_no_such_dir/libmissing.so";
  CHECK(ThrownBy([&] { Mod::LoadFromFile(missing); }) ==
        "RuntimeError: cannot load the shared library \"" + missing + "\": " + missing +
            ": cannot open shared object file: No such file or directory");

  std::string text = TempFile("not_a_library.so", std::string(20, '#') + " this is text, not an ELF shared library " + std::string(200, '#'));
  std::string thrown = ThrownBy([&] { Mod::LoadFromFile(text); });
  CHECK(thrown.rfind("RuntimeError: cannot load the shared library \"" + text + "\": " + text +
                         ": ",
                     0) == 0);
  CHECK(thrown.find("invalid ELF header") != std::string::npos);
  std::remove(text.c_str());

  CHECK(ThrownBy([] { Mod::LoadFromFile("/tmp/no_extension"); }) ==
        "RuntimeError: cannot tell the format of \"/tmp/no_extension\": the file name has no "
        "extension (expected e.g. \".so\")");
  CHECK(ThrownBy([] { Mod::LoadFromFile("/tmp/kernel.txt"); }) ==
        "RuntimeError: cannot load \"/tmp/kernel.txt\": no loader for `.txt` files (global "
        "function `ffi.Module.load_from_file.txt` is not registered)");

  Mod mod = Mod::LoadFromFile(kKernel);
  CHECK_FALSE(mod.GetFunction("no_such_function").has_value());
  CHECK(ThrownBy([&] { mod["no_such_function"]; }) ==
        "AttributeError: Module has no function 'no_such_function' (library \"" + kKernel +
            "\")");
  // Errors raised inside the library reach the caller with their kind.
  CHECK(ThrownBy([&] { mod["fail"](3); }) == "ValueError: kernel failed with code 3");
  CHECK(ThrownBy([&] { mod["add_one"]("x"); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `add_one(0: int) -> int`. "
        "Expected `int` but got `const char*`");
  CHECK(ThrownBy([&] { mod["add_one"](); }) ==
        "TypeError: Mismatched number of arguments when calling: `add_one(0: int) -> int`. "
        "Expected 1 but got 0 arguments");
  // A module global given something else.
  CHECK(ThrownBy([] { Call("ffi.ModuleGetKind", String("x")); }) ==
        "TypeError: In function ffi.ModuleGetKind: argument 1: expected ffi.Module, got str");
}

TEST_CASE("Module: a function keeps the library loaded; the library closes after",
          "[module]") {
  REQUIRE_FALSE(IsMapped(kKernel));
  std::optional<Function> add_one;
  {
    Mod mod = Mod::LoadFromFile(kKernel);
    CHECK(IsMapped(kKernel));
    add_one = mod.GetFunction("add_one");
    // Looked up again while alive: the same function object.
    CHECK(mod.GetFunction("add_one")->same_as(*add_one));
  }
  CHECK(IsMapped(kKernel));  // the module is gone, the function keeps it
  CHECK((*add_one)(1).cast<int64_t>() == 2);
  add_one.reset();
  CHECK_FALSE(IsMapped(kKernel));  // closed with the last user
}

TEST_CASE("Module: library_ctx and context symbols are filled at load", "[module]") {
  static int value = 0;
  REQUIRE(TVMFFIEnvModRegisterContextSymbol("tvmffi_test_context_symbol", &value) == 0);
  Mod mod = Mod::LoadFromFile(kKernel);
  // The library's context: a module of its own, distinct from `mod`.
  auto* ctx = reinterpret_cast<TVMFFIObject*>(mod["library_ctx"]().cast<int64_t>());
  REQUIRE(ctx != nullptr);
  CHECK(ctx->type_index == kTVMFFIModule);
  CHECK(static_cast<void*>(ctx) != HandleOf(mod));
  CHECK(mod["context_symbol"]().cast<int64_t>() == reinterpret_cast<int64_t>(&value));
}

TEST_CASE("Module: LookupFromImports searches the imports, then the globals", "[module]") {
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_modtest.triple",
                                              reinterpret_cast<void*>(&SysTriple)) == 0);
  Function::SetGlobal("testing.module_lookup_target",
                      Function::FromTyped([](int64_t x) { return x * 10; }), true);
  Mod mod = Mod::LoadFromFile(kKernel);
  Mod sys = Mod::SystemLib("modtest.");
  mod.ImportModule(sys);
  REQUIRE(ImportsOf(mod).size() == 1);
  CHECK(ImportsOf(mod)[0].same_as(sys));

  CHECK(mod["call_from_imports"]("triple", 5).cast<int64_t>() == 15);
  CHECK(mod["call_from_imports"]("testing.module_lookup_target", 5).cast<int64_t>() == 50);
  CHECK(mod.GetFunction("triple", true).has_value());
  CHECK_FALSE(mod.GetFunction("triple", false).has_value());

  // Borrowed from the module's cache: the same handle, no new reference.
  TVMFFIObjectHandle first = nullptr, second = nullptr;
  REQUIRE(TVMFFIEnvModLookupFromImports(HandleOf(mod), "triple", &first) == 0);
  uint32_t count = ObjectOf(first)->use_count();
  REQUIRE(TVMFFIEnvModLookupFromImports(HandleOf(mod), "triple", &second) == 0);
  CHECK(first == second);
  CHECK(ObjectOf(first)->use_count() == count);

  CHECK(Raised(TVMFFIEnvModLookupFromImports(HandleOf(mod), "nope", &first)) ==
        "RuntimeError: TVMFFIEnvModLookupFromImports: cannot find function `nope` in the "
        "imports of library \"" + kKernel + "\" or in the global function registry");
  CHECK(Raised(TVMFFIEnvModLookupFromImports(nullptr, "triple", &first)) ==
        "ValueError: TVMFFIEnvModLookupFromImports: library_ctx must not be NULL");
  String not_a_module("a string that is no module");
  CHECK(Raised(TVMFFIEnvModLookupFromImports(HandleOf(not_a_module), "triple", &first)) ==
        "TypeError: expected an ffi.Module made by libtvm_ffi, got str");
  mod.ClearImports();
  CHECK(ImportsOf(mod).size() == 0);
}

TEST_CASE("Module: imports refuse a cycle", "[module]") {
  Mod a = Mod::SystemLib("cycle_a.");
  Mod b = Mod::SystemLib("cycle_b.");
  a.ImportModule(b);
  CHECK(ThrownBy([&] { b.ImportModule(a); }) ==
        "RuntimeError: cannot import the system library (prefix \"cycle_a.\") into the system "
        "library (prefix \"cycle_b.\"): it would make a cycle of imports");
  CHECK(ThrownBy([&] { a.ImportModule(a); }) ==
        "RuntimeError: cannot import the system library (prefix \"cycle_a.\") into the system "
        "library (prefix \"cycle_a.\"): it would make a cycle of imports");
  a.ClearImports();
}

TEST_CASE("Module: the system library tries the prefix first", "[module]") {
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_sysprefix.which",
                                              reinterpret_cast<void*>(&SysPrefixed)) == 0);
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_which",
                                              reinterpret_cast<void*>(&SysUnprefixed)) == 0);
  CHECK(Mod::SystemLib("sysprefix.")["which"]().cast<int64_t>() == 1);
  CHECK(Mod::SystemLib()["which"]().cast<int64_t>() == 2);
  CHECK(Mod::SystemLib("sysprefix.").same_as(Mod::SystemLib("sysprefix.")));
  CHECK(Mod::SystemLib().Describe() == "the system library");
  CHECK(ThrownBy([] { Mod::SystemLib("sysprefix.")["absent"]; }) ==
        "AttributeError: Module has no function 'absent' (the system library (prefix "
        "\"sysprefix.\"))");
}

TEST_CASE("Module: __tvm_ffi__library_bin rebuilds a composite module", "[module]") {
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_composite.sub_one",
                                              reinterpret_cast<void*>(&SysSubOne)) == 0);
  CHECK(ThrownBy([] { Mod::LoadFromFile(kComposite); }) ==
        "RuntimeError: the library embeds a module of kind `testing_sys`, but no loader "
        "`ffi.Module.load_from_bytes.testing_sys` is registered");
  Function::SetGlobal("ffi.Module.load_from_bytes.testing_sys",
                      Function::FromTyped([](Bytes payload) {
                        return Mod::SystemLib(std::string(payload));
                      }),
                      true);
  Mod mod = Mod::LoadFromFile(kComposite);
  REQUIRE(ImportsOf(mod).size() == 1);
  CHECK(ImportsOf(mod)[0].same_as(Mod::SystemLib("composite.")));
  CHECK(mod["sub_via_import"](10).cast<int64_t>() == 9);
  CHECK(mod.GetFunction("sub_one", true).has_value());
  CHECK_FALSE(mod.GetFunction("sub_one").has_value());
  Call("ffi.FunctionRemoveGlobal", "ffi.Module.load_from_bytes.testing_sys");
}

TEST_CASE("Module: globals keep a module alive until removed", "[module]") {
  std::optional<Mod> mod = Mod::LoadFromFile(kKernel);
  Call("ffi.ModuleGlobalsAdd", *mod);
  Mod same = *mod;
  mod.reset();
  CHECK(IsMapped(kKernel));
  Call("ffi.ModuleGlobalsRemove", same);
  same = Mod();
  CHECK_FALSE(IsMapped(kKernel));
}

// ---------------------------------------------------------------------------
// Lifetimes, depth and bad paths (issue 22).

TEST_CASE("Module: one library context however often the library is loaded", "[module]") {
  Function::SetGlobal("testing.module_ctx_target",
                      Function::FromTyped([](int64_t x) { return x + 100; }), true);
  std::optional<Mod> first = Mod::LoadFromFile(kKernel);
  int64_t ctx = (*first)["library_ctx"]().cast<int64_t>();
  std::optional<Mod> second = Mod::LoadFromFile(kKernel);
  CHECK_FALSE(first->same_as(*second));  // two modules ...
  // ... over one library, whose context did not move to the newer module.
  CHECK((*second)["library_ctx"]().cast<int64_t>() == ctx);
  std::optional<Function> call_first = (*first)["call_from_imports"];
  // The newer module dies first: the context must not die with it (it
  // used to point at that module, and the next lookup wrote freed memory).
  second.reset();
  CHECK((*call_first)("testing.module_ctx_target", 1).cast<int64_t>() == 101);
  CHECK((*first)["library_ctx"]().cast<int64_t>() == ctx);
  first.reset();
  CHECK((*call_first)("testing.module_ctx_target", 2).cast<int64_t>() == 102);
  call_first.reset();
  CHECK_FALSE(IsMapped(kKernel));
  // Loaded afresh, the library gets a context again.
  Mod again = Mod::LoadFromFile(kKernel);
  CHECK(again["call_from_imports"]("testing.module_ctx_target", 3).cast<int64_t>() == 103);
}

TEST_CASE("Module: the context searches the imports of every live module", "[module]") {
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_ctxtest.triple",
                                              reinterpret_cast<void*>(&SysTriple)) == 0);
  Mod with_imports = Mod::LoadFromFile(kKernel);
  with_imports.ImportModule(Mod::SystemLib("ctxtest."));
  Mod plain = Mod::LoadFromFile(kKernel);
  // Found through the other, older module over the same library.
  CHECK(plain["call_from_imports"]("triple", 4).cast<int64_t>() == 12);
}

TEST_CASE("Module: import lookups walk a 100000-link chain without recursion", "[module]") {
  constexpr int kLinks = 100000;
  std::vector<Mod> chain;
  chain.reserve(kLinks);
  for (int i = 0; i < kLinks; ++i) chain.push_back(Mod::LoadFromFile(kKernel));
  for (int i = 0; i + 1 < kLinks; ++i) chain[i].ImportModule(chain[i + 1]);
  Mod head = chain.front();
  CHECK_FALSE(head.GetFunction("no_such_function", true).has_value());
  CHECK_FALSE(head.ImplementsFunction("no_such_function", true));
  CHECK(head.GetFunction("add_one", true).has_value());
  CHECK(Call("ffi.ModuleGetFunctionMetadata", head, "no_such_function", true).type_index() ==
        kTVMFFINone);
  CHECK(Call("ffi.ModuleGetFunctionDoc", head, "no_such_function", true).type_index() ==
        kTVMFFINone);
  // The system library at the end of the chain is found.
  REQUIRE(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_chaintest.triple",
                                              reinterpret_cast<void*>(&SysTriple)) == 0);
  chain.back().ImportModule(Mod::SystemLib("chaintest."));
  CHECK(head.ImplementsFunction("triple", true));
  CHECK(head.GetFunction("triple", true).has_value());
  chain.clear();  // released without recursing either
}

TEST_CASE("Module: a __tvm_ffi__library_bin whose module imports itself is refused",
          "[module]") {
  CHECK(ThrownBy([] { Mod::LoadFromFile(kCompositeCycle); }) ==
        "RuntimeError: malformed __tvm_ffi__library_bin in library \"" + kCompositeCycle +
            "\": module 0 imports module 0, which makes a cycle of imports");
  CHECK_FALSE(IsMapped(kCompositeCycle));
}

TEST_CASE("Module: a path with a NUL byte is refused, not cut short", "[module]") {
  // dlopen would stop at the NUL and open "" (the main program).
  CHECK(ThrownBy([] { Mod::LoadFromFile(std::string("\0.so", 4)); }) ==
        "ValueError: cannot load \"\\0.so\": the path holds a NUL byte");
  CHECK(ThrownBy([] { Mod::LoadFromFile(kKernel + std::string("\0.so", 4)); }) ==
        "ValueError: cannot load \"" + kKernel + "\\0.so\": the path holds a NUL byte");
  // The loader of .so files refuses it too, when called directly.
  Function so_loader = *Function::GetGlobal("ffi.Module.load_from_file.so");
  CHECK(ThrownBy([&] { so_loader(String(std::string("\0.so", 4)), "so"); }) ==
        "ValueError: cannot load the shared library \"\\0.so\": the path holds a NUL byte");
}

TEST_CASE("Module: a function returning an unknown type index fails cleanly", "[module]") {
  Mod mod = Mod::LoadFromFile(kKernel);
  Function bad = mod["bad_value"];
  CHECK(ThrownBy([&] { bad(); }) ==
        "ValueError: a function of a module returned a value that has unknown type index 9999");
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  CHECK(TVMFFIFunctionCall(HandleOf(bad), nullptr, 0, &result) == -1);
  CHECK(TakeRaised() ==
        "ValueError: a function of a module returned a value that has unknown type index 9999");
  CHECK(result.type_index == kTVMFFINone);
}

// Loads, calls (through the library context) and drops the same library from
// several threads at once; `make tsan` runs this under ThreadSanitizer.
TEST_CASE("Module: concurrent loads of one library", "[module][stress]") {
  Function::SetGlobal("testing.module_stress_target",
                      Function::FromTyped([](int64_t x) { return x * 7; }), true);
  constexpr int kThreads = 6;
  constexpr int kRounds = 60;
  std::atomic<bool> go{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      for (int r = 0; r < kRounds; ++r) {
        try {
          std::optional<Mod> a = Mod::LoadFromFile(kKernel);
          std::optional<Mod> b = Mod::LoadFromFile(kKernel);
          if ((*a)["library_ctx"]().cast<int64_t>() != (*b)["library_ctx"]().cast<int64_t>()) {
            ++failures;
          }
          Function f = (r + t) % 2 == 0 ? (*a)["call_from_imports"] : (*b)["call_from_imports"];
          if ((r + t) % 3 == 0) a.reset(); else b.reset();
          if (f("testing.module_stress_target", r).cast<int64_t>() != r * 7) ++failures;
          if ((*(a ? a : b))["add_one"](r).cast<int64_t>() != r + 1) ++failures;
        } catch (...) {
          ++failures;
        }
      }
    });
  }
  go = true;
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);
  CHECK_FALSE(IsMapped(kKernel));
}

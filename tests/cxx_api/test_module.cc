// extra/module.h: ModuleObj's layout and defaults, Module.
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/memory.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <cstdint>
#include <string>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

class EchoModule : public ModuleObj {
 public:
  const char* kind() const final { return "cxx_api_test.echo"; }
  Optional<Function> GetFunction(const String& name) final {
    if (std::string(name) != "echo") return std::nullopt;
    return Function::FromTyped([](int64_t x) { return x; });
  }
  // Offsets of the members from the object header (the runtime's handle).
  std::ptrdiff_t ImportsOffset() const {
    return reinterpret_cast<const char*>(&imports_) -
           reinterpret_cast<const char*>(detail::ObjectUnsafe::GetHeader(this));
  }
};

}  // namespace

TEST_CASE("module: layout and defaults", "[module]") {
  Module m(make_object<EchoModule>());
  const EchoModule* echo = static_cast<const EchoModule*>(m.get());
  CHECK(echo->ImportsOffset() == 24);  // the runtime reads imports_ at handle + 24
  CHECK(sizeof(EchoModule) == 8 + 24 + 2 * sizeof(void*));
  CHECK(m->GetPropertyMask() == 0);
  CHECK(m->ImplementsFunction("echo"));
  CHECK(!m->ImplementsFunction("other"));
  CHECK(!m->GetFunctionDoc("echo").has_value());
  CHECK(m->GetWriteFormats().empty());
  CHECK(m->InspectSource("asm") == "");
  CHECK(ErrorOf([&] { m->WriteToFile("f", "so"); }) ==
        "RuntimeError: Module[cxx_api_test.echo] does not support WriteToFile");
  CHECK(ErrorOf([&] { (void)m->SaveToBytes(); }) ==
        "RuntimeError: Module[cxx_api_test.echo] does not support SaveToBytes");
  CHECK(Any(m).type_index() == kTVMFFIModule);
}

TEST_CASE("module: imports", "[module]") {
  Module a(make_object<EchoModule>());
  Module b(make_object<EchoModule>());
  a->ImportModule(b);
  CHECK(a->imports().size() == 1);
  CHECK(a->imports()[0].cast<Module>().same_as(b));
  CHECK(b.use_count() == 2);
  CHECK(ErrorOf([&] { b->ImportModule(a); }) ==
        "RuntimeError: cannot import Module[cxx_api_test.echo] into Module[cxx_api_test.echo]: "
        "it would make a cycle of imports");
  a->ClearImports();
  CHECK(a->imports().empty());
  CHECK(b.use_count() == 1);
}

namespace {

// A module that defines nothing itself: a library's context module.
class ContextModule : public ModuleObj {
 public:
  const char* kind() const final { return "cxx_api_test.context"; }
  Optional<Function> GetFunction(const String&) final { return std::nullopt; }
};

// TVMFFIEnvModLookupFromImports(ctx, name) as a Function, or the error.
Function LookupFromImports(const Module& ctx, const char* name) {
  TVMFFIObjectHandle out = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupFromImports(
      detail::ObjectUnsafe::GetHeader(ctx.get()), name, &out));
  // Borrowed: the module's cache owns it.
  return Function(detail::ObjectUnsafe::ObjectPtrFromUnowned<FunctionObj>(
      static_cast<TVMFFIObject*>(out)));
}

}  // namespace

TEST_CASE("module: TVMFFIEnvModLookupFromImports on a ModuleObj subclass", "[module]") {
  Module ctx(make_object<ContextModule>());
  Module inner(make_object<EchoModule>());
  Module middle(make_object<ContextModule>());
  middle->ImportModule(inner);
  ctx->ImportModule(middle);

  // Found in an import's import (depth first), then served from the cache.
  Function echo = LookupFromImports(ctx, "echo");
  CHECK(echo(int64_t{41}).cast<int64_t>() == 41);
  int32_t count = echo.use_count();
  CHECK(count >= 2);  // ours and the cache's
  Function again = LookupFromImports(ctx, "echo");
  CHECK(again.same_as(echo));

  // Not in any import: the global registry.
  Function::SetGlobal("cxx_api_test.lookup_global", Function::FromTyped([]() { return 7; }),
                      true);
  CHECK(LookupFromImports(ctx, "cxx_api_test.lookup_global")().cast<int>() == 7);
  // Still cached after the global is gone.
  Function::RemoveGlobal("cxx_api_test.lookup_global");
  CHECK(LookupFromImports(ctx, "cxx_api_test.lookup_global")().cast<int>() == 7);

  CHECK(ErrorOf([&] { LookupFromImports(ctx, "cxx_api_test.nowhere"); }) ==
        "RuntimeError: TVMFFIEnvModLookupFromImports: cannot find function "
        "`cxx_api_test.nowhere` in the imports of Module[cxx_api_test.context] or in the "
        "global function registry");

  // The cache goes with the module: the function's only other owner is `echo`.
  again = echo;
  ctx = Module(make_object<ContextModule>());
  middle = Module(make_object<ContextModule>());
  inner = Module(make_object<ContextModule>());
  CHECK(echo.use_count() == 2);  // echo and again
}

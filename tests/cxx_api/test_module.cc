// extra/module.h: ModuleObj's layout and defaults, Module.
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

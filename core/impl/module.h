// Modules: functions loaded from a shared library (or the system library).
//
// Header-only over the ffi.Module* global functions of libtvm_ffi, so a
// program linking only libtvm_ffi can load kernel libraries:
//
//   Module mod = Module::LoadFromFile("build/libadd_one.so");
//   Function add_one = mod.GetFunctionRequired("add_one");
//   add_one(tensor);
//
// A Function taken from a module keeps the module, and so the library,
// loaded; the library is closed when neither is referenced any more.
#ifndef TVM_FFI_CORE_IMPL_MODULE_H_
#define TVM_FFI_CORE_IMPL_MODULE_H_

#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "any.h"
#include "array.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// The object behind a Module (type index 73, "ffi.Module").  Its contents
// belong to libtvm_ffi; this side only holds references to it.
class ModuleObj : public Object {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(ModuleObj, kTVMFFIModule, "ffi.Module")

 protected:
  ModuleObj() = default;
};

// Bits of Module::GetPropertyMask (the values of the ABI).
enum ModulePropertyMask : int {
  kModuleBinarySerializable = 0b001,
  kModuleRunnable = 0b010,
  kModuleCompilationExportable = 0b100,
};

// A reference to an ffi.Module.
class Module : public ObjectRef {
 public:
  using ContainerType = ModuleObj;
  Module() = default;
  explicit Module(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  // Loads a module file; the format comes from the extension (".so", also
  // ".dll", ".dylib", ".dso").  RuntimeError naming the path on failure.
  static Module LoadFromFile(const std::string& path) {
    // As a String: a std::string argument travels as a NUL-terminated view,
    // which would cut a path holding a NUL short instead of refusing it.
    return Global("ffi.ModuleLoadFromFile")(String(path)).As<Module>();
  }
  // The module of the symbols registered with
  // TVMFFIEnvModRegisterSystemLibSymbol; one per prefix, for the process's
  // lifetime.
  static Module SystemLib(const std::string& symbol_prefix = "") {
    return Global("ffi.SystemLib")(symbol_prefix).As<Module>();
  }

  // The function `name` (symbol `__tvm_ffi_<name>`), searching the imports
  // too when query_imports is set; nullopt when there is none.
  std::optional<Function> GetFunction(const std::string& name, bool query_imports = false) const {
    return Global("ffi.ModuleGetFunction")(*this, name, query_imports)
        .As<std::optional<Function>>();
  }
  // As GetFunction; AttributeError naming the function and the library
  // when it is missing.
  Function GetFunctionRequired(const std::string& name, bool query_imports = false) const {
    std::optional<Function> f = GetFunction(name, query_imports);
    if (!f.has_value()) {
      TVM_FFI_IMPL_THROW(AttributeError) << "Module has no function '" << name << "' ("
                                   << Describe() << ")";
    }
    return *f;
  }
  Function operator[](const std::string& name) const { return GetFunctionRequired(name); }

  bool ImplementsFunction(const std::string& name, bool query_imports = false) const {
    return Global("ffi.ModuleImplementsFunction")(*this, name, query_imports).As<bool>();
  }
  // The JSON text of `__tvm_ffi__metadata_<name>`, when the library has it.
  std::optional<std::string> GetFunctionMetadata(const std::string& name,
                                                 bool query_imports = false) const {
    return Global("ffi.ModuleGetFunctionMetadata")(*this, name, query_imports)
        .As<std::optional<std::string>>();
  }
  // The docstring of `__tvm_ffi__doc_<name>`, when the library has it.
  std::optional<std::string> GetFunctionDoc(const std::string& name,
                                            bool query_imports = false) const {
    return Global("ffi.ModuleGetFunctionDoc")(*this, name, query_imports)
        .As<std::optional<std::string>>();
  }

  // "library" for shared and system libraries.
  std::string kind() const { return Global("ffi.ModuleGetKind")(*this).As<std::string>(); }
  int GetPropertyMask() const {
    return Global("ffi.ModuleGetPropertyMask")(*this).As<int>();
  }
  // `library "<path>"` or `the system library`: what error messages name.
  std::string Describe() const {
    return Global("ffi.ModuleDescribe")(*this).As<std::string>();
  }

  // The modules GetFunction(name, true) and TVMFFIEnvModLookupFromImports
  // also search, in order.
  // Read from the reflected field `imports_`, as bindings do.
  Array<Module> imports() const {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIModule);
    if (info == nullptr) ThrowRaised(-1);
    const TVMFFIFieldInfo* field = nullptr;
    for (int32_t i = 0; i < info->num_fields && field == nullptr; ++i) {
      const TVMFFIByteArray& n = info->fields[i].name;
      if (std::string(n.data, n.size) == "imports_") field = &info->fields[i];
    }
    if (field == nullptr || field->getter == nullptr) {
      TVM_FFI_IMPL_THROW(RuntimeError) << "ffi.Module has no reflected field `imports_`";
    }
    TVMFFIAny value;
    std::memset(&value, 0, sizeof(value));
    int rc = field->getter(static_cast<char*>(handle()) + field->offset, &value);
    if (rc != 0) ThrowRaised(rc);
    return Any::Adopt(value).As<Array<Module>>();
  }
  // RuntimeError when `other` imports this module (directly or not).
  void ImportModule(const Module& other) const {
    Global("ffi.ModuleImportModule")(*this, other);
  }
  void ClearImports() const { Global("ffi.ModuleClearImports")(*this); }

 private:
  static Function Global(const char* name) { return Function::GetGlobalRequired(name); }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_MODULE_H_

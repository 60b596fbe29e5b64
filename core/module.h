// Modules: the ffi.Module objects libtvm_ffi makes from libraries.
// Library-internal.
#ifndef TVMFFI_CORE_MODULE_H_
#define TVMFFI_CORE_MODULE_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include <tvmffi/array.h>
#include <tvmffi/function.h>
#include <tvmffi/module.h>
#include "library.h"

namespace tvmffi {
namespace core {

// A module over a Library: its functions are the library's `__tvm_ffi_<name>`
// symbols.  Kind "library".
//
// Functions handed out hold the module strongly (the library's
// `__tvm_ffi__library_ctx` points at it), so the module cannot cache them
// strongly without a cycle: it caches symbol addresses, and the Function
// objects through weak references.
class LibraryModuleObj final : public ModuleObj {
 public:
  explicit LibraryModuleObj(std::shared_ptr<Library> lib) : lib_(std::move(lib)) {}
  ~LibraryModuleObj();
  LibraryModuleObj(const LibraryModuleObj&) = delete;
  LibraryModuleObj& operator=(const LibraryModuleObj&) = delete;

  // Reflected read-only as `imports_`.  Written only by ImportModule,
  // ClearImports and the loader; not safe against concurrent readers.
  Array<Module> imports_;

  const std::shared_ptr<Library>& library() const { return lib_; }

  // This module's own function, or nullopt.
  std::optional<Function> GetOwnFunction(const std::string& name);
  // With query_imports, the imports are searched depth-first after this one.
  std::optional<Function> GetFunction(const std::string& name, bool query_imports);
  std::optional<std::string> GetFunctionMetadata(const std::string& name, bool query_imports);
  std::optional<std::string> GetFunctionDoc(const std::string& name, bool query_imports);
  bool ImplementsFunction(const std::string& name, bool query_imports);

  // RuntimeError when `other` already reaches this module through its imports.
  void ImportModule(const Module& other);
  void ClearImports();

  // TVMFFIEnvModLookupFromImports: the imports (each with query_imports),
  // then the global registry.  The result is borrowed from this module's
  // cache.  RuntimeError when not found.
  TVMFFIObjectHandle LookupFromImports(const std::string& name);

 private:
  // The safe-call `__tvm_ffi_<name>`, or nullptr; cached (misses too).
  TVMFFISafeCallType FindSymbol(const std::string& name);
  // Calls a `__tvm_ffi__metadata_<name>`-style getter: no arguments, a str result.
  std::optional<std::string> CallStringGetter(const std::string& symbol);

  std::shared_ptr<Library> lib_;
  std::mutex mutex_;  // guards the three caches
  std::unordered_map<std::string, TVMFFISafeCallType> symbols_;
  std::unordered_map<std::string, TVMFFIObject*> functions_;  // one weak reference each
  std::unordered_map<std::string, Function> import_lookups_;  // strong
};

// The module tree of a freshly opened library: writes the registered
// context symbols, rebuilds a `__tvm_ffi__library_bin` composite if there is
// one, and stores the library's module in `__tvm_ffi__library_ctx`.
Module CreateLibraryModule(std::shared_ptr<Library> lib);

// The module of `ref`, which must be one this library made.
LibraryModuleObj* AsLibraryModule(const Module& ref);

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_MODULE_H_

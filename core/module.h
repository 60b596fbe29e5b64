// Modules: the ffi.Module objects libtvm_ffi makes from libraries.
// Library-internal.
#ifndef TVM_FFI_CORE_MODULE_H_
#define TVM_FFI_CORE_MODULE_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "impl/array.h"
#include "impl/function.h"
#include "impl/module.h"
#include "library.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class LibraryModuleObj;

// What the modules over one Library share while it is loaded.
struct LibraryModules {
  std::mutex mutex;
  std::vector<LibraryModuleObj*> live;  // guarded by mutex; oldest first
};

// A module over a Library: its functions are the library's `__tvm_ffi_<name>`
// symbols.  Kind "library".
//
// Functions handed out hold the module strongly, so the module cannot cache
// them strongly without a cycle: it caches symbol addresses, and the
// Function objects through weak references.
//
// Each Library also has one context module (no library of its own, no
// imports): the module `__tvm_ffi__library_ctx` points at.  It lives exactly
// as long as the library is loaded, however many modules are made over it
// and in whatever order they die, and its lookups search the imports of
// every live module over the library, newest first.
class LibraryModuleObj final : public ModuleObj {
 public:
  // A new module over `lib` (attached with AttachLibrary), listed among the
  // library's live modules.
  static ObjectPtr<Object> Create(std::shared_ptr<Library> lib);
  // Use Create: a module is listed only once it is fully made.
  explicit LibraryModuleObj(std::shared_ptr<Library> lib);
  // The context module of a library described as `description`.
  LibraryModuleObj(std::shared_ptr<LibraryModules> over, std::string description);
  ~LibraryModuleObj();
  LibraryModuleObj(const LibraryModuleObj&) = delete;
  LibraryModuleObj& operator=(const LibraryModuleObj&) = delete;

  // Reflected read-only as `imports_`.  Written only by ImportModule,
  // ClearImports and the loader; not safe against concurrent readers.
  Array<Module> imports_;

  // `library "<path>"` or `the system library ...`.
  const std::string& Describe() const { return description_; }

  // This module's own function, or nullopt.
  std::optional<Function> GetOwnFunction(const std::string& name);
  // With query_imports, the imports are searched depth-first after this one
  // (each reachable module once, without recursion: any depth is fine).
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
  // The first function `name` in the imports (searched as GetFunction does).
  std::optional<Function> FindInImports(const std::string& name);
  // The safe-call `__tvm_ffi_<name>`, or nullptr; cached (misses too).
  TVMFFISafeCallType FindSymbol(const std::string& name);
  // Calls a `__tvm_ffi__metadata_<name>`-style getter: no arguments, a str result.
  std::optional<std::string> CallStringGetter(const std::string& symbol);

  std::shared_ptr<Library> lib_;         // null for a context module
  std::shared_ptr<LibraryModules> over_;  // the modules over the same library
  std::string description_;
  std::mutex mutex_;  // guards the three caches
  std::unordered_map<std::string, TVMFFISafeCallType> symbols_;
  std::unordered_map<std::string, TVMFFIObject*> functions_;  // one weak reference each
  std::unordered_map<std::string, Function> import_lookups_;  // strong
};

// Called once for a new Library, before any other thread can see it: writes
// the registered context symbols into it, makes its context module and
// points `__tvm_ffi__library_ctx` at that.
void AttachLibrary(Library& lib);
// The reverse, before the library is closed: clears `__tvm_ffi__library_ctx`
// if it still points at this library's context, and returns the context
// module for the caller to release (outside any lock).
ObjectPtr<Object> DetachLibrary(Library& lib);

// The module tree of a library: the library's module, or the tree a
// `__tvm_ffi__library_bin` composite describes (RuntimeError when that is
// malformed, e.g. has a cycle).
Module CreateLibraryModule(std::shared_ptr<Library> lib);

// The module of `ref`, which must be one this library made.
LibraryModuleObj* AsLibraryModule(const Module& ref);

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_MODULE_H_

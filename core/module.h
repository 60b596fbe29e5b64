// Modules: the ffi.Module objects libtvm_ffi makes from libraries.
// Library-internal.
#ifndef TVM_FFI_CORE_MODULE_H_
#define TVM_FFI_CORE_MODULE_H_

#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "library.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

class LibraryModuleObj;

// What the modules over one Library share while it is loaded.
struct LibraryModules {
  std::mutex mutex;
  // Guarded by mutex; oldest first.  A list, so that a module leaves it in
  // constant time however many modules are loaded.
  std::list<LibraryModuleObj*> live;
};

// A module over a Library: its functions are the library's `__tvm_ffi_<name>`
// symbols.  Kind "library".  A tvm::ffi::ModuleObj, so C++ code sees it
// through the public interface; the ffi.Module* globals use the members
// below, whose lookups through the imports walk without recursion.
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
  static Module Create(std::shared_ptr<Library> lib);
  // The context module of a library described as `description`.
  static ObjectPtr<ModuleObj> CreateContext(std::shared_ptr<LibraryModules> over,
                                            std::string description);
  // Use Create or CreateContext (the allocation gives the object the
  // deleter AsLibraryModule recognises).
  LibraryModuleObj(std::shared_ptr<Library> lib, std::shared_ptr<LibraryModules> over,
                   std::string description);
  ~LibraryModuleObj();
  LibraryModuleObj(const LibraryModuleObj&) = delete;
  LibraryModuleObj& operator=(const LibraryModuleObj&) = delete;

  // `library "<path>"` or `the system library ...`.
  const std::string& Describe() const { return description_; }

  // ModuleObj: this module alone.
  const char* kind() const final { return "library"; }
  int GetPropertyMask() const final;
  Optional<Function> GetFunction(const String& name) final;
  bool ImplementsFunction(const String& name) final;
  Optional<String> GetFunctionDoc(const String& name) final;
  Optional<String> GetFunctionMetadata(const String& name) final;
  void WriteToFile(const String& file_name, const String& format) const final;
  // RuntimeError when `other` already reaches this module through its
  // imports.  Written only by ImportModule, ClearImports and the loader;
  // not safe against concurrent readers.
  void ImportModule(const Module& other) final;
  void ClearImports() final;
  // The ModuleObj lookups that also search the imports.
  using ModuleObj::GetFunction;
  using ModuleObj::GetFunctionDoc;
  using ModuleObj::GetFunctionMetadata;
  using ModuleObj::ImplementsFunction;

  // TVMFFIEnvModLookupFromImports: the imports (each with its imports),
  // then the global registry.  The result is borrowed from this module's
  // cache.  RuntimeError when not found.
  TVMFFIObjectHandle LookupFromImports(const std::string& name);

  // The loader's way in (ProcessLibraryBin): imports without the checks.
  void AppendImport(const Module& other) { imports_.push_back(other); }
  // Where the reflected field `imports_` is, from the object header.
  static int64_t ImportsOffset() {
    return reflection::GetFieldByteOffsetToObject(&LibraryModuleObj::imports_);
  }

 private:
  // The first function `name` in the imports, this module left out.
  Optional<Function> FindInImports(const String& name);
  // The safe-call `__tvm_ffi_<name>`, or nullptr; cached (misses too).
  TVMFFISafeCallType FindSymbol(const std::string& name);
  // Calls a `__tvm_ffi__metadata_<name>`-style getter: no arguments, a str result.
  Optional<String> CallStringGetter(const std::string& symbol);

  std::shared_ptr<Library> lib_;          // null for a context module
  std::shared_ptr<LibraryModules> over_;  // the modules over the same library
  bool listed_ = false;                          // in over_->live (at position_)
  std::list<LibraryModuleObj*>::iterator position_;
  std::string description_;
  std::mutex mutex_;  // guards the three caches
  std::unordered_map<std::string, TVMFFISafeCallType> symbols_;
  std::unordered_map<std::string, WeakObjectPtr<FunctionObj>> functions_;
  std::unordered_map<std::string, Function> import_lookups_;  // strong
};

// Visits `root`, then every module its imports reach, depth first in import
// order, each once, until `visit` returns true (and then returns true).  An
// explicit stack: an import chain of any length is fine, and so is a cycle.
// TypeError when an `imports_` holds something that is not a module
// (core/cxx_api_module.cc, next to the ModuleObj lookups that use it).
bool VisitImportTree(ModuleObj* root, const std::function<bool(ModuleObj*)>& visit);

// Called once for a new Library, before any other thread can see it: writes
// the registered context symbols into it, makes its context module and
// points `__tvm_ffi__library_ctx` at that.
void AttachLibrary(Library& lib);
// The reverse, before the library is closed: clears `__tvm_ffi__library_ctx`
// if it still points at this library's context, and returns the context
// module for the caller to release (outside any lock).
ObjectPtr<ModuleObj> DetachLibrary(Library& lib);

// The module tree of a library: the library's module, or the tree a
// `__tvm_ffi__library_bin` composite describes (RuntimeError when that is
// malformed, e.g. has a cycle).
Module CreateLibraryModule(std::shared_ptr<Library> lib);

// The module of `ref`, which must be one this library made (TypeError
// otherwise, naming what it is).
LibraryModuleObj* AsLibraryModule(const ObjectRef& ref);
// The same for a borrowed handle (e.g. a library's `__tvm_ffi__library_ctx`).
LibraryModuleObj* AsLibraryModule(TVMFFIObjectHandle handle);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_MODULE_H_

// Libraries behind modules: a shared library opened with dlopen, or the
// process's system-library symbol table.  Library-internal.
#ifndef TVM_FFI_CORE_LIBRARY_H_
#define TVM_FFI_CORE_LIBRARY_H_

#include <tvm/ffi/extra/module.h>

#include <memory>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

struct LibraryModules;  // module.h

// A source of symbols.  Shared by the modules made from it; a shared
// library is closed when the last owner lets go.  One Library per loaded
// file: opening a file that is already open returns the same Library.
class Library {
 public:
  virtual ~Library() = default;
  // The address of `name`, or nullptr.
  virtual void* GetSymbol(const std::string& name) = 0;
  // The address of the exported function `name` (`__tvm_ffi_<name>` and
  // whatever variants the library's convention adds), or nullptr.
  virtual void* GetFunctionSymbol(const std::string& name);
  // For messages: `library "<path>"` or `the system library (prefix "p")`.
  virtual std::string Describe() const = 0;
  // The file the library was loaded from ("" when none).
  virtual std::string Path() const { return std::string(); }

  // Set by AttachLibrary (module.h) before the library is handed out, and
  // released by DetachLibrary before it is closed: the live modules over
  // the library, and the module `__tvm_ffi__library_ctx` points at.
  std::shared_ptr<LibraryModules> modules;
  ObjectPtr<ModuleObj> context;
};

// Opens `path` with dlopen(RTLD_LAZY | RTLD_LOCAL), or returns the Library
// of that file when it is open already.  ValueError when the path holds a
// NUL byte; RuntimeError naming the path and dlerror()'s reason when it
// cannot be loaded.
std::shared_ptr<Library> OpenSharedLibrary(const std::string& path);

// The system library: symbols registered with
// TVMFFIEnvModRegisterSystemLibSymbol.  A function `name` is looked up as
// `__tvm_ffi_<prefix><name>`, then `__tvm_ffi_<name>`.
std::shared_ptr<Library> MakeSystemLibrary(const std::string& prefix);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_LIBRARY_H_

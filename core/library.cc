// Libraries: shared libraries (dlopen) and the system-library symbol table.
#include "library.h"

#include <dlfcn.h>

#include <tvmffi/error.h>

#include "backtrace.h"
#include "env_internal.h"

namespace tvmffi {
namespace core {

namespace {

constexpr const char* kSymbolPrefix = "__tvm_ffi_";

class SharedLibrary final : public Library {
 public:
  SharedLibrary(std::string path, void* handle) : path_(std::move(path)), handle_(handle) {}
  ~SharedLibrary() override {
    dlclose(handle_);
    ForgetUnloadedLibraries();
  }
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  void* GetSymbol(const std::string& name) override { return dlsym(handle_, name.c_str()); }
  std::string Describe() const override { return "library \"" + path_ + "\""; }
  std::string Path() const override { return path_; }

 private:
  std::string path_;
  void* handle_;
};

class SystemLibrary final : public Library {
 public:
  explicit SystemLibrary(std::string prefix) : prefix_(std::move(prefix)) {}

  void* GetSymbol(const std::string& name) override {
    void* symbol = env::LookupSystemLibSymbol(prefix_ + name);
    return symbol != nullptr ? symbol : env::LookupSystemLibSymbol(name);
  }
  void* GetFunctionSymbol(const std::string& name) override {
    void* symbol = env::LookupSystemLibSymbol(kSymbolPrefix + prefix_ + name);
    return symbol != nullptr ? symbol : env::LookupSystemLibSymbol(kSymbolPrefix + name);
  }
  std::string Describe() const override {
    return prefix_.empty() ? "the system library" : "the system library (prefix \"" + prefix_ + "\")";
  }

 private:
  std::string prefix_;
};

}  // namespace

void* Library::GetFunctionSymbol(const std::string& name) { return GetSymbol(kSymbolPrefix + name); }

std::shared_ptr<Library> OpenSharedLibrary(const std::string& path) {
  // dlerror() is per thread; clear a stale message first.
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    TVMFFI_THROW(RuntimeError) << "cannot load the shared library \"" << path
                               << "\": " << (reason != nullptr ? reason : "unknown dlopen error");
  }
  try {
    return std::make_shared<SharedLibrary>(path, handle);
  } catch (...) {
    dlclose(handle);
    throw;
  }
}

std::shared_ptr<Library> MakeSystemLibrary(const std::string& prefix) {
  return std::make_shared<SystemLibrary>(prefix);
}

}  // namespace core
}  // namespace tvmffi

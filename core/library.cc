// Libraries: shared libraries (dlopen) and the system-library symbol table.
#include "library.h"

#include <dlfcn.h>
#include <pthread.h>

#include <mutex>
#include <unordered_map>

#include "error_internal.h"

#include "backtrace.h"
#include "env_internal.h"
#include "module.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

namespace {

constexpr const char* kSymbolPrefix = "__tvm_ffi_";

class SharedLibrary;

// The open shared libraries by dlopen handle.  dlopen of a file that is
// open already returns the same handle (and the library's globals, among
// them `__tvm_ffi__library_ctx`, are shared), so one Library stands for each
// handle.  Never destroyed: libraries may close during static destruction.
struct OpenLibraries {
  std::mutex mutex;
  std::unordered_map<void*, std::weak_ptr<SharedLibrary>> by_handle;  // guarded by mutex
  // Signalled when a dying library has removed its entry (see OpenSharedLibrary).
  // A pthread condition (waited on with `mutex`'s native handle), not
  // std::condition_variable: libstdc++ 12 versions condition_variable::wait
  // at GLIBCXX_3.4.30, which alone raised the wheel's manylinux tag from
  // 2_34 to 2_35.
  pthread_cond_t entry_removed = PTHREAD_COND_INITIALIZER;
};
OpenLibraries& Open() {
  static OpenLibraries* open = new OpenLibraries();
  return *open;
}

class SharedLibrary final : public Library {
 public:
  SharedLibrary(std::string path, void* handle) : path_(std::move(path)), handle_(handle) {}
  ~SharedLibrary() override {
    ObjectPtr<ModuleObj> context;
    {
      OpenLibraries& open = Open();
      std::lock_guard<std::mutex> lock(open.mutex);
      // Opens of this handle wait for this removal (OpenSharedLibrary), so
      // the entry is this library's own; the check keeps it so.
      auto it = open.by_handle.find(handle_);
      if (it != open.by_handle.end() && it->second.expired()) open.by_handle.erase(it);
      context = DetachLibrary(*this);
    }
    pthread_cond_broadcast(&Open().entry_removed);
    // Outside the lock (releasing runs deleters), and before the library's
    // code goes away.
    context.reset();
    modules.reset();
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
  // dlopen stops at a NUL: "\0.so" would open the main program.
  if (path.find('\0') != std::string::npos) {
    std::string shown;
    for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    TVM_FFI_CORE_THROW(ValueError) << "cannot load the shared library \"" << shown
                             << "\": the path holds a NUL byte";
  }
  if (path.empty()) {
    TVM_FFI_CORE_THROW(ValueError) << "cannot load a shared library from an empty path";
  }
  // dlerror() is per thread; clear a stale message first.
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    TVM_FFI_CORE_THROW(RuntimeError) << "cannot load the shared library \"" << path
                               << "\": " << (reason != nullptr ? reason : "unknown dlopen error");
  }
  OpenLibraries& open = Open();
  std::unique_lock<std::mutex> lock(open.mutex);
  // A library of this handle that is dying (no references left, destructor
  // not yet run) still owns `__tvm_ffi__library_ctx`: wait until its
  // destructor has detached it and removed its entry, so that the new
  // context is written after (and ordered after, through this mutex) every
  // use of the old one.
  for (;;) {
    auto it = open.by_handle.find(handle);
    if (it == open.by_handle.end()) break;
    if (std::shared_ptr<SharedLibrary> lib = it->second.lock()) {
      lock.unlock();
      dlclose(handle);  // the reference this call added; `lib` holds its own
      return lib;
    }
    pthread_cond_wait(&open.entry_removed, open.mutex.native_handle());
  }
  std::weak_ptr<SharedLibrary>& entry = open.by_handle[handle];
  std::shared_ptr<SharedLibrary> lib;
  try {
    lib = std::make_shared<SharedLibrary>(path, handle);
  } catch (...) {
    open.by_handle.erase(handle);
    lock.unlock();
    dlclose(handle);
    throw;
  }
  // From here `lib` owns the handle (its destructor takes the lock).
  try {
    // Attached under the lock: no other thread sees the library before its
    // context symbols and `__tvm_ffi__library_ctx` are written.
    AttachLibrary(*lib);
  } catch (...) {
    open.by_handle.erase(handle);
    lock.unlock();
    throw;
  }
  entry = lib;
  return lib;
}

std::shared_ptr<Library> MakeSystemLibrary(const std::string& prefix) {
  auto lib = std::make_shared<SystemLibrary>(prefix);
  AttachLibrary(*lib);
  return lib;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// Functions: C functions wrapped as objects, and the global function registry.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "error_internal.h"
#include "function_internal.h"
#include "global_def.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// A function made from a C safe-call and its closure (TVMFFIFunctionCreate).
// Its trampoline is left out of backtraces as machinery (backtrace.cc).
class CFunctionObj : public FunctionObj {
 public:
  CFunctionObj(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void*))
      : self_(self), safe_call_(safe_call), deleter_(deleter) {
    this->safe_call = &CFunctionObj::Trampoline;
    this->cpp_call = nullptr;
  }
  ~CFunctionObj() {
    if (deleter_ != nullptr) deleter_(self_);
  }
  CFunctionObj(const CFunctionObj&) = delete;
  CFunctionObj& operator=(const CFunctionObj&) = delete;

 private:
  static int Trampoline(void* handle, const TVMFFIAny* args, int32_t num_args,
                        TVMFFIAny* result) {
    CFunctionObj* f = static_cast<CFunctionObj*>(static_cast<Object*>(handle));
    return f->safe_call_(f->self_, args, num_args, result);
  }
  void* self_;
  TVMFFISafeCallType safe_call_;
  void (*deleter_)(void*);
};

// A function whose safe-call receives the function's own handle.
class DirectCFunctionObj : public FunctionObj {
 public:
  explicit DirectCFunctionObj(TVMFFISafeCallType safe_call) {
    this->safe_call = safe_call;
    this->cpp_call = nullptr;
  }
};

struct GlobalEntry {
  std::string name;
  std::string doc;
  std::string metadata;
  int64_t flags;
  ObjectRef func;
};

// Names map to entries; the string_view keys point into the entries' names.
class GlobalRegistry {
 public:
  static GlobalRegistry& Get() {
    // Never destroyed: functions of unloaded libraries must not run at exit.
    static GlobalRegistry* registry = new GlobalRegistry();
    return *registry;
  }

  void Set(std::string name, ObjectRef func, bool allow_override, std::string doc,
           std::string metadata, int64_t flags) {
    auto entry = std::make_unique<GlobalEntry>(GlobalEntry{
        std::move(name), std::move(doc), std::move(metadata), flags, std::move(func)});
    std::unique_ptr<GlobalEntry> replaced;
    {
      std::unique_lock<std::shared_mutex> lock(mutex_);
      auto it = table_.find(entry->name);
      if (it != table_.end()) {
        if (!allow_override) {
          TVM_FFI_CORE_THROW(RuntimeError)
              << "global function `" << entry->name
              << "` is already registered; pass allow_override to replace it";
        }
        replaced = std::move(it->second);
        table_.erase(it);
      }
      std::string_view key = entry->name;
      table_.emplace(key, std::move(entry));
    }
    // `replaced` is released here, outside the lock: its deleter may call back.
  }

  // A new reference, or NULL.
  TVMFFIObjectHandle Find(std::string_view name) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) return nullptr;
    ObjectRef func = it->second->func;
    return ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(func));
  }

  bool Remove(std::string_view name) {
    std::unique_ptr<GlobalEntry> removed;
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) return false;
    removed = std::move(it->second);
    table_.erase(it);
    lock.unlock();
    return true;
  }

  std::vector<std::string> Names() const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    std::vector<std::string> names;
    names.reserve(table_.size());
    for (const auto& kv : table_) names.push_back(kv.second->name);
    return names;
  }

  std::optional<std::string> Metadata(std::string_view name) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) return std::nullopt;
    return it->second->metadata;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string_view, std::unique_ptr<GlobalEntry>> table_;
};

}  // namespace

// ---------------------------------------------------------------------------
// Built-in globals about the registry itself.

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.FunctionRemoveGlobal", [](const String& name) {
  return GlobalRegistry::Get().Remove(std::string_view(name.data(), name.size()));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.GetGlobalFuncMetadata", [](const String& name) {
  std::optional<std::string> meta =
      GlobalRegistry::Get().Metadata(std::string_view(name.data(), name.size()));
  if (!meta.has_value()) {
    TVM_FFI_CORE_THROW(KeyError) << "global function `" << name << "` is not registered";
  }
  return String(*meta);
});

// f(-1) -> number of names; f(i) -> the i-th name (a snapshot taken now).
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.FunctionListGlobalNamesFunctor", []() {
  auto names = std::make_shared<std::vector<std::string>>(GlobalRegistry::Get().Names());
  return Function::FromTyped(
      [names](int64_t i) -> Any {
        if (i == -1) return Any(static_cast<int64_t>(names->size()));
        if (i < 0 || i >= static_cast<int64_t>(names->size())) {
          TVM_FFI_CORE_THROW(IndexError) << "index " << i << " out of range for "
                                   << names->size() << " global function names";
        }
        return Any(String((*names)[static_cast<size_t>(i)]));
      },
      "ffi.FunctionListGlobalNamesFunctor");
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.FunctionFromExternC", [](void* self, void* safe_call,
                                                           void* deleter) {
  if (safe_call == nullptr) {
    TVM_FFI_CORE_THROW(ValueError) << "ffi.FunctionFromExternC: safe_call must not be NULL";
  }
  TVMFFIObjectHandle h = MakeCFunction(self, reinterpret_cast<TVMFFISafeCallType>(safe_call),
                                       reinterpret_cast<void (*)(void*)>(deleter));
  return ObjectUnsafe::ObjectRefFromObjectPtr<Function>(
      ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(h)));
});


TVMFFIObjectHandle MakeCFunction(void* self, TVMFFISafeCallType safe_call,
                                 void (*deleter)(void*)) {
  if (self == nullptr && deleter == nullptr) {
    return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<DirectCFunctionObj>(safe_call));
  }
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
      make_object<CFunctionObj>(self, safe_call, deleter));
}

void GlobalFunctionSet(std::string name, TVMFFIObjectHandle func, bool allow_override,
                       std::string doc, std::string metadata, int64_t flags) {
  if (name.empty()) TVM_FFI_CORE_THROW(ValueError) << "a global function needs a non-empty name";
  int32_t type_index = func == nullptr ? kTVMFFINone : TVMFFIObjectGetTypeIndex(func);
  if (type_index != kTVMFFIFunction) {
    TVM_FFI_CORE_THROW(TypeError) << "global `" << name << "` must be an ffi.Function, got "
                                  << (func == nullptr ? std::string("None")
                                                      : TypeIndexToDisplayName(type_index));
  }
  GlobalRegistry::Get().Set(
      std::move(name),
      ObjectRef(ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<TVMFFIObject*>(func))),
      allow_override, std::move(doc), std::move(metadata), flags);
}

TVMFFIObjectHandle GlobalFunctionFind(std::string_view name) {
  return GlobalRegistry::Get().Find(name);
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

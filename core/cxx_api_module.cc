// The exported C++ members of tvm::ffi::ModuleObj and tvm::ffi::Module
// (tvm/ffi/extra/module.h): the vtable (its key function is ImportModule, so
// the header's inline defaults a subclass inherits are emitted here), the
// lookups that also search the imports, ImportModule/ClearImports, and
// Module::LoadFromFile / VisitContextSymbols.  The modules the core loads
// (core/module.h, LibraryModuleObj) are ModuleObj subclasses too.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/memory.h>

#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cxx_api_global.h"
#include "env_internal.h"
#include "module.h"
#include "module_identity.h"

namespace tvm {
namespace ffi {
namespace {

ModuleObj* ModuleOfHeader(TVMFFIObject* header) {
  return static_cast<ModuleObj*>(reinterpret_cast<Object*>(header));
}

ModuleObj* ModuleOf(const ObjectRef& module) {
  return const_cast<ModuleObj*>(static_cast<const ModuleObj*>(module.get()));
}

// The modules in an imports_ array, in order.  A subclass may fill its
// imports_ itself: anything that is not a module is refused.
std::vector<ObjectRef> ImportsOf(const Array<Any>& imports) {
  std::vector<ObjectRef> out;
  out.reserve(imports.size());
  for (size_t i = 0; i < imports.size(); ++i) {
    const Any& item = imports[i];
    if (item.type_index() != TypeIndex::kTVMFFIModule) {
      TVM_FFI_THROW(TypeError) << "ModuleObj: imports_[" << i
                               << "] is not an ffi.Module (type index " << item.type_index()
                               << ")";
    }
    out.push_back(item.cast<ObjectRef>());
  }
  return out;
}

}  // namespace

namespace detail {
namespace core {

bool VisitImportTree(ModuleObj* root, const std::function<bool(ModuleObj*)>& visit) {
  // The stack holds references: a visit may run code that changes imports.
  std::unordered_set<const ModuleObj*> seen{root};
  std::vector<ObjectRef> stack{
      ObjectRef(ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<Object*>(root)))};
  while (!stack.empty()) {
    ObjectRef ref = std::move(stack.back());
    stack.pop_back();
    ModuleObj* m = ModuleOf(ref);
    if (visit(m)) return true;
    std::vector<ObjectRef> imports = ImportsOf(m->imports());
    for (size_t i = imports.size(); i-- > 0;) {
      if (seen.insert(ModuleOf(imports[i])).second) stack.push_back(std::move(imports[i]));
    }
  }
  return false;
}

}  // namespace core
}  // namespace detail

// Imports ---------------------------------------------------------------------------

void ModuleObj::ImportModule(const Module& other) {
  if (!other.defined()) TVM_FFI_THROW(ValueError) << "ModuleObj::ImportModule: the module is None";
  ModuleObj* root = ModuleOf(other);
  // Refuse a cycle: this module must not be reachable from the imported one.
  if (detail::core::VisitImportTree(root, [this](ModuleObj* m) { return m == this; })) {
    TVM_FFI_THROW(RuntimeError) << "cannot import Module[" << root->kind() << "] into Module["
                                << kind() << "]: it would make a cycle of imports";
  }
  // Copy on write: another holder of the old array does not see the change.
  imports_.push_back(Any(other));
}

void ModuleObj::ClearImports() { imports_ = Array<Any>(); }

// Lookups through the imports (depth first, after this module; each module
// once, without recursion) ----------------------------------------------------------

Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  if (!query_imports) return GetFunction(name);
  Optional<Function> found;
  detail::core::VisitImportTree(this, [&](ModuleObj* m) {
    found = m->GetFunction(name);
    return found.has_value();
  });
  return found;
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (!query_imports) return ImplementsFunction(name);
  return detail::core::VisitImportTree(this,
                                       [&](ModuleObj* m) { return m->ImplementsFunction(name); });
}

Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  if (!query_imports) return GetFunctionDoc(name);
  Optional<String> found;
  detail::core::VisitImportTree(this, [&](ModuleObj* m) {
    found = m->GetFunctionDoc(name);
    return found.has_value();
  });
  return found;
}

Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  if (!query_imports) return GetFunctionMetadata(name);
  Optional<String> found;
  detail::core::VisitImportTree(this, [&](ModuleObj* m) {
    found = m->GetFunctionMetadata(name);
    return found.has_value();
  });
  return found;
}

// TVMFFIEnvModLookupFromImports on a ModuleObj subclass ------------------------------

// A library built against the C++ headers may hand its own ModuleObj to the
// loader as `__tvm_ffi__library_ctx`; its generated code then resolves
// callees through TVMFFIEnvModLookupFromImports(ctx, name).  The answer is
// the first of: the cache, the module's imports (each searched with its own
// imports, depth first, as GetFunction(name, true) does), the global
// registry.  A found function is kept in
// import_lookup_cache_, which owns it: the handle returned is borrowed and
// stays valid while the module lives.  One process-wide mutex (the static
// local below, whose name upstream's library exports too) serialises the
// lookups, since a cache is shared by every thread that calls into the module.
struct ModuleObj::InternalUnsafe {
  static TVMFFIObjectHandle GetFunctionFromImports(ModuleObj* module, const char* name) {
    static std::mutex mutex_;
    std::lock_guard<std::mutex> lock(mutex_);
    String key(name);
    auto cached = module->import_lookup_cache_.find(key);
    if (cached != module->import_lookup_cache_.end()) {
      return detail::ObjectUnsafe::GetHeader((*cached).second.get());
    }
    Optional<Function> found;
    detail::core::VisitImportTree(module, [&](ModuleObj* m) {
      if (m != module) found = m->GetFunction(key);
      return found.has_value();
    });
    if (!found.has_value()) found = Function::GetGlobal(key);
    if (!found.has_value()) {
      TVM_FFI_THROW(RuntimeError) << "TVMFFIEnvModLookupFromImports: cannot find function `"
                                  << name << "` in the imports of Module[" << module->kind()
                                  << "] or in the global function registry";
    }
    module->import_lookup_cache_.Set(key, *found);
    return detail::ObjectUnsafe::GetHeader(found.value().get());
  }
};

// Module ------------------------------------------------------------------------------

Module Module::LoadFromFile(const String& file_name) {
  // ffi.Module's registration through the static local that a subclass
  // compiled against upstream's header shares with this library (the type is
  // built in, so this only confirms its index).  Upstream's library exports
  // that static local; calling the function here makes ours export it too.
  ModuleObj::_GetOrAllocRuntimeTypeIndex();
  return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleLoadFromFile")(file_name).cast<Module>();
}

void Module::VisitContextSymbols(const TypedFunction<void(String, void*)>& callback) {
  for (const auto& [name, symbol] : detail::core::env::ContextSymbols()) {
    callback(String(name), symbol);
  }
}

}  // namespace ffi
}  // namespace tvm

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

int LookupFromModuleObjImports(TVMFFIObjectHandle library_ctx, const char* name,
                               TVMFFIObjectHandle* out) noexcept {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = ModuleObj::InternalUnsafe::GetFunctionFromImports(
      ModuleOfHeader(static_cast<TVMFFIObject*>(library_ctx)), name);
  TVM_FFI_SAFE_CALL_END();
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

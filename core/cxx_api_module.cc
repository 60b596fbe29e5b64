// The exported C++ members of tvm::ffi::ModuleObj and tvm::ffi::Module
// (tvm/ffi/extra/module.h): the vtable (its key function is ImportModule, so
// the header's inline defaults a subclass inherits are emitted here), the
// lookups that also search the imports, ImportModule/ClearImports, and
// Module::LoadFromFile / VisitContextSymbols.
//
// A module loaded by the core (core/module.cc, LibraryModuleObj) has the
// core's own layout, not ModuleObj's, so no ModuleObj member may be called on
// it.  Module::LoadFromFile and ImportModule therefore hand such a module out
// inside a CoreModuleProxy, a ModuleObj that forwards to the ffi.Module*
// global functions.
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
#include "module_identity.h"

namespace tvm {
namespace ffi {
namespace {

TVMFFIObject* HeaderOf(const ObjectRef& ref) {
  return ref.defined() ? detail::ObjectUnsafe::GetHeader(ref.get()) : nullptr;
}

ModuleObj* ModuleOfHeader(TVMFFIObject* header) {
  return static_cast<ModuleObj*>(reinterpret_cast<Object*>(header));
}

// A core library module seen through ModuleObj's interface.
class CoreModuleProxy final : public ModuleObj {
 public:
  explicit CoreModuleProxy(Any core)
      : core_(std::move(core)),
        kind_(TVM_FFI_CXX_API_GLOBAL("ffi.ModuleGetKind")(core_).cast<String>()) {
    // The type's registration, through the static local a subclass compiled
    // against upstream's header shares with us (ffi.Module is built in, so
    // this only confirms its index).
    ModuleObj::_GetOrAllocRuntimeTypeIndex();
  }

  const char* kind() const final { return kind_.c_str(); }
  int GetPropertyMask() const final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleGetPropertyMask")(core_).cast<int>();
  }
  // The lookups include the core module's own imports (the core keeps
  // them; this proxy's imports_ holds only what is imported into the proxy).
  Optional<Function> GetFunction(const String& name) final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleGetFunction")(core_, name, true)
        .cast<Optional<Function>>();
  }
  bool ImplementsFunction(const String& name) final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleImplementsFunction")(core_, name, true)
        .cast<bool>();
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleGetFunctionDoc")(core_, name, true)
        .cast<Optional<String>>();
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleGetFunctionMetadata")(core_, name, true)
        .cast<Optional<String>>();
  }
  void WriteToFile(const String& file_name, const String& format) const final {
    TVM_FFI_CXX_API_GLOBAL("ffi.ModuleWriteToFile")(core_, file_name, format);
  }
  Array<String> GetWriteFormats() const final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleGetWriteFormats")(core_).cast<Array<String>>();
  }
  String InspectSource(const String& format) const final {
    return TVM_FFI_CXX_API_GLOBAL("ffi.ModuleInspectSource")(core_, format).cast<String>();
  }

 private:
  Any core_;
  std::string kind_;
};

// `module` as a ModuleObj reference: itself, or a proxy when the core made it.
ObjectRef AsModuleObjRef(const ObjectRef& module) {
  if (detail::core::IsCoreLibraryModule(HeaderOf(module))) {
    return ObjectRef(make_object<CoreModuleProxy>(Any(module)));
  }
  return module;
}

// The modules in an imports_ array (null: none) as ModuleObj references.
// A subclass may fill its imports_ itself, with any ffi.Module: a core
// library module there is seen through a proxy too.
std::vector<ObjectRef> ImportsOf(const ObjectRef& imports) {
  std::vector<ObjectRef> out;
  TVMFFIObject* array = HeaderOf(imports);
  if (array == nullptr) return out;
  const TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(array);
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
  out.reserve(static_cast<size_t>(cell->size));
  for (int64_t i = 0; i < cell->size; ++i) {
    if (items[i].type_index != TypeIndex::kTVMFFIModule) {
      TVM_FFI_THROW(TypeError) << "ModuleObj: imports_[" << i
                               << "] is not an ffi.Module (type index " << items[i].type_index
                               << ")";
    }
    out.push_back(AsModuleObjRef(AnyView::CopyFromTVMFFIAny(items[i]).cast<ObjectRef>()));
  }
  return out;
}

ModuleObj* ModuleOf(const ObjectRef& module) { return ModuleOfHeader(HeaderOf(module)); }

}  // namespace

// Imports ---------------------------------------------------------------------------

void ModuleObj::ImportModule(const Module& other) {
  if (!other.defined()) TVM_FFI_THROW(ValueError) << "ModuleObj::ImportModule: the module is None";
  ObjectRef imported = AsModuleObjRef(other);
  ModuleObj* root = ModuleOf(imported);
  // Refuse a cycle: this module must not be reachable from the imported one.
  // `walked` keeps every module of the walk alive (ImportsOf may make proxies).
  std::unordered_set<const ModuleObj*> seen{root};
  std::vector<ObjectRef> stack{imported};
  std::vector<ObjectRef> walked;
  while (!stack.empty()) {
    ObjectRef ref = std::move(stack.back());
    stack.pop_back();
    ModuleObj* m = ModuleOf(ref);
    if (m == this) {
      TVM_FFI_THROW(RuntimeError) << "cannot import Module[" << root->kind() << "] into Module["
                                  << kind() << "]: it would make a cycle of imports";
    }
    for (ObjectRef& next : ImportsOf(m->imports_)) {
      if (seen.insert(ModuleOf(next)).second) stack.push_back(std::move(next));
    }
    walked.push_back(std::move(ref));
  }
  // Copy on write: another holder of the old array does not see the change.
  imports_.push_back(Any(imported));
}

void ModuleObj::ClearImports() { imports_ = Array<Any>(); }

// Lookups through the imports (depth first, after this module) ---------------------

Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  Optional<Function> found = GetFunction(name);
  if (found.has_value() || !query_imports) return found;
  for (const ObjectRef& m : ImportsOf(imports_)) {
    found = ModuleOf(m)->GetFunction(name, true);
    if (found.has_value()) return found;
  }
  return std::nullopt;
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (ImplementsFunction(name)) return true;
  if (!query_imports) return false;
  for (const ObjectRef& m : ImportsOf(imports_)) {
    if (ModuleOf(m)->ImplementsFunction(name, true)) return true;
  }
  return false;
}

Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  Optional<String> found = GetFunctionDoc(name);
  if (found.has_value() || !query_imports) return found;
  for (const ObjectRef& m : ImportsOf(imports_)) {
    found = ModuleOf(m)->GetFunctionDoc(name, true);
    if (found.has_value()) return found;
  }
  return std::nullopt;
}

Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  Optional<String> found = GetFunctionMetadata(name);
  if (found.has_value() || !query_imports) return found;
  for (const ObjectRef& m : ImportsOf(imports_)) {
    found = ModuleOf(m)->GetFunctionMetadata(name, true);
    if (found.has_value()) return found;
  }
  return std::nullopt;
}

// TVMFFIEnvModLookupFromImports on a ModuleObj subclass ------------------------------

// A library built against the C++ headers may hand its own ModuleObj to the
// loader as `__tvm_ffi__library_ctx`; its generated code then resolves
// callees through TVMFFIEnvModLookupFromImports(ctx, name).  The answer is
// the first of: the cache, the module's imports (each searched with its own
// imports, depth first), the global registry.  A found function is kept in
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
    for (const ObjectRef& m : ImportsOf(module->imports_)) {
      found = ModuleOf(m)->GetFunction(key, true);
      if (found.has_value()) break;
    }
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
  ObjectRef core = TVM_FFI_CXX_API_GLOBAL("ffi.ModuleLoadFromFile")(file_name).cast<ObjectRef>();
  ObjectRef proxy = AsModuleObjRef(core);
  return Module(detail::ObjectUnsafe::ObjectPtrFromObjectRef<ModuleObj>(proxy));
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

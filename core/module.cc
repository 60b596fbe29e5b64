// Modules: library modules, composite modules of `__tvm_ffi__library_bin`,
// the system library, and the ffi.Module* global functions.
#include "module.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>
#include <vector>

#include "impl/reflection.h"
#include "env_internal.h"
#include "module_identity.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
// The internals already moved to tvm::ffi::details::core (issue 19).
using namespace ::tvm::ffi::detail::core;

namespace {

constexpr const char* kLibraryCtxSymbol = "__tvm_ffi__library_ctx";
constexpr const char* kLibraryBinSymbol = "__tvm_ffi__library_bin";
constexpr const char* kMetadataPrefix = "__tvm_ffi__metadata_";
constexpr const char* kDocPrefix = "__tvm_ffi__doc_";

// A function of a library module: calls the symbol with handle = NULL and
// keeps the module (and so the library) alive.
class LibraryFunctionObj final : public FunctionObj {
 public:
  LibraryFunctionObj(ObjectPtr<Object> module, TVMFFISafeCallType symbol)
      : module_(std::move(module)), symbol_(symbol) {
    cell.safe_call = &LibraryFunctionObj::Call;
    cell.cpp_call = nullptr;
  }

 private:
  static int Call(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    auto* self = static_cast<LibraryFunctionObj*>(Object::FromHandle(handle));
    int rc = self->symbol_(nullptr, args, num_args, result);
    if (rc != 0 || type_registry::IsUsableValue(*result)) return rc;
    // The library returned a value nobody can use (an unknown type index, or
    // an object type without its object): refused here, since callers such
    // as the Python extension call this without going through
    // TVMFFIFunctionCall.  It cannot be released, so it is dropped.
    TVMFFIAny bad = *result;
    std::memset(result, 0, sizeof(TVMFFIAny));
    try {
      type_registry::ThrowUnusableValue(bad, "a function of a module returned a value that");
    } catch (...) {
      return SetRaisedFromCurrentException();
    }
  }
  ObjectPtr<Object> module_;
  TVMFFISafeCallType symbol_;
};

ObjectPtr<Object> SelfPtr(LibraryModuleObj* self) {
  return ObjectPtr<Object>::Borrow(static_cast<Object*>(self));
}

}  // namespace

namespace {

// Visits `root`, then the modules its imports reach, depth-first in import
// order, each once, until `visit` returns true.  An explicit stack: an
// import chain of any length is fine, and so is a cycle.
template <typename Visit>
bool VisitImports(LibraryModuleObj* root, Visit visit) {
  std::unordered_set<const LibraryModuleObj*> seen{root};
  std::vector<LibraryModuleObj*> stack{root};
  while (!stack.empty()) {
    LibraryModuleObj* m = stack.back();
    stack.pop_back();
    if (visit(m)) return true;
    const Array<Module>& imports = m->imports_;
    for (size_t i = imports.size(); i-- > 0;) {
      LibraryModuleObj* next = AsLibraryModule(imports[i]);
      if (seen.insert(next).second) stack.push_back(next);
    }
  }
  return false;
}

// Whether `target` is `from` or is reached from it through imports.
bool Reaches(LibraryModuleObj* from, const LibraryModuleObj* target) {
  return VisitImports(from, [&](LibraryModuleObj* m) { return m == target; });
}

}  // namespace

LibraryModuleObj::LibraryModuleObj(std::shared_ptr<Library> lib)
    : lib_(std::move(lib)), over_(lib_->modules), description_(lib_->Describe()) {}

ObjectPtr<Object> LibraryModuleObj::Create(std::shared_ptr<Library> lib) {
  ObjectPtr<LibraryModuleObj> m = MakeObject<LibraryModuleObj>(std::move(lib));
  // Listed only now that the header is written: the context promotes
  // listed modules through it.
  std::lock_guard<std::mutex> lock(m->over_->mutex);
  m->over_->live.push_back(m.get());
  return ObjectPtr<Object>(std::move(m));
}

LibraryModuleObj::LibraryModuleObj(std::shared_ptr<LibraryModules> over, std::string description)
    : over_(std::move(over)), description_(std::move(description)) {}

LibraryModuleObj::~LibraryModuleObj() {
  if (lib_ != nullptr) {
    std::lock_guard<std::mutex> lock(over_->mutex);
    auto& live = over_->live;
    auto it = std::find(live.begin(), live.end(), this);
    if (it != live.end()) live.erase(it);
  }
  for (auto& kv : functions_) Object::DecWeakRef(kv.second);
}

TVMFFISafeCallType LibraryModuleObj::FindSymbol(const std::string& name) {
  if (lib_ == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = symbols_.find(name);
  if (it != symbols_.end()) return it->second;
  auto symbol = reinterpret_cast<TVMFFISafeCallType>(lib_->GetFunctionSymbol(name));
  symbols_.emplace(name, symbol);
  return symbol;
}

std::optional<Function> LibraryModuleObj::GetOwnFunction(const std::string& name) {
  TVMFFISafeCallType symbol = FindSymbol(name);
  if (symbol == nullptr) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = functions_.find(name);
  if (it != functions_.end()) {
    if (Object::TryPromoteWeak(it->second)) {
      return Function(ObjectPtr<Object>::AdoptHandle(it->second));
    }
    Object::DecWeakRef(it->second);  // dead: its storage may go now
    functions_.erase(it);
  }
  ObjectPtr<Object> f(MakeObject<LibraryFunctionObj>(SelfPtr(this), symbol));
  Object::IncWeakRef(&f->header_);
  functions_.emplace(name, &f->header_);
  return Function(std::move(f));
}

std::optional<Function> LibraryModuleObj::GetFunction(const std::string& name,
                                                      bool query_imports) {
  if (!query_imports) return GetOwnFunction(name);
  std::optional<Function> f;
  VisitImports(this, [&](LibraryModuleObj* m) {
    f = m->GetOwnFunction(name);
    return f.has_value();
  });
  return f;
}

std::optional<Function> LibraryModuleObj::FindInImports(const std::string& name) {
  std::optional<Function> f;
  VisitImports(this, [&](LibraryModuleObj* m) {
    if (m != this) f = m->GetOwnFunction(name);
    return f.has_value();
  });
  return f;
}

std::optional<std::string> LibraryModuleObj::CallStringGetter(const std::string& symbol_name) {
  if (lib_ == nullptr) return std::nullopt;
  auto getter = reinterpret_cast<TVMFFISafeCallType>(lib_->GetSymbol(symbol_name));
  if (getter == nullptr) return std::nullopt;
  Any rv;
  int rc = getter(nullptr, nullptr, 0, rv.result_slot());
  if (rc != 0) ThrowRaised(rc);
  std::optional<std::string> text = rv.TryAs<std::string>();
  if (!text.has_value()) {
    TVM_FFI_IMPL_THROW(TypeError) << symbol_name << " of " << description_
                            << " must return a str, got "
                            << TypeIndexToDisplayName(rv.type_index());
  }
  return text;
}

std::optional<std::string> LibraryModuleObj::GetFunctionMetadata(const std::string& name,
                                                                 bool query_imports) {
  std::optional<std::string> text;
  VisitImports(this, [&](LibraryModuleObj* m) {
    text = m->CallStringGetter(kMetadataPrefix + name);
    return text.has_value() || !query_imports;
  });
  return text;
}

std::optional<std::string> LibraryModuleObj::GetFunctionDoc(const std::string& name,
                                                            bool query_imports) {
  std::optional<std::string> text;
  VisitImports(this, [&](LibraryModuleObj* m) {
    text = m->CallStringGetter(kDocPrefix + name);
    return text.has_value() || !query_imports;
  });
  return text;
}

bool LibraryModuleObj::ImplementsFunction(const std::string& name, bool query_imports) {
  if (!query_imports) return FindSymbol(name) != nullptr;
  return VisitImports(this, [&](LibraryModuleObj* m) { return m->FindSymbol(name) != nullptr; });
}

void LibraryModuleObj::ImportModule(const Module& other) {
  LibraryModuleObj* root = AsLibraryModule(other);
  if (lib_ == nullptr) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "cannot import into the context module of " << description_;
  }
  // Refuse a cycle: this module must not be reachable from `other`.
  if (Reaches(root, this)) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "cannot import " << root->description_ << " into "
                               << description_ << ": it would make a cycle of imports";
  }
  imports_.push_back(other);
}

void LibraryModuleObj::ClearImports() { imports_ = Array<Module>(); }

TVMFFIObjectHandle LibraryModuleObj::LookupFromImports(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = import_lookups_.find(name);
  if (it != import_lookups_.end()) return it->second.handle();
  std::optional<Function> found;
  if (lib_ != nullptr) {
    found = FindInImports(name);
  } else {
    // The context module: the imports of the live modules over the
    // library, newest first.  A module whose last reference is going away
    // (strong count 0, destructor not yet run) is skipped.
    std::vector<ObjectPtr<Object>> live;
    {
      std::lock_guard<std::mutex> live_lock(over_->mutex);
      for (size_t i = over_->live.size(); i-- > 0;) {
        TVMFFIObject* h = &over_->live[i]->header_;
        if (Object::TryPromoteWeak(h)) live.push_back(ObjectPtr<Object>::AdoptHandle(h));
      }
    }
    for (const ObjectPtr<Object>& m : live) {
      found = static_cast<LibraryModuleObj*>(m.get())->FindInImports(name);
      if (found.has_value()) break;
    }
  }
  if (!found.has_value()) found = Function::GetGlobal(name);
  if (!found.has_value()) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "TVMFFIEnvModLookupFromImports: cannot find function `" << name
                               << "` in the imports of " << description_
                               << " or in the global function registry";
  }
  TVMFFIObjectHandle h = found->handle();
  import_lookups_.emplace(name, std::move(*found));
  return h;
}

LibraryModuleObj* AsLibraryModule(const Module& ref) {
  // Only objects this library made carry this deleter: a module another
  // library made has a layout of its own.
  if (!ref.defined() || ref.type_index() != kTVMFFIModule ||
      TVM_FFI_OBJECT_DELETER(static_cast<TVMFFIObject*>(ref.handle())) !=
          &detail::ObjectDeleter<LibraryModuleObj>) {
    TVM_FFI_IMPL_THROW(TypeError) << "expected an ffi.Module made by libtvm_ffi, got "
                            << (ref.defined() ? TypeIndexToDisplayName(ref.type_index())
                                              : std::string("None"));
  }
  return static_cast<LibraryModuleObj*>(ref.get_mutable());
}

// ---------------------------------------------------------------------------
// Loading

namespace {

// Reads the little-endian pieces of a `__tvm_ffi__library_bin` blob; every
// read is bounds-checked against the declared size.
class BinReader {
 public:
  BinReader(const unsigned char* data, uint64_t size, std::string where)
      : data_(data), size_(size), where_(std::move(where)) {}

  uint64_t U64() {
    Need(8, "an integer");
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return v;
  }
  std::string Str(const char* what) {
    uint64_t n = U64();
    Need(n, what);
    std::string s(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(n));
    pos_ += n;
    return s;
  }
  std::vector<uint64_t> Vec(const char* what) {
    uint64_t n = U64();
    if (n > (size_ - pos_) / 8) Fail(std::string("the ") + what + " runs past the end");
    std::vector<uint64_t> v(static_cast<size_t>(n));
    for (auto& x : v) x = U64();
    return v;
  }
  [[noreturn]] void Fail(const std::string& why) const {
    TVM_FFI_IMPL_THROW(RuntimeError) << "malformed " << kLibraryBinSymbol << " in " << where_ << ": "
                               << why;
  }

 private:
  void Need(uint64_t n, const char* what) const {
    if (n > size_ - pos_) Fail(std::string(what) + " runs past the end");
  }
  const unsigned char* data_;
  uint64_t size_;
  uint64_t pos_ = 0;
  std::string where_;
};

Module LoadFromBytes(const std::string& kind, const std::string& payload) {
  std::string loader = "ffi.Module.load_from_bytes." + kind;
  std::optional<Function> f = Function::GetGlobal(loader);
  if (!f.has_value()) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "the library embeds a module of kind `" << kind
                               << "`, but no loader `" << loader << "` is registered";
  }
  Any m = (*f)(Bytes(payload.data(), payload.size()));
  std::optional<Module> mod = m.TryAs<Module>();
  if (!mod.has_value() || !mod->defined()) {
    TVM_FFI_IMPL_THROW(TypeError) << loader << " must return an ffi.Module, got "
                            << TypeIndexToDisplayName(m.type_index());
  }
  return *mod;
}

// Rebuilds the module tree of a composite library (the "_lib" entries are
// modules over the library itself).
Module ProcessLibraryBin(const unsigned char* bin, const std::shared_ptr<Library>& lib) {
  uint64_t nbytes = BinReader(bin, 8, lib->Describe()).U64();
  BinReader in(bin + 8, nbytes, lib->Describe());
  std::vector<uint64_t> indptr = in.Vec("import tree");
  std::vector<uint64_t> children = in.Vec("import tree");
  if (indptr.size() < 2) in.Fail("the import tree lists no module");
  size_t n = indptr.size() - 1;
  std::vector<Module> modules;
  for (size_t i = 0; i < n; ++i) {
    std::string kind = in.Str("a module kind");
    if (kind == "_lib") {
      modules.emplace_back(LibraryModuleObj::Create(lib));
    } else {
      modules.push_back(LoadFromBytes(kind, in.Str("a module payload")));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (indptr[i] > indptr[i + 1] || indptr[i + 1] > children.size()) {
      in.Fail("the import tree's index pointers are out of order");
    }
    for (uint64_t j = indptr[i]; j < indptr[i + 1]; ++j) {
      if (children[j] >= n) in.Fail("an import refers to module " + std::to_string(children[j]));
      LibraryModuleObj* importer = AsLibraryModule(modules[i]);
      // As ImportModule: no module may reach itself through its imports.
      if (Reaches(AsLibraryModule(modules[children[j]]), importer)) {
        in.Fail("module " + std::to_string(i) + " imports module " + std::to_string(children[j]) +
                ", which makes a cycle of imports");
      }
      importer->imports_.push_back(modules[children[j]]);
    }
  }
  return modules[0];
}

}  // namespace

void AttachLibrary(Library& lib) {
  for (const auto& [name, value] : env::ContextSymbols()) {
    if (void** slot = static_cast<void**>(lib.GetSymbol(name))) *slot = value;
  }
  lib.modules = std::make_shared<LibraryModules>();
  lib.context = ObjectPtr<Object>(MakeObject<LibraryModuleObj>(lib.modules, lib.Describe()));
  if (void** ctx = static_cast<void**>(lib.GetSymbol(kLibraryCtxSymbol))) {
    *ctx = lib.context->handle();
  }
}

ObjectPtr<Object> DetachLibrary(Library& lib) {
  if (lib.context != nullptr) {
    void** ctx = static_cast<void**>(lib.GetSymbol(kLibraryCtxSymbol));
    if (ctx != nullptr && *ctx == lib.context->handle()) *ctx = nullptr;
  }
  return std::move(lib.context);
}

Module CreateLibraryModule(std::shared_ptr<Library> lib) {
  auto* bin = static_cast<const unsigned char*>(lib->GetSymbol(kLibraryBinSymbol));
  if (bin != nullptr) {
    return ProcessLibraryBin(bin, lib);
  }
  return Module(LibraryModuleObj::Create(std::move(lib)));
}

namespace {

// ffi.ModuleLoadFromFile: the format is the text after the last '.'.
Module LoadFromFile(const std::string& path) {
  // Every loader takes a C path: a NUL would cut it short ("\0.so" would
  // open the main program).
  if (path.find('\0') != std::string::npos) {
    std::string shown;
    for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    TVM_FFI_IMPL_THROW(ValueError) << "cannot load \"" << shown << "\": the path holds a NUL byte";
  }
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "cannot tell the format of \"" << path
                               << "\": the file name has no extension (expected e.g. \".so\")";
  }
  std::string format = path.substr(dot + 1);
  if (format == "dll" || format == "dylib" || format == "dso") format = "so";
  std::string loader = "ffi.Module.load_from_file." + format;
  std::optional<Function> f = Function::GetGlobal(loader);
  if (!f.has_value()) {
    TVM_FFI_IMPL_THROW(RuntimeError) << "cannot load \"" << path << "\": no loader for `." << format
                               << "` files (global function `" << loader
                               << "` is not registered)";
  }
  return (*f)(String(path), format).As<Module>();
}

// One system-library module per prefix, for the process's lifetime.
Module SystemLib(const std::string& prefix) {
  static std::mutex* mutex = new std::mutex();
  static auto* modules = new std::unordered_map<std::string, Module>();
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = modules->find(prefix);
  if (it != modules->end()) return it->second;
  Module m = CreateLibraryModule(MakeSystemLibrary(prefix));
  modules->emplace(prefix, m);
  return m;
}

// ffi.ModuleGlobalsAdd/Remove: modules kept loaded until the process ends.
struct KeptModules {
  std::mutex mutex;
  std::unordered_map<TVMFFIObjectHandle, Module> modules;  // guarded by mutex
};
KeptModules& Kept() {
  static KeptModules* kept = new KeptModules();  // never destroyed: see SystemLib
  return *kept;
}

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleLoadFromFile", &LoadFromFile);

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.Module.load_from_file.so",
                       [](const std::string& path, const std::string& /*format*/) {
                         return CreateLibraryModule(OpenSharedLibrary(path));
                       });

TVM_FFI_IMPL_REGISTER_GLOBAL_PACKED("ffi.SystemLib", [](const AnyView* args, int32_t num_args,
                                                  Any* rv) {
  if (num_args > 1) {
    TVM_FFI_IMPL_THROW(TypeError) << "ffi.SystemLib: expected 0 or 1 arguments, got " << num_args;
  }
  std::string prefix = num_args == 0 ? std::string() : args[0].As<std::string>();
  *rv = SystemLib(prefix);
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGetFunction",
                       [](const Module& m, const std::string& name, bool query_imports) {
                         return AsLibraryModule(m)->GetFunction(name, query_imports);
                       });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleImplementsFunction",
                       [](const Module& m, const std::string& name, bool query_imports) {
                         return AsLibraryModule(m)->ImplementsFunction(name, query_imports);
                       });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGetFunctionMetadata",
                       [](const Module& m, const std::string& name, bool query_imports) {
                         return AsLibraryModule(m)->GetFunctionMetadata(name, query_imports);
                       });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGetFunctionDoc",
                       [](const Module& m, const std::string& name, bool query_imports) {
                         return AsLibraryModule(m)->GetFunctionDoc(name, query_imports);
                       });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGetPropertyMask", [](const Module& m) {
  AsLibraryModule(m);
  return static_cast<int64_t>(kModuleBinarySerializable | kModuleRunnable);
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGetKind", [](const Module& m) {
  AsLibraryModule(m);
  return std::string("library");
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleDescribe",
                       [](const Module& m) { return AsLibraryModule(m)->Describe(); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleInspectSource", [](const Module& m, const std::string&) {
  AsLibraryModule(m);
  return std::string();
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGetWriteFormats", [](const Module& m) {
  AsLibraryModule(m);
  return Array<String>();
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleWriteToFile",
                       [](const Module& m, const std::string& file, const std::string&) {
                         TVM_FFI_IMPL_THROW(RuntimeError)
                             << "Module[library] does not support WriteToFile (asked to write "
                             << AsLibraryModule(m)->Describe() << " to \"" << file
                             << "\")";
                       });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleImportModule", [](const Module& m, const Module& other) {
  AsLibraryModule(m)->ImportModule(other);
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleClearImports",
                       [](const Module& m) { AsLibraryModule(m)->ClearImports(); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGlobalsAdd", [](const Module& m) {
  KeptModules& kept = Kept();
  std::lock_guard<std::mutex> lock(kept.mutex);
  kept.modules.emplace(m.handle(), m);
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ModuleGlobalsRemove", [](const Module& m) {
  Module released;  // dropped after the lock: unloading may run library code
  {
    KeptModules& kept = Kept();
    std::lock_guard<std::mutex> lock(kept.mutex);
    auto it = kept.modules.find(m.handle());
    if (it == kept.modules.end()) return;
    released = std::move(it->second);
    kept.modules.erase(it);
  }
});

// `imports_`, read-only, as upstream reflects it.
const bool kModuleReflection = [] {
  ObjectDef<LibraryModuleObj>("A module: functions loaded from a library.")
      .ReadOnlyField("imports_", &LibraryModuleObj::imports_, "The imported modules.");
  return true;
}();

}  // namespace

namespace {

// ffi.Module is final in the "__ffi_type_final__" column, as upstream
// publishes it (a module kind is a C++ subclass, not a registered type).
const bool kModuleFinal = RunAtLoad([] {
  type_registry::RegisterAttr(kTVMFFIModule, "__ffi_type_final__", *Any(true).raw());
});

}  // namespace

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

bool IsCoreLibraryModule(const TVMFFIObject* obj) {
  return obj != nullptr && obj->type_index == kTVMFFIModule &&
         TVM_FFI_OBJECT_DELETER(const_cast<TVMFFIObject*>(obj)) ==
             &::tvm::ffi::detail::impl::detail::ObjectDeleter<::tvm::ffi::detail::impl::LibraryModuleObj>;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

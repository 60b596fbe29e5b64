// Modules: library modules, composite modules of `__tvm_ffi__library_bin`,
// the system library, and the ffi.Module* global functions.
#include "module.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <new>
#include <unordered_set>
#include <utility>
#include <vector>

#include "env_internal.h"
#include "error_internal.h"
#include "global_def.h"
#include "init_once.h"
#include "module_identity.h"
#include "object_internal.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

namespace {

constexpr const char* kLibraryCtxSymbol = "__tvm_ffi__library_ctx";
constexpr const char* kLibraryBinSymbol = "__tvm_ffi__library_bin";
constexpr const char* kMetadataPrefix = "__tvm_ffi__metadata_";
constexpr const char* kDocPrefix = "__tvm_ffi__doc_";

// A function of a library module: calls the symbol with handle = NULL and
// keeps the module (and so the library) alive.
class LibraryFunctionObj final : public FunctionObj {
 public:
  LibraryFunctionObj(ObjectRef module, TVMFFISafeCallType symbol)
      : module_(std::move(module)), symbol_(symbol) {
    safe_call = &LibraryFunctionObj::Call;
    cpp_call = nullptr;
  }

 private:
  static int Call(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    auto* self = static_cast<LibraryFunctionObj*>(reinterpret_cast<Object*>(handle));
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
  ObjectRef module_;
  TVMFFISafeCallType symbol_;
};

// Library modules get a deleter of their own.  It tells them apart from
// module objects other libraries made (AsLibraryModule), and it finds the
// object from the header by a fixed distance: its weak phase can run after
// the destructor (when weak references outlive the module), and a cast of
// the header back to the class would then inspect a destroyed polymorphic
// object.
void DeleteLibraryModule(void* header, int flags) {
  char* memory = static_cast<char*>(header) -
                 ObjectUnsafe::GetObjectOffsetToSubclass<LibraryModuleObj>();
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) != 0) {
    std::launder(reinterpret_cast<LibraryModuleObj*>(memory))->~LibraryModuleObj();
  }
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskWeak) != 0) AlignedFree(memory);
}

// make_object with DeleteLibraryModule as the deleter.
class LibraryModuleAllocator : public ObjAllocatorBase<LibraryModuleAllocator> {
 public:
  template <typename T>
  struct Handler {
    static_assert(std::is_same_v<T, LibraryModuleObj>, "only library modules");
    static FObjectDeleter Deleter() { return &DeleteLibraryModule; }
    template <typename... Args>
    static T* New(LibraryModuleAllocator*, Args&&... args) {
      void* memory = AlignedAlloc(sizeof(T), alignof(T));
      try {
        return new (memory) T(std::forward<Args>(args)...);
      } catch (...) {
        AlignedFree(memory);
        throw;
      }
    }
  };
};

template <typename... Args>
ObjectPtr<LibraryModuleObj> MakeLibraryModule(Args&&... args) {
  LibraryModuleAllocator allocator;
  return allocator.make_object<LibraryModuleObj>(std::forward<Args>(args)...);
}

// `other` as a ModuleObj* (its type index was checked by the caller or by
// the Module it came in).
ModuleObj* ModuleOf(const ObjectRef& ref) {
  return const_cast<ModuleObj*>(static_cast<const ModuleObj*>(ref.get()));
}

// How messages name a module: a library module by its library, any other
// by its kind.
std::string DescribeModule(ModuleObj* m) {
  if (IsCoreLibraryModule(ObjectUnsafe::GetHeader(m))) {
    return static_cast<LibraryModuleObj*>(m)->Describe();
  }
  return std::string("Module[") + m->kind() + "]";
}

// A new strong reference to `m`, or null when its strong count already
// reached zero (it is dying: its destructor is about to unlist it).  The
// caller holds the lock of the list `m` is in, so its memory is still there;
// a WeakObjectPtr cannot be made without a strong reference first.
ObjectPtr<LibraryModuleObj> TryPromote(LibraryModuleObj* m) {
  TVMFFIObject* h = ObjectUnsafe::GetHeader(m);
  uint64_t seen = __atomic_load_n(&h->combined_ref_count, __ATOMIC_RELAXED);
  while ((seen & kCombinedRefCountMaskUInt32) != 0) {
    if (__atomic_compare_exchange_n(&h->combined_ref_count, &seen,
                                    seen + kCombinedRefCountStrongOne, true, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED)) {
      return ObjectUnsafe::ObjectPtrFromOwned<LibraryModuleObj>(h);
    }
  }
  return nullptr;
}

}  // namespace

LibraryModuleObj::LibraryModuleObj(std::shared_ptr<Library> lib,
                                   std::shared_ptr<LibraryModules> over, std::string description)
    : lib_(std::move(lib)), over_(std::move(over)), description_(std::move(description)) {}

Module LibraryModuleObj::Create(std::shared_ptr<Library> lib) {
  std::shared_ptr<LibraryModules> over = lib->modules;
  std::string description = lib->Describe();
  ObjectPtr<LibraryModuleObj> m = MakeLibraryModule(std::move(lib), over, std::move(description));
  // Listed only now that the header is written: the context promotes
  // listed modules through it.
  std::lock_guard<std::mutex> lock(over->mutex);
  m->position_ = over->live.insert(over->live.end(), m.get());
  m->listed_ = true;
  return Module(ObjectPtr<ModuleObj>(std::move(m)));
}

ObjectPtr<ModuleObj> LibraryModuleObj::CreateContext(std::shared_ptr<LibraryModules> over,
                                                     std::string description) {
  return MakeLibraryModule(nullptr, std::move(over), std::move(description));
}

LibraryModuleObj::~LibraryModuleObj() {
  if (listed_) {
    std::lock_guard<std::mutex> lock(over_->mutex);
    over_->live.erase(position_);
  }
  // The imports are released through TVMFFIObjectDecRef, which defers a
  // death nested too deep on one thread: a long import chain whose head
  // dies alone must not recurse once per link.
  std::vector<TVMFFIObjectHandle> imports;
  imports.reserve(imports_.size());
  for (const Any& m : imports_) {
    imports.push_back(ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(m.cast<ObjectRef>()));
  }
  imports_ = Array<Any>();
  for (TVMFFIObjectHandle h : imports) TVMFFIObjectDecRef(h);
}

int LibraryModuleObj::GetPropertyMask() const {
  return Module::kBinarySerializable | Module::kRunnable;
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

Optional<Function> LibraryModuleObj::GetFunction(const String& name) {
  std::string key(name);
  TVMFFISafeCallType symbol = FindSymbol(key);
  if (symbol == nullptr) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = functions_.find(key);
  if (it != functions_.end()) {
    if (ObjectPtr<FunctionObj> alive = it->second.lock()) return Function(std::move(alive));
    functions_.erase(it);  // dead: its storage may go now
  }
  ObjectRef self(ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<Object*>(this)));
  ObjectPtr<FunctionObj> f = make_object<LibraryFunctionObj>(std::move(self), symbol);
  functions_.emplace(std::move(key), WeakObjectPtr<FunctionObj>(f));
  return Function(std::move(f));
}

bool LibraryModuleObj::ImplementsFunction(const String& name) {
  return FindSymbol(std::string(name)) != nullptr;
}

Optional<String> LibraryModuleObj::CallStringGetter(const std::string& symbol_name) {
  if (lib_ == nullptr) return std::nullopt;
  auto getter = reinterpret_cast<TVMFFISafeCallType>(lib_->GetSymbol(symbol_name));
  if (getter == nullptr) return std::nullopt;
  Any rv;
  TVM_FFI_CHECK_SAFE_CALL(getter(nullptr, nullptr, 0, reinterpret_cast<TVMFFIAny*>(&rv)));
  std::optional<String> text = rv.try_cast<String>();
  if (!text.has_value()) {
    TVM_FFI_CORE_THROW(TypeError) << symbol_name << " of " << description_
                                  << " must return a str, got "
                                  << TypeIndexToDisplayName(rv.type_index());
  }
  return *text;
}

Optional<String> LibraryModuleObj::GetFunctionMetadata(const String& name) {
  return CallStringGetter(kMetadataPrefix + std::string(name));
}

Optional<String> LibraryModuleObj::GetFunctionDoc(const String& name) {
  return CallStringGetter(kDocPrefix + std::string(name));
}

void LibraryModuleObj::WriteToFile(const String& file_name, const String&) const {
  TVM_FFI_CORE_THROW(RuntimeError)
      << "Module[library] does not support WriteToFile (asked to write " << description_
      << " to \"" << file_name << "\")";
}

void LibraryModuleObj::ImportModule(const Module& other) {
  ModuleObj* root = ModuleOf(other);
  if (lib_ == nullptr) {
    TVM_FFI_CORE_THROW(RuntimeError) << "cannot import into the context module of "
                                     << description_;
  }
  // Refuse a cycle: this module must not be reachable from `other`.
  if (VisitImportTree(root, [this](ModuleObj* m) { return m == this; })) {
    TVM_FFI_CORE_THROW(RuntimeError) << "cannot import " << DescribeModule(root) << " into "
                                     << description_ << ": it would make a cycle of imports";
  }
  imports_.push_back(other);
}

void LibraryModuleObj::ClearImports() { imports_ = Array<Any>(); }

Optional<Function> LibraryModuleObj::FindInImports(const String& name) {
  Optional<Function> f;
  VisitImportTree(this, [&](ModuleObj* m) {
    if (m != this) f = m->GetFunction(name);
    return f.has_value();
  });
  return f;
}

TVMFFIObjectHandle LibraryModuleObj::LookupFromImports(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = import_lookups_.find(name);
  if (it != import_lookups_.end()) return ObjectUnsafe::GetHeader(it->second.get());
  String key(name);
  Optional<Function> found;
  if (lib_ != nullptr) {
    found = FindInImports(key);
  } else {
    // The context module: the imports of the live modules over the
    // library, newest first.  A module whose last reference is going away
    // (strong count 0, destructor not yet run) is skipped.
    std::vector<ObjectPtr<LibraryModuleObj>> live;
    {
      std::lock_guard<std::mutex> live_lock(over_->mutex);
      for (auto m = over_->live.rbegin(); m != over_->live.rend(); ++m) {
        if (ObjectPtr<LibraryModuleObj> alive = TryPromote(*m)) live.push_back(std::move(alive));
      }
    }
    for (const ObjectPtr<LibraryModuleObj>& m : live) {
      found = m->FindInImports(key);
      if (found.has_value()) break;
    }
  }
  if (!found.has_value()) found = Function::GetGlobal(key);
  if (!found.has_value()) {
    TVM_FFI_CORE_THROW(RuntimeError) << "TVMFFIEnvModLookupFromImports: cannot find function `"
                                     << name << "` in the imports of " << description_
                                     << " or in the global function registry";
  }
  Function f = *std::move(found);
  TVMFFIObjectHandle h = ObjectUnsafe::GetHeader(f.get());
  import_lookups_.emplace(name, std::move(f));
  return h;
}

LibraryModuleObj* AsLibraryModule(TVMFFIObjectHandle handle) {
  auto* header = static_cast<TVMFFIObject*>(handle);
  // Only objects this library made carry its deleter: a module another
  // library made has a layout of its own.
  if (!IsCoreLibraryModule(header)) {
    TVM_FFI_CORE_THROW(TypeError) << "expected an ffi.Module made by libtvm_ffi, got "
                                  << (header != nullptr
                                          ? TypeIndexToDisplayName(header->type_index)
                                          : std::string("None"));
  }
  return static_cast<LibraryModuleObj*>(reinterpret_cast<Object*>(header));
}

LibraryModuleObj* AsLibraryModule(const ObjectRef& ref) {
  return AsLibraryModule(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(ref));
}


bool IsCoreLibraryModule(const TVMFFIObject* obj) {
  return obj != nullptr && obj->type_index == kTVMFFIModule &&
         obj->deleter == &DeleteLibraryModule;
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
    TVM_FFI_CORE_THROW(RuntimeError) << "malformed " << kLibraryBinSymbol << " in " << where_
                                     << ": " << why;
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
    TVM_FFI_CORE_THROW(RuntimeError) << "the library embeds a module of kind `" << kind
                                     << "`, but no loader `" << loader << "` is registered";
  }
  Any m = (*f)(Bytes(payload.data(), payload.size()));
  if (m.type_index() != kTVMFFIModule) {
    TVM_FFI_CORE_THROW(TypeError) << loader << " must return an ffi.Module, got "
                                  << TypeIndexToDisplayName(m.type_index());
  }
  return m.cast<Module>();
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
      modules.push_back(LibraryModuleObj::Create(lib));
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
      ModuleObj* imported = ModuleOf(modules[children[j]]);
      // As ImportModule: no module may reach itself through its imports.
      if (VisitImportTree(imported, [importer](ModuleObj* m) { return m == importer; })) {
        in.Fail("module " + std::to_string(i) + " imports module " + std::to_string(children[j]) +
                ", which makes a cycle of imports");
      }
      importer->AppendImport(modules[children[j]]);
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
  lib.context = LibraryModuleObj::CreateContext(lib.modules, lib.Describe());
  if (void** ctx = static_cast<void**>(lib.GetSymbol(kLibraryCtxSymbol))) {
    *ctx = ObjectUnsafe::GetHeader(lib.context.get());
  }
}

ObjectPtr<ModuleObj> DetachLibrary(Library& lib) {
  if (lib.context != nullptr) {
    void** ctx = static_cast<void**>(lib.GetSymbol(kLibraryCtxSymbol));
    if (ctx != nullptr && *ctx == ObjectUnsafe::GetHeader(lib.context.get())) *ctx = nullptr;
  }
  return std::move(lib.context);
}

Module CreateLibraryModule(std::shared_ptr<Library> lib) {
  auto* bin = static_cast<const unsigned char*>(lib->GetSymbol(kLibraryBinSymbol));
  if (bin != nullptr) {
    return ProcessLibraryBin(bin, lib);
  }
  return LibraryModuleObj::Create(std::move(lib));
}

namespace {

// ffi.ModuleLoadFromFile: the format is the text after the last '.'.
Module LoadFromFile(const std::string& path) {
  // Every loader takes a C path: a NUL would cut it short ("\0.so" would
  // open the main program).
  if (path.find('\0') != std::string::npos) {
    std::string shown;
    for (char c : path) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    TVM_FFI_CORE_THROW(ValueError) << "cannot load \"" << shown
                                   << "\": the path holds a NUL byte";
  }
  size_t dot = path.rfind('.');
  size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    TVM_FFI_CORE_THROW(RuntimeError)
        << "cannot tell the format of \"" << path
        << "\": the file name has no extension (expected e.g. \".so\")";
  }
  std::string format = path.substr(dot + 1);
  if (format == "dll" || format == "dylib" || format == "dso") format = "so";
  std::string loader = "ffi.Module.load_from_file." + format;
  std::optional<Function> f = Function::GetGlobal(loader);
  if (!f.has_value()) {
    TVM_FFI_CORE_THROW(RuntimeError) << "cannot load \"" << path << "\": no loader for `."
                                     << format << "` files (global function `" << loader
                                     << "` is not registered)";
  }
  return (*f)(String(path), String(format)).cast<Module>();
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

// The arguments of an ffi.Module* global, checked with the messages these
// globals have always given: upstream's text for a wrong count, and
// "In function <name>: argument <i>: expected <type>, got <type>".
class GlobalArgs {
 public:
  // `signature` is the parameter list and result as the count message shows
  // them, e.g. "(0: ffi.Module) -> str".
  GlobalArgs(const char* name, const char* signature, PackedArgs args, int arity)
      : name_(name), args_(args) {
    if (args.size() != arity) {
      TVM_FFI_CORE_THROW(TypeError) << "Mismatched number of arguments when calling: `" << name
                                    << signature << "`. Expected " << arity << " but got "
                                    << args.size() << " arguments";
    }
  }

  // A module this library made (argument i, from 0).
  LibraryModuleObj* Mod(int i) const { return AsLibraryModule(ModRef(i)); }
  Module ModRef(int i) const {
    if (args_[i].type_index() != kTVMFFIModule) Mismatch(i, "ffi.Module");
    return args_[i].cast<Module>();
  }
  String Str(int i) const {
    std::optional<String> s = args_[i].try_cast<String>();
    if (!s.has_value()) Mismatch(i, "str");
    return *std::move(s);
  }
  bool Bool(int i) const {
    int32_t t = args_[i].type_index();
    if (t != kTVMFFIBool && t != kTVMFFIInt) Mismatch(i, "bool");
    return args_[i].CopyToTVMFFIAny().v_int64 != 0;
  }

 private:
  [[noreturn]] void Mismatch(int i, const char* expected) const {
    TVM_FFI_CORE_THROW(TypeError) << "In function " << name_ << ": argument " << i + 1
                                  << ": expected " << expected << ", got "
                                  << TypeIndexToDisplayName(args_[i].type_index());
  }
  const char* name_;
  PackedArgs args_;
};

// The result of a lookup as the globals return it: None when absent.
template <typename T>
Any OrNone(const Optional<T>& value) {
  return value.has_value() ? Any(*value) : Any();
}

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleLoadFromFile", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleLoadFromFile", "(0: str) -> ffi.Module", args, 1);
  *rv = LoadFromFile(a.Str(0));
});

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.Module.load_from_file.so", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.Module.load_from_file.so", "(0: str, 1: str) -> ffi.Module", args, 2);
  std::string path = a.Str(0);
  a.Str(1);
  *rv = CreateLibraryModule(OpenSharedLibrary(path));
});

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.SystemLib", [](PackedArgs args, Any* rv) {
  if (args.size() > 1) {
    TVM_FFI_CORE_THROW(TypeError) << "ffi.SystemLib: expected 0 or 1 arguments, got "
                                  << args.size();
  }
  std::string prefix;
  if (args.size() == 1) {
    std::optional<String> s = args[0].try_cast<String>();
    if (!s.has_value()) {
      TVM_FFI_CORE_THROW(TypeError) << "expected str, got "
                                    << TypeIndexToDisplayName(args[0].type_index());
    }
    prefix = *s;
  }
  *rv = SystemLib(prefix);
});

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGetFunction", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleGetFunction",
               "(0: ffi.Module, 1: str, 2: bool) -> Optional[ffi.Function]", args, 3);
  *rv = OrNone(a.Mod(0)->GetFunction(a.Str(1), a.Bool(2)));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleImplementsFunction", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleImplementsFunction", "(0: ffi.Module, 1: str, 2: bool) -> bool", args,
               3);
  *rv = a.Mod(0)->ImplementsFunction(a.Str(1), a.Bool(2));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGetFunctionMetadata", [](PackedArgs args,
                                                                        Any* rv) {
  GlobalArgs a("ffi.ModuleGetFunctionMetadata",
               "(0: ffi.Module, 1: str, 2: bool) -> Optional[str]", args, 3);
  *rv = OrNone(a.Mod(0)->GetFunctionMetadata(a.Str(1), a.Bool(2)));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGetFunctionDoc", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleGetFunctionDoc", "(0: ffi.Module, 1: str, 2: bool) -> Optional[str]",
               args, 3);
  *rv = OrNone(a.Mod(0)->GetFunctionDoc(a.Str(1), a.Bool(2)));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGetPropertyMask", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleGetPropertyMask", "(0: ffi.Module) -> int", args, 1);
  *rv = static_cast<int64_t>(a.Mod(0)->GetPropertyMask());
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGetKind", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleGetKind", "(0: ffi.Module) -> str", args, 1);
  *rv = String(a.Mod(0)->kind());
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleDescribe", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleDescribe", "(0: ffi.Module) -> str", args, 1);
  *rv = String(a.Mod(0)->Describe());
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleInspectSource", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleInspectSource", "(0: ffi.Module, 1: str) -> str", args, 2);
  LibraryModuleObj* m = a.Mod(0);
  *rv = m->InspectSource(a.Str(1));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGetWriteFormats", [](PackedArgs args, Any* rv) {
  GlobalArgs a("ffi.ModuleGetWriteFormats", "(0: ffi.Module) -> Array[str]", args, 1);
  *rv = a.Mod(0)->GetWriteFormats();
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleWriteToFile", [](PackedArgs args, Any*) {
  GlobalArgs a("ffi.ModuleWriteToFile", "(0: ffi.Module, 1: str, 2: str) -> void", args, 3);
  LibraryModuleObj* m = a.Mod(0);
  String file = a.Str(1);
  m->WriteToFile(file, a.Str(2));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleImportModule", [](PackedArgs args, Any*) {
  GlobalArgs a("ffi.ModuleImportModule", "(0: ffi.Module, 1: ffi.Module) -> void", args, 2);
  LibraryModuleObj* m = a.Mod(0);
  m->ImportModule(a.ModRef(1));
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleClearImports", [](PackedArgs args, Any*) {
  GlobalArgs a("ffi.ModuleClearImports", "(0: ffi.Module) -> void", args, 1);
  a.Mod(0)->ClearImports();
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGlobalsAdd", [](PackedArgs args, Any*) {
  GlobalArgs a("ffi.ModuleGlobalsAdd", "(0: ffi.Module) -> void", args, 1);
  Module m = a.ModRef(0);
  KeptModules& kept = Kept();
  std::lock_guard<std::mutex> lock(kept.mutex);
  kept.modules.emplace(ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(m), m);
});
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.ModuleGlobalsRemove", [](PackedArgs args, Any*) {
  GlobalArgs a("ffi.ModuleGlobalsRemove", "(0: ffi.Module) -> void", args, 1);
  TVMFFIObjectHandle key = ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(a.ModRef(0));
  std::optional<Module> released;  // dropped after the lock: unloading may run library code
  {
    KeptModules& kept = Kept();
    std::lock_guard<std::mutex> lock(kept.mutex);
    auto it = kept.modules.find(key);
    if (it == kept.modules.end()) return;
    released = std::move(it->second);
    kept.modules.erase(it);
  }
});

// The reflected field `imports_` (read-only, as upstream reflects it) ------

int GetImports(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Any value(*static_cast<const Array<Any>*>(field));
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
  TVM_FFI_SAFE_CALL_END();
}

int SetImports(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  AnyView view = AnyView::CopyFromTVMFFIAny(*value);
  std::optional<Array<Module>> modules = view.try_cast<Array<Module>>();
  if (!modules.has_value()) {
    TVM_FFI_CORE_THROW(TypeError) << "expected Array[ffi.Module], got "
                                  << TypeIndexToDisplayName(view.type_index());
  }
  *static_cast<Array<Any>*>(field) = Array<Any>(modules->begin(), modules->end());
  TVM_FFI_SAFE_CALL_END();
}

TVMFFIByteArray ByteArrayOf(const char* text) { return TVMFFIByteArray{text, std::strlen(text)}; }

// ffi.Module's type information: a field `imports_`, final in the
// "__ffi_type_final__" column as upstream publishes it (a module kind is a
// C++ subclass, not a registered type), and not copyable.
const bool kModuleReflection = RegisterAtLoad([] {
  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  meta.doc = ByteArrayOf("A module: functions loaded from a library.");
  meta.total_size = static_cast<int32_t>(sizeof(LibraryModuleObj));
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(kTVMFFIModule, &meta));

  static const std::string kImportsMetadata =
      "{\"type_schema\":" +
      std::string(EscapeStringJSON(String(::tvm::ffi::detail::TypeSchema<Array<Module>>::v()))) +
      "}";
  TVMFFIFieldInfo field;
  std::memset(&field, 0, sizeof(field));
  field.name = ByteArrayOf("imports_");
  field.doc = ByteArrayOf("The imported modules.");
  field.metadata = TVMFFIByteArray{kImportsMetadata.data(), kImportsMetadata.size()};
  field.flags = 0;
  field.size = sizeof(Array<Any>);
  field.alignment = alignof(Array<Any>);
  field.offset = LibraryModuleObj::ImportsOffset();
  field.getter = &GetImports;
  field.setter = reinterpret_cast<void*>(&SetImports);
  field.field_static_type_index = kTVMFFIArray;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(kTVMFFIModule, &field));

  const TVMFFIByteArray shallow_copy = ByteArrayOf("__ffi_shallow_copy__");
  Any reason(String("its C++ class is not copy-constructible"));
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(kTVMFFIModule, &shallow_copy,
                                                 AnyUnsafe::TVMFFIAnyPtrFromAny(reason)));
  const TVMFFIByteArray final_attr = ByteArrayOf("__ffi_type_final__");
  Any yes(true);
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterAttr(kTVMFFIModule, &final_attr, AnyUnsafe::TVMFFIAnyPtrFromAny(yes)));
});

}  // namespace

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// Repeated registrations from another library (see duplicate_registration.h).
#include "duplicate_registration.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <utility>

#include "function_internal.h"
#include "type_registry.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace duplicate_registration {
namespace {

struct Library {
  const void* base = nullptr;
  std::string path;
};

// The loaded object holding `address`; base NULL when unknown.
Library LibraryOf(const void* address) {
  Library lib;
  Dl_info info;
  if (address != nullptr && dladdr(address, &info) != 0) {
    lib.base = info.dli_fbase;
    lib.path = info.dli_fname != nullptr ? info.dli_fname : "";
  }
  if (lib.path.empty()) lib.path = "<unknown object>";
  return lib;
}

struct Owners {
  std::mutex mu;
  std::map<int32_t, Library> types;
  std::map<std::string, Library, std::less<>> globals;
  std::set<std::pair<const void*, const void*>> warned;  // (repeating, first) library bases
};

Owners& Table() {
  static Owners* owners = new Owners();  // outlives every static destructor
  return *owners;
}

bool Named(const TVMFFIByteArray& a, const std::string& name) {
  return std::string_view(a.data, a.size) == name;
}

// Whether the registry already holds the registration described.
bool Exists(int32_t type_index, Kind kind, const std::string& name) {
  const TVMFFITypeInfo* info = type_registry::GetTypeInfo(type_index);
  if (info == nullptr) return false;
  switch (kind) {
    case Kind::kMetadata:
      return info->metadata != nullptr;
    case Kind::kField:
      for (int32_t i = 0; i < info->num_fields; ++i) {
        if (Named(info->fields[i].name, name)) return true;
      }
      return false;
    case Kind::kMethod:
      for (int32_t i = 0; i < info->num_methods; ++i) {
        if (Named(info->methods[i].name, name)) return true;
      }
      return false;
    case Kind::kAttr: {
      const TVMFFITypeAttrColumn* col = type_registry::GetAttrColumn(name);
      if (col == nullptr) return false;
      int32_t off = type_index - col->begin_index;
      return off >= 0 && off < col->size && col->data[off].type_index != kTVMFFINone;
    }
  }
  return false;
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kMetadata:
      return "metadata";
    case Kind::kField:
      return "field";
    case Kind::kMethod:
      return "method";
    case Kind::kAttr:
      return "type attribute";
  }
  return "registration";
}

// One line per (repeating library, first library) pair.  Requires Table().mu.
void Warn(Owners& t, const Library& lib, const Library& first, const std::string& what) {
  if (!t.warned.insert({lib.base, first.base}).second) return;
  std::fprintf(stderr,
               "tvm-ffi: warning: %s registers %s, already registered by %s; the first "
               "registration is kept (further repeats between these two libraries are skipped "
               "silently)\n",
               lib.path.c_str(), what.c_str(), first.path.c_str());
}

}  // namespace

bool SkipTypeRepeat(int32_t type_index, Kind kind, const std::string& name,
                    const void* caller) noexcept {
  try {
    Library lib = LibraryOf(caller);
    if (lib.base == nullptr) return false;
    Owners& t = Table();
    std::lock_guard<std::mutex> lock(t.mu);
    auto it = t.types.find(type_index);
    if (it == t.types.end()) {
      t.types.emplace(type_index, lib);
      return false;
    }
    if (it->second.base == lib.base || !Exists(type_index, kind, name)) return false;
    const TVMFFITypeInfo* info = type_registry::GetTypeInfo(type_index);
    std::string what = std::string(KindName(kind)) + " ";
    if (kind != Kind::kMetadata) what += "`" + name + "` ";
    what += "of type `" + std::string(info->type_key.data, info->type_key.size) + "`";
    Warn(t, lib, it->second, what);
    return true;
  } catch (...) {
    return false;  // out of memory: let the registry decide
  }
}

bool SkipGlobalRepeat(const std::string& name, const void* caller) noexcept {
  try {
    Library lib = LibraryOf(caller);
    if (lib.base == nullptr) return false;
    Owners& t = Table();
    std::lock_guard<std::mutex> lock(t.mu);
    auto it = t.globals.find(name);
    TVMFFIObjectHandle found = GlobalFunctionFind(name);
    bool exists = found != nullptr;
    TVMFFIObjectDecRef(found);  // the registry still holds the function
    if (!exists) {
      // New, or removed since: this library owns the name from now on.
      t.globals[name] = lib;
      return false;
    }
    // A name registered inside this library (not through the C API) has no
    // recorded owner: the registry reports the repeat.
    if (it == t.globals.end()) return false;
    if (it->second.base == lib.base) return false;
    Warn(t, lib, it->second, "global function `" + name + "`");
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace duplicate_registration
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// Backtraces with libunwind: walk the stack, name each frame.
#define UNW_LOCAL_ONLY
#include "backtrace.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <libunwind.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tvmffi {
namespace core {
namespace {

// TVM_TRACEBACK_LIMIT caps the number of frames (default 512, 0 disables).
int FrameLimit() {
  static const int limit = [] {
    const char* env = std::getenv("TVM_TRACEBACK_LIMIT");
    if (env == nullptr || *env == '\0') return 512;
    int v = std::atoi(env);
    return v < 0 ? 0 : v;
  }();
  return limit;
}

bool StartsWith(const char* s, const char* prefix) {
  return std::strncmp(s, prefix, std::strlen(prefix)) == 0;
}

// Frames that belong to the caller's language runtime: the walk stops there.
bool IsBoundary(const char* symbol) {
  return StartsWith(symbol, "TVMFFIFunctionCall") || StartsWith(symbol, "_Py") ||
         StartsWith(symbol, "PyObject_") || StartsWith(symbol, "slot_tp_call");
}

// The constructors that capture the trace are not part of it.
bool IsErrorMachinery(const std::string& name) {
  return name.rfind("tvmffi::core::Error", 0) == 0;
}

std::string Demangle(const char* symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol, nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out != nullptr ? std::string(out.get()) : std::string(symbol);
}

// What a program counter resolves to.  Naming a frame (unw_get_proc_name
// searches the symbol tables) costs tens of microseconds, while errors are
// raised again and again from the same few places, so names are cached per
// program counter.
struct FrameName {
  std::string function;  // demangled
  std::string module;
  bool boundary;         // the caller's runtime starts here
  bool machinery;        // the capture itself; left out
};

class FrameNameCache {
 public:
  static FrameNameCache& Get() {
    static FrameNameCache* cache = new FrameNameCache();  // used until exit
    return *cache;
  }

  FrameName Lookup(uintptr_t pc, unw_cursor_t* cursor) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = names_.find(pc);
      if (it != names_.end()) return it->second;
    }
    FrameName name = Resolve(pc, cursor);
    std::lock_guard<std::mutex> lock(mutex_);
    if (names_.size() >= kMaxEntries) names_.clear();
    names_.emplace(pc, name);
    return name;
  }

 private:
  static constexpr size_t kMaxEntries = 1 << 16;

  static FrameName Resolve(uintptr_t pc, unw_cursor_t* cursor) {
    char raw[512];
    unw_word_t offset = 0;
    const char* symbol =
        unw_get_proc_name(cursor, raw, sizeof(raw), &offset) == 0 ? raw : "<unknown>";
    FrameName name;
    name.boundary = IsBoundary(symbol);
    name.function = Demangle(symbol);
    name.machinery = IsErrorMachinery(name.function);
    Dl_info info;
    name.module = dladdr(reinterpret_cast<void*>(pc), &info) != 0 && info.dli_fname != nullptr
                      ? info.dli_fname
                      : "<unknown>";
    return name;
  }

  std::mutex mutex_;
  std::unordered_map<uintptr_t, FrameName> names_;
};

void AppendLine(std::string* out, const char* file, int line, const std::string& func) {
  out->append("  File \"").append(file).append("\", line ").append(std::to_string(line));
  out->append(", in ").append(func).append("\n");
}

}  // namespace

std::string CaptureBacktrace(const char* file, int line, const char* func,
                             bool cross_ffi_boundary, int skip) noexcept {
  std::string out;
  try {
    if (file != nullptr && func != nullptr) AppendLine(&out, file, line, func);
    int limit = FrameLimit();
    if (limit == 0) return out;
    static const bool caching = [] {
      unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
      return true;
    }();
    (void)caching;
    unw_context_t context;
    unw_cursor_t cursor;
    if (unw_getcontext(&context) != 0 || unw_init_local(&cursor, &context) != 0) return out;
    int frames = 0;
    int to_skip = skip + 1;  // this function
    while (unw_step(&cursor) > 0 && frames < limit) {
      if (to_skip > 0) {
        --to_skip;
        continue;
      }
      unw_word_t pc = 0;
      unw_get_reg(&cursor, UNW_REG_IP, &pc);
      if (pc == 0) break;
      FrameName name = FrameNameCache::Get().Lookup(static_cast<uintptr_t>(pc), &cursor);
      if (!cross_ffi_boundary && name.boundary) break;
      if (name.machinery) continue;
      AppendLine(&out, name.module.c_str(), 0, name.function);
      ++frames;
    }
  } catch (...) {
  }
  return out;
}

}  // namespace core
}  // namespace tvmffi

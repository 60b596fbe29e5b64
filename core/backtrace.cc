// Backtraces with libunwind: walk the stack, name each frame.
#define UNW_LOCAL_ONLY
#include "backtrace.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <libunwind.h>

#include <cstdlib>
#include <cstring>
#include <memory>

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
      unw_word_t pc = 0, offset = 0;
      unw_get_reg(&cursor, UNW_REG_IP, &pc);
      if (pc == 0) break;
      char name[512];
      std::string symbol = unw_get_proc_name(&cursor, name, sizeof(name), &offset) == 0
                               ? std::string(name)
                               : std::string("<unknown>");
      if (!cross_ffi_boundary && IsBoundary(symbol.c_str())) break;
      Dl_info info;
      const char* module = "<unknown>";
      if (dladdr(reinterpret_cast<void*>(pc), &info) != 0 && info.dli_fname != nullptr) {
        module = info.dli_fname;
      }
      std::string pretty = Demangle(symbol.c_str());
      if (IsErrorMachinery(pretty)) continue;
      AppendLine(&out, module, 0, pretty);
      ++frames;
    }
  } catch (...) {
  }
  return out;
}

}  // namespace core
}  // namespace tvmffi

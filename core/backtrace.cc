// Backtraces: walk the stack with the C++ runtime's unwinder (libgcc's
// _Unwind_Backtrace, already in every process that throws), name each frame
// with elfutils' libdw (function, file, line), cache the names per program
// counter.  Without libdw, names come from the ELF symbol tables.
#include "backtrace.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unwind.h>
#if TVMFFI_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif

#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {
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

// Where the walk may stop: the FFI call (the caller may be another
// language) and the Python interpreter's own frames.
enum Boundary : uint8_t { kNotBoundary = 0, kFFICall = 1, kInterpreter = 2 };
Boundary BoundaryOf(const char* symbol) {
  // TVMFFIFunctionCall, and the Python extension's two crossings
  // (pyshim/): its call into a function's safe_call, which skips
  // TVMFFIFunctionCall, and the safe_call entry of a Python callback.
  if (StartsWith(symbol, "TVMFFIFunctionCall") || StartsWith(symbol, "tvmffi_py_function_call") ||
      StartsWith(symbol, "tvmffi_py_callback_safe_call")) {
    return kFFICall;
  }
  // CPython's own: its private functions, the call protocol, and the static
  // functions that call a type (a constructor) or a C function.
  if (StartsWith(symbol, "_Py") || StartsWith(symbol, "PyObject_") ||
      StartsWith(symbol, "slot_tp_call") || StartsWith(symbol, "type_call") ||
      StartsWith(symbol, "cfunction_") || StartsWith(symbol, "method_vectorcall")) {
    return kInterpreter;
  }
  return kNotBoundary;
}

// The library's own machinery between the user's code and the capture: the
// error constructors, the slot setters and the safe-call brackets around a
// C++ callable.  Matched on demangled names; none of these is user code.
// Where the qualified name of a demangled function starts: past a return
// type ("void tvm::ffi::detail::unpack_call<...>(...)" names a template
// instance that way), i.e. past the last space outside <> and () before the
// parameter list.  A name with no such space starts at 0.
size_t QualifiedNameStart(const std::string& name) {
  static const char kAnonymous[] = "(anonymous namespace)";
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name.compare(i, 8, "operator") == 0) return start;  // its own <, >, ( follow
    if (name.compare(i, sizeof(kAnonymous) - 1, kAnonymous) == 0) {
      i += sizeof(kAnonymous) - 2;
      continue;
    }
    switch (name[i]) {
      case '<': ++depth; break;
      case '>': --depth; break;
      case '(':
        if (depth == 0) return start;
        break;
      case ' ':
        if (depth == 0) start = i + 1;
        break;
      default: break;
    }
  }
  return start;
}

bool HasPrefixAfterReturnType(const std::string& name, const char* const* prefixes, size_t n) {
  size_t at = QualifiedNameStart(name);
  for (size_t k = 0; k < n; ++k) {
    if (name.compare(at, std::strlen(prefixes[k]), prefixes[k]) == 0) return true;
  }
  return false;
}

bool IsMachinery(const std::string& name) {
  static const char* const kPrefixes[] = {
      "tvm::ffi::detail::core::CaptureBacktrace",
      "tvm::ffi::detail::core::SetRaisedWithBacktrace",
      "tvm::ffi::detail::core::(anonymous namespace)::CFunctionObj::",
      "tvm::ffi::detail::core::ErrorBuilder::",
      "tvm::ffi::detail::core::ErrorThrower::",
      "tvm::ffi::detail::core::SetRaisedFromCurrentException",
      "TVMFFIBacktrace",
      "TVMFFIErrorSetRaised",
  };
  return HasPrefixAfterReturnType(name, kPrefixes, sizeof(kPrefixes) / sizeof(kPrefixes[0]));
}

// The C++ layer's wrappers around a user's callable.  With optimisation the
// callable is inlined into them, so they are left out only where debug
// information shows the inlined frames separately.
bool IsBracket(const std::string& name) {
  static const char* const kPrefixes[] = {
      "tvm::ffi::detail::FunctionObjImpl<",
      "tvm::ffi::detail::unpack_call<",
      "tvm::ffi::Function::FromTyped<",
      "tvm::ffi::Function::FromPacked<",
      "std::_Function_handler<",
      "std::__invoke",
      "std::function<",
  };
  return HasPrefixAfterReturnType(name, kPrefixes, sizeof(kPrefixes) / sizeof(kPrefixes[0]));
}

// A frame's function as people read it: each template argument list becomes
// <...> (`TypedFunctionObj<...>::SafeCall`, not the 200 characters of its
// arguments), a parameter list (...), also a lambda's (`{lambda(...)#1}`);
// the return type a template instance is demangled with and the compiler's
// ` [clone .cold]` marks are left out.  The file and line tell overloads
// apart.  An operator's own brackets (`operator<<`, `operator()`) and
// `(anonymous namespace)` stay.
std::string ReadableName(const std::string& name) {
  static const char kOperatorChars[] = "<>=-!+*/%&|^~[],";
  static const char kAnonymous[] = "(anonymous namespace)";
  std::string out;
  out.reserve(name.size());
  int depth = 0;  // inside <>
  for (size_t i = QualifiedNameStart(name); i < name.size(); ++i) {
    char c = name[i];
    if (depth > 0) {
      if (c == '-' && i + 1 < name.size() && name[i + 1] == '>') {
        ++i;  // `->` inside an argument is not a closing bracket
      } else if (c == '<') {
        ++depth;
      } else if (c == '>') {
        --depth;
      }
      continue;
    }
    bool word_start = i == 0 || !(std::isalnum(static_cast<unsigned char>(name[i - 1])) ||
                                  name[i - 1] == '_');
    if (word_start && name.compare(i, 8, "operator") == 0) {
      size_t end = i + 8;
      if (name.compare(end, 2, "()") == 0) {
        end += 2;
      } else {
        while (end < name.size() && std::strchr(kOperatorChars, name[end]) != nullptr) ++end;
      }
      out.append(name, i, end - i);
      i = end - 1;
      continue;
    }
    if (c == '<') {
      out.append("<...>");
      depth = 1;
      continue;
    }
    if (name.compare(i, 8, " [clone ") == 0) {
      size_t end = name.find(']', i);
      if (end == std::string::npos) break;
      i = end;
      continue;
    }
    if (c == '(' && name.compare(i, sizeof(kAnonymous) - 1, kAnonymous) != 0) {
      size_t end = i + 1;
      for (int parens = 1; end < name.size(); ++end) {
        if (name[end] == '(') ++parens;
        if (name[end] == ')' && --parens == 0) break;
      }
      out.append(end == i + 1 ? "()" : "(...)");
      i = end;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::string Demangle(const char* symbol) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol, nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out != nullptr ? std::string(out.get()) : std::string(symbol);
}

#if TVMFFI_HAVE_LIBDW
// elfutils' libdw, loaded with dlopen the first time a frame is named: the
// library works without it (frames then have names but no file and line).
// One Dwfl session describes the whole process; libdw is not thread-safe, so
// every use holds mutex_.
class DwarfReader {
 public:
  static DwarfReader& Get() {
    static DwarfReader* reader = new DwarfReader();  // used until exit
    return *reader;
  }

  // One source-level frame: a function (mangled name, or plain for C) and
  // the file and line executing in it (empty and 0 when unknown).
  struct SourceFrame {
    std::string name;
    std::string file;
    int line = 0;
  };

  // The frames at addr, innermost first: the functions inlined there (from
  // DWARF), then the function of the symbol table that holds addr.  False if
  // libdw is missing or no module it can read holds addr.
  // After a dlclose: report the process again, which drops (and unmaps) the
  // modules of libraries that are gone.  Nothing to do before the first use.
  void Refresh() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (dwfl_ == nullptr) return;
    rereported_.clear();
    Report();
  }

  bool Lookup(uintptr_t addr, std::vector<SourceFrame>* out) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!Load()) return false;
    Dwfl_Module* mod = addrmodule_(dwfl_, addr);
    if (mod == nullptr) {
      // A library loaded after the last report: report the process again,
      // once per library.
      Dl_info info;
      if (dladdr(reinterpret_cast<void*>(addr), &info) == 0) return false;
      std::string key = std::to_string(reinterpret_cast<uintptr_t>(info.dli_fbase)) + ":" +
                        (info.dli_fname != nullptr ? info.dli_fname : "");
      if (!rereported_.insert(std::move(key)).second) return false;
      Report();
      mod = addrmodule_(dwfl_, addr);
      if (mod == nullptr) return false;
    }
    const char* symbol = module_addrname_(mod, addr);
    std::string file;
    int line = 0;
    if (Dwfl_Line* src = module_getsrc_(mod, addr)) {
      int lineno = 0;
      const char* path = lineinfo_(src, nullptr, &lineno, nullptr, nullptr, nullptr);
      if (path != nullptr && lineno > 0) {
        file = path;
        line = lineno;
      }
    }
    // Each inlined call around addr is a frame of its own; its caller runs
    // at the call's position (DW_AT_call_file, DW_AT_call_line).
    Dwarf_Addr bias = 0;
    if (Dwarf_Die* cu = module_addrdie_(mod, addr, &bias)) {
      Dwarf_Die* scopes = nullptr;
      int n = getscopes_(cu, addr - bias, &scopes);
      for (int i = 0; i < n; ++i) {
        int tag = tag_(&scopes[i]);
        if (tag == DW_TAG_subprogram) break;
        if (tag != DW_TAG_inlined_subroutine) continue;
        out->push_back({DieName(&scopes[i]), file, line});
        file = CallFile(cu, &scopes[i]);
        line = static_cast<int>(UData(&scopes[i], DW_AT_call_line));
        if (file.empty()) line = 0;
      }
      std::free(scopes);
    }
    out->push_back({symbol != nullptr ? symbol : "", file, line});
    return symbol != nullptr;
  }

 private:
  template <typename T>
  bool Sym(void* lib, const char* name, T* out) {
    *out = reinterpret_cast<T>(dlsym(lib, name));
    return *out != nullptr;
  }

  bool Load() {
    if (tried_) return dwfl_ != nullptr;
    tried_ = true;
    void* lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return false;
    Dwfl* (*begin)(const Dwfl_Callbacks*) = nullptr;
    if (!Sym(lib, "dwfl_begin", &begin) || !Sym(lib, "dwfl_report_begin", &report_begin_) ||
        !Sym(lib, "dwfl_linux_proc_report", &proc_report_) ||
        !Sym(lib, "dwfl_report_end", &report_end_) ||
        !Sym(lib, "dwfl_addrmodule", &addrmodule_) ||
        !Sym(lib, "dwfl_module_addrname", &module_addrname_) ||
        !Sym(lib, "dwfl_module_getsrc", &module_getsrc_) ||
        !Sym(lib, "dwfl_lineinfo", &lineinfo_) ||
        !Sym(lib, "dwfl_module_addrdie", &module_addrdie_) ||
        !Sym(lib, "dwarf_getscopes", &getscopes_) || !Sym(lib, "dwarf_tag", &tag_) ||
        !Sym(lib, "dwarf_attr", &attr_) || !Sym(lib, "dwarf_attr_integrate", &attr_integrate_) ||
        !Sym(lib, "dwarf_formstring", &formstring_) ||
        !Sym(lib, "dwarf_formudata", &formudata_) ||
        !Sym(lib, "dwarf_getsrcfiles", &getsrcfiles_) ||
        !Sym(lib, "dwarf_filesrc", &filesrc_) ||
        !Sym(lib, "dwfl_linux_proc_find_elf", &callbacks_.find_elf) ||
        !Sym(lib, "dwfl_standard_find_debuginfo", &callbacks_.find_debuginfo)) {
      return false;
    }
    callbacks_.section_address = nullptr;
    callbacks_.debuginfo_path = nullptr;
    dwfl_ = begin(&callbacks_);
    if (dwfl_ == nullptr) return false;
    Report();
    return true;
  }

  std::string DieName(Dwarf_Die* die) {
    Dwarf_Attribute attr;
    for (unsigned int at : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name}) {
      if (attr_integrate_(die, at, &attr) != nullptr) {
        if (const char* name = formstring_(&attr)) return name;
      }
    }
    return "<inlined>";
  }

  uint64_t UData(Dwarf_Die* die, unsigned int at) {
    Dwarf_Attribute attr;
    Dwarf_Word v = 0;
    if (attr_(die, at, &attr) == nullptr || formudata_(&attr, &v) != 0) return 0;
    return v;
  }

  std::string CallFile(Dwarf_Die* cu, Dwarf_Die* die) {
    Dwarf_Attribute attr;
    Dwarf_Word index = 0;
    if (attr_(die, DW_AT_call_file, &attr) == nullptr || formudata_(&attr, &index) != 0) return "";
    Dwarf_Files* files = nullptr;
    size_t count = 0;
    if (getsrcfiles_(cu, &files, &count) != 0 || index >= count) return "";
    const char* name = filesrc_(files, index, nullptr, nullptr);
    return name != nullptr ? name : "";
  }

  void Report() {
    report_begin_(dwfl_);
    proc_report_(dwfl_, getpid());
    report_end_(dwfl_, nullptr, nullptr);
  }

  std::mutex mutex_;
  bool tried_ = false;
  Dwfl* dwfl_ = nullptr;
  Dwfl_Callbacks callbacks_ = {};
  // "<base>:<path>" of libraries reported again (a base alone may be reused
  // by another library after dlclose).
  std::unordered_set<std::string> rereported_;
  void (*report_begin_)(Dwfl*) = nullptr;
  int (*proc_report_)(Dwfl*, pid_t) = nullptr;
  int (*report_end_)(Dwfl*, int (*)(Dwfl_Module*, void*, const char*, Dwarf_Addr, void*),
                     void*) = nullptr;
  Dwfl_Module* (*addrmodule_)(Dwfl*, Dwarf_Addr) = nullptr;
  const char* (*module_addrname_)(Dwfl_Module*, GElf_Addr) = nullptr;
  Dwfl_Line* (*module_getsrc_)(Dwfl_Module*, Dwarf_Addr) = nullptr;
  const char* (*lineinfo_)(Dwfl_Line*, Dwarf_Addr*, int*, int*, Dwarf_Word*,
                           Dwarf_Word*) = nullptr;
  decltype(&dwfl_module_addrdie) module_addrdie_ = nullptr;
  decltype(&dwarf_getscopes) getscopes_ = nullptr;
  decltype(&dwarf_tag) tag_ = nullptr;
  decltype(&dwarf_attr) attr_ = nullptr;
  decltype(&dwarf_attr_integrate) attr_integrate_ = nullptr;
  decltype(&dwarf_formstring) formstring_ = nullptr;
  decltype(&dwarf_formudata) formudata_ = nullptr;
  decltype(&dwarf_getsrcfiles) getsrcfiles_ = nullptr;
  decltype(&dwarf_filesrc) filesrc_ = nullptr;
};
#else
// Built without elfutils' headers (CMake found no libdw-dev): frames are
// named from the symbol tables, with no file and line.
class DwarfReader {
 public:
  static DwarfReader& Get() {
    static DwarfReader* reader = new DwarfReader();  // used until exit
    return *reader;
  }
  struct SourceFrame {
    std::string name;
    std::string file;
    int line = 0;
  };
  void Refresh() {}
  bool Lookup(uintptr_t, std::vector<SourceFrame>*) { return false; }
};
#endif  // TVMFFI_HAVE_LIBDW

// The function symbol holding vaddr (an address as the file links it) in an
// ELF image of len bytes: .symtab first (hidden functions are there), then
// .dynsym.  Bounds-checked against len; no allocation.
bool FindElfSymbol(const char* img, size_t len, uintptr_t vaddr, char* name, size_t size,
                   uintptr_t* offset) {
  if (len < sizeof(ElfW(Ehdr))) return false;
  const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(img);
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
      eh->e_shoff == 0 || eh->e_shoff > len ||
      (len - eh->e_shoff) / sizeof(ElfW(Shdr)) < eh->e_shnum) {
    return false;
  }
  const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(img + eh->e_shoff);
  for (ElfW(Word) type : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (size_t i = 0; i < eh->e_shnum; ++i) {
      const ElfW(Shdr)& tab = sections[i];
      if (tab.sh_type != type || tab.sh_entsize != sizeof(ElfW(Sym)) || tab.sh_link >= eh->e_shnum ||
          tab.sh_offset > len || tab.sh_size > len - tab.sh_offset) {
        continue;
      }
      const ElfW(Shdr)& strs = sections[tab.sh_link];
      if (strs.sh_offset > len || strs.sh_size > len - strs.sh_offset) continue;
      const auto* syms = reinterpret_cast<const ElfW(Sym)*>(img + tab.sh_offset);
      for (size_t k = 0; k < tab.sh_size / sizeof(ElfW(Sym)); ++k) {
        const ElfW(Sym)& sym = syms[k];
        int kind = ELF64_ST_TYPE(sym.st_info);  // the same low 4 bits in ELF32
        if ((kind != STT_FUNC && kind != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
            vaddr < sym.st_value || vaddr - sym.st_value >= sym.st_size ||
            sym.st_name >= strs.sh_size) {
          continue;
        }
        const char* str = img + strs.sh_offset + sym.st_name;
        size_t n = strnlen(str, strs.sh_size - sym.st_name);
        if (n >= size) n = size - 1;
        std::memcpy(name, str, n);
        name[n] = '\0';
        *offset = vaddr - sym.st_value;
        return true;
      }
    }
  }
  return false;
}

// Names the function holding addr from the symbol tables of the file it was
// loaded from (dladdr alone sees only exported functions).  Only system calls
// besides dladdr1, no allocation: the crash handler uses it too.
bool ElfSymbolAt(uintptr_t addr, char* name, size_t size, uintptr_t* offset) {
  Dl_info info;
  struct link_map* map = nullptr;
  if (size == 0 ||
      dladdr1(reinterpret_cast<void*>(addr), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0 ||
      map == nullptr) {
    return false;
  }
  // The main program's link map has no name.
  const char* path = map->l_name != nullptr && map->l_name[0] != '\0' ? map->l_name : "/proc/self/exe";
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  void* image = MAP_FAILED;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    image = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  close(fd);
  if (image == MAP_FAILED) return false;
  bool found = FindElfSymbol(static_cast<const char*>(image), static_cast<size_t>(st.st_size),
                             addr - map->l_addr, name, size, offset);
  munmap(image, static_cast<size_t>(st.st_size));
  return found;
}

// Walks the calling thread's stack with the C++ runtime's unwinder: visit(ip,
// signal_frame) for each frame above the caller, most recent first, until it
// returns false.  ip is a return address, except in a frame a signal
// interrupted (signal_frame), where it is the interrupted instruction.
template <typename Visit>
void WalkStack(Visit visit) {
  struct State {
    Visit* visit;
    bool skipped_caller;
  };
  auto step = [](struct _Unwind_Context* context, void* arg) -> _Unwind_Reason_Code {
    State* state = static_cast<State*>(arg);
    int before_insn = 0;
    uintptr_t ip = _Unwind_GetIPInfo(context, &before_insn);
    if (ip == 0) return _URC_END_OF_STACK;
    // The first frame is the one that called _Unwind_Backtrace.
    if (!state->skipped_caller) {
      state->skipped_caller = true;
      return _URC_NO_REASON;
    }
    // Nothing may be thrown through the unwinder's own frames.
    try {
      return (*state->visit)(ip, before_insn != 0) ? _URC_NO_REASON : _URC_END_OF_STACK;
    } catch (...) {
      return _URC_END_OF_STACK;
    }
  };
  State state{&visit, false};
  _Unwind_Backtrace(step, &state);
}

// What a program counter resolves to, formatted once: one line per
// source-level frame (several when calls were inlined there).
struct Frame {
  std::string text;  // `  File "<file>", line <n>, in <function>\n` lines
  Boundary boundary;  // of the function holding the pc
  bool machinery;     // nothing but the library's own capture or bracket
};

void AppendLine(std::string* out, const char* file, int line, const std::string& func) {
  out->append("  File \"").append(file).append("\", line ").append(std::to_string(line));
  out->append(", in ").append(func).append("\n");
}

// Names the code at addr (a return address minus one, so that it lies in the
// call instruction).  Tens of microseconds: the reason for the cache.
std::shared_ptr<const Frame> Symbolize(uintptr_t addr) {
  std::vector<DwarfReader::SourceFrame> frames;
  bool named = DwarfReader::Get().Lookup(addr, &frames);
  if (frames.empty()) frames.emplace_back();
  DwarfReader::SourceFrame& outer = frames.back();
  if (!named) {
    char raw[512];
    uintptr_t offset = 0;
    if (ElfSymbolAt(addr, raw, sizeof(raw), &offset)) outer.name = raw;
  }
  if (outer.name.empty()) outer.name = "<unknown>";
  std::string module;
  Dl_info info;
  module = dladdr(reinterpret_cast<void*>(addr), &info) != 0 && info.dli_fname != nullptr &&
                   info.dli_fname[0] != '\0'
               ? info.dli_fname
               : "<unknown>";
  auto frame = std::make_shared<Frame>();
  frame->boundary = BoundaryOf(outer.name.c_str());
  frame->machinery = true;
  bool has_debug_info = !outer.file.empty();
  for (const DwarfReader::SourceFrame& f : frames) {
    std::string function = Demangle(f.name.c_str());
    if (IsMachinery(function) || (has_debug_info && IsBracket(function))) continue;
    frame->machinery = false;
    AppendLine(&frame->text, f.file.empty() ? module.c_str() : f.file.c_str(), f.line,
               ReadableName(function));
  }
  return frame;
}

// Frames by address.  Errors are raised again and again from the same few
// places, so a second raise from a place costs the unwind and one lookup per
// frame.
class FrameCache {
 public:
  static FrameCache& Get() {
    static FrameCache* cache = new FrameCache();  // used until exit
    return *cache;
  }

  std::shared_ptr<const Frame> Lookup(uintptr_t addr) {
    {
      std::shared_lock<std::shared_mutex> lock(mutex_);
      auto it = frames_.find(addr);
      if (it != frames_.end()) {
        hits_.fetch_add(1, std::memory_order_relaxed);
        return it->second;
      }
    }
    misses_.fetch_add(1, std::memory_order_relaxed);
    std::shared_ptr<const Frame> frame = Symbolize(addr);
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (frames_.size() >= kMaxEntries) frames_.clear();
    frames_.emplace(addr, frame);
    return frame;
  }

  BacktraceCacheStats Stats() {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return {hits_.load(), misses_.load(), static_cast<uint64_t>(frames_.size())};
  }

  void Clear() {
    std::unordered_map<uintptr_t, std::shared_ptr<const Frame>> old;
    {
      std::unique_lock<std::shared_mutex> lock(mutex_);
      old.swap(frames_);
      hits_ = 0;
      misses_ = 0;
    }
  }

 private:
  static constexpr size_t kMaxEntries = 1 << 16;
  std::shared_mutex mutex_;  // guards frames_
  std::unordered_map<uintptr_t, std::shared_ptr<const Frame>> frames_;
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

// The loader counts every library it unloads (dlpi_subs, glibc).  Any
// dlclose, ours or anyone's, may leave cached frames naming code that is
// gone, and a later library may be mapped at the same addresses; so a
// capture that sees the count move first forgets what it knew.
int ReadUnloadCount(struct dl_phdr_info* info, size_t size, void* out) {
  if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
    *static_cast<unsigned long long*>(out) = info->dlpi_subs;
  }
  return 1;  // the first entry carries the process-wide counters
}

void ForgetIfLibrariesWereUnloaded() {
  static std::atomic<unsigned long long> seen{0};
  unsigned long long now = 0;
  dl_iterate_phdr(ReadUnloadCount, &now);
  unsigned long long before = seen.load(std::memory_order_acquire);
  if (now != before && seen.compare_exchange_strong(before, now, std::memory_order_acq_rel)) {
    ForgetUnloadedLibraries();
  }
}

}  // namespace

std::string CaptureBacktrace(const char* file, int line, const char* func,
                             int boundary_mode) noexcept {
  std::string out;
  try {
    if (file != nullptr && func != nullptr) AppendLine(&out, file, line, func);
    int limit = FrameLimit();
    if (limit == 0) return out;
    ForgetIfLibrariesWereUnloaded();
    int frames = 0;
    // kBacktraceCallerSegment: nothing is kept until the first FFI call is passed.
    bool keeping = boundary_mode != kBacktraceCallerSegment;
    bool crossing = false;  // just passed the boundary frames of one call
    WalkStack([&](uintptr_t ip, bool signal_frame) {
      if (frames >= limit) return false;
      // A return address follows its call: the call is the instruction before it.
      std::shared_ptr<const Frame> frame = FrameCache::Get().Lookup(signal_frame ? ip : ip - 1);
      if (!keeping) {
        if (frame->boundary == kInterpreter) return false;
        if (frame->boundary == kFFICall) keeping = crossing = true;
        return true;
      }
      // One crossing can show several frames: the callee's entry, the
      // library's own wrapper around it (a separate frame without
      // optimisation) and TVMFFIFunctionCall.
      if (crossing && (frame->boundary == kFFICall || frame->machinery)) return true;
      crossing = false;
      if (boundary_mode != kBacktraceCrossBoundary && frame->boundary != kNotBoundary) return false;
      if (frame->machinery || frame->boundary == kFFICall) return true;
      out += frame->text;
      ++frames;
      return true;
    });
  } catch (...) {
  }
  return out;
}

BacktraceCacheStats GetBacktraceCacheStats() noexcept { return FrameCache::Get().Stats(); }

void ForgetUnloadedLibraries() noexcept {
  try {
    FrameCache::Get().Clear();
    DwarfReader::Get().Refresh();
  } catch (...) {
  }
}

void ClearBacktraceCache() noexcept {
  try {
    FrameCache::Get().Clear();
  } catch (...) {
  }
}

// ---------------------------------------------------------------------------
// The crash handler: on SIGSEGV, SIGBUS or SIGFPE print the native stack to
// stderr, then die of the same signal.  Off unless TVM_FFI_CRASH_BACKTRACE is
// set to a value other than 0 when the library loads.

namespace {

void WriteAll(const char* s, size_t n) {
  while (n > 0) {
    ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}
void WriteStr(const char* s) { WriteAll(s, std::strlen(s)); }

const char* SignalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    default: return "signal";
  }
}

// Names come from the symbol tables only (ElfSymbolAt): no cache, no libdw,
// no allocation, no lock of ours that the crashed thread may hold.
void PrintCrashBacktrace(int sig) {
  char buf[1024];
  std::snprintf(buf, sizeof(buf),
                "tvm_ffi: fatal signal %d (%s); native backtrace, most recent call first:\n", sig,
                SignalName(sig));
  WriteStr(buf);
  bool in_handler = true;  // frames of this handler and the kernel's trampoline
  int frames = 0;
  WalkStack([&](uintptr_t ip, bool signal_frame) {
    if (in_handler) {
      // The unwinder flags the frame the signal interrupted.
      if (!signal_frame) return true;
      in_handler = false;
    }
    char name[512];
    uintptr_t offset = 0;
    if (!ElfSymbolAt(signal_frame ? ip : ip - 1, name, sizeof(name), &offset)) {
      std::snprintf(name, sizeof(name), "<unknown>");
    } else if (!signal_frame) {
      ++offset;  // from the return address, as the pc printed
    }
    Dl_info info;
    const char* module =
        dladdr(reinterpret_cast<void*>(ip), &info) != 0 && info.dli_fname != nullptr
            ? info.dli_fname
            : "<unknown>";
    std::snprintf(buf, sizeof(buf), "  #%d 0x%lx in %s+0x%lx (%s)\n", frames,
                  static_cast<unsigned long>(ip), name, static_cast<unsigned long>(offset), module);
    WriteStr(buf);
    return ++frames < 128;
  });
}

void CrashHandler(int sig, siginfo_t*, void*) {
  static std::atomic<bool> entered{false};
  if (!entered.exchange(true)) PrintCrashBacktrace(sig);
  signal(sig, SIG_DFL);
  raise(sig);
}

bool InstallCrashHandlerFromEnv() {
  const char* env = std::getenv("TVM_FFI_CRASH_BACKTRACE");
  if (env == nullptr || *env == '\0' || std::strcmp(env, "0") == 0) return false;
  InstallCrashHandler();
  return true;
}

[[maybe_unused]] const bool crash_handler_installed = InstallCrashHandlerFromEnv();

}  // namespace

void InstallCrashHandler() noexcept {
  // An alternate stack for this thread, so that a stack overflow is reported too.
  static char* alt_stack = static_cast<char*>(std::malloc(1 << 16));
  if (alt_stack != nullptr) {
    stack_t ss = {};
    ss.ss_sp = alt_stack;
    ss.ss_size = 1 << 16;
    sigaltstack(&ss, nullptr);
  }
  struct sigaction sa = {};
  sa.sa_sigaction = &CrashHandler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE}) sigaction(sig, &sa, nullptr);
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

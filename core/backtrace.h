// Backtraces: the call stack as text, most recent call first.
#ifndef TVM_FFI_CORE_BACKTRACE_H_
#define TVM_FFI_CORE_BACKTRACE_H_

#include <cstdint>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// How far a capture walks.
enum BacktraceBoundaryMode : int {
  kBacktraceStopAtBoundary = 0,  // stop at the first TVMFFIFunctionCall or interpreter frame
  kBacktraceCrossBoundary = 1,   // walk the whole stack
  // Skip to just past the first TVMFFIFunctionCall, then keep frames until
  // the next boundary: the native caller of a callback (e.g. a Python
  // function called from C), taken inside the callback.
  kBacktraceCallerSegment = 2,
};

// Returns lines `  File "<file>", line <n>, in <function>\n`, most recent call
// first (abi-v0.1.md §6.6).  When file and func are non-null their line comes
// first.  The capture's own frames and the library's brackets are left out.
// Never throws.
std::string CaptureBacktrace(const char* file, int line, const char* func,
                             int boundary_mode) noexcept;

// The per-address frame cache: lookups that found a frame, lookups that had
// to symbolize, frames held.
struct BacktraceCacheStats {
  uint64_t hits;
  uint64_t misses;
  uint64_t size;
};
BacktraceCacheStats GetBacktraceCacheStats() noexcept;
// Called after a library is unloaded: its addresses may be reused by the next
// one, so cached frames are dropped and the DWARF reader lets go of its files.
void ForgetUnloadedLibraries() noexcept;
void ClearBacktraceCache() noexcept;  // also zeroes the counters

// Prints the native stack on SIGSEGV, SIGBUS and SIGFPE (then dies of the
// signal).  Done at load time when TVM_FFI_CRASH_BACKTRACE is set and not 0.
void InstallCrashHandler() noexcept;

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_BACKTRACE_H_

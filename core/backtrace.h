// Backtraces: the call stack as text, most recent call first.
#ifndef TVMFFI_CORE_BACKTRACE_H_
#define TVMFFI_CORE_BACKTRACE_H_

#include <string>

namespace tvmffi {
namespace core {

// Returns lines `  File "<file>", line <n>, in <function>\n`, most recent call
// first.  When file and func are non-null their line comes first.  Unless
// cross_ffi_boundary is set, the walk stops at the first TVMFFIFunctionCall
// frame (the boundary to the caller's language).  `skip` drops that many
// innermost frames (the capture machinery itself).  Never throws.
std::string CaptureBacktrace(const char* file, int line, const char* func,
                             bool cross_ffi_boundary, int skip) noexcept;

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_BACKTRACE_H_

// Load-time registration of the library's globals (global_def.h).
#include "global_def.h"

#include <cstdio>
#include <exception>

#include "error_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

bool RegisterAtLoad(void (*body)()) noexcept {
  try {
    body();
    return true;
  } catch (...) {
    try {
      throw;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tvm-ffi: a registration made while loading a library failed: %s\n",
                   e.what());
    } catch (...) {
      std::fprintf(stderr, "tvm-ffi: a registration made while loading a library failed\n");
    }
    SetRaisedFromCurrentException();
    return false;
  }
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

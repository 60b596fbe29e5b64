// Repeated registrations from another library: kept first, skipped with a warning.
//
// Two libraries that carry the same types and globals (apache-tvm-ffi's
// libtvm_ffi_testing.so and ours, or two builds of one kernel) both register
// them from their load-time initialisers.  Upstream's initialisers throw on a
// failed registration, and a throw there ends the process; so a registration
// that repeats one ANOTHER library made is not an error: the first one is
// kept, the call succeeds, and one line per pair of libraries goes to stderr.
//
// A repeat from the library that made the first registration (two
// registrations of one type in one program) is still an error, reported by
// the registry as before.  "Library" is the loaded object (dladdr) that holds
// the code calling the exported function; the first caller that registers
// something for a type index or a global name becomes its owner.
#ifndef TVM_FFI_CORE_DUPLICATE_REGISTRATION_H_
#define TVM_FFI_CORE_DUPLICATE_REGISTRATION_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace duplicate_registration {

enum class Kind { kMetadata, kField, kMethod, kAttr };

// Whether a registration of `kind` (named `name`; unused for metadata) for
// `type_index`, made by code at address `caller`, repeats an existing one
// that another library made, and so must be skipped.  Records `caller`'s
// library as the owner of `type_index` when it has none.  Never throws.
bool SkipTypeRepeat(int32_t type_index, Kind kind, const std::string& name,
                    const void* caller) noexcept;

// Likewise for a global function `name` registered without override.
bool SkipGlobalRepeat(const std::string& name, const void* caller) noexcept;

}  // namespace duplicate_registration
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_DUPLICATE_REGISTRATION_H_

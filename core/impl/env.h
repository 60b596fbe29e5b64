// The environment: device streams, the DLPack allocator, host callbacks, symbols.
//
// Streams and the allocator are per thread; the symbol tables are the ones
// generated libraries use.
#ifndef TVM_FFI_CORE_IMPL_ENV_H_
#define TVM_FFI_CORE_IMPL_ENV_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <string>
#include <utility>
#include <vector>

#include "error.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// Sets the calling thread's stream for a device for the lifetime of the
// guard, then puts the previous one back.  Header-only over the C ABI.
class StreamGuard {
 public:
  StreamGuard(DLDevice device, TVMFFIStreamHandle stream) : device_(device) {
    int rc = TVMFFIEnvSetStream(device.device_type, device.device_id, stream, &previous_);
    if (rc != 0) ThrowRaised(rc);
  }
  ~StreamGuard() {
    TVMFFIEnvSetStream(device_.device_type, device_.device_id, previous_, nullptr);
  }
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  DLDevice device_;
  TVMFFIStreamHandle previous_ = nullptr;
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ENV_H_

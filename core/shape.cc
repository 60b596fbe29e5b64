// ffi.Shape global functions.
#include "impl/shape.h"

#include <vector>

#include "container_internal.h"
#include "impl/function.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

// ffi.Shape(*dims): every argument an int.
TVM_FFI_IMPL_REGISTER_GLOBAL_PACKED("ffi.Shape", [](const AnyView* args, int32_t n, Any* rv) {
  std::vector<int64_t> dims(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) dims[i] = detail::CastArgument<int64_t>(args, i, "ffi.Shape");
  *rv = ObjectPtrToAny(ShapeObj::Make(dims.data(), dims.size()));
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

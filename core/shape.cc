// ffi.Shape global functions.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/function.h>

#include <optional>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// ffi.Shape(*dims): every argument an int.
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.Shape", [](PackedArgs args, Any* rv) {
  int64_t* dims = nullptr;
  ObjectPtr<ShapeObj> shape = MakeEmptyShape(static_cast<size_t>(args.size()), &dims);
  for (int i = 0; i < args.size(); ++i) {
    std::optional<int64_t> dim = args[i].try_cast<int64_t>();
    if (!dim.has_value()) {
      TVM_FFI_CORE_THROW(TypeError) << "In function ffi.Shape: argument " << i + 1
                                    << ": expected int, got "
                                    << TypeIndexToDisplayName(args[i].type_index());
    }
    dims[i] = *dim;
  }
  *rv = ObjectRef(std::move(shape));
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// Container-key equality and hashing for the files still written on this
// layer: the names they call, forwarding to core/map_key.h (the one
// implementation).  Delete when impl/map.h, array.h and enum.h are ported.
#ifndef TVM_FFI_CORE_IMPL_ANY_EQUAL_H_
#define TVM_FFI_CORE_IMPL_ANY_EQUAL_H_

#include "../map_key.h"
#include "any.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace detail {
using ::tvm::ffi::detail::core::HashBytes;
using ::tvm::ffi::detail::core::HashCombine;
using ::tvm::ffi::detail::core::KeyAttrColumn;
using ::tvm::ffi::detail::core::KeyAttrEntry;
using ::tvm::ffi::detail::core::ModMersenne31;
using ::tvm::ffi::detail::core::SameBytes;
}  // namespace detail

using ::tvm::ffi::detail::core::AnyKeyEqual;
using ::tvm::ffi::detail::core::AnyKeyHash;
using ::tvm::ffi::detail::core::RenderKey;

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ANY_EQUAL_H_

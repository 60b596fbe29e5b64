// Tensors: the library-internal side of the tensor functions.
#ifndef TVM_FFI_CORE_TENSOR_INTERNAL_H_
#define TVM_FFI_CORE_TENSOR_INTERNAL_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Library-internal (defined in tensor.cc, not exported).  Each function
// throws Error on failure and then leaves `from` with the caller.

TVMFFIObjectHandle TensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                   bool require_contiguous);
TVMFFIObjectHandle TensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                            int32_t require_alignment, bool require_contiguous);
DLManagedTensor* TensorToDLPack(TVMFFIObjectHandle tensor);
DLManagedTensorVersioned* TensorToDLPackVersioned(TVMFFIObjectHandle tensor);
TVMFFIObjectHandle TensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype);
// The DLPack flags recorded at import (READ_ONLY, IS_COPIED); 0 for tensors
// made by other libraries.
uint64_t TensorDLPackFlags(TVMFFIObjectHandle tensor);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_TENSOR_INTERNAL_H_

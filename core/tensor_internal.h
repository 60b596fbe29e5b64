// Tensors: the library-internal side of the tensor functions.
#ifndef TVMFFI_CORE_TENSOR_INTERNAL_H_
#define TVMFFI_CORE_TENSOR_INTERNAL_H_

#include <tvmffi/tensor.h>

namespace tvmffi {
namespace core {

// Library-internal (defined in tensor.cc, not exported).  Each function
// throws Error on failure and then leaves `from` with the caller.

ObjectPtr<Object> TensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                   bool require_contiguous);
ObjectPtr<Object> TensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                            int32_t require_alignment, bool require_contiguous);
DLManagedTensor* TensorToDLPack(TVMFFIObjectHandle tensor);
DLManagedTensorVersioned* TensorToDLPackVersioned(TVMFFIObjectHandle tensor);
ObjectPtr<Object> TensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype);
// The DLPack flags recorded at import (READ_ONLY, IS_COPIED); 0 for tensors
// made by other libraries.
uint64_t TensorDLPackFlags(TVMFFIObjectHandle tensor);

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_TENSOR_INTERNAL_H_

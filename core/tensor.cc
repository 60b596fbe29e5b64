// Tensors made by this library: DLPack import/export, unsafe views, ownership.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

#include "dtype_internal.h"
#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "tensor_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// DLPack version written into exported versioned tensors.
constexpr uint32_t kExportDLPackMajor = 1;
constexpr uint32_t kExportDLPackMinor = 3;

// Who keeps the memory alive.
enum class Owner : uint8_t {
  kLegacy,     // a DLManagedTensor*: its deleter runs when the tensor dies
  kVersioned,  // a DLManagedTensorVersioned*: likewise
  kSource,     // a strong reference to another object (unsafe views)
};

// layout = { TVMFFIObject, DLTensor, owner state, int64 dims[] } — the
// trailing dims hold strides synthesised at import (NULL strides from the
// producer) or the shape and strides copied into a view.
class LibTensorObj : public TensorObj {
 public:
  LibTensorObj(Owner kind, void* owner, uint64_t flags)
      : owner_kind_(kind), owner_(owner), flags_(flags) {}
  ~LibTensorObj() {
    switch (owner_kind_) {
      case Owner::kLegacy: {
        DLManagedTensor* mt = static_cast<DLManagedTensor*>(owner_);
        if (mt->deleter != nullptr) mt->deleter(mt);
        break;
      }
      case Owner::kVersioned: {
        DLManagedTensorVersioned* mt = static_cast<DLManagedTensorVersioned*>(owner_);
        if (mt->deleter != nullptr) mt->deleter(mt);
        break;
      }
      case Owner::kSource:
        ObjectDecRef(static_cast<TVMFFIObject*>(owner_));
        break;
    }
  }
  LibTensorObj(const LibTensorObj&) = delete;
  LibTensorObj& operator=(const LibTensorObj&) = delete;

  int64_t* dims() { return reinterpret_cast<int64_t*>(this + 1); }
  uint64_t flags() const { return flags_; }
  DLTensor& tensor() { return *this; }

 private:
  Owner owner_kind_;
  void* owner_;  // owned as owner_kind_ says
  uint64_t flags_;
};

static_assert(sizeof(LibTensorObj) % alignof(int64_t) == 0, "trailing dims stay aligned");

// Whether `h` is a tensor made here (whose state behind the cell we know):
// the deleter make_object and make_inplace_array_object store for LibTensorObj.
bool IsLibTensor(TVMFFIObjectHandle h) {
  const TVMFFIObject* header = static_cast<const TVMFFIObject*>(h);
  return header->type_index == kTVMFFITensor &&
         TVM_FFI_OBJECT_DELETER(header) == &::tvm::ffi::detail::SimpleObjDeleter<LibTensorObj>;
}

// Devices whose `data` is a plain address (so data + byte_offset can be
// checked for alignment); elsewhere `data` is an opaque handle.
bool IsDirectAddressDeviceType(int32_t device_type) {
  switch (device_type) {
    case kDLCPU:
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLCUDAManaged:
    case kDLROCM:
    case kDLROCMHost:
      return true;
    default:
      return false;
  }
}

std::string FormatDims(const int64_t* dims, int32_t n) {
  std::ostringstream os;
  os << '[';
  for (int32_t i = 0; i < n; ++i) os << (i == 0 ? "" : ", ") << dims[i];
  os << ']';
  return os.str();
}

std::string FormatDType(DLDataType dtype) {
  std::ostringstream os;
  os << "(code " << int(dtype.code) << ", bits " << int(dtype.bits) << ", lanes " << dtype.lanes
     << ")";
  return os.str();
}

// Refuses shapes whose element count, or byte size, does not fit in int64
// (as numpy does, the zero dimensions are left out of the count, so that the
// compact strides synthesised for NULL strides fit too: each is a product of
// some of the non-zero dimensions).  Dimensions are already known >= 0.
void CheckSizeFitsInt64(const DLTensor& t) {
  int64_t count = 1;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] == 0) continue;
    if (__builtin_mul_overflow(count, t.shape[i], &count)) {
      TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor shape " << FormatDims(t.shape, t.ndim)
                                 << " has more elements than fit in int64";
    }
  }
  unsigned __int128 bits = static_cast<unsigned __int128>(count) * t.dtype.bits * t.dtype.lanes;
  if ((bits + 7) / 8 > static_cast<unsigned __int128>(INT64_MAX)) {
    TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor shape " << FormatDims(t.shape, t.ndim)
                               << " with dtype " << FormatDType(t.dtype)
                               << " takes more bytes than fit in int64";
  }
}

// An element type a kernel can be handed: at least one bit and one lane, and
// a DLPack type code (up to kDLFloat4_e2m1fn) or a custom one (>= 129).
void CheckElementType(const DLDataType& dtype) {
  std::string why;
  if (dtype.bits == 0) {
    why = "bits must be at least 1";
  } else if (dtype.lanes == 0) {
    why = "lanes must be at least 1";
  } else if (dtype.code > kDLFloat4_e2m1fn && dtype.code < dtype::kCustomBegin) {
    why = "unknown type code " + std::to_string(dtype.code);
  } else {
    return;
  }
  TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor has an invalid dtype {code " << int(dtype.code)
                             << ", bits " << int(dtype.bits) << ", lanes " << dtype.lanes
                             << "}: " << why;
}

// The checks shared by both import paths.  Every refusal of the tensor
// itself is a RuntimeError (as upstream); bad arguments are ValueErrors.
void CheckImport(const DLTensor& t, int32_t require_alignment, bool require_contiguous) {
  if (require_alignment < 0) {
    TVM_FFI_CORE_THROW(ValueError) << "require_alignment must be non-negative, got "
                             << require_alignment;
  }
  CheckElementType(t.dtype);
  if (t.ndim < 0) {
    TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor has a negative ndim " << t.ndim;
  }
  if (t.ndim > 0 && t.shape == nullptr) {
    TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor with ndim " << t.ndim << " has a NULL shape";
  }
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0) {
      TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor has a negative dimension: shape "
                                 << FormatDims(t.shape, t.ndim);
    }
  }
  CheckSizeFitsInt64(t);
  if (require_alignment > 0) {
    uint64_t align = static_cast<uint64_t>(require_alignment);
    if (IsDirectAddressDeviceType(t.device.device_type)) {
      uint64_t addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(t.data)) + t.byte_offset;
      if (addr % align != 0) {
        TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor data is not aligned to " << align
                                   << " bytes: data + byte_offset = 0x" << std::hex << addr;
      }
    } else if (t.byte_offset % align != 0) {
      TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor byte_offset " << t.byte_offset
                                 << " is not a multiple of the required alignment " << align;
    }
  }
  if (require_contiguous && !IsContiguous(t)) {
    TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor is not contiguous: shape "
                               << FormatDims(t.shape, t.ndim) << ", strides "
                               << FormatDims(t.strides, t.ndim);
  }
}

// Builds the tensor over `src`, owned by `owner`.  Nothing can fail once the
// object exists, so on failure the owner stays with the caller and its
// deleter never runs.  Shape (and strides when given) stay the producer's.
ObjectPtr<LibTensorObj> MakeImported(const DLTensor& src, Owner kind, void* owner,
                                     uint64_t flags) {
  bool synth = src.strides == nullptr;
  size_t n = static_cast<size_t>(std::max<int32_t>(src.ndim, 1));
  ObjectPtr<LibTensorObj> obj =
      make_inplace_array_object<LibTensorObj, int64_t>(synth ? n : 0, kind, owner, flags);
  obj->tensor() = src;
  if (synth) {
    int64_t* strides = obj->dims();
    // CheckSizeFitsInt64 ran: no partial product here overflows.
    int64_t step = 1;
    for (int32_t i = src.ndim - 1; i >= 0; --i) {
      strides[i] = step;
      step *= src.shape[i];
    }
    if (src.ndim == 0) strides[0] = 1;  // never read; keeps the pointer non-NULL
    obj->strides = strides;
  }
  return obj;
}

const TensorObj* AsTensor(TVMFFIObjectHandle h, const char* func) {
  if (h == nullptr) TVM_FFI_CORE_THROW(ValueError) << func << ": tensor must not be NULL";
  const Object* obj = static_cast<const Object*>(h);
  if (!obj->IsInstance<TensorObj>()) {
    TVM_FFI_CORE_THROW(TypeError) << func << ": expected ffi.Tensor, got "
                                  << TypeIndexToDisplayName(obj->type_index());
  }
  return static_cast<const TensorObj*>(obj);
}

void DeleteExportedLegacy(DLManagedTensor* self) {
  TVMFFIObject* tensor = static_cast<TVMFFIObject*>(self->manager_ctx);
  delete self;
  ObjectDecRef(tensor);
}

void DeleteExportedVersioned(DLManagedTensorVersioned* self) {
  TVMFFIObject* tensor = static_cast<TVMFFIObject*>(self->manager_ctx);
  delete self;
  ObjectDecRef(tensor);
}

}  // namespace

TVMFFIObjectHandle TensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                                    bool require_contiguous) {
  CheckImport(from->dl_tensor, require_alignment, require_contiguous);
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
      MakeImported(from->dl_tensor, Owner::kLegacy, from, 0));
}

TVMFFIObjectHandle TensorFromDLPackVersioned(DLManagedTensorVersioned* from,
                                             int32_t require_alignment, bool require_contiguous) {
  // Only the fields up to `flags` are known for other major versions.
  if (from->version.major != kExportDLPackMajor) {
    TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor version " << from->version.major << "."
                               << from->version.minor
                               << " is not supported: the major version must be "
                               << kExportDLPackMajor;
  }
  if (from->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) {
    TVM_FFI_CORE_THROW(RuntimeError) << "DLPack tensor has the IS_SUBBYTE_TYPE_PADDED flag: padded "
                                  "sub-byte element types are not supported";
  }
  CheckImport(from->dl_tensor, require_alignment, require_contiguous);
  uint64_t kept = from->flags & (DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED);
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
      MakeImported(from->dl_tensor, Owner::kVersioned, from, kept));
}

DLManagedTensor* TensorToDLPack(TVMFFIObjectHandle tensor) {
  const TensorObj* t = AsTensor(tensor, "TVMFFITensorToDLPack");
  DLManagedTensor* out = new DLManagedTensor();
  out->dl_tensor = *static_cast<const DLTensor*>(t);
  out->manager_ctx = tensor;
  out->deleter = &DeleteExportedLegacy;
  ObjectIncRef(static_cast<TVMFFIObject*>(tensor));
  return out;
}

DLManagedTensorVersioned* TensorToDLPackVersioned(TVMFFIObjectHandle tensor) {
  const TensorObj* t = AsTensor(tensor, "TVMFFITensorToDLPackVersioned");
  DLManagedTensorVersioned* out = new DLManagedTensorVersioned();
  out->version.major = kExportDLPackMajor;
  out->version.minor = kExportDLPackMinor;
  out->manager_ctx = tensor;
  out->deleter = &DeleteExportedVersioned;
  out->flags = TensorDLPackFlags(tensor) & DLPACK_FLAG_BITMASK_READ_ONLY;
  out->dl_tensor = *static_cast<const DLTensor*>(t);
  ObjectIncRef(static_cast<TVMFFIObject*>(tensor));
  return out;
}

TVMFFIObjectHandle TensorCreateUnsafeView(TVMFFIObjectHandle source,
                                          const DLTensor* prototype) {
  const char* func = "TVMFFITensorCreateUnsafeView";
  if (source == nullptr) TVM_FFI_CORE_THROW(ValueError) << func << ": source must not be NULL";
  if (prototype == nullptr) {
    TVM_FFI_CORE_THROW(ValueError) << func << ": prototype must not be NULL";
  }
  AsTensor(source, func);  // the source must be a tensor
  const DLTensor& p = *prototype;
  if (p.ndim < 0) {
    TVM_FFI_CORE_THROW(ValueError) << func << ": prototype has a negative ndim " << p.ndim;
  }
  if (p.ndim > 0 && (p.shape == nullptr || p.strides == nullptr)) {
    const char* which = p.shape == nullptr ? "shape" : "strides";
    TVM_FFI_CORE_THROW(InternalError) << func << ": prototype " << which
                                      << " must not be NULL (ndim " << p.ndim << ")";
  }
  size_t n = static_cast<size_t>(std::max<int32_t>(p.ndim, 1));
  uint64_t flags = IsLibTensor(source) ? TensorDLPackFlags(source) : 0;
  ObjectPtr<LibTensorObj> obj =
      make_inplace_array_object<LibTensorObj, int64_t>(2 * n, Owner::kSource, source, flags);
  ObjectIncRef(static_cast<TVMFFIObject*>(source));
  int64_t* dims = obj->dims();
  obj->tensor() = p;
  if (p.ndim > 0) {
    std::copy(p.shape, p.shape + p.ndim, dims);
    std::copy(p.strides, p.strides + p.ndim, dims + n);
  } else {
    dims[0] = 1;
    dims[n] = 1;
  }
  obj->shape = dims;
  obj->strides = dims + n;
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj));
}

uint64_t TensorDLPackFlags(TVMFFIObjectHandle tensor) {
  if (!IsLibTensor(tensor)) return 0;
  return static_cast<const LibTensorObj*>(static_cast<Object*>(tensor))->flags();
}

namespace {

// What ffi.TensorIsReadOnly does with a borrowed DLTensor*: the view it
// would make over the caller's memory (shape and strides copied, the data
// borrowed) is imported and dropped, so a DLTensor the import refuses is
// refused here too.  Such a view is never read-only.
void CheckBorrowedDLTensor(const DLTensor& t) {
  if (t.ndim < 0) TVM_FFI_CORE_THROW(ValueError) << "DLTensor has a negative ndim " << t.ndim;
  if (t.ndim > 0 && t.shape == nullptr) {
    TVM_FFI_CORE_THROW(ValueError) << "DLTensor with ndim " << t.ndim << " has a NULL shape";
  }
  size_t n = static_cast<size_t>(t.ndim);
  void* mem = std::malloc(sizeof(DLManagedTensor) + 2 * n * sizeof(int64_t));
  if (mem == nullptr) throw std::bad_alloc();
  DLManagedTensor* mt = static_cast<DLManagedTensor*>(mem);
  int64_t* dims = reinterpret_cast<int64_t*>(mt + 1);
  mt->dl_tensor = t;
  if (n != 0) {
    std::memcpy(dims, t.shape, n * sizeof(int64_t));
    mt->dl_tensor.shape = dims;
    if (t.strides != nullptr) {
      std::memcpy(dims + n, t.strides, n * sizeof(int64_t));
      mt->dl_tensor.strides = dims + n;
    }
  }
  mt->manager_ctx = nullptr;
  mt->deleter = [](DLManagedTensor* self) { std::free(self); };
  TVMFFIObjectHandle h;
  try {
    h = TensorFromDLPack(mt, 0, false);
  } catch (...) {
    std::free(mt);
    throw;
  }
  ObjectDecRef(static_cast<TVMFFIObject*>(h));
}

// The READ_ONLY flag seen at import (views inherit their source's), so that
// frontends can refuse writable access.  False for other libraries' tensors.
// Packed: a DLTensor* argument is taken as a borrowed tensor.
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.TensorIsReadOnly", [](PackedArgs args, Any* rv) {
  if (args.size() != 1) {
    TVM_FFI_CORE_THROW(TypeError) << "Mismatched number of arguments when calling: "
                                     "`ffi.TensorIsReadOnly(0: ffi.Tensor) -> bool`. Expected 1 "
                                     "but got "
                                  << args.size() << " arguments";
  }
  const TVMFFIAny* v = reinterpret_cast<const TVMFFIAny*>(args.data());
  if (v->type_index == kTVMFFIDLTensorPtr && v->v_ptr != nullptr) {
    CheckBorrowedDLTensor(*static_cast<const DLTensor*>(v->v_ptr));
    *rv = false;
    return;
  }
  if (v->type_index < kTVMFFIStaticObjectBegin ||
      !reinterpret_cast<const Object*>(v->v_obj)->IsInstance<TensorObj>()) {
    TVM_FFI_CORE_THROW(TypeError) << "In function ffi.TensorIsReadOnly: argument 1: expected "
                                     "ffi.Tensor, got "
                                  << TypeIndexToDisplayName(v->type_index);
  }
  *rv = (TensorDLPackFlags(v->v_obj) & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
});

}  // namespace

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

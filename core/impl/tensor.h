// Tensors: ffi.Tensor (header + DLTensor cell) and the C++ Tensor reference.
#ifndef TVM_FFI_CORE_IMPL_TENSOR_H_
#define TVM_FFI_CORE_IMPL_TENSOR_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "any.h"
#include "error.h"
#include "function.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// The part of every ffi.Tensor that is ABI: the DLTensor cell at +24.  What
// follows the cell belongs to whichever library made the object, so this
// class is only ever used to read tensors, never to construct one.
class TensorObj : public Object {
 public:
  DLTensor dl_tensor;
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(TensorObj, kTVMFFITensor, "ffi.Tensor")

 protected:
  TensorObj() = default;
};

// Row-major contiguity of a DLTensor: NULL strides and tensors with a zero
// dimension are contiguous; dimensions of size 1 may have any stride.
inline bool IsContiguousLayout(const DLTensor& t) {
  if (t.strides == nullptr || t.ndim <= 0) return true;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] == 0) return true;
  }
  // `expected` is the compact stride of dimension i; once it no longer fits
  // in int64 no stored stride can equal it, so only size-1 dimensions may follow.
  int64_t expected = 1;
  bool overflowed = false;
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] == 1) continue;
    if (overflowed || t.strides[i] != expected) return false;
    overflowed = __builtin_mul_overflow(expected, t.shape[i], &expected);
  }
  return true;
}

// A borrowed run of int64 values (a tensor's shape or strides).
class Int64Span {
 public:
  Int64Span() = default;
  Int64Span(const int64_t* data, size_t size) : data_(data), size_(size) {}
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + size_; }
  const int64_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t operator[](size_t i) const { return data_[i]; }
  std::vector<int64_t> ToVector() const { return std::vector<int64_t>(begin(), end()); }

 private:
  const int64_t* data_ = nullptr;
  size_t size_ = 0;
};

// A reference to an ffi.Tensor made by this or any other library.
class Tensor : public ObjectRef {
 public:
  using ContainerType = TensorObj;
  Tensor() = default;
  explicit Tensor(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  // Adopts a new reference returned by one of the C functions.
  static Tensor AdoptHandle(TVMFFIObjectHandle h) {
    return Tensor(ObjectPtr<Object>::AdoptHandle(h));
  }

  // Wraps a managed tensor without copying (TVMFFITensorFromDLPack).  On
  // success `from` belongs to the tensor; on failure (Error thrown) it still
  // belongs to the caller.
  static Tensor FromDLPack(DLManagedTensor* from, int32_t require_alignment = 0,
                           bool require_contiguous = false) {
    TVMFFIObjectHandle h = nullptr;
    int rc = TVMFFITensorFromDLPack(from, require_alignment, require_contiguous ? 1 : 0, &h);
    if (rc != 0) ThrowRaised(rc);
    return AdoptHandle(h);
  }
  static Tensor FromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment = 0,
                                    bool require_contiguous = false) {
    TVMFFIObjectHandle h = nullptr;
    int rc =
        TVMFFITensorFromDLPackVersioned(from, require_alignment, require_contiguous ? 1 : 0, &h);
    if (rc != 0) ThrowRaised(rc);
    return AdoptHandle(h);
  }

  // A new tensor from the current environment allocator (TVMFFIEnvTensorAlloc).
  static Tensor FromEnvAlloc(const std::vector<int64_t>& shape, DLDataType dtype,
                             DLDevice device) {
    DLTensor proto;
    std::memset(&proto, 0, sizeof(proto));
    proto.device = device;
    proto.ndim = static_cast<int32_t>(shape.size());
    proto.dtype = dtype;
    proto.shape = const_cast<int64_t*>(shape.data());
    TVMFFIObjectHandle h = nullptr;
    int rc = TVMFFIEnvTensorAlloc(&proto, &h);
    if (rc != 0) ThrowRaised(rc);
    return AdoptHandle(h);
  }

  // A tensor over a DLTensor owned by someone else (e.g. a DLTensor* call
  // argument).  Shape and strides are copied; the data is borrowed, so the
  // tensor is only valid while the caller keeps the memory alive.
  static Tensor FromBorrowedDLTensor(const DLTensor& t) {
    if (t.ndim < 0) TVM_FFI_IMPL_THROW(ValueError) << "DLTensor has a negative ndim " << t.ndim;
    if (t.ndim > 0 && t.shape == nullptr) {
      TVM_FFI_IMPL_THROW(ValueError) << "DLTensor with ndim " << t.ndim << " has a NULL shape";
    }
    size_t n = static_cast<size_t>(t.ndim);
    size_t bytes = sizeof(DLManagedTensor) + 2 * n * sizeof(int64_t);
    void* mem = std::malloc(bytes);
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
    TVMFFIObjectHandle h = nullptr;
    int rc = TVMFFITensorFromDLPack(mt, 0, 0, &h);
    if (rc != 0) {
      std::free(mt);
      ThrowRaised(rc);
    }
    return AdoptHandle(h);
  }

  // A new managed tensor holding a reference to this tensor; the consumer
  // calls its deleter.
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* out = nullptr;
    int rc = TVMFFITensorToDLPack(handle(), &out);
    if (rc != 0) ThrowRaised(rc);
    return out;
  }
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    int rc = TVMFFITensorToDLPackVersioned(handle(), &out);
    if (rc != 0) ThrowRaised(rc);
    return out;
  }

  // A tensor over this one's memory described by `prototype` (data, device,
  // dtype, ndim, byte_offset, shape, strides).  No bounds checks.
  Tensor CreateUnsafeView(const DLTensor& prototype) const {
    TVMFFIObjectHandle h = nullptr;
    int rc = TVMFFITensorCreateUnsafeView(handle(), &prototype, &h);
    if (rc != 0) ThrowRaised(rc);
    return AdoptHandle(h);
  }

  // Whether the producer marked the data read-only (DLPack READ_ONLY flag).
  // Known only for tensors this library made; others report false.
  bool IsReadOnly() const {
    static const Function f = Function::GetGlobalRequired("ffi.TensorIsReadOnly");
    return f(*this).As<bool>();
  }

  DLTensor* dl_tensor() const { return &obj()->dl_tensor; }
  const DLTensor* operator->() const { return dl_tensor(); }

  int32_t ndim() const { return dl_tensor()->ndim; }
  Int64Span shape() const { return Int64Span(dl_tensor()->shape, Count()); }
  // Never NULL for tensors of this library (synthesised on import).
  Int64Span strides() const { return Int64Span(dl_tensor()->strides, Count()); }
  DLDataType dtype() const { return dl_tensor()->dtype; }
  DLDevice device() const { return dl_tensor()->device; }
  // The DLTensor's `data` (the first element is at data + byte_offset).
  void* data_ptr() const { return dl_tensor()->data; }
  uint64_t byte_offset() const { return dl_tensor()->byte_offset; }
  // ValueError when the count does not fit in int64 (never for tensors
  // imported by this library, which refuses such shapes).
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape()) {
      if (__builtin_mul_overflow(n, d, &n)) {
        TVM_FFI_IMPL_THROW(ValueError) << "tensor element count overflows int64";
      }
    }
    return n;
  }
  bool IsContiguous() const { return IsContiguousLayout(*dl_tensor()); }

 private:
  TensorObj* obj() const { return static_cast<TensorObj*>(get_mutable()); }
  size_t Count() const {
    const DLTensor* t = dl_tensor();
    return t->ndim > 0 && t->shape != nullptr ? static_cast<size_t>(t->ndim) : 0;
  }
};

// Tensor values: an ffi.Tensor object, or (from arguments) a borrowed
// DLTensor*, which becomes a tensor sharing the caller's memory.
template <>
struct TypeTraits<Tensor> : ObjectRefTraitsBase<Tensor> {
  static std::optional<Tensor> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDLTensorPtr) {
      if (v->v_ptr == nullptr) return std::nullopt;
      return Tensor::FromBorrowedDLTensor(*static_cast<const DLTensor*>(v->v_ptr));
    }
    if (v->type_index < kTVMFFIStaticObjectBegin) return std::nullopt;
    Object* obj = Object::FromHandle(v->v_obj);
    if (!obj->IsInstanceIndex(kTVMFFITensor)) return std::nullopt;
    return Tensor(ObjectPtr<Object>::Borrow(obj));
  }
};


}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_TENSOR_H_

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/tensor.h
 * \brief Tensor (the ffi.Tensor object: an owned DLTensor), TensorView (a
 *        borrowed DLTensor, the usual kernel argument), DLPack exchange and
 *        allocation through a user allocator (FromNDAlloc).
 *
 * Layouts (C++ ABI): TensorObj = Object + DLTensor; Tensor = { ObjectPtr };
 * TensorView = { DLTensor } (a copy of the descriptor, not of the data).
 *
 * A kernel parameter of type TensorView accepts a Tensor object or a raw
 * DLTensor* argument; one of type Tensor accepts only a Tensor object.
 */
#ifndef TVM_FFI_CONTAINER_TENSOR_H_
#define TVM_FFI_CONTAINER_TENSOR_H_

#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {

class Tensor;

/*!
 * \brief True when the host can compute element addresses from `data`
 *        (CPU, CUDA, CUDA host and managed, ROCm, ROCm host); other devices
 *        keep `data` opaque and offsets in byte_offset.
 */
inline bool IsDirectAddressDevice(const DLDevice& device) {
  return device.device_type <= kDLCUDAHost || device.device_type == kDLCUDAManaged ||
         device.device_type == kDLROCM || device.device_type == kDLROCMHost;
}

/*!
 * \brief True for a row-major compact tensor: no strides, or an empty one,
 *        or strides equal to the row-major ones (dimensions of extent 1
 *        may have any stride).
 */
inline bool IsContiguous(const DLTensor& arr) {
  if (arr.strides == nullptr) return true;
  if (std::any_of(arr.shape, arr.shape + arr.ndim, [](int64_t extent) { return extent == 0; })) {
    return true;
  }
  // expected: the row-major stride of dimension k.  Once it no longer fits
  // in int64 no stride can equal it, so any further dimension (of extent
  // other than 1) makes the tensor non-contiguous.
  int64_t expected = 1;
  bool too_large = false;
  for (int32_t k = arr.ndim - 1; k >= 0; --k) {
    if (arr.shape[k] == 1) continue;
    if (too_large || arr.strides[k] != expected) return false;
    too_large = __builtin_mul_overflow(expected, arr.shape[k], &expected);
  }
  return true;
}

/*!
 * \brief True when the first element is aligned to `alignment` bytes: its
 *        address on a direct-address device, else the byte offset.
 */
inline bool IsAligned(const DLTensor& arr, size_t alignment) {
  if (!IsDirectAddressDevice(arr.device)) return arr.byte_offset % alignment == 0;
  return reinterpret_cast<uintptr_t>(static_cast<char*>(arr.data) + arr.byte_offset) % alignment == 0;
}

/*! \brief Bytes taken by `numel` elements of `dtype` (sub-byte types rounded up). */
inline size_t GetDataSize(size_t numel, DLDataType dtype) {
  return static_cast<size_t>((static_cast<uint64_t>(numel) * dtype.bits * dtype.lanes + 7) / 8);
}

/*! \brief Bytes taken by the elements of `arr` (its extents, not its strides). */
inline size_t GetDataSize(const DLTensor& arr) {
  return GetDataSize(static_cast<size_t>(detail::ShapeProduct(arr.shape, arr.ndim)), arr.dtype);
}

/*! \brief The ffi.Tensor object: the header followed by a DLTensor. */
class TensorObj : public Object, public DLTensor {
 public:
  static constexpr const uint32_t _type_index = TypeIndex::kTVMFFITensor;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFITensor, TensorObj, Object);

  /*! \brief A new DLManagedTensor holding a reference to this tensor (freed by its deleter). */
  DLManagedTensor* ToDLPack() const { return Export<DLManagedTensor>(); }
  /*! \brief As ToDLPack, in the versioned form (version of the DLPack this header defines). */
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = Export<DLManagedTensorVersioned>();
    out->version.major = DLPACK_MAJOR_VERSION;
    out->version.minor = DLPACK_MINOR_VERSION;
    return out;
  }

 protected:
  /*! \brief The deleter of an exported tensor: drops the reference, frees the struct. */
  template <typename TDLManagedTensor>
  static void DLManagedTensorDeleter(TDLManagedTensor* tensor) {
    detail::ObjectUnsafe::DecRefObjectHandle(static_cast<TensorObj*>(tensor->manager_ctx));
    delete tensor;
  }

  friend class Tensor;

 private:
  template <typename TDLManagedTensor>
  TDLManagedTensor* Export() const {
    TensorObj* self = const_cast<TensorObj*>(this);
    TDLManagedTensor* out = new TDLManagedTensor();
    out->dl_tensor = *static_cast<DLTensor*>(self);
    out->manager_ctx = self;
    out->deleter = DLManagedTensorDeleter<TDLManagedTensor>;
    detail::ObjectUnsafe::IncRefObjectHandle(self);
    return out;
  }
};

namespace detail {

/*!
 * \brief A tensor whose data comes from an allocator object TNDAlloc with
 *        `void AllocData(DLTensor*, extra...)` (sets data) and
 *        `void FreeData(DLTensor*)`.  Shape and strides live after the
 *        object (2 * ndim int64).
 */
template <typename TNDAlloc>
class TensorObjFromNDAlloc : public TensorObj {
 public:
  using Self = TensorObjFromNDAlloc<TNDAlloc>;

  /*! \brief A row-major tensor of `shape`. */
  template <typename... ExtraArgs>
  TensorObjFromNDAlloc(TNDAlloc alloc, ffi::ShapeView shape, DLDataType dtype, DLDevice device,
                       ExtraArgs&&... extra_args)
      : alloc_(std::move(alloc)) {
    this->data = nullptr;
    this->device = device;
    this->ndim = static_cast<int>(shape.size());
    this->dtype = dtype;
    this->byte_offset = 0;
    this->shape = TailExtents();
    this->strides = this->shape + shape.size();
    std::copy(shape.begin(), shape.end(), this->shape);
    FillStridesFromShape(shape, this->strides);
    alloc_.AllocData(static_cast<DLTensor*>(this), std::forward<ExtraArgs>(extra_args)...);
  }
  /*! \brief A tensor laid out as `prototype` (which must have strides). */
  template <typename... ExtraArgs>
  TensorObjFromNDAlloc(TNDAlloc alloc, const DLTensor& prototype, ExtraArgs&&... extra_args)
      : alloc_(std::move(alloc)) {
    *static_cast<DLTensor*>(this) = prototype;
    this->shape = TailExtents();
    this->strides = this->shape + prototype.ndim;
    TVM_FFI_ICHECK_NOTNULL(prototype.strides);
    std::copy(prototype.shape, prototype.shape + prototype.ndim, this->shape);
    std::copy(prototype.strides, prototype.strides + prototype.ndim, this->strides);
    alloc_.AllocData(static_cast<DLTensor*>(this), std::forward<ExtraArgs>(extra_args)...);
  }
  ~TensorObjFromNDAlloc() { alloc_.FreeData(static_cast<DLTensor*>(this)); }

 private:
  int64_t* TailExtents() { return reinterpret_cast<int64_t*>(reinterpret_cast<char*>(this) + sizeof(Self)); }

  TNDAlloc alloc_;
};

/*!
 * \brief A tensor over a DLPack managed tensor, whose deleter runs when the
 *        tensor dies.  Without strides, row-major strides are made after
 *        the object when `extra_strides_at_tail`.
 */
template <typename TDLPackManagedTensor>
class TensorObjFromDLPack : public TensorObj {
 public:
  using Self = TensorObjFromDLPack<TDLPackManagedTensor>;

  explicit TensorObjFromDLPack(TDLPackManagedTensor* tensor, bool extra_strides_at_tail)
      : tensor_(tensor) {
    *static_cast<DLTensor*>(this) = tensor_->dl_tensor;
    if (extra_strides_at_tail) {
      this->strides = reinterpret_cast<int64_t*>(reinterpret_cast<char*>(this) + sizeof(Self));
      FillStridesFromShape(ShapeView(tensor_->dl_tensor.shape, tensor_->dl_tensor.ndim),
                           this->strides);
    }
  }
  ~TensorObjFromDLPack() {
    if (tensor_->deleter != nullptr) tensor_->deleter(tensor_);
  }

 private:
  TDLPackManagedTensor* tensor_;
};

/*! \brief The IndexError of size(i)/stride(i) with a bad dimension. */
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE inline void ThrowTensorDimError(int64_t idx,
                                                                                int32_t ndim) {
  TVM_FFI_THROW(IndexError) << "Index " << idx << " out of bounds for tensor with " << ndim
                            << " dimensions";
  TVM_FFI_UNREACHABLE();
}

/*! \brief Dimension `idx` of an ndim-dimensional tensor, negative counting from the end. */
TVM_FFI_INLINE int32_t NormalizeTensorDim(int64_t idx, int32_t ndim) {
  int64_t dim = idx >= 0 ? idx : idx + ndim;
  if (dim < 0 || dim >= ndim) ThrowTensorDimError(idx, ndim);
  return static_cast<int32_t>(dim);
}

/*!
 * \brief `base` restrided: `shape`, `strides`, starting `element_offset`
 *        elements further (folded into data on direct-address devices).
 */
inline DLTensor RestrideDLTensor(const DLTensor& base, ShapeView shape, ShapeView strides,
                                 std::optional<int64_t> element_offset) {
  DLTensor out = base;
  out.shape = const_cast<int64_t*>(shape.data());
  out.ndim = static_cast<int>(shape.size());
  out.strides = const_cast<int64_t*>(strides.data());
  int64_t offset = element_offset.value_or(0);
  TVM_FFI_ICHECK_GE(offset, 0);
  out.byte_offset += GetDataSize(static_cast<size_t>(offset), out.dtype);
  if (out.byte_offset != 0 && IsDirectAddressDevice(out.device)) {
    out.data = static_cast<char*>(out.data) + out.byte_offset;
    out.byte_offset = 0;
  }
  return out;
}

/*! \brief The checks FromDLPack applies before taking a managed tensor. */
inline void CheckDLPackImport(const DLTensor& tensor, size_t require_alignment,
                              bool require_contiguous) {
  if (require_alignment != 0 && !IsAligned(tensor, require_alignment)) {
    TVM_FFI_THROW(RuntimeError) << "FromDLPack: Data is not aligned to " << require_alignment
                                << " bytes.";
  }
  if (require_contiguous && !IsContiguous(tensor)) {
    TVM_FFI_THROW(RuntimeError) << "FromDLPack: Tensor is not contiguous.";
  }
}

}  // namespace detail

/*! \brief A reference to an ffi.Tensor (nullable). */
class Tensor : public ObjectRef {
 public:
  Tensor() = default;
  explicit Tensor(::tvm::ffi::ObjectPtr<TensorObj> n) : ObjectRef(std::move(n)) {}
  explicit Tensor(::tvm::ffi::UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Tensor)

  void* data_ptr() const { return get()->data; }
  DLDevice device() const { return get()->device; }
  int32_t ndim() const { return get()->ndim; }
  DLDataType dtype() const { return get()->dtype; }
  ShapeView shape() const { return ShapeView(get()->shape, get()->ndim); }
  /*! \brief The strides (a tensor without strides has none to view: InternalError). */
  ShapeView strides() const {
    TVM_FFI_ICHECK(get()->strides != nullptr || get()->ndim == 0);
    return ShapeView(get()->strides, get()->ndim);
  }
  /*! \brief Extent of dimension `idx` (negative counts from the end). \throws IndexError */
  int64_t size(int64_t idx) const { return get()->shape[detail::NormalizeTensorDim(idx, ndim())]; }
  /*! \brief Stride of dimension `idx` (negative counts from the end). \throws IndexError */
  int64_t stride(int64_t idx) const {
    return get()->strides[detail::NormalizeTensorDim(idx, ndim())];
  }
  int64_t numel() const { return shape().Product(); }
  uint64_t byte_offset() const { return get()->byte_offset; }
  bool IsContiguous() const { return tvm::ffi::IsContiguous(*get()); }
  bool IsAligned(size_t alignment) const { return tvm::ffi::IsAligned(*get(), alignment); }

  /*!
   * \brief A new tensor sharing this one's data with another shape and
   *        strides, `element_offset` elements in (made by the runtime,
   *        which keeps this tensor alive; not checked against the data).
   */
  Tensor as_strided(ShapeView shape, ShapeView strides,
                    std::optional<int64_t> element_offset = std::nullopt) const {
    DLTensor prototype = detail::RestrideDLTensor(*get(), shape, strides, element_offset);
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFITensorCreateUnsafeView(const_cast<TensorObj*>(get()), &prototype, &out));
    return Tensor(
        detail::ObjectUnsafe::ObjectPtrFromOwned<TensorObj>(static_cast<TVMFFIObject*>(out)));
  }

  /*!
   * \brief A row-major tensor whose data `alloc` provides: it must have
   *        `void AllocData(DLTensor*, extra_args...)` (set data) and
   *        `void FreeData(DLTensor*)`, called when the tensor dies.
   */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAlloc(TNDAlloc alloc, ffi::ShapeView shape, DLDataType dtype, DLDevice device,
                            ExtraArgs&&... extra_args) {
    return Tensor(make_inplace_array_object<detail::TensorObjFromNDAlloc<TNDAlloc>, int64_t>(
        shape.size() * 2, alloc, shape, dtype, device, std::forward<ExtraArgs>(extra_args)...));
  }
  /*! \brief As FromNDAlloc with explicit strides (ValueError when their count differs). */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAllocStrided(TNDAlloc alloc, ffi::ShapeView shape, ffi::ShapeView strides,
                                   DLDataType dtype, DLDevice device, ExtraArgs&&... extra_args) {
    TVM_FFI_CHECK(shape.size() == strides.size(), ValueError)
        << "shape and strides must have the same size.";
    DLTensor prototype{};
    prototype.device = device;
    prototype.dtype = dtype;
    prototype.shape = const_cast<int64_t*>(shape.data());
    prototype.ndim = static_cast<int>(shape.size());
    prototype.strides = const_cast<int64_t*>(strides.data());
    return Tensor(make_inplace_array_object<detail::TensorObjFromNDAlloc<TNDAlloc>, int64_t>(
        shape.size() * 2, alloc, prototype, std::forward<ExtraArgs>(extra_args)...));
  }
  /*!
   * \brief A tensor from an environment allocator (e.g. TVMFFIEnvTensorAlloc
   *        of tvm/ffi/extra/c_env_api.h): `env_alloc` fills a new tensor
   *        object for the prototype; an error is thrown.
   */
  static Tensor FromEnvAlloc(int (*env_alloc)(DLTensor*, TVMFFIObjectHandle*), ffi::ShapeView shape,
                             DLDataType dtype, DLDevice device) {
    DLTensor prototype{};
    prototype.device = device;
    prototype.dtype = dtype;
    prototype.shape = const_cast<int64_t*>(shape.data());
    prototype.ndim = static_cast<int>(shape.size());
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(env_alloc(&prototype, &out));
    return Tensor(
        detail::ObjectUnsafe::ObjectPtrFromOwned<TensorObj>(static_cast<TVMFFIObject*>(out)));
  }
  /*!
   * \brief Takes over a DLPack managed tensor (its deleter runs when the
   *        tensor dies).  \throws RuntimeError when a requirement fails (the
   *        managed tensor is then still the caller's).
   */
  static Tensor FromDLPack(DLManagedTensor* tensor, size_t require_alignment = 0,
                           bool require_contiguous = false) {
    detail::CheckDLPackImport(tensor->dl_tensor, require_alignment, require_contiguous);
    return ImportDLPack(tensor);
  }
  /*! \brief As FromDLPack, for the versioned struct; padded sub-byte data is refused. */
  static Tensor FromDLPackVersioned(DLManagedTensorVersioned* tensor, size_t require_alignment = 0,
                                    bool require_contiguous = false) {
    detail::CheckDLPackImport(tensor->dl_tensor, require_alignment, require_contiguous);
    if ((tensor->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) != 0) {
      TVM_FFI_THROW(RuntimeError) << "Subbyte type padded is not yet supported";
    }
    return ImportDLPack(tensor);
  }

  DLManagedTensor* ToDLPack() const { return get_mutable()->ToDLPack(); }
  DLManagedTensorVersioned* ToDLPackVersioned() const { return get_mutable()->ToDLPackVersioned(); }
  /*! \brief The descriptor (valid while the tensor lives). */
  const DLTensor* GetDLTensorPtr() const { return get(); }

  [[maybe_unused]] static constexpr bool _type_is_nullable = true;
  using ContainerType = TensorObj;

  /*! \brief PyTorch-style spellings. */
  inline int32_t dim() { return ndim(); }
  inline ShapeView sizes() const { return shape(); }
  inline bool is_contiguous() const { return IsContiguous(); }

 protected:
  const TensorObj* get() const { return static_cast<const TensorObj*>(ObjectRef::get()); }
  TensorObj* get_mutable() const { return const_cast<TensorObj*>(get()); }

 private:
  template <typename TManaged>
  static Tensor ImportDLPack(TManaged* tensor) {
    using Obj = detail::TensorObjFromDLPack<TManaged>;
    if (tensor->dl_tensor.strides != nullptr || tensor->dl_tensor.ndim == 0) {
      return Tensor(make_object<Obj>(tensor, false));
    }
    return Tensor(make_inplace_array_object<Obj, int64_t>(tensor->dl_tensor.ndim, tensor, true));
  }
};

/*!
 * \brief A borrowed tensor: a copy of the DLTensor descriptor.  The data,
 *        shape and strides stay the caller's, so a TensorView must not
 *        outlive the tensor it was made from (it cannot be made from a
 *        temporary Tensor).
 */
class TensorView {
 public:
  /*! \brief A view of a (defined) tensor. */
  TensorView(const Tensor& tensor) { Assign(tensor); }  // NOLINT(*)
  /*! \brief A view of a descriptor (not null). */
  TensorView(const DLTensor* tensor) {  // NOLINT(*)
    TVM_FFI_ICHECK(tensor != nullptr);
    tensor_ = *tensor;
  }
  TensorView(const TensorView& tensor) = default;
  TensorView(TensorView&& tensor) = default;
  TensorView& operator=(const TensorView& tensor) = default;
  TensorView& operator=(TensorView&& tensor) = default;
  TensorView& operator=(const Tensor& tensor) {
    Assign(tensor);
    return *this;
  }
  /*! \brief Not from a temporary: the view would dangle at once. */
  TensorView(Tensor&& tensor) = delete;  // NOLINT(*)
  TensorView& operator=(Tensor&& tensor) = delete;

  void* data_ptr() const { return tensor_.data; }
  DLDevice device() const { return tensor_.device; }
  int32_t ndim() const { return tensor_.ndim; }
  DLDataType dtype() const { return tensor_.dtype; }
  ShapeView shape() const { return ShapeView(tensor_.shape, tensor_.ndim); }
  int64_t numel() const { return shape().Product(); }
  ShapeView strides() const {
    TVM_FFI_ICHECK(tensor_.strides != nullptr || tensor_.ndim == 0);
    return ShapeView(tensor_.strides, tensor_.ndim);
  }
  int64_t size(int64_t idx) const { return tensor_.shape[detail::NormalizeTensorDim(idx, tensor_.ndim)]; }
  int64_t stride(int64_t idx) const {
    return tensor_.strides[detail::NormalizeTensorDim(idx, tensor_.ndim)];
  }
  uint64_t byte_offset() const { return tensor_.byte_offset; }
  bool IsContiguous() const { return tvm::ffi::IsContiguous(tensor_); }
  int32_t dim() const { return ndim(); }
  ShapeView sizes() const { return shape(); }
  bool is_contiguous() const { return IsContiguous(); }

  /*! \brief This view with another shape and strides (both must outlive the result). */
  TensorView as_strided(ShapeView shape, ShapeView strides,
                        std::optional<int64_t> element_offset = std::nullopt) const {
    TVM_FFI_ICHECK_EQ(shape.size(), strides.size());
    DLTensor prototype = detail::RestrideDLTensor(tensor_, shape, strides, element_offset);
    return TensorView(&prototype);
  }

 private:
  void Assign(const Tensor& tensor) {
    TVM_FFI_ICHECK(tensor.defined());
    tensor_ = *tensor.GetDLTensorPtr();
  }

  DLTensor tensor_;

  template <typename, typename>
  friend struct TypeTraits;
};

inline size_t GetDataSize(const Tensor& tensor) {
  return GetDataSize(static_cast<size_t>(tensor.numel()), tensor.dtype());
}
inline size_t GetDataSize(const TensorView& tensor) {
  return GetDataSize(static_cast<size_t>(tensor.numel()), tensor.dtype());
}

namespace detail {
/*! \brief The descriptor a DLTensor* view or a Tensor object value holds, or nullptr. */
TVM_FFI_INLINE DLTensor* AnyDLTensorPtr(const TVMFFIAny* src) {
  if (src->type_index == TypeIndex::kTVMFFIDLTensorPtr) return static_cast<DLTensor*>(src->v_ptr);
  if (src->type_index == TypeIndex::kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(src->v_obj);
  return nullptr;
}
}  // namespace detail

/*!
 * \brief DLTensor*: a view (kTVMFFIDLTensorPtr) that owns nothing, so it is
 *        never stored in an Any; a Tensor object converts to its descriptor.
 */
template <>
struct TypeTraits<DLTensor*> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDLTensorPtr;

  TVM_FFI_INLINE static void CopyToAnyView(DLTensor* src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIDLTensorPtr);
    result->v_ptr = TVM_FFI_ICHECK_NOTNULL(src);
  }
  /*! \brief Always a RuntimeError: an Any must own what it holds. */
  TVM_FFI_INLINE static void MoveToAny(DLTensor*, TVMFFIAny*) {
    TVM_FFI_THROW(RuntimeError)
        << "DLTensor* cannot be held in Any as it does not retain ownership, use Tensor instead";
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIDLTensorPtr;
  }
  TVM_FFI_INLINE static DLTensor* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<DLTensor*>(src->v_ptr);
  }
  TVM_FFI_INLINE static std::optional<DLTensor*> TryCastFromAnyView(const TVMFFIAny* src) {
    DLTensor* tensor = detail::AnyDLTensorPtr(src);
    if (tensor == nullptr) return std::nullopt;
    return tensor;
  }
  TVM_FFI_INLINE static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIDLTensorPtr);
  }
};

/*! \brief TensorView: passed as a DLTensor* view of its descriptor; reads a DLTensor* or a Tensor. */
template <>
struct TypeTraits<TensorView> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDLTensorPtr;

  TVM_FFI_INLINE static void CopyToAnyView(const TensorView& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIDLTensorPtr);
    result->v_ptr = const_cast<DLTensor*>(&src.tensor_);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIDLTensorPtr;
  }
  TVM_FFI_INLINE static TensorView CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return TensorView(static_cast<const DLTensor*>(src->v_ptr));
  }
  TVM_FFI_INLINE static std::optional<TensorView> TryCastFromAnyView(const TVMFFIAny* src) {
    DLTensor* tensor = detail::AnyDLTensorPtr(src);
    if (tensor == nullptr) return std::nullopt;
    return TensorView(tensor);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(StaticTypeKey::kTVMFFIDLTensorPtr);
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_TENSOR_H_

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/shape.h
 * \brief Shape (the immutable ffi.Shape object of int64 extents) and
 *        ShapeView (a borrowed run of extents).
 *
 * Layouts (C++ ABI): ShapeObj = Object + TVMFFIShapeCell { data, size };
 * Shape = { ObjectPtr }; ShapeView = { TVMFFIShapeCell } (16 bytes).
 *
 * An Array<int64_t> converts to a Shape (a copy of the extents), in C++
 * and from an Any; a Shape does not convert to an Array.
 */
#ifndef TVM_FFI_CONTAINER_SHAPE_H_
#define TVM_FFI_CONTAINER_SHAPE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <sstream>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

namespace detail {
/*! \brief The ValueError of ShapeProduct: the extents' product does not fit in int64. */
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE inline void ThrowShapeProductOverflow(
    const int64_t* data, size_t size) {
  std::ostringstream extents;
  for (size_t i = 0; i < size; ++i) extents << (i == 0 ? "" : ", ") << data[i];
  TVM_FFI_THROW(ValueError) << "the product of the extents of shape [" << extents.str()
                            << "] does not fit in int64";
  TVM_FFI_UNREACHABLE();
}
/*!
 * \brief Product of `size` extents (1 for none, 0 when one of them is 0).
 * \throws ValueError when the product does not fit in int64.
 */
TVM_FFI_INLINE int64_t ShapeProduct(const int64_t* data, size_t size) {
  int64_t product = 1;
  bool overflow = false;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) return 0;
    overflow |= __builtin_mul_overflow(product, data[i], &product);
  }
  if (TVM_FFI_PREDICT_FALSE(overflow)) ThrowShapeProductOverflow(data, size);
  return product;
}
/*! \brief The IndexError of at() past the end. */
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE inline void ThrowShapeIndexError(size_t idx,
                                                                                 size_t size) {
  TVM_FFI_THROW(IndexError) << "indexing " << idx << " on a Shape of size " << size;
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief A borrowed run of extents; the owner must outlive it. */
class ShapeView {
 public:
  ShapeView() : cell_{nullptr, 0} {}
  ShapeView(const ShapeView& other) = default;
  ShapeView& operator=(const ShapeView& other) = default;
  ShapeView(ShapeView&& other) = default;
  ShapeView& operator=(ShapeView&& other) = default;
  ShapeView(const int64_t* data, size_t size) : cell_{data, size} {}
  /*! \brief A view of a braced list (valid until the end of the full expression). */
  ShapeView(const std::initializer_list<int64_t>& other) : cell_{other.begin(), other.size()} {}

  const int64_t* data() const { return cell_.data; }
  size_t size() const { return cell_.size; }
  /*!
   * \brief The number of elements: the product of the extents (1 for a scalar).
   * \throws ValueError when it does not fit in int64.
   */
  int64_t Product() const { return detail::ShapeProduct(cell_.data, cell_.size); }
  int64_t operator[](size_t idx) const { return cell_.data[idx]; }
  const int64_t* begin() const { return cell_.data; }
  const int64_t* end() const { return cell_.data + cell_.size; }
  bool empty() const { return cell_.size == 0; }
  /*! \brief Checked element access. \throws IndexError past the end. */
  int64_t at(size_t idx) const {
    if (idx >= cell_.size) detail::ThrowShapeIndexError(idx, cell_.size);
    return cell_.data[idx];
  }
  int64_t front() const { return at(0); }
  int64_t back() const { return at(cell_.size - 1); }

 private:
  TVMFFIShapeCell cell_;
};

/*! \brief The ffi.Shape object: the header and TVMFFIShapeCell. */
class ShapeObj : public Object, public TVMFFIShapeCell {
 public:
  using index_type = int64_t;
  /*! \brief The product of the extents. \throws ValueError when it does not fit in int64. */
  int64_t Product() const { return detail::ShapeProduct(data, size); }

  static constexpr const uint32_t _type_index = TypeIndex::kTVMFFIShape;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIShape, ShapeObj, Object);
};

namespace detail {

/*! \brief A Shape object that keeps its extents in a std::vector. */
class ShapeObjStdImpl : public ShapeObj {
 public:
  explicit ShapeObjStdImpl(std::vector<int64_t> other) : data_{std::move(other)} {
    this->data = data_.data();
    this->size = data_.size();
  }

 private:
  std::vector<int64_t> data_;
};

/*!
 * \brief A Shape object with room for `length` extents right after it;
 *        `*mutable_data` (when not null) receives where to write them.
 */
TVM_FFI_INLINE ObjectPtr<ShapeObj> MakeEmptyShape(size_t length, int64_t** mutable_data) {
  static_assert(alignof(ShapeObj) % alignof(int64_t) == 0 &&
                sizeof(ShapeObj) % alignof(int64_t) == 0);
  ObjectPtr<ShapeObj> shape = make_inplace_array_object<ShapeObj, int64_t>(length);
  int64_t* extents = reinterpret_cast<int64_t*>(reinterpret_cast<char*>(shape.get()) + sizeof(ShapeObj));
  shape->data = extents;
  shape->size = length;
  if (mutable_data != nullptr) *mutable_data = extents;
  return shape;
}

/*! \brief A Shape object holding a copy of [begin, end). */
template <typename IterType>
TVM_FFI_INLINE ObjectPtr<ShapeObj> MakeInplaceShape(IterType begin, IterType end) {
  int64_t* extents = nullptr;
  ObjectPtr<ShapeObj> shape = MakeEmptyShape(static_cast<size_t>(std::distance(begin, end)), &extents);
  std::copy(begin, end, extents);
  return shape;
}

/*! \brief The row-major (C-contiguous) strides of `shape`, written to out_strides. */
TVM_FFI_INLINE void FillStridesFromShape(ShapeView shape, int64_t* out_strides) {
  int64_t stride = 1;
  for (size_t i = shape.size(); i > 0; --i) {
    out_strides[i - 1] = stride;
    stride *= shape[i - 1];
  }
}

/*! \brief A Shape object holding the row-major strides of `shape`. */
TVM_FFI_INLINE ObjectPtr<ShapeObj> MakeStridesFromShape(ShapeView shape) {
  int64_t* strides = nullptr;
  ObjectPtr<ShapeObj> result = MakeEmptyShape(shape.size(), &strides);
  FillStridesFromShape(shape, strides);
  return result;
}

}  // namespace detail

/*! \brief An immutable list of int64 extents (never empty as a reference). */
class Shape : public ObjectRef {
 public:
  using index_type = ShapeObj::index_type;

  /*! \brief The shape of a scalar: no extents. */
  Shape() : ObjectRef(detail::MakeEmptyShape(0, nullptr)) {}
  template <typename IterType>
  Shape(IterType begin, IterType end) : Shape(detail::MakeInplaceShape(begin, end)) {}
  Shape(std::initializer_list<int64_t> shape) : Shape(shape.begin(), shape.end()) {}
  /*! \brief Takes over the vector (no copy). */
  Shape(std::vector<int64_t> other)  // NOLINT(*)
      : ObjectRef(make_object<detail::ShapeObjStdImpl>(std::move(other))) {}
  Shape(ShapeView other) : Shape(other.begin(), other.end()) {}  // NOLINT(*)
  /*! \brief A copy of the extents of `shape`. */
  Shape(Array<int64_t> shape) : Shape(shape.begin(), shape.end()) {}  // NOLINT(*)

  /*! \brief The row-major strides of `shape`. */
  static Shape StridesFromShape(ShapeView shape) {
    return Shape(detail::MakeStridesFromShape(shape));
  }

  operator ShapeView() const { return ShapeView(data(), size()); }  // NOLINT(*)
  const int64_t* data() const { return get()->data; }
  size_t size() const { return get()->size; }
  int64_t operator[](size_t idx) const { return data()[idx]; }
  /*! \brief Checked element access. \throws IndexError past the end. */
  int64_t at(size_t idx) const {
    if (idx >= size()) detail::ThrowShapeIndexError(idx, size());
    return data()[idx];
  }
  bool empty() const { return size() == 0; }
  int64_t front() const { return at(0); }
  int64_t back() const { return at(size() - 1); }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size(); }
  /*! \brief The product of the extents. \throws ValueError when it does not fit in int64. */
  int64_t Product() const { return get()->Product(); }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Shape, ObjectRef, ShapeObj);

 private:
  explicit Shape(ObjectPtr<ShapeObj> ptr) : ObjectRef(std::move(ptr)) {}
};

/*! \brief Prints "[2, 3, 4]". */
inline std::ostream& operator<<(std::ostream& os, const Shape& shape) {
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) os << (i == 0 ? "" : ", ") << shape[i];
  return os << ']';
}

template <>
inline constexpr bool use_default_type_traits_v<Shape> = false;

/*! \brief Shape in an Any: an ffi.Shape object (a field of it declares kTVMFFIShape). */
template <>
struct TypeTraits<Shape> : public ObjectRefWithFallbackTraitsBase<Shape, Array<int64_t>> {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIShape;
  /*! \brief An ffi.Array (or ffi.List) of integers: a new Shape of them. */
  TVM_FFI_INLINE static Shape ConvertFallbackValue(Array<int64_t> src) {
    return Shape(std::move(src));
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_SHAPE_H_

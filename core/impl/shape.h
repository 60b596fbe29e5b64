// Shapes: ffi.Shape (69), immutable int64 dimensions, and the C++ Shape.
//
// The dimensions are stored inline after the TVMFFIShapeCell.
#ifndef TVM_FFI_CORE_IMPL_SHAPE_H_
#define TVM_FFI_CORE_IMPL_SHAPE_H_

#include <cstring>
#include <initializer_list>
#include <vector>

#include "array.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// layout = { TVMFFIObject, TVMFFIShapeCell, int64_t[size] }; dimensions at
// header + 40.
class ShapeObj : public Object {
 public:
  TVMFFIShapeCell cell;
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(ShapeObj, kTVMFFIShape, "ffi.Shape")

  ShapeObj() {
    cell.data = nullptr;
    cell.size = 0;
  }

  int64_t size() const { return static_cast<int64_t>(cell.size); }
  const int64_t* data() const { return cell.data; }

  static ObjectPtr<ShapeObj> Make(const int64_t* dims, size_t n) {
    ObjectPtr<ShapeObj> obj = MakeObjectWithExtra<ShapeObj>(n * sizeof(int64_t));
    int64_t* inline_dims =
        reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj.get()) + sizeof(ShapeObj));
    if (n != 0) std::memcpy(inline_dims, dims, n * sizeof(int64_t));
    obj->cell.data = inline_dims;
    obj->cell.size = n;
    return obj;
  }
};

static_assert(sizeof(ShapeObj) == 40, "Shape dimensions start at header + 40");

// A reference to an ffi.Shape (ours or another library's: only the cell is
// read).  Never null when built by its constructors.
class Shape : public ObjectRef {
 public:
  using ContainerType = ShapeObj;

  Shape() : ObjectRef(ShapeObj::Make(nullptr, 0)) {}
  Shape(std::initializer_list<int64_t> dims)
      : ObjectRef(ShapeObj::Make(dims.begin(), dims.size())) {}
  explicit Shape(const std::vector<int64_t>& dims)
      : ObjectRef(ShapeObj::Make(dims.data(), dims.size())) {}
  Shape(const int64_t* dims, size_t n) : ObjectRef(ShapeObj::Make(dims, n)) {}
  explicit Shape(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  int64_t size() const { return static_cast<int64_t>(cell()->size); }
  bool empty() const { return size() == 0; }
  const int64_t* data() const { return cell()->data; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size(); }
  // IndexError when out of range (negative indices included).
  int64_t operator[](int64_t i) const { return at(i); }
  int64_t at(int64_t i) const {
    detail::CheckIndex(i, size(), "Shape");
    return data()[i];
  }
  // The number of elements a tensor of this shape holds (1 for rank 0);
  // ValueError when it does not fit in int64.
  int64_t Product() const {
    int64_t p = 1;
    for (int64_t d : *this) {
      if (__builtin_mul_overflow(p, d, &p)) {
        TVM_FFI_IMPL_THROW(ValueError) << "the product of the dimensions of shape of size " << size()
                                 << " overflows int64";
      }
    }
    return p;
  }
  std::vector<int64_t> ToVector() const { return std::vector<int64_t>(begin(), end()); }

 private:
  const TVMFFIShapeCell* cell() const { return TVMFFIShapeGetCellPtr(handle()); }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_SHAPE_H_

// container/shape.h and container/tensor.h: Shape, ShapeView, Tensor
// (FromNDAlloc, DLPack in and out, as_strided through the runtime) and
// TensorView.
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

// A CPU allocator that counts its calls.
struct CountingAlloc {
  int* allocs;
  int* frees;
  void AllocData(DLTensor* tensor) {
    ++*allocs;
    tensor->data = std::malloc(GetDataSize(*tensor));
  }
  void AllocData(DLTensor* tensor, float fill) {
    AllocData(tensor);
    float* data = static_cast<float*>(tensor->data);
    for (size_t i = 0; i < GetDataSize(*tensor) / sizeof(float); ++i) data[i] = fill;
  }
  void FreeData(DLTensor* tensor) {
    ++*frees;
    std::free(tensor->data);
  }
};

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDevice kCPU{kDLCPU, 0};

int g_dlpack_deleted = 0;
void CountDelete(DLManagedTensor* self) {
  ++g_dlpack_deleted;
  delete self;
}

}  // namespace

TEST_CASE("shape: Shape and ShapeView", "[tensor]") {
  STATIC_REQUIRE(sizeof(ShapeView) == 2 * sizeof(void*));
  Shape s{2, 3, 4};
  CHECK(s.size() == 3);
  CHECK(s.Product() == 24);
  CHECK(s[1] == 3);
  CHECK(s.front() == 2);
  CHECK(s.back() == 4);
  CHECK(ErrorOf([&] { s.at(3); }) == "IndexError: indexing 3 on a Shape of size 3");
  CHECK(s->type_index() == kTVMFFIShape);
  Shape scalar;
  CHECK(scalar.empty());
  CHECK(scalar.Product() == 1);
  Shape from_vector(std::vector<int64_t>{5, 6});
  CHECK(from_vector.Product() == 30);
  ShapeView view = s;
  CHECK(view.data() == s.data());
  CHECK(Shape(view).size() == 3);
  CHECK(Shape::StridesFromShape(view).size() == 3);
  CHECK(Shape::StridesFromShape(view)[0] == 12);
  CHECK(Shape::StridesFromShape(view)[2] == 1);
  CHECK(ErrorOf([&] { view.at(5); }) == "IndexError: indexing 5 on a Shape of size 3");
  std::ostringstream os;
  os << s;
  CHECK(os.str() == "[2, 3, 4]");
  // The runtime's ffi.Shape reads ours.
  Any as_any = s;
  CHECK(as_any.cast<Shape>().same_as(s));
  CHECK_FALSE(Any().try_cast<Shape>().has_value());  // never null
  CHECK(TypeTraits<Shape>::field_static_type_index == kTVMFFIShape);
}

TEST_CASE("tensor: FromNDAlloc allocates once and frees once", "[tensor]") {
  int allocs = 0;
  int frees = 0;
  {
    Tensor t = Tensor::FromNDAlloc(CountingAlloc{&allocs, &frees}, {2, 3}, kF32, kCPU, 1.5f);
    CHECK(allocs == 1);
    CHECK(t.ndim() == 2);
    CHECK(t.numel() == 6);
    CHECK(t.size(-1) == 3);
    CHECK(t.stride(0) == 3);
    CHECK(t.stride(1) == 1);
    CHECK(t.IsContiguous());
    CHECK(t.dtype() == kF32);
    CHECK(t->type_index() == kTVMFFITensor);
    CHECK(static_cast<float*>(t.data_ptr())[5] == 1.5f);
    CHECK(GetDataSize(t) == 24);
    CHECK(ErrorOf([&] { t.size(2); }) ==
          "IndexError: Index 2 out of bounds for tensor with 2 dimensions");
    CHECK(ErrorOf([&] { t.stride(-3); }) ==
          "IndexError: Index -3 out of bounds for tensor with 2 dimensions");

    // A view through the runtime keeps the base alive.
    Tensor column = t.as_strided({2}, {3}, 1);
    CHECK(column.numel() == 2);
    CHECK(column.data_ptr() == static_cast<float*>(t.data_ptr()) + 1);
    CHECK_FALSE(column.IsContiguous());
    t = Tensor();
    CHECK(frees == 0);
  }
  CHECK(frees == 1);

  int64_t strides[2] = {1, 2};
  Tensor col_major =
      Tensor::FromNDAllocStrided(CountingAlloc{&allocs, &frees}, {2, 2}, ShapeView(strides, 2),
                                 kF32, kCPU);
  CHECK(col_major.stride(1) == 2);
  CHECK_FALSE(col_major.IsContiguous());
  CHECK(ErrorOf([&] {
          Tensor::FromNDAllocStrided(CountingAlloc{&allocs, &frees}, {2, 2}, {1}, kF32, kCPU);
        }) == "ValueError: Check failed: (shape.size() == strides.size()) is false: "
              "shape and strides must have the same size.");
}

TEST_CASE("tensor: DLPack out and back in", "[tensor]") {
  int allocs = 0;
  int frees = 0;
  Tensor t = Tensor::FromNDAlloc(CountingAlloc{&allocs, &frees}, {4}, kF32, kCPU);
  DLManagedTensorVersioned* exported = t.ToDLPackVersioned();
  CHECK(exported->version.major == DLPACK_MAJOR_VERSION);
  CHECK(exported->dl_tensor.data == t.data_ptr());
  CHECK(t.use_count() == 2);
  exported->deleter(exported);
  CHECK(t.use_count() == 1);

  // A managed tensor without strides gets row-major ones; its deleter runs once.
  static float data[6] = {0};
  static int64_t shape[2] = {3, 2};
  DLManagedTensor* managed = new DLManagedTensor();
  managed->dl_tensor.data = data;
  managed->dl_tensor.device = kCPU;
  managed->dl_tensor.ndim = 2;
  managed->dl_tensor.dtype = kF32;
  managed->dl_tensor.shape = shape;
  managed->dl_tensor.strides = nullptr;
  managed->dl_tensor.byte_offset = 0;
  managed->deleter = CountDelete;
  g_dlpack_deleted = 0;
  {
    Tensor imported = Tensor::FromDLPack(managed, 4, true);
    CHECK(imported.strides()[0] == 2);
    CHECK(imported.data_ptr() == data);
    CHECK(g_dlpack_deleted == 0);
  }
  CHECK(g_dlpack_deleted == 1);

  DLManagedTensor misaligned{};
  misaligned.dl_tensor = DLTensor{reinterpret_cast<char*>(data) + 1, kCPU, 1, kF32, shape,
                                  nullptr, 0};
  CHECK(ErrorOf([&] { Tensor::FromDLPack(&misaligned, 4); }) ==
        "RuntimeError: FromDLPack: Data is not aligned to 4 bytes.");
}

TEST_CASE("tensor: TensorView and the argument conversions", "[tensor]") {
  int allocs = 0;
  int frees = 0;
  Tensor t = Tensor::FromNDAlloc(CountingAlloc{&allocs, &frees}, {3}, kF32, kCPU);
  TensorView view = t;
  CHECK(view.data_ptr() == t.data_ptr());
  CHECK(view.numel() == 3);
  CHECK(view.size(0) == 3);
  CHECK(view.strides()[0] == 1);
  CHECK(t.use_count() == 1);  // a view takes no reference

  // A TensorView parameter accepts a Tensor object and a DLTensor*.
  Function numel = Function::FromTyped([](TensorView v) { return v.numel(); });
  CHECK(numel(t).cast<int64_t>() == 3);
  DLTensor raw = *t.GetDLTensorPtr();
  CHECK(numel(&raw).cast<int64_t>() == 3);
  CHECK(numel(view).cast<int64_t>() == 3);
  CHECK(ErrorOf([&] { numel(1); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `(0: DLTensor*) -> int`. "
        "Expected `DLTensor*` but got `int`");
  // A Tensor parameter accepts only the object.
  Function owner = Function::FromTyped([](Tensor x) { return x.use_count(); });
  CHECK(owner(t).cast<int>() == 2);
  CHECK(ErrorOf([&] { owner(&raw); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `(0: ffi.Tensor) -> int`. "
        "Expected `ffi.Tensor` but got `DLTensor*`");
  CHECK(ErrorOf([&] { Any held = &raw; }) ==
        "RuntimeError: DLTensor* cannot be held in Any as it does not retain ownership, use "
        "Tensor instead");

  int64_t two[1] = {2};
  int64_t one[1] = {1};
  TensorView tail = view.as_strided(ShapeView(two, 1), ShapeView(one, 1), 1);
  CHECK(tail.data_ptr() == static_cast<float*>(t.data_ptr()) + 1);
  CHECK(tail.numel() == 2);

  DLTensor padded = raw;
  int64_t shape2[2] = {1, 3};
  int64_t odd_strides[2] = {99, 1};
  padded.ndim = 2;
  padded.shape = shape2;
  padded.strides = odd_strides;
  CHECK(IsContiguous(padded));  // an extent-1 dimension may have any stride
  CHECK(IsDirectAddressDevice(kCPU));
  CHECK_FALSE(IsDirectAddressDevice(DLDevice{kDLVulkan, 0}));
  CHECK(GetDataSize(3, DLDataType{kDLInt, 4, 1}) == 2);
}

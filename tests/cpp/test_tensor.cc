// Tensors: DLPack import/export, ownership, layout checks, views, C++ Tensor.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"
#include "core/impl/function.h"
#include "core/impl/shape.h"
#include "core/impl/tensor.h"

using namespace tvm::ffi::detail::impl;
using namespace test_util;

namespace {

DLDevice Dev(int32_t type, int32_t id = 0) {
  DLDevice d;
  d.device_type = static_cast<DLDeviceType>(type);
  d.device_id = id;
  return d;
}

// A producer's tensor: owns its shape/strides arrays and counts deleter calls.
// The data pointer is whatever the test gives; nothing here dereferences it.
template <typename Managed>
struct Producer {
  Managed mt;
  std::vector<int64_t> shape, strides;
  int deletes = 0;

  Producer(void* data, std::vector<int64_t> shape_in, std::vector<int64_t> strides_in,
           DLDataType dtype = DType(kDLFloat, 32), DLDevice device = Dev(kDLCPU))
      : shape(std::move(shape_in)), strides(std::move(strides_in)) {
    std::memset(&mt, 0, sizeof(mt));
    DLTensor& t = mt.dl_tensor;
    t.data = data;
    t.device = device;
    t.ndim = static_cast<int32_t>(shape.size());
    t.dtype = dtype;
    t.shape = shape.empty() ? nullptr : shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    mt.manager_ctx = this;
    mt.deleter = [](Managed* self) { ++static_cast<Producer*>(self->manager_ctx)->deletes; };
  }
  Producer(const Producer&) = delete;
  Managed* get() { return &mt; }
};
using Legacy = Producer<DLManagedTensor>;
struct Versioned : Producer<DLManagedTensorVersioned> {
  Versioned(void* data, std::vector<int64_t> shape_in, std::vector<int64_t> strides_in,
            DLDataType dtype = DType(kDLFloat, 32), DLDevice device = Dev(kDLCPU),
            uint64_t flags = 0)
      : Producer(data, std::move(shape_in), std::move(strides_in), dtype, device) {
    mt.version.major = 1;
    mt.version.minor = 3;
    mt.flags = flags;
  }
};

std::vector<int64_t> Vec(const Int64Span& s) { return s.ToVector(); }

std::string DTypeName(DLDataType dtype) {
  Any out;
  REQUIRE(TVMFFIDataTypeToString(&dtype, out.result_slot()) == 0);
  return out.As<std::string>();
}

}  // namespace

TEST_CASE("Tensor: legacy import references the producer's arrays, deleter runs once at the end",
          "[tensor]") {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  Legacy p(buf, {2, 3}, {3, 1});
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFITensorFromDLPack(p.get(), 0, 0, &h) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(h) == kTVMFFITensor);
  DLTensor* cell = TVMFFITensorGetDLTensorPtr(h);
  CHECK(reinterpret_cast<char*>(cell) - static_cast<char*>(h) == 24);
  CHECK(cell->data == buf);
  CHECK(cell->shape == p.shape.data());
  CHECK(cell->strides == p.strides.data());
  CHECK(cell->ndim == 2);

  Tensor t = Tensor::AdoptHandle(h);
  Tensor copy = t;
  CHECK(t.use_count() == 2);
  t = Tensor();
  CHECK(p.deletes == 0);
  CHECK(Vec(copy.shape()) == std::vector<int64_t>{2, 3});
  copy = Tensor();
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: legacy export shares data and holds a reference", "[tensor]") {
  float buf[4] = {1, 2, 3, 4};
  Legacy p(buf, {4}, {1});
  Tensor t = Tensor::FromDLPack(p.get());
  DLManagedTensor* out = nullptr;
  REQUIRE(TVMFFITensorToDLPack(t.handle(), &out) == 0);
  CHECK(out->dl_tensor.data == buf);
  CHECK(out->dl_tensor.shape == t->shape);
  CHECK(out->dl_tensor.strides == t->strides);
  CHECK(out->manager_ctx == t.handle());
  CHECK(t.use_count() == 2);
  t = Tensor();  // the exported tensor alone keeps it alive
  CHECK(p.deletes == 0);
  CHECK(static_cast<float*>(out->dl_tensor.data)[3] == 4.0f);
  out->deleter(out);
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: versioned round trip keeps the data pointer", "[tensor]") {
  float buf[6] = {};
  Versioned p(buf, {3, 2}, {2, 1});
  Tensor t = Tensor::FromDLPackVersioned(p.get());
  DLManagedTensorVersioned* out = t.ToDLPackVersioned();
  CHECK(out->version.major == 1);
  CHECK(out->version.minor == 3);
  CHECK(out->flags == 0);
  CHECK(out->dl_tensor.data == buf);
  // Import the export again: a second tensor over the same memory.
  Tensor again = Tensor::FromDLPackVersioned(out);
  CHECK(again.data_ptr() == buf);
  CHECK(Vec(again.shape()) == std::vector<int64_t>{3, 2});
  CHECK(t.use_count() == 2);
  t = Tensor();
  CHECK(p.deletes == 0);
  again = Tensor();  // releases `out`, which releases the first tensor
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: legacy round trip through ToDLPack and FromDLPack", "[tensor]") {
  int32_t buf[2] = {7, 8};
  Legacy p(buf, {2}, {1}, DType(kDLInt, 32));
  Tensor t = Tensor::FromDLPack(p.get());
  Tensor back = Tensor::FromDLPack(t.ToDLPack());
  CHECK(back.data_ptr() == buf);
  CHECK(!back.same_as(t));
  t = Tensor();
  back = Tensor();
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: NULL strides are replaced by compact row-major strides", "[tensor]") {
  float buf[24];
  Legacy p(buf, {2, 3, 4}, {});
  Tensor t = Tensor::FromDLPack(p.get());
  REQUIRE(t->strides != nullptr);
  CHECK(Vec(t.strides()) == std::vector<int64_t>{12, 4, 1});
  CHECK(t->shape == p.shape.data());
  CHECK(t.IsContiguous());
  // Exports carry the synthesised strides.
  DLManagedTensorVersioned* out = t.ToDLPackVersioned();
  CHECK(out->dl_tensor.strides == t->strides);
  out->deleter(out);
  t = Tensor();
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: 0-d and empty tensors", "[tensor]") {
  float scalar = 3.5f;
  Legacy p0(&scalar, {}, {});
  Tensor s = Tensor::FromDLPack(p0.get(), 4, true);
  CHECK(s.ndim() == 0);
  CHECK(s.numel() == 1);
  CHECK(s.shape().empty());
  CHECK(s->strides != nullptr);
  CHECK(s.IsContiguous());

  Legacy pe(nullptr, {0, 3}, {});
  Tensor e = Tensor::FromDLPack(pe.get(), 64, true);
  CHECK(e.numel() == 0);
  CHECK(Vec(e.strides()) == std::vector<int64_t>{3, 1});
  // Empty tensors are contiguous whatever their strides.
  Legacy pe2(nullptr, {4, 0}, {7, 5});
  Tensor e2 = Tensor::FromDLPack(pe2.get(), 0, true);
  CHECK(e2.IsContiguous());
  s = Tensor();
  e = Tensor();
  e2 = Tensor();
  CHECK(p0.deletes + pe.deletes + pe2.deletes == 3);
}

TEST_CASE("Tensor: non-contiguous and negative strides are kept", "[tensor]") {
  float buf[6];
  Legacy p(buf, {2, 3}, {1, 2});
  Tensor t = Tensor::FromDLPack(p.get());
  CHECK(Vec(t.strides()) == std::vector<int64_t>{1, 2});
  CHECK(!t.IsContiguous());

  Legacy n(buf + 5, {6}, {-1});
  Tensor r = Tensor::FromDLPack(n.get());
  CHECK(Vec(r.strides()) == std::vector<int64_t>{-1});
  CHECK(!r.IsContiguous());
}

TEST_CASE("Tensor: contiguity ignores size-1 dimensions", "[tensor]") {
  float buf[6];
  Legacy p(buf, {2, 1, 3}, {3, 99, 1});
  Tensor t = Tensor::FromDLPack(p.get(), 0, true);
  CHECK(t.IsContiguous());
}

TEST_CASE("Tensor: a non-contiguous tensor is refused and stays with the caller", "[tensor]") {
  float buf[6];
  Legacy p(buf, {2, 3}, {1, 2});
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(p.get(), 0, 1, &h) == -1);
  CHECK(TakeError() == std::make_pair(std::string("RuntimeError"),
                                      std::string("DLPack tensor is not contiguous: shape [2, 3], "
                                                  "strides [1, 2]")));
  CHECK(p.deletes == 0);
  // Still the caller's: it can be imported without the requirement.
  Tensor t = Tensor::FromDLPack(p.get());
  t = Tensor();
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: alignment of data + byte_offset on direct-address devices", "[tensor]") {
  void* addr = reinterpret_cast<void*>(0x1000);
  Legacy p(addr, {4}, {1});
  p.mt.dl_tensor.byte_offset = 4;
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(p.get(), 64, 0, &h) == -1);
  CHECK(TakeError() == std::make_pair(std::string("RuntimeError"),
                                      std::string("DLPack tensor data is not aligned to 64 bytes: "
                                                  "data + byte_offset = 0x1004")));
  CHECK(p.deletes == 0);
  // The offset is honoured: 0x1000 + 64 is aligned, and stays in the cell.
  p.mt.dl_tensor.byte_offset = 64;
  Tensor t = Tensor::FromDLPack(p.get(), 64, 0);
  CHECK(t.byte_offset() == 64);
  CHECK(t.data_ptr() == addr);
  DLManagedTensor* out = t.ToDLPack();
  CHECK(out->dl_tensor.byte_offset == 64);
  out->deleter(out);
  // Misaligned data with an offset that fixes it is fine too.
  Legacy q(reinterpret_cast<void*>(0x1004), {1}, {1}, DType(kDLFloat, 32), Dev(kDLCUDA));
  q.mt.dl_tensor.byte_offset = 12;
  Tensor u = Tensor::FromDLPack(q.get(), 16, 0);
  CHECK(u.device().device_type == kDLCUDA);
}

TEST_CASE("Tensor: alignment of byte_offset only on other devices", "[tensor]") {
  // OpenCL data is an opaque handle: its value is not checked.
  Legacy p(reinterpret_cast<void*>(0x3), {4}, {1}, DType(kDLFloat, 32), Dev(kDLOpenCL));
  Tensor t = Tensor::FromDLPack(p.get(), 64, 0);
  CHECK(t.device().device_type == kDLOpenCL);

  Legacy q(reinterpret_cast<void*>(0x1000), {4}, {1}, DType(kDLFloat, 32), Dev(kDLVulkan));
  q.mt.dl_tensor.byte_offset = 4;
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(q.get(), 64, 0, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("RuntimeError"),
                       std::string("DLPack tensor byte_offset 4 is not a multiple of the "
                                   "required alignment 64")));
  CHECK(q.deletes == 0);
}

TEST_CASE("Tensor: versioned tensors with another major version are refused and not deleted",
          "[tensor]") {
  float buf[2];
  Versioned p(buf, {2}, {1});
  p.mt.version.major = 2;
  p.mt.version.minor = 0;
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPackVersioned(p.get(), 0, 0, &h) == -1);
  CHECK(h == nullptr);
  CHECK(TakeError() == std::make_pair(std::string("RuntimeError"),
                                      std::string("DLPack tensor version 2.0 is not supported: "
                                                  "the major version must be 1")));
  CHECK(p.deletes == 0);
  // Older minor versions of major 1 are fine.
  p.mt.version.major = 1;
  p.mt.version.minor = 0;
  Tensor t = Tensor::FromDLPackVersioned(p.get());
  t = Tensor();
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: padded sub-byte tensors are refused", "[tensor]") {
  uint8_t buf[4];
  Versioned p(buf, {4}, {1}, DType(kDLFloat4_e2m1fn, 4), Dev(kDLCPU),
              DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED);
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPackVersioned(p.get(), 0, 0, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("RuntimeError"),
                       std::string("DLPack tensor has the IS_SUBBYTE_TYPE_PADDED flag: padded "
                                   "sub-byte element types are not supported")));
  CHECK(p.deletes == 0);
  // Packed (no flag) is accepted.
  p.mt.flags = 0;
  Tensor t = Tensor::FromDLPackVersioned(p.get());
  CHECK(t.dtype().bits == 4);
}

TEST_CASE("Tensor: the READ_ONLY flag is recorded and exported", "[tensor]") {
  float buf[2];
  Versioned p(buf, {2}, {1}, DType(kDLFloat, 32), Dev(kDLCPU),
              DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED);
  Tensor t = Tensor::FromDLPackVersioned(p.get());
  CHECK(t.IsReadOnly());
  DLManagedTensorVersioned* out = t.ToDLPackVersioned();
  CHECK(out->flags == DLPACK_FLAG_BITMASK_READ_ONLY);
  out->deleter(out);
  // Views of a read-only tensor are read-only.
  Tensor v = t.CreateUnsafeView(*t.dl_tensor());
  CHECK(v.IsReadOnly());

  Versioned w(buf, {2}, {1});
  CHECK_FALSE(Tensor::FromDLPackVersioned(w.get()).IsReadOnly());
  Legacy l(buf, {2}, {1});
  CHECK_FALSE(Tensor::FromDLPack(l.get()).IsReadOnly());
}

TEST_CASE("Tensor: bool, float16, bfloat16 and int8x4 dtypes are kept", "[tensor]") {
  uint8_t buf[64];
  struct Case {
    DLDataType dtype;
    const char* name;
  } cases[] = {{DType(kDLBool, 8), "bool"},
               {DType(kDLFloat, 16), "float16"},
               {DType(kDLBfloat, 16), "bfloat16"},
               {DType(kDLInt, 8, 4), "int8x4"}};
  for (const Case& c : cases) {
    Versioned p(buf, {2, 2}, {}, c.dtype);
    Tensor t = Tensor::FromDLPackVersioned(p.get());
    CHECK(t.dtype().code == c.dtype.code);
    CHECK(t.dtype().bits == c.dtype.bits);
    CHECK(t.dtype().lanes == c.dtype.lanes);
    CHECK(DTypeName(t.dtype()) == c.name);
    DLManagedTensor* out = t.ToDLPack();
    CHECK(std::memcmp(&out->dl_tensor.dtype, &c.dtype, sizeof(DLDataType)) == 0);
    out->deleter(out);
  }
}

TEST_CASE("Tensor: unsafe view copies shape and strides and keeps the source alive",
          "[tensor]") {
  float buf[12];
  Legacy p(buf, {3, 4}, {4, 1});
  Tensor src = Tensor::FromDLPack(p.get());
  int64_t shape[2] = {2, 2};
  int64_t strides[2] = {4, 1};
  DLTensor proto = *src.dl_tensor();
  proto.shape = shape;
  proto.strides = strides;
  proto.byte_offset = 5 * sizeof(float);
  Tensor v = src.CreateUnsafeView(proto);
  shape[0] = 99;  // copied, not referenced
  strides[0] = 99;
  CHECK(Vec(v.shape()) == std::vector<int64_t>{2, 2});
  CHECK(Vec(v.strides()) == std::vector<int64_t>{4, 1});
  CHECK(v.byte_offset() == 20);
  CHECK(v.data_ptr() == buf);
  CHECK(src.use_count() == 2);
  src = Tensor();
  CHECK(p.deletes == 0);
  v = Tensor();
  CHECK(p.deletes == 1);
}

TEST_CASE("Tensor: unsafe view refuses NULL strides and NULL arguments", "[tensor]") {
  float buf[4];
  Legacy p(buf, {4}, {1});
  Tensor src = Tensor::FromDLPack(p.get());
  DLTensor proto = *src.dl_tensor();
  proto.strides = nullptr;
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorCreateUnsafeView(src.handle(), &proto, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("InternalError"),
                       std::string("TVMFFITensorCreateUnsafeView: prototype strides must not be "
                                   "NULL (ndim 1)")));
  CHECK(TVMFFITensorCreateUnsafeView(src.handle(), nullptr, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFITensorCreateUnsafeView: prototype must not be NULL")));
  CHECK(src.use_count() == 1);
}

TEST_CASE("Tensor: NULL arguments and non-tensors are refused", "[tensor]") {
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(nullptr, 0, 0, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFITensorFromDLPack: from must not be NULL")));
  float buf[1];
  Versioned p(buf, {1}, {1});
  CHECK(TVMFFITensorFromDLPackVersioned(p.get(), 0, 0, nullptr) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFITensorFromDLPackVersioned: out must not be NULL")));
  CHECK(TVMFFITensorFromDLPackVersioned(p.get(), -8, 0, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("require_alignment must be non-negative, got -8")));
  CHECK(p.deletes == 0);

  ObjectPtr<PlainObject> obj = MakeObject<PlainObject>();
  DLManagedTensor* out = nullptr;
  CHECK(TVMFFITensorToDLPack(obj->handle(), &out) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("TypeError"),
                       std::string("TVMFFITensorToDLPack: expected ffi.Tensor, got ffi.Object")));
  CHECK(out == nullptr);
  CHECK(obj.use_count() == 1);
}

TEST_CASE("Tensor: malformed DLPack tensors are refused", "[tensor]") {
  Legacy p(nullptr, {2}, {1});
  p.mt.dl_tensor.shape = nullptr;
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(p.get(), 0, 0, &h) == -1);
  CHECK(TakeError() == std::make_pair(std::string("RuntimeError"),
                                      std::string("DLPack tensor with ndim 1 has a NULL shape")));
  p.mt.dl_tensor.ndim = -1;
  CHECK(TVMFFITensorFromDLPack(p.get(), 0, 0, &h) == -1);
  CHECK(TakeError() == std::make_pair(std::string("RuntimeError"),
                                      std::string("DLPack tensor has a negative ndim -1")));
  CHECK(p.deletes == 0);
}

TEST_CASE("Tensor: C++ accessors", "[tensor]") {
  double buf[6];
  Legacy p(buf, {2, 3}, {}, DType(kDLFloat, 64), Dev(kDLCUDAHost, 2));
  Tensor t = Tensor::FromDLPack(p.get());
  CHECK(t.ndim() == 2);
  CHECK(t.numel() == 6);
  CHECK(t.dtype().bits == 64);
  CHECK(t.device().device_type == kDLCUDAHost);
  CHECK(t.device().device_id == 2);
  CHECK(t.data_ptr() == buf);
  CHECK(t.byte_offset() == 0);
  CHECK(t.shape()[1] == 3);
  CHECK(t.strides()[0] == 3);
}

TEST_CASE("Tensor: typed functions take Tensor objects and DLTensor* arguments", "[tensor]") {
  Function f = Function::FromTyped(
      [](Tensor t) {
        return std::to_string(reinterpret_cast<intptr_t>(t.data_ptr())) + ":" +
               std::to_string(t.numel()) + ":" + std::to_string(t.strides()[0]);
      },
      "tensor_info");
  float buf[6];
  std::string expected = std::to_string(reinterpret_cast<intptr_t>(buf)) + ":6:3";

  // A borrowed DLTensor* (as C callers pass it), NULL strides.
  int64_t shape[2] = {2, 3};
  DLTensor dl;
  std::memset(&dl, 0, sizeof(dl));
  dl.data = buf;
  dl.device = Dev(kDLCPU);
  dl.ndim = 2;
  dl.dtype = DType(kDLFloat, 32);
  dl.shape = shape;
  TVMFFIAny arg;
  std::memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIDLTensorPtr;
  arg.v_ptr = &dl;
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  REQUIRE(TVMFFIFunctionCall(f.handle(), &arg, 1, &result) == 0);
  CHECK(Any::Adopt(result).As<std::string>() == expected);

  // A Tensor object.
  Legacy p(buf, {2, 3}, {3, 1});
  Tensor t = Tensor::FromDLPack(p.get());
  CHECK(f(t).As<std::string>() == expected);
  CHECK(t.use_count() == 1);

  // Anything else is a TypeError naming the argument.
  try {
    f(int64_t(1));
    FAIL("expected TypeError");
  } catch (const Error& e) {
    CHECK(e.kind() == "TypeError");
    CHECK(e.message() == "In function tensor_info: argument 1: expected ffi.Tensor, got int");
  }
}

TEST_CASE("Tensor: a Tensor round-trips through Any", "[tensor]") {
  float buf[2];
  Legacy p(buf, {2}, {1});
  Tensor t = Tensor::FromDLPack(p.get());
  Any a = t;
  CHECK(a.type_index() == kTVMFFITensor);
  CHECK(t.use_count() == 2);
  Tensor back = a.As<Tensor>();
  CHECK(back.same_as(t));
  // DLTensor* conversion of a Tensor value gives its cell.
  CHECK(AnyView(t).As<DLTensor*>() == t.dl_tensor());
  a = Any();
  back = Tensor();
  CHECK(t.use_count() == 1);
  CHECK_FALSE(Any(int64_t(3)).TryAs<Tensor>().has_value());
}

TEST_CASE("Tensor: ffi.TensorIsReadOnly is registered", "[tensor]") {
  Function f = Function::GetGlobalRequired("ffi.TensorIsReadOnly");
  float buf[1];
  Versioned p(buf, {1}, {1}, DType(kDLFloat, 32), Dev(kDLCPU), DLPACK_FLAG_BITMASK_READ_ONLY);
  Tensor t = Tensor::FromDLPackVersioned(p.get());
  CHECK(f(t).As<bool>());
  DLTensor* dl = t.dl_tensor();
  CHECK_FALSE(f(dl).As<bool>());  // a borrowed DLTensor carries no flags
}

TEST_CASE("Tensor: testing globals make, inspect and modify CPU tensors", "[tensor]") {
  int64_t allocs0 = TestingGlobal("testing.tensor_alloc_count")().As<int64_t>();
  int64_t frees0 = TestingGlobal("testing.tensor_free_count")().As<int64_t>();
  Tensor t = TestingGlobal("testing.make_tensor_f32")(2, 3).As<Tensor>();
  CHECK(TestingGlobal("testing.tensor_alloc_count")().As<int64_t>() == allocs0 + 1);
  CHECK(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64 == 0);
  CHECK(TestingGlobal("testing.tensor_data_ptr")(t).As<int64_t>() ==
        reinterpret_cast<int64_t>(t.data_ptr()));
  CHECK(TestingGlobal("testing.tensor_shape")(t).type_index() == kTVMFFIShape);
  CHECK(TestingGlobal("testing.tensor_ndim")(t).As<int64_t>() == 2);
  CHECK(TestingGlobal("testing.tensor_numel")(t).As<int64_t>() == 6);
  CHECK(TestingGlobal("testing.tensor_is_contiguous")(t).As<bool>());
  CHECK_FALSE(TestingGlobal("testing.tensor_is_read_only")(t).As<bool>());
  TestingGlobal("testing.tensor_add_one_f32")(t);
  TestingGlobal("testing.tensor_add_one_f32")(t);
  CHECK(TestingGlobal("testing.tensor_sum_f32")(t).As<double>() == 12.0);

  // A strided view: the middle column, elements 1 and 4.
  int64_t shape[1] = {2};
  int64_t strides[1] = {3};
  DLTensor proto = *t.dl_tensor();
  proto.ndim = 1;
  proto.shape = shape;
  proto.strides = strides;
  proto.byte_offset = sizeof(float);
  Tensor col = t.CreateUnsafeView(proto);
  TestingGlobal("testing.tensor_add_one_f32")(col);
  CHECK(static_cast<float*>(t.data_ptr())[1] == 3.0f);
  CHECK(static_cast<float*>(t.data_ptr())[4] == 3.0f);
  CHECK(static_cast<float*>(t.data_ptr())[2] == 2.0f);
  CHECK(TestingGlobal("testing.tensor_sum_f32")(t).As<double>() == 14.0);

  Tensor ro = TestingGlobal("testing.make_tensor_f32_read_only")(4).As<Tensor>();
  CHECK(ro.IsReadOnly());
  Tensor b = TestingGlobal("testing.make_tensor")("bool", 3).As<Tensor>();
  CHECK(b.dtype().code == kDLBool);
  try {
    TestingGlobal("testing.tensor_add_one_f32")(b);
    FAIL("expected TypeError");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "TypeError: testing.tensor_add_one_f32: expected a float32 CPU tensor, got bool on "
          "device type 1");
  }
  TestingGlobal("testing.tensor_noop3")(t, col, ro);
  t = Tensor();
  col = Tensor();
  ro = Tensor();
  b = Tensor();
  CHECK(TestingGlobal("testing.tensor_free_count")().As<int64_t>() == frees0 + 3);
}

TEST_CASE("Tensor: testing globals install the CPU allocator", "[tensor]") {
  TestingGlobal("testing.env_clear_allocator")(true);
  CHECK_THROWS_WITH(TestingGlobal("testing.env_tensor_alloc")("float32", 2),
                    "RuntimeError: TVMFFIEnvTensorAlloc: no DLPack tensor allocator is set (see "
                    "TVMFFIEnvSetDLPackManagedTensorAllocator)");
  TestingGlobal("testing.env_set_cpu_allocator")(false);
  CHECK(TestingGlobal("testing.env_allocator_is_cpu")().As<bool>());
  Tensor t = TestingGlobal("testing.env_tensor_alloc")("int8x4", 5).As<Tensor>();
  CHECK(t.dtype().lanes == 4);
  CHECK(t.shape().ToVector() == std::vector<int64_t>{5});
  TestingGlobal("testing.env_clear_allocator")(false);
  CHECK_FALSE(TestingGlobal("testing.env_allocator_is_cpu")().As<bool>());

  CHECK(TestingGlobal("testing.env_set_stream")(2, 0, int64_t(0x77)).As<int64_t>() == 0);
  CHECK(TestingGlobal("testing.env_get_stream")(2, 0).As<int64_t>() == 0x77);
  CHECK(TestingGlobal("testing.env_set_stream")(2, 0, int64_t(0)).As<int64_t>() == 0x77);
}

TEST_CASE("Tensor: unsafe view needs a tensor as its source", "[tensor]") {
  float buf[4];
  Legacy p(buf, {4}, {1});
  Tensor src = Tensor::FromDLPack(p.get());
  Function not_a_tensor = Function::FromTyped([]() { return 0; });
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorCreateUnsafeView(not_a_tensor.handle(), src.dl_tensor(), &h) == -1);
  CHECK(TakeError() == std::make_pair(std::string("TypeError"),
                                      std::string("TVMFFITensorCreateUnsafeView: expected "
                                                  "ffi.Tensor, got ffi.Function")));
  CHECK(h == nullptr);
  CHECK(not_a_tensor.use_count() == 1);
}

TEST_CASE("Tensor: negative dimensions are refused and left to the producer", "[tensor]") {
  float buf[4];
  Versioned p(buf, {2, -2}, {});
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPackVersioned(p.get(), 0, 0, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("RuntimeError"),
                       std::string("DLPack tensor has a negative dimension: shape [2, -2]")));
  CHECK(p.deletes == 0);
}

TEST_CASE("Tensor: element counts that do not fit in int64 are refused", "[tensor][limits]") {
  const int64_t k2p62 = int64_t(1) << 62;
  // {2, 2**62, 4}: 2**65 elements; the NULL strides would overflow too.
  for (bool versioned : {false, true}) {
    INFO("versioned: " << versioned);
    Legacy l(nullptr, {2, k2p62, 4}, {});
    Versioned v(nullptr, {2, k2p62, 4}, {});
    TVMFFIObjectHandle h = nullptr;
    int rc = versioned ? TVMFFITensorFromDLPackVersioned(v.get(), 0, 0, &h)
                       : TVMFFITensorFromDLPack(l.get(), 0, 0, &h);
    CHECK(rc == -1);
    CHECK(TakeRaised() ==
          "RuntimeError: DLPack tensor shape [2, 4611686018427387904, 4] has more elements than "
          "fit in int64");
    CHECK(h == nullptr);
    CHECK(l.deletes + v.deletes == 0);
  }
  // A zero dimension does not hide the overflow of the others (as numpy).
  Legacy zero(nullptr, {0, k2p62, 4}, {});
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(zero.get(), 0, 0, &h) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: DLPack tensor shape [0, 4611686018427387904, 4] has more elements than "
        "fit in int64");
  // Given strides do not matter: the count itself is refused.
  Legacy strided(nullptr, {k2p62, 2, 2}, {1, 1, 1});
  CHECK(TVMFFITensorFromDLPack(strided.get(), 0, 0, &h) == -1);
  CHECK(TakeRaised().find("has more elements than fit in int64") != std::string::npos);
}

TEST_CASE("Tensor: byte sizes that do not fit in int64 are refused", "[tensor][limits]") {
  // 2**61 float32x4 elements: the count fits, 2**65 bytes do not.
  Legacy p(nullptr, {int64_t(1) << 61}, {}, DType(kDLFloat, 32, 4));
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFITensorFromDLPack(p.get(), 0, 0, &h) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: DLPack tensor shape [2305843009213693952] with dtype (code 2, bits 32, "
        "lanes 4) takes more bytes than fit in int64");
  CHECK(p.deletes == 0);
  // Sub-byte types are counted in bits: 2**63 - 1 int4 elements fit in bytes.
  Legacy q(nullptr, {INT64_MAX}, {}, DType(kDLInt, 4));
  Tensor t = Tensor::FromDLPack(q.get());
  CHECK(t.numel() == INT64_MAX);
  CHECK(t.strides()[0] == 1);
}

TEST_CASE("Tensor: large but valid shapes keep exact compact strides", "[tensor][limits]") {
  const int64_t k2p40 = int64_t(1) << 40;
  Legacy p(nullptr, {0, k2p40, 3}, {}, DType(kDLInt, 8));
  Tensor t = Tensor::FromDLPack(p.get());
  CHECK(Vec(t.strides()) == std::vector<int64_t>{3 * k2p40, 3, 1});
  CHECK(t.numel() == 0);
  CHECK(t.IsContiguous());
}

TEST_CASE("Tensor: the contiguity check does not overflow", "[tensor][limits]") {
  int64_t shape[3] = {3, int64_t(1) << 62, 4};
  int64_t strides[3] = {0, 4, 1};
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.ndim = 3;
  t.shape = shape;
  t.strides = strides;
  // The stride dimension 0 would need is 2**64: no int64 stride matches,
  // not even 0, which is what 2**64 wraps to.
  CHECK_FALSE(IsContiguousLayout(t));
  strides[0] = INT64_MIN;
  CHECK_FALSE(IsContiguousLayout(t));
  shape[0] = 1;  // a size-1 dimension may have any stride
  CHECK(IsContiguousLayout(t));
}

TEST_CASE("Tensor: Shape::Product refuses to overflow", "[tensor][limits]") {
  Shape s{int64_t(1) << 62, 4};
  CHECK(ThrownBy([&] { s.Product(); }) ==
        "ValueError: the product of the dimensions of shape of size 2 overflows int64");
  CHECK(Shape{int64_t(1) << 62, 0}.Product() == 0);
}

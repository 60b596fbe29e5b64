// ffi.ContainerFindFirstNonCPUDevice over nested containers.
#include <catch2/catch.hpp>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

Tensor FakeTensor(DLDeviceType type, int32_t id) {
  static int64_t dims[1] = {4};
  DLTensor t{};
  t.data = reinterpret_cast<void*>(0x1000);  // never read
  t.device = DLDevice{type, id};
  t.ndim = 1;
  t.dtype = DLDataType{kDLFloat, 32, 1};
  t.shape = dims;
  return BorrowedTensor(t);
}

DLDevice Find(const AnyView& v) {
  return Call("ffi.ContainerFindFirstNonCPUDevice", v).cast<DLDevice>();
}

}  // namespace

TEST_CASE("Container device: first non-CPU tensor in nested containers",
          "[container_device]") {
  Tensor cpu = FakeTensor(kDLCPU, 0);
  Tensor gpu1 = FakeTensor(kDLCUDA, 1);
  Tensor gpu2 = FakeTensor(kDLCUDA, 2);
  Any inner = Call("ffi.Map", "x", cpu, "y", gpu1);
  Any outer = Call("ffi.Array", cpu, int64_t(3), Call("ffi.List", inner), gpu2);
  DLDevice d = Find(outer);
  CHECK(d.device_type == kDLCUDA);
  CHECK(d.device_id == 1);
  CHECK(Find(gpu2).device_id == 2);
}

TEST_CASE("Container device: CPU 0 when no tensor is off the CPU", "[container_device]") {
  Tensor cpu = FakeTensor(kDLCPU, 0);
  DLDevice d = Find(Call("ffi.Array", cpu, Call("ffi.Dict", "k", cpu)));
  CHECK(d.device_type == kDLCPU);
  CHECK(d.device_id == 0);
  CHECK(Find(int64_t(1)).device_type == kDLCPU);
}

TEST_CASE("Container device: a list that contains itself terminates", "[container_device]") {
  Any list = Call("ffi.List", int64_t(1));
  Call("ffi.ListAppend", list, list);
  CHECK(Find(list).device_type == kDLCPU);
  Call("ffi.ListAppend", list, FakeTensor(kDLCUDA, 3));
  CHECK(Find(list).device_id == 3);
  Call("ffi.ListClear", list);  // break the cycle
}

TEST_CASE("Container device: nesting is bounded like every other walk", "[container_device]") {
  // 1 000 000 levels overflowed the stack before the walk had a depth bound.
  // The arrays are the library's (ffi.Array), whose release of a deep nest
  // is bounded too; a header-made tvm::ffi::Array frees recursively.
  Function make_array = Function::GetGlobalRequired("ffi.Array");
  Any deep = Any(FakeTensor(kDLCUDA, 3));
  for (int i = 0; i < 1000000; ++i) deep = make_array(deep);
  CHECK(ThrownBy([&] { Find(deep); }) ==
        "RecursionError: ffi.ContainerFindFirstNonCPUDevice: the value is nested deeper than "
        "2048 levels");
  Any ok = Any(FakeTensor(kDLCUDA, 3));
  for (int i = 0; i < 2000; ++i) ok = make_array(ok);
  CHECK(Find(ok).device_id == 3);
}

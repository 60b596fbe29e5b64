// Environment: streams, allocators, TVMFFIEnvTensorAlloc, callbacks, symbols.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

void* Ptr(uintptr_t v) { return reinterpret_cast<void*>(v); }

// A counting CPU allocator.  It leaves strides NULL (as pre-1.2 producers
// did) so that the import has to synthesise them.
int allocs = 0;
int frees = 0;
void* last_error_ctx = Ptr(1);

int CountingAllocator(DLTensor* proto, DLManagedTensorVersioned** out, void* error_ctx,
                      void (*)(void*, const char*, const char*)) {
  last_error_ctx = error_ctx;
  struct Block {
    DLManagedTensorVersioned mt;
    std::vector<int64_t> shape;
    std::vector<float> data;
  };
  Block* b = new Block();
  b->shape.assign(proto->shape, proto->shape + proto->ndim);
  int64_t n = 1;
  for (int64_t d : b->shape) n *= d;
  b->data.assign(static_cast<size_t>(n), 0.0f);
  std::memset(&b->mt, 0, sizeof(b->mt));
  b->mt.version.major = 1;
  b->mt.version.minor = 3;
  b->mt.manager_ctx = b;
  b->mt.deleter = [](DLManagedTensorVersioned* self) {
    delete static_cast<Block*>(self->manager_ctx);
    ++frees;
  };
  b->mt.dl_tensor.data = b->data.data();
  b->mt.dl_tensor.device = proto->device;
  b->mt.dl_tensor.ndim = proto->ndim;
  b->mt.dl_tensor.dtype = proto->dtype;
  b->mt.dl_tensor.shape = b->shape.empty() ? nullptr : b->shape.data();
  *out = &b->mt;
  ++allocs;
  return 0;
}

int FailingAllocator(DLTensor*, DLManagedTensorVersioned**, void* error_ctx,
                     void (*SetError)(void*, const char*, const char*)) {
  SetError(error_ctx, "MemoryError", "device is full");
  return -7;
}

int OtherAllocator(DLTensor*, DLManagedTensorVersioned**, void*,
                   void (*)(void*, const char*, const char*)) {
  return -1;
}

// Leaves the allocator state as every test found it: nothing set.
struct AllocatorReset {
  ~AllocatorReset() { TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 1, nullptr); }
};

DLTensor Prototype(std::vector<int64_t>& shape) {
  DLTensor p;
  std::memset(&p, 0, sizeof(p));
  p.device.device_type = kDLCPU;
  p.ndim = static_cast<int32_t>(shape.size());
  p.dtype.code = kDLFloat;
  p.dtype.bits = 32;
  p.dtype.lanes = 1;
  p.shape = shape.data();
  return p;
}

}  // namespace

TEST_CASE("Env: streams are per (device_type, device_id) and return the previous one", "[env]") {
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == nullptr);
  TVMFFIStreamHandle prev = Ptr(99);
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 0, Ptr(0x10), &prev) == 0);
  CHECK(prev == nullptr);
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 1, Ptr(0x20), nullptr) == 0);
  REQUIRE(TVMFFIEnvSetStream(kDLROCM, 0, Ptr(0x30), nullptr) == 0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == Ptr(0x10));
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1) == Ptr(0x20));
  CHECK(TVMFFIEnvGetStream(kDLROCM, 0) == Ptr(0x30));
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 0, Ptr(0x11), &prev) == 0);
  CHECK(prev == Ptr(0x10));
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == Ptr(0x11));
  for (auto dev : {std::make_pair(kDLCUDA, 0), std::make_pair(kDLCUDA, 1),
                   std::make_pair(kDLROCM, 0)}) {
    REQUIRE(TVMFFIEnvSetStream(dev.first, dev.second, nullptr, nullptr) == 0);
  }
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == nullptr);
}

TEST_CASE("Env: streams are thread-local", "[env]") {
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 3, Ptr(0x40), nullptr) == 0);
  TVMFFIStreamHandle seen = Ptr(1);
  TVMFFIStreamHandle seen_after_set = nullptr;
  std::thread other([&] {
    seen = TVMFFIEnvGetStream(kDLCUDA, 3);
    TVMFFIEnvSetStream(kDLCUDA, 3, Ptr(0x50), nullptr);
    seen_after_set = TVMFFIEnvGetStream(kDLCUDA, 3);
  });
  other.join();
  CHECK(seen == nullptr);
  CHECK(seen_after_set == Ptr(0x50));
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 3) == Ptr(0x40));
  TVMFFIEnvSetStream(kDLCUDA, 3, nullptr, nullptr);
}

TEST_CASE("Env: negative device indices are refused", "[env]") {
  CHECK(TVMFFIEnvSetStream(-1, 0, Ptr(0x10), nullptr) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFIEnvSetStream: device_type and device_id must be "
                                   "non-negative, got device_type=-1, device_id=0")));
  CHECK(TVMFFIEnvSetStream(kDLCUDA, -2, Ptr(0x10), nullptr) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFIEnvSetStream: device_type and device_id must be "
                                   "non-negative, got device_type=2, device_id=-2")));
  CHECK(TVMFFIEnvGetStream(-1, -1) == nullptr);
}

namespace {

// Sets a device's stream for a scope and restores the previous one (the old
// C++ layer's StreamGuard; tvm::ffi has none), through the C API.
class StreamGuard {
 public:
  StreamGuard(DLDevice device, TVMFFIStreamHandle stream) : device_(device) {
    if (TVMFFIEnvSetStream(device.device_type, device.device_id, stream, &previous_) != 0) {
      throw tvm::ffi::details::MoveFromSafeCallRaised();
    }
  }
  ~StreamGuard() { TVMFFIEnvSetStream(device_.device_type, device_.device_id, previous_, nullptr); }
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  DLDevice device_;
  TVMFFIStreamHandle previous_ = nullptr;
};

}  // namespace

TEST_CASE("Env: StreamGuard restores the previous stream", "[env]") {
  DLDevice dev{kDLCUDA, 4};
  {
    StreamGuard outer(dev, Ptr(0x60));
    {
      StreamGuard inner(dev, Ptr(0x70));
      CHECK(TVMFFIEnvGetStream(kDLCUDA, 4) == Ptr(0x70));
    }
    CHECK(TVMFFIEnvGetStream(kDLCUDA, 4) == Ptr(0x60));
  }
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 4) == nullptr);
}

TEST_CASE("Env: allocator is thread-local first, then global", "[env]") {
  AllocatorReset reset;
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == nullptr);
  DLPackManagedTensorAllocator prev = &OtherAllocator;
  // Global (also sets this thread's).
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&CountingAllocator, 1, &prev) == 0);
  CHECK(prev == nullptr);
  // Thread-local only.
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&OtherAllocator, 0, &prev) == 0);
  CHECK(prev == &CountingAllocator);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == &OtherAllocator);

  DLPackManagedTensorAllocator seen = nullptr;
  DLPackManagedTensorAllocator seen_prev = &OtherAllocator;
  std::thread other([&] {
    seen = TVMFFIEnvGetDLPackManagedTensorAllocator();  // no TLS value: the global one
    // The previous value reported is the thread-local one (none), not the global.
    TVMFFIEnvSetDLPackManagedTensorAllocator(&FailingAllocator, 0, &seen_prev);
  });
  other.join();
  CHECK(seen == &CountingAllocator);
  CHECK(seen_prev == nullptr);
  // Clearing the thread-local value falls back to the global one.
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, &prev) == 0);
  CHECK(prev == &OtherAllocator);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == &CountingAllocator);
}

TEST_CASE("Env: TensorAlloc without an allocator is a RuntimeError", "[env]") {
  AllocatorReset reset;
  TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 1, nullptr);
  std::vector<int64_t> shape{2};
  DLTensor proto = Prototype(shape);
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFIEnvTensorAlloc(&proto, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("RuntimeError"),
                       std::string("TVMFFIEnvTensorAlloc: no DLPack tensor allocator is set "
                                   "(see TVMFFIEnvSetDLPackManagedTensorAllocator)")));
  CHECK(h == nullptr);
}

TEST_CASE("Env: TensorAlloc wraps the allocator's tensor and frees it once", "[env]") {
  AllocatorReset reset;
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&CountingAllocator, 0, nullptr) == 0);
  int allocs0 = allocs, frees0 = frees;
  last_error_ctx = Ptr(1);
  DLDevice cpu{kDLCPU, 0};
  DLDataType f32{kDLFloat, 32, 1};
  Tensor t = Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, Shape{2, 3, 4}, f32, cpu);
  CHECK(last_error_ctx == nullptr);
  CHECK(allocs == allocs0 + 1);
  CHECK(t.ndim() == 3);
  CHECK(std::vector<int64_t>(t.shape().begin(), t.shape().end()) == std::vector<int64_t>{2, 3, 4});
  CHECK(std::vector<int64_t>(t.strides().begin(), t.strides().end()) ==
        std::vector<int64_t>{12, 4, 1});  // synthesised
  CHECK(t.dtype().bits == 32);
  static_cast<float*>(t.data_ptr())[23] = 1.5f;  // real memory
  Tensor copy = t;
  t = Tensor();
  CHECK(frees == frees0);
  copy = Tensor();
  CHECK(frees == frees0 + 1);
}

TEST_CASE("Env: an allocator's failure code and error pass through", "[env]") {
  AllocatorReset reset;
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&FailingAllocator, 0, nullptr) == 0);
  std::vector<int64_t> shape{2};
  DLTensor proto = Prototype(shape);
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFIEnvTensorAlloc(&proto, &h) == -7);
  CHECK(TakeError() == std::make_pair(std::string("MemoryError"), std::string("device is full")));
  CHECK(h == nullptr);
  try {
    Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, Shape{1}, DLDataType{kDLFloat, 32, 1},
                         DLDevice{kDLCPU, 0});
    FAIL("expected MemoryError");
  } catch (const Error& e) {
    CHECK(e.kind() == "MemoryError");
  }
}

TEST_CASE("Env: an allocator that fails without an error gets one", "[env]") {
  AllocatorReset reset;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "stale, from an earlier call");
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&OtherAllocator, 0, nullptr) == 0);
  std::vector<int64_t> shape{2};
  DLTensor proto = Prototype(shape);
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFIEnvTensorAlloc(&proto, &h) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("RuntimeError"),
                       std::string("TVMFFIEnvTensorAlloc: the allocator failed with code -1 "
                                   "without setting an error")));
}

namespace {
int ensure_calls = 0;
int release_calls = 0;
int released_state = 0;
int check_result = 0;
int FakeCheckSignals() { return check_result; }
int FakeEnsure() {
  ++ensure_calls;
  return 42;
}
void FakeRelease(int state) {
  ++release_calls;
  released_state = state;
}
}  // namespace

TEST_CASE("Env: CheckSignals calls the host under its GIL", "[env]") {
  CHECK(TVMFFIEnvCheckSignals() == 0);  // nothing registered
  REQUIRE(TVMFFIEnvRegisterCAPI("PyGILState_Ensure", reinterpret_cast<void*>(&FakeEnsure)) == 0);
  REQUIRE(TVMFFIEnvRegisterCAPI("PyGILState_Release", reinterpret_cast<void*>(&FakeRelease)) ==
          0);
  REQUIRE(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals",
                                reinterpret_cast<void*>(&FakeCheckSignals)) == 0);
  check_result = 0;
  CHECK(TVMFFIEnvCheckSignals() == 0);
  CHECK(ensure_calls == 1);
  CHECK(release_calls == 1);
  CHECK(released_state == 42);
  CHECK(TakeError().first == "<none>");

  check_result = -1;
  CHECK(TVMFFIEnvCheckSignals() == -1);
  CHECK(ensure_calls == 2);
  CHECK(release_calls == 2);
  CHECK(TakeError() == std::make_pair(std::string("EnvErrorAlreadySet"),
                                      std::string("an error is pending in the host runtime "
                                                  "(PyErr_CheckSignals)")));

  for (const char* name : {"PyErr_CheckSignals", "PyGILState_Ensure", "PyGILState_Release"}) {
    REQUIRE(TVMFFIEnvRegisterCAPI(name, nullptr) == 0);
  }
  CHECK(TVMFFIEnvCheckSignals() == 0);
  CHECK(ensure_calls == 2);
}

TEST_CASE("Env: RegisterCAPI refuses unknown names", "[env]") {
  CHECK(TVMFFIEnvRegisterCAPI("PyErr_Occurred", Ptr(0x10)) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFIEnvRegisterCAPI: unknown C API name `PyErr_Occurred` "
                                   "(expected `PyErr_CheckSignals`, `PyGILState_Ensure` or "
                                   "`PyGILState_Release`)")));
  CHECK(TVMFFIEnvRegisterCAPI(nullptr, Ptr(0x10)) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFIEnvRegisterCAPI: name must not be NULL")));
}

TEST_CASE("Env: LookupFromImports finds globals and caches a borrowed handle", "[env]") {
  Function target = Function::FromTyped([](int64_t x) { return x * 2; });
  Function::SetGlobal("testing.env_lookup_target", target, true);
  int before = target.use_count();
  // library_ctx is a module (what a loader stores in __tvm_ffi__library_ctx);
  // this one has no imports, so the globals are searched.
  Any module = Call("ffi.SystemLib", "env_test.");
  void* ctx = HandleOf(module);
  TVMFFIObjectHandle f = nullptr;
  REQUIRE(TVMFFIEnvModLookupFromImports(ctx, "testing.env_lookup_target", &f) == 0);
  CHECK(f == HandleOf(target));
  CHECK(target.use_count() == before + 1);  // the cache's reference
  TVMFFIObjectHandle again = nullptr;
  REQUIRE(TVMFFIEnvModLookupFromImports(ctx, "testing.env_lookup_target", &again) == 0);
  CHECK(again == f);
  CHECK(target.use_count() == before + 1);  // borrowed: no new reference

  // Callable through the borrowed handle.
  TVMFFIAny arg;
  std::memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIInt;
  arg.v_int64 = 21;
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  REQUIRE(TVMFFIFunctionCall(f, &arg, 1, &result) == 0);
  CHECK(result.v_int64 == 42);

  CHECK(TVMFFIEnvModLookupFromImports(ctx, "testing.env_no_such_function", &f) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("RuntimeError"),
                       std::string("TVMFFIEnvModLookupFromImports: cannot find function "
                                   "`testing.env_no_such_function` in the imports of the system "
                                   "library (prefix \"env_test.\") or in the global function "
                                   "registry")));
}

TEST_CASE("Env: symbol registration", "[env]") {
  int value = 0;
  CHECK(TVMFFIEnvModRegisterContextSymbol("__tvm_ffi_test_ctx", &value) == 0);
  CHECK(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_test_sym", &value) == 0);
  CHECK(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_test_sym", &value) == 0);
  CHECK(TVMFFIEnvModRegisterContextSymbol(nullptr, &value) == -1);
  CHECK(TakeError() ==
        std::make_pair(std::string("ValueError"),
                       std::string("TVMFFIEnvModRegisterContextSymbol: name must not be NULL")));
}

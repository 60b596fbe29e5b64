// testing.* globals for tensors and the environment.
//
// Inspecting tensors, making CPU tensors with a counting allocator, and
// stream/allocator hooks.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// Blocks made by the CPU allocator below and freed by their deleter.
std::atomic<int64_t> cpu_alloc_count{0};
std::atomic<int64_t> cpu_free_count{0};

std::string DTypeName(DLDataType dtype) { return std::string(DLDataTypeToString(dtype)); }

// layout = { DLManagedTensorVersioned, int64 shape[ndim], int64 strides[ndim] };
// the data is a separate 64-byte aligned, zero-filled block.
void CpuDeleter(DLManagedTensorVersioned* self) {
  std::free(self->dl_tensor.data);
  std::free(self);
  cpu_free_count.fetch_add(1);
}

// A DLPackManagedTensorAllocator for CPU tensors; installable as the
// environment allocator.
int CpuAllocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                 void (*SetError)(void* error_ctx, const char* kind, const char* message)) {
  if (prototype->device.device_type != kDLCPU) {
    std::string msg = "testing CPU allocator: cannot allocate on device type " +
                      std::to_string(prototype->device.device_type);
    SetError(error_ctx, "ValueError", msg.c_str());
    return -1;
  }
  int32_t ndim = prototype->ndim;
  if (ndim < 0) {
    SetError(error_ctx, "ValueError", "testing CPU allocator: negative ndim");
    return -1;
  }
  int64_t numel = 1;
  for (int32_t i = 0; i < ndim; ++i) {
    if (prototype->shape[i] < 0) {
      SetError(error_ctx, "ValueError", "testing CPU allocator: negative dimension");
      return -1;
    }
    numel *= prototype->shape[i];
  }
  uint64_t lanes = prototype->dtype.lanes == 0 ? 1 : prototype->dtype.lanes;
  uint64_t elem_bits = static_cast<uint64_t>(prototype->dtype.bits) * lanes;
  size_t bytes = static_cast<size_t>((static_cast<uint64_t>(numel) * elem_bits + 7) / 8);
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded == 0) rounded = 64;
  void* data = std::aligned_alloc(64, rounded);
  auto* mt = static_cast<DLManagedTensorVersioned*>(
      std::malloc(sizeof(DLManagedTensorVersioned) + 2 * sizeof(int64_t) * ndim));
  if (data == nullptr || mt == nullptr) {
    std::free(data);
    std::free(mt);
    SetError(error_ctx, "MemoryError", "testing CPU allocator: out of memory");
    return -1;
  }
  std::memset(data, 0, rounded);
  int64_t* shape = reinterpret_cast<int64_t*>(mt + 1);
  int64_t* strides = shape + ndim;
  int64_t step = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    shape[i] = prototype->shape[i];
    strides[i] = step;
    step *= shape[i];
  }
  mt->version.major = 1;
  mt->version.minor = 3;
  mt->manager_ctx = nullptr;
  mt->deleter = &CpuDeleter;
  mt->flags = 0;
  mt->dl_tensor.data = data;
  mt->dl_tensor.device = prototype->device;
  mt->dl_tensor.ndim = ndim;
  mt->dl_tensor.dtype = prototype->dtype;
  mt->dl_tensor.shape = ndim == 0 ? nullptr : shape;
  mt->dl_tensor.strides = ndim == 0 ? nullptr : strides;
  mt->dl_tensor.byte_offset = 0;
  *out = mt;
  cpu_alloc_count.fetch_add(1);
  return 0;
}

void ThrowingSetError(void*, const char* kind, const char* message) {
  throw Error(kind, message, TVMFFIBacktrace(nullptr, 0, nullptr, 0));
}

// A zero-filled CPU tensor made directly with CpuAllocator.
Tensor MakeCpuTensor(DLDataType dtype, const std::vector<int64_t>& shape, uint64_t flags) {
  DLTensor proto;
  std::memset(&proto, 0, sizeof(proto));
  proto.device.device_type = kDLCPU;
  proto.ndim = static_cast<int32_t>(shape.size());
  proto.dtype = dtype;
  proto.shape = const_cast<int64_t*>(shape.data());
  DLManagedTensorVersioned* mt = nullptr;
  if (CpuAllocator(&proto, &mt, nullptr, &ThrowingSetError) != 0) {
    TVM_FFI_THROW(RuntimeError) << "testing CPU allocator failed";
  }
  mt->flags = flags;
  // Imported by the library (TVMFFITensorFromDLPackVersioned), which keeps the
  // DLPack flags (ffi.TensorIsReadOnly reads READ_ONLY back); on failure the
  // managed tensor is still ours.
  TVMFFIObjectHandle handle = nullptr;
  if (TVMFFITensorFromDLPackVersioned(mt, 0, 0, &handle) != 0) {
    mt->deleter(mt);
    ThrowRaised();
  }
  ObjectRef tensor(::tvm::ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
      static_cast<TVMFFIObject*>(handle)));
  return Any(std::move(tensor)).cast<Tensor>();
}

std::vector<int64_t> ShapeArgs(PackedArgs args, int begin, const char* func) {
  std::vector<int64_t> shape;
  for (int i = begin; i < args.size(); ++i) {
    std::optional<int64_t> d = args[i].try_cast<int64_t>();
    if (!d.has_value()) {
      TVM_FFI_THROW(TypeError) << func << ": shape: expected int, got "
                               << DisplayName(args[i].type_index());
    }
    shape.push_back(*d);
  }
  return shape;
}

bool IsReadOnly(const Tensor& t) {
  static const Function is_read_only = Function::GetGlobalRequired("ffi.TensorIsReadOnly");
  return is_read_only(t).cast<bool>();
}

DLDataType Float32() {
  DLDataType t;
  t.code = kDLFloat;
  t.bits = 32;
  t.lanes = 1;
  return t;
}

// Visits the byte address of every element of a strided CPU tensor.
template <typename F>
void ForEachElement(const Tensor& t, F f) {
  int64_t n = t.numel();
  if (n == 0) return;
  int32_t ndim = t.ndim();
  std::vector<int64_t> index(ndim, 0);
  char* base = static_cast<char*>(t.data_ptr()) + t.byte_offset();
  int64_t item = (t.dtype().bits * (t.dtype().lanes == 0 ? 1 : t.dtype().lanes) + 7) / 8;
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int32_t i = 0; i < ndim; ++i) offset += index[i] * t.strides()[i];
    f(base + offset * item);
    for (int32_t i = ndim - 1; i >= 0; --i) {
      if (++index[i] < t.shape()[i]) break;
      index[i] = 0;
    }
  }
}

void CheckFloat32Cpu(const Tensor& t, const char* func) {
  DLDataType d = t.dtype();
  if (d.code != kDLFloat || d.bits != 32 || d.lanes != 1 || t.device().device_type != kDLCPU) {
    TVM_FFI_THROW(TypeError) << func << ": expected a float32 CPU tensor, got " << DTypeName(d)
                            << " on device type " << t.device().device_type;
  }
}

TVM_FFI_STATIC_INIT_BLOCK() {
  // --- Inspecting tensors -----------------------------------------------------
  refl::GlobalDef()
      .def("testing.tensor_data_ptr",
           [](Tensor t) { return reinterpret_cast<int64_t>(t.data_ptr()); })
      .def("testing.tensor_byte_offset",
           [](Tensor t) { return static_cast<int64_t>(t.byte_offset()); })
      .def("testing.tensor_ndim", [](Tensor t) { return t.ndim(); })
      .def("testing.tensor_shape", [](Tensor t) { return Shape(t.shape()); })
      .def("testing.tensor_strides", [](Tensor t) { return Shape(t.strides()); })
      .def("testing.tensor_dtype", [](Tensor t) { return t.dtype(); })
      .def("testing.tensor_device", [](Tensor t) { return t.device(); })
      .def("testing.tensor_numel", [](Tensor t) { return t.numel(); })
      .def("testing.tensor_is_contiguous", [](Tensor t) { return t.IsContiguous(); })
      .def("testing.tensor_is_read_only", [](Tensor t) { return IsReadOnly(t); })
      .def("testing.tensor_noop", [](Tensor) {})
      // An optional tensor argument: None is "no value", anything else must be a tensor.
      .def("testing.optional_tensor_view_has_value",
           [](Optional<Tensor> t) { return t.has_value(); })
      .def("testing.tensor_noop3", [](Tensor, Tensor, Tensor) {})
      // Adds 1 to every element of a float32 CPU tensor in place (any strides);
      // refuses a read-only tensor, as a kernel that writes should.
      .def("testing.tensor_add_one_f32",
           [](Tensor t) {
             CheckFloat32Cpu(t, "testing.tensor_add_one_f32");
             if (IsReadOnly(t)) {
               TVM_FFI_THROW(ValueError) << "testing.tensor_add_one_f32: the tensor is read-only";
             }
             ForEachElement(t, [](char* p) { *reinterpret_cast<float*>(p) += 1.0f; });
           })
      // The sum of a float32 CPU tensor's elements (any strides).
      .def("testing.tensor_sum_f32", [](Tensor t) {
        CheckFloat32Cpu(t, "testing.tensor_sum_f32");
        double sum = 0;
        ForEachElement(t, [&sum](char* p) { sum += *reinterpret_cast<float*>(p); });
        return sum;
      });

  // --- Making tensors ---------------------------------------------------------
  refl::GlobalDef()
      // testing.make_tensor_f32(*shape): a zero-filled float32 CPU tensor.
      .def_packed("testing.make_tensor_f32",
                  [](PackedArgs args, Any* rv) {
                    *rv = MakeCpuTensor(Float32(), ShapeArgs(args, 0, "testing.make_tensor_f32"),
                                        0);
                  })
      // Same, imported with the DLPack READ_ONLY flag.
      .def_packed("testing.make_tensor_f32_read_only",
                  [](PackedArgs args, Any* rv) {
                    *rv = MakeCpuTensor(Float32(),
                                        ShapeArgs(args, 0, "testing.make_tensor_f32_read_only"),
                                        DLPACK_FLAG_BITMASK_READ_ONLY);
                  })
      // testing.make_tensor(dtype, *shape): zero-filled CPU tensor of any dtype.
      .def_packed("testing.make_tensor",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() < 1) {
                      TVM_FFI_THROW(TypeError) << "testing.make_tensor: expected a dtype first";
                    }
                    DLDataType dtype = args[0].cast<DLDataType>();
                    *rv = MakeCpuTensor(dtype, ShapeArgs(args, 1, "testing.make_tensor"), 0);
                  })
      // Blocks made and freed by the CPU allocator (each deleter runs once).
      .def("testing.tensor_alloc_count", []() { return cpu_alloc_count.load(); })
      .def("testing.tensor_free_count", []() { return cpu_free_count.load(); });

  // --- Environment ------------------------------------------------------------
  refl::GlobalDef()
      // Installs the CPU allocator for this thread (and globally if asked).
      .def("testing.env_set_cpu_allocator",
           [](bool write_to_global) {
             TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvSetDLPackManagedTensorAllocator(
                 &CpuAllocator, write_to_global ? 1 : 0, nullptr));
           })
      // Removes this thread's allocator (and the global one if asked).
      .def("testing.env_clear_allocator",
           [](bool write_to_global) {
             TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvSetDLPackManagedTensorAllocator(
                 nullptr, write_to_global ? 1 : 0, nullptr));
           })
      // Whether the current allocator is the testing CPU allocator.
      .def("testing.env_allocator_is_cpu",
           []() { return TVMFFIEnvGetDLPackManagedTensorAllocator() == &CpuAllocator; })
      // testing.env_tensor_alloc(dtype, *shape): TVMFFIEnvTensorAlloc on the CPU.
      .def_packed("testing.env_tensor_alloc",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() < 1) {
                      TVM_FFI_THROW(TypeError)
                          << "testing.env_tensor_alloc: expected a dtype first";
                    }
                    DLDevice cpu;
                    cpu.device_type = kDLCPU;
                    cpu.device_id = 0;
                    std::vector<int64_t> shape = ShapeArgs(args, 1, "testing.env_tensor_alloc");
                    *rv = Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc,
                                               ShapeView(shape.data(), shape.size()),
                                               args[0].cast<DLDataType>(), cpu);
                  })
      // Streams as integers (pointer values) for tests in other languages.
      .def("testing.env_get_stream",
           [](int32_t device_type, int32_t device_id) {
             return reinterpret_cast<int64_t>(TVMFFIEnvGetStream(device_type, device_id));
           })
      .def("testing.env_set_stream", [](int32_t device_type, int32_t device_id, int64_t stream) {
        TVMFFIStreamHandle previous = nullptr;
        TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvSetStream(
            device_type, device_id, reinterpret_cast<TVMFFIStreamHandle>(stream), &previous));
        return reinterpret_cast<int64_t>(previous);
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

// testing.* globals for tensors and the environment.
//
// Inspecting tensors, making CPU tensors with a counting allocator, and
// stream/allocator hooks.
#include <tvm/ffi/extra/c_env_api.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tvmffi/function.h>
#include <tvmffi/shape.h>
#include <tvmffi/tensor.h>

namespace tvmffi {
namespace core {
namespace {

// Blocks made by the CPU allocator below and freed by their deleter.
std::atomic<int64_t> cpu_alloc_count{0};
std::atomic<int64_t> cpu_free_count{0};

std::string DTypeName(DLDataType dtype) {
  Any name;
  int rc = TVMFFIDataTypeToString(&dtype, name.result_slot());
  if (rc != 0) ThrowRaised(rc);
  return name.As<std::string>();
}

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
  throw Error(kind, message);
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
    TVMFFI_THROW(RuntimeError) << "testing CPU allocator failed";
  }
  mt->flags = flags;
  try {
    return Tensor::FromDLPackVersioned(mt);
  } catch (...) {
    mt->deleter(mt);
    throw;
  }
}

std::vector<int64_t> ShapeArgs(const AnyView* args, int32_t begin, int32_t n, const char* func) {
  std::vector<int64_t> shape;
  for (int32_t i = begin; i < n; ++i) {
    std::optional<int64_t> d = args[i].TryAs<int64_t>();
    if (!d.has_value()) ThrowTypeMismatch("int", args[i].raw(), std::string(func) + ": shape");
    shape.push_back(*d);
  }
  return shape;
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
    TVMFFI_THROW(TypeError) << func << ": expected a float32 CPU tensor, got " << DTypeName(d)
                            << " on device type " << t.device().device_type;
  }
}

// --- Inspecting tensors -------------------------------------------------------

TVMFFI_REGISTER_GLOBAL("testing.tensor_data_ptr",
                       [](Tensor t) { return reinterpret_cast<int64_t>(t.data_ptr()); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_byte_offset",
                       [](Tensor t) { return static_cast<int64_t>(t.byte_offset()); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_ndim", [](Tensor t) { return t.ndim(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_shape", [](Tensor t) {
  return Shape(t.shape().data(), t.shape().size());
});
TVMFFI_REGISTER_GLOBAL("testing.tensor_strides", [](Tensor t) {
  return Shape(t.strides().data(), t.strides().size());
});
TVMFFI_REGISTER_GLOBAL("testing.tensor_dtype", [](Tensor t) { return t.dtype(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_device", [](Tensor t) { return t.device(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_numel", [](Tensor t) { return t.numel(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_is_contiguous", [](Tensor t) { return t.IsContiguous(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_is_read_only", [](Tensor t) { return t.IsReadOnly(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_noop", [](Tensor) {});
// An optional tensor argument: None is "no value", anything else must be a tensor.
TVMFFI_REGISTER_GLOBAL("testing.optional_tensor_view_has_value",
                       [](std::optional<Tensor> t) { return t.has_value(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_noop3", [](Tensor, Tensor, Tensor) {});

// Adds 1 to every element of a float32 CPU tensor in place (any strides);
// refuses a read-only tensor, as a kernel that writes should.
TVMFFI_REGISTER_GLOBAL("testing.tensor_add_one_f32", [](Tensor t) {
  CheckFloat32Cpu(t, "testing.tensor_add_one_f32");
  if (t.IsReadOnly()) {
    TVMFFI_THROW(ValueError) << "testing.tensor_add_one_f32: the tensor is read-only";
  }
  ForEachElement(t, [](char* p) { *reinterpret_cast<float*>(p) += 1.0f; });
});

// The sum of a float32 CPU tensor's elements (any strides).
TVMFFI_REGISTER_GLOBAL("testing.tensor_sum_f32", [](Tensor t) {
  CheckFloat32Cpu(t, "testing.tensor_sum_f32");
  double sum = 0;
  ForEachElement(t, [&sum](char* p) { sum += *reinterpret_cast<float*>(p); });
  return sum;
});

// --- Making tensors ---------------------------------------------------------------

// testing.make_tensor_f32(*shape): a zero-filled float32 CPU tensor.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.make_tensor_f32",
                              [](const AnyView* args, int32_t n, Any* rv) {
                                *rv = MakeCpuTensor(
                                    Float32(), ShapeArgs(args, 0, n, "testing.make_tensor_f32"), 0);
                              });

// Same, imported with the DLPack READ_ONLY flag.
TVMFFI_REGISTER_GLOBAL_PACKED(
    "testing.make_tensor_f32_read_only", [](const AnyView* args, int32_t n, Any* rv) {
      *rv = MakeCpuTensor(Float32(), ShapeArgs(args, 0, n, "testing.make_tensor_f32_read_only"),
                          DLPACK_FLAG_BITMASK_READ_ONLY);
    });

// testing.make_tensor(dtype, *shape): zero-filled CPU tensor of any dtype.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.make_tensor", [](const AnyView* args, int32_t n, Any* rv) {
  if (n < 1) TVMFFI_THROW(TypeError) << "testing.make_tensor: expected a dtype first";
  DLDataType dtype = args[0].As<DLDataType>();
  *rv = MakeCpuTensor(dtype, ShapeArgs(args, 1, n, "testing.make_tensor"), 0);
});

// Blocks made and freed by the CPU allocator (each deleter runs once).
TVMFFI_REGISTER_GLOBAL("testing.tensor_alloc_count", []() { return cpu_alloc_count.load(); });
TVMFFI_REGISTER_GLOBAL("testing.tensor_free_count", []() { return cpu_free_count.load(); });

// --- Environment ----------------------------------------------------------------

// Installs the CPU allocator for this thread (and globally if asked).
TVMFFI_REGISTER_GLOBAL("testing.env_set_cpu_allocator", [](bool write_to_global) {
  int rc = TVMFFIEnvSetDLPackManagedTensorAllocator(&CpuAllocator, write_to_global ? 1 : 0,
                                                    nullptr);
  if (rc != 0) ThrowRaised(rc);
});
// Removes this thread's allocator (and the global one if asked).
TVMFFI_REGISTER_GLOBAL("testing.env_clear_allocator", [](bool write_to_global) {
  int rc = TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, write_to_global ? 1 : 0, nullptr);
  if (rc != 0) ThrowRaised(rc);
});
// Whether the current allocator is the testing CPU allocator.
TVMFFI_REGISTER_GLOBAL("testing.env_allocator_is_cpu", []() {
  return TVMFFIEnvGetDLPackManagedTensorAllocator() == &CpuAllocator;
});
// testing.env_tensor_alloc(dtype, *shape): TVMFFIEnvTensorAlloc on the CPU.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.env_tensor_alloc",
                              [](const AnyView* args, int32_t n, Any* rv) {
                                if (n < 1) {
                                  TVMFFI_THROW(TypeError)
                                      << "testing.env_tensor_alloc: expected a dtype first";
                                }
                                DLDevice cpu;
                                cpu.device_type = kDLCPU;
                                cpu.device_id = 0;
                                *rv = Tensor::FromEnvAlloc(
                                    ShapeArgs(args, 1, n, "testing.env_tensor_alloc"),
                                    args[0].As<DLDataType>(), cpu);
                              });

// Streams as integers (pointer values) for tests in other languages.
TVMFFI_REGISTER_GLOBAL("testing.env_get_stream", [](int32_t device_type, int32_t device_id) {
  return reinterpret_cast<int64_t>(TVMFFIEnvGetStream(device_type, device_id));
});
TVMFFI_REGISTER_GLOBAL("testing.env_set_stream",
                       [](int32_t device_type, int32_t device_id, int64_t stream) {
                         TVMFFIStreamHandle previous = nullptr;
                         int rc = TVMFFIEnvSetStream(device_type, device_id,
                                                     reinterpret_cast<TVMFFIStreamHandle>(stream),
                                                     &previous);
                         if (rc != 0) ThrowRaised(rc);
                         return reinterpret_cast<int64_t>(previous);
                       });

}  // namespace
}  // namespace core
}  // namespace tvmffi

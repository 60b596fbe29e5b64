// DLPack import, legacy and versioned: a tensor described by the input
// (any ndim, shape, strides or NULL strides, dtype, offset, device, flags,
// version) is either refused with an error, leaving the producer's deleter
// to the caller, or imported so that its strides are consistent and its
// deleter runs exactly once when the tensor dies.
#include "fuzz_common.h"

#include <vector>

namespace {

constexpr int32_t kMaxDims = 8;

// The producer's side: the managed tensor and the arrays it points at, which
// must outlive the import (they are referenced, not copied).
struct Producer {
  DLManagedTensor legacy;
  DLManagedTensorVersioned versioned;
  int64_t shape[kMaxDims];
  int64_t strides[kMaxDims];
  int deleted = 0;
};

void DeleteLegacy(DLManagedTensor* self) { ++static_cast<Producer*>(self->manager_ctx)->deleted; }
void DeleteVersioned(DLManagedTensorVersioned* self) {
  ++static_cast<Producer*>(self->manager_ctx)->deleted;
}

int64_t Dim(fuzz::Reader& in) {
  // Mostly small dimensions, sometimes anything (negative, huge).
  uint8_t kind = in.Byte();
  if (kind < 200) return kind % 8;
  return in.Take<int64_t>();
}

// Checks an imported tensor, exports it both ways and releases everything.
void CheckImported(TVMFFIObjectHandle t, const DLTensor& src, bool strides_were_null) {
  DLTensor* dl = TVMFFITensorGetDLTensorPtr(t);
  fuzz::Require(dl->ndim == src.ndim, "ndim changed on import");
  fuzz::Require(dl->ndim == 0 || dl->strides != nullptr, "an imported tensor has NULL strides");
  if (strides_were_null && dl->ndim > 0) {
    // Synthesised compact strides: stride[i] = product of shape[i+1:].
    int64_t expect = 1;
    for (int32_t i = dl->ndim - 1; i >= 0; --i) {
      fuzz::Require(dl->strides[i] == expect, "synthesised strides are not compact");
      if (i > 0) fuzz::Require(!__builtin_mul_overflow(expect, dl->shape[i], &expect),
                               "an accepted shape's strides overflow int64");
    }
  }
  DLManagedTensor* out = nullptr;
  int rc = TVMFFITensorToDLPack(t, &out);
  fuzz::CheckReturn(rc);
  if (rc == 0) out->deleter(out);
  DLManagedTensorVersioned* vout = nullptr;
  rc = TVMFFITensorToDLPackVersioned(t, &vout);
  fuzz::CheckReturn(rc);
  if (rc == 0) vout->deleter(vout);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader in(data, size);
  Producer p;
  uint8_t mode = in.Byte();
  bool versioned = mode & 1;
  bool null_strides = mode & 2;
  bool null_shape = (mode & 0x1C) == 0x1C;
  int32_t ndim = in.Byte() < 250 ? in.Byte() % (kMaxDims + 1) : in.Take<int32_t>();
  if (ndim > kMaxDims) ndim = kMaxDims;  // the arrays hold at most kMaxDims
  for (int32_t i = 0; i < kMaxDims; ++i) p.shape[i] = i < ndim ? Dim(in) : 0;
  for (int32_t i = 0; i < kMaxDims; ++i) p.strides[i] = i < ndim ? Dim(in) : 0;

  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  static char storage[64];
  t.data = in.Byte() < 128 ? static_cast<void*>(storage + in.Byte() % 16) : nullptr;
  t.device.device_type = static_cast<DLDeviceType>(in.Byte() % 20);
  t.device.device_id = in.Byte();
  t.ndim = ndim;
  t.dtype.code = in.Byte();
  t.dtype.bits = in.Byte();
  t.dtype.lanes = in.Take<uint16_t>();
  t.shape = null_shape ? nullptr : p.shape;
  t.strides = null_strides ? nullptr : p.strides;
  t.byte_offset = in.Byte() < 200 ? in.Byte() : in.Take<uint64_t>();
  int32_t align = in.Byte() < 200 ? (1 << (in.Byte() % 8)) : in.Take<int32_t>();
  int32_t contiguous = in.Byte() & 1;

  TVMFFIObjectHandle out = nullptr;
  int rc;
  if (versioned) {
    p.versioned.version.major = in.Byte() < 230 ? 1 : in.Byte();
    p.versioned.version.minor = in.Byte();
    p.versioned.manager_ctx = &p;
    p.versioned.deleter = &DeleteVersioned;
    p.versioned.flags = in.Take<uint64_t>() & 0xF;
    p.versioned.dl_tensor = t;
    rc = TVMFFITensorFromDLPackVersioned(&p.versioned, align, contiguous, &out);
  } else {
    p.legacy.manager_ctx = &p;
    p.legacy.deleter = &DeleteLegacy;
    p.legacy.dl_tensor = t;
    rc = TVMFFITensorFromDLPack(&p.legacy, align, contiguous, &out);
  }
  fuzz::CheckReturn(rc);
  if (rc != 0) {
    fuzz::Require(p.deleted == 0, "a refused import ran the producer's deleter");
    return 0;
  }
  fuzz::Require(out != nullptr, "a successful import returned no tensor");
  fuzz::Require(ndim >= 0, "a negative ndim was accepted");
  CheckImported(out, t, null_strides);
  fuzz::Require(p.deleted == 0, "the deleter ran while the tensor is alive");
  TVMFFIObjectDecRef(out);
  fuzz::Require(p.deleted == 1, "the deleter did not run exactly once");
  return 0;
}

// Helpers shared by the libFuzzer targets: a byte reader over the fuzz input
// and the checks every call through the C ABI must pass.
#ifndef TVM_FFI_FUZZ_FUZZ_COMMON_H_
#define TVM_FFI_FUZZ_FUZZ_COMMON_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fuzz {

// Stops the run with a message: libFuzzer records the input as a crash.
[[noreturn]] inline void Fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

inline void Require(bool ok, const char* what) {
  if (!ok) Fail(what);
}

// Reads fixed-size values from the input; past the end everything is 0.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return pos_ >= size_ ? 0 : size_ - pos_; }
  template <typename T>
  T Take() {
    T out{};
    size_t n = sizeof(T) < remaining() ? sizeof(T) : remaining();
    if (n != 0) std::memcpy(&out, data_ + pos_, n);
    pos_ += sizeof(T);
    return out;
  }
  uint8_t Byte() { return Take<uint8_t>(); }
  // The rest of the input as bytes.
  const uint8_t* Rest(size_t* n) {
    *n = remaining();
    const uint8_t* p = data_ + (pos_ < size_ ? pos_ : size_);
    pos_ = size_;
    return p;
  }
  // Up to `max` bytes.
  const uint8_t* Bytes(size_t max, size_t* n) {
    *n = remaining() < max ? remaining() : max;
    const uint8_t* p = data_ + (pos_ < size_ ? pos_ : size_);
    pos_ += *n;
    return p;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// After a C function returned `rc`: 0 leaves the error slot empty, -1 fills
// it with an Error object (taken and released here); nothing else is allowed.
inline void CheckReturn(int rc) {
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  if (rc == 0) {
    Require(err == nullptr, "a call returned 0 but left an error in the slot");
    return;
  }
  Require(rc == -1, "a call returned neither 0 nor -1");
  Require(err != nullptr, "a call returned -1 without raising an error");
  Require(TVMFFIObjectGetTypeIndex(err) == kTVMFFIError, "the raised value is not an ffi.Error");
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  Require(cell->kind.size > 0, "a raised error has an empty kind");
  TVMFFIObjectDecRef(err);
}

inline void ReleaseAny(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v->v_obj);
  std::memset(v, 0, sizeof(*v));
}

}  // namespace fuzz

#endif  // TVM_FFI_FUZZ_FUZZ_COMMON_H_

// ffi.BigInt: integers outside the int64 range, in minimal two's-complement words.
#include "big_int_internal.h"

#include <tvm/ffi/big_int.h>
#include <tvm/ffi/memory.h>

#include <atomic>
#include <cstring>

#include "error_internal.h"
#include "global_def.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

int64_t LoadWord(const char* p) {
  int64_t w;
  std::memcpy(&w, p, sizeof(w));
  return w;
}

}  // namespace

void MakeBigIntAny(const void* data, size_t num_bytes, TVMFFIAny* out) {
  if (num_bytes % sizeof(int64_t) != 0) {
    TVM_FFI_CORE_THROW(ValueError) << "BigInt content must contain whole 64-bit words, got "
                                   << num_bytes << " bytes";
  }
  const char* bytes = static_cast<const char*>(data);
  size_t n = num_bytes / sizeof(int64_t);
  // Drop top words that only repeat the sign of the word below them.
  while (n > 1) {
    int64_t top = LoadWord(bytes + (n - 1) * sizeof(int64_t));
    int64_t below = LoadWord(bytes + (n - 2) * sizeof(int64_t));
    if (top != (below < 0 ? -1 : 0)) break;
    --n;
  }
  if (n <= 1) {
    int64_t value = n == 0 ? 0 : LoadWord(bytes);  // read first: input may be *out's payload
    std::memset(out, 0, sizeof(TVMFFIAny));
    out->type_index = kTVMFFIInt;
    out->v_int64 = value;
    return;
  }
  ObjectPtr<BigIntObj> obj = make_inplace_array_object<BigIntObj, int64_t>(n, n);
  std::memcpy(BigIntUnsafe::GetMutableData(obj), bytes, n * sizeof(int64_t));
  std::memset(out, 0, sizeof(TVMFFIAny));
  out->type_index = kTVMFFIBigInt;
  out->v_obj = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj));
}

TVMFFIByteArray BigIntContent(const TVMFFIAny* value) {
  TVMFFIByteArray out = {nullptr, 0};
  if (value == nullptr) return out;
  if (value->type_index == kTVMFFIInt) {
    out.data = reinterpret_cast<const char*>(&value->v_int64);
    out.size = sizeof(int64_t);
  } else if (value->type_index == kTVMFFIBigInt) {
    BigInt::ArrayView words = BigIntUnsafe::GetArrayView(value);
    out.data = reinterpret_cast<const char*>(&words[0]);
    out.size = words.size() * sizeof(int64_t);
  }
  return out;
}

namespace {

std::atomic<int64_t> g_max_str_digits{kBigIntDefaultMaxStrDigits};

}  // namespace

int64_t BigIntMaxStrDigits() { return g_max_str_digits.load(std::memory_order_relaxed); }

void CheckBigIntStrDigits(size_t digits, const char* what) {
  int64_t limit = BigIntMaxStrDigits();
  if (limit > 0 && digits > static_cast<size_t>(limit)) {
    TVM_FFI_CORE_THROW(ValueError) << what << ": an integer of " << digits
                             << " decimal digits exceeds the limit (" << limit
                             << " digits) for integer string conversion; raise it with "
                                "ffi.BigIntSetMaxStrDigits (0 = no limit)";
  }
}

size_t BigIntDecimalDigitsBound(const TVMFFIAny* value) {
  TVMFFIByteArray words = BigIntContent(value);
  size_t n = words.size / 8;
  if (n == 0) return 1;
  // Bits of the magnitude: the top word's significant bits (of its one's
  // complement when negative) plus 64 per word below; digits <= bits * log10(2) + 1.
  uint64_t top = static_cast<uint64_t>(LoadWord(words.data + 8 * (n - 1)));
  if (static_cast<int64_t>(top) < 0) top = ~top;
  size_t bits = (n - 1) * 64 + 1;
  while (top != 0) {
    ++bits;
    top >>= 1;
  }
  return bits * 30103 / 100000 + 1;
}

namespace {

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.BigIntGetMaxStrDigits", []() { return BigIntMaxStrDigits(); });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.BigIntSetMaxStrDigits", [](int64_t limit) {
  if (limit != 0 && limit < kBigIntMinMaxStrDigits) {
    TVM_FFI_CORE_THROW(ValueError) << "ffi.BigIntSetMaxStrDigits: the limit must be 0 (none) or at "
                                "least "
                             << kBigIntMinMaxStrDigits << ", got " << limit;
  }
  g_max_str_digits.store(limit, std::memory_order_relaxed);
});

}  // namespace

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

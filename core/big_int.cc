// ffi.BigInt: integers outside the int64 range, in minimal two's-complement words.
#include "big_int_internal.h"

#include <cstring>
#include <vector>

#include <tvmffi/error.h>

namespace tvmffi {
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
    TVMFFI_THROW(ValueError) << "BigInt content must contain whole 64-bit words, got " << num_bytes
                             << " bytes";
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
  ObjectPtr<BigIntObj> obj = MakeObjectWithExtra<BigIntObj>(n * sizeof(int64_t), n);
  std::memcpy(obj->words(), bytes, n * sizeof(int64_t));
  std::memset(out, 0, sizeof(TVMFFIAny));
  out->type_index = kTVMFFIBigInt;
  out->v_obj = static_cast<TVMFFIObject*>(obj.release_handle());
}

TVMFFIByteArray BigIntContent(const TVMFFIAny* value) {
  TVMFFIByteArray out = {nullptr, 0};
  if (value == nullptr) return out;
  if (value->type_index == kTVMFFIInt) {
    out.data = reinterpret_cast<const char*>(&value->v_int64);
    out.size = sizeof(int64_t);
  } else if (value->type_index == kTVMFFIBigInt) {
    const BigIntObj* obj = static_cast<const BigIntObj*>(Object::FromHandle(value->v_obj));
    out.data = reinterpret_cast<const char*>(obj->words());
    out.size = obj->num_words * sizeof(int64_t);
  }
  return out;
}

}  // namespace core
}  // namespace tvmffi

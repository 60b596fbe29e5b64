// Strings and bytes: the heap objects behind long values and the refusals of
// malformed views.
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "error_internal.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// layout = { TVMFFIObject, TVMFFIByteArray, char[size + 1] }: the bytes
// follow the cell in the same allocation, NUL-terminated.
template <typename T>
TVMFFIObject* MakeInline(const char* data, size_t size) {
  ObjectPtr<T> obj = make_inplace_array_object<T, char>(size + 1);
  char* chars = reinterpret_cast<char*>(obj.get()) + sizeof(T);
  if (size != 0) std::memcpy(chars, data, size);
  chars[size] = '\0';
  obj->data = chars;
  obj->size = size;
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(obj));
}

}  // namespace

TVMFFIObject* MakeStringObject(const char* data, size_t size) {
  return MakeInline<StringObj>(data, size);
}

TVMFFIObject* MakeBytesObject(const char* data, size_t size) {
  return MakeInline<BytesObj>(data, size);
}

void ThrowNullByteArray(const char* what) {
  TVM_FFI_CORE_THROW(ValueError) << what << " must not be NULL";
}

void ThrowByteArrayDataNull(const char* what, size_t size) {
  TVM_FFI_CORE_THROW(ValueError) << what << " has data NULL but size " << size;
}

void ThrowMalformedStringView(const TVMFFIAny* value) {
  switch (value->type_index) {
    case kTVMFFIRawStr:
      TVM_FFI_CORE_THROW(ValueError) << "a kTVMFFIRawStr value has a NULL v_c_str";
    case kTVMFFIByteArrayPtr:
      TVM_FFI_CORE_THROW(ValueError) << "a kTVMFFIByteArrayPtr value has a NULL v_ptr";
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      TVM_FFI_CORE_THROW(ValueError)
          << "a "
          << (value->type_index == kTVMFFISmallStr ? "kTVMFFISmallStr" : "kTVMFFISmallBytes")
          << " value claims " << value->small_str_len << " bytes (at most " << kSmallStrMaxLen
          << " fit)";
    default:
      TVM_FFI_CORE_THROW(ValueError) << "a " << (value->type_index == kTVMFFIStr ? "str" : "bytes")
                                     << " value has a NULL object pointer";
  }
}

std::string ShortestFloatText(double x) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::string out = buf;
  // No '.', exponent or letter (inf, nan): an integral value.
  if (out.find_first_of(".en") == std::string::npos) out += ".0";
  return out;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

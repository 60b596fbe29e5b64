// Map and Dict keys: the long paths of key equality and hash, and key text.
#include "map_key.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "object_internal.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// Calls a type's key hook: an opaque pointer to a function that takes the
// values by address and returns an owning value (an Error when it fails),
// or an ffi.Function.  The Error a hook reports is thrown.
Any CallKeyHook(const TVMFFIAny& hook, const TVMFFIAny* args, int32_t num_args) {
  TVMFFIAny result;
  std::memset(&result, 0, sizeof(result));
  if (hook.type_index == kTVMFFIOpaquePtr) {
    if (num_args == 1) {
      result = reinterpret_cast<TVMFFIAny (*)(const TVMFFIAny*)>(hook.v_ptr)(&args[0]);
    } else {
      result = reinterpret_cast<TVMFFIAny (*)(const TVMFFIAny*, const TVMFFIAny*)>(hook.v_ptr)(
          &args[0], &args[1]);
    }
  } else if (TVMFFIFunctionCall(hook.v_obj, const_cast<TVMFFIAny*>(args), num_args, &result) !=
             0) {
    throw MoveFromSafeCallRaised();
  }
  Any owned = AnyUnsafe::MoveTVMFFIAnyRawToAny(result);
  if (owned.type_index() == kTVMFFIError) {
    throw AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(owned));
  }
  return owned;
}

}  // namespace

bool AnyKeyEqualSlow(const TVMFFIAny& a, const TVMFFIAny& b) {
  if (a.type_index == b.type_index &&
      (a.type_index == kTVMFFIStr || a.type_index == kTVMFFIBytes)) {
    // Two heap strings (or two heap bytes): the common case of str keys.
    const TVMFFIByteArray* x = TVMFFIBytesGetByteArrayPtr(a.v_obj);
    const TVMFFIByteArray* y = TVMFFIBytesGetByteArrayPtr(b.v_obj);
    return x->size == y->size && SameBytes(x->data, y->data, x->size);
  }
  const char* da;
  const char* db;
  size_t na, nb;
  bool bytes_a, bytes_b;
  if (GetStringView(&a, &da, &na, &bytes_a)) {
    if (!GetStringView(&b, &db, &nb, &bytes_b)) return false;
    return bytes_a == bytes_b && na == nb && (na == 0 || std::memcmp(da, db, na) == 0);
  }
  if (a.type_index != b.type_index || a.type_index < kTVMFFIStaticObjectBegin) return false;
  static const TVMFFITypeAttrColumn* column = KeyAttrColumn("__any_equal__");
  const TVMFFIAny* hook = KeyAttrEntry(column, a.type_index);
  if (hook == nullptr) return false;
  TVMFFIAny args[2] = {a, b};
  Any result = CallKeyHook(*hook, args, 2);
  return AnyUnsafe::TVMFFIAnyPtrFromAny(result)->v_int64 != 0;
}

uint64_t AnyKeyHashSlow(const TVMFFIAny& v) {
  switch (v.type_index) {
    case kTVMFFISmallStr:
      return HashCombine(kTVMFFIStr, ModMersenne31(v.v_uint64));
    case kTVMFFISmallBytes:
      return HashCombine(kTVMFFIBytes, ModMersenne31(v.v_uint64));
    case kTVMFFIStr:
    case kTVMFFIBytes:
    case kTVMFFIRawStr:
    case kTVMFFIByteArrayPtr: {
      const char* data;
      size_t size;
      bool is_bytes;
      GetStringView(&v, &data, &size, &is_bytes);
      return HashCombine(is_bytes ? kTVMFFIBytes : kTVMFFIStr, HashBytes(data, size));
    }
    default:
      break;
  }
  uint64_t type_bits = static_cast<uint64_t>(static_cast<uint32_t>(v.type_index));
  if (v.type_index >= kTVMFFIStaticObjectBegin) {
    static const TVMFFITypeAttrColumn* column = KeyAttrColumn("__any_hash__");
    const TVMFFIAny* hook = KeyAttrEntry(column, v.type_index);
    if (hook != nullptr) {
      Any result = CallKeyHook(*hook, &v, 1);
      return HashCombine(type_bits, AnyUnsafe::TVMFFIAnyPtrFromAny(result)->v_uint64);
    }
  }
  return HashCombine(type_bits, v.v_uint64);
}

std::string RenderKey(const TVMFFIAny& v) {
  const char* data;
  size_t size;
  bool is_bytes;
  if (GetStringView(&v, &data, &size, &is_bytes)) {
    std::string out = is_bytes ? "b\"" : "\"";
    for (size_t i = 0; i < size; ++i) {
      unsigned char c = static_cast<unsigned char>(data[i]);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || (is_bytes && c >= 0x7f)) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
    out += '"';
    return out;
  }
  switch (v.type_index) {
    case kTVMFFINone:
      return "None";
    case kTVMFFIBool:
      return v.v_int64 != 0 ? "True" : "False";
    case kTVMFFIInt:
      return std::to_string(v.v_int64);
    case kTVMFFIFloat:
      return ShortestFloatText(v.v_float64);
    default:
      break;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), " at %p>", v.v_ptr);
  return "<" + TypeIndexToDisplayName(v.type_index) + buf;
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

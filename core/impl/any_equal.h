// Container-key equality and hashing of values (spec §5), and key rendering.
#ifndef TVM_FFI_CORE_IMPL_ANY_EQUAL_H_
#define TVM_FFI_CORE_IMPL_ANY_EQUAL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "any.h"
#include "string.h"

// Keeps the rare, long paths of key hashing and equality out of the loops
// that call them (map lookups and inserts), so those loops stay small.
#if defined(__GNUC__)
#define TVM_FFI_IMPL_KEY_SLOW_PATH __attribute__((noinline))
#else
#define TVM_FFI_IMPL_KEY_SLOW_PATH
#endif

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace detail {

// The type-attribute column `name` ("__any_hash__", "__any_equal__").  The
// library creates both at start-up, so the pointer is stable and cached by
// the callers; the column's data and size are re-read on every use.
inline const TVMFFITypeAttrColumn* KeyAttrColumn(const char* name) {
  TVMFFIByteArray attr_name{name, std::strlen(name)};
  return TVMFFIGetTypeAttrColumn(&attr_name);
}

// The entry of `column` for `type_index`, or nullptr when there is none.
inline const TVMFFIAny* KeyAttrEntry(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == nullptr) return nullptr;
  int32_t offset = type_index - column->begin_index;
  if (offset < 0 || offset >= column->size) return nullptr;
  const TVMFFIAny* entry = &column->data[offset];
  return entry->type_index == kTVMFFINone ? nullptr : entry;
}

// Calls a custom key hook: an opaque pointer to a function taking the values
// by address and returning an owning value (an Error on failure), or an
// ffi.Function.  Throws the Error the hook reports.
inline TVMFFIAny CallKeyHook(const TVMFFIAny& hook, const TVMFFIAny* args, int32_t num_args) {
  TVMFFIAny result;
  AnyZero(&result);
  if (hook.type_index == kTVMFFIOpaquePtr) {
    if (num_args == 1) {
      result = reinterpret_cast<TVMFFIAny (*)(const TVMFFIAny*)>(hook.v_ptr)(&args[0]);
    } else {
      result = reinterpret_cast<TVMFFIAny (*)(const TVMFFIAny*, const TVMFFIAny*)>(hook.v_ptr)(
          &args[0], &args[1]);
    }
  } else {
    int rc = TVMFFIFunctionCall(hook.v_obj, const_cast<TVMFFIAny*>(args), num_args, &result);
    if (rc != 0) ThrowRaised(rc);
  }
  if (result.type_index == kTVMFFIError) {
    TVMFFIErrorSetRaised(result.v_obj);
    TVMFFIObjectDecRef(result.v_obj);
    ThrowRaised(-1);
  }
  return result;
}

// Whether the n bytes at a and b are the same; short runs without a call.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  if (n <= 16 && n >= 8) {
    uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  return n == 0 || std::memcmp(a, b, n) == 0;
}

}  // namespace detail

namespace detail {

// AnyKeyEqual once the values differ in their raw bytes and one of them is
// text or an object.
TVM_FFI_IMPL_KEY_SLOW_PATH inline bool AnyKeyEqualSlow(const TVMFFIAny& a, const TVMFFIAny& b) {
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
  TVMFFIAny result = CallKeyHook(*hook, args, 2);
  bool equal = result.v_int64 != 0;
  AnyRelease(&result);
  return equal;
}

}  // namespace detail

// Container-key equality (spec §5, and apache-tvm-ffi's AnyEqual).  Rules:
// identical 16 raw bytes are equal; a str equals a str with the same bytes
// whatever its form (small, heap, or a borrowed C string in a lookup view),
// likewise bytes; two objects of one type with an "__any_equal__" type
// attribute compare by it; anything else is unequal (objects by pointer, an
// int never equals a float or a bool).
inline bool AnyKeyEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
  uint64_t wa[2], wb[2];
  std::memcpy(wa, &a, sizeof(wa));
  std::memcpy(wb, &b, sizeof(wb));
  if (wa[0] == wb[0] && wa[1] == wb[1]) return true;
  // Values that are neither text nor objects are equal only when identical.
  if (a.type_index < kTVMFFIRawStr && b.type_index < kTVMFFIRawStr) return false;
  // Two inline strings (or two inline bytes) of different raw bytes differ:
  // the ABI zeroes every byte after the text.
  if (a.type_index == b.type_index &&
      (a.type_index == kTVMFFISmallStr || a.type_index == kTVMFFISmallBytes)) {
    return false;
  }
  if (a.type_index == kTVMFFIStr && b.type_index == kTVMFFIStr) {  // the common text keys
    const TVMFFIByteArray* x = TVMFFIBytesGetByteArrayPtr(a.v_obj);
    const TVMFFIByteArray* y = TVMFFIBytesGetByteArrayPtr(b.v_obj);
    return x->size == y->size && detail::SameBytes(x->data, y->data, x->size);
  }
  return detail::AnyKeyEqualSlow(a, b);
}

namespace detail {

// x mod (2^31 - 1) by folding (2^31 = 1 modulo it): the same value as the %
// operator, without a multiplication.
inline uint64_t ModMersenne31(uint64_t x) {
  constexpr uint64_t kModulus = 2147483647ULL;
  x = (x & kModulus) + (x >> 31);  // < 2^34
  x = (x & kModulus) + (x >> 31);  // < 2^31 + 8
  return x >= kModulus ? x - kModulus : x;
}

// The byte hash of apache-tvm-ffi (StableHashBytes): the bytes read as
// little-endian 8-byte words (the last one zero-padded), folded as
// h = (h * 1099511628211 + word) mod (2^31 - 1) in wrapping 64-bit
// arithmetic.  Stable across runs and platforms.
inline uint64_t HashBytes(const char* data, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Fixed-size loads only: a variable-length copy into a stack word is a
  // library call and stalls the load that follows it.
  auto load64 = [](const char* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  auto load32 = [](const char* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return static_cast<uint64_t>(w);
  };
  // The 1-7 bytes at p as a zero-padded little-endian word.
  auto load_tail = [&](const char* p, size_t n) -> uint64_t {
    if (n >= 4) {
      // Two overlapping 4-byte loads: bytes 0-3, and bytes n-4..n-1 of which
      // the top n-4 are bytes 4..n-1.
      return load32(p) | ((load32(p + n - 4) >> (8 * (8 - n))) << 32);
    }
    uint64_t w = static_cast<unsigned char>(p[0]);
    w |= static_cast<uint64_t>(static_cast<unsigned char>(p[n / 2])) << (8 * (n / 2));
    w |= static_cast<uint64_t>(static_cast<unsigned char>(p[n - 1])) << (8 * (n - 1));
    return w;
  };
#else
  auto load_word = [](const char* p, size_t n) {
    uint64_t word = 0;
    for (size_t k = n; k > 0; --k) word = (word << 8) | static_cast<unsigned char>(p[k - 1]);
    return word;
  };
  auto load64 = [&](const char* p) { return load_word(p, 8); };
  auto load_tail = load_word;
#endif
  uint64_t h = 0;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) h = ModMersenne31(h * kMultiplier + load64(data + i));
  if (i < size) h = ModMersenne31(h * kMultiplier + load_tail(data + i, size - i));
  return h;
}

// apache-tvm-ffi's StableHashCombine (its constant is 32 bits wide).
inline uint64_t HashCombine(uint64_t seed, uint64_t value) {
  return seed ^ (value + 0x9e3779b9ULL + (seed << 6) + (seed >> 2));
}

// The shortest text that reads back as the same double, with ".0" added to
// integral values (as Python prints them).
inline std::string RenderFloat(double x) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::string out = buf;
  if (out.find_first_of(".eEn") == std::string::npos) out += ".0";
  return out;
}

}  // namespace detail

namespace detail {

// AnyKeyHash of text and objects (type index kTVMFFIRawStr and above).
TVM_FFI_IMPL_KEY_SLOW_PATH inline uint64_t AnyKeyHashSlow(const TVMFFIAny& v) {
  switch (v.type_index) {
    case kTVMFFISmallStr:
      return detail::HashCombine(kTVMFFIStr, detail::ModMersenne31(v.v_uint64));
    case kTVMFFISmallBytes:
      return detail::HashCombine(kTVMFFIBytes, detail::ModMersenne31(v.v_uint64));
    case kTVMFFIStr:
    case kTVMFFIBytes:
    case kTVMFFIRawStr:
    case kTVMFFIByteArrayPtr: {
      const char* data;
      size_t size;
      bool is_bytes;
      GetStringView(&v, &data, &size, &is_bytes);
      return detail::HashCombine(is_bytes ? kTVMFFIBytes : kTVMFFIStr,
                                 detail::HashBytes(data, size));
    }
    default:
      break;
  }
  uint64_t type_bits = static_cast<uint64_t>(static_cast<uint32_t>(v.type_index));
  if (v.type_index >= kTVMFFIStaticObjectBegin) {
    static const TVMFFITypeAttrColumn* column = detail::KeyAttrColumn("__any_hash__");
    const TVMFFIAny* hook = detail::KeyAttrEntry(column, v.type_index);
    if (hook != nullptr) {
      TVMFFIAny result = detail::CallKeyHook(*hook, &v, 1);
      uint64_t h = result.v_uint64;
      AnyRelease(&result);
      return detail::HashCombine(type_bits, h);
    }
  }
  return detail::HashCombine(type_bits, v.v_uint64);
}

}  // namespace detail

// The key hash of apache-tvm-ffi (AnyHash), which its C++ headers compute
// inline on maps this library builds: every string form hashes as
// kTVMFFIStr, every bytes form as kTVMFFIBytes (a small one by its 8 value
// bytes, which equals the byte hash of its text); an object whose type has an
// "__any_hash__" attribute by that hook; anything else by type index and its
// 8 value bytes.  Consistent with AnyKeyEqual.
inline uint64_t AnyKeyHash(const TVMFFIAny& v) {
  if (v.type_index < kTVMFFIRawStr) {
    return detail::HashCombine(static_cast<uint32_t>(v.type_index), v.v_uint64);
  }
  if (v.type_index == kTVMFFIStr) {  // the common text key
    const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(v.v_obj);
    return detail::HashCombine(kTVMFFIStr, detail::HashBytes(b->data, b->size));
  }
  return detail::AnyKeyHashSlow(v);
}

// A key as written in KeyError messages: str keys in double quotes (with "
// and \ escaped), bytes as b"...", ints and floats plain, None/True/False,
// other objects as <type_key at 0x...>.
inline std::string RenderKey(const TVMFFIAny& v) {
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
  char buf[64];
  switch (v.type_index) {
    case kTVMFFINone:
      return "None";
    case kTVMFFIBool:
      return v.v_int64 != 0 ? "True" : "False";
    case kTVMFFIInt:
      return DecimalString(v.v_int64);
    case kTVMFFIFloat:
      return detail::RenderFloat(v.v_float64);
    default:
      break;
  }
  std::snprintf(buf, sizeof(buf), " at %p>", v.v_ptr);
  return "<" + TypeIndexToDisplayName(v.type_index) + buf;
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ANY_EQUAL_H_

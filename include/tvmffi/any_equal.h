// Container-key equality and hashing of values (spec §5), and key rendering.
#ifndef TVMFFI_ANY_EQUAL_H_
#define TVMFFI_ANY_EQUAL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "any.h"
#include "string.h"

namespace tvmffi {
namespace core {

// Rules: identical 16 raw bytes are equal; a str equals a str with the same
// bytes whatever its form (small, heap, or a borrowed C string in a lookup
// view), likewise bytes; anything else is unequal (objects by pointer, an int
// never equals a float or a bool).
inline bool AnyKeyEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
  if (std::memcmp(&a, &b, sizeof(TVMFFIAny)) == 0) return true;
  const char* da;
  const char* db;
  size_t na, nb;
  bool bytes_a, bytes_b;
  if (!GetStringView(&a, &da, &na, &bytes_a) || !GetStringView(&b, &db, &nb, &bytes_b)) {
    return false;
  }
  return bytes_a == bytes_b && na == nb && (na == 0 || std::memcmp(da, db, na) == 0);
}

namespace detail {

// Polynomial hash of the bytes read as little-endian 8-byte words, modulo
// the prime 2^31 - 1.  Stable across runs and platforms.
inline uint64_t HashBytes(const char* data, size_t size) {
  constexpr uint64_t kModulus = 2147483647ULL;
  // The multiplier 1099511628211 reduced modulo kModulus, so every product
  // of two residues fits in 64 bits.
  constexpr uint64_t kMultiplier = 1099511628211ULL % kModulus;
  uint64_t h = 0;
  auto mix_word = [&h](uint64_t word) { h = (h * kMultiplier + word % kModulus) % kModulus; };
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word = 0;
    for (int k = 7; k >= 0; --k) word = (word << 8) | static_cast<unsigned char>(data[i + k]);
    mix_word(word);
  }
  if (i < size) {
    uint64_t word = 0;
    for (size_t k = size; k > i; --k) word = (word << 8) | static_cast<unsigned char>(data[k - 1]);
    mix_word(word);
  }
  return h;
}

inline uint64_t HashCombine(uint64_t seed, uint64_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
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

// Consistent with AnyKeyEqual: every string form hashes as kTVMFFIStr, every
// bytes form as kTVMFFIBytes.
inline uint64_t AnyKeyHash(const TVMFFIAny& v) {
  const char* data;
  size_t size;
  bool is_bytes;
  if (GetStringView(&v, &data, &size, &is_bytes)) {
    return detail::HashCombine(static_cast<uint64_t>(is_bytes ? kTVMFFIBytes : kTVMFFIStr),
                               detail::HashBytes(data, size));
  }
  return detail::HashCombine(static_cast<uint64_t>(static_cast<uint32_t>(v.type_index)),
                             v.v_uint64);
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

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_ANY_EQUAL_H_

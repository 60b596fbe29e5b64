// Map and Dict keys: the equality and hash every library-made map uses for
// its keys (spec §5; apache-tvm-ffi's AnyEqual and AnyHash), and a key as
// KeyError messages and access paths write it.
//
// Equality and hash are inline: map lookups and inserts run them once per
// probe.  Their rare, long paths (strings in a mixed form, objects with a
// key hook) are out of line in map_key.cc, so the loops that call them stay
// small.
#ifndef TVM_FFI_CORE_MAP_KEY_H_
#define TVM_FFI_CORE_MAP_KEY_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// The type-attribute column `name` ("__any_hash__", "__any_equal__", ...),
// or nullptr while no type has registered it.  The columns never move once
// made, so callers may cache the pointer; data and size are read on each use.
inline const TVMFFITypeAttrColumn* KeyAttrColumn(const char* name) {
  TVMFFIByteArray attr_name{name, std::strlen(name)};
  return TVMFFIGetTypeAttrColumn(&attr_name);
}

// The entry of `column` (may be nullptr) for `type_index`, or nullptr when
// there is none (a None entry counts as none).
inline const TVMFFIAny* KeyAttrEntry(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == nullptr) return nullptr;
  int32_t offset = type_index - column->begin_index;
  if (offset < 0 || offset >= column->size) return nullptr;
  const TVMFFIAny* entry = &column->data[offset];
  return entry->type_index == kTVMFFINone ? nullptr : entry;
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

// x mod (2^31 - 1), folding (2^31 is 1 modulo it) instead of dividing.
inline uint64_t ModMersenne31(uint64_t x) {
  constexpr uint64_t kModulus = 2147483647ULL;
  x = (x & kModulus) + (x >> 31);  // < 2^34
  x = (x & kModulus) + (x >> 31);  // < 2^31 + 8
  return x >= kModulus ? x - kModulus : x;
}

// The byte hash maps use for text (apache-tvm-ffi's StableHashBytes, which
// its headers compute inline on our maps): little-endian 8-byte words, the
// last one zero-padded, folded as h = (h * 1099511628211 + word) mod
// (2^31 - 1) in wrapping 64-bit arithmetic.  Stable across runs and hosts.
inline uint64_t HashBytes(const char* data, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Fixed-size loads only: a copy of a variable length into a stack word is
  // a library call, and the load after it waits for it.
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
      // Bytes 0-3, and the top n-4 of the 4 bytes ending at n-1 (bytes 4..n-1).
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

// AnyKeyEqual once the values differ in their raw bytes and one of them is
// text or an object; AnyKeyHash of text and objects (map_key.cc).
bool AnyKeyEqualSlow(const TVMFFIAny& a, const TVMFFIAny& b);
uint64_t AnyKeyHashSlow(const TVMFFIAny& v);

// Key equality.  Identical 16 raw bytes are equal; a str equals a str of
// the same bytes in any form (small, heap, or a borrowed C string in a
// lookup view), and likewise bytes; two objects of one type whose type has
// an "__any_equal__" attribute compare by it; anything else is unequal
// (objects by pointer, an int never equals a float or a bool).
inline bool AnyKeyEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
  uint64_t wa[2], wb[2];
  std::memcpy(wa, &a, sizeof(wa));
  std::memcpy(wb, &b, sizeof(wb));
  if (wa[0] == wb[0] && wa[1] == wb[1]) return true;
  // Neither text nor an object: equal only when identical.
  if (a.type_index < kTVMFFIRawStr && b.type_index < kTVMFFIRawStr) return false;
  // Two inline strings (or two inline bytes) with different raw bytes
  // differ: the ABI zeroes every byte after the text.
  if (a.type_index == b.type_index &&
      (a.type_index == kTVMFFISmallStr || a.type_index == kTVMFFISmallBytes)) {
    return false;
  }
  // The rest (heap strings first) is out of line: kept this small, the
  // function inlines into the probe loops of the map table.
  return AnyKeyEqualSlow(a, b);
}

// Key hash, consistent with AnyKeyEqual: every str form hashes as
// kTVMFFIStr and every bytes form as kTVMFFIBytes, by HashBytes of the text
// (a small one by its 8 value bytes, which comes to the same); an object
// whose type has an "__any_hash__" attribute by it; anything else by type
// index and its 8 value bytes.
inline uint64_t AnyKeyHash(const TVMFFIAny& v) {
  if (v.type_index < kTVMFFIRawStr) {
    return HashCombine(static_cast<uint32_t>(v.type_index), v.v_uint64);
  }
  if (v.type_index == kTVMFFIStr) {  // the common text key
    const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(v.v_obj);
    return HashCombine(kTVMFFIStr, HashBytes(b->data, b->size));
  }
  return AnyKeyHashSlow(v);
}

// A key as KeyError messages write it: str in double quotes (with " and
// backslash escaped), bytes as b"...", ints and floats plain,
// None/True/False, other values as <type_key at 0x...>.
std::string RenderKey(const TVMFFIAny& v);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_MAP_KEY_H_

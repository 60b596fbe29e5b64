// testing.* globals for integers of any size (kTVMFFIInt and ffi.BigInt).
//
// An integer argument is a view of kind kTVMFFIInt (or bool, read as 0 or 1)
// or kTVMFFIBigInt; its minimal two's-complement words (least significant
// first) come from TVMFFIBigIntGetContentByteArray, and an integer is made
// from words with TVMFFIBigIntFromByteArray (an int64 when it fits).
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// The minimal words of an int, bool or BigInt argument; TypeError otherwise.
std::vector<int64_t> WordsOf(const AnyView& x, const char* func) {
  int32_t kind = x.type_index();
  if (kind == TypeIndex::kTVMFFIBool) return {x.cast<bool>() ? 1 : 0};
  if (kind != TypeIndex::kTVMFFIInt && kind != TypeIndex::kTVMFFIBigInt) {
    TVM_FFI_THROW(TypeError) << func << ": expected an int, got " << DisplayName(kind);
  }
  TVMFFIByteArray bytes = TVMFFIBigIntGetContentByteArray(reinterpret_cast<const TVMFFIAny*>(&x));
  const int64_t* words = reinterpret_cast<const int64_t*>(bytes.data);
  return std::vector<int64_t>(words, words + bytes.size / sizeof(int64_t));
}

// The integer of `words` (redundant sign words allowed; none is zero).
Any FromWords(const std::vector<int64_t>& words) {
  TVMFFIByteArray bytes{reinterpret_cast<const char*>(words.data()),
                        words.size() * sizeof(int64_t)};
  Any out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIBigIntFromByteArray(&bytes, reinterpret_cast<TVMFFIAny*>(&out)));
  return out;
}

// Decimal text of minimal words, e.g. "-9223372036854775809".
std::string DecimalOf(const std::vector<int64_t>& words) {
  bool negative = words.back() < 0;
  // The magnitude in 32-bit limbs, least significant first.
  std::vector<uint32_t> limbs;
  uint64_t carry = negative ? 1 : 0;
  for (int64_t word : words) {
    uint64_t w = static_cast<uint64_t>(word);
    if (negative) {
      w = ~w + carry;
      carry = (carry != 0 && w == 0) ? 1 : 0;
    }
    limbs.push_back(static_cast<uint32_t>(w));
    limbs.push_back(static_cast<uint32_t>(w >> 32));
  }
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  if (limbs.empty()) return "0";
  std::string digits;  // least significant first
  while (!limbs.empty()) {
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
    // Nine digits per step, except the most significant group (no zero padding).
    for (int k = 0; k < 9 && (rem != 0 || !limbs.empty()); ++k) {
      digits.push_back(static_cast<char>('0' + rem % 10));
      rem /= 10;
    }
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      // The minimal words of an integer, least significant first.
      .def("testing.big_int_words",
           [](AnyView x) {
             Array<int64_t> out;
             for (int64_t w : WordsOf(x, "testing.big_int_words")) out.push_back(w);
             return out;
           })
      // The integer made of the given words (redundant sign words allowed).
      .def_packed("testing.big_int_from_words",
                  [](PackedArgs args, Any* rv) {
                    std::vector<int64_t> words;
                    for (int i = 0; i < args.size(); ++i) {
                      std::optional<int64_t> w = args[i].try_cast<int64_t>();
                      if (!w.has_value()) {
                        TVM_FFI_THROW(TypeError)
                            << "testing.big_int_from_words: argument " << i
                            << " expected int, got " << DisplayName(args[i].type_index());
                      }
                      words.push_back(*w);
                    }
                    *rv = FromWords(words);
                  })
      // Decimal text of an integer, computed in C++.
      .def("testing.big_int_to_string",
           [](AnyView x) -> std::string {
             return DecimalOf(WordsOf(x, "testing.big_int_to_string"));
           })
      // 2**k for 0 <= k < 4096: an int64 up to k = 62, a BigInt from k = 63.
      .def("testing.big_int_pow2", [](int64_t k) {
        if (k < 0 || k >= 4096) {
          TVM_FFI_THROW(ValueError) << "testing.big_int_pow2: k out of range: " << k;
        }
        std::vector<int64_t> words(static_cast<size_t>(k / 64 + 2), 0);
        words[static_cast<size_t>(k / 64)] = static_cast<int64_t>(uint64_t{1} << (k % 64));
        return FromWords(words);
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

// testing.* globals for integers of any size (kTVMFFIInt and ffi.BigInt).
#include <tvmffi/array.h>
#include <tvmffi/big_int.h>
#include <tvmffi/function.h>

namespace tvmffi {
namespace core {
namespace {

// The minimal words of an integer, least significant first.
TVMFFI_REGISTER_GLOBAL("testing.big_int_words", [](BigInt x) {
  Array<int64_t> out;
  for (int64_t w : x.Words()) out.push_back(w);
  return out;
});

// The integer made of the given words (redundant sign words allowed).
TVMFFI_REGISTER_GLOBAL_PACKED("testing.big_int_from_words",
                              [](const AnyView* args, int32_t n, Any* rv) {
                                std::vector<int64_t> words;
                                for (int32_t i = 0; i < n; ++i) {
                                  words.push_back(
                                      detail::CastArgument<int64_t>(args, i, "testing.big_int_from_words"));
                                }
                                *rv = BigInt::FromWords(words.data(), words.size());
                              });

// Decimal text of an integer, computed in C++.
TVMFFI_REGISTER_GLOBAL("testing.big_int_to_string", [](BigInt x) { return x.ToString(); });

// 2**k for 0 <= k < 4096: an int64 up to k = 62, a BigInt from k = 63.
TVMFFI_REGISTER_GLOBAL("testing.big_int_pow2", [](int64_t k) {
  if (k < 0 || k >= 4096) TVMFFI_THROW(ValueError) << "testing.big_int_pow2: k out of range: " << k;
  std::vector<int64_t> words(static_cast<size_t>(k / 64 + 2), 0);
  words[static_cast<size_t>(k / 64)] = static_cast<int64_t>(uint64_t{1} << (k % 64));
  return BigInt::FromWords(words.data(), words.size());
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

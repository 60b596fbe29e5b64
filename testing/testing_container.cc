// testing.* globals for containers: typed parameters that check and convert.
//
// Array[int], Array <-> List and Map <-> Dict, for tests in other languages.
#include <tvmffi/array.h>
#include <tvmffi/dict.h>
#include <tvmffi/function.h>
#include <tvmffi/list.h>
#include <tvmffi/map.h>
#include <tvmffi/shape.h>

namespace tvmffi {
namespace core {
namespace {

// Sum of an Array[int]; a List of ints converts, anything else is a TypeError.
TVMFFI_REGISTER_GLOBAL("testing.array_sum_int", [](Array<int64_t> a) {
  int64_t sum = 0;
  for (int64_t v : a) sum += v;
  return sum;
});

// Each returns its argument after the typed conversion: a List passed to
// as_array comes back as a new Array, a Map passed to as_dict as a new Dict.
TVMFFI_REGISTER_GLOBAL("testing.as_array", [](Array<Any> a) { return a; });
TVMFFI_REGISTER_GLOBAL("testing.as_list", [](List l) { return l; });
TVMFFI_REGISTER_GLOBAL("testing.as_map", [](Map m) { return m; });
TVMFFI_REGISTER_GLOBAL("testing.as_dict", [](Dict d) { return d; });

TVMFFI_REGISTER_GLOBAL("testing.shape_product", [](Shape s) { return s.Product(); });

}  // namespace
}  // namespace core
}  // namespace tvmffi

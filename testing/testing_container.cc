// testing.* globals for containers: typed parameters that check and convert.
//
// Array[int], Array <-> List and Map <-> Dict, for tests in other languages.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      // Sum of an Array[int]; a List of ints converts, anything else is a TypeError.
      .def("testing.array_sum_int",
           [](Array<int64_t> a) {
             int64_t sum = 0;
             for (int64_t v : a) sum += v;
             return sum;
           });
  // Each returns its argument after the typed conversion: a List passed to
  // as_array comes back as a new Array, a Map passed to as_dict as a new Dict.
  DefGlobalWithBareContainers("testing.as_array", [](Array<Any> a) { return a; });
  DefGlobalWithBareContainers("testing.as_list", [](List<Any> l) { return l; });
  DefGlobalWithBareContainers("testing.as_map", [](Map<Any, Any> m) { return m; });
  DefGlobalWithBareContainers("testing.as_dict", [](Dict<Any, Any> d) { return d; });
  refl::GlobalDef().def("testing.shape_product", [](Shape s) { return s.Product(); });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

// ffi.StructuralKey: a value used as a Map/Dict key by structural equality.
//
// layout = { TVMFFIObject, TVMFFIAny key (+24), int64_t hash_i64 (+40) }, as
// upstream's (its C++ headers read the fields inline).  hash_i64 caches the
// structural hash of `key` (map_free_vars and skip_tensor_content false).
// Two keys are equal when their hashes match and their values are
// structurally equal; the type's "__any_hash__"/"__any_equal__" hooks make
// containers use exactly that.
#ifndef TVM_FFI_CORE_STRUCTURAL_KEY_H_
#define TVM_FFI_CORE_STRUCTURAL_KEY_H_

#include <cstdint>

#include "impl/any.h"
#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class StructuralKeyObj : public Object {
 public:
  Any key;
  int64_t hash_i64 = 0;

  StructuralKeyObj() = default;
  explicit StructuralKeyObj(Any k);

  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(StructuralKeyObj, "ffi.StructuralKey", PlainObject)
};

static_assert(sizeof(StructuralKeyObj) == 48, "ffi.StructuralKey: header, key, hash_i64");

namespace structural_key {

// A new ffi.StructuralKey holding `key`.
Any Make(Any key);

// Whether two ffi.StructuralKey values are equal (TypeError for another type).
bool Equal(const TVMFFIAny& lhs, const TVMFFIAny& rhs);

}  // namespace structural_key
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRUCTURAL_KEY_H_

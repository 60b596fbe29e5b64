// ffi.StructuralKey: a value used as a Map/Dict key by structural equality.
//
// layout = { TVMFFIObject, TVMFFIAny key (+24), int64_t hash_i64 (+40) }, as
// upstream's (its C++ headers, and ours in tvm/ffi/extra/structural_key.h,
// read the fields inline).  hash_i64 caches the structural hash of `key`
// (map_free_vars and skip_tensor_content false).  Two keys are equal when
// their hashes match and their values are structurally equal; the type's
// "__any_hash__"/"__any_equal__" hooks make containers use exactly that.
#ifndef TVM_FFI_CORE_STRUCTURAL_KEY_H_
#define TVM_FFI_CORE_STRUCTURAL_KEY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <utility>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// The library's side of the type: the public class (tvm::ffi::StructuralKeyObj)
// has the same layout but hashes through the exported C++ API; this one calls
// the structural hash directly.
class StructuralKeyObj : public Object {
 public:
  Any key;
  int64_t hash_i64 = 0;

  StructuralKeyObj() = default;
  explicit StructuralKeyObj(Any k);

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.StructuralKey", StructuralKeyObj, Object);
};

// A reference to a StructuralKeyObj (never null); signatures print it as
// ffi.StructuralKey.
class StructuralKeyRef : public ObjectRef {
 public:
  explicit StructuralKeyRef(ObjectPtr<StructuralKeyObj> n) : ObjectRef(std::move(n)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralKeyRef, ObjectRef, StructuralKeyObj);
};

namespace structural_key {

// A new ffi.StructuralKey holding `key`.
StructuralKeyRef Make(Any key);

// Whether two ffi.StructuralKey values are equal (TypeError for another type).
bool Equal(const TVMFFIAny& lhs, const TVMFFIAny& rhs);

}  // namespace structural_key
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRUCTURAL_KEY_H_

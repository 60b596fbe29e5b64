// The field visitor: every reflected field of an object, in declaration order.
#ifndef TVM_FFI_CORE_REFLECTION_VISIT_H_
#define TVM_FFI_CORE_REFLECTION_VISIT_H_

#include <tvm/ffi/c_api.h>

#include <string>

#include "impl/any.h"
#include "impl/error.h"
#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

inline std::string FieldName(const TVMFFIFieldInfo* f) {
  return std::string(f->name.data, f->name.size);
}

inline std::string TypeKeyOf(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

// Reads a field through its getter: an owning value.
inline Any ReadField(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f) {
  TVMFFIAny out;
  AnyZero(&out);
  if (f->getter == nullptr) {
    TVM_FFI_IMPL_THROW(TypeError) << "field `" << FieldName(f) << "` has no getter";
  }
  int rc = f->getter(static_cast<char*>(obj) + f->offset, &out);
  if (rc != 0) ThrowRaised(rc);
  return Any::Adopt(out);
}

// Calls visit(const TVMFFIFieldInfo*) for each field of `info`'s type: the
// fields of its ancestors first (outermost first), then its own.  `visit`
// returns false to stop; ForEachFieldInfo then returns false too.
template <typename F>
bool ForEachFieldInfo(const TVMFFITypeInfo* info, F&& visit) {
  // Fields may be registered by another thread: count first, then the array,
  // both with acquire order (the registry publishes the array first).
  auto run = [&visit](const TVMFFITypeInfo* t) {
    int32_t n = __atomic_load_n(&t->num_fields, __ATOMIC_ACQUIRE);
    const TVMFFIFieldInfo* fields = __atomic_load_n(&t->fields, __ATOMIC_ACQUIRE);
    for (int32_t i = 0; i < n; ++i) {
      if (!visit(&fields[i])) return false;
    }
    return true;
  };
  for (int32_t d = 0; d < info->type_depth; ++d) {
    if (!run(info->type_ancestors[d])) return false;
  }
  return run(info);
}

// Calls visit(field_info, value) for each field of `obj` (ForEachFieldInfo
// order), `value` an owning copy read through the getter.
template <typename F>
bool VisitFields(const Object* obj, F&& visit) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
  if (info == nullptr) ThrowRaised(-1);
  TVMFFIObjectHandle h = obj->handle();
  return ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
    return visit(f, ReadField(h, f));
  });
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_REFLECTION_VISIT_H_

// Reflected fields through the C ABI: the field visitor (every reflected
// field of an object, in declaration order), and what copies and generated
// constructors need (a field's setter, an empty instance, a type's refusal
// to be copied).
#ifndef TVM_FFI_CORE_REFLECTION_VISIT_H_
#define TVM_FFI_CORE_REFLECTION_VISIT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>

#include <string>
#include <utility>
#include <vector>

#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

inline std::string FieldName(const TVMFFIFieldInfo* f) {
  return std::string(f->name.data, f->name.size);
}

inline std::string TypeKeyOf(const TVMFFITypeInfo* info) {
  return std::string(info->type_key.data, info->type_key.size);
}

// The type information of an index; the registry's error is thrown when the
// index is unknown.
inline const TVMFFITypeInfo* TypeInfoOrThrow(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) throw MoveFromSafeCallRaised();
  return info;
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

// The fields of ForEachFieldInfo, as a list.
inline std::vector<const TVMFFIFieldInfo*> AllFields(const TVMFFITypeInfo* info) {
  std::vector<const TVMFFIFieldInfo*> out;
  ForEachFieldInfo(info, [&out](const TVMFFIFieldInfo* f) {
    out.push_back(f);
    return true;
  });
  return out;
}

// The field's raw value in the object `obj`, read through its getter: an
// owning value the caller releases.
inline TVMFFIAny ReadFieldRaw(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f) {
  if (f->getter == nullptr) {
    TVM_FFI_THROW(TypeError) << "field `" << FieldName(f) << "` has no getter";
  }
  TVMFFIAny out;
  out.type_index = kTVMFFINone;
  out.zero_padding = 0;
  out.v_int64 = 0;
  TVM_FFI_CHECK_SAFE_CALL(f->getter(static_cast<char*>(obj) + f->offset, &out));
  return out;
}

// Reads a field through its getter: an owning value.
inline Any ReadField(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f) {
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(ReadFieldRaw(obj, f));
}

// Calls visit(field_info, value) for each field of `obj` (ForEachFieldInfo
// order), `value` an owning copy read through the getter.
template <typename F>
bool VisitFields(const Object* obj, F&& visit) {
  const TVMFFITypeInfo* info = TypeInfoOrThrow(obj->type_index());
  TVMFFIObjectHandle h = ObjectUnsafe::GetHeader(obj);
  return ForEachFieldInfo(info,
                          [&](const TVMFFIFieldInfo* f) { return visit(f, ReadField(h, f)); });
}

// Assigns through the field's setter (a C function or a Function object).
inline void AssignField(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f, const TVMFFIAny& value) {
  if (f->setter == nullptr) {
    TVM_FFI_THROW(TypeError) << "field `" << FieldName(f) << "` has no setter";
  }
  TVM_FFI_CHECK_SAFE_CALL(
      reflection::CallFieldSetter(f, static_cast<char*>(obj) + f->offset, &value));
}

// AssignField for copies into a fresh instance: a None value is not assigned
// when the field already reads None there (so a copy keeps an unset object
// field of a run-time-defined type, whose setter refuses None when the field
// is not nullable).
inline void CopyFieldInto(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f,
                          const TVMFFIAny& value) {
  if (value.type_index == kTVMFFINone && f->getter != nullptr) {
    if (ReadField(obj, f).type_index() == kTVMFFINone) return;
  }
  AssignField(obj, f, value);
}

// The entry of the type attribute column `column` (may be NULL) for `info`'s
// type, as a view; None when absent.
inline AnyView TypeAttrOf(const TVMFFITypeAttrColumn* column, const TVMFFITypeInfo* info) {
  if (column == nullptr) return AnyView();
  int32_t i = info->type_index - column->begin_index;
  if (i < 0 || i >= column->size) return AnyView();
  return AnyView::CopyFromTVMFFIAny(column->data[i]);
}

// A new instance of `info`'s type with every field zero or empty, as an
// owning handle: from the metadata's creator, else from the `__ffi_new__`
// type attribute (a 0-argument Function; types defined at run time, e.g. by
// ffi.DataclassDefine, have no C creator).  nullptr when the type has
// neither; a failing creator throws.
inline TVMFFIObjectHandle CreateEmptyInstance(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(info->metadata->creator(&handle));
    return handle;
  }
  static const TVMFFIByteArray kName = {"__ffi_new__", 11};
  AnyView make = TypeAttrOf(TVMFFIGetTypeAttrColumn(&kName), info);
  if (make.type_index() != kTVMFFIFunction) return nullptr;
  Any made = make.cast<Function>()();
  if (made.type_index() != info->type_index) {
    TVM_FFI_THROW(TypeError) << "__ffi_new__ of `" << TypeKeyOf(info) << "` returned "
                             << TypeIndexToDisplayName(made.type_index())
                             << ", not an instance of the type";
  }
  return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(made)).v_obj;
}

// Why instances of `info`'s type cannot be copied, when its
// `__ffi_shallow_copy__` type attribute holds a string saying so (a C++
// class that is not copy-constructible); empty when nothing refuses.
inline std::string CopyRefusal(const TVMFFITypeInfo* info) {
  static const TVMFFIByteArray kName = {"__ffi_shallow_copy__", 20};
  AnyView v = TypeAttrOf(TVMFFIGetTypeAttrColumn(&kName), info);
  if (v.type_index() != kTVMFFIStr && v.type_index() != kTVMFFISmallStr) return std::string();
  return v.cast<std::string>();
}

}  // namespace core

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_REFLECTION_VISIT_H_

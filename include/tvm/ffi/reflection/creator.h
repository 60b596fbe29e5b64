/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/creator.h
 * \brief Making objects through reflection: an empty instance from a type's
 *        creator (or its "__ffi_new__" attribute), and ObjectCreator, which
 *        fills every field from a map of values and the fields' defaults.
 */
#ifndef TVM_FFI_REFLECTION_CREATOR_H_
#define TVM_FFI_REFLECTION_CREATOR_H_

#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>

namespace tvm {
namespace ffi {

/// \cond Doxygen_Suppress
namespace detail {
/*! \brief The "__ffi_new__" entry of the type (a view), or None. */
inline AnyView FFINewAttrOf(const TVMFFITypeInfo* type_info) {
  constexpr TVMFFIByteArray kName = reflection::AsByteArray(type_attr::kNew.name);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&kName);
  if (column == nullptr) return AnyView();
  int64_t slot = static_cast<int64_t>(type_info->type_index) - column->begin_index;
  if (slot < 0 || slot >= column->size) return AnyView();
  return AnyView::CopyFromTVMFFIAny(column->data[slot]);
}
/*! \brief The type key as a String. */
inline String TypeKeyOf(const TVMFFITypeInfo* type_info) {
  return String(type_info->type_key.data, type_info->type_key.size);
}
}  // namespace detail
/// \endcond

/*!
 * \brief A new zero-initialised instance of the type: from its native
 *        creator (metadata->creator), else from its "__ffi_new__" attribute
 *        (how types defined in Python allocate).
 * \throws RuntimeError when the type has neither.
 */
inline ObjectPtr<Object> CreateEmptyObject(const TVMFFITypeInfo* type_info) {
  if (type_info->metadata != nullptr && type_info->metadata->creator != nullptr) {
    TVMFFIObjectHandle made = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(type_info->metadata->creator(&made));
    return detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(made));
  }
  if (std::optional<TypedFunction<ObjectRef()>> make_new =
          type_attr::kNew.ValueFrom(detail::FFINewAttrOf(type_info))) {
    return detail::ObjectUnsafe::ObjectPtrFromObjectRef<Object>((*make_new)());
  }
  TVM_FFI_THROW(RuntimeError) << "Type `" << detail::TypeKeyOf(type_info)
                              << "` does not support reflection creation"
                              << " (no native creator or __ffi_new__ type attr)";
  TVM_FFI_UNREACHABLE();
}

/*! \brief Whether CreateEmptyObject can make an instance of the type. */
inline bool HasCreator(const TVMFFITypeInfo* type_info) {
  if (type_info->metadata != nullptr && type_info->metadata->creator != nullptr) return true;
  return detail::FFINewAttrOf(type_info).type_index() == TypeIndex::kTVMFFIFunction;
}

namespace reflection {

/// \cond Doxygen_Suppress
namespace detail {
/*!
 * \brief Casts `input` to TObjectRef without running "__ffi_convert__" hooks.
 * \throws TypeError naming both types.
 */
template <typename TObjectRef>
TObjectRef FFIConvertFromAnyViewToObjectRef(AnyView input) {
  const TVMFFIAny raw = input.CopyToTVMFFIAny();
  std::optional<TObjectRef> converted = TypeTraits<TObjectRef>::TryCastFromAnyView(&raw);
  if (TVM_FFI_PREDICT_FALSE(!converted.has_value())) {
    TVM_FFI_THROW(TypeError) << "Cannot cast from `" << TypeIndexToTypeKey(raw.type_index)
                             << "` to `" << TypeTraits<TObjectRef>::TypeStr() << "`";
  }
  return *std::move(converted);
}
}  // namespace detail
/// \endcond

/// \cond Doxygen_Suppress
/*! \brief Older spelling of the detail namespace. */
namespace details = detail;
/// \endcond

/*!
 * \brief Makes instances of one type from a map field name -> value: every
 *        field (inherited ones included) takes the given value, else its
 *        default; a field with neither, or a name that is no field, is a
 *        TypeError.
 *
 * \code{.cpp}
 * Any obj = reflection::ObjectCreator("my.Point")(Map<String, Any>{{"x", 1}, {"y", 2}});
 * \endcode
 */
class ObjectCreator {
  // The type made; checked to have a creator on construction.
  const TVMFFITypeInfo* type_info_;

 public:
  /*!
   * \brief For the type `type_info`.
   * \throws RuntimeError when the type cannot be created empty (see HasCreator).
   */
  explicit ObjectCreator(const TVMFFITypeInfo* type_info) : type_info_(type_info) {
    if (HasCreator(type_info)) return;
    TVM_FFI_THROW(RuntimeError) << "Type `" << ffi::detail::TypeKeyOf(type_info)
                                << "` does not support default constructor, "
                                << "as a result cannot be created via reflection";
  }
  /*! \brief For the type `type_key` (an unknown key throws). */
  explicit ObjectCreator(std::string_view type_key)
      : ObjectCreator(TVMFFIGetTypeInfo(TypeKeyToIndex(type_key))) {}

  /*! \brief A new instance with the given field values (see the class note). */
  Any operator()(const Map<String, Any>& fields) const {
    ObjectPtr<Object> obj = CreateEmptyObject(type_info_);
    char* base = reinterpret_cast<char*>(obj.get());
    size_t used = 0;
    ForEachFieldInfo(type_info_, [&](const TVMFFIFieldInfo* field) {
      String name(field->name.data, field->name.size);
      void* addr = base + field->offset;
      if (std::optional<Any> given = fields.Get(name)) {
        // The setter reports a bad value through the error slot, not by throwing.
        TVM_FFI_CHECK_SAFE_CALL(
            CallFieldSetter(field, addr, reinterpret_cast<const TVMFFIAny*>(&*given)));
        ++used;
      } else if ((field->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0) {
        SetFieldToDefault(field, addr);
      } else {
        TVM_FFI_THROW(TypeError) << "Required field `" << name << "` not set in type `"
                                 << ffi::detail::TypeKeyOf(type_info_) << "`";
      }
    });
    if (used != fields.size()) {
      // Some key named no field: name the first such key.
      for (const auto& kv : fields) {
        bool known = ForEachFieldInfoWithEarlyStop(type_info_, [&](const TVMFFIFieldInfo* f) {
          return kv.first.compare(f->name) == 0;
        });
        if (!known) {
          TVM_FFI_THROW(TypeError) << "Type `" << ffi::detail::TypeKeyOf(type_info_)
                                   << "` does not have field `" << kv.first << "`";
        }
      }
    }
    return ObjectRef(std::move(obj));
  }
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_CREATOR_H_

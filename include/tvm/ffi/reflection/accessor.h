/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/accessor.h
 * \brief Reading what reflection registered: field and method lookup by
 *        name, field getters and setters, type-attribute columns, typed
 *        attribute keys (AttrKey) and the standard keys in type_attr.
 *
 * Everything here goes through the C ABI (TVMFFIGetTypeInfo,
 * TVMFFIGetTypeAttrColumn, the getter/setter pointers in TVMFFIFieldInfo),
 * so it sees registrations made by any language or library.
 */
#ifndef TVM_FFI_REFLECTION_ACCESSOR_H_
#define TVM_FFI_REFLECTION_ACCESSOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace tvm {
namespace ffi {
namespace reflection {

/// \cond Doxygen_Suppress
namespace detail {
/*! \brief Whether the byte array holds exactly the NUL-terminated `name`. */
TVM_FFI_INLINE bool ByteArrayIs(const TVMFFIByteArray& bytes, const char* name) {
  return std::strncmp(bytes.data, name, bytes.size) == 0 && name[bytes.size] == '\0';
}
/*! \brief Where the field `info` describes lies in `obj` (getters and setters take it mutable). */
TVM_FFI_INLINE void* FieldAddress(const TVMFFIFieldInfo* info, const Object* obj) {
  const char* base = reinterpret_cast<const char*>(obj);
  return const_cast<char*>(base + info->offset);
}
/*! \brief The registry entry of `type_key` (an unknown key throws). */
inline const TypeInfo* TypeInfoOfKey(std::string_view type_key) {
  TVMFFIByteArray key{type_key.data(), type_key.size()};
  int32_t type_index = -1;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
  return TVMFFIGetTypeInfo(type_index);
}
}  // namespace detail
/// \endcond

// Typed type-attribute keys, defined below.
template <typename T>
struct AttrKey;

/*!
 * \brief The field `field_name` declared by the type `type_key` itself (not
 *        by an ancestor).
 * \throws RuntimeError when there is no such field.
 */
inline const TVMFFIFieldInfo* GetFieldInfo(std::string_view type_key, const char* field_name) {
  const TypeInfo* info = detail::TypeInfoOfKey(type_key);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (detail::ByteArrayIs(info->fields[i].name, field_name)) return info->fields + i;
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find field  `" << field_name << "` in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/*!
 * \brief Runs the setter of a field on the field at `field_addr`: a C setter,
 *        or (with kTVMFFIFieldFlagBitSetterIsFunctionObj) a Function called
 *        with (field address as an opaque pointer, value).
 * \return 0, or -1 with the error in the thread's error slot.
 */
inline int CallFieldSetter(const TVMFFIFieldInfo* field_info, void* field_addr,
                           const TVMFFIAny* value) {
  if ((field_info->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) == 0) {
    return reinterpret_cast<TVMFFIFieldSetter>(field_info->setter)(field_addr, value);
  }
  TVMFFIAny call_args[2];
  std::memset(call_args, 0, sizeof(call_args));
  call_args[0].type_index = kTVMFFIOpaquePtr;
  call_args[0].v_ptr = field_addr;
  call_args[1] = *value;
  Any ignored;  // a setter returns None; owning it releases anything else
  return TVMFFIFunctionCall(field_info->setter, call_args, 2,
                            reinterpret_cast<TVMFFIAny*>(&ignored));
}

/*! \brief Reads a field of an object through its registered getter. */
class FieldGetter {
  const TVMFFIFieldInfo* field_info_;

 public:
  /*! \brief The getter of `field_info`. */
  explicit FieldGetter(const TVMFFIFieldInfo* field_info) : field_info_(field_info) {}
  /*! \brief The getter of the field `field_name` of `type_key` (see GetFieldInfo). */
  explicit FieldGetter(std::string_view type_key, const char* field_name)
      : field_info_(GetFieldInfo(type_key, field_name)) {}

  /*! \brief The field's value in `obj`. */
  Any operator()(const ObjectRef& obj) const { return Read(obj.get()); }
  /*! \brief The field's value in `obj_ptr`. */
  Any operator()(const ObjectPtr<Object>& obj_ptr) const { return Read(obj_ptr.get()); }
  /*! \brief The field's value in `obj_ptr`. */
  Any operator()(const Object* obj_ptr) const { return Read(obj_ptr); }

 private:
  Any Read(const Object* obj) const {
    Any value;
    TVMFFIAny* out = reinterpret_cast<TVMFFIAny*>(&value);
    TVM_FFI_CHECK_SAFE_CALL(field_info_->getter(detail::FieldAddress(field_info_, obj), out));
    return value;
  }
};

/*! \brief Writes a field of an object through its registered setter. */
class FieldSetter {
  const TVMFFIFieldInfo* field_info_;

 public:
  /*! \brief The setter of `field_info`. */
  explicit FieldSetter(const TVMFFIFieldInfo* field_info) : field_info_(field_info) {}
  /*! \brief The setter of the field `field_name` of `type_key` (see GetFieldInfo). */
  explicit FieldSetter(std::string_view type_key, const char* field_name)
      : field_info_(GetFieldInfo(type_key, field_name)) {}

  /*! \brief Converts `value` to the field's type and stores it (the setter's error is thrown). */
  void operator()(const ObjectRef& obj, AnyView value) const { Write(obj.get(), value); }
  /*! \brief As above. */
  void operator()(const ObjectPtr<Object>& obj_ptr, AnyView value) const {
    Write(obj_ptr.get(), value);
  }
  /*! \brief As above. */
  void operator()(const Object* obj_ptr, AnyView value) const { Write(obj_ptr, value); }

 private:
  void Write(const Object* obj, const AnyView& value) const {
    const TVMFFIAny* in = reinterpret_cast<const TVMFFIAny*>(&value);
    void* addr = detail::FieldAddress(field_info_, obj);
    TVM_FFI_CHECK_SAFE_CALL(CallFieldSetter(field_info_, addr, in));
  }
};

/*!
 * \brief A type-attribute column, indexed by type index; an absent entry
 *        reads as None.
 */
class TypeAttrColumn {
 public:
  /*!
   * \brief The column `attr_name`.
   * \throws RuntimeError when no type registered the attribute (and no one
   *         called EnsureTypeAttrColumn for it).
   */
  explicit TypeAttrColumn(std::string_view attr_name) {
    TVMFFIByteArray name{attr_name.data(), attr_name.size()};
    column_ = TVMFFIGetTypeAttrColumn(&name);
    if (column_ == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Cannot find type attribute " << attr_name;
    }
  }
  /*! \brief The column named by a typed key. */
  template <typename T>
  explicit TypeAttrColumn(AttrKey<T> key) : TypeAttrColumn(std::string_view(key.name)) {}

  /*! \brief The entry of `type_index` (a view, valid while the registration stands). */
  AnyView operator[](int32_t type_index) const {
    int64_t slot = static_cast<int64_t>(type_index) - column_->begin_index;
    if (slot < 0 || slot >= column_->size) return AnyView();
    return AnyView::CopyFromTVMFFIAny(column_->data[slot]);
  }

 private:
  const TVMFFITypeAttrColumn* column_;
};

/*!
 * \brief The method `method_name` declared by the type `type_key` itself.
 * \throws RuntimeError when there is no such method.
 */
inline const TVMFFIMethodInfo* GetMethodInfo(std::string_view type_key, const char* method_name) {
  const TypeInfo* info = detail::TypeInfoOfKey(type_key);
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (detail::ByteArrayIs(info->methods[i].name, method_name)) return info->methods + i;
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find method " << method_name << " in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/*! \brief The function of the method `method_name` of `type_key` (see GetMethodInfo). */
inline Function GetMethod(std::string_view type_key, const char* method_name) {
  return AnyView::CopyFromTVMFFIAny(GetMethodInfo(type_key, method_name)->method).cast<Function>();
}

/*!
 * \brief Stores the default of a field (the value, or a fresh result of its
 *        factory) through the field's setter.
 *
 * A default goes through the same conversion as a value passed explicitly,
 * so a default of the wrong type fails here.  The failure is reported the C
 * way (non-zero, error in the slot); do not ignore it, or the field stays
 * zero and the error waits for an unrelated call.
 *
 * \pre field_info has kTVMFFIFieldFlagBitMaskHasDefault.
 * \return 0, or -1 with the error in the thread's error slot.
 */
inline int CallFieldSetterToDefault(const TVMFFIFieldInfo* field_info, void* field_addr) {
  if ((field_info->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) == 0) {
    return CallFieldSetter(field_info, field_addr, &field_info->default_value_or_factory);
  }
  Any fresh =
      AnyView::CopyFromTVMFFIAny(field_info->default_value_or_factory).cast<Function>()();
  return CallFieldSetter(field_info, field_addr, reinterpret_cast<const TVMFFIAny*>(&fresh));
}

/*! \brief CallFieldSetterToDefault, throwing its error. */
inline void SetFieldToDefault(const TVMFFIFieldInfo* field_info, void* field_addr) {
  TVM_FFI_CHECK_SAFE_CALL(CallFieldSetterToDefault(field_info, field_addr));
}

/*!
 * \brief Calls `callback(const TVMFFIFieldInfo*)` on every field of the type,
 *        inherited ones first (outermost ancestor first), then its own.
 */
template <typename Callback>
inline void ForEachFieldInfo(const TypeInfo* type_info, Callback callback) {
  static_assert(std::is_void_v<decltype(callback(type_info->fields))>,
                "ForEachFieldInfo: the callback returns void");
  // Depth 0 is ffi.Object, which declares no fields.
  for (int32_t depth = 1; depth < type_info->type_depth; ++depth) {
    const TVMFFITypeInfo* ancestor = type_info->type_ancestors[depth];
    for (int32_t i = 0; i < ancestor->num_fields; ++i) callback(ancestor->fields + i);
  }
  for (int32_t i = 0; i < type_info->num_fields; ++i) callback(type_info->fields + i);
}

/*!
 * \brief ForEachFieldInfo with a callback returning bool: true stops the walk.
 * \return Whether a callback stopped it.
 */
template <typename Callback>
inline bool ForEachFieldInfoWithEarlyStop(const TypeInfo* type_info, Callback callback) {
  bool stopped = false;
  ForEachFieldInfo(type_info, [&](const TVMFFIFieldInfo* field) {
    stopped = stopped || callback(field);
  });
  return stopped;
}

/*! \brief A NUL-terminated string as a byte array (usable in constant expressions). */
inline constexpr TVMFFIByteArray AsByteArray(const char* s) {
  return TVMFFIByteArray{s, std::char_traits<char>::length(s)};
}

/*!
 * \brief The name of a type attribute together with the type of its values.
 *        `name` is borrowed: it must outlive the key (a literal does).
 *
 * \code{.cpp}
 * namespace tvm::ffi::type_attr {
 * inline constexpr reflection::AttrKey<bool> kPure{"my.pure"};
 * }
 * reflection::TypeAttrDef<MyObj>().attr(type_attr::kPure, true);
 * \endcode
 */
template <typename T>
struct AttrKey {
  /*! \brief The attribute name. */
  const char* name;

  /*! \brief The value type. */
  using ValueType = T;

  /*!
   * \brief Reads a column entry: nullopt for None (no value registered),
   *        else the entry as exactly a T; an entry of another type is a
   *        TypeError (nothing is converted).
   */
  TVM_FFI_INLINE std::optional<ValueType> ValueFrom(AnyView value) const {
    std::optional<ValueType> out;
    if (value != nullptr) out = value.template as_or_throw<ValueType>();
    return out;
  }
};

}  // namespace reflection

/*!
 * \brief The type attributes the runtime itself reads.  Look one up with
 *        `reflection::TypeAttrColumn(type_attr::kX)[type_index]`; register with
 *        `reflection::TypeAttrDef<T>().attr(type_attr::kX, value)`.
 */
namespace type_attr {

// -- Map/Dict keys: what AnyHash and AnyEqual call for a value of the type.
/*! \brief Equality of two keys of this type. */
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<bool(const Any&, const Any&)>>
    kAnyEqual{"__any_equal__"};
/*! \brief Hash of a key of this type. */
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<int64_t(const Any&)>> kAnyHash{
    "__any_hash__"};

// -- Conversion to the reflected reference type (see ObjectDef::def_convert).
/*! \brief The type schema, JSON text or object, of the values kConvert accepts. */
inline constexpr reflection::AttrKey<Any> kConvertTypeSchema{"__ffi_convert_type_schema__"};
/*! \brief The conversion itself. */
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kConvert{"__ffi_convert__"};

// -- Making and copying instances.
/*!
 * \brief Builds an instance from constructor arguments, positional or (after
 *        a KWARGS marker) by keyword.  `refl::init<...>` sets it; otherwise
 *        ffi._RegisterFFIInit generates it from the fields.
 */
inline constexpr reflection::AttrKey<Function> kInit{"__ffi_init__"};
/*! \brief A zero-initialised instance; ObjectDef wraps metadata->creator into it. */
inline constexpr reflection::AttrKey<TypedFunction<ObjectRef()>> kNew{"__ffi_new__"};
/*! \brief A field-by-field copy (behind Python's copy.copy and copy.replace). */
inline constexpr reflection::AttrKey<TypedFunction<ObjectRef(const Object*)>> kShallowCopy{
    "__ffi_shallow_copy__"};

// -- Class shape.
/*! \brief True when no subclass can exist; every ObjectDef sets it. */
inline constexpr reflection::AttrKey<bool> kTypeFinal{"__ffi_type_final__"};

}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_ACCESSOR_H_

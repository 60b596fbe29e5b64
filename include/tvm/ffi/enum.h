/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/enum.h
 * \brief Enumerations whose members are singleton objects: Enum (each
 *        member has an int and a str index), IntEnum and StrEnum, and the
 *        per-type table EnumState kept in the "__ffi_enum__" type attribute.
 *
 * Members are registered with reflection::EnumDef
 * (tvm/ffi/reflection/enum_def.h) and looked up by either index:
 *
 * \code{.cpp}
 * Enum red = EnumObj::_GetByStrIndex<ColorObj>("Red");
 * Enum same = EnumObj::_GetByIntIndex<ColorObj>(0);
 * \endcode
 *
 * Layouts (shared with the library and other languages):
 *   ffi.EnumState = { header, List entries, Dict indexes, Dict attrs }
 *   ffi.Enum      = { header, int64 _int_index, String _str_index }
 */
#ifndef TVM_FFI_ENUM_H_
#define TVM_FFI_ENUM_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Enum;

/*!
 * \brief One member of an enum type; each enum type subclasses it.
 *
 * A member is a singleton: two references to the same member compare
 * structurally equal exactly when they point at the same object.
 */
class EnumObj : public Object {
  // Both index kinds go through one table lookup keyed by Any.
  template <typename Key>
  static Enum Lookup(int32_t type_index, const Key& key);

 public:
  /// \cond Doxygen_Suppress
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUniqueInstance;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.Enum", EnumObj, Object);
  /// \endcond

  // NOLINTBEGIN(bugprone-reserved-identifier)
  /*!
   * \brief Find a member by index. The first two forms take the enum type as
   *        the template argument EnumClsObj (an EnumObj subclass); the last
   *        two take its runtime type index. A missing member is a ValueError
   *        naming the type and the index.
   */
  template <typename EnumClsObj>
  static Enum _GetByIntIndex(int64_t index);
  /*! \copydoc _GetByIntIndex */
  static Enum _GetByIntIndex(int32_t type_index, int64_t index);
  /*! \copydoc _GetByIntIndex */
  template <typename EnumClsObj>
  static Enum _GetByStrIndex(const String& index);
  /*! \copydoc _GetByIntIndex */
  static Enum _GetByStrIndex(int32_t type_index, const String& index);
  // NOLINTEND(bugprone-reserved-identifier)

  EnumObj() = default;
  /*! \brief A member whose int index is `int_index` and name `str_index`. */
  EnumObj(int64_t int_index, String str_index)
      : _int_index(int_index), _str_index(std::move(str_index)) {}

  // NOLINTBEGIN(readability-identifier-naming, bugprone-reserved-identifier)
  int64_t _int_index = 0;  ///< position-like integer key of the member
  String _str_index;       ///< the member's name, its string key
  // NOLINTEND(readability-identifier-naming, bugprone-reserved-identifier)
};

/*! \brief Base of enum members that present themselves as their int index. */
class IntEnumObj : public EnumObj {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.IntEnum", IntEnumObj, EnumObj);
  /// \endcond
};

/*! \brief Base of enum members that present themselves as their name. */
class StrEnumObj : public EnumObj {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StrEnum", StrEnumObj, EnumObj);
  /// \endcond
};

/*!
 * \brief What an enum type knows about its members, kept as the type's
 *        "__ffi_enum__" attribute.
 */
class EnumStateObj : public Object {
 public:
  List<ObjectRef> entries;                    ///< members, oldest first
  Dict<Any, ObjectRef> indexes;               ///< int key or name -> member
  Dict<String, Dict<ObjectRef, Any>> attrs;   ///< attribute -> (member -> value)

  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.EnumState", EnumStateObj, Object);
  /// \endcond
};

// The reference types, none of which can be null: Enum (to an EnumObj),
// IntEnum and StrEnum (to members of those kinds) and EnumState.  Each is
// the reference boilerplate alone.
#define TVM_FFI_ENUM_REF_(Name, Parent)                                        \
  class Name : public Parent {                                                 \
   public:                                                                     \
    TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Name, Parent, Name##Obj);   \
  }
/// \cond Doxygen_Suppress
TVM_FFI_ENUM_REF_(Enum, ObjectRef);
TVM_FFI_ENUM_REF_(IntEnum, Enum);
TVM_FFI_ENUM_REF_(StrEnum, Enum);
TVM_FFI_ENUM_REF_(EnumState, ObjectRef);
/// \endcond
#undef TVM_FFI_ENUM_REF_

namespace type_attr {
/*! \brief Attribute holding an enum type's EnumState. */
inline constexpr reflection::AttrKey<EnumState> kEnumState{"__ffi_enum__"};
}  // namespace type_attr

// NOLINTBEGIN(bugprone-reserved-identifier)
inline Enum EnumObj::_GetByIntIndex(int32_t type_index, int64_t index) {
  return Lookup(type_index, index);
}

inline Enum EnumObj::_GetByStrIndex(int32_t type_index, const String& index) {
  return Lookup(type_index, index);
}

template <typename EnumClsObj>
inline Enum EnumObj::_GetByIntIndex(int64_t index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return Lookup(EnumClsObj::_GetOrAllocRuntimeTypeIndex(), index);
}

template <typename EnumClsObj>
inline Enum EnumObj::_GetByStrIndex(const String& index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return Lookup(EnumClsObj::_GetOrAllocRuntimeTypeIndex(), index);
}
// NOLINTEND(bugprone-reserved-identifier)

template <typename Key>
inline Enum EnumObj::Lookup(int32_t type_index, const Key& key) {
  // No column yet means no enum type has registered members at all.
  constexpr TVMFFIByteArray kColumnName = reflection::AsByteArray(type_attr::kEnumState.name);
  const bool have_column = TVMFFIGetTypeAttrColumn(&kColumnName) != nullptr;
  std::optional<EnumState> state;
  if (have_column) {
    state = type_attr::kEnumState.ValueFrom(
        reflection::TypeAttrColumn(type_attr::kEnumState)[type_index]);
  }
  std::optional<ObjectRef> found;
  if (state.has_value()) found = (*state)->indexes.Get(Any(key));
  if (!found.has_value()) {
    TVM_FFI_THROW(ValueError) << "Enum `" << TypeIndexToTypeKey(type_index)
                              << "` has no instance with index " << key;
  }
  return Any(*std::move(found)).cast<Enum>();
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ENUM_H_

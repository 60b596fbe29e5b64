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
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Enum;
class IntEnum;
class StrEnum;

/*! \brief The members of one enum type. */
class EnumStateObj : public Object {
 public:
  /*! \brief The members, in registration order. */
  List<ObjectRef> entries;
  /*! \brief Int index and str index of each member -> the member. */
  Dict<Any, ObjectRef> indexes;
  /*! \brief Attribute name -> (member -> value). */
  Dict<String, Dict<ObjectRef, Any>> attrs;

  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.EnumState", EnumStateObj, Object);
  /// \endcond
};

/*! \brief Reference to an EnumStateObj (never null). */
class EnumState : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(EnumState, ObjectRef, EnumStateObj);
  /// \endcond
};

/*! \brief A member of an enum type; a subclass per enum type. */
class EnumObj : public Object {
 public:
  // NOLINTBEGIN(readability-identifier-naming, bugprone-reserved-identifier)
  /*! \brief The int index. */
  int64_t _int_index = 0;
  /*! \brief The str index (the member's name). */
  String _str_index;
  // NOLINTEND(readability-identifier-naming, bugprone-reserved-identifier)

  EnumObj() = default;
  /*! \brief A member with both indexes. */
  EnumObj(int64_t int_index, String str_index)
      : _int_index(int_index), _str_index(std::move(str_index)) {}

  // NOLINTBEGIN(bugprone-reserved-identifier)
  /*! \brief The member of EnumClsObj's enum with int index `index` (ValueError if none). */
  template <typename EnumClsObj>
  static Enum _GetByIntIndex(int64_t index);
  /*! \brief The member of EnumClsObj's enum with str index `index` (ValueError if none). */
  template <typename EnumClsObj>
  static Enum _GetByStrIndex(const String& index);
  /*! \brief The member of the enum type `type_index` with int index `index`. */
  static Enum _GetByIntIndex(int32_t type_index, int64_t index);
  /*! \brief The member of the enum type `type_index` with str index `index`. */
  static Enum _GetByStrIndex(int32_t type_index, const String& index);
  // NOLINTEND(bugprone-reserved-identifier)

  /// \cond Doxygen_Suppress
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUniqueInstance;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.Enum", EnumObj, Object);
  /// \endcond

 private:
  template <typename Index>
  static Enum Lookup(int32_t type_index, const Index& index);
};

/*! \brief Reference to an EnumObj (never null). */
class Enum : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Enum, ObjectRef, EnumObj);
  /// \endcond
};

/*! \brief A member of an enum whose value is its int index. */
class IntEnumObj : public EnumObj {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.IntEnum", IntEnumObj, EnumObj);
  /// \endcond
};

/*! \brief Reference to an IntEnumObj (never null). */
class IntEnum : public Enum {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntEnum, Enum, IntEnumObj);
  /// \endcond
};

/*! \brief A member of an enum whose value is its str index. */
class StrEnumObj : public EnumObj {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StrEnum", StrEnumObj, EnumObj);
  /// \endcond
};

/*! \brief Reference to a StrEnumObj (never null). */
class StrEnum : public Enum {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StrEnum, Enum, StrEnumObj);
  /// \endcond
};

namespace type_attr {
/*! \brief The EnumState of an enum type. */
inline constexpr reflection::AttrKey<EnumState> kEnumState{"__ffi_enum__"};
}  // namespace type_attr

template <typename Index>
inline Enum EnumObj::Lookup(int32_t type_index, const Index& index) {
  constexpr TVMFFIByteArray kColumn = reflection::AsByteArray(type_attr::kEnumState.name);
  if (TVMFFIGetTypeAttrColumn(&kColumn) != nullptr) {
    if (std::optional<EnumState> state = type_attr::kEnumState.ValueFrom(
            reflection::TypeAttrColumn(type_attr::kEnumState)[type_index])) {
      if (std::optional<ObjectRef> member = (*state)->indexes.Get(Any(index))) {
        return Any(*member).cast<Enum>();
      }
    }
  }
  TVM_FFI_THROW(ValueError) << "Enum `" << TypeIndexToTypeKey(type_index)
                            << "` has no instance with index " << index;
  TVM_FFI_UNREACHABLE();
}

// NOLINTBEGIN(bugprone-reserved-identifier)
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

inline Enum EnumObj::_GetByIntIndex(int32_t type_index, int64_t index) {
  return Lookup(type_index, index);
}

inline Enum EnumObj::_GetByStrIndex(int32_t type_index, const String& index) {
  return Lookup(type_index, index);
}
// NOLINTEND(bugprone-reserved-identifier)

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ENUM_H_

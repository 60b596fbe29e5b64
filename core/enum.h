// Enumerations: ffi.Enum, its subclasses ffi.IntEnum and ffi.StrEnum, and
// ffi.EnumState, the per-enum-type table of singletons.
//
// Layouts are upstream's (its C++ headers read the fields inline):
//   ffi.EnumState = { TVMFFIObject, List entries (+24), Dict indexes (+32),
//                     Dict attrs (+40) }
//   ffi.Enum      = { TVMFFIObject, int64_t _int_index (+24),
//                     str _str_index (+32, 16 bytes: upstream's String is a
//                     TVMFFIAny-sized cell, a small string inline or a heap one) }
// ffi.IntEnum and ffi.StrEnum add no fields; their reflected `value` is
// _int_index and _str_index respectively.  An enum type keeps its EnumState
// in the "__ffi_enum__" type-attribute column: `entries` holds the
// singletons in registration order, `indexes` maps both the int and the
// str index of each to it, and `attrs` maps an attribute name to a Dict
// from singleton to value.  Enum singletons compare as unique instances.
#ifndef TVMFFI_CORE_ENUM_H_
#define TVMFFI_CORE_ENUM_H_

#include <cstdint>

#include <tvmffi/any.h>
#include <tvmffi/dict.h>
#include <tvmffi/list.h>
#include <tvmffi/object.h>
#include <tvmffi/string.h>

namespace tvmffi {
namespace core {

class EnumStateObj : public Object {
 public:
  List entries;
  Dict indexes;
  Dict attrs;
  TVMFFI_DECLARE_DYNAMIC_TYPE(EnumStateObj, "ffi.EnumState", PlainObject)
};

class EnumObj : public Object {
 public:
  int64_t _int_index = 0;  // NOLINT(readability-identifier-naming): upstream's field names
  Any _str_index = Any(String());  // always a str (small or heap)
  TVMFFI_DECLARE_DYNAMIC_TYPE(EnumObj, "ffi.Enum", PlainObject)
};

class IntEnumObj : public EnumObj {
 public:
  TVMFFI_DECLARE_DYNAMIC_TYPE(IntEnumObj, "ffi.IntEnum", EnumObj)
};

class StrEnumObj : public EnumObj {
 public:
  TVMFFI_DECLARE_DYNAMIC_TYPE(StrEnumObj, "ffi.StrEnum", EnumObj)
};

static_assert(sizeof(EnumStateObj) == 48, "ffi.EnumState: header, entries, indexes, attrs");
static_assert(sizeof(EnumObj) == 48, "ffi.Enum: header, _int_index, _str_index");

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_ENUM_H_

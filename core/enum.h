// Enumerations (the types and EnumDef are public: include/tvmffi/enum.h);
// what the core adds for them: their JSON form.
#ifndef TVMFFI_CORE_ENUM_H_
#define TVMFFI_CORE_ENUM_H_

#include <cstdint>

#include <tvmffi/any.h>
#include <tvmffi/enum.h>

namespace tvmffi {
namespace core {

// Whether `type_index` is ffi.Enum or a subclass of it.
bool IsEnumType(int32_t type_index);

// The JSON-graph data of an enum singleton: its integer index for an
// ffi.IntEnum, its string index for any other enum.
Any EnumToJsonData(const EnumObj* obj);

// The singleton a JSON-graph node of enum type `type_index` with data
// `data` names (an int for an IntEnum, a str otherwise): ValueError when
// the enum has none at that index, TypeError for data of the wrong kind.
Any EnumFromJsonData(int32_t type_index, const AnyView& data);

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_ENUM_H_

// Enumerations (tvm/ffi/enum.h: ffi.Enum, ffi.IntEnum, ffi.StrEnum and
// ffi.EnumState; members are registered with reflection::EnumDef): what the
// core adds for them, their reflection and their JSON form.
#ifndef TVM_FFI_CORE_ENUM_H_
#define TVM_FFI_CORE_ENUM_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace detail {
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
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_ENUM_H_

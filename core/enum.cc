// The enumeration types' reflection (see enum.h).
#include "enum.h"

#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

const bool kRegistered = RunAtLoad([] {
  ObjectDef<EnumStateObj>("The singletons of one enum type, their indexes and attributes.")
      .ReadOnlyFieldWithFlags("entries", &EnumStateObj::entries, kTVMFFIFieldFlagBitMaskInitOff,
                              "Enum singletons in registration order.")
      .ReadOnlyFieldWithFlags("indexes", &EnumStateObj::indexes, kTVMFFIFieldFlagBitMaskInitOff,
                              "Canonical integer and string indices to enum singletons.")
      .ReadOnlyFieldWithFlags("attrs", &EnumStateObj::attrs, kTVMFFIFieldFlagBitMaskInitOff,
                              "Extensible-attribute columns keyed by enum singleton.")
      .Init<>();
  ObjectDef<EnumObj>("An enum singleton.", kTVMFFISEqHashKindUniqueInstance)
      .ReadOnlyFieldWithFlags("_int_index", &EnumObj::_int_index,
                              kTVMFFIFieldFlagBitMaskSEqHashIgnore, "Canonical integer index.")
      .ReadOnlyField("_str_index", &EnumObj::_str_index, "Canonical string index.");
  ObjectDef<IntEnumObj>("An enum singleton with an integer value.",
                        kTVMFFISEqHashKindUniqueInstance)
      .ReadOnlyFieldWithFlags("value", &EnumObj::_int_index,
                              kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore,
                              "Canonical integer index.");
  ObjectDef<StrEnumObj>("An enum singleton with a string value.",
                        kTVMFFISEqHashKindUniqueInstance)
      .ReadOnlyFieldWithFlags("value", &EnumObj::_str_index,
                              kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore,
                              "Canonical string index.");
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

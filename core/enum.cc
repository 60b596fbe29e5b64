// The enumeration types' reflection and their JSON form (see enum.h).
#include "enum.h"

#include <optional>
#include <string>

#include "impl/reflection.h"
#include "impl/string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

// The setter of a str field stored as a 16-byte value: a str only.
int SetStr(void* field, const TVMFFIAny* value) {
  try {
    std::optional<String> s = TypeTraits<String>::TryCast(value);
    if (!s.has_value()) ThrowTypeMismatch("str", value, "");
    *static_cast<Any*>(field) = Any(std::move(*s));
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

// A read-only str field at EnumObj::_str_index.
void RegisterStrField(int32_t type_index, const char* name, int64_t flags, const char* doc) {
  const std::string doc_text(doc);
  TVMFFIFieldInfo info = reflection_detail::MakeMemberInfo<TVMFFIFieldInfo>(name, doc_text, flags);
  info.size = sizeof(Any);
  info.alignment = alignof(Any);
  info.offset = reflection_detail::FieldOffset<EnumObj>(&EnumObj::_str_index);
  info.getter = &reflection_detail::GetField<Any>;
  info.setter = reinterpret_cast<void*>(&SetStr);
  info.field_static_type_index = kTVMFFIStr;
  reflection_detail::Check(TVMFFITypeRegisterField(type_index, &info));
}

const bool kRegistered = RunAtLoad([] {
  ObjectDef<EnumStateObj>("The singletons of one enum type, their indexes and attributes.")
      .Attr("__ffi_type_final__", Any(true))
      .ReadOnlyFieldWithFlags("entries", &EnumStateObj::entries, kTVMFFIFieldFlagBitMaskInitOff,
                              "Enum singletons in registration order.")
      .ReadOnlyFieldWithFlags("indexes", &EnumStateObj::indexes, kTVMFFIFieldFlagBitMaskInitOff,
                              "Canonical integer and string indices to enum singletons.")
      .ReadOnlyFieldWithFlags("attrs", &EnumStateObj::attrs, kTVMFFIFieldFlagBitMaskInitOff,
                              "Extensible-attribute columns keyed by enum singleton.")
      .Init<>();
  ObjectDef<EnumObj>("An enum singleton.", kTVMFFISEqHashKindUniqueInstance)
      .Attr("__ffi_type_final__", Any(false))
      .ReadOnlyFieldWithFlags("_int_index", &EnumObj::_int_index,
                              kTVMFFIFieldFlagBitMaskSEqHashIgnore, "Canonical integer index.");
  RegisterStrField(EnumObj::RuntimeTypeIndex(), "_str_index", 0, "Canonical string index.");
  ObjectDef<IntEnumObj>("An enum singleton with an integer value.",
                        kTVMFFISEqHashKindUniqueInstance)
      .Attr("__ffi_type_final__", Any(false))
      .ReadOnlyFieldWithFlags("value", &EnumObj::_int_index,
                              kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore,
                              "Canonical integer index.");
  ObjectDef<StrEnumObj>("An enum singleton with a string value.",
                        kTVMFFISEqHashKindUniqueInstance)
      .Attr("__ffi_type_final__", Any(false));
  RegisterStrField(StrEnumObj::RuntimeTypeIndex(), "value",
                   kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore,
                   "Canonical string index.");
  // The state column exists from the start (None for every type), so that
  // readers of the column find it before any enum is defined.
  const TVMFFIByteArray name = {kEnumStateAttr, sizeof(kEnumStateAttr) - 1};
  TVMFFIAny none{};
  none.type_index = kTVMFFINone;
  reflection_detail::Check(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none));
});

}  // namespace

bool IsEnumType(int32_t type_index) {
  return type_index >= kTVMFFIDynObjectBegin &&
         TypeDerivesFrom(type_index, EnumObj::RuntimeTypeIndex());
}

Any EnumToJsonData(const EnumObj* obj) {
  if (obj->IsInstanceIndex(IntEnumObj::RuntimeTypeIndex())) return Any(obj->_int_index);
  return obj->_str_index;
}

Any EnumFromJsonData(int32_t type_index, const AnyView& data) {
  bool is_int = TypeDerivesFrom(type_index, IntEnumObj::RuntimeTypeIndex());
  const TVMFFIAny& raw = *data.raw();
  if (is_int ? raw.type_index != kTVMFFIInt : !TypeTraits<String>::TryCast(&raw).has_value()) {
    TVM_FFI_IMPL_THROW(TypeError) << "the data of an enum `" << TypeIndexToDisplayName(type_index)
                            << "` node must be " << (is_int ? "an int" : "a str") << ", got "
                            << TypeIndexToDisplayName(raw.type_index);
  }
  return EnumGet(type_index, data);
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

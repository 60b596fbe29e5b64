// The enumeration types' reflection and their JSON form (see enum.h).
#include "enum.h"

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

namespace refl = ::tvm::ffi::reflection;

// The name of the type-attribute column holding each enum type's EnumState.
constexpr TVMFFIByteArray kEnumStateColumn = refl::AsByteArray(type_attr::kEnumState.name);

// The getter and setter of the str fields (_str_index, StrEnum's value):
// the field is a 16-byte str cell, and the setter takes a str only.
int GetStr(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<const String*>(field)));
  TVM_FFI_SAFE_CALL_END();
}

int SetStr(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::optional<String> s = AnyView::CopyFromTVMFFIAny(*value).try_cast<String>();
  if (!s.has_value()) {
    TVM_FFI_CORE_THROW(TypeError) << "expected str, got "
                                  << TypeIndexToDisplayName(value->type_index);
  }
  *static_cast<String*>(field) = *std::move(s);
  TVM_FFI_SAFE_CALL_END();
}

// A read-only str field at EnumObj::_str_index, with the static type index
// of a str (which refl::ObjectDef does not give a String field).
void RegisterStrField(int32_t type_index, const char* name, int64_t flags, const char* doc) {
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.doc = TVMFFIByteArray{doc, std::strlen(doc)};
  info.flags = flags;
  info.size = sizeof(String);
  info.alignment = alignof(String);
  info.offset = refl::GetFieldByteOffsetToObject(&EnumObj::_str_index);
  info.getter = &GetStr;
  info.setter = reinterpret_cast<void*>(&SetStr);
  info.field_static_type_index = kTVMFFIStr;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(type_index, &info));
}

const bool kRegistered = RegisterAtLoad([] {
  refl::ObjectDef<EnumStateObj>("The singletons of one enum type, their indexes and attributes.")
      .def_ro("entries", &EnumStateObj::entries, "Enum singletons in registration order.",
              refl::init(false))
      .def_ro("indexes", &EnumStateObj::indexes,
              "Canonical integer and string indices to enum singletons.", refl::init(false))
      .def_ro("attrs", &EnumStateObj::attrs,
              "Extensible-attribute columns keyed by enum singleton.", refl::init(false))
      .def(refl::init<>());
  // The singletons are made by EnumDef (or Python's enums), never by an
  // __ffi_init__: none is generated for the enum bases.
  refl::ObjectDef<EnumObj>(refl::init(false), "An enum singleton.")
      .def_ro("_int_index", &EnumObj::_int_index, "Canonical integer index.",
              refl::AttachFieldFlag::SEqHashIgnore());
  RegisterStrField(EnumObj::_GetOrAllocRuntimeTypeIndex(), "_str_index", 0,
                   "Canonical string index.");
  refl::ObjectDef<IntEnumObj>(refl::init(false), "An enum singleton with an integer value.")
      .def_ro("value", &EnumObj::_int_index, "Canonical integer index.", refl::init(false),
              refl::AttachFieldFlag::SEqHashIgnore());
  refl::ObjectDef<StrEnumObj>(refl::init(false), "An enum singleton with a string value.");
  RegisterStrField(StrEnumObj::_GetOrAllocRuntimeTypeIndex(), "value",
                   kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore,
                   "Canonical string index.");
  // The state column exists from the start (None for every type), so that
  // readers of the column find it before any enum is defined.
  TVMFFIAny none = AnyView(nullptr).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(kTVMFFINone, &kEnumStateColumn, &none));
});

// Whether type `type_index` is `ancestor_index` or derives from it.
bool TypeDerivesFrom(int32_t type_index, int32_t ancestor_index) {
  if (type_index == ancestor_index) return true;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(ancestor_index);
  if (info == nullptr || target == nullptr || info->type_depth <= target->type_depth) return false;
  return info->type_ancestors[target->type_depth]->type_index == ancestor_index;
}

// The EnumState of enum type `type_index`, borrowed from the type-attribute
// column; nullptr when the type has none.  TypeError when the column holds
// something else for the type.
const EnumStateObj* EnumStateOf(int32_t type_index) {
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kEnumStateColumn);
  if (col == nullptr) return nullptr;
  int32_t i = type_index - col->begin_index;
  if (i < 0 || i >= col->size || col->data[i].type_index == kTVMFFINone) return nullptr;
  const TVMFFIAny& v = col->data[i];
  if (v.type_index != EnumStateObj::_GetOrAllocRuntimeTypeIndex()) {
    TVM_FFI_CORE_THROW(TypeError) << "the " << type_attr::kEnumState.name << " attribute of `"
                                  << TypeIndexToDisplayName(type_index)
                                  << "` must be an ffi.EnumState, got "
                                  << TypeIndexToDisplayName(v.type_index);
  }
  return static_cast<const EnumStateObj*>(reinterpret_cast<const Object*>(v.v_obj));
}

// An int or str index as messages show it: a str in double quotes, with "
// and \ escaped and control characters as \xNN.
std::string RenderIndex(const AnyView& index) {
  if (std::optional<String> s = index.try_cast<String>()) {
    std::string out = "\"";
    for (char ch : std::string(*s)) {
      unsigned char c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += ch;
      } else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\x%02x", c);
        out += buf;
      } else {
        out += ch;
      }
    }
    return out + "\"";
  }
  return std::to_string(index.CopyToTVMFFIAny().v_int64);
}

// The singleton of enum type `type_index` at the int or str index `index`;
// ValueError naming the type and the index when there is none.
Any EnumGet(int32_t type_index, const AnyView& index) {
  if (const EnumStateObj* state = EnumStateOf(type_index)) {
    if (std::optional<ObjectRef> found = state->indexes.Get(Any(index))) return Any(*found);
  }
  TVM_FFI_CORE_THROW(ValueError) << "enum `" << TypeIndexToDisplayName(type_index)
                                 << "` has no instance at index " << RenderIndex(index);
}

}  // namespace

bool IsEnumType(int32_t type_index) {
  return type_index >= kTVMFFIDynObjectBegin &&
         TypeDerivesFrom(type_index, EnumObj::_GetOrAllocRuntimeTypeIndex());
}

Any EnumToJsonData(const EnumObj* obj) {
  if (obj->IsInstance<IntEnumObj>()) return Any(obj->_int_index);
  return Any(obj->_str_index);
}

Any EnumFromJsonData(int32_t type_index, const AnyView& data) {
  bool is_int = TypeDerivesFrom(type_index, IntEnumObj::_GetOrAllocRuntimeTypeIndex());
  bool matches = is_int ? data.type_index() == kTVMFFIInt : data.try_cast<String>().has_value();
  if (!matches) {
    TVM_FFI_CORE_THROW(TypeError) << "the data of an enum `" << TypeIndexToDisplayName(type_index)
                                  << "` node must be " << (is_int ? "an int" : "a str")
                                  << ", got " << TypeIndexToDisplayName(data.type_index());
  }
  return EnumGet(type_index, data);
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

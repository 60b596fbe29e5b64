// testing.* enum types upstream apache-tvm-ffi's test suite uses (same type
// keys, parents, fields and globals):
//   testing.TestEnumVariant  an ffi.Enum with C++ singletons Alpha (code=10)
//                            and Beta (code=20); testing.enum_variant_get(name)
//                            (testing.enum_variant_register makes them)
//   testing.TestCxxIntEnum   an ffi.IntEnum, singletons defined from Python
//   testing.TestCxxStrEnum   an ffi.StrEnum, singletons defined from Python
//   testing.TestCxxEnumHolder  fields priority (TestCxxIntEnum) and opcode
//                            (TestCxxStrEnum), __ffi_init__(priority, opcode)
#include <tvm/ffi/enum.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

class TestEnumVariantObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestEnumVariant", TestEnumVariantObj, EnumObj);
};

class TestCxxIntEnumObj : public IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxIntEnum", TestCxxIntEnumObj, IntEnumObj);
};

class TestCxxStrEnumObj : public StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxStrEnum", TestCxxStrEnumObj, StrEnumObj);
};

// testing.TestCxxEnumHolder: each field is a reference to a singleton of its
// enum type (8 bytes, null until set) that also takes the singleton's payload:
// an int for priority, a str for opcode.  The fields are registered through
// the C ABI with their own getter and setter, since the payload conversion
// and its message ("expected testing.TestCxxIntEnum, got int") belong to
// these fields, not to every reference to an enum.
class TestCxxEnumHolderObj : public Object {
 public:
  ObjectRef priority;
  ObjectRef opcode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxEnumHolder", TestCxxEnumHolderObj, Object);
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
};

int GetEnumField(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Any value(*static_cast<const ObjectRef*>(field));
  *result = ::tvm::ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
  TVM_FFI_SAFE_CALL_END();
}

// The singleton of EnumClsObj that `value` is or names by its payload.
template <typename EnumClsObj>
std::optional<ObjectRef> EnumOfValue(AnyView value) {
  const int32_t index = EnumClsObj::_GetOrAllocRuntimeTypeIndex();
  if (value.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(value.type_index());
    bool is_instance = value.type_index() == index;
    for (int32_t d = 0; !is_instance && d < info->type_depth; ++d) {
      is_instance = info->type_ancestors[d]->type_index == index;
    }
    if (!is_instance) return std::nullopt;
    return value.cast<ObjectRef>();
  }
  bool is_payload = std::is_base_of_v<IntEnumObj, EnumClsObj>
                        ? value.type_index() == TypeIndex::kTVMFFIInt
                        : value.as<String>().has_value();
  if (!is_payload) return std::nullopt;
  refl::TypeAttrColumn column(type_attr::kEnumState);
  AnyView entry = column[index];
  if (entry.type_index() != EnumStateObj::_GetOrAllocRuntimeTypeIndex()) return std::nullopt;
  const EnumStateObj* state = entry.as<EnumStateObj>();
  return state->indexes.Get(Any(value));
}

template <typename EnumClsObj>
int SetEnumField(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  AnyView view = AnyView::CopyFromTVMFFIAny(*value);
  std::optional<ObjectRef> member = EnumOfValue<EnumClsObj>(view);
  if (!member.has_value()) {
    TVM_FFI_THROW(TypeError) << "expected " << EnumClsObj::_type_key << ", got "
                             << DisplayName(view.type_index());
  }
  *static_cast<ObjectRef*>(field) = *std::move(member);
  TVM_FFI_SAFE_CALL_END();
}

template <typename EnumClsObj>
void RegisterEnumField(const char* name, int64_t offset) {
  std::string metadata = std::string("{\"type_schema\":") +
                         std::string(EscapeStringJSON(String(std::string("{\"type\":\"") +
                                                             EnumClsObj::_type_key + "\"}"))) +
                         "}";
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  info.flags = kTVMFFIFieldFlagBitMaskWritable;
  info.size = sizeof(ObjectRef);
  info.alignment = alignof(ObjectRef);
  info.offset = offset;
  info.getter = &GetEnumField;
  info.setter = reinterpret_cast<void*>(&SetEnumField<EnumClsObj>);
  info.default_value_or_factory.type_index = TypeIndex::kTVMFFINone;
  info.field_static_type_index = TypeIndex::kTVMFFIAny;
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterField(TestCxxEnumHolderObj::_GetOrAllocRuntimeTypeIndex(), &info));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TestEnumVariantObj>("A plain enum with C++ singletons Alpha and Beta.",
                                      refl::init(false));
  KeepTestingAttrs<TestEnumVariantObj>();
  refl::ObjectDef<TestCxxIntEnumObj>("An IntEnum whose singletons Python defines.",
                                     refl::init(false));
  KeepTestingAttrs<TestCxxIntEnumObj>();
  refl::ObjectDef<TestCxxStrEnumObj>("A StrEnum whose singletons Python defines.",
                                     refl::init(false));
  KeepTestingAttrs<TestCxxStrEnumObj>();
  {
    refl::ObjectDef<TestCxxEnumHolderObj> holder("Holds a TestCxxIntEnum and a TestCxxStrEnum.",
                                                 refl::init(false));
    RegisterEnumField<TestCxxIntEnumObj>(
        "priority", refl::GetFieldByteOffsetToObject(&TestCxxEnumHolderObj::priority));
    RegisterEnumField<TestCxxStrEnumObj>(
        "opcode", refl::GetFieldByteOffsetToObject(&TestCxxEnumHolderObj::opcode));
  }
  KeepTestingAttrs<TestCxxEnumHolderObj>(true);
}

// Registers Alpha and Beta, unless the state has them already.  Not at load
// time: upstream's libtvm_ffi_testing.so registers the same singletons from
// its load-time code and throws (ending the process) when it finds them
// there, so a process may load it after this library
// (tests/python/test_duplicate_registration.py).  tvm_ffi.testing calls it
// on import, testing.enum_variant_get before each lookup.
void RegisterVariants() {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (refl::EnumDef<TestEnumVariantObj>::IsDefined("Alpha")) return;
  refl::EnumDef<TestEnumVariantObj>("Alpha").set_attr("code", int64_t(10));
  refl::EnumDef<TestEnumVariantObj>("Beta").set_attr("code", int64_t(20));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      .def("testing.enum_variant_register", [] { RegisterVariants(); })
      // The TestEnumVariant singleton named `name`; ValueError when none is.
      .def("testing.enum_variant_get", [](const std::string& name) -> Any {
        RegisterVariants();
        if (!refl::EnumDef<TestEnumVariantObj>::IsDefined(name)) {
          std::string quoted = "\"";
          for (char c : name) {
            if (c == '"' || c == '\\') quoted += '\\';
            quoted += c;
          }
          TVM_FFI_THROW(ValueError) << "enum `" << TestEnumVariantObj::_type_key
                                    << "` has no instance at index " << quoted << "\"";
        }
        return EnumObj::_GetByStrIndex<TestEnumVariantObj>(name);
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

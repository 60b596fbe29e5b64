// testing.dataclass_*: use an object type defined at run time (e.g. a
// Python py_class) from C++ through the C ABI only: the type key, the
// `__ffi_new__` attribute, the `__ffi_init__` method and field getters and
// setters found by name.
#include <string>

#include <tvmffi/array.h>
#include <tvmffi/reflection.h>
#include <tvmffi/string.h>

namespace tvmffi {
namespace core {
namespace {

using reflection_detail::AllFields;

const TVMFFITypeInfo* InfoOfKey(const std::string& key) {
  TVMFFIByteArray k = ToByteArray(key);
  int32_t index = -1;
  if (TVMFFITypeKeyToIndex(&k, &index) != 0) ThrowRaised(-1);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (info == nullptr) ThrowRaised(-1);
  return info;
}

const TVMFFITypeInfo* InfoOfObject(const AnyView& obj) {
  if (obj.type_index() < kTVMFFIStaticObjectBegin) {
    TVMFFI_THROW(TypeError) << "expected an object, got "
                            << TypeIndexToDisplayName(obj.type_index());
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj.type_index());
  if (info == nullptr) ThrowRaised(-1);
  return info;
}

const TVMFFIFieldInfo* FieldByName(const TVMFFITypeInfo* info, const std::string& name) {
  for (const TVMFFIFieldInfo* f : AllFields(info)) {
    if (std::string(f->name.data, f->name.size) == name) return f;
  }
  TVMFFI_THROW(AttributeError) << "type `" << std::string(info->type_key.data, info->type_key.size)
                               << "` has no field `" << name << "`";
}

// testing.dataclass_create(type_key, *args): the type's __ffi_init__(*args).
TVMFFI_REGISTER_GLOBAL_PACKED("testing.dataclass_create",
                              [](const AnyView* args, int32_t num_args, Any* rv) {
  if (num_args < 1) TVMFFI_THROW(TypeError) << "testing.dataclass_create needs a type key";
  const TVMFFITypeInfo* info = InfoOfKey(args[0].As<std::string>());
  for (int32_t i = 0; i < info->num_methods; ++i) {
    const TVMFFIMethodInfo& m = info->methods[i];
    if (std::string(m.name.data, m.name.size) == "__ffi_init__") {
      *rv = AnyView::FromRaw(m.method).As<Function>().CallPacked(args + 1, num_args - 1);
      return;
    }
  }
  TVMFFI_THROW(TypeError) << "type `" << std::string(info->type_key.data, info->type_key.size)
                          << "` has no __ffi_init__";
});

// testing.dataclass_new(type_key): an instance with every field zero.
TVMFFI_REGISTER_GLOBAL("testing.dataclass_new", [](std::string key) {
  const TVMFFITypeInfo* info = InfoOfKey(key);
  TVMFFIObjectHandle h = reflection_detail::CreateEmptyInstance(info);
  if (h == nullptr) TVMFFI_THROW(TypeError) << "type `" << key << "` has no creator";
  return Any(ObjectRef(ObjectPtr<Object>::AdoptHandle(h)));
});

// testing.dataclass_get(obj, name): the field through its getter.
TVMFFI_REGISTER_GLOBAL("testing.dataclass_get", [](AnyView obj, std::string name) {
  const TVMFFIFieldInfo* f = FieldByName(InfoOfObject(obj), name);
  TVMFFIAny out;
  AnyZero(&out);
  int rc = f->getter(reinterpret_cast<char*>(obj.raw()->v_obj) + f->offset, &out);
  if (rc != 0) ThrowRaised(rc);
  return Any::Adopt(out);
});

// testing.dataclass_set(obj, name, value): the field through its setter;
// returns obj, so a test sees the same object come back.
TVMFFI_REGISTER_GLOBAL("testing.dataclass_set", [](AnyView obj, std::string name, AnyView value) {
  const TVMFFIFieldInfo* f = FieldByName(InfoOfObject(obj), name);
  reflection_detail::AssignField(obj.raw()->v_obj, f, *value.raw());
  return Any(obj);
});

// testing.dataclass_field_names(obj): names of every reflected field,
// ancestors' first.
TVMFFI_REGISTER_GLOBAL("testing.dataclass_field_names", [](AnyView obj) {
  Array<String> names;
  for (const TVMFFIFieldInfo* f : AllFields(InfoOfObject(obj))) {
    names.push_back(String(f->name.data, f->name.size));
  }
  return names;
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

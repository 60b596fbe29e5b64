// ffi.MakeObjectFromPackedArgs(type_key, name0, value0, name1, value1, ...):
// a new object of a reflected type with the named fields set directly (any
// field, __ffi_init__ parameter or not) and every other field at its default.
// A field with no value and no default, an unknown or repeated name, or an
// odd count of name/value arguments is a TypeError naming it.
#include <string>
#include <vector>

#include <tvmffi/function.h>
#include <tvmffi/reflection.h>
#include "type_registry.h"

namespace tvmffi {
namespace core {
namespace {

std::string NameOf(const TVMFFIFieldInfo* f) { return std::string(f->name.data, f->name.size); }

void MakeObjectFromPackedArgs(const AnyView* args, int32_t num_args, Any* rv) {
  if (num_args < 1 || (args[0].type_index() != kTVMFFIRawStr &&
                        args[0].type_index() != kTVMFFISmallStr &&
                        args[0].type_index() != kTVMFFIStr)) {
    TVMFFI_THROW(TypeError) << "ffi.MakeObjectFromPackedArgs expects a type key first, then "
                               "name/value pairs";
  }
  std::string key = args[0].As<std::string>();
  std::string context = "ffi.MakeObjectFromPackedArgs(`" + key + "`): ";
  if ((num_args - 1) % 2 != 0) {
    TVMFFI_THROW(TypeError) << context << "fields must come as name/value pairs, got "
                            << num_args - 1 << " arguments after the type key";
  }
  TVMFFIByteArray key_bytes = {key.data(), key.size()};
  int32_t type_index = 0;
  if (TVMFFITypeKeyToIndex(&key_bytes, &type_index) != 0) ThrowRaised(-1);
  const TVMFFITypeInfo* info = type_registry::GetTypeInfo(type_index);
  if (info == nullptr || type_index < kTVMFFIStaticObjectBegin) {
    TVMFFI_THROW(TypeError) << context << "not an object type";
  }
  std::vector<const TVMFFIFieldInfo*> fields = reflection_detail::AllFields(info);
  std::vector<const TVMFFIAny*> values(fields.size(), nullptr);
  for (int32_t i = 1; i + 1 < num_args; i += 2) {
    std::string name = args[i].As<std::string>();
    size_t k = 0;
    while (k < fields.size() && NameOf(fields[k]) != name) ++k;
    if (k == fields.size()) TVMFFI_THROW(TypeError) << context << "no field `" << name << "`";
    if (values[k] != nullptr) {
      TVMFFI_THROW(TypeError) << context << "field `" << name << "` given twice";
    }
    values[k] = args[i + 1].raw();
  }
  TVMFFIObjectHandle handle = reflection_detail::CreateEmptyInstance(info);
  if (handle == nullptr) TVMFFI_THROW(TypeError) << context << "the type has no creator";
  ObjectRef obj(ObjectPtr<Object>::AdoptHandle(handle));
  for (size_t k = 0; k < fields.size(); ++k) {
    const TVMFFIFieldInfo* f = fields[k];
    const TVMFFIAny* value = values[k];
    Any produced;
    if (value == nullptr) {
      if (!(f->flags & kTVMFFIFieldFlagBitMaskHasDefault)) {
        TVMFFI_THROW(TypeError) << context << "missing field `" << NameOf(f) << "`";
      }
      if (f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) {
        produced = AnyView::FromRaw(f->default_value_or_factory).As<Function>()();
        value = produced.raw();
      } else {
        value = &f->default_value_or_factory;
      }
    }
    try {
      reflection_detail::AssignField(obj.handle(), f, *value);
    } catch (const Error& e) {
      throw Error(e.kind(), context + "field `" + NameOf(f) + "`: " + e.message());
    }
  }
  *rv = Any(std::move(obj));
}

TVMFFI_REGISTER_GLOBAL_PACKED("ffi.MakeObjectFromPackedArgs", MakeObjectFromPackedArgs);

}  // namespace
}  // namespace core
}  // namespace tvmffi

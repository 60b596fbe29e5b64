// ffi.MakeObjectFromPackedArgs(type, name0, value0, name1, value1, ...):
// a new object of `type` (a type index or a type key) with its reflected
// fields set by name.  The instance comes from the type's creator (or its
// `__ffi_new__`); every field, ancestors' first, is set from the argument
// of its name, else from its default; a field with neither, and a name that
// is no field of the type, is a TypeError.
#include <string>
#include <vector>

#include "impl/error.h"
#include "impl/function.h"
#include "impl/reflection.h"
#include "impl/string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

constexpr const char* kFunc = "ffi.MakeObjectFromPackedArgs";

const TVMFFITypeInfo* TypeArg(const AnyView& arg) {
  int32_t type_index;
  if (arg.type_index() == kTVMFFIInt) {
    type_index = static_cast<int32_t>(arg.As<int64_t>());
  } else {
    const char* data;
    size_t size;
    bool is_bytes;
    if (!GetStringView(arg.raw(), &data, &size, &is_bytes) || is_bytes) {
      detail::ThrowArgumentMismatch(kFunc, 0, "int or str", arg.raw());
    }
    TVMFFIByteArray key = {data, size};
    if (TVMFFITypeKeyToIndex(&key, &type_index) != 0) ThrowRaised(-1);
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) ThrowRaised(-1);
  return info;
}

void Make(const AnyView* args, int32_t num_args, Any* rv) {
  if (num_args < 1 || num_args % 2 != 1) {
    TVM_FFI_IMPL_THROW(TypeError) << kFunc << ": expected a type and name/value pairs, got "
                            << num_args << " arguments";
  }
  const TVMFFITypeInfo* info = TypeArg(args[0]);
  std::string key(info->type_key.data, info->type_key.size);
  std::vector<std::string> names;
  for (int32_t i = 1; i < num_args; i += 2) names.push_back(args[i].As<std::string>());
  std::vector<bool> used(names.size(), false);

  TVMFFIObjectHandle handle = reflection_detail::CreateEmptyInstance(info);
  if (handle == nullptr) TVM_FFI_IMPL_THROW(TypeError) << kFunc << ": type `" << key << "` has no creator";
  ObjectRef obj(ObjectPtr<Object>::AdoptHandle(handle));
  for (const TVMFFIFieldInfo* f : reflection_detail::AllFields(info)) {
    std::string name(f->name.data, f->name.size);
    size_t k = 0;
    while (k < names.size() && (used[k] || names[k] != name)) ++k;
    if (k < names.size()) {
      used[k] = true;
      reflection_detail::AssignField(obj.handle(), f, *args[2 * k + 2].raw());
    } else if (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      Any produced;
      const TVMFFIAny* value = &f->default_value_or_factory;
      if (f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) {
        produced = AnyView::FromRaw(f->default_value_or_factory).As<Function>()();
        value = produced.raw();
      }
      reflection_detail::AssignField(obj.handle(), f, *value);
    } else {
      TVM_FFI_IMPL_THROW(TypeError) << "Required field `" << name << "` not set in type `" << key << "`";
    }
  }
  for (size_t k = 0; k < names.size(); ++k) {
    if (!used[k]) {
      TVM_FFI_IMPL_THROW(TypeError) << "Type `" << key << "` does not have field `" << names[k] << "`";
    }
  }
  *rv = Any(std::move(obj));
}

TVM_FFI_IMPL_REGISTER_GLOBAL_PACKED("ffi.MakeObjectFromPackedArgs", Make);

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

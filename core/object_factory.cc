// ffi.MakeObjectFromPackedArgs(type, name0, value0, name1, value1, ...):
// a new object of `type` (a type index or a type key) with its reflected
// fields set by name.  The instance comes from the type's creator (or its
// `__ffi_new__`); every field, ancestors' first, is set from the argument
// of its name, else from its default; a field with neither, and a name that
// is no field of the type, is a TypeError.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "reflection_visit.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

constexpr const char* kFunc = "ffi.MakeObjectFromPackedArgs";

const TVMFFITypeInfo* TypeArg(const AnyView& arg) {
  int32_t type_index;
  switch (arg.type_index()) {
    case kTVMFFIInt:
      type_index = static_cast<int32_t>(arg.cast<int64_t>());
      break;
    case kTVMFFIStr:
    case kTVMFFISmallStr:
    case kTVMFFIRawStr: {
      String key = arg.cast<String>();
      TVMFFIByteArray bytes = {key.data(), key.size()};
      TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&bytes, &type_index));
      break;
    }
    default:
      TVM_FFI_CORE_THROW(TypeError) << "In function " << kFunc
                                    << ": argument 1: expected int or str, got "
                                    << TypeIndexToDisplayName(arg.type_index());
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) throw MoveFromSafeCallRaised();
  return info;
}

// Sets field `f` of `obj` to `value` through the field's setter.
void AssignField(Object* obj, const TVMFFIFieldInfo* f, const AnyView& value) {
  if (f->setter == nullptr) {
    TVM_FFI_CORE_THROW(TypeError) << "field `" << std::string(f->name.data, f->name.size)
                                  << "` has no setter";
  }
  void* address = reinterpret_cast<char*>(obj) + f->offset;
  TVMFFIAny raw = value.CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(reflection::CallFieldSetter(f, address, &raw));
}

void Make(PackedArgs args, Any* rv) {
  const int32_t num_args = args.size();
  if (num_args < 1 || num_args % 2 != 1) {
    TVM_FFI_CORE_THROW(TypeError) << kFunc << ": expected a type and name/value pairs, got "
                                  << num_args << " arguments";
  }
  const TVMFFITypeInfo* info = TypeArg(args[0]);
  std::string key(info->type_key.data, info->type_key.size);
  std::vector<std::string> names;
  for (int32_t i = 1; i < num_args; i += 2) names.push_back(args[i].cast<std::string>());
  std::vector<bool> used(names.size(), false);

  if (!HasCreator(info)) TVM_FFI_CORE_THROW(TypeError) << kFunc << ": type `" << key << "` has no creator";
  ObjectPtr<Object> obj = CreateEmptyObject(info);
  if (obj.get() == nullptr || obj->type_index() != info->type_index) {
    TVM_FFI_CORE_THROW(TypeError) << "__ffi_new__ of `" << key << "` returned "
                                  << TypeIndexToDisplayName(obj.get() == nullptr ? kTVMFFINone
                                                                           : obj->type_index())
                                  << ", not an instance of the type";
  }
  for (const TVMFFIFieldInfo* f : AllFields(info)) {
    std::string name(f->name.data, f->name.size);
    size_t k = 0;
    while (k < names.size() && (used[k] || names[k] != name)) ++k;
    if (k < names.size()) {
      used[k] = true;
      AssignField(obj.get(), f, args[static_cast<int>(2 * k + 2)]);
    } else if (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      AnyView value = AnyView::CopyFromTVMFFIAny(f->default_value_or_factory);
      Any produced;
      if (f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) {
        produced = value.cast<Function>()();
        value = produced;
      }
      AssignField(obj.get(), f, value);
    } else {
      TVM_FFI_CORE_THROW(TypeError) << "Required field `" << name << "` not set in type `" << key
                                    << "`";
    }
  }
  for (size_t k = 0; k < names.size(); ++k) {
    if (!used[k]) {
      TVM_FFI_CORE_THROW(TypeError) << "Type `" << key << "` does not have field `" << names[k]
                                    << "`";
    }
  }
  *rv = ObjectRef(std::move(obj));
}

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.MakeObjectFromPackedArgs", Make);

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

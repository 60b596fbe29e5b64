// testing.dataclass_*: use an object type defined at run time (e.g. a
// Python py_class) from C++ through the C ABI only: the type key, the
// `__ffi_new__` attribute, the `__ffi_init__` method and field getters and
// setters found by name.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

std::string Text(const TVMFFIByteArray& bytes) { return std::string(bytes.data, bytes.size); }

const TVMFFITypeInfo* InfoOfKey(const std::string& key) {
  TVMFFIByteArray k{key.data(), key.size()};
  int32_t index = -1;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&k, &index));
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (info == nullptr) ThrowRaised();
  return info;
}

const TVMFFITypeInfo* InfoOfObject(const AnyView& obj) {
  if (obj.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
    TVM_FFI_THROW(TypeError) << "expected an object, got " << DisplayName(obj.type_index());
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj.type_index());
  if (info == nullptr) ThrowRaised();
  return info;
}

// The fields of the ancestors (outermost first), then the type's own.  The
// counts are read before the arrays, with acquire order: another thread may
// be registering fields (the registry publishes them in the other order).
std::vector<const TVMFFIFieldInfo*> AllFields(const TVMFFITypeInfo* info) {
  std::vector<const TVMFFIFieldInfo*> out;
  auto add = [&out](const TVMFFITypeInfo* t) {
    int32_t n = __atomic_load_n(&t->num_fields, __ATOMIC_ACQUIRE);
    const TVMFFIFieldInfo* fields = __atomic_load_n(&t->fields, __ATOMIC_ACQUIRE);
    for (int32_t i = 0; i < n; ++i) out.push_back(&fields[i]);
  };
  for (int32_t d = 0; d < info->type_depth; ++d) add(info->type_ancestors[d]);
  add(info);
  return out;
}

const TVMFFIFieldInfo* FieldByName(const TVMFFITypeInfo* info, const std::string& name) {
  for (const TVMFFIFieldInfo* f : AllFields(info)) {
    if (Text(f->name) == name) return f;
  }
  TVM_FFI_THROW(AttributeError) << "type `" << Text(info->type_key) << "` has no field `" << name
                                << "`";
  TVM_FFI_UNREACHABLE();
}

// A new instance of `info`'s type with every field zero or empty: from the
// metadata's creator, else from the `__ffi_new__` type attribute (types
// defined at run time have no C creator).  None when the type has neither.
ObjectRef CreateEmptyInstance(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(info->metadata->creator(&handle));
    return ObjectRef(::tvm::ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
        static_cast<TVMFFIObject*>(handle)));
  }
  static constexpr TVMFFIByteArray kName = refl::AsByteArray("__ffi_new__");
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&kName);
  if (column == nullptr) return ObjectRef();
  int32_t slot = info->type_index - column->begin_index;
  if (slot < 0 || slot >= column->size ||
      column->data[slot].type_index != TypeIndex::kTVMFFIFunction) {
    return ObjectRef();
  }
  Any made = AnyView::CopyFromTVMFFIAny(column->data[slot]).cast<Function>()();
  if (made.type_index() != info->type_index) {
    TVM_FFI_THROW(TypeError) << "__ffi_new__ of `" << Text(info->type_key) << "` returned "
                             << DisplayName(made.type_index()) << ", not an instance of the type";
  }
  return made.cast<ObjectRef>();
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      // testing.dataclass_create(type_key, *args): the type's __ffi_init__(*args).
      .def_packed("testing.dataclass_create",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() < 1) {
                      TVM_FFI_THROW(TypeError) << "testing.dataclass_create needs a type key";
                    }
                    const TVMFFITypeInfo* info = InfoOfKey(args[0].cast<std::string>());
                    for (int32_t i = 0; i < info->num_methods; ++i) {
                      const TVMFFIMethodInfo& m = info->methods[i];
                      if (Text(m.name) == "__ffi_init__") {
                        AnyView::CopyFromTVMFFIAny(m.method)
                            .cast<Function>()
                            .CallPacked(args.Slice(1), rv);
                        return;
                      }
                    }
                    TVM_FFI_THROW(TypeError)
                        << "type `" << Text(info->type_key) << "` has no __ffi_init__";
                  })
      // testing.dataclass_new(type_key): an instance with every field zero.
      .def("testing.dataclass_new",
           [](std::string key) {
             const TVMFFITypeInfo* info = InfoOfKey(key);
             ObjectRef made = CreateEmptyInstance(info);
             if (!made.defined()) TVM_FFI_THROW(TypeError) << "type `" << key << "` has no creator";
             return Any(made);
           })
      // testing.dataclass_get(obj, name): the field through its getter.
      .def("testing.dataclass_get",
           [](AnyView obj, std::string name) {
             const TVMFFIFieldInfo* f = FieldByName(InfoOfObject(obj), name);
             Any out;
             char* base = const_cast<char*>(reinterpret_cast<const char*>(obj.as<Object>()));
             TVM_FFI_CHECK_SAFE_CALL(
                 f->getter(base + f->offset, reinterpret_cast<TVMFFIAny*>(&out)));
             return out;
           })
      // testing.dataclass_set(obj, name, value): the field through its setter;
      // returns obj, so a test sees the same object come back.
      .def("testing.dataclass_set",
           [](AnyView obj, std::string name, AnyView value) {
             const TVMFFIFieldInfo* f = FieldByName(InfoOfObject(obj), name);
             if (f->setter == nullptr) {
               TVM_FFI_THROW(TypeError) << "field `" << Text(f->name) << "` has no setter";
             }
             void* address =
                 const_cast<char*>(reinterpret_cast<const char*>(obj.as<Object>())) + f->offset;
             TVM_FFI_CHECK_SAFE_CALL(
                 refl::CallFieldSetter(f, address, reinterpret_cast<const TVMFFIAny*>(&value)));
             return Any(obj);
           })
      // testing.dataclass_field_names(obj): names of every reflected field,
      // ancestors' first.
      .def("testing.dataclass_field_names", [](AnyView obj) {
        Array<String> names;
        for (const TVMFFIFieldInfo* f : AllFields(InfoOfObject(obj))) {
          names.push_back(String(f->name.data, f->name.size));
        }
        return names;
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

// Helpers the testing library's files share (not installed).
#ifndef TVM_FFI_TESTING_TESTING_UTIL_H_
#define TVM_FFI_TESTING_TESTING_UTIL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

// Throws the error a failed C call left in this thread's slot.
[[noreturn]] inline void ThrowRaised() {
  TVM_FFI_CHECK_SAFE_CALL(-1);
  TVM_FFI_UNREACHABLE();
}

// The `__ffi_shallow_copy__` type attribute of a type whose C++ class cannot
// be copied: the reason, which ffi.ShallowCopy and ffi.DeepCopy give when
// they refuse an instance (refl::ObjectDef registers a copy function only for
// a copyable class).
inline constexpr const char* kNotCopyConstructible = "its C++ class is not copy-constructible";

// The name messages use for a value's type: "str" and "bytes" for every
// string and bytes kind, else the type key.
inline std::string DisplayName(int32_t type_index) {
  switch (type_index) {
    case TypeIndex::kTVMFFIRawStr:
    case TypeIndex::kTVMFFISmallStr:
    case TypeIndex::kTVMFFIStr:
      return "str";
    case TypeIndex::kTVMFFIByteArrayPtr:
    case TypeIndex::kTVMFFISmallBytes:
    case TypeIndex::kTVMFFIBytes:
      return "bytes";
    default:
      return TypeIndexToTypeKey(type_index);
  }
}

// Registers the typed callable `func` as the global `name`, as
// refl::GlobalDef().def does, except for the schema in its metadata: a
// container of Any (Array<Any>, List<Any>, Map<Any, Any>, Dict<Any, Any>)
// is written as the bare container ({"type":"ffi.Array"}), the schema these
// testing functions have always published (tests/python/test_metadata.py).
template <typename Func>
inline void DefGlobalWithBareContainers(const char* name, Func func) {
  std::string schema = ::tvm::ffi::detail::FunctionInfo<Func>::TypeSchema();
  for (const char* key : {"ffi.Array", "ffi.List"}) {
    std::string of_any = std::string("{\"type\":\"") + key + "\",\"args\":[{\"type\":\"Any\"}]}";
    std::string bare = std::string("{\"type\":\"") + key + "\"}";
    for (size_t at = schema.find(of_any); at != std::string::npos; at = schema.find(of_any, at)) {
      schema.replace(at, of_any.size(), bare);
    }
  }
  for (const char* key : {"ffi.Map", "ffi.Dict"}) {
    std::string of_any = std::string("{\"type\":\"") + key +
                         "\",\"args\":[{\"type\":\"Any\"},{\"type\":\"Any\"}]}";
    std::string bare = std::string("{\"type\":\"") + key + "\"}";
    for (size_t at = schema.find(of_any); at != std::string::npos; at = schema.find(of_any, at)) {
      schema.replace(at, of_any.size(), bare);
    }
  }
  std::string metadata =
      "{\"type_schema\":" + std::string(EscapeStringJSON(String(schema))) + "}";
  Function f = Function::FromTyped(std::move(func), std::string(name));
  TVMFFIMethodInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  info.method = AnyView(f).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
}

// A reference to a T (null for None), for typed results and parameters
// whose schema names T's type key.
template <typename T>
class RefOf : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(RefOf, ObjectRef, T);
};

// The constructor __ffi_init__(Args...) -> T made with make_object<T>(args...),
// for ObjectDef::def_static: its schema returns T (refl::init<Args...>'s
// returns ffi.Object).
template <typename T, typename... Args>
inline auto InitOf() {
  return [](Args... args) { return RefOf<T>(make_object<T>(std::move(args)...)); };
}

namespace testing_util_detail {

inline const TVMFFIAny* AttrOf(const char* attr, int32_t type_index) {
  const TVMFFIByteArray name{attr, std::strlen(attr)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr) return nullptr;
  const int32_t slot = type_index - column->begin_index;
  if (slot < 0 || slot >= column->size) return nullptr;
  const TVMFFIAny* value = &column->data[slot];
  return value->type_index == TypeIndex::kTVMFFINone ? nullptr : value;
}

inline void ClearAttr(const char* attr, int32_t type_index) {
  const TVMFFIByteArray name{attr, std::strlen(attr)};
  TVMFFIAny none;
  std::memset(&none, 0, sizeof(none));
  none.type_index = TypeIndex::kTVMFFINone;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name, &none));
}

}  // namespace testing_util_detail

// The type attributes of a testing type are those it has always had: after
// refl::ObjectDef<T>, this drops the `__ffi_new__` ObjectDef adds (instances
// come from the metadata's creator; tvm_ffi's layout tools take a type with
// `__ffi_new__` for one defined at run time).  For a type declared with
// refl::init(false), `auto_init` also gives it an `__ffi_init__` built from
// its reflected fields as a static method with `doc`, not as the type
// attribute: a second library registering the same type (upstream's testing
// library, tests/python/test_duplicate_registration.py) then registers that
// attribute itself rather than repeating ours.  The generator is the
// library's `ffi._RegisterFFIInit`, which fills the attribute: its function
// is taken and the attribute cleared again, unless another library had set it.
// (Call after the ObjectDef is gone: it registers when destroyed.)
template <typename T>
inline void KeepTestingAttrs(bool auto_init = false, const char* doc = nullptr) {
  // (Not RuntimeTypeIndex(): at load time it may not be initialised yet.)
  const int32_t index = T::_GetOrAllocRuntimeTypeIndex();
  if (testing_util_detail::AttrOf("__ffi_new__", index) != nullptr) {
    testing_util_detail::ClearAttr("__ffi_new__", index);
  }
  if (!auto_init) return;
  Any init;
  if (const TVMFFIAny* existing = testing_util_detail::AttrOf("__ffi_init__", index)) {
    init = AnyView::CopyFromTVMFFIAny(*existing);
  } else {
    Function::GetGlobalRequired("ffi._RegisterFFIInit")(index);
    const TVMFFIAny* made = testing_util_detail::AttrOf("__ffi_init__", index);
    if (made == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "ffi._RegisterFFIInit made no __ffi_init__ for `"
                                  << T::_type_key << "`";
    }
    init = AnyView::CopyFromTVMFFIAny(*made);
    testing_util_detail::ClearAttr("__ffi_init__", index);
  }
  TVMFFIMethodInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{"__ffi_init__", 12};
  if (doc != nullptr) info.doc = TVMFFIByteArray{doc, std::strlen(doc)};
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method = AnyView(init).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(index, &info));
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_TESTING_TESTING_UTIL_H_

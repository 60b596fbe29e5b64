// Upstream's Python-defined class protocol (see py_class.h).
#include "py_class.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "impl/error.h"
#include "impl/reflection.h"
#include "impl/string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace py_class {
namespace {

enum class Storage { kPOD, kAny, kObject };

Storage StorageOf(const TVMFFIFieldInfo* f) {
  int32_t t = f->field_static_type_index;
  if (t == kTVMFFIAny || t == kTVMFFINone) {
    // A C++ parent may declare an ObjectRef member with the Any conversion type.
    return f->size == static_cast<int64_t>(sizeof(void*)) ? Storage::kObject : Storage::kAny;
  }
  if (t >= kTVMFFIStaticObjectBegin) {
    // A 16-byte object field (e.g. a C++ parent's str cell) holds a value.
    return f->size == static_cast<int64_t>(sizeof(TVMFFIAny)) ? Storage::kAny : Storage::kObject;
  }
  return Storage::kPOD;
}

std::string KeyOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) ThrowRaised(-1);
  return std::string(info->type_key.data, info->type_key.size);
}

// Takes `value` (owning) into the object slot at `address`; None clears it;
// a small string or bytes becomes its heap object.
void StoreObject(void* address, Any value) {
  TVMFFIObjectHandle* slot = static_cast<TVMFFIObjectHandle*>(address);
  TVMFFIObjectHandle old = *slot;
  const char* data;
  size_t size;
  bool is_bytes;
  if (value.type_index() == kTVMFFINone) {
    *slot = nullptr;
  } else if (value.type_index() >= kTVMFFIStaticObjectBegin) {
    *slot = value.Release().v_obj;
  } else if (GetStringView(value.raw(), &data, &size, &is_bytes)) {
    ObjectRef heap = is_bytes ? ObjectRef(Bytes(data, size)) : ObjectRef(String(data, size));
    TVMFFIObjectHandle h = heap.handle();
    TVMFFIObjectIncRef(h);
    *slot = h;
  } else {
    TVM_FFI_IMPL_THROW(TypeError) << "expected an object, got "
                            << TypeIndexToDisplayName(value.type_index());
  }
  if (old != nullptr) TVMFFIObjectDecRef(old);
}

template <typename T>
void StorePOD(void* address, const Any& value) {
  std::optional<T> v = TypeTraits<T>::TryCast(value.raw());
  if (!v.has_value()) ThrowTypeMismatch(TypeTraits<T>::TypeStr(), value.raw(), "");
  *static_cast<T*>(address) = *v;
}

void Store(void* address, int32_t field_type_index, Any value) {
  switch (field_type_index) {
    case kTVMFFIInt:
      return StorePOD<int64_t>(address, value);
    case kTVMFFIFloat:
      return StorePOD<double>(address, value);
    case kTVMFFIBool:
      return StorePOD<bool>(address, value);
    case kTVMFFIOpaquePtr:
      return StorePOD<void*>(address, value);
    case kTVMFFIDataType:
      return StorePOD<DLDataType>(address, value);
    case kTVMFFIDevice:
      return StorePOD<DLDevice>(address, value);
    default:
      break;
  }
  if (field_type_index == kTVMFFIAny || field_type_index == kTVMFFINone) {
    *static_cast<Any*>(address) = std::move(value);
  } else if (field_type_index >= kTVMFFIStaticObjectBegin) {
    StoreObject(address, std::move(value));
  } else {
    TVM_FFI_IMPL_THROW(ValueError) << "unsupported field type index for a setter: " << field_type_index;
  }
}

void ReleaseFields(char* base, const TVMFFITypeInfo* info) {
  for (const TVMFFIFieldInfo* f : reflection_detail::AllFields(info)) {
    char* address = base + f->offset;
    switch (StorageOf(f)) {
      case Storage::kAny:
        AnyRelease(reinterpret_cast<TVMFFIAny*>(address));
        break;
      case Storage::kObject: {
        TVMFFIObjectHandle h = *reinterpret_cast<TVMFFIObjectHandle*>(address);
        *reinterpret_cast<TVMFFIObjectHandle*>(address) = nullptr;
        if (h != nullptr) TVMFFIObjectDecRef(h);
        break;
      }
      case Storage::kPOD:
        break;
    }
  }
}

void Deleter(void* self, int flags) {
  TVMFFIObject* header = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(header->type_index);
    if (info != nullptr) ReleaseFields(static_cast<char*>(self), info);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

// A zeroed instance (every Any None, every object NULL), one strong reference.
ObjectRef Allocate(int32_t type_index, int32_t total_size) {
  void* memory = std::calloc(1, static_cast<size_t>(total_size));
  if (memory == nullptr) {
    TVM_FFI_IMPL_THROW(MemoryError) << "cannot allocate " << total_size << " bytes for type `"
                              << KeyOf(type_index) << "`";
  }
  TVMFFIObject* header = static_cast<TVMFFIObject*>(memory);
  header->combined_ref_count = 1 | (uint64_t{1} << 32);
  header->type_index = type_index;
  TVM_FFI_OBJECT_DELETER(header) = &Deleter;
  return ObjectRef(ObjectPtr<Object>::AdoptHandle(header));
}

ObjectRef ShallowCopy(int32_t type_index, int32_t total_size, const ObjectRef& src) {
  if (src.type_index() != type_index) {
    TVM_FFI_IMPL_THROW(TypeError) << "__ffi_shallow_copy__ of `" << KeyOf(type_index) << "`: expected `"
                            << KeyOf(type_index) << "`, got "
                            << TypeIndexToDisplayName(src.type_index());
  }
  ObjectRef copy = Allocate(type_index, total_size);
  const char* from = reinterpret_cast<const char*>(src.handle());
  char* to = reinterpret_cast<char*>(copy.handle());
  for (const TVMFFIFieldInfo* f : reflection_detail::AllFields(TVMFFIGetTypeInfo(type_index))) {
    const char* s = from + f->offset;
    char* d = to + f->offset;
    switch (StorageOf(f)) {
      case Storage::kAny:
        *reinterpret_cast<TVMFFIAny*>(d) =
            Any(AnyView::FromRaw(*reinterpret_cast<const TVMFFIAny*>(s))).Release();
        break;
      case Storage::kObject: {
        TVMFFIObjectHandle h = *reinterpret_cast<const TVMFFIObjectHandle*>(s);
        if (h != nullptr) TVMFFIObjectIncRef(h);
        *reinterpret_cast<TVMFFIObjectHandle*>(d) = h;
        break;
      }
      case Storage::kPOD:
        std::memcpy(d, s, static_cast<size_t>(f->size));
        break;
    }
  }
  return copy;
}

void RegisterAttr(int32_t type_index, const char* name, const Any& value) {
  TVMFFIByteArray n = {name, std::strlen(name)};
  if (TVMFFITypeRegisterAttr(type_index, &n, value.raw()) != 0) ThrowRaised(-1);
}

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.MakeFieldGetter",
                       [](int32_t field_type_index) { return FieldGetter(field_type_index); });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.MakeFieldSetter",
                       [](int32_t field_type_index, int64_t type_converter, int64_t f_convert) {
                         return FieldSetter(field_type_index, type_converter, f_convert);
                       });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi._RegisterFFIInit", [](int32_t type_index) { RegisterInit(type_index); });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi._PyClassRegisterTypeAttrColumns",
                       [](int32_t type_index, int32_t total_size) {
                         RegisterTypeAttrColumns(type_index, total_size);
                       });

}  // namespace

int64_t FieldGetter(int32_t field_type_index) {
  TVMFFIFieldGetter getter = nullptr;
  switch (field_type_index) {
    case kTVMFFIInt:
      getter = &reflection_detail::GetField<int64_t>;
      break;
    case kTVMFFIFloat:
      getter = &reflection_detail::GetField<double>;
      break;
    case kTVMFFIBool:
      getter = &reflection_detail::GetField<bool>;
      break;
    case kTVMFFIOpaquePtr:
      getter = &reflection_detail::GetField<void*>;
      break;
    case kTVMFFIDataType:
      getter = &reflection_detail::GetField<DLDataType>;
      break;
    case kTVMFFIDevice:
      getter = &reflection_detail::GetField<DLDevice>;
      break;
    default:
      if (field_type_index == kTVMFFIAny || field_type_index == kTVMFFINone) {
        getter = &reflection_detail::GetField<Any>;
      } else if (field_type_index >= kTVMFFIStaticObjectBegin) {
        getter = &reflection_detail::GetField<ObjectRef>;
      } else {
        TVM_FFI_IMPL_THROW(ValueError) << "ffi.MakeFieldGetter: unsupported field type index "
                                 << field_type_index;
      }
  }
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(getter));
}

Function FieldSetter(int32_t field_type_index, int64_t type_converter, int64_t f_convert) {
  using Convert = int (*)(void*, const TVMFFIAny*, TVMFFIAny*);
  if (f_convert == 0) TVM_FFI_IMPL_THROW(ValueError) << "ffi.MakeFieldSetter: f_convert is NULL";
  void* converter = reinterpret_cast<void*>(static_cast<intptr_t>(type_converter));
  Convert convert = reinterpret_cast<Convert>(static_cast<intptr_t>(f_convert));
  return Function::FromPacked([field_type_index, converter, convert](
                                  const AnyView* args, int32_t num_args, Any*) {
    if (num_args != 2) {
      TVM_FFI_IMPL_THROW(TypeError) << "field setter: expected 2 arguments (address, value), got "
                              << num_args;
    }
    void* address = args[0].As<void*>();
    TVMFFIAny out;
    AnyZero(&out);
    if (convert(converter, args[1].raw(), &out) != 0) ThrowRaised(-1);
    Store(address, field_type_index, Any::Adopt(out));
  });
}

void RegisterInit(int32_t type_index) {
  KeyOf(type_index);  // ValueError for an unknown index
  RegisterAttr(type_index, "__ffi_init__", Any(MakeAutoInit(type_index)));
}

void RegisterTypeAttrColumns(int32_t type_index, int32_t total_size) {
  if (total_size < static_cast<int32_t>(sizeof(TVMFFIObject))) {
    TVM_FFI_IMPL_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: total_size " << total_size
                             << " is smaller than the object header";
  }
  RegisterInit(type_index);
  RegisterAttr(type_index, "__ffi_new__",
               Any(Function::FromTyped([type_index, total_size]() {
                 return Allocate(type_index, total_size);
               })));
  RegisterAttr(type_index, "__ffi_shallow_copy__",
               Any(Function::FromTyped([type_index, total_size](ObjectRef src) {
                 return ShallowCopy(type_index, total_size, src);
               })));
}

}  // namespace py_class
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

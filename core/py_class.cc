// Upstream's Python-defined class protocol (see py_class.h).
#include "py_class.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "global_def.h"
#include "object_internal.h"
#include "reflection_visit.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
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

std::string KeyOf(int32_t type_index) { return TypeKeyOf(TypeInfoOrThrow(type_index)); }

const TVMFFIAny* RawOf(const AnyView& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }
const TVMFFIAny* RawOf(const Any& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }

// TypeError "expected <T>, got <actual>".
[[noreturn]] void ThrowMismatch(const char* expected, int32_t actual) {
  TVM_FFI_THROW(TypeError) << "expected " << expected << ", got "
                           << TypeIndexToDisplayName(actual);
  TVM_FFI_UNREACHABLE();
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
    *slot = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)).v_obj;
  } else if (GetStringView(RawOf(value), &data, &size, &is_bytes)) {
    *slot = MakeHeapStringObject(data, size, is_bytes);
  } else {
    TVM_FFI_THROW(TypeError) << "expected an object, got "
                             << TypeIndexToDisplayName(value.type_index());
  }
  if (old != nullptr) TVMFFIObjectDecRef(old);
}

// The plain-value fields: how a value converts to the stored C type (the
// conversions of the library's typed arguments), and back.
int64_t ToInt(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIInt || v.type_index == kTVMFFIBool) return v.v_int64;
  ThrowMismatch("int", v.type_index);
}

double ToFloat(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIFloat) return v.v_float64;
  if (v.type_index == kTVMFFIInt || v.type_index == kTVMFFIBool) {
    return static_cast<double>(v.v_int64);
  }
  ThrowMismatch("float", v.type_index);
}

bool ToBool(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIBool || v.type_index == kTVMFFIInt) return v.v_int64 != 0;
  ThrowMismatch("bool", v.type_index);
}

void* ToOpaquePtr(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIOpaquePtr) return v.v_ptr;
  if (v.type_index == kTVMFFINone) return nullptr;
  ThrowMismatch("void*", v.type_index);
}

// A dtype, or its name ("float32").
DLDataType ToDataType(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIDataType) return v.v_dtype;
  const char* data;
  size_t size;
  bool is_bytes;
  if (GetStringView(&v, &data, &size, &is_bytes) && !is_bytes) {
    TVMFFIByteArray text{data, size};
    DLDataType out;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&text, &out));
    return out;
  }
  ThrowMismatch("DataType", v.type_index);
}

DLDevice ToDevice(const TVMFFIAny& v) {
  if (v.type_index == kTVMFFIDevice) return v.v_device;
  ThrowMismatch("Device", v.type_index);
}

void Store(void* address, int32_t field_type_index, Any value) {
  const TVMFFIAny& v = *RawOf(value);
  switch (field_type_index) {
    case kTVMFFIInt:
      *static_cast<int64_t*>(address) = ToInt(v);
      return;
    case kTVMFFIFloat:
      *static_cast<double*>(address) = ToFloat(v);
      return;
    case kTVMFFIBool:
      *static_cast<bool*>(address) = ToBool(v);
      return;
    case kTVMFFIOpaquePtr:
      *static_cast<void**>(address) = ToOpaquePtr(v);
      return;
    case kTVMFFIDataType:
      *static_cast<DLDataType*>(address) = ToDataType(v);
      return;
    case kTVMFFIDevice:
      *static_cast<DLDevice*>(address) = ToDevice(v);
      return;
    default:
      break;
  }
  if (field_type_index == kTVMFFIAny || field_type_index == kTVMFFINone) {
    *static_cast<Any*>(address) = std::move(value);
  } else if (field_type_index >= kTVMFFIStaticObjectBegin) {
    StoreObject(address, std::move(value));
  } else {
    TVM_FFI_THROW(ValueError) << "unsupported field type index for a setter: "
                              << field_type_index;
  }
}

// The TVMFFIFieldGetters: an owning copy of the field.
void ClearRaw(TVMFFIAny* out, int32_t type_index) {
  std::memset(out, 0, sizeof(*out));
  out->type_index = type_index;
}

int GetInt(void* field, TVMFFIAny* result) {
  ClearRaw(result, kTVMFFIInt);
  result->v_int64 = *static_cast<const int64_t*>(field);
  return 0;
}

int GetFloat(void* field, TVMFFIAny* result) {
  ClearRaw(result, kTVMFFIFloat);
  result->v_float64 = *static_cast<const double*>(field);
  return 0;
}

int GetBool(void* field, TVMFFIAny* result) {
  ClearRaw(result, kTVMFFIBool);
  result->v_int64 = *static_cast<const bool*>(field) ? 1 : 0;
  return 0;
}

int GetOpaquePtr(void* field, TVMFFIAny* result) {
  void* p = *static_cast<void* const*>(field);
  ClearRaw(result, p == nullptr ? kTVMFFINone : kTVMFFIOpaquePtr);
  result->v_ptr = p;
  return 0;
}

int GetDataType(void* field, TVMFFIAny* result) {
  ClearRaw(result, kTVMFFIDataType);
  result->v_dtype = *static_cast<const DLDataType*>(field);
  return 0;
}

int GetDevice(void* field, TVMFFIAny* result) {
  ClearRaw(result, kTVMFFIDevice);
  result->v_device = *static_cast<const DLDevice*>(field);
  return 0;
}

int GetAny(void* field, TVMFFIAny* result) {
  Any copy(*static_cast<const Any*>(field));
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(copy));
  return 0;
}

int GetObject(void* field, TVMFFIAny* result) {
  TVMFFIObject* obj = *static_cast<TVMFFIObject* const*>(field);
  if (obj == nullptr) {
    ClearRaw(result, kTVMFFINone);
    return 0;
  }
  TVMFFIObjectIncRef(obj);
  ClearRaw(result, obj->type_index);
  result->v_obj = obj;
  return 0;
}

void ReleaseFields(char* base, const TVMFFITypeInfo* info) {
  for (const TVMFFIFieldInfo* f : AllFields(info)) {
    char* address = base + f->offset;
    switch (StorageOf(f)) {
      case Storage::kAny: {
        TVMFFIAny* slot = reinterpret_cast<TVMFFIAny*>(address);
        AnyUnsafe::MoveTVMFFIAnyToAny(slot);  // released here, the slot left None
        break;
      }
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
    TVM_FFI_THROW(MemoryError) << "cannot allocate " << total_size << " bytes for type `"
                               << KeyOf(type_index) << "`";
  }
  TVMFFIObject* header = static_cast<TVMFFIObject*>(memory);
  InitObjectHeader(header, type_index, Deleter);
  return ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      ObjectUnsafe::ObjectPtrFromOwned<Object>(header));
}

ObjectRef ShallowCopy(int32_t type_index, int32_t total_size, const ObjectRef& src) {
  int32_t src_index = src.defined() ? src->type_index() : static_cast<int32_t>(kTVMFFINone);
  if (src_index != type_index) {
    TVM_FFI_THROW(TypeError) << "__ffi_shallow_copy__ of `" << KeyOf(type_index)
                             << "`: expected `" << KeyOf(type_index) << "`, got "
                             << TypeIndexToDisplayName(src_index);
  }
  ObjectRef copy = Allocate(type_index, total_size);
  const char* from = reinterpret_cast<const char*>(src.get());
  char* to = reinterpret_cast<char*>(const_cast<Object*>(copy.get()));
  for (const TVMFFIFieldInfo* f : AllFields(TVMFFIGetTypeInfo(type_index))) {
    const char* s = from + f->offset;
    char* d = to + f->offset;
    switch (StorageOf(f)) {
      case Storage::kAny:
        new (d) Any(*reinterpret_cast<const Any*>(s));
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
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &n, RawOf(value)));
}

// The KWARGS sentinel object (ffi.GetKwargsObject), kept for the process.
TVMFFIObjectHandle KwargsSentinel() {
  static TVMFFIObjectHandle h = [] {
    Any made = Function::GetGlobalRequired("ffi.GetKwargsObject")();
    if (made.type_index() != kTVMFFIObject) {
      TVM_FFI_THROW(InternalError) << "`ffi.GetKwargsObject` did not return an ffi.Object";
    }
    return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(made)).v_obj;  // never released
  }();
  return h;
}

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.MakeFieldGetter", [](int32_t field_type_index) {
  return FieldGetter(field_type_index);
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.MakeFieldSetter",
                             [](int32_t field_type_index, int64_t type_converter,
                                int64_t f_convert) {
                               return FieldSetter(field_type_index, type_converter, f_convert);
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi._RegisterFFIInit",
                             [](int32_t type_index) { RegisterInit(type_index); });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi._PyClassRegisterTypeAttrColumns",
                             [](int32_t type_index, int32_t total_size) {
                               RegisterTypeAttrColumns(type_index, total_size);
                             });

}  // namespace

TVMFFIObjectHandle MakeHeapStringObject(const char* data, size_t size, bool is_bytes) {
  std::string text(data, size);
  if (is_bytes) {
    return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
        make_object<BytesObjStdImpl<BytesObj>>(std::move(text)));
  }
  return ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
      make_object<BytesObjStdImpl<StringObj>>(std::move(text)));
}

int64_t FieldGetter(int32_t field_type_index) {
  TVMFFIFieldGetter getter = nullptr;
  switch (field_type_index) {
    case kTVMFFIInt:
      getter = &GetInt;
      break;
    case kTVMFFIFloat:
      getter = &GetFloat;
      break;
    case kTVMFFIBool:
      getter = &GetBool;
      break;
    case kTVMFFIOpaquePtr:
      getter = &GetOpaquePtr;
      break;
    case kTVMFFIDataType:
      getter = &GetDataType;
      break;
    case kTVMFFIDevice:
      getter = &GetDevice;
      break;
    default:
      if (field_type_index == kTVMFFIAny || field_type_index == kTVMFFINone) {
        getter = &GetAny;
      } else if (field_type_index >= kTVMFFIStaticObjectBegin) {
        getter = &GetObject;
      } else {
        TVM_FFI_THROW(ValueError) << "ffi.MakeFieldGetter: unsupported field type index "
                                  << field_type_index;
      }
  }
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(getter));
}

Function FieldSetter(int32_t field_type_index, int64_t type_converter, int64_t f_convert) {
  using Convert = int (*)(void*, const TVMFFIAny*, TVMFFIAny*);
  if (f_convert == 0) TVM_FFI_THROW(ValueError) << "ffi.MakeFieldSetter: f_convert is NULL";
  void* converter = reinterpret_cast<void*>(static_cast<intptr_t>(type_converter));
  Convert convert = reinterpret_cast<Convert>(static_cast<intptr_t>(f_convert));
  return Function::FromPacked([field_type_index, converter, convert](
                                  const AnyView* args, int32_t num_args, Any*) {
    if (num_args != 2) {
      TVM_FFI_THROW(TypeError) << "field setter: expected 2 arguments (address, value), got "
                               << num_args;
    }
    void* address = ToOpaquePtr(*RawOf(args[0]));
    TVMFFIAny out;
    ClearRaw(&out, kTVMFFINone);
    TVM_FFI_CHECK_SAFE_CALL(convert(converter, RawOf(args[1]), &out));
    Store(address, field_type_index, AnyUnsafe::MoveTVMFFIAnyRawToAny(out));
  });
}

Function MakeAutoInit(int32_t type_index) {
  return Function::FromPacked([type_index](const AnyView* args, int32_t num_args, Any* rv) {
    const TVMFFITypeInfo* info = TypeInfoOrThrow(type_index);
    const std::string key = TypeKeyOf(info);
    const std::string context = "__ffi_init__ of `" + key + "`: ";
    std::vector<const TVMFFIFieldInfo*> fields = AllFields(info);
    std::vector<const TVMFFIAny*> values(fields.size(), nullptr);
    auto is_param = [](const TVMFFIFieldInfo* f) {
      return !(f->flags & kTVMFFIFieldFlagBitMaskInitOff);
    };
    auto is_positional = [&](const TVMFFIFieldInfo* f) {
      return is_param(f) && !(f->flags & kTVMFFIFieldFlagBitMaskKwOnly);
    };
    auto has_default = [](const TVMFFIFieldInfo* f) {
      return (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
    };

    int32_t num_positional = num_args;
    for (int32_t i = 0; i < num_args; ++i) {
      if (args[i].type_index() == kTVMFFIObject && RawOf(args[i])->v_obj == KwargsSentinel()) {
        num_positional = i;
        break;
      }
    }
    // Positional slots: required fields, then those with a default.
    std::vector<size_t> slots;
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < fields.size(); ++k) {
        if (is_positional(fields[k]) && has_default(fields[k]) == (pass == 1)) slots.push_back(k);
      }
    }
    if (static_cast<size_t>(num_positional) > slots.size()) {
      TVM_FFI_THROW(TypeError) << context << "takes " << slots.size()
                               << " positional arguments but " << num_positional
                               << " were given";
    }
    for (int32_t i = 0; i < num_positional; ++i) values[slots[i]] = RawOf(args[i]);
    int32_t kw_begin = num_positional + 1;
    if (kw_begin < num_args && (num_args - kw_begin) % 2 != 0) {
      TVM_FFI_THROW(TypeError) << context << "keyword arguments must be name/value pairs";
    }
    for (int32_t i = kw_begin; i + 1 < num_args; i += 2) {
      const char* data;
      size_t size;
      bool is_bytes;
      bool is_str = GetStringView(RawOf(args[i]), &data, &size, &is_bytes) && !is_bytes;
      if (!is_str) {
        ThrowMismatch("str", args[i].type_index());
      }
      std::string name(data, size);
      size_t k = 0;
      while (k < fields.size() && !(is_param(fields[k]) && FieldName(fields[k]) == name)) ++k;
      if (k == fields.size()) {
        TVM_FFI_THROW(TypeError) << context << "unexpected keyword argument `" << name << "`";
      }
      if (values[k] != nullptr) {
        TVM_FFI_THROW(TypeError) << context << "multiple values for argument `" << name << "`";
      }
      values[k] = RawOf(args[i + 1]);
    }
    for (size_t k = 0; k < fields.size(); ++k) {
      if (values[k] == nullptr && is_param(fields[k]) && !has_default(fields[k])) {
        // Upstream's wording (its tests look for "missing required").
        TVM_FFI_THROW(TypeError) << key << ".__ffi_init__() missing required "
                                 << (is_positional(fields[k]) ? "" : "keyword-only ")
                                 << "argument: '" << FieldName(fields[k]) << "'";
      }
    }

    TVMFFIObjectHandle handle = CreateEmptyInstance(info);
    if (handle == nullptr) TVM_FFI_THROW(TypeError) << context << "the type has no creator";
    ObjectRef obj = ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
        ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
    for (size_t k = 0; k < fields.size(); ++k) {
      const TVMFFIFieldInfo* f = fields[k];
      Any produced;
      const TVMFFIAny* value = values[k];
      if (value == nullptr && !has_default(f)) continue;
      if (value == nullptr && (f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory)) {
        const TVMFFIAny& factory = f->default_value_or_factory;
        if (factory.type_index != kTVMFFIFunction) {
          ThrowMismatch("ffi.Function", factory.type_index);
        }
        produced = AnyView::CopyFromTVMFFIAny(factory).cast<Function>()();
        value = RawOf(produced);
      } else if (value == nullptr) {
        value = &f->default_value_or_factory;
      }
      try {
        AssignField(handle, f, *value);
      } catch (const Error& e) {
        throw Error(e.kind(), context + "argument `" + FieldName(f) + "`: " + e.message(),
                    e.backtrace());
      }
    }
    *rv = std::move(obj);
  });
}

void RegisterInit(int32_t type_index) {
  KeyOf(type_index);  // the registry's error for an unknown index
  RegisterAttr(type_index, "__ffi_init__", Any(MakeAutoInit(type_index)));
}

void RegisterTypeAttrColumns(int32_t type_index, int32_t total_size) {
  if (total_size < static_cast<int32_t>(sizeof(TVMFFIObject))) {
    TVM_FFI_THROW(ValueError) << "ffi._PyClassRegisterTypeAttrColumns: total_size " << total_size
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
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

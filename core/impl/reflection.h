// Reflection: registering a C++ object class with the type registry.
//
// Fields, methods and constructor go through the C ABI.  Header-only.
//
//   using Point = ObjectRefOf<PointObj>;
//   ObjectDef<PointObj>("A 2-D point.")
//       .Field("x", &PointObj::x, "abscissa")
//       .Field("y", &PointObj::y, "ordinate", Any(0.0))  // with a default
//       .ReadOnlyField("id", &PointObj::id)
//       .Method("norm2", [](const Point& p) { return p->x * p->x + p->y * p->y; })
//       .Method("scale", &PointObj::Scale)          // member function: self is the object
//       .StaticMethod("origin", []() { return Point(MakeObject<PointObj>()); })
//       .Init<double, double>();                    // __ffi_init__(x, y)
//
// or `.AutoInit()`: an __ffi_init__ built from the reflected fields (see
// MakeAutoInit below), taking positional and keyword arguments.
#ifndef TVM_FFI_CORE_IMPL_REFLECTION_H_
#define TVM_FFI_CORE_IMPL_REFLECTION_H_

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "any.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "sentinel.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// A reference to an object of exactly-or-derived type T; used as `self` of
// member-function methods and as the result of Init<Args...>().
template <typename T>
class ObjectRefOf : public ObjectRef {
 public:
  using ContainerType = T;
  // Null (None): for a nullable field (ObjectDef::NullableRefField).
  ObjectRefOf() = default;
  explicit ObjectRefOf(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}
  explicit ObjectRefOf(ObjectPtr<T> p) : ObjectRef(ObjectPtr<Object>(std::move(p))) {}
  T* get() const { return static_cast<T*>(get_mutable()); }
  T* operator->() const { return get(); }
};

namespace reflection_detail {

// The field_static_type_index hint of a C++ field type (-1 = Any, also for
// strings and bytes, which may be small or heap).
template <typename F>
int32_t StaticTypeIndexOf() {
  if constexpr (std::is_same<F, bool>::value) {
    return kTVMFFIBool;
  } else if constexpr (std::is_integral<F>::value) {
    return kTVMFFIInt;
  } else if constexpr (std::is_floating_point<F>::value) {
    return kTVMFFIFloat;
  } else if constexpr (std::is_same<F, DLDataType>::value) {
    return kTVMFFIDataType;
  } else if constexpr (std::is_same<F, DLDevice>::value) {
    return kTVMFFIDevice;
  } else if constexpr (std::is_same<F, void*>::value) {
    return kTVMFFIOpaquePtr;
  } else if constexpr (std::is_base_of<ObjectRef, F>::value && !std::is_same<F, String>::value &&
                       !std::is_same<F, Bytes>::value) {
    return F::ContainerType::RuntimeTypeIndex();
  } else {
    return kTVMFFIAny;
  }
}

// TVMFFIFieldGetter: writes an owning copy of the field.
template <typename F>
int GetField(void* field, TVMFFIAny* result) {
  try {
    Any value(*static_cast<const F*>(field));
    *result = value.Release();
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

// TVMFFIFieldSetter: converts the view; TypeError "expected <T>, got <U>".
template <typename F>
int SetField(void* field, const TVMFFIAny* value) {
  try {
    std::optional<F> converted = TypeTraits<F>::TryCast(value);
    if (!converted.has_value()) ThrowTypeMismatch(TypeTraits<F>::TypeStr(), value, "");
    *static_cast<F*>(field) = std::move(*converted);
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

// TVMFFIFieldSetter of a nullable reference field (an ObjectRef or
// ObjectRefOf<X>: one pointer, null for None), the layout of upstream's
// Optional<ObjectRef> fields: None, or a value the reference type accepts.
template <typename Ref>
int SetNullableRef(void* field, const TVMFFIAny* value) {
  try {
    Ref* slot = static_cast<Ref*>(field);
    if (value->type_index == kTVMFFINone) {
      *slot = Ref();
      return 0;
    }
    std::optional<Ref> ref = TypeTraits<Ref>::TryCast(value);
    if (!ref.has_value()) {
      ThrowTypeMismatch("Optional[" + TypeTraits<Ref>::TypeStr() + "]", value, "");
    }
    *slot = std::move(*ref);
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

// Byte offset of `member` from the object header of a T.
template <typename T, typename C, typename F>
int64_t FieldOffset(F C::*member) {
  alignas(T) unsigned char storage[sizeof(T)];
  const T* obj = reinterpret_cast<const T*>(storage);
  const C* owner = obj;
  return reinterpret_cast<const char*>(&(owner->*member)) -
         reinterpret_cast<const char*>(static_cast<const Object*>(obj));
}

template <typename T>
int CreateDefault(TVMFFIObjectHandle* result) {
  try {
    *result = static_cast<Object*>(MakeObject<T>().release())->handle();
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

inline void Check(int rc) {
  if (rc != 0) ThrowRaised(rc);
}

// A zeroed TVMFFIFieldInfo or TVMFFIMethodInfo with its name, doc and flags
// set (borrowing `name` and `doc`).
template <typename Info>
Info MakeMemberInfo(const char* name, const std::string& doc, int64_t flags) {
  Info info;
  std::memset(&info, 0, sizeof(info));
  info.name.data = name;
  info.name.size = std::strlen(name);
  info.doc = ToByteArray(doc);
  info.flags = flags;
  return info;
}

// The fields of the ancestors (outermost first), then the type's own.
inline std::vector<const TVMFFIFieldInfo*> AllFields(const TVMFFITypeInfo* info) {
  std::vector<const TVMFFIFieldInfo*> out;
  // Another thread may be registering fields: the count first, then the
  // array, with acquire order (the registry publishes them in the other order).
  auto add = [&out](const TVMFFITypeInfo* t) {
    int32_t n = __atomic_load_n(&t->num_fields, __ATOMIC_ACQUIRE);
    const TVMFFIFieldInfo* fields = __atomic_load_n(&t->fields, __ATOMIC_ACQUIRE);
    for (int32_t i = 0; i < n; ++i) out.push_back(&fields[i]);
  };
  for (int32_t d = 0; d < info->type_depth; ++d) add(info->type_ancestors[d]);
  add(info);
  return out;
}

// Assigns through the field's setter (a C function or a Function object).
inline void AssignField(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f,
                        const TVMFFIAny& value) {
  void* address = static_cast<char*>(obj) + f->offset;
  if (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    AnyView args[2] = {AnyView(address), AnyView::FromRaw(value)};
    Function(ObjectPtr<Object>::BorrowHandle(f->setter)).CallPacked(args, 2);
  } else if (f->setter != nullptr) {
    Check(reinterpret_cast<TVMFFIFieldSetter>(f->setter)(address, &value));
  } else {
    TVM_FFI_IMPL_THROW(TypeError) << "field `" << std::string(f->name.data, f->name.size)
                            << "` has no setter";
  }
}

// A new instance of `info`'s type with every field zero or empty, as an
// owning handle: from the metadata's creator, else from the `__ffi_new__`
// type attribute (a 0-argument Function; types defined at run time, e.g.
// by ffi.DataclassDefine, have no C creator).  nullptr when the type has
// neither; a failing creator throws.
inline TVMFFIObjectHandle CreateEmptyInstance(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    Check(info->metadata->creator(&handle));
    return handle;
  }
  static const TVMFFIByteArray kName = {"__ffi_new__", 11};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kName);
  if (col == nullptr) return nullptr;
  int32_t i = info->type_index - col->begin_index;
  if (i < 0 || i >= col->size || col->data[i].type_index != kTVMFFIFunction) return nullptr;
  Any made = Function(ObjectPtr<Object>::BorrowHandle(col->data[i].v_obj)).CallPacked(nullptr, 0);
  if (made.type_index() != info->type_index) {
    TVM_FFI_IMPL_THROW(TypeError) << "__ffi_new__ of `"
                            << std::string(info->type_key.data, info->type_key.size)
                            << "` returned " << TypeIndexToDisplayName(made.type_index())
                            << ", not an instance of the type";
  }
  TVMFFIAny raw = made.Release();
  return raw.v_obj;
}

// Why instances of `info`'s type cannot be copied, when its
// `__ffi_shallow_copy__` type attribute holds a string saying so (ObjectDef
// of a class that is not copy-constructible); empty when nothing refuses.
inline std::string CopyRefusal(const TVMFFITypeInfo* info) {
  static const TVMFFIByteArray kName = {"__ffi_shallow_copy__", 20};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kName);
  if (col == nullptr) return std::string();
  int32_t i = info->type_index - col->begin_index;
  if (i < 0 || i >= col->size) return std::string();
  const TVMFFIAny& v = col->data[i];
  if (v.type_index != kTVMFFIStr && v.type_index != kTVMFFISmallStr) return std::string();
  return AnyView::FromRaw(v).As<std::string>();
}

// AssignField for copies into a fresh instance: a None value is not assigned
// when the field already reads None there (so a copy keeps an unset object
// field of a run-time-defined type, whose setter refuses None when the
// field is not nullable).
inline void CopyFieldInto(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f,
                          const TVMFFIAny& value) {
  if (value.type_index == kTVMFFINone && f->getter != nullptr) {
    TVMFFIAny current;
    AnyZero(&current);
    Check(f->getter(static_cast<char*>(obj) + f->offset, &current));
    bool already_none = current.type_index == kTVMFFINone;
    AnyRelease(&current);
    if (already_none) return;
  }
  AssignField(obj, f, value);
}

}  // namespace reflection_detail

// An __ffi_init__ built from the reflected fields of `type_index` (read at
// call time, through the C ABI).  It creates a default instance
// (reflection_detail::CreateEmptyInstance), then sets each field from, in
// order: the positional arguments, the keyword arguments (after the KWARGS
// sentinel: name, value, name, value...), or the field's default (calling
// the factory when DefaultFromFactory).  The positional parameters are the
// fields not marked KwOnly, those without a default first, each group in
// field order (ancestors' fields first): `parent_required, child_required,
// parent_default` (so a default declared before a required field is never
// filled by position ahead of it).  A field with none of these is a
// TypeError (upstream's ``<type_key>.__ffi_init__() missing required
// argument: 'x'``, or ``... missing required keyword-only argument: 'x'``),
// as are unknown or repeated names.  InitOff fields are no parameters: they
// get their default, if any.
inline Function MakeAutoInit(int32_t type_index) {
  return Function::FromPacked([type_index](const AnyView* args, int32_t num_args, Any* rv) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    if (info == nullptr) ThrowRaised(-1);
    std::string context =
        "__ffi_init__ of `" + std::string(info->type_key.data, info->type_key.size) + "`: ";
    std::vector<const TVMFFIFieldInfo*> fields = reflection_detail::AllFields(info);
    std::vector<const TVMFFIAny*> values(fields.size(), nullptr);
    auto field_name = [](const TVMFFIFieldInfo* f) {
      return std::string(f->name.data, f->name.size);
    };
    auto is_param = [](const TVMFFIFieldInfo* f) {
      return !(f->flags & kTVMFFIFieldFlagBitMaskInitOff);
    };
    auto is_positional = [&](const TVMFFIFieldInfo* f) {
      return is_param(f) && !(f->flags & kTVMFFIFieldFlagBitMaskKwOnly);
    };

    int32_t num_positional = num_args;
    for (int32_t i = 0; i < num_args; ++i) {
      if (args[i].type_index() == kTVMFFIObject && args[i].raw()->v_obj == KwargsSentinel()) {
        num_positional = i;
        break;
      }
    }
    auto has_default = [](const TVMFFIFieldInfo* f) {
      return (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
    };
    // Positional slots: required fields, then those with a default.
    std::vector<size_t> slots;
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < fields.size(); ++k) {
        if (is_positional(fields[k]) && has_default(fields[k]) == (pass == 1)) slots.push_back(k);
      }
    }
    if (static_cast<size_t>(num_positional) > slots.size()) {
      TVM_FFI_IMPL_THROW(TypeError) << context << "takes " << slots.size()
                              << " positional arguments but " << num_positional << " were given";
    }
    for (int32_t i = 0; i < num_positional; ++i) values[slots[i]] = args[i].raw();
    int32_t kw_begin = num_positional + 1;
    if (kw_begin < num_args && (num_args - kw_begin) % 2 != 0) {
      TVM_FFI_IMPL_THROW(TypeError) << context << "keyword arguments must be name/value pairs";
    }
    for (int32_t i = kw_begin; i + 1 < num_args; i += 2) {
      std::string name = args[i].As<std::string>();
      size_t k = 0;
      while (k < fields.size() && !(is_param(fields[k]) && field_name(fields[k]) == name)) ++k;
      if (k == fields.size()) {
        TVM_FFI_IMPL_THROW(TypeError) << context << "unexpected keyword argument `" << name << "`";
      }
      if (values[k] != nullptr) {
        TVM_FFI_IMPL_THROW(TypeError) << context << "multiple values for argument `" << name << "`";
      }
      values[k] = args[i + 1].raw();
    }
    for (size_t k = 0; k < fields.size(); ++k) {
      if (values[k] == nullptr && is_param(fields[k]) && !has_default(fields[k])) {
        // Upstream's wording (its tests look for "missing required").
        TVM_FFI_IMPL_THROW(TypeError) << std::string(info->type_key.data, info->type_key.size)
                                << ".__ffi_init__() missing required "
                                << (is_positional(fields[k]) ? "" : "keyword-only ")
                                << "argument: '" << field_name(fields[k]) << "'";
      }
    }

    TVMFFIObjectHandle handle = reflection_detail::CreateEmptyInstance(info);
    if (handle == nullptr) TVM_FFI_IMPL_THROW(TypeError) << context << "the type has no creator";
    ObjectRef obj(ObjectPtr<Object>::AdoptHandle(handle));
    for (size_t k = 0; k < fields.size(); ++k) {
      const TVMFFIFieldInfo* f = fields[k];
      Any produced;
      const TVMFFIAny* value = values[k];
      if (value == nullptr && !(f->flags & kTVMFFIFieldFlagBitMaskHasDefault)) continue;
      if (value == nullptr && (f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory)) {
        produced = AnyView::FromRaw(f->default_value_or_factory).As<Function>()();
        value = produced.raw();
      } else if (value == nullptr) {
        value = &f->default_value_or_factory;
      }
      try {
        reflection_detail::AssignField(obj.handle(), f, *value);
      } catch (const Error& e) {
        throw Error(e.kind(), context + "argument `" + field_name(f) + "`: " + e.message());
      }
    }
    *rv = Any(std::move(obj));
  });
}

// Registers reflection information for T (a class derived from Object with
// kTypeKey and RuntimeTypeIndex()).  Each call registers at once; errors
// (duplicate field, bad type) throw Error.  Use once per type: the
// constructor registers the type's metadata, which may only be set once.
template <typename T>
class ObjectDef {
 public:
  // `seq_hash_kind` (a TVMFFISEqHashKind) says how structural equality and
  // hashing treat the type (core/structural.h); the default,
  // Unsupported, makes them refuse it.
  explicit ObjectDef(const std::string& doc = "",
                     int32_t seq_hash_kind = kTVMFFISEqHashKindUnsupported)
      : type_index_(T::RuntimeTypeIndex()) {
    static_assert(std::is_base_of<Object, T>::value, "T must derive from Object");
    TVMFFITypeMetadata meta;
    std::memset(&meta, 0, sizeof(meta));
    meta.doc = ToByteArray(doc);
    meta.total_size = static_cast<int32_t>(sizeof(T));
    meta.structural_eq_hash_kind = seq_hash_kind;
    if constexpr (std::is_default_constructible<T>::value) {
      meta.creator = &reflection_detail::CreateDefault<T>;
    }
    reflection_detail::Check(TVMFFITypeRegisterMetadata(type_index_, &meta));
    // `__ffi_shallow_copy__`: the copy constructor, as a Function(obj) of an
    // object of exactly this type (the attribute upstream's libraries read).
    // A class that cannot be copied in C++ is not copied field by field
    // either: the attribute holds the reason, and ffi.ShallowCopy and
    // ffi.DeepCopy refuse it (reflection_detail::CopyRefusal).
    if constexpr (std::is_copy_constructible<T>::value) {
      Attr("__ffi_shallow_copy__", Any(Function::FromPacked([](const AnyView* args, int32_t n,
                                                                 Any* rv) {
        if (n != 1 || args[0].type_index() != T::RuntimeTypeIndex()) {
          TVM_FFI_IMPL_THROW(TypeError) << "__ffi_shallow_copy__ of `" << T::kTypeKey
                                  << "` takes one object of that exact type, got "
                                  << (n == 1 ? TypeIndexToDisplayName(args[0].type_index())
                                             : std::to_string(n) + " arguments");
        }
        const T* src = static_cast<const T*>(Object::FromHandle(args[0].raw()->v_obj));
        *rv = Any(ObjectRef(ObjectPtr<Object>(MakeObject<T>(*src))));
      })));
    } else {
      Attr("__ffi_shallow_copy__", Any("its C++ class is not copy-constructible"));
    }
  }

  // A writable field.
  template <typename C, typename F>
  ObjectDef& Field(const char* name, F C::*member, const std::string& doc = "") {
    return AddField(name, member, doc, kTVMFFIFieldFlagBitMaskWritable, nullptr);
  }
  // A writable field with a default value (used by __ffi_init__), plus any
  // extra flags (e.g. kTVMFFIFieldFlagBitMaskKwOnly, ...InitOff, ...ReprOff).
  template <typename C, typename F>
  ObjectDef& Field(const char* name, F C::*member, const std::string& doc,
                   const Any& default_value, int64_t extra_flags = 0) {
    return AddField(name, member, doc,
                    kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                        extra_flags,
                    &default_value);
  }
  // A writable field with extra flags (e.g. kTVMFFIFieldFlagBitMaskSEqHashIgnore,
  // ...SEqHashDefRecursive, ...ReprOff) and no default.
  template <typename C, typename F>
  ObjectDef& FieldWithFlags(const char* name, F C::*member, int64_t flags,
                            const std::string& doc = "") {
    return AddField(name, member, doc, kTVMFFIFieldFlagBitMaskWritable | flags, nullptr);
  }
  // A frozen field: no Writable flag (the setter exists for internal use).
  template <typename C, typename F>
  ObjectDef& ReadOnlyField(const char* name, F C::*member, const std::string& doc = "") {
    return AddField(name, member, doc, 0, nullptr);
  }
  // A frozen field with extra flags (e.g. kTVMFFIFieldFlagBitMaskInitOff).
  template <typename C, typename F>
  ObjectDef& ReadOnlyFieldWithFlags(const char* name, F C::*member, int64_t flags,
                                    const std::string& doc = "") {
    return AddField(name, member, doc, flags, nullptr);
  }

  // A nullable reference field (ObjectRef or ObjectRefOf<X>, null = None):
  // its setter also takes None.  `flags` as given (no Writable unless asked).
  template <typename C, typename F>
  ObjectDef& NullableRefField(const char* name, F C::*member, int64_t flags,
                              const std::string& doc = "") {
    static_assert(std::is_base_of<ObjectRef, F>::value, "a nullable field is an object reference");
    return AddField(name, member, doc, flags, nullptr,
                    reinterpret_cast<void*>(&reflection_detail::SetNullableRef<F>));
  }

  // An instance method: a callable whose first parameter is the object
  // (e.g. `const MyRef&`), or a member function of T.
  template <typename Fn>
  ObjectDef& Method(const char* name, Fn fn, const std::string& doc = "") {
    auto callable = AsCallable(fn);
    std::string metadata = detail::TypedMetadata<decltype(callable)>();
    return AddMethod(name, Function::FromTyped(std::move(callable), QualifiedName(name)), doc, 0,
                     metadata);
  }
  // A static method (no self).
  template <typename Fn>
  ObjectDef& StaticMethod(const char* name, Fn fn, const std::string& doc = "") {
    std::string metadata = detail::TypedMetadata<Fn>();
    return AddMethod(name, Function::FromTyped(std::move(fn), QualifiedName(name)), doc,
                     kTVMFFIFieldFlagBitMaskIsStaticMethod, metadata);
  }

  // __ffi_init__(args...) -> T, built with MakeObject<T>(args...).
  template <typename... Args>
  ObjectDef& Init(const std::string& doc = "") {
    return StaticMethod(
        "__ffi_init__",
        [](Args... args) { return ObjectRefOf<T>(MakeObject<T>(std::move(args)...)); }, doc);
  }
  // __ffi_init__ from a callable returning the new object.
  template <typename Fn, typename = std::enable_if_t<std::is_class<std::decay_t<Fn>>::value>>
  ObjectDef& Init(Fn fn, const std::string& doc = "") {
    return StaticMethod("__ffi_init__", std::move(fn), doc);
  }

  // __ffi_init__ from the reflected fields (MakeAutoInit); T must be
  // default-constructible (the instance is made by the metadata's creator).
  ObjectDef& AutoInit(const std::string& doc = "") {
    static_assert(std::is_default_constructible<T>::value,
                  "AutoInit needs a default-constructible T");
    return AddMethod("__ffi_init__", MakeAutoInit(type_index_), doc,
                     kTVMFFIFieldFlagBitMaskIsStaticMethod);
  }

  // A type attribute (column `name`, entry for T).
  ObjectDef& Attr(const std::string& name, const Any& value) {
    TVMFFIByteArray n = ToByteArray(name);
    reflection_detail::Check(TVMFFITypeRegisterAttr(type_index_, &n, value.raw()));
    return *this;
  }

  int32_t type_index() const { return type_index_; }

 private:
  std::string QualifiedName(const char* name) const {
    return std::string(T::kTypeKey) + "." + name;
  }

  template <typename C, typename F>
  ObjectDef& AddField(const char* name, F C::*member, const std::string& doc, int64_t flags,
                      const Any* default_value, void* setter = nullptr) {
    static_assert(std::is_base_of<C, T>::value, "the member must belong to T or a base of T");
    static_assert(TypeTraits<F>::kEnabled, "the field type has no TypeTraits");
    TVMFFIFieldInfo info = reflection_detail::MakeMemberInfo<TVMFFIFieldInfo>(name, doc, flags);
    info.size = static_cast<int64_t>(sizeof(F));
    info.alignment = static_cast<int64_t>(alignof(F));
    info.offset = reflection_detail::FieldOffset<T>(member);
    info.getter = &reflection_detail::GetField<F>;
    info.setter = setter != nullptr ? setter
                                    : reinterpret_cast<void*>(&reflection_detail::SetField<F>);
    if (default_value != nullptr) info.default_value_or_factory = *default_value->raw();
    info.field_static_type_index = reflection_detail::StaticTypeIndexOf<F>();
    std::string metadata = detail::SchemaMetadata(detail::TypeSchemaOf<F>());
    info.metadata = ToByteArray(metadata);
    reflection_detail::Check(TVMFFITypeRegisterField(type_index_, &info));
    return *this;
  }

  ObjectDef& AddMethod(const char* name, const Function& fn, const std::string& doc,
                       int64_t flags, const std::string& metadata = "") {
    TVMFFIMethodInfo info = reflection_detail::MakeMemberInfo<TVMFFIMethodInfo>(name, doc, flags);
    info.metadata = ToByteArray(metadata);
    info.method.type_index = kTVMFFIFunction;
    info.method.v_obj = static_cast<TVMFFIObject*>(fn.handle());
    reflection_detail::Check(TVMFFITypeRegisterMethod(type_index_, &info));
    return *this;
  }

  // Member functions of T (or its bases) become callables taking self first.
  template <typename R, typename C, typename... Args>
  static auto AsCallable(R (C::*fn)(Args...)) {
    return [fn](ObjectRefOf<T> self, Args... args) -> R {
      return (self.get()->*fn)(std::forward<Args>(args)...);
    };
  }
  template <typename R, typename C, typename... Args>
  static auto AsCallable(R (C::*fn)(Args...) const) {
    return [fn](ObjectRefOf<T> self, Args... args) -> R {
      return (self.get()->*fn)(std::forward<Args>(args)...);
    };
  }
  template <typename Fn>
  static Fn AsCallable(Fn fn) {
    return fn;
  }

  int32_t type_index_;
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_REFLECTION_H_

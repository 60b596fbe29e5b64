/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/registry.h
 * \brief Registering reflection: global functions (GlobalDef), the fields,
 *        methods and constructors of an object type (ObjectDef), and type
 *        attributes (TypeAttrDef), plus the traits that annotate a field or
 *        method (doc text, default values, flags, metadata).
 *
 * Every registration is a C ABI call (TVMFFIFunctionSetGlobalFromMethodInfo,
 * TVMFFITypeRegisterField / Method / Metadata / Attr), so the library and
 * every language binding see it whoever made it.
 *
 * \code{.cpp}
 * namespace refl = tvm::ffi::reflection;
 * TVM_FFI_STATIC_INIT_BLOCK() {
 *   refl::ObjectDef<PointObj>()
 *       .def_ro("x", &PointObj::x, "abscissa")
 *       .def_rw("y", &PointObj::y, refl::default_value(0))
 *       .def("norm2", &PointObj::Norm2);
 *   refl::GlobalDef().def("my.add", [](int a, int b) { return a + b; });
 * }
 * \endcode
 */
#ifndef TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_REFLECTION_REGISTRY_H_

#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

namespace tvm {
namespace ffi {
/*! \brief Reflection: registering and reading type and function information. */
namespace reflection {

/*!
 * \brief The metadata of one field or method as (key, value) pairs, in the
 *        order given; turned into a JSON object when the info is registered.
 */
using _MetadataType = std::vector<std::pair<String, Any>>;  // NOLINT(bugprone-reserved-identifier)

/// \cond Doxygen_Suppress
namespace detail {
// Whether a reference type names its object type as T::ContainerType.
template <typename T, typename = void>
inline constexpr bool has_container_type_v = false;
template <typename T>
inline constexpr bool has_container_type_v<T, std::void_t<typename T::ContainerType>> = true;

// The C info record being filled in (TVMFFIFieldInfo or TVMFFIMethodInfo),
// plus the metadata pairs that will become its `metadata` string.
template <typename CInfo>
struct InfoWithMetadata : public CInfo {
  _MetadataType metadata_;
};
}  // namespace detail
/// \endcond

/*! \brief A field's TVMFFIFieldInfo while ObjectDef fills it in (metadata_ pending). */
struct FieldInfoBuilder : public detail::InfoWithMetadata<TVMFFIFieldInfo> {};
/*! \brief A method's TVMFFIMethodInfo while ObjectDef fills it in (metadata_ pending). */
struct MethodInfoBuilder : public detail::InfoWithMetadata<TVMFFIMethodInfo> {};

/*!
 * \brief Tag base of the optional arguments after a field or method pointer.
 *        A trait supplies `Apply(FieldInfoBuilder*)` and/or
 *        `Apply(MethodInfoBuilder*)`, which change the record before it is
 *        registered.
 */
struct InfoTrait {};

/*!
 * \brief Attaches (key, value) pairs to a field or method.  Each value must
 *        be an int, a bool or a string; any other kind makes the registration
 *        fail with TypeError.
 */
class Metadata : public InfoTrait {
 public:
  /*! \brief Keeps `dict` to be added, pair by pair, when applied. */
  Metadata(std::initializer_list<std::pair<String, Any>> dict) : dict_(dict) {}
  /*! \brief Adds the pairs to a field record. */
  inline void Apply(FieldInfoBuilder* info) const { AppendTo(&info->metadata_); }
  /*! \brief Adds the pairs to a method record. */
  inline void Apply(MethodInfoBuilder* info) const { AppendTo(&info->metadata_); }

 private:
  friend class GlobalDef;
  template <typename T>
  friend class ObjectDef;
  template <typename T>
  friend class OverloadObjectDef;

  void AppendTo(_MetadataType* out) const { out->insert(out->end(), dict_.begin(), dict_.end()); }

  // {"k":v,...}: int and bool literally, strings as JSON strings.
  static std::string ToJSON(const _MetadataType& metadata) {
    std::string text = "{";
    for (size_t i = 0; i < metadata.size(); ++i) {
      const String& key = metadata[i].first;
      const Any& value = metadata[i].second;
      if (i != 0) text += ',';
      text += EscapeStringJSON(key).operator std::string();
      text += ':';
      switch (value.type_index()) {
        case TypeIndex::kTVMFFIBool:
          text += value.cast<bool>() ? "true" : "false";
          break;
        case TypeIndex::kTVMFFIInt:
          text += std::to_string(value.cast<int64_t>());
          break;
        default:
          if (std::optional<String> str = value.as<String>()) {
            text += EscapeStringJSON(*str).operator std::string();
          } else {
            TVM_FFI_THROW(TypeError) << "Metadata can be only int, bool or string, but on key `"
                                     << key << "`, the type is " << value.GetTypeKey();
          }
      }
    }
    text += '}';
    return text;
  }

  std::vector<std::pair<String, Any>> dict_;
};

/// \cond Doxygen_Suppress
namespace detail {

/*! \brief Stores `value` (a view; the trait keeps it alive) as the field's default. */
TVM_FFI_INLINE void SetFieldDefault(TVMFFIFieldInfo* info, AnyView value, int64_t extra_flags) {
  info->flags |= kTVMFFIFieldFlagBitMaskHasDefault | extra_flags;
  info->default_value_or_factory = value.CopyToTVMFFIAny();
}

/*!
 * \brief The shape of the boolean field options (repr, compare, hash,
 *        kw_only): applying one ORs `kMask` into the flags when `on` is true.
 */
template <int64_t kMask>
class FieldFlagWhen : public InfoTrait {
 public:
  /*! \brief Sets the bit on application when `on`. */
  constexpr explicit FieldFlagWhen(bool on) noexcept : on_(on) {}
  /*! \brief ORs the bit in (or does nothing). */
  TVM_FFI_INLINE void Apply(TVMFFIFieldInfo* info) const {
    if (on_) info->flags |= kMask;
  }
  /*! \brief Whether applying sets the bit. */
  constexpr bool flag_set() const noexcept { return on_; }

 private:
  bool on_;
};

}  // namespace detail
/// \endcond

/*!
 * \brief A field default computed per instance by calling a `() -> Any`
 *        factory, so that instances do not share a mutable default such as a
 *        List or a Dict.
 */
class DefaultFactory : public InfoTrait {
 public:
  /*! \brief Keeps `factory` for the registration. */
  explicit DefaultFactory(Function factory) : factory_(std::move(factory)) {}
  /*! \brief Flags the field HasDefault and DefaultFromFactory. */
  TVM_FFI_INLINE void Apply(TVMFFIFieldInfo* info) const {
    detail::SetFieldDefault(info, AnyView(factory_), kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  }

 private:
  Function factory_;
};

/*! \brief A field default: one value that every instance which omits the field gets. */
class DefaultValue : public InfoTrait {
 public:
  /*! \brief Keeps `value` for the registration. */
  explicit DefaultValue(Any value) : value_(std::move(value)) {}
  /*! \brief Flags the field HasDefault. */
  TVM_FFI_INLINE void Apply(TVMFFIFieldInfo* info) const {
    detail::SetFieldDefault(info, AnyView(value_), 0);
  }

 private:
  Any value_;
};

// Python dataclass spellings of the two defaults.

/*! \brief Same as DefaultValue. */
class default_value : public DefaultValue {
  using DefaultValue::DefaultValue;
};
/*! \brief Same as DefaultFactory. */
class default_factory : public DefaultFactory {
  using DefaultFactory::DefaultFactory;
};

/*!
 * \brief ORs a given flag mask into a field's flags; the named factories
 *        cover the structural equality / hashing roles a field can have.
 */
class AttachFieldFlag : public InfoTrait {
 public:
  /*! \brief The trait adding `flag`. */
  explicit AttachFieldFlag(int32_t flag) : flag_(flag) {}
  /*! \brief Applies the mask. */
  TVM_FFI_INLINE void Apply(TVMFFIFieldInfo* info) const { info->flags |= flag_; }

  /*! \brief Structural equality and hashing do not look at the field. */
  TVM_FFI_INLINE static AttachFieldFlag SEqHashIgnore() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  }
  /*!
   * \brief The field is a definition point for its variable only; anything
   *        else inside it (its type, say) is compared as ordinary uses.
   *        Meant for let-like bindings.
   */
  TVM_FFI_INLINE static AttachFieldFlag SEqHashDefSimple() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  }
  /*!
   * \brief The field is matched as a pattern: its variable and the free
   *        variables inside it (shape variables of a parameter's type, say)
   *        are defined where they first occur.
   */
  TVM_FFI_INLINE static AttachFieldFlag SEqHashDefPattern() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  }

 private:
  int32_t flag_;
};

/*! \brief `kw_only(true)`: the generated `__ffi_init__` accepts the field only by keyword. */
class kw_only : public detail::FieldFlagWhen<kTVMFFIFieldFlagBitMaskKwOnly> {
 public:
  /*! \brief Whether the field is keyword-only. */
  explicit kw_only(bool is_kw_only) : FieldFlagWhen(is_kw_only) {}
};

/*! \brief `repr(false)`: the printed form of the object omits the field. */
class repr : public detail::FieldFlagWhen<kTVMFFIFieldFlagBitMaskReprOff> {
 public:
  /*! \brief Whether the field is printed. */
  explicit repr(bool show) : FieldFlagWhen(!show) {}
};

/*! \brief `hash(false)`: RecursiveHash ignores the field. */
class hash : public detail::FieldFlagWhen<kTVMFFIFieldFlagBitMaskHashOff> {
 public:
  /*! \brief Whether the field is hashed. */
  explicit hash(bool include) : FieldFlagWhen(!include) {}
};

/*! \brief `compare(false)`: RecursiveEq and RecursiveLt ignore the field. */
class compare : public detail::FieldFlagWhen<kTVMFFIFieldFlagBitMaskCompareOff> {
 public:
  /*! \brief Whether the field is compared. */
  explicit compare(bool include) : FieldFlagWhen(!include) {}
};

template <typename... Args>
struct init;

/*!
 * \brief The byte offset of a member from the object header (what
 *        TVMFFIFieldInfo::offset holds), for a Class whose Object base need not
 *        come first.
 */
template <typename Class, typename T>
TVM_FFI_INLINE int64_t GetFieldByteOffsetToObject(T Class::* field_ptr) {
  const int64_t from_class =
      reinterpret_cast<int64_t>(&(static_cast<Class*>(nullptr)->*field_ptr));
  return from_class - ::tvm::ffi::detail::ObjectUnsafe::GetObjectOffsetToSubclass<Class>();
}

/// \cond Doxygen_Suppress
/*! \brief What GlobalDef, ObjectDef and TypeAttrDef share. */
class ReflectionDefBase {
 protected:
  // The getter stored in every TVMFFIFieldInfo of a field of C++ type T.
  template <typename T>
  static int FieldGetter(void* field, TVMFFIAny* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    Any value(*static_cast<const T*>(field));
    *result = ::tvm::ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
    TVM_FFI_SAFE_CALL_END();
  }

  // The setter: converts the view to T (TypeError on mismatch) and assigns.
  template <typename T>
  static int FieldSetter(void* field, const TVMFFIAny* value) {
    TVM_FFI_SAFE_CALL_BEGIN();
    AnyView view = AnyView::CopyFromTVMFFIAny(*value);
    if constexpr (std::is_same_v<T, Any>) {
      *static_cast<T*>(field) = Any(view);
    } else {
      *static_cast<T*>(field) = view.cast<T>();
    }
    TVM_FFI_SAFE_CALL_END();
  }

  // metadata->creator of a default-constructible class.
  template <typename T>
  static int ObjectCreatorDefault(TVMFFIObjectHandle* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    *result = ::tvm::ffi::detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<T>());
    TVM_FFI_SAFE_CALL_END();
  }

  // metadata->creator of a class with a T(UnsafeInit) constructor.
  template <typename T>
  static int ObjectCreatorUnsafeInit(TVMFFIObjectHandle* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    *result = ::tvm::ffi::detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(
        make_object<T>(UnsafeInit{}));
    TVM_FFI_SAFE_CALL_END();
  }

  // A string literal (or other C string) among the extras is the doc text.
  template <typename T>
  static constexpr bool kIsDocText =
      std::is_convertible_v<const T&, const char*> && !std::is_base_of_v<InfoTrait, T>;

  template <typename T>
  TVM_FFI_INLINE static void ApplyFieldInfoTrait(FieldInfoBuilder* info, const T& extra) {
    if constexpr (std::is_base_of_v<InfoTrait, T>) {
      extra.Apply(info);
    } else if constexpr (kIsDocText<T>) {
      info->doc = AsDoc(extra);
    }
  }

  template <typename T>
  TVM_FFI_INLINE static void ApplyMethodInfoTrait(MethodInfoBuilder* info, const T& extra) {
    if constexpr (std::is_base_of_v<InfoTrait, T>) {
      extra.Apply(info);
    } else if constexpr (kIsDocText<T>) {
      info->doc = AsDoc(extra);
    }
  }

  template <typename T>
  TVM_FFI_INLINE static void ApplyExtraInfoTrait(TVMFFITypeMetadata* info, const T& extra) {
    if constexpr (kIsDocText<T>) info->doc = AsDoc(extra);
  }

  static TVMFFIByteArray AsDoc(const char* text) {
    return TVMFFIByteArray{text, std::char_traits<char>::length(text)};
  }

  // A member function becomes a callable taking the object first (see WrapFunction).
  template <typename Func>
  TVM_FFI_INLINE static Function GetMethod(std::string name, Func&& func) {
    return Function::FromTyped(WrapFunction(std::forward<Func>(func)), std::move(name));
  }

  template <typename Value>
  TVM_FFI_INLINE static void RegisterTypeAttrValue(int32_t type_index, const char* name,
                                                   Value&& value) {
    TVMFFIByteArray attr_name = AsDoc(name);
    AnyView view(std::forward<Value>(value));
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &attr_name,
                                                   reinterpret_cast<const TVMFFIAny*>(&view)));
  }

  // A type attribute given as a value (anything an AnyView takes) is stored
  // as is; anything else is a callable, stored as the Function
  // "<type_key>.<name>".
  template <typename ValueOrFunc>
  static void RegisterTypeAttrValueOrFunc(int32_t type_index, const char* type_key,
                                          const char* name, ValueOrFunc&& item) {
    constexpr bool kIsValue = std::is_convertible_v<ValueOrFunc&&, AnyView> ||
                              std::is_convertible_v<std::decay_t<ValueOrFunc>, AnyView>;
    if constexpr (kIsValue) {
      RegisterTypeAttrValue(type_index, name, std::forward<ValueOrFunc>(item));
    } else {
      std::string full_name = std::string(type_key) + "." + name;
      Function fn = GetMethod(std::move(full_name), std::forward<ValueOrFunc>(item));
      RegisterTypeAttrValue(type_index, name, fn);
    }
  }

  // Anything but a member function pointer passes through unchanged.
  template <typename Func>
  TVM_FFI_INLINE static Func&& WrapFunction(Func&& func) {
    return std::forward<Func>(func);
  }
  // Member of an Object: `self` is a pointer; of an ObjectRef: the reference.
  template <typename Class, typename R, typename... Args>
  TVM_FFI_INLINE static auto WrapFunction(R (Class::*method)(Args...)) {
    static_assert(std::is_base_of_v<Object, Class> || std::is_base_of_v<ObjectRef, Class>,
                  "a reflected member function belongs to an Object or ObjectRef class");
    if constexpr (std::is_base_of_v<Object, Class>) {
      return [method](const Class* self, Args... args) -> R {
        return (const_cast<Class*>(self)->*method)(std::forward<Args>(args)...);
      };
    } else {
      return [method](Class self, Args... args) -> R {
        return (self.*method)(std::forward<Args>(args)...);
      };
    }
  }
  template <typename Class, typename R, typename... Args>
  TVM_FFI_INLINE static auto WrapFunction(R (Class::*method)(Args...) const) {
    static_assert(std::is_base_of_v<Object, Class> || std::is_base_of_v<ObjectRef, Class>,
                  "a reflected member function belongs to an Object or ObjectRef class");
    if constexpr (std::is_base_of_v<Object, Class>) {
      return [method](const Class* self, Args... args) -> R {
        return (self->*method)(std::forward<Args>(args)...);
      };
    } else {
      return [method](const Class& self, Args... args) -> R {
        return (self.*method)(std::forward<Args>(args)...);
      };
    }
  }

  // Fills and registers a method record (global or of a type).
  template <typename... Extra>
  static void FinishMethodInfo(MethodInfoBuilder* info, const char* name, const Function& func,
                               std::string type_schema, int64_t flags, Extra&&... extra) {
    info->name = AsDoc(name);
    info->doc = TVMFFIByteArray{nullptr, 0};
    info->flags = flags;
    info->method = AnyView(func).CopyToTVMFFIAny();
    info->metadata_.emplace_back("type_schema", String(std::move(type_schema)));
    (ApplyMethodInfoTrait(info, extra), ...);
  }
};
/// \endcond

/*!
 * \brief Registers global functions.
 *
 * \code{.cpp}
 * refl::GlobalDef().def("my_ext.add_one", [](int x) { return x + 1; }, "adds one");
 * \endcode
 */
class GlobalDef : public ReflectionDefBase {
 public:
  /*!
   * \brief Registers the typed callable `func` as `name`.
   * \param extra A doc string and/or Metadata.
   */
  template <typename Func, typename... Extra>
  GlobalDef& def(const char* name, Func&& func, Extra&&... extra) {
    using FuncInfo = ::tvm::ffi::detail::FunctionInfo<std::decay_t<Func>>;
    Register(name, Function::FromTyped(std::forward<Func>(func), std::string(name)),
             FuncInfo::TypeSchema(), std::forward<Extra>(extra)...);
    return *this;
  }

  /*!
   * \brief Registers a packed callable `void(PackedArgs, Any*)` (or the
   *        pointer form) as `name`.
   */
  template <typename Func, typename... Extra>
  GlobalDef& def_packed(const char* name, Func func, Extra&&... extra) {
    Register(name, Function::FromPacked(std::move(func)),
             ::tvm::ffi::detail::TypeSchemaImpl<Function>::v(), std::forward<Extra>(extra)...);
    return *this;
  }

  /*!
   * \brief Registers a member function as `name`: the object (pointer for an
   *        Object class, reference for an ObjectRef class) is the first argument.
   */
  template <typename Func, typename... Extra>
  GlobalDef& def_method(const char* name, Func&& func, Extra&&... extra) {
    using FuncInfo = ::tvm::ffi::detail::FunctionInfo<std::decay_t<Func>>;
    Register(name, GetMethod(std::string(name), std::forward<Func>(func)), FuncInfo::TypeSchema(),
             std::forward<Extra>(extra)...);
    return *this;
  }

 private:
  template <typename... Extra>
  void Register(const char* name, const Function& func, std::string type_schema,
                Extra&&... extra) {
    MethodInfoBuilder info;
    FinishMethodInfo(&info, name, func, std::move(type_schema), 0, extra...);
    std::string metadata = Metadata::ToJSON(info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
  }
};

/*!
 * \brief `init<Args...>()` passed to ObjectDef::def registers the constructor
 *        `__ffi_init__` that calls `make_object<Class>(Args...)`.
 *
 * \code{.cpp}
 * refl::ObjectDef<PointObj>().def(refl::init<int64_t, int64_t>());
 * \endcode
 */
template <typename... Args>
struct init {
 private:
  // The `__ffi_init__` body ObjectDef registers for Class.
  template <typename Class>
  static ObjectRef execute(Args&&... args) {
    ObjectPtr<Class> made = make_object<Class>(std::forward<Args>(args)...);
    return ObjectRef(std::move(made));
  }

  template <typename T>
  friend class OverloadObjectDef;
  template <typename Class>
  friend class ObjectDef;

 public:
  constexpr init() noexcept = default;
};

/*!
 * \brief `init<>()` registers a zero-argument constructor; `init(false)` is
 *        also a trait: on a field it keeps the field out of the generated
 *        `__ffi_init__` (InitOff), and given to ObjectDef's constructor it
 *        stops ObjectDef from generating an `__ffi_init__` at all.
 */
template <>
struct init<> : public detail::FieldFlagWhen<kTVMFFIFieldFlagBitMaskInitOff> {
  /*! \brief The zero-argument constructor (and, as a trait, "included"). */
  constexpr init() noexcept : FieldFlagWhen(false) {}
  /*! \brief Whether the field takes part in the generated init. */
  explicit init(bool include) : FieldFlagWhen(!include) {}

 private:
  template <typename Class>
  static ObjectRef execute() {
    return ObjectRef(make_object<Class>());
  }

  template <typename T>
  friend class OverloadObjectDef;
  template <typename Class>
  friend class ObjectDef;
};

#if !defined(TVM_FFI_DOXYGEN_MODE)
init(bool) -> init<>;
#endif

/*!
 * \brief Registers the reflection of the object type Class: its metadata at
 *        construction, then fields and methods through the chained calls, and
 *        at destruction the derived attributes ("__ffi_shallow_copy__" when
 *        Class is copyable, "__ffi_new__" when it has a creator,
 *        "__ffi_init__" generated from the fields unless an init was given,
 *        and "__ffi_type_final__").
 *
 * The constructor's arguments may be a doc string and `init(false)`.
 */
template <typename Class>
class ObjectDef : public ReflectionDefBase {
 public:
  /*! \brief Registers the type's metadata (size, creator, doc). */
  template <typename... ExtraArgs>
  explicit ObjectDef(ExtraArgs&&... extra_args)
      : type_index_(Class::_GetOrAllocRuntimeTypeIndex()), type_key_(Class::_type_key) {
    (NoteClassTrait(extra_args), ...);
    RegisterExtraInfo(extra_args...);
  }

  ObjectDef(const ObjectDef&) = delete;
  ObjectDef& operator=(const ObjectDef&) = delete;
  ObjectDef(ObjectDef&&) = delete;
  ObjectDef& operator=(ObjectDef&&) = delete;

  /*! \brief Registers the derived attributes (see the class note); may throw. */
  ~ObjectDef() noexcept(false) { Finish(); }

  /*!
   * \brief A read-only field.
   * \param extra A doc string, default_value / default_factory, flags, Metadata...
   */
  template <typename T, typename BaseClass, typename... Extra>
  TVM_FFI_INLINE ObjectDef& def_ro(const char* name, T BaseClass::* field_ptr, Extra&&... extra) {
    RegisterField(name, field_ptr, false, extra...);
    return *this;
  }

  /*! \brief A writable field (Class must declare `_type_mutable = true`). */
  template <typename T, typename BaseClass, typename... Extra>
  TVM_FFI_INLINE ObjectDef& def_rw(const char* name, T BaseClass::* field_ptr, Extra&&... extra) {
    static_assert(Class::_type_mutable,
                  "def_rw needs a mutable class: declare static constexpr bool _type_mutable = "
                  "true");
    RegisterField(name, field_ptr, true, extra...);
    return *this;
  }

  /*! \brief A static method (no object argument). */
  template <typename Func, typename... Extra>
  TVM_FFI_INLINE ObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    constexpr bool kStatic = true;
    RegisterMethod(name, kStatic, std::forward<Func>(func), extra...);
    return *this;
  }

  /*! \brief An instance method: a member function, or a callable whose first parameter is the object. */
  template <typename Func, typename... Extra>
  TVM_FFI_INLINE ObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    constexpr bool kStatic = false;
    RegisterMethod(name, kStatic, std::forward<Func>(func), extra...);
    return *this;
  }

  /*!
   * \brief A type attribute: a value (anything an AnyView takes) as is, or a
   *        typed callable / member function as the Function "<type_key>.<name>".
   */
  template <typename ValueOrFunc>
  TVM_FFI_INLINE ObjectDef& def_type_attr(const char* name, ValueOrFunc&& item) {
    RegisterTypeAttrValueOrFunc(type_index_, type_key_, name, std::forward<ValueOrFunc>(item));
    return *this;
  }

  /*! \brief "__ffi_convert__": casts a value to TSelf (whose container must be Class). */
  template <typename TSelf>
  TVM_FFI_INLINE ObjectDef& def_convert() {
    if constexpr (detail::has_container_type_v<TSelf>) {
      static_assert(std::is_same_v<typename TSelf::ContainerType, Class>,
                    "def_convert<TSelf>: TSelf::ContainerType must be the ObjectDef's class");
    }
    return def_type_attr(type_attr::kConvert.name,
                         &detail::FFIConvertFromAnyViewToObjectRef<TSelf>);
  }

  /*!
   * \brief The constructor: registers the static method "__ffi_init__"
   *        calling `make_object<Class>(Args...)` and puts it in the
   *        "__ffi_init__" column.
   */
  template <typename... Args, typename... Extra>
  TVM_FFI_INLINE ObjectDef& def([[maybe_unused]] init<Args...> init_func, Extra&&... extra) {
    has_explicit_init_ = true;
    RegisterMethod(kInitMethodName, true, &init<Args...>::template execute<Class>, extra...);
    PublishInitMethod();
    return *this;
  }

 private:
  template <typename T>
  friend class OverloadObjectDef;

  static constexpr const char* kInitMethodName = type_attr::kInit.name;

  template <typename T>
  void NoteClassTrait(const T& trait) {
    if constexpr (std::is_same_v<std::decay_t<T>, init<>>) {
      if (trait.flag_set()) has_explicit_init_ = true;  // init(false)
    }
  }

  template <typename... ExtraArgs>
  void RegisterExtraInfo(const ExtraArgs&... extra_args) {
    TVMFFITypeMetadata info;
    info.doc = TVMFFIByteArray{nullptr, 0};
    info.creator = nullptr;
    if constexpr (std::is_default_constructible_v<Class>) {
      info.creator = &ObjectCreatorDefault<Class>;
    } else if constexpr (std::is_constructible_v<Class, UnsafeInit>) {
      info.creator = &ObjectCreatorUnsafeInit<Class>;
    }
    info.total_size = static_cast<int32_t>(sizeof(Class));
    info.structural_eq_hash_kind = Class::_type_s_eq_hash_kind;
    (ApplyExtraInfoTrait(&info, extra_args), ...);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(type_index_, &info));
  }

  template <typename T, typename BaseClass, typename... Extra>
  void RegisterField(const char* name, T BaseClass::* field_ptr, bool writable,
                     const Extra&... extra) {
    static_assert(std::is_base_of_v<BaseClass, Class>,
                  "the field must belong to the class or one of its bases");
    FieldInfoBuilder info;
    info.name = AsDoc(name);
    info.doc = TVMFFIByteArray{nullptr, 0};
    info.flags = writable ? kTVMFFIFieldFlagBitMaskWritable : 0;
    info.size = static_cast<int64_t>(sizeof(T));
    info.alignment = static_cast<int64_t>(alignof(T));
    info.offset = GetFieldByteOffsetToObject<Class, T>(field_ptr);
    info.getter = &FieldGetter<T>;
    info.setter = reinterpret_cast<void*>(&FieldSetter<T>);
    info.default_value_or_factory = AnyView(nullptr).CopyToTVMFFIAny();
    info.field_static_type_index = TypeToFieldStaticTypeIndex<T>::value;
    info.metadata_.emplace_back("type_schema", String(::tvm::ffi::detail::TypeSchema<T>::v()));
    (ApplyFieldInfoTrait(&info, extra), ...);
    std::string metadata = Metadata::ToJSON(info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(type_index_, &info));
  }

  template <typename Func, typename... Extra>
  void RegisterMethod(const char* name, bool is_static, Func&& func, const Extra&... extra) {
    using FuncInfo = ::tvm::ffi::detail::FunctionInfo<std::decay_t<Func>>;
    Function method = GetMethod(std::string(type_key_) + "." + name, std::forward<Func>(func));
    MethodInfoBuilder info;
    FinishMethodInfo(&info, name, method, FuncInfo::TypeSchema(),
                     is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0, extra...);
    std::string metadata = Metadata::ToJSON(info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(type_index_, &info));
  }

  // Copies the method "__ffi_init__" of this type into the "__ffi_init__" column.
  void PublishInitMethod() {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index_);
    for (int32_t i = 0; i < info->num_methods; ++i) {
      if (detail::ByteArrayIs(info->methods[i].name, kInitMethodName)) {
        TVMFFIByteArray attr = AsByteArray(kInitMethodName);
        TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index_, &attr, &info->methods[i].method));
        return;
      }
    }
  }

  void Finish() {
    if constexpr (std::is_copy_constructible_v<Class>) {
      Function copy = Function::FromTyped(
          [](const Class* self) { return ObjectRef(make_object<Class>(*self)); },
          std::string(type_key_) + "." + type_attr::kShallowCopy.name);
      RegisterTypeAttrValue(type_index_, type_attr::kShallowCopy.name, copy);
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index_);
    if (info->metadata != nullptr && info->metadata->creator != nullptr) {
      TVMFFIObjectCreator creator = info->metadata->creator;
      Function make_new = Function::FromTyped(
          [creator]() -> ObjectRef {
            TVMFFIObjectHandle made = nullptr;
            TVM_FFI_CHECK_SAFE_CALL(creator(&made));
            return ObjectRef(::tvm::ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
                static_cast<TVMFFIObject*>(made)));
          },
          std::string(type_key_) + "." + type_attr::kNew.name);
      RegisterTypeAttrValue(type_index_, type_attr::kNew.name, make_new);
      // The generator lives in the library; look it up by name so that types
      // registered before it (during the library's own start-up) still work.
      if (!has_explicit_init_) {
        if (std::optional<Function> gen = Function::GetGlobal("ffi._RegisterFFIInit")) {
          (*gen)(type_index_);
        }
      }
    }
    RegisterTypeAttrValue(type_index_, type_attr::kTypeFinal.name,
                          static_cast<bool>(Class::_type_final));
  }

  int32_t type_index_;
  const char* type_key_;
  bool has_explicit_init_{false};
};

/*!
 * \brief Registers type attributes of Class.
 *
 * \code{.cpp}
 * refl::TypeAttrDef<MyObj>().def("my.size", sizeof(MyObj)).def("my.name", &MyObj::Name);
 * \endcode
 */
template <typename Class, typename = std::enable_if_t<std::is_base_of_v<Object, Class>>>
class TypeAttrDef : public ReflectionDefBase {
 public:
  /*! \brief For Class (extra arguments are accepted and ignored). */
  template <typename... ExtraArgs>
  explicit TypeAttrDef(ExtraArgs&&...)
      : type_index_(Class::_GetOrAllocRuntimeTypeIndex()), type_key_(Class::_type_key) {}

  /*! \brief Stores `value` under `name`. */
  template <typename T>
  TypeAttrDef& attr(const char* name, T value) {  // NOLINT(performance-unnecessary-value-param)
    RegisterTypeAttrValue(type_index_, name, std::move(value));
    return *this;
  }

  /*! \brief Stores `value` under a typed key, converted to the key's value type first. */
  template <typename T, typename Value>
  TypeAttrDef& attr(AttrKey<T> key, Value&& value) {
    T converted(std::forward<Value>(value));
    RegisterTypeAttrValue(type_index_, key.name, std::move(converted));
    return *this;
  }

  /*! \brief Stores the key's native hook made from the function `Fn` (see NativeFunctionView). */
  template <auto Fn, typename T>
  TypeAttrDef& native_fn_attr(AttrKey<T> key) {
    return attr(key, T::template FromNative<Fn>());
  }

  /*!
   * \brief Stores a value (anything an AnyView takes) as is, or a typed
   *        callable / member function as the Function "<type_key>.<name>".
   */
  template <typename ValueOrFunc>
  TypeAttrDef& def(const char* name, ValueOrFunc&& item) {
    RegisterTypeAttrValueOrFunc(type_index_, type_key_, name, std::forward<ValueOrFunc>(item));
    return *this;
  }

  /*! \brief "__ffi_convert__" casting to TSelf (see ObjectDef::def_convert). */
  template <typename TSelf>
  TVM_FFI_INLINE TypeAttrDef& def_convert() {
    if constexpr (detail::has_container_type_v<TSelf>) {
      static_assert(std::is_same_v<typename TSelf::ContainerType, Class>,
                    "def_convert<TSelf>: TSelf::ContainerType must be the TypeAttrDef's class");
    }
    return def(type_attr::kConvert.name, &detail::FFIConvertFromAnyViewToObjectRef<TSelf>);
  }

 private:
  int32_t type_index_;
  const char* type_key_;
};

/*!
 * \brief Makes the column `name` exist (empty), so that TypeAttrColumn(name)
 *        works before any type registers the attribute.
 */
inline void EnsureTypeAttrColumn(std::string_view name) {
  TVMFFIByteArray attr_name{name.data(), name.size()};
  TVMFFIAny none;
  std::memset(&none, 0, sizeof(none));
  none.type_index = kTVMFFINone;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(kTVMFFINone, &attr_name, &none));
}

/*! \brief EnsureTypeAttrColumn for a typed key. */
template <typename T>
inline void EnsureTypeAttrColumn(AttrKey<T> key) {
  EnsureTypeAttrColumn(std::string_view(key.name));
}

/// \cond Doxygen_Suppress
namespace detail {
/*!
 * \brief The callable behind overload_cast: picks the overload whose leading
 *        parameters are Args (the whole list wins over a longer one).  A
 *        const member needs the const_ tag as the second argument.
 */
template <typename... Args>
struct OverloadCastImpl {
  // Each kind of function comes twice: with exactly Args (so that it wins
  // when a longer overload also starts with Args), and with Args followed by
  // deduced parameters.
  template <typename R, typename C>
  constexpr auto operator()(R (C::*member)(Args...) const, std::true_type) const noexcept {
    return member;
  }
  template <typename R, typename C, typename... More>
  constexpr auto operator()(R (C::*member)(Args..., More...) const,
                            std::true_type) const noexcept {
    return member;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*member)(Args...), std::false_type = {}) const noexcept {
    return member;
  }
  template <typename R, typename C, typename... More>
  constexpr auto operator()(R (C::*member)(Args..., More...),
                            std::false_type = {}) const noexcept {
    return member;
  }
  template <typename R>
  constexpr auto operator()(R (*free_fn)(Args...)) const noexcept {
    return free_fn;
  }
  template <typename R, typename... More>
  constexpr auto operator()(R (*free_fn)(Args..., More...)) const noexcept {
    return free_fn;
  }
};
}  // namespace detail
/// \endcond

/*!
 * \brief Picks one function of an overload set by the types of its leading
 *        parameters; the remaining ones are deduced.  The result is a
 *        constant expression (usable as a template argument).  Spell more
 *        parameters when two overloads share the prefix; pass `const_` to
 *        pick a const member function.
 *
 * \code{.cpp}
 * auto set_int = refl::overload_cast<int>(&Pet::Set);
 * auto get_c = refl::overload_cast<int>(&Pet::Get, refl::const_);
 * \endcode
 */
template <typename... Args>
inline constexpr detail::OverloadCastImpl<Args...> overload_cast = {};

/*! \brief Tag for overload_cast: the const-qualified member. */
inline constexpr auto const_ = std::true_type{};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_REGISTRY_H_

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/any.h
 * \brief AnyView (a borrowed value) and Any (an owned value): the C++ faces
 *        of the 16-byte TVMFFIAny, with typed access through TypeTraits.
 *
 * Layout (C++ ABI): AnyView = Any = { TVMFFIAny data_ }.  An AnyView never
 * owns a reference and may hold the view-only kinds (a raw C string, a byte
 * array pointer, an rvalue reference); an Any owns one strong reference to
 * an object it holds and never holds a view-only kind.
 *
 * Typed access, for a T with TypeTraits:
 *   as<T>()           std::optional<T>: the value only if it IS a T (no conversion)
 *   try_cast<T>()     std::optional<T>: with the conversions T accepts (int -> float, ...)
 *   cast<T>()         like try_cast, throws TypeError on a mismatch
 *   as_or_throw<T>()  like as, throws TypeError on a mismatch
 */
#ifndef TVM_FFI_ANY_H_
#define TVM_FFI_ANY_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {

namespace detail {
/*! \brief Makes `value` None with every other byte zero. */
TVM_FFI_INLINE void ResetAnyToNone(TVMFFIAny* value) {
  value->type_index = TypeIndex::kTVMFFINone;
  value->zero_padding = 0;
  value->v_int64 = 0;
}

/*! \brief The TypeError of a value that is not (or does not convert to) a T. */
template <typename T>
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE void ThrowAnyTypeError(const char* verb,
                                                                         const char* joiner,
                                                                         const TVMFFIAny* value) {
  TVM_FFI_THROW(TypeError) << verb << " type `" << TypeTraits<T>::GetMismatchTypeInfo(value)
                           << "` " << joiner << " `" << TypeTraits<T>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}
/*! \brief "Cannot treat type `X` as type `T`" (the as_or_throw message). */
template <typename T>
[[noreturn]] void ThrowCannotTreatAs(const TVMFFIAny* value) {
  ThrowAnyTypeError<T>("Cannot treat", "as type", value);
}
/*! \brief "Cannot convert from type `X` to `T`" (the cast message). */
template <typename T>
[[noreturn]] void ThrowCannotConvert(const TVMFFIAny* value) {
  ThrowAnyTypeError<T>("Cannot convert from", "to", value);
}

// Defined after Any: raw access to both classes' TVMFFIAny.
struct AnyUnsafe;
}  // namespace detail

class Any;

/*!
 * \brief A borrowed value: the argument type of functions.  Copying is a
 *        byte copy; the caller keeps whatever it refers to alive.
 */
class AnyView {
  // Any copies views in and out; AnyUnsafe gives the headers raw access.
  friend class Any;
  friend struct detail::AnyUnsafe;

 protected:
  TVMFFIAny data_;

 public:
  /*! \brief A view of `other` (which must outlive the view). */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE AnyView(const T& other) {  // NOLINT(*)
    TypeTraits<T>::CopyToAnyView(other, &data_);
  }
  /*! \brief None. */
  TVM_FFI_INLINE AnyView() { detail::ResetAnyToNone(&data_); }
  // A view is its 16 bytes: copies and moves are byte copies.
  AnyView(const AnyView&) = default;
  AnyView(AnyView&& other) noexcept = default;
  AnyView& operator=(const AnyView&) = default;
  AnyView& operator=(AnyView&& other) noexcept = default;
  ~AnyView() = default;
  /*! \brief Now a view of `other`. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE AnyView& operator=(const T& other) {  // NOLINT(*)
    TypeTraits<T>::CopyToAnyView(other, &data_);
    return *this;
  }

  /*! \brief Back to None. */
  void reset() { detail::ResetAnyToNone(&data_); }
  TVM_FFI_INLINE void swap(AnyView& other) noexcept { std::swap(data_, other.data_); }
  TVM_FFI_INLINE int32_t type_index() const noexcept { return data_.type_index; }
  /*! \brief Same type and same 8-byte payload (object identity, not equality). */
  TVM_FFI_INLINE bool same_as(const AnyView& other) const noexcept {
    return std::memcmp(&data_, &other.data_, sizeof(TVMFFIAny)) == 0;
  }

  /*! \brief The raw value (a view). */
  TVM_FFI_INLINE TVMFFIAny CopyToTVMFFIAny() const { return data_; }
  /*! \brief A view of the raw value `data`. */
  TVM_FFI_INLINE static AnyView CopyFromTVMFFIAny(TVMFFIAny data) {
    AnyView out;
    out.data_ = data;
    return out;
  }
  /*! \brief The registered type key of the value's type ("int", "ffi.String", ...). */
  TVM_FFI_INLINE std::string GetTypeKey() const { return TypeIndexToTypeKey(type_index()); }
  /*! \brief True when the view holds None. */
  TVM_FFI_INLINE bool operator==(std::nullptr_t) const noexcept { return IsNone(); }
  TVM_FFI_INLINE bool operator!=(std::nullptr_t) const noexcept { return !IsNone(); }

  /*! \brief The value converted to T (conversions allowed), or nullopt. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE std::optional<T> try_cast() const {
    return TypeTraits<T>::TryCastFromAnyView(&data_);
  }
  /*! \brief As try_cast, but a value that does not convert is a TypeError. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE T cast() const {
    std::optional<T> converted = try_cast<T>();
    if (TVM_FFI_PREDICT_TRUE(converted.has_value())) return *std::move(converted);
    detail::ThrowCannotConvert<T>(&data_);
  }
  /*! \brief A copy of the value if it already IS a T (no conversion), else nullopt. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE std::optional<T> as() const {
    if (!TypeTraits<T>::CheckAnyStrict(&data_)) return std::nullopt;
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(&data_);
  }
  /*! \brief The object as a const T* if it is a T, else nullptr. */
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Object, T>>>
  TVM_FFI_INLINE const T* as() const {
    std::optional<const T*> ptr = as<const T*>();
    return ptr.has_value() ? *ptr : nullptr;
  }
  /*! \brief As as<T>(), but a value that is not a T is a TypeError. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE T as_or_throw() const {
    std::optional<T> exact = as<T>();
    if (TVM_FFI_PREDICT_TRUE(exact.has_value())) return *std::move(exact);
    detail::ThrowCannotTreatAs<T>(&data_);
  }

 private:
  TVM_FFI_INLINE bool IsNone() const noexcept {
    return data_.type_index == TypeIndex::kTVMFFINone;
  }
};

namespace detail {
/*!
 * \brief Turns the view in `data` into an owned value in place: takes a
 *        reference to an object, copies a raw C string or byte array into a
 *        String or Bytes, and takes the object out of an rvalue reference
 *        (whose slot becomes NULL).  `extra_any_bytes` is unused.
 */
TVM_FFI_INLINE void InplaceConvertAnyViewToAny(TVMFFIAny* data,
                                               [[maybe_unused]] size_t extra_any_bytes = 0) {
  const int32_t index = data->type_index;
  if (index >= TypeIndex::kTVMFFIStaticObjectBegin) {
    ObjectUnsafe::IncRefObjectHandle(data->v_obj);
  } else if (index == TypeIndex::kTVMFFIRawStr) {
    TypeTraits<String>::MoveToAny(String(data->v_c_str), data);
  } else if (index == TypeIndex::kTVMFFIByteArrayPtr) {
    TypeTraits<Bytes>::MoveToAny(Bytes(*static_cast<const TVMFFIByteArray*>(data->v_ptr)), data);
  } else if (index == TypeIndex::kTVMFFIObjectRValueRef) {
    Object** slot = static_cast<Object**>(data->v_ptr);
    TVM_FFI_ICHECK(slot[0] != nullptr) << "RValueRef already moved";
    ObjectRef taken(ObjectUnsafe::ObjectPtrFromOwned<Object>(slot[0]));
    slot[0] = nullptr;
    TypeTraits<ObjectRef>::MoveToAny(std::move(taken), data);
  }
}
}  // namespace detail

/*!
 * \brief An owned value of any type: the return type of functions and the
 *        element type of containers.  Copying an Any holding an object adds
 *        a reference.
 */
class Any {
  // Raw access for the headers, and the hash/equality functors, read data_.
  friend struct detail::AnyUnsafe;
  friend struct AnyHash;
  friend struct AnyEqual;

 protected:
  TVMFFIAny data_;

 public:
  /*! \brief None. */
  TVM_FFI_INLINE Any() { detail::ResetAnyToNone(&data_); }
  TVM_FFI_INLINE ~Any() { reset(); }
  TVM_FFI_INLINE Any(const Any& other) : data_(other.data_) {
    if (HoldsObject()) detail::ObjectUnsafe::IncRefObjectHandle(data_.v_obj);
  }
  TVM_FFI_INLINE Any(Any&& other) noexcept : data_(other.data_) {
    detail::ResetAnyToNone(&other.data_);
  }
  TVM_FFI_INLINE Any& operator=(const Any& other) {
    Any copy(other);
    swap(copy);
    return *this;
  }
  TVM_FFI_INLINE Any& operator=(Any&& other) noexcept {
    Any taken(std::move(other));
    swap(taken);
    return *this;
  }
  /*! \brief An owned copy of the view (see detail::InplaceConvertAnyViewToAny). */
  Any(const AnyView& other) : data_(other.data_) {  // NOLINT(*)
    detail::InplaceConvertAnyViewToAny(&data_);
  }
  TVM_FFI_INLINE Any& operator=(const AnyView& other) {
    Any copy(other);
    swap(copy);
    return *this;
  }
  /*! \brief A view of this value (valid while this Any holds it). */
  operator AnyView() const { return AnyView::CopyFromTVMFFIAny(data_); }  // NOLINT(*)

  /*! \brief Holds `other` (moved in). */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE Any(T other) {  // NOLINT(*)
    TypeTraits<T>::MoveToAny(std::move(other), &data_);
  }
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE Any& operator=(T other) {  // NOLINT(*)
    Any replacement(std::move(other));
    swap(replacement);
    return *this;
  }

  /*! \brief Releases the value; back to None. */
  TVM_FFI_INLINE void reset() {
    if (HoldsObject()) detail::ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
    detail::ResetAnyToNone(&data_);
  }
  TVM_FFI_INLINE void swap(Any& other) noexcept { std::swap(data_, other.data_); }
  TVM_FFI_INLINE int32_t type_index() const noexcept { return data_.type_index; }

  /*! \brief The registered type key of the value's type ("int", "ffi.String", ...). */
  TVM_FFI_INLINE std::string GetTypeKey() const { return TypeIndexToTypeKey(type_index()); }
  /*! \brief True when the value is None. */
  TVM_FFI_INLINE bool operator==(std::nullptr_t) const noexcept { return IsNone(); }
  TVM_FFI_INLINE bool operator!=(std::nullptr_t) const noexcept { return !IsNone(); }
  /*! \brief Same type and same payload (object identity, not equality). */
  TVM_FFI_INLINE bool same_as(const Any& other) const noexcept {
    return std::memcmp(&data_, &other.data_, sizeof(TVMFFIAny)) == 0;
  }
  /*! \brief Holds exactly the object `other` refers to (or None for an empty ref). */
  TVM_FFI_INLINE bool same_as(const ObjectRef& other) const noexcept {
    const Object* target = other.get();
    if (target == nullptr) return IsNone();
    return reinterpret_cast<const Object*>(data_.v_obj) == target &&
           data_.type_index == target->type_index();
  }

  // Reading without taking: each returns a copy and leaves this Any as it is.
  // T = Any is accepted where noted and gives a copy of this value.

  /*! \brief The value converted to T (conversions allowed), or nullopt.  T may be Any. */
  template <typename T,
            typename = std::enable_if_t<TypeTraits<T>::convert_enabled || std::is_same_v<T, Any>>>
  TVM_FFI_INLINE std::optional<T> try_cast() const {
    if constexpr (kIsAny<T>) return std::optional<Any>(*this);
    if constexpr (!kIsAny<T>) return TypeTraits<T>::TryCastFromAnyView(&data_);
  }
  /*! \brief As try_cast, but a value that does not convert is a TypeError. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::convert_enabled>>
  TVM_FFI_INLINE T cast() const& {
    std::optional<T> converted = TypeTraits<T>::TryCastFromAnyView(&data_);
    if (TVM_FFI_PREDICT_TRUE(converted.has_value())) return *std::move(converted);
    detail::ThrowCannotConvert<T>(&data_);
  }
  /*! \brief A copy of the value if it already IS a T, else nullopt.  T may be Any. */
  template <typename T,
            typename = std::enable_if_t<TypeTraits<T>::convert_enabled || std::is_same_v<T, Any>>>
  TVM_FFI_INLINE std::optional<T> as() const& {
    if constexpr (kIsAny<T>) return std::optional<Any>(*this);
    if constexpr (!kIsAny<T>) return Is<T>() ? std::optional<T>(CopyAs<T>()) : std::nullopt;
  }
  /*! \brief The object as a const T* if it is a T, else nullptr. */
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Object, T>>>
  TVM_FFI_INLINE const T* as() const& {
    if (!Is<const T*>()) return nullptr;
    return CopyAs<const T*>();
  }
  /*! \brief As as<T>(), but a value that is not a T is a TypeError.  T may be Any. */
  template <typename T,
            typename = std::enable_if_t<TypeTraits<T>::convert_enabled || std::is_same_v<T, Any>>>
  TVM_FFI_INLINE T as_or_throw() const& {
    if constexpr (kIsAny<T>) return *this;
    if constexpr (!kIsAny<T>) {
      if (TVM_FFI_PREDICT_FALSE(!Is<T>())) detail::ThrowCannotTreatAs<T>(&data_);
      return CopyAs<T>();
    }
  }

  // Taking: when the value already is a T it is moved out and this Any is
  // left None; a value that would need a conversion is copied instead.

  /*! \brief As cast() const&, moving the value out when it needs no conversion. */
  template <typename T, typename = std::enable_if_t<TypeTraits<T>::storage_enabled>>
  TVM_FFI_INLINE T cast() && {
    if (Is<T>()) return TakeAs<T>();
    const Any& self = *this;
    return self.cast<T>();
  }
  /*! \brief The value moved out if it IS a T (this Any becomes None), else nullopt. */
  template <typename T,
            typename = std::enable_if_t<TypeTraits<T>::storage_enabled || std::is_same_v<T, Any>>>
  TVM_FFI_INLINE std::optional<T> as() && {
    if constexpr (kIsAny<T>) return std::optional<Any>(std::move(*this));
    if constexpr (!kIsAny<T>) return Is<T>() ? std::optional<T>(TakeAs<T>()) : std::nullopt;
  }
  /*! \brief As as<T>() &&, but a value that is not a T is a TypeError. */
  template <typename T,
            typename = std::enable_if_t<TypeTraits<T>::storage_enabled || std::is_same_v<T, Any>>>
  TVM_FFI_INLINE T as_or_throw() && {
    if constexpr (kIsAny<T>) return std::move(*this);
    if constexpr (!kIsAny<T>) {
      if (TVM_FFI_PREDICT_FALSE(!Is<T>())) detail::ThrowCannotTreatAs<T>(&data_);
      return TakeAs<T>();
    }
  }

 private:
  template <typename T>
  static constexpr bool kIsAny = std::is_same_v<T, Any>;
  // Whether the value already is a T (no conversion).
  template <typename T>
  TVM_FFI_INLINE bool Is() const {
    return TypeTraits<T>::CheckAnyStrict(&data_);
  }
  // The value as a T, after Is<T>(): a copy, or moved out (this Any becomes None).
  template <typename T>
  TVM_FFI_INLINE T CopyAs() const {
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(&data_);
  }
  template <typename T>
  TVM_FFI_INLINE T TakeAs() {
    return TypeTraits<T>::MoveFromAnyAfterCheck(&data_);
  }
  TVM_FFI_INLINE bool IsNone() const noexcept {
    return data_.type_index == TypeIndex::kTVMFFINone;
  }
  /*! \brief Adopts the owned raw value `raw`. */
  TVM_FFI_INLINE explicit Any(UnsafeInit, TVMFFIAny raw) noexcept : data_(raw) {}
  TVM_FFI_INLINE bool HoldsObject() const {
    return data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin;
  }
};

// Both are a TVMFFIAny and nothing else: arrays of them are arrays of TVMFFIAny.
static_assert(sizeof(Any) == sizeof(TVMFFIAny) && sizeof(AnyView) == sizeof(TVMFFIAny),
              "Any and AnyView are exactly one TVMFFIAny");
static_assert(std::is_standard_layout_v<AnyView> && std::is_trivially_copyable_v<AnyView>,
              "AnyView is a TVMFFIAny copied as bytes");

namespace detail {

/*!
 * \brief The name of a C++ type in signatures and messages ("int", "Any", ...).
 *        Any and AnyView (by value or reference) and void are named here;
 *        every other type by its TypeTraits.
 */
template <typename Type>
struct Type2Str {
  static std::string v() {
    using Bare = std::remove_cv_t<std::remove_reference_t<Type>>;
    if constexpr (std::is_void_v<Type>) {
      return "void";
    } else if constexpr (std::is_same_v<Bare, AnyView>) {
      return "AnyView";
    } else if constexpr (std::is_same_v<Bare, Any>) {
      return "Any";
    } else {
      return TypeTraitsNoCR<Type>::TypeStr();
    }
  }
};

/*! \brief The JSON type schema of T (signatures, reflection); void is "None". */
template <typename T>
struct TypeSchemaImpl {
  static std::string v() { return TypeTraitsNoCR<T>::TypeSchema(); }
};
template <>
struct TypeSchemaImpl<void> {
  static std::string v() { return PlainTypeSchema(StaticTypeKey::kTVMFFINone); }
};
template <>
struct TypeSchemaImpl<Any> {
  static std::string v() { return PlainTypeSchema(StaticTypeKey::kTVMFFIAny); }
};
template <>
struct TypeSchemaImpl<AnyView> : TypeSchemaImpl<Any> {};

/*! \brief Raw access to Any and AnyView for the headers' own use. */
struct AnyUnsafe : public ObjectUnsafe {
  /*! \brief The owned raw value, leaving `any` None. */
  TVM_FFI_INLINE static TVMFFIAny MoveAnyToTVMFFIAny(Any&& any) {
    TVMFFIAny raw = any.data_;
    ResetAnyToNone(&any.data_);
    return raw;
  }
  /*! \brief Adopts the owned raw value at `data`, leaving it None. */
  TVM_FFI_INLINE static Any MoveTVMFFIAnyToAny(TVMFFIAny* data) {
    Any any(UnsafeInit{}, *data);
    ResetAnyToNone(data);
    return any;
  }
  /*! \brief Adopts the owned raw value `raw`. */
  TVM_FFI_INLINE static Any MoveTVMFFIAnyRawToAny(TVMFFIAny raw) { return Any(UnsafeInit{}, raw); }

  template <typename T>
  TVM_FFI_INLINE static bool CheckAnyStrict(const Any& ref) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return TypeTraits<T>::CheckAnyStrict(&ref.data_);
    }
  }
  template <typename T>
  TVM_FFI_INLINE static bool CheckAnyViewStrict(const AnyView& ref) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return TypeTraits<T>::CheckAnyStrict(&ref.data_);
    }
  }
  template <typename T>
  TVM_FFI_INLINE static T CopyFromAnyViewAfterCheck(const Any& ref) {
    if constexpr (std::is_same_v<T, Any>) {
      return ref;
    } else {
      return TypeTraits<T>::CopyFromAnyViewAfterCheck(&ref.data_);
    }
  }
  template <typename T>
  TVM_FFI_INLINE static T MoveFromAnyAfterCheck(Any&& ref) {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(ref);
    } else {
      return TypeTraits<T>::MoveFromAnyAfterCheck(&ref.data_);
    }
  }
  TVM_FFI_INLINE static const TVMFFIAny* TVMFFIAnyPtrFromAny(const Any& ref) { return &ref.data_; }
  /*! \brief The object held (unowned; the caller has checked that it holds one). */
  template <typename TObject = Object>
  TVM_FFI_INLINE static TObject* RawObjectPtrFromAnyAfterCheck(const Any& ref) {
    return HeldObject<TObject>(ref.data_);
  }
  template <typename TObject = Object>
  TVM_FFI_INLINE static TObject* RawObjectPtrFromAnyViewAfterCheck(const AnyView& ref) {
    return HeldObject<TObject>(ref.data_);
  }
  template <typename T>
  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const Any& ref) {
    const TVMFFIAny* raw = &ref.data_;
    return TypeTraits<T>::GetMismatchTypeInfo(raw);
  }

 private:
  template <typename TObject>
  TVM_FFI_INLINE static TObject* HeldObject(const TVMFFIAny& raw) {
    return ObjectUnsafe::RawObjectPtrFromUnowned<TObject>(raw.v_obj);
  }
};

/*! \brief The bytes of a string or bytes value, small or object form. */
TVM_FFI_INLINE std::string_view AnyStringBytes(const TVMFFIAny& value) {
  if (value.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
    const TVMFFIByteArray* cell = TVMFFIBytesGetByteArrayPtr(value.v_obj);
    return std::string_view(cell->data, cell->size);
  }
  return std::string_view(value.v_bytes, value.small_str_len);
}

/*! \brief The string kind a string-like index belongs to (kTVMFFIStr or kTVMFFIBytes), else -1. */
TVM_FFI_INLINE int32_t StringKindOf(int32_t type_index) {
  switch (type_index) {
    case TypeIndex::kTVMFFISmallStr:
    case TypeIndex::kTVMFFIStr:
      return TypeIndex::kTVMFFIStr;
    case TypeIndex::kTVMFFISmallBytes:
    case TypeIndex::kTVMFFIBytes:
      return TypeIndex::kTVMFFIBytes;
    default:
      return -1;
  }
}

/*!
 * \brief The hook a type registers under type attribute `attr_name`
 *        (__any_hash__ / __any_equal__) for `type_index`, or nullptr.
 *        The column is looked up once per process.
 */
TVM_FFI_INLINE const TVMFFIAny* FindAnyHook(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == nullptr) return nullptr;
  int32_t offset = type_index - column->begin_index;
  if (offset < 0 || offset >= column->size) return nullptr;
  const TVMFFIAny* hook = &column->data[offset];
  return hook->type_index == TypeIndex::kTVMFFINone ? nullptr : hook;
}

/*!
 * \brief Calls a hook: an opaque pointer to a noexcept C++ function taking
 *        the Any arguments and returning a raw value (an Error value means it
 *        failed), or an ffi.Function called with the raw values.  Returns the
 *        owned result; an error is thrown.
 */
template <typename... Args>
Any CallAnyHook(const TVMFFIAny& hook, const Args&... args) {
  TVMFFIAny result;
  ResetAnyToNone(&result);
  if (hook.type_index == TypeIndex::kTVMFFIOpaquePtr) {
    using Fn = TVMFFIAny (*)(const Args&...) noexcept;
    Fn fn = reinterpret_cast<Fn>(hook.v_ptr);
    result = TVM_FFI_ICHECK_NOTNULL(fn)(args...);
  } else {
    TVM_FFI_ICHECK_EQ(hook.type_index, TypeIndex::kTVMFFIFunction);
    TVMFFIAny raw_args[] = {AnyUnsafe::TVMFFIAnyPtrFromAny(args)[0]...};
    const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCellPtr(hook.v_obj);
    if (cell->cpp_call != nullptr) {
      using CppCall = void (*)(const void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
      reinterpret_cast<CppCall>(cell->cpp_call)(hook.v_obj, raw_args, sizeof...(Args), &result);
    } else if (cell->safe_call(hook.v_obj, raw_args, sizeof...(Args), &result) != 0) {
      throw MoveFromSafeCallRaised();
    }
  }
  Any owned = AnyUnsafe::MoveTVMFFIAnyRawToAny(result);
  if (owned.type_index() == TypeIndex::kTVMFFIError) {
    throw AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(owned));
  }
  return owned;
}

/*! \brief The attribute column named `name`, or nullptr. */
inline const TVMFFITypeAttrColumn* GetTypeAttrColumnByName(const char* name) {
  TVMFFIByteArray key{name, std::char_traits<char>::length(name)};
  return TVMFFIGetTypeAttrColumn(&key);
}

}  // namespace detail

/*!
 * \brief The runtime's hash of a value, for hash maps keyed by Any: strings
 *        and bytes hash their bytes (small and object forms alike), an object
 *        type with an __any_hash__ hook uses it, everything else hashes the
 *        type index and the payload (identity for objects).
 */
struct AnyHash {
 public:
  uint64_t operator()(const Any& src) const {
    const TVMFFIAny& v = src.data_;
    const int32_t string_kind = detail::StringKindOf(v.type_index);
    if (string_kind >= 0) {
      uint64_t bytes_hash = v.type_index < TypeIndex::kTVMFFIStaticObjectBegin
                                ? detail::StableHashSmallStrBytes(&v)
                                : detail::StableHashBytes(detail::AnyStringBytes(v).data(),
                                                          detail::AnyStringBytes(v).size());
      return detail::StableHashCombine(string_kind, bytes_hash);
    }
    if (v.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
      static const TVMFFITypeAttrColumn* column = detail::GetTypeAttrColumnByName("__any_hash__");
      if (const TVMFFIAny* hook = detail::FindAnyHook(column, v.type_index)) {
        Any hashed = detail::CallAnyHook(*hook, src);
        TVM_FFI_ICHECK_EQ(hashed.type_index(), TypeIndex::kTVMFFIInt);
        return detail::StableHashCombine(v.type_index,
                                         static_cast<uint64_t>(hashed.data_.v_int64));
      }
    }
    return detail::StableHashCombine(v.type_index, v.v_uint64);
  }
};

/*!
 * \brief The runtime's equality of values: identical bytes, or two strings
 *        (or two bytes values) with the same bytes in either form, or an
 *        object type's __any_equal__ hook.  Nothing else is equal.
 */
struct AnyEqual {
 public:
  bool operator()(const Any& lhs, const Any& rhs) const {
    const TVMFFIAny& a = lhs.data_;
    const TVMFFIAny& b = rhs.data_;
    if (std::memcmp(&a, &b, sizeof(TVMFFIAny)) == 0) return true;
    const int32_t kind = detail::StringKindOf(a.type_index);
    if (kind >= 0) {
      return kind == detail::StringKindOf(b.type_index) &&
             detail::AnyStringBytes(a) == detail::AnyStringBytes(b);
    }
    if (a.type_index != b.type_index || a.type_index < TypeIndex::kTVMFFIStaticObjectBegin) {
      return false;
    }
    static const TVMFFITypeAttrColumn* column = detail::GetTypeAttrColumnByName("__any_equal__");
    const TVMFFIAny* hook = detail::FindAnyHook(column, a.type_index);
    if (hook == nullptr) return false;
    Any equal = detail::CallAnyHook(*hook, lhs, rhs);
    TVM_FFI_ICHECK(equal.type_index() == TypeIndex::kTVMFFIBool);
    return equal.data_.v_int64 != 0;
  }
};

/*! \brief The shared body of ObjectRef::as_or_throw. */
template <typename ObjectRefType>
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE void ThrowObjectRefAsError(const Object* obj) {
  std::string actual = obj == nullptr ? std::string(StaticTypeKey::kTVMFFINone)
                                      : obj->GetTypeKey();
  TVM_FFI_THROW(TypeError) << "Cannot treat type `" << actual << "` as type `"
                           << TypeTraits<ObjectRefType>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}

template <typename ObjectRefType, typename>
TVM_FFI_INLINE ObjectRefType ObjectRef::as_or_throw() const& {
  if (TVM_FFI_PREDICT_FALSE(!ConvertsTo<ObjectRefType>())) {
    ThrowObjectRefAsError<ObjectRefType>(data_.get());
  }
  ObjectRefType result(UnsafeInit{});
  result.data_ = data_;
  return result;
}

template <typename ObjectRefType, typename>
TVM_FFI_INLINE ObjectRefType ObjectRef::as_or_throw() && {
  if (TVM_FFI_PREDICT_FALSE(!ConvertsTo<ObjectRefType>())) {
    ThrowObjectRefAsError<ObjectRefType>(data_.get());
  }
  ObjectRefType result(UnsafeInit{});
  result.data_ = std::move(data_);
  return result;
}

/*!
 * \brief uint64_t: an int, when it fits in int64_t; a larger value throws
 *        OverflowError rather than wrap around.
 */
template <>
struct TypeTraits<uint64_t> : public TypeTraitsIntBase<uint64_t> {
  TVM_FFI_INLINE static void MoveToAny(uint64_t src, TVMFFIAny* result) {
    CopyToAnyView(src, result);
  }
  TVM_FFI_INLINE static void CopyToAnyView(const uint64_t& src, TVMFFIAny* result) {
    constexpr uint64_t kLargest = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (TVM_FFI_PREDICT_FALSE(src > kLargest)) ThrowTooLarge(src);
    CopyInt64ToAnyView(static_cast<int64_t>(src), result);
  }

 private:
  [[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE static void ThrowTooLarge(uint64_t value) {
    TVM_FFI_THROW(OverflowError) << "Integer value " << value
                                 << " is too large to fit in int64_t. Consider explicitly "
                                    "casting to int64_t first if this is intentional.";
    TVM_FFI_UNREACHABLE();
  }
};

}  // namespace ffi

using tvm::ffi::Any;
using tvm::ffi::AnyView;

}  // namespace tvm

#endif  // TVM_FFI_ANY_H_

// Values: Any (owning), AnyView (borrowed) and their TypeTraits conversions.
#ifndef TVM_FFI_CORE_IMPL_ANY_H_
#define TVM_FFI_CORE_IMPL_ANY_H_

#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "any_raw.h"
#include "error.h"
#include "object.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// The name of a value's type as users read it in errors (object.cc).
inline std::string TypeIndexToDisplayName(int32_t type_index) {
  return core::TypeIndexToDisplayName(type_index);
}

// Converts a view into an owning value (the semantics of
// TVMFFIAnyViewToOwnedAny).  `out` is overwritten without being released.
inline void AnyViewToOwned(const TVMFFIAny* view, TVMFFIAny* out) {
  // Inline for the common cases: values that are copied as they are, and
  // objects that only gain a reference.  Borrowed strings and rvalue
  // references need the library.
  int32_t index = view->type_index;
  if (index >= kTVMFFIStaticObjectBegin) {
    detail::CopyRaw(out, view);
    Object::IncRef(out->v_obj);
    return;
  }
  if (index != kTVMFFIRawStr && index != kTVMFFIByteArrayPtr && index != kTVMFFIObjectRValueRef) {
    detail::CopyRaw(out, view);
    return;
  }
  int rc = TVMFFIAnyViewToOwnedAny(view, out);
  if (rc != 0) ThrowRaised(rc);
}

inline void AnyZero(TVMFFIAny* v) { detail::SetNone(v); }

// Releases an owning value and resets it to None.
inline void AnyRelease(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) Object::DecRef(v->v_obj);
  AnyZero(v);
}

// Conversions between C++ types and TVMFFIAny.  A specialisation provides:
//   static constexpr bool kEnabled = true;
//   static std::string TypeStr();                        // "int", "str", ...
//   static void CopyToView(const T&, TVMFFIAny* out);    // may borrow from T
//   static void MoveToOwned(T, TVMFFIAny* out);          // owning result
// `out` is None (all zero) on entry; the conversions here write every field
// anyway (any_raw.h), so that their values are never copied as a block
// right after being written piecewise.
//   static std::optional<T> TryCast(const TVMFFIAny*);   // from a view
template <typename T, typename = void>
struct TypeTraits {
  static constexpr bool kEnabled = false;
};

template <typename T>
using TypeTraitsOf = TypeTraits<std::remove_cv_t<std::remove_reference_t<T>>>;

class Any;
class AnyView;

// Whether T converts to a value implicitly (lazy, so that Any and AnyView
// themselves never instantiate their traits while still incomplete).
template <typename T>
struct TraitsEnabled : std::bool_constant<TypeTraitsOf<T>::kEnabled> {};
template <typename T>
constexpr bool kConvertibleValue =
    std::conjunction<std::negation<std::is_same<std::decay_t<T>, Any>>,
                     std::negation<std::is_same<std::decay_t<T>, AnyView>>,
                     TraitsEnabled<T>>::value;

// Throws TypeError "[<context>: ]expected <T>, got <actual>".
[[noreturn]] inline void ThrowTypeMismatch(const std::string& expected, const TVMFFIAny* actual,
                                           const std::string& context) {
  TVM_FFI_IMPL_THROW(TypeError) << context << (context.empty() ? "" : ": ") << "expected " << expected
                          << ", got " << TypeIndexToDisplayName(actual->type_index);
}

namespace detail {

// The read side Any and AnyView share; `data_` is the whole object, so both
// stay layout-compatible with TVMFFIAny.
class AnyStorage {
 public:
  int32_t type_index() const { return data_.type_index; }
  bool is_none() const { return data_.type_index == kTVMFFINone; }
  const TVMFFIAny* raw() const { return &data_; }

  template <typename T>
  std::optional<T> TryAs() const {
    return TypeTraits<T>::TryCast(&data_);
  }
  // TypeError "expected <T>, got <actual>" when the value does not convert.
  template <typename T>
  T As() const {
    std::optional<T> v = TypeTraits<T>::TryCast(&data_);
    if (!v.has_value()) ThrowTypeMismatch(TypeTraits<T>::TypeStr(), &data_, "");
    return std::move(*v);
  }

 protected:
  AnyStorage() { AnyZero(&data_); }
  explicit AnyStorage(const TVMFFIAny& raw) { detail::CopyRaw(&data_, &raw); }

  TVMFFIAny data_;
};

}  // namespace detail

class AnyView : public detail::AnyStorage {
 public:
  AnyView() = default;
  AnyView(const AnyView&) = default;
  AnyView& operator=(const AnyView&) = default;
  template <typename T, typename = std::enable_if_t<kConvertibleValue<T>>>
  AnyView(const T& value) {  // NOLINT(runtime/explicit)
    TypeTraitsOf<T>::CopyToView(value, &data_);
  }
  AnyView(const Any& value);  // NOLINT(runtime/explicit)

  static AnyView FromRaw(const TVMFFIAny& raw) {
    AnyView v;
    detail::CopyRaw(&v.data_, &raw);
    return v;
  }
};

class Any : public detail::AnyStorage {
 public:
  Any() = default;
  Any(const Any& other) : AnyStorage(other.data_) {
    if (data_.type_index >= kTVMFFIStaticObjectBegin) Object::IncRef(data_.v_obj);
  }
  Any(Any&& other) noexcept : AnyStorage(other.data_) { AnyZero(&other.data_); }
  Any(const AnyView& view) { AnyViewToOwned(view.raw(), &data_); }  // NOLINT
  template <typename T, typename = std::enable_if_t<kConvertibleValue<T>>>
  Any(T value) {  // NOLINT(runtime/explicit)
    TypeTraitsOf<T>::MoveToOwned(std::move(value), &data_);
  }
  ~Any() { AnyRelease(&data_); }
  // `other` is a value of its own (a copy, or moved from), so releasing the
  // old value first cannot touch it.
  Any& operator=(Any other) noexcept {
    AnyRelease(&data_);
    other.MoveTo(&data_);
    return *this;
  }

  // Takes over an owning raw value.
  static Any Adopt(const TVMFFIAny& raw) {
    Any a;
    detail::CopyRaw(&a.data_, &raw);
    return a;
  }
  // Gives up ownership of the raw value; this becomes None.
  TVMFFIAny Release() {
    TVMFFIAny r;
    MoveTo(&r);
    return r;
  }
  // Moves the owning raw value to `out` (overwritten, not released); this
  // becomes None.
  void MoveTo(TVMFFIAny* out) {
    detail::CopyRaw(out, &data_);
    AnyZero(&data_);
  }
  // The slot to pass as a safe-call result (must be None first).
  TVMFFIAny* result_slot() {
    AnyRelease(&data_);
    return &data_;
  }
};

inline AnyView::AnyView(const Any& value) : AnyStorage(*value.raw()) {}

// ---------------------------------------------------------------------------
// TypeTraits for the built-in C++ types.

template <>
struct TypeTraits<std::nullptr_t> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "None"; }
  static void CopyToView(std::nullptr_t, TVMFFIAny* out) { detail::SetNone(out); }
  static void MoveToOwned(std::nullptr_t, TVMFFIAny* out) { detail::SetNone(out); }
  static std::optional<std::nullptr_t> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFINone) return nullptr;
    return std::nullopt;
  }
};

template <>
struct TypeTraits<bool> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "bool"; }
  static void CopyToView(bool b, TVMFFIAny* out) { detail::SetRaw(out, kTVMFFIBool, b ? 1 : 0); }
  static void MoveToOwned(bool b, TVMFFIAny* out) { CopyToView(b, out); }
  static std::optional<bool> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIBool || v->type_index == kTVMFFIInt) return v->v_int64 != 0;
    return std::nullopt;
  }
};

template <typename Int>
struct TypeTraits<Int, std::enable_if_t<std::is_integral<Int>::value &&
                                        !std::is_same<Int, bool>::value>> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "int"; }
  static void CopyToView(Int i, TVMFFIAny* out) {
    detail::SetRaw(out, kTVMFFIInt, static_cast<uint64_t>(static_cast<int64_t>(i)));
  }
  static void MoveToOwned(Int i, TVMFFIAny* out) { CopyToView(i, out); }
  static std::optional<Int> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
      return static_cast<Int>(v->v_int64);
    }
    return std::nullopt;
  }
};

template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point<Float>::value>> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "float"; }
  static void CopyToView(Float f, TVMFFIAny* out) {
    detail::SetRaw(out, kTVMFFIFloat, detail::PayloadOf(static_cast<double>(f)));
  }
  static void MoveToOwned(Float f, TVMFFIAny* out) { CopyToView(f, out); }
  static std::optional<Float> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIFloat) return static_cast<Float>(v->v_float64);
    if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
      return static_cast<Float>(v->v_int64);
    }
    return std::nullopt;
  }
};

template <>
struct TypeTraits<void*> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "void*"; }
  static void CopyToView(void* p, TVMFFIAny* out) {
    detail::SetRawPtr(out, p == nullptr ? kTVMFFINone : kTVMFFIOpaquePtr, p);
  }
  static void MoveToOwned(void* p, TVMFFIAny* out) { CopyToView(p, out); }
  static std::optional<void*> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIOpaquePtr) return v->v_ptr;
    if (v->type_index == kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
};

template <>
struct TypeTraits<DLDataType> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "DataType"; }
  static void CopyToView(DLDataType t, TVMFFIAny* out) {
    detail::SetRaw(out, kTVMFFIDataType, detail::PayloadOf(t));
  }
  static void MoveToOwned(DLDataType t, TVMFFIAny* out) { CopyToView(t, out); }
  // Also parses dtype strings ("float32").
  static std::optional<DLDataType> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDataType) return v->v_dtype;
    const char* data;
    size_t size;
    bool is_bytes;
    if (GetStringView(v, &data, &size, &is_bytes) && !is_bytes) {
      TVMFFIByteArray text;
      text.data = data;
      text.size = size;
      DLDataType out;
      int rc = TVMFFIDataTypeFromString(&text, &out);
      if (rc != 0) ThrowRaised(rc);
      return out;
    }
    return std::nullopt;
  }
};

template <>
struct TypeTraits<DLDevice> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "Device"; }
  static void CopyToView(DLDevice d, TVMFFIAny* out) {
    detail::SetRaw(out, kTVMFFIDevice, detail::PayloadOf(d));
  }
  static void MoveToOwned(DLDevice d, TVMFFIAny* out) { CopyToView(d, out); }
  static std::optional<DLDevice> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDevice) return v->v_device;
    return std::nullopt;
  }
};

// DLTensor* arguments: a borrowed DLTensor or the cell of an ffi.Tensor.
template <>
struct TypeTraits<DLTensor*> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "DLTensor*"; }
  static void CopyToView(DLTensor* t, TVMFFIAny* out) {
    detail::SetRawPtr(out, kTVMFFIDLTensorPtr, t);
  }
  static void MoveToOwned(DLTensor* t, TVMFFIAny* out) { CopyToView(t, out); }
  static std::optional<DLTensor*> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIDLTensorPtr) return static_cast<DLTensor*>(v->v_ptr);
    if (v->type_index >= kTVMFFIStaticObjectBegin &&
        Object::FromHandle(v->v_obj)->IsInstanceIndex(kTVMFFITensor)) {
      return TVMFFITensorGetDLTensorPtr(v->v_obj);  // subclasses keep the cell at +24
    }
    return std::nullopt;
  }
};

// Views of C strings borrow the chars; owned values copy them.
template <>
struct TypeTraits<const char*> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "str"; }
  static void CopyToView(const char* s, TVMFFIAny* out) {
    detail::SetRawPtr(out, kTVMFFIRawStr, s);
  }
  static void MoveToOwned(const char* s, TVMFFIAny* out) {
    MakeStringAny(s, std::strlen(s), false, out);
  }
};

template <size_t N>
struct TypeTraits<char[N]> : TypeTraits<const char*> {
  static void CopyToView(const char (&s)[N], TVMFFIAny* out) {
    TypeTraits<const char*>::CopyToView(s, out);
  }
  static void MoveToOwned(const char (&s)[N], TVMFFIAny* out) {
    MakeStringAny(s, std::strlen(s), false, out);
  }
};

template <>
struct TypeTraits<std::string> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "str"; }
  // A view borrows the std::string's NUL-terminated buffer.
  static void CopyToView(const std::string& s, TVMFFIAny* out) {
    detail::SetRawPtr(out, kTVMFFIRawStr, s.c_str());
  }
  static void MoveToOwned(const std::string& s, TVMFFIAny* out) {
    MakeStringAny(s.data(), s.size(), false, out);
  }
  static std::optional<std::string> TryCast(const TVMFFIAny* v) {
    const char* data;
    size_t size;
    bool is_bytes;
    if (GetStringView(v, &data, &size, &is_bytes) && !is_bytes) return std::string(data, size);
    return std::nullopt;
  }
};

template <>
struct TypeTraits<Any> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "Any"; }
  static void CopyToView(const Any& a, TVMFFIAny* out) { detail::CopyRaw(out, a.raw()); }
  static void MoveToOwned(Any a, TVMFFIAny* out) { a.MoveTo(out); }
  static std::optional<Any> TryCast(const TVMFFIAny* v) { return Any(AnyView::FromRaw(*v)); }
};

template <>
struct TypeTraits<AnyView> {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return "Any"; }
  static void CopyToView(const AnyView& a, TVMFFIAny* out) { detail::CopyRaw(out, a.raw()); }
  static void MoveToOwned(const AnyView& a, TVMFFIAny* out) { AnyViewToOwned(a.raw(), out); }
  static std::optional<AnyView> TryCast(const TVMFFIAny* v) { return AnyView::FromRaw(*v); }
};

template <typename T>
struct TypeTraits<std::optional<T>> {
  static constexpr bool kEnabled = TypeTraits<T>::kEnabled;
  static std::string TypeStr() { return "Optional[" + TypeTraits<T>::TypeStr() + "]"; }
  static void CopyToView(const std::optional<T>& v, TVMFFIAny* out) {
    if (v.has_value()) {
      TypeTraits<T>::CopyToView(*v, out);
    } else {
      detail::SetNone(out);
    }
  }
  static void MoveToOwned(std::optional<T> v, TVMFFIAny* out) {
    if (v.has_value()) {
      TypeTraits<T>::MoveToOwned(std::move(*v), out);
    } else {
      detail::SetNone(out);
    }
  }
  static std::optional<std::optional<T>> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFINone) return std::optional<T>();
    std::optional<T> inner = TypeTraits<T>::TryCast(v);
    if (!inner.has_value()) return std::nullopt;
    return std::optional<T>(std::move(inner));
  }
};

// The conversions every object reference shares: an undefined reference is
// None; a view borrows the object, an owned value takes the reference over.
// Specialisations for particular references derive from this and add
// TryCast (and TypeStr where the type key is not the name users read).
template <typename Ref>
struct ObjectRefTraitsBase {
  static constexpr bool kEnabled = true;
  static std::string TypeStr() { return Ref::ContainerType::kTypeKey; }
  static void CopyToView(const Ref& r, TVMFFIAny* out) {
    const Object* obj = r.get();
    if (obj == nullptr) {
      detail::SetNone(out);
      return;
    }
    detail::SetRawPtr(out, obj->type_index(), obj->handle());
  }
  static void MoveToOwned(Ref r, TVMFFIAny* out) {
    Object* obj = std::move(r).MoveData().release();
    if (obj == nullptr) {
      detail::SetNone(out);
      return;
    }
    detail::SetRawPtr(out, obj->type_index(), obj->handle());
  }
};

// Object references: any class derived from ObjectRef with a ContainerType.
// String and Bytes also accept their small and borrowed forms.
template <typename Ref>
struct TypeTraits<Ref, std::enable_if_t<std::is_base_of<ObjectRef, Ref>::value>>
    : ObjectRefTraitsBase<Ref> {
  using Container = typename Ref::ContainerType;
  static constexpr bool kIsString = std::is_same<Ref, String>::value;
  static constexpr bool kIsBytes = std::is_same<Ref, Bytes>::value;

  static std::string TypeStr() {
    if (kIsString) return "str";
    if (kIsBytes) return "bytes";
    return Container::kTypeKey;
  }
  // Short strings and bytes become the small (inline) form.
  static void MoveToOwned(Ref r, TVMFFIAny* out) {
    if constexpr (kIsString || kIsBytes) {
      if (r.defined() && r.size() <= kSmallStrMaxLen) {
        MakeStringAny(r.data(), r.size(), kIsBytes, out);
        return;
      }
    }
    ObjectRefTraitsBase<Ref>::MoveToOwned(std::move(r), out);
  }
  static std::optional<Ref> TryCast(const TVMFFIAny* v) {
    if constexpr (kIsString || kIsBytes) {
      if (v->type_index == Container::kStaticTypeIndex) {
        return Ref(ObjectPtr<Object>::BorrowHandle(v->v_obj));
      }
      const char* data;
      size_t size;
      bool is_bytes;
      if (GetStringView(v, &data, &size, &is_bytes) && is_bytes == kIsBytes) {
        return Ref(data, size);
      }
      return std::nullopt;
    } else {
      if (v->type_index < kTVMFFIStaticObjectBegin) return std::nullopt;
      Object* obj = Object::FromHandle(v->v_obj);
      if (!obj->IsInstanceIndex(Container::RuntimeTypeIndex())) return std::nullopt;
      return Ref(ObjectPtr<Object>::Borrow(obj));
    }
  }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ANY_H_

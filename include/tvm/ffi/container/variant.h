/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/variant.h
 * \brief Variant<V...>: holds a value of exactly one of the listed types.
 *
 * A Variant is an Any inside (16 bytes, C++ ABI), so passing one through the
 * C ABI passes the value itself.  On conversion from an Any, a value whose
 * type is already one of V is kept unchanged; any other value becomes the
 * first V, in the order listed, that it converts to.
 */
#ifndef TVM_FFI_CONTAINER_VARIANT_H_
#define TVM_FFI_CONTAINER_VARIANT_H_

#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/optional.h>

namespace tvm {
namespace ffi {

template <typename... V>
class Variant;

/// \cond Doxygen_Suppress
// A Variant converts by its own TypeTraits below, never the default ones.
template <typename... V>
inline constexpr bool use_default_type_traits_v<Variant<V...>> = false;
// A Variant accepts what any of its alternatives accepts.
template <typename... V, typename T>
inline constexpr bool type_subsumes_v<Variant<V...>, T> = (type_subsumes_v<V, T> || ...);
/// \endcond

/*!
 * \brief A value of one of the types V.  It is empty only in the sense that
 *        one of V may itself be nullable (an Optional, a nullable ObjectRef).
 */
template <typename... V>
class Variant {
  static_assert(detail::all_storage_enabled_v<V...>,
                "every type of a Variant must be storable in an Any");

  // The held value; the whole state of a Variant (its layout is an Any's).
  Any data_;

  // The conversions into and out of Any, and the pointer hash/equality,
  // reach the storage through the helpers below.
  friend struct TypeTraits<Variant<V...>>;
  friend struct ObjectPtrHash;
  friend struct ObjectPtrEqual;

  explicit Variant(Any data) : data_(std::move(data)) {}

  // A non-owning view of the held value.
  TVM_FFI_INLINE AnyView Peek() const { return data_.operator AnyView(); }
  // The held value moved out; this Variant is left holding None.
  TVM_FFI_INLINE Any Release() && {
    Any out;
    out.swap(data_);
    return out;
  }
  // The held object, for ObjectPtrHash/ObjectPtrEqual (ObjectRef alternatives only).
  TVM_FFI_INLINE Object* HeldObject() const {
    static_assert(detail::all_object_ref_v<V...>,
                  "ObjectPtrHash/ObjectPtrEqual need a Variant of ObjectRef types");
    return detail::AnyUnsafe::RawObjectPtrFromAnyAfterCheck<Object>(data_);
  }

 public:
  /*! \brief True when T is one of V, or a subtype of one of them. */
  template <typename T>
  static constexpr bool variant_contains_v = (type_subsumes_v<V, T> || ...);
  /*! \brief Restricts a member template to such T. */
  template <typename T>
  using enable_if_variant_contains_t = std::enable_if_t<variant_contains_v<T>>;
  /// \cond Doxygen_Suppress
  static constexpr bool _type_container_is_exact = false;
  /// \endcond

  /*! \brief Holds `value` (implicit: a T is a valid Variant as it stands). */
  template <typename T, typename = enable_if_variant_contains_t<T>>
  Variant(T value) : data_(std::move(value)) {}  // NOLINT(*)
  // Copies share the held value, as copies of an Any do.
  TVM_FFI_INLINE Variant(const Variant<V...>& other) = default;
  TVM_FFI_INLINE Variant(Variant<V...>&& other) noexcept = default;
  TVM_FFI_INLINE ~Variant() = default;
  TVM_FFI_INLINE Variant& operator=(const Variant<V...>& other) = default;
  TVM_FFI_INLINE Variant& operator=(Variant<V...>&& other) noexcept = default;
  /*! \brief Replaces the held value by `value`. */
  template <typename T, typename = enable_if_variant_contains_t<T>>
  TVM_FFI_INLINE Variant& operator=(T value) {
    data_ = Any(std::move(value));
    return *this;
  }

  /*! \brief Identity comparison of the held values (Any::same_as). */
  TVM_FFI_INLINE bool same_as(const Variant<V...>& other) const {
    return data_.same_as(other.data_);
  }
  /*! \brief The type key of the held value ("int", "ffi.Array", ...). */
  TVM_FFI_INLINE std::string GetTypeKey() const { return data_.GetTypeKey(); }

  /*! \brief The held object as a T*, or null when it is not a T. */
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Object, T>>>
  TVM_FFI_INLINE const T* as() const {
    AnyView view = Peek();
    std::optional<const T*> ptr = view.as<const T*>();
    return ptr.has_value() ? *ptr : nullptr;
  }
  /*! \brief The value as a T when it holds one (exactly or by conversion), else nullopt. */
  template <typename T, typename = enable_if_variant_contains_t<T>>
  TVM_FFI_INLINE std::optional<T> as() const {
    AnyView view = Peek();
    return view.as<T>();
  }

  /*! \brief The value as a T; TypeError when it is not one. */
  template <typename T, typename = enable_if_variant_contains_t<T>>
  TVM_FFI_INLINE T get() const& {
    AnyView view = Peek();
    return view.cast<T>();
  }
  /*! \brief As get() const&, moving the held value out where no conversion is needed. */
  template <typename T, typename = enable_if_variant_contains_t<T>>
  TVM_FFI_INLINE T get() && {
    Any held = std::move(*this).Release();
    return std::move(held).cast<T>();
  }
};

/*! \brief Variant in Any: the held value. */
template <typename... V>
struct TypeTraits<Variant<V...>> : public TypeTraitsBase {
  using Self = Variant<V...>;

  // Exactly one of the alternatives already: taken as is.
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    bool exact = false;
    ((exact = exact || TypeTraits<V>::CheckAnyStrict(src)), ...);
    return exact;
  }
  TVM_FFI_INLINE static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    AnyView view = AnyView::CopyFromTVMFFIAny(*src);
    return Self(Any(view));
  }
  TVM_FFI_INLINE static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    Any owned = detail::AnyUnsafe::MoveTVMFFIAnyToAny(src);
    return Self(std::move(owned));
  }
  TVM_FFI_INLINE static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    AnyView view = src.Peek();
    *result = view.CopyToTVMFFIAny();
  }
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    Any owned = std::move(src).Release();
    *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(owned));
  }
  // The value's own type name: no alternative says more than another.
  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraitsBase::GetMismatchTypeInfo(src);
  }
  TVM_FFI_INLINE static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    std::optional<Self> out;
    // The first alternative, in order, that the value converts to.
    (TryOne<V>(src, &out) || ...);
    return out;
  }
  TVM_FFI_INLINE static std::string TypeStr() { return detail::ContainerTypeStr<V...>("Variant"); }
  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string out = "{\"type\":\"Variant\",\"args\":[";
    const char* sep = "";
    ((out += sep, out += detail::TypeSchema<V>::v(), sep = ","), ...);
    return out + "]}";
  }

 private:
  template <typename T>
  static bool TryOne(const TVMFFIAny* src, std::optional<Self>* out) {
    std::optional<T> converted = TypeTraits<T>::TryCastFromAnyView(src);
    if (!converted.has_value()) return false;
    out->emplace(Self(Any(*std::move(converted))));
    return true;
  }
};

// Pointer identity of the held objects (ObjectRef alternatives only).
template <typename... V>
TVM_FFI_INLINE bool ObjectPtrEqual::operator()(const Variant<V...>& a,
                                               const Variant<V...>& b) const {
  const Object* lhs = a.HeldObject();
  return lhs == b.HeldObject();
}
template <typename... V>
TVM_FFI_INLINE size_t ObjectPtrHash::operator()(const Variant<V...>& a) const {
  Object* held = a.HeldObject();
  return std::hash<Object*>()(held);
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_VARIANT_H_

/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/optional.h
 * \brief Optional<T>: a T or nothing, stored the way an Any would store it.
 *
 * Four layouts (C++ ABI), chosen by T:
 *   - a reference type (ObjectRef and subclasses): { ObjectPtr<Object> }, 8
 *     bytes, null meaning "no value";
 *   - ObjectPtr<U> or Arc<U>: an ObjectPtr<U> it derives from, 8 bytes;
 *   - any other type an Any can hold (int, double, String, ...): { Any },
 *     16 bytes, None meaning "no value";
 *   - a type an Any cannot hold: std::optional<T>.
 * As an Any, an empty Optional is None.
 */
#ifndef TVM_FFI_OPTIONAL_H_
#define TVM_FFI_OPTIONAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief True for Arc<U>. */
template <typename T>
inline constexpr bool is_arc_type_v = false;
template <typename TObject>
inline constexpr bool is_arc_type_v<Arc<TObject>> = true;

/*! \brief True for ObjectPtr<U>. */
template <typename T>
inline constexpr bool is_object_ptr_type_v = false;
template <typename TObject>
inline constexpr bool is_object_ptr_type_v<ObjectPtr<TObject>> = true;

/*! \brief True for Optional<T>. */
template <typename T>
inline constexpr bool is_optional_type_v = false;
template <typename T>
inline constexpr bool is_optional_type_v<Optional<T>> = true;

/*! \brief True when Optional<T> is stored as an ObjectPtr<Object> (reference types). */
template <typename T>
inline constexpr bool use_object_ref_optional_v =
    !is_optional_type_v<T> && std::is_base_of_v<ObjectRef, T>;

/*! \brief True when Optional<T> is stored as an object pointer (either 8-byte layout). */
template <typename T>
inline constexpr bool use_object_ptr_optional_v =
    use_object_ref_optional_v<T> || is_object_ptr_type_v<T> || is_arc_type_v<T>;

namespace detail {
/*! \brief The error of value() on an empty Optional. */
[[noreturn]] TVM_FFI_COLD_CODE TVM_FFI_NO_INLINE inline void ThrowBadOptionalAccess() {
  TVM_FFI_THROW(RuntimeError) << "Bad optional access";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief Optional of a type an Any cannot hold: a std::optional<T>. */
template <typename T>
class Optional<T,
               std::enable_if_t<!TypeTraits<T>::storage_enabled && !use_object_ptr_optional_v<T>>> {
 public:
  /*! \brief Holds `other`. */
  TVM_FFI_INLINE Optional(T other) : data_(std::move(other)) {}                  // NOLINT(*)
  TVM_FFI_INLINE Optional(std::optional<T> other) : data_(std::move(other)) {}  // NOLINT(*)
  /*! \brief Empty. */
  Optional() = default;
  Optional(std::nullopt_t) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional(const Optional& other) = default;
  TVM_FFI_INLINE Optional(Optional&& other) noexcept = default;
  TVM_FFI_INLINE ~Optional() = default;

  TVM_FFI_INLINE Optional& operator=(std::nullopt_t) { return Set(std::nullopt); }
  TVM_FFI_INLINE Optional& operator=(T other) { return Set(std::move(other)); }
  TVM_FFI_INLINE Optional& operator=(const Optional& other) = default;
  TVM_FFI_INLINE Optional& operator=(Optional&& other) noexcept = default;

  /*! \brief The value. \throws RuntimeError "Bad optional access" when empty. */
  TVM_FFI_INLINE const T& value() const& {
    if (TVM_FFI_PREDICT_FALSE(!data_.has_value())) detail::ThrowBadOptionalAccess();
    return *data_;
  }
  TVM_FFI_INLINE T&& value() && {
    if (TVM_FFI_PREDICT_FALSE(!data_.has_value())) detail::ThrowBadOptionalAccess();
    return *std::move(data_);
  }
  template <typename U = std::remove_cv_t<T>>
  TVM_FFI_INLINE T value_or(U&& default_value) const {
    return data_.value_or(std::forward<U>(default_value));
  }
  /*! \brief The value, unchecked. */
  TVM_FFI_INLINE const T& operator*() const& noexcept { return *data_; }
  TVM_FFI_INLINE T&& operator*() && noexcept { return *std::move(data_); }
  TVM_FFI_INLINE bool has_value() const noexcept { return data_.has_value(); }
  TVM_FFI_INLINE explicit operator bool() const noexcept { return has_value(); }

  /*! \brief Comparisons are std::optional's (by value; empty equals empty). */
  TVM_FFI_INLINE bool operator!=(const Optional& other) const { return data_ != other.data_; }
  TVM_FFI_INLINE bool operator==(const Optional& other) const { return data_ == other.data_; }
  template <typename U>
  TVM_FFI_INLINE bool operator!=(const U& other) const {
    return data_ != other;
  }
  template <typename U>
  TVM_FFI_INLINE bool operator==(const U& other) const {
    return data_ == other;
  }

 private:
  Optional& Set(std::optional<T> value) {
    data_ = std::move(value);
    return *this;
  }

  std::optional<T> data_;
};

/*! \brief Optional of a value type an Any can hold: an Any, None when empty. */
template <typename T>
class Optional<T,
               std::enable_if_t<TypeTraits<T>::storage_enabled && !use_object_ptr_optional_v<T>>> {
 public:
  /*! \brief Holds `value`. */
  TVM_FFI_INLINE Optional(T&& value) : data_(std::move(value)) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional(const T& value) : data_(value) {}        // NOLINT(*)
  TVM_FFI_INLINE Optional(std::optional<T> other) {                // NOLINT(*)
    if (other.has_value()) data_ = Any(*std::move(other));
  }
  /*! \brief Empty (None). */
  Optional() = default;
  Optional(std::nullopt_t) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional(const Optional& other) = default;
  TVM_FFI_INLINE Optional(Optional&& other) noexcept = default;
  TVM_FFI_INLINE ~Optional() = default;

  TVM_FFI_INLINE Optional& operator=(std::nullopt_t) { return Set(Any()); }
  TVM_FFI_INLINE Optional& operator=(std::nullptr_t) { return Set(Any()); }
  TVM_FFI_INLINE Optional& operator=(T other) { return Set(Any(std::move(other))); }
  TVM_FFI_INLINE Optional& operator=(const Optional& other) = default;
  TVM_FFI_INLINE Optional& operator=(Optional&& other) noexcept = default;

  TVM_FFI_INLINE T value() const& {
    if (TVM_FFI_PREDICT_FALSE(!has_value())) detail::ThrowBadOptionalAccess();
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  TVM_FFI_INLINE T value() && {
    if (TVM_FFI_PREDICT_FALSE(!has_value())) detail::ThrowBadOptionalAccess();
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  template <typename U = std::remove_cv_t<T>>
  TVM_FFI_INLINE T value_or(U&& default_value) const {
    if (!has_value()) return T(std::forward<U>(default_value));
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_);
  }
  TVM_FFI_INLINE explicit operator bool() const noexcept { return has_value(); }
  TVM_FFI_INLINE bool has_value() const noexcept {
    return data_.type_index() != TypeIndex::kTVMFFINone;
  }


  /*! \brief The value, unchecked. */
  TVM_FFI_INLINE T operator*() const& { return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(data_); }
  TVM_FFI_INLINE T operator*() && {
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }

  /*! \brief The held value as a U, moved out (see Any::as_or_throw). */
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>>>
  TVM_FFI_INLINE auto as_or_throw() && {
    return std::move(data_).template as_or_throw<U>();
  }
  /*! \brief The held value as a U (see Any::as and Any::as_or_throw). */
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::convert_enabled || std::is_same_v<U, Any>>>
  TVM_FFI_INLINE auto as_or_throw() const& {
    return data_.template as_or_throw<U>();
  }
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::convert_enabled || std::is_same_v<U, Any> ||
                                        std::is_base_of_v<Object, U>>>
  TVM_FFI_INLINE auto as() const {
    return data_.template as<U>();
  }

  // ---- Comparisons ------------------------------------------------------
  // An empty Optional equals nullopt, nullptr and other empty optionals only.
  // Two set values compare with T's own == / != (whatever type that gives).

  TVM_FFI_INLINE bool operator==(std::nullopt_t) const noexcept { return !has_value(); }
  TVM_FFI_INLINE bool operator!=(std::nullopt_t) const noexcept { return has_value(); }
  TVM_FFI_INLINE bool operator==(std::nullptr_t) const noexcept { return !has_value(); }
  TVM_FFI_INLINE bool operator!=(std::nullptr_t) const noexcept { return has_value(); }

  TVM_FFI_INLINE auto operator==(const Optional& other) const { return CompareTo<true>(other); }
  TVM_FFI_INLINE auto operator!=(const Optional& other) const { return CompareTo<false>(other); }
  TVM_FFI_INLINE auto operator==(const std::optional<T>& other) const {
    return CompareToStd<true>(other);
  }
  TVM_FFI_INLINE auto operator!=(const std::optional<T>& other) const {
    return CompareToStd<false>(other);
  }
  /*! \brief A plain value: never equal while empty, else T's comparison. */
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<U> &&
                                                    !std::is_same_v<U, std::nullopt_t> &&
                                                    !std::is_same_v<U, std::nullptr_t>>>
  TVM_FFI_INLINE auto operator==(const U& other) const {
    return CompareToValue<true>(other);
  }
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<U> &&
                                                    !std::is_same_v<U, std::nullopt_t> &&
                                                    !std::is_same_v<U, std::nullptr_t>>>
  TVM_FFI_INLINE auto operator!=(const U& other) const {
    return CompareToValue<false>(other);
  }

  /*! \brief Whether both hold the very same thing (same bytes in the Any). */
  TVM_FFI_INLINE bool same_as(const Optional& other) const { return data_.same_as(other.data_); }
  template <typename U = T, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, U>>>
  TVM_FFI_INLINE bool same_as(const U& other) const {
    return data_.same_as(other);
  }

 private:
  friend struct TypeTraits<Optional<T>>;

  // `a == b` when kEqual, `a != b` otherwise.
  template <bool kEqual, typename A, typename B>
  TVM_FFI_INLINE static auto Relation(const A& a, const B& b) {
    if constexpr (kEqual) {
      return a == b;
    } else {
      return a != b;
    }
  }
  template <bool kEqual, typename U>
  using RelationResult = decltype(Relation<kEqual>(std::declval<T>(), std::declval<U>()));

  template <bool kEqual>
  TVM_FFI_INLINE auto CompareTo(const Optional& other) const {
    using R = RelationResult<kEqual, T>;
    // Identical storage (both empty, or one object) settles it without T.
    if (data_.same_as(other.data_)) return R(kEqual);
    if (has_value() && other.has_value()) return R(Relation<kEqual>(**this, *other));
    return R(!kEqual);
  }
  template <bool kEqual>
  TVM_FFI_INLINE auto CompareToStd(const std::optional<T>& other) const {
    using R = RelationResult<kEqual, T>;
    if (has_value() && other.has_value()) return R(Relation<kEqual>(**this, *other));
    const bool both_empty = !has_value() && !other.has_value();
    return R(both_empty == kEqual);
  }
  template <bool kEqual, typename U>
  TVM_FFI_INLINE auto CompareToValue(const U& other) const {
    using R = RelationResult<kEqual, U>;
    if constexpr (std::is_base_of_v<ObjectRef, T> && std::is_base_of_v<ObjectRef, U>) {
      if (data_.same_as(other)) return R(kEqual);
    }
    if (!has_value()) return R(!kEqual);
    return R(Relation<kEqual>(**this, other));
  }

  TVM_FFI_INLINE explicit Optional(Any data) : data_(std::move(data)) {}
  TVM_FFI_INLINE AnyView ToAnyView() const { return data_.operator AnyView(); }
  TVM_FFI_INLINE Any MoveToAny() && { return std::move(data_); }
  Optional& Set(Any value) {
    data_ = std::move(value);
    return *this;
  }

  Any data_;
};

/*! \brief Optional of a reference type: one ObjectPtr<Object>, null when empty. */
template <typename T>
class Optional<T, std::enable_if_t<use_object_ref_optional_v<T>>> {
 public:
  using value_type = T;
  using ContainerType = typename T::ContainerType;

  Optional() = default;
  TVM_FFI_INLINE ~Optional() = default;
  TVM_FFI_INLINE Optional(const Optional&) = default;
  TVM_FFI_INLINE Optional(Optional&&) noexcept = default;
  explicit Optional(UnsafeInit) {}
  Optional(std::nullopt_t) {}  // NOLINT(*)
  Optional(std::nullptr_t) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional(std::optional<T> other) {  // NOLINT(*)
    if (other.has_value()) data_ = Unwrap(*std::move(other));
  }
  TVM_FFI_INLINE Optional(T other) : data_(Unwrap(std::move(other))) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional& operator=(const Optional&) = default;
  TVM_FFI_INLINE Optional& operator=(Optional&& other) noexcept {
    data_ = std::move(other.data_);
    return *this;
  }
  TVM_FFI_INLINE Optional& operator=(T other) {
    data_ = Unwrap(std::move(other));
    return *this;
  }
  TVM_FFI_INLINE Optional& operator=(std::nullopt_t) {
    data_ = nullptr;
    return *this;
  }
  TVM_FFI_INLINE Optional& operator=(std::nullptr_t) {
    data_ = nullptr;
    return *this;
  }

  /*! \brief Whether a value is held. */
  TVM_FFI_INLINE bool has_value() const noexcept { return data_ != nullptr; }
  TVM_FFI_INLINE explicit operator bool() const noexcept { return data_ != nullptr; }

  // Access to the referenced object (nullptr when empty) and its identity.
  TVM_FFI_INLINE const ContainerType* get() const {
    return static_cast<const ContainerType*>(data_.get());
  }
  TVM_FFI_INLINE const ContainerType* operator->() const { return get(); }
  TVM_FFI_INLINE int use_count() const { return data_.use_count(); }
  TVM_FFI_INLINE bool unique() const { return data_.unique(); }
  TVM_FFI_INLINE bool same_as(const ObjectRef& other) const { return data_.get() == other.get(); }
  TVM_FFI_INLINE bool same_as(const Optional& other) const { return data_ == other.data_; }

  /*! \brief The value, unchecked (an empty reference when there is none). */
  TVM_FFI_INLINE T operator*() && noexcept { return Wrap(std::move(data_)); }
  TVM_FFI_INLINE T operator*() const& noexcept { return Wrap(data_); }
  /*! \brief The value; an empty Optional throws (see ThrowBadOptionalAccess). */
  TVM_FFI_INLINE T value() && {
    CheckHasValue();
    return Wrap(std::move(data_));
  }
  TVM_FFI_INLINE T value() const& {
    CheckHasValue();
    return Wrap(data_);
  }
  /*! \brief The value, or T(default_value) when empty. */
  template <typename U = std::remove_cv_t<T>>
  TVM_FFI_INLINE T value_or(U&& default_value) const {
    if (data_ == nullptr) return T(std::forward<U>(default_value));
    return Wrap(data_);
  }

  /*! \brief The value moved out as a U (this Optional becomes empty); TypeError if not one. */
  template <typename U, typename = std::enable_if_t<TypeTraits<U>::storage_enabled>>
  TVM_FFI_INLINE auto as_or_throw() && {
    AnyView view(data_);
    if (TVM_FFI_PREDICT_TRUE(detail::AnyUnsafe::CheckAnyViewStrict<U>(view))) {
      return detail::AnyUnsafe::MoveFromAnyAfterCheck<U>(Any(std::move(data_)));
    }
    return view.template as_or_throw<U>();
  }
  template <typename U, typename = std::enable_if_t<TypeTraits<U>::convert_enabled>>
  TVM_FFI_INLINE auto as_or_throw() const& {
    return AnyView(*this).template as_or_throw<U>();
  }
  template <typename U, typename = std::enable_if_t<TypeTraits<U>::convert_enabled ||
                                                    std::is_base_of_v<Object, U>>>
  TVM_FFI_INLINE auto as() const {
    return AnyView(*this).template as<U>();
  }

  // Comparisons.  Emptiness: nullopt and nullptr both mean "no value".
  TVM_FFI_INLINE bool operator==(std::nullptr_t) const noexcept { return data_ == nullptr; }
  TVM_FFI_INLINE bool operator==(std::nullopt_t) const noexcept { return data_ == nullptr; }
  TVM_FFI_INLINE bool operator!=(std::nullptr_t) const noexcept { return data_ != nullptr; }
  TVM_FFI_INLINE bool operator!=(std::nullopt_t) const noexcept { return data_ != nullptr; }
  // Two optionals: both empty, or both set and equal.
  TVM_FFI_INLINE auto operator==(const std::optional<T>& other) const { return EqualTo(other); }
  TVM_FFI_INLINE auto operator==(const Optional& other) const { return EqualTo(other); }
  TVM_FFI_INLINE auto operator!=(const std::optional<T>& other) const {
    return NotEqualTo(other);
  }
  TVM_FFI_INLINE auto operator!=(const Optional& other) const { return NotEqualTo(other); }
  /*! \brief Set and equal to `other` (the same object counts as equal before T's == is asked). */
  TVM_FFI_INLINE auto operator==(const T& other) const {
    using Result = decltype(value() == other);
    if (data_ == nullptr) return Result(false);
    return same_as(other) ? Result(true) : Result(operator*() == other);
  }
  TVM_FFI_INLINE auto operator!=(const T& other) const { return !(*this == other); }
  // Against anything else T compares with: an empty Optional is unequal.
  template <typename U>
  TVM_FFI_INLINE auto operator!=(const U& other) const {
    using Result = decltype(value() != other);
    return data_ == nullptr ? Result(true) : Result(operator*() != other);
  }
  template <typename U>
  TVM_FFI_INLINE auto operator==(const U& other) const {
    using Result = decltype(value() == other);
    return data_ == nullptr ? Result(false) : Result(operator*() == other);
  }

 private:
  ObjectPtr<Object> data_;
  friend struct detail::ObjectUnsafe;

  TVM_FFI_INLINE void CheckHasValue() const {
    if (TVM_FFI_PREDICT_FALSE(data_ == nullptr)) detail::ThrowBadOptionalAccess();
  }

  static ObjectPtr<Object> Unwrap(T&& ref) {
    return detail::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(std::move(ref));
  }
  static T Wrap(const ObjectPtr<Object>& ptr) {
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(ptr);
  }
  static T Wrap(ObjectPtr<Object>&& ptr) {
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(std::move(ptr));
  }
  /*! \brief Equality with another optional: both empty, or identical, or T's ==. */
  template <typename Other>
  TVM_FFI_INLINE auto EqualTo(const Other& other) const {
    using Result = decltype(operator*() == *other);
    if (!has_value() || !other.has_value()) return Result(has_value() == other.has_value());
    if (same_as(*other)) return Result(true);
    return operator*() == *other;
  }
  /*! \brief The negation, through T's != (which may not return bool). */
  template <typename Other>
  TVM_FFI_INLINE auto NotEqualTo(const Other& other) const {
    using Result = decltype(operator*() != *other);
    if (!has_value() || !other.has_value()) return Result(has_value() != other.has_value());
    if (same_as(*other)) return Result(false);
    return operator*() != *other;
  }
};

namespace detail {
/*!
 * \brief How Optional<ObjectPtr<U>> and Optional<Arc<U>> store their value
 *        (always as an ObjectPtr<U>) and hand it out (as the pointer type).
 */
template <typename T>
struct OptionalObjectPtrTraits;
template <template <typename> class PtrType, typename TObject>
struct OptionalObjectPtrTraits<PtrType<TObject>> {
  using ContainerType = TObject;
  using StorageType = ObjectPtr<TObject>;
  static constexpr bool kIsArc = is_arc_type_v<PtrType<TObject>>;

  TVM_FFI_INLINE static PtrType<TObject> Copy(const StorageType& value) {
    return Move(StorageType(value));
  }
  TVM_FFI_INLINE static PtrType<TObject> Move(StorageType&& value) {
    if constexpr (kIsArc) {
      return ObjectUnsafe::ArcFromObjectPtr(std::move(value));
    } else {
      return std::move(value);
    }
  }
};
}  // namespace detail

/*! \brief Optional of ObjectPtr<U> or Arc<U>: an ObjectPtr<U>, null when empty. */
template <typename T>
class Optional<T, std::enable_if_t<is_object_ptr_type_v<T> || is_arc_type_v<T>>>
    : public detail::OptionalObjectPtrTraits<T>::StorageType {
 private:
  using Traits = detail::OptionalObjectPtrTraits<T>;
  using StorageType = typename Traits::StorageType;

  StorageType& storage() { return *this; }
  const StorageType& storage() const { return *this; }

 public:
  using ContainerType = typename Traits::ContainerType;

  Optional() = default;
  TVM_FFI_INLINE ~Optional() = default;
  TVM_FFI_INLINE Optional(const Optional&) = default;
  TVM_FFI_INLINE Optional(Optional&&) noexcept = default;
  Optional(std::nullopt_t) : StorageType(nullptr) {}  // NOLINT(*)
  Optional(std::nullptr_t) : StorageType(nullptr) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional(std::optional<T> other) {   // NOLINT(*)
    if (other.has_value()) storage() = StorageType(*std::move(other));
  }
  TVM_FFI_INLINE Optional(T value) : StorageType(std::move(value)) {}  // NOLINT(*)
  TVM_FFI_INLINE Optional& operator=(const Optional&) = default;
  TVM_FFI_INLINE Optional& operator=(Optional&& other) noexcept {
    storage() = std::move(other.storage());
    return *this;
  }
  TVM_FFI_INLINE Optional& operator=(T value) {
    storage() = StorageType(std::move(value));
    return *this;
  }
  TVM_FFI_INLINE Optional& operator=(std::nullopt_t) {
    StorageType::reset();
    return *this;
  }
  TVM_FFI_INLINE Optional& operator=(std::nullptr_t) {
    StorageType::reset();
    return *this;
  }

  TVM_FFI_INLINE T value() const& {
    if (TVM_FFI_PREDICT_FALSE(!has_value())) detail::ThrowBadOptionalAccess();
    return Traits::Copy(storage());
  }
  TVM_FFI_INLINE T value() && {
    if (TVM_FFI_PREDICT_FALSE(!has_value())) detail::ThrowBadOptionalAccess();
    return Traits::Move(std::move(storage()));
  }
  template <typename U = T>
  TVM_FFI_INLINE T value_or(U&& default_value) const {
    return has_value() ? Traits::Copy(storage()) : T(std::forward<U>(default_value));
  }
  TVM_FFI_INLINE explicit operator bool() const noexcept { return has_value(); }
  TVM_FFI_INLINE bool has_value() const noexcept { return StorageType::get() != nullptr; }

  template <typename U, typename = std::enable_if_t<TypeTraits<U>::convert_enabled ||
                                                    std::is_base_of_v<Object, U>>>
  TVM_FFI_INLINE auto as() const {
    return AnyView(*this).template as<U>();
  }
  template <typename U, typename = std::enable_if_t<TypeTraits<U>::convert_enabled>>
  TVM_FFI_INLINE auto as_or_throw() const& {
    return AnyView(*this).template as_or_throw<U>();
  }
  template <typename U, typename = std::enable_if_t<TypeTraits<U>::storage_enabled>>
  TVM_FFI_INLINE auto as_or_throw() && {
    AnyView view(storage());
    if (TVM_FFI_PREDICT_FALSE(!detail::AnyUnsafe::CheckAnyViewStrict<U>(view))) {
      return view.template as_or_throw<U>();
    }
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<U>(Any(std::move(storage())));
  }

  TVM_FFI_INLINE T operator*() const& noexcept { return Traits::Copy(storage()); }
  TVM_FFI_INLINE T operator*() && noexcept { return Traits::Move(std::move(storage())); }

  TVM_FFI_INLINE bool operator==(std::nullopt_t) const noexcept { return !has_value(); }
  TVM_FFI_INLINE bool operator!=(std::nullopt_t) const noexcept { return has_value(); }
  TVM_FFI_INLINE bool operator==(std::nullptr_t) const noexcept { return !has_value(); }
  TVM_FFI_INLINE bool operator!=(std::nullptr_t) const noexcept { return has_value(); }
  /*! \brief Pointer identity. */
  TVM_FFI_INLINE bool operator==(const Optional& other) const noexcept { return same_as(other); }
  TVM_FFI_INLINE bool operator!=(const Optional& other) const noexcept { return !same_as(other); }
  TVM_FFI_INLINE bool operator==(const T& other) const noexcept { return same_as(other); }
  TVM_FFI_INLINE bool operator!=(const T& other) const noexcept { return !same_as(other); }
  using StorageType::get;
  using StorageType::unique;
  using StorageType::use_count;
  /*! \brief Pointer identity (an empty Optional is the same as a null pointer). */
  TVM_FFI_INLINE bool same_as(const T& other) const noexcept { return get() == other.get(); }
  TVM_FFI_INLINE bool same_as(const Optional& other) const noexcept { return get() == other.get(); }
};

template <typename T>
inline constexpr bool use_default_type_traits_v<Optional<T>> = false;

/*!
 * \brief Optional<T> in an Any: None when empty, else as T.  It may live in
 *        an Any exactly when T may.
 */
template <typename T>
struct TypeTraits<Optional<T>> : public TypeTraitsBase {
  static constexpr bool storage_enabled = TypeTraits<T>::storage_enabled;
  static constexpr bool kAnyBacked = TypeTraits<T>::storage_enabled && !use_object_ptr_optional_v<T>;

  TVM_FFI_INLINE static void CopyToAnyView(const Optional<T>& src, TVMFFIAny* result) {
    if constexpr (kAnyBacked) {
      *result = src.ToAnyView().CopyToTVMFFIAny();
    } else if (!src.has_value()) {
      TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    } else if constexpr (use_object_ptr_optional_v<T>) {
      TypeTraits<decltype(src.get())>::CopyToAnyView(src.get(), result);
    } else {
      TypeTraits<T>::CopyToAnyView(*src, result);
    }
  }
  TVM_FFI_INLINE static void MoveToAny(Optional<T> src, TVMFFIAny* result) {
    if constexpr (kAnyBacked) {
      *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(src).MoveToAny());
    } else if (!src.has_value()) {
      TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    } else {
      TypeTraits<T>::MoveToAny(*std::move(src), result);
    }
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || TypeTraits<T>::CheckAnyStrict(src);
  }
  TVM_FFI_INLINE static Optional<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if constexpr (kAnyBacked) {
      return Optional<T>(Any(AnyView::CopyFromTVMFFIAny(*src)));
    } else {
      if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>(std::nullopt);
      return Optional<T>(TypeTraits<T>::CopyFromAnyViewAfterCheck(src));
    }
  }
  TVM_FFI_INLINE static Optional<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if constexpr (kAnyBacked) {
      return Optional<T>(detail::AnyUnsafe::MoveTVMFFIAnyToAny(src));
    } else {
      if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>(std::nullopt);
      return Optional<T>(TypeTraits<T>::MoveFromAnyAfterCheck(src));
    }
  }
  /*! \brief None gives an empty Optional; otherwise T's conversions decide. */
  TVM_FFI_INLINE static std::optional<Optional<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Optional<T>(std::nullopt);
    std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src);
    if (!value.has_value()) return std::optional<Optional<T>>(std::nullopt);
    return Optional<T>(*std::move(value));
  }
  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraits<T>::GetMismatchTypeInfo(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() {
    return "Optional<" + TypeTraits<T>::TypeStr() + ">";
  }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return "{\"type\":\"Optional\",\"args\":[" + detail::TypeSchema<T>::v() + "]}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_OPTIONAL_H_

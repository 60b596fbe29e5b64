/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/tuple.h
 * \brief Tuple<Types...>: a fixed-size heterogeneous sequence stored as an
 *        ffi.Array of sizeof...(Types) elements.
 *
 * Layout (C++ ABI): Tuple = { ObjectPtr } to an ArrayObj.  In Any it is an
 * ffi.Array; an Array of the right size whose elements convert is accepted.
 * Writes (Set) copy the array first when it is shared.
 */
#ifndef TVM_FFI_CONTAINER_TUPLE_H_
#define TVM_FFI_CONTAINER_TUPLE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/object.h>

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

template <typename... Types>
class Tuple;

/// \cond Doxygen_Suppress
// A Tuple converts by its own TypeTraits below, never the default ones.
template <typename... Types>
inline constexpr bool use_default_type_traits_v<Tuple<Types...>> = false;
/// \endcond

/*! \brief An immutable-by-sharing tuple of values of Types. */
template <typename... Types>
class Tuple : public ObjectRef {
  static_assert(detail::all_storage_enabled_v<Types...>,
                "every type of a Tuple must be storable in an Any");
  // The assignments: drop this tuple's array and share `other`'s.
  TVM_FFI_INLINE Tuple& ShareFrom(ObjectRef other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }

 public:
  /// \cond Doxygen_Suppress
  using ContainerType = ArrayObj;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_container_is_exact = false;
  /// \endcond

  /*! \brief Each element default-constructed. */
  Tuple() : ObjectRef(MakeNode(Types()...)) {}
  /*! \brief A null tuple (only for the type machinery). */
  explicit Tuple(UnsafeInit tag) : ObjectRef(tag) {}
  Tuple(const Tuple<Types...>& other) : ObjectRef(other) {}
  Tuple(Tuple<Types...>&& other) noexcept : ObjectRef(std::move(other)) {}
  /*! \brief Shares a tuple whose element types are subtypes of these. */
  template <typename... UTypes,
            typename = std::enable_if_t<(type_subsumes_v<Types, UTypes> && ...), int>>
  Tuple(const Tuple<UTypes...>& other) : ObjectRef(other) {}  // NOLINT(*)
  template <typename... UTypes,
            typename = std::enable_if_t<(type_subsumes_v<Types, UTypes> && ...), int>>
  Tuple(Tuple<UTypes...>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  /*! \brief The tuple (Types(args)...). */
  template <typename... UTypes,
            typename = std::enable_if_t<
                sizeof...(Types) == sizeof...(UTypes) &&
                !(sizeof...(Types) == 1 &&
                  (std::is_same_v<std::decay_t<UTypes>, Tuple<Types>> && ...))>>
  explicit Tuple(UTypes&&... args)
      : ObjectRef(MakeNode(Types(std::forward<UTypes>(args))...)) {}

  TVM_FFI_INLINE Tuple& operator=(const Tuple<Types...>& other) { return ShareFrom(other); }
  TVM_FFI_INLINE Tuple& operator=(Tuple<Types...>&& other) noexcept {
    return ShareFrom(std::move(other));
  }
  template <typename... UTypes,
            typename = std::enable_if_t<(type_subsumes_v<Types, UTypes> && ...), int>>
  TVM_FFI_INLINE Tuple& operator=(const Tuple<UTypes...>& other) {
    return ShareFrom(other);
  }
  template <typename... UTypes,
            typename = std::enable_if_t<(type_subsumes_v<Types, UTypes> && ...), int>>
  TVM_FFI_INLINE Tuple& operator=(Tuple<UTypes...>&& other) {
    return ShareFrom(std::move(other));
  }

  /*! \brief Element I (a copy). */
  template <size_t I>
  auto get() const& {
    static_assert(I < sizeof...(Types), "Tuple index out of bounds");
    return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<Elem<I>>(GetArrayObj()->begin()[I]);
  }
  /*! \brief Element I, moved out when this tuple holds the only reference. */
  template <size_t I>
  auto get() && {
    static_assert(I < sizeof...(Types), "Tuple index out of bounds");
    if (!this->unique()) return std::as_const(*this).template get<I>();
    Any& slot = GetArrayObj()->MutableBegin()[I];
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<Elem<I>>(std::move(slot));
  }
  /*! \brief Replaces element I by Elem<I>(item), copying a shared array first. */
  template <size_t I, typename U>
  void Set(U&& item) {
    static_assert(I < sizeof...(Types), "Tuple index out of bounds");
    if (!data_.unique()) {
      const Any* old = GetArrayObj()->begin();
      data_ = MakeNodeFrom(old, std::make_index_sequence<sizeof...(Types)>());
    }
    GetArrayObj()->MutableBegin()[I] = Elem<I>(std::forward<U>(item));
  }

 private:
  template <size_t I>
  using Elem = std::tuple_element_t<I, std::tuple<Types...>>;

  static ObjectPtr<ArrayObj> MakeNode(Types... values) {
    ObjectPtr<ArrayObj> node = ArrayObj::Empty(sizeof...(Types));
    ((node->EmplaceInit(node->size(), std::move(values)), ++node->TVMFFISeqCell::size), ...);
    return node;
  }
  template <size_t... I>
  static ObjectPtr<ArrayObj> MakeNodeFrom(const Any* src, std::index_sequence<I...>) {
    ObjectPtr<ArrayObj> node = ArrayObj::Empty(sizeof...(Types));
    ((node->EmplaceInit(I, src[I]), ++node->TVMFFISeqCell::size), ...);
    return node;
  }
  ArrayObj* GetArrayObj() const { return static_cast<ArrayObj*>(data_.get()); }

  template <typename... UTypes>
  friend class Tuple;
};

/*!
 * \brief Tuple in Any: an ffi.Array of sizeof...(Types) elements; shared
 *        when each element is exactly its type, else converted into a copy.
 */
template <typename... Types>
struct TypeTraits<Tuple<Types...>> : public ObjectRefTypeTraitsBase<Tuple<Types...>> {
  using ObjectRefTypeTraitsBase<Tuple<Types...>>::CopyFromAnyViewAfterCheck;

  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    const ArrayObj* arr = SizedArray(src);
    if (arr == nullptr) return false;
    return ExactAt(arr->begin(), std::index_sequence_for<Types...>());
  }

  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return TypeTraitsBase::GetMismatchTypeInfo(src);
    const ArrayObj* arr = reinterpret_cast<const ArrayObj*>(src->v_obj);
    if (arr->size() != sizeof...(Types)) return "Array[size=" + std::to_string(arr->size()) + "]";
    std::string out;
    FirstMismatch(arr->begin(), &out, std::index_sequence_for<Types...>());
    if (out.empty()) {
      TVM_FFI_THROW(InternalError) << "GetMismatchTypeInfo on a convertible Tuple";
    }
    return out;
  }

  TVM_FFI_INLINE static std::optional<Tuple<Types...>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (SizedArray(src) == nullptr) return std::nullopt;
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    Array<Any> copy = TypeTraits<Array<Any>>::CopyFromAnyViewAfterCheck(src);
    Any* elems = copy.CopyOnWrite()->MutableBegin();
    if (!ConvertAt(elems, std::index_sequence_for<Types...>())) return std::nullopt;
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<Tuple<Types...>>(
        detail::ObjectUnsafe::ObjectPtrFromObjectRef<Object>(copy));
  }

  TVM_FFI_INLINE static std::string TypeStr() {
    return detail::ContainerTypeStr<Types...>("Tuple");
  }
  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string out = "{\"type\":\"Tuple\",\"args\":[";
    const char* sep = "";
    ((out += sep, out += detail::TypeSchema<Types>::v(), sep = ","), ...);
    return out + "]}";
  }

 private:
  static const ArrayObj* SizedArray(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return nullptr;
    const ArrayObj* arr = reinterpret_cast<const ArrayObj*>(src->v_obj);
    return arr->size() == sizeof...(Types) ? arr : nullptr;
  }
  template <typename T>
  static bool Exact(const Any& v) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return detail::AnyUnsafe::CheckAnyStrict<T>(v);
    }
  }
  template <size_t... I>
  static bool ExactAt(const Any* elems, std::index_sequence<I...>) {
    return (Exact<Types>(elems[I]) && ...);
  }
  template <typename T>
  static bool Convert(Any* slot) {
    if constexpr (!std::is_same_v<T, Any>) {
      std::optional<T> converted = slot->try_cast<T>();
      if (!converted.has_value()) return false;
      *slot = *std::move(converted);
    }
    return true;
  }
  template <size_t... I>
  static bool ConvertAt(Any* elems, std::index_sequence<I...>) {
    return (Convert<Types>(elems + I) && ...);
  }
  template <typename T>
  static bool Mismatch(const Any& v, size_t i, std::string* out) {
    if constexpr (!std::is_same_v<T, Any>) {
      if (!Exact<T>(v) && !v.try_cast<T>().has_value()) {
        *out = "Array[index " + std::to_string(i) + ": " +
               detail::AnyUnsafe::GetMismatchTypeInfo<T>(v) + "]";
        return true;
      }
    }
    return false;
  }
  template <size_t... I>
  static void FirstMismatch(const Any* elems, std::string* out, std::index_sequence<I...>) {
    (Mismatch<Types>(elems[I], I, out) || ...);
  }
};

/// \cond Doxygen_Suppress
// A Tuple<U...> fits a Tuple<T...> of the same length when each U fits its T.
template <typename... T, typename... U>
inline constexpr bool
    type_subsumes_v<Tuple<T...>, Tuple<U...>, std::enable_if_t<sizeof...(T) == sizeof...(U)>> =
        (type_subsumes_v<T, U> && ...);
/// \endcond

/*! \brief `Tuple{a, b}` and `Tuple(a, b)` deduce the element types from the arguments. */
template <typename... UTypes>
Tuple(UTypes&&...) -> Tuple<std::remove_cv_t<std::remove_reference_t<UTypes>>...>;

/// \cond Doxygen_Suppress
namespace detail {
template <std::size_t I, typename... Types>
using tuple_elem_t = std::tuple_element_t<I, std::tuple<Types...>>;
}  // namespace detail
/// \endcond

/*!
 * \brief Element I of a tuple, as std::get gives it; the rvalue form may
 *        move the element out when the tuple is not shared.
 */
template <std::size_t I, typename... Types>
inline constexpr auto get(const Tuple<Types...>& t) -> detail::tuple_elem_t<I, Types...> {
  return t.template get<I>();
}
template <std::size_t I, typename... Types>
inline constexpr auto get(Tuple<Types...>&& t) -> detail::tuple_elem_t<I, Types...> {
  return std::move(t).template get<I>();
}

}  // namespace ffi
}  // namespace tvm

// Structured bindings (`auto [x, y] = t;`) look up these two traits.
template <size_t I, typename... Types>
struct std::tuple_element<I, ::tvm::ffi::Tuple<Types...>> {
  using type = ::tvm::ffi::detail::tuple_elem_t<I, Types...>;
};
template <typename... Types>
struct std::tuple_size<::tvm::ffi::Tuple<Types...>>
    : public std::integral_constant<size_t, sizeof...(Types)> {};

#endif  // TVM_FFI_CONTAINER_TUPLE_H_

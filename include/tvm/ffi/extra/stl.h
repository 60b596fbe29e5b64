/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/stl.h
 * \brief Standard-library types as parameters and results of exported and
 *        typed functions: std::vector, std::array, std::tuple, std::map,
 *        std::unordered_map, std::optional, std::variant, std::function.
 *
 * Each conversion copies.  Going out (a result, `Any(value)`), a sequence
 * becomes a new ffi.Array, a map a new ffi.Map, a std::function an
 * ffi.Function; std::optional is its value or None, std::variant the value
 * it holds.  Coming in (a parameter, `try_cast`, `cast`):
 *
 * | C++ type                      | accepts                                          |
 * |-------------------------------|--------------------------------------------------|
 * | `std::vector<T>`              | an ffi.Array or ffi.List whose items convert to T |
 * | `std::array<T, N>`            | an ffi.Array of exactly N items                  |
 * | `std::tuple<T...>`            | an ffi.Array of exactly sizeof...(T) items       |
 * | `std::map`, `std::unordered_map` | an ffi.Map whose keys and values convert      |
 * | `std::optional<T>`            | None, or what T accepts                          |
 * | `std::variant<T...>`          | what the first alternative that takes it accepts |
 * | `std::function<R(A...)>`      | an ffi.Function (called through TypedFunction)   |
 *
 * An item that does not convert makes the whole value not convert: the
 * call fails with the usual TypeError naming the parameter's type.  These
 * types are not kept inside ffi containers (use Array, Map, Optional,
 * Variant, TypedFunction for that), and a sequence, map or function cannot
 * be passed where a view (AnyView) is taken, such as the arguments of
 * Function::operator(): it would need a new object that no one owns.
 * Convert it to Any first (`f(Any(vec))`).
 *
 * \code{.cpp}
 * std::vector<int> Sorted(std::vector<int> v) { std::sort(v.begin(), v.end()); return v; }
 * TVM_FFI_DLL_EXPORT_TYPED_FUNC(sorted, Sorted);
 * \endcode
 */
#ifndef TVM_FFI_EXTRA_STL_H_
#define TVM_FFI_EXTRA_STL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {

/*! \brief What the STL conversions share. */
struct STLTypeTrait : public TypeTraitsBase {
  /*! \brief Not kept in ffi containers (Any holds the converted ffi value instead). */
  static constexpr bool storage_enabled = false;

 protected:
  /*! \brief `item` as a T, or nullopt (no conversion to Any is needed for T = Any). */
  template <typename T>
  TVM_FFI_INLINE static std::optional<T> ItemAs(const Any& item) {
    if constexpr (std::is_same_v<T, Any>) {
      return item;
    } else {
      return TypeTraits<T>::TryCastFromAnyView(AnyUnsafe::TVMFFIAnyPtrFromAny(item));
    }
  }

  /*! \brief The object of `src` (known to be one), borrowed. */
  template <typename T>
  TVM_FFI_INLINE static const T* ObjectOf(const TVMFFIAny* src) {
    return reinterpret_cast<const T*>(src->v_obj);
  }

  /*! \brief Moves a new ffi value into the owned slot `result`. */
  TVM_FFI_INLINE static void Emit(Any value, TVMFFIAny* result) {
    *result = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
  }

  /*! \brief ", "-separated names of Ts (for TypeStr). */
  template <typename... Ts>
  static std::string Names() {
    std::ostringstream os;
    const char* sep = "";
    ((os << sep << Type2Str<Ts>::v(), sep = ", "), ...);
    (void)sep;
    return os.str();
  }
  /*! \brief ","-separated schemas of Ts (for TypeSchema). */
  template <typename... Ts>
  static std::string Schemas() {
    std::string out;
    ((out += (out.empty() ? "" : ",") + TypeSchemaImpl<Ts>::v()), ...);
    return out;
  }
};

/*! \brief Conversions of sequences (to a new ffi.Array). */
struct STLSeqTrait : public STLTypeTrait {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;

  /*! \brief A view would need a new array no one owns: use Any(value). */
  template <typename Self>
  static void CopyToAnyView(const Self&, TVMFFIAny*) {
    static_assert(sizeof(Self) == 0,
                  "an STL sequence, map or function cannot be viewed as an AnyView (it converts "
                  "to a new object); convert it with Any(value) first");
  }

 protected:
  /*! \brief A new ffi.Array of the items of a range (moved from when `items` is an rvalue). */
  template <typename Range>
  static Any ArrayOf(Range&& items) {
    Array<Any> out;
    out.reserve(static_cast<int64_t>(std::size(items)));
    for (auto&& item : items) {
      if constexpr (std::is_lvalue_reference_v<Range>) {
        out.push_back(Any(item));
      } else {
        out.push_back(Any(std::move(item)));
      }
    }
    return Any(std::move(out));
  }
  /*! \brief The sequence of `src` when it is an ffi.Array (or, with `list_too`, an ffi.List). */
  TVM_FFI_INLINE static const SeqBaseObj* SeqOf(const TVMFFIAny* src, bool list_too) {
    if (src->type_index == TypeIndex::kTVMFFIArray ||
        (list_too && src->type_index == TypeIndex::kTVMFFIList)) {
      return ObjectOf<SeqBaseObj>(src);
    }
    return nullptr;
  }
};

/*! \brief Conversions of maps (to a new ffi.Map). */
struct STLMapTrait : public STLSeqTrait {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIMap;

 protected:
  template <typename MapType>
  static Any MapOf(MapType&& items) {
    Map<Any, Any> out;
    for (auto&& kv : items) {
      if constexpr (std::is_lvalue_reference_v<MapType>) {
        out.Set(Any(kv.first), Any(kv.second));
      } else {
        out.Set(Any(kv.first), Any(std::move(kv.second)));
      }
    }
    return Any(std::move(out));
  }
  template <typename MapType>
  static std::optional<MapType> MapFrom(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIMap) return std::nullopt;
    using K = typename MapType::key_type;
    using V = typename MapType::mapped_type;
    Map<Any, Any> map = AnyView::CopyFromTVMFFIAny(*src).cast<Map<Any, Any>>();
    MapType out;
    for (const auto& kv : map) {
      std::optional<K> key = ItemAs<K>(kv.first);
      if (!key.has_value()) return std::nullopt;
      std::optional<V> value = ItemAs<V>(kv.second);
      if (!value.has_value()) return std::nullopt;
      out.emplace(*std::move(key), *std::move(value));
    }
    return out;
  }
};

}  // namespace detail

/// \cond Doxygen_Suppress
template <typename T>
struct TypeTraits<std::vector<T>> : public detail::STLSeqTrait {
  using Self = std::vector<T>;
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    Emit(ArrayOf(std::move(src)), result);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqOf(src, /*list_too=*/true);
    if (seq == nullptr) return std::nullopt;
    Self out;
    out.reserve(static_cast<size_t>(seq->size()));
    for (int64_t i = 0; i < static_cast<int64_t>(seq->size()); ++i) {
      std::optional<T> item = ItemAs<T>(seq->at(i));
      if (!item.has_value()) return std::nullopt;
      out.push_back(*std::move(item));
    }
    return out;
  }
  static std::string TypeStr() { return "std::vector<" + Names<T>() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::vector","args":[)" + Schemas<T>() + "]}";
  }
};

template <typename T, std::size_t N>
struct TypeTraits<std::array<T, N>> : public detail::STLSeqTrait {
  static_assert(N > 0, "std::array<T, 0> does not convert");
  using Self = std::array<T, N>;
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    Emit(ArrayOf(std::move(src)), result);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqOf(src, /*list_too=*/false);
    if (seq == nullptr || seq->size() != N) return std::nullopt;
    std::optional<Self> out(std::in_place);
    for (std::size_t i = 0; i < N; ++i) {
      std::optional<T> item = ItemAs<T>(seq->at(static_cast<int64_t>(i)));
      if (!item.has_value()) return std::nullopt;
      (*out)[i] = *std::move(item);
    }
    return out;
  }
  static std::string TypeStr() { return "std::array<" + Names<T>() + ", " + std::to_string(N) + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::array","args":[)" + Schemas<T>() + "," + std::to_string(N) + "]}";
  }
};

template <typename... Ts>
struct TypeTraits<std::tuple<Ts...>> : public detail::STLSeqTrait {
  static_assert(sizeof...(Ts) > 0, "std::tuple<> does not convert");
  using Self = std::tuple<Ts...>;

  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    Array<Any> out;
    out.reserve(static_cast<int64_t>(sizeof...(Ts)));
    std::apply([&](auto&&... items) { (out.push_back(Any(std::move(items))), ...); }, src);
    Emit(Any(std::move(out)), result);
  }
  /*! \brief An ffi.Array of the right size whose items are each exactly their type. */
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqOf(src, /*list_too=*/false);
    if (seq == nullptr || seq->size() != sizeof...(Ts)) return false;
    return StrictItems(seq, std::index_sequence_for<Ts...>{});
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    const SeqBaseObj* seq = SeqOf(src, /*list_too=*/false);
    if (seq == nullptr || seq->size() != sizeof...(Ts)) return std::nullopt;
    return Items(seq, std::index_sequence_for<Ts...>{});
  }
  static std::string TypeStr() { return "std::tuple<" + Names<Ts...>() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::tuple","args":[)" + Schemas<Ts...>() + "]}";
  }

 private:
  template <size_t... Is>
  static bool StrictItems(const SeqBaseObj* seq, std::index_sequence<Is...>) {
    return (detail::AnyUnsafe::CheckAnyStrict<Ts>(seq->at(static_cast<int64_t>(Is))) && ...);
  }
  template <size_t... Is>
  static std::optional<Self> Items(const SeqBaseObj* seq, std::index_sequence<Is...>) {
    std::tuple<std::optional<Ts>...> items{ItemAs<Ts>(seq->at(static_cast<int64_t>(Is)))...};
    if (!(std::get<Is>(items).has_value() && ...)) return std::nullopt;
    return Self(*std::move(std::get<Is>(items))...);
  }
};

template <typename K, typename V>
struct TypeTraits<std::map<K, V>> : public detail::STLMapTrait {
  using Self = std::map<K, V>;
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    Emit(MapOf(std::move(src)), result);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) { return MapFrom<Self>(src); }
  static std::string TypeStr() { return "std::map<" + Names<K, V>() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::map","args":[)" + Schemas<K, V>() + "]}";
  }
};

template <typename K, typename V>
struct TypeTraits<std::unordered_map<K, V>> : public detail::STLMapTrait {
  using Self = std::unordered_map<K, V>;
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    Emit(MapOf(std::move(src)), result);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) { return MapFrom<Self>(src); }
  static std::string TypeStr() { return "std::unordered_map<" + Names<K, V>() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::unordered_map","args":[)" + Schemas<K, V>() + "]}";
  }
};

template <typename T>
struct TypeTraits<std::optional<T>> : public detail::STLTypeTrait {
  using Self = std::optional<T>;
  static constexpr int32_t field_static_type_index = TypeTraits<T>::field_static_type_index;

  TVM_FFI_INLINE static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    if (src.has_value()) {
      TypeTraits<T>::CopyToAnyView(*src, result);
    } else {
      TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    }
  }
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    if (src.has_value()) {
      TypeTraits<T>::MoveToAny(*std::move(src), result);
    } else {
      TypeTraits<std::nullptr_t>::MoveToAny(nullptr, result);
    }
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || TypeTraits<T>::CheckAnyStrict(src);
  }
  TVM_FFI_INLINE static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return std::nullopt;
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return std::nullopt;
    return TypeTraits<T>::MoveFromAnyAfterCheck(src);
  }
  /*! \brief None gives an empty optional; otherwise T's conversion, or no value at all. */
  TVM_FFI_INLINE static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Self> out;
    if (src->type_index == TypeIndex::kTVMFFINone) {
      out.emplace();
    } else if (std::optional<T> inner = TypeTraits<T>::TryCastFromAnyView(src)) {
      out.emplace(std::in_place, *std::move(inner));
    }
    return out;
  }
  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraits<T>::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return "std::optional<" + TypeTraits<T>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::optional","args":[)" + Schemas<T>() + "]}";
  }
};

template <typename... Ts>
struct TypeTraits<std::variant<Ts...>> : public detail::STLTypeTrait {
  using Self = std::variant<Ts...>;

  TVM_FFI_INLINE static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    std::visit(
        [&](const auto& value) {
          TypeTraits<std::decay_t<decltype(value)>>::CopyToAnyView(value, result);
        },
        src);
  }
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    std::visit(
        [&](auto&& value) {
          using V = std::decay_t<decltype(value)>;
          TypeTraits<V>::MoveToAny(V(std::move(value)), result);
        },
        std::move(src));
  }
  /*! \brief Exactly one of the alternatives. */
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (TypeTraits<Ts>::CheckAnyStrict(src) || ...);
  }
  /*! \brief The first alternative the value exactly is. */
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Strict<0>(src, [](const TVMFFIAny* s, auto tag) {
      return TypeTraits<typename decltype(tag)::type>::CopyFromAnyViewAfterCheck(s);
    });
  }
  static Self MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Strict<0>(src, [](TVMFFIAny* s, auto tag) {
      return TypeTraits<typename decltype(tag)::type>::MoveFromAnyAfterCheck(s);
    });
  }
  /*! \brief The first alternative, in order, that the value converts to. */
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) { return First<0>(src); }
  static std::string TypeStr() { return "std::variant<" + Names<Ts...>() + ">"; }
  static std::string TypeSchema() {
    return R"({"type":"std::variant","args":[)" + Schemas<Ts...>() + "]}";
  }

 private:
  template <typename T>
  struct Tag {
    using type = T;
  };
  template <size_t I, typename Src, typename Take>
  static Self Strict(Src* src, Take take) {
    using T = std::variant_alternative_t<I, Self>;
    if constexpr (I + 1 == sizeof...(Ts)) {
      return Self(std::in_place_index<I>, take(src, Tag<T>{}));
    } else {
      if (TypeTraits<T>::CheckAnyStrict(src)) return Self(std::in_place_index<I>, take(src, Tag<T>{}));
      return Strict<I + 1>(src, take);
    }
  }
  template <size_t I>
  static std::optional<Self> First(const TVMFFIAny* src) {
    if constexpr (I == sizeof...(Ts)) {
      return std::nullopt;
    } else {
      using T = std::variant_alternative_t<I, Self>;
      if (std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(src)) {
        return Self(std::in_place_index<I>, *std::move(value));
      }
      return First<I + 1>(src);
    }
  }
};

template <typename R, typename... Args>
struct TypeTraits<std::function<R(Args...)>> : public detail::STLSeqTrait {
  using Self = std::function<R(Args...)>;
  using Typed = TypedFunction<R(Args...)>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFunction;

  /*! \brief A new ffi.Function calling (a copy of) `src`. */
  TVM_FFI_INLINE static void MoveToAny(Self src, TVMFFIAny* result) {
    if (!src) {
      TVM_FFI_THROW(ValueError) << "an empty std::function does not convert to ffi.Function";
    }
    TypeTraits<Typed>::MoveToAny(Typed(std::move(src)), result);
  }
  /*! \brief A std::function that calls the ffi.Function (kept alive by it). */
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Typed> fn = TypeTraits<Typed>::TryCastFromAnyView(src);
    if (!fn.has_value()) return std::nullopt;
    return Self([f = *std::move(fn)](Args... args) -> R { return f(std::forward<Args>(args)...); });
  }
  static std::string TypeStr() {
    return "std::function<" + Type2Str<R>() + "(" + Names<Args...>() + ")>";
  }
  static std::string TypeSchema() {
    std::string params;
    ((params += (params.empty() ? "" : ",") + detail::TypeSchemaImpl<Args>::v()), ...);
    return R"({"type":"std::function","named_args":{"return":[)" + detail::TypeSchemaImpl<R>::v() +
           R"(],"params":[)" + params + "]}}";
  }

 private:
  template <typename T>
  static std::string Type2Str() {
    return detail::Type2Str<T>::v();
  }
};
/// \endcond

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STL_H_

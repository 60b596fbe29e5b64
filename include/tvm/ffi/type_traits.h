/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/type_traits.h
 * \brief TypeTraits<T>: how a C++ type is stored in, and read back from, the
 *        16-byte TVMFFIAny.  This header covers the on-stack values (None,
 *        bool, integers, enums, floats, opaque pointers); object types add
 *        their traits where they are defined.
 *
 * A specialisation that enables conversion provides these static members:
 *
 *   convert_enabled, storage_enabled   booleans (storage: may live in an Any)
 *   field_static_type_index            the index a field of this type declares
 *   CopyToAnyView(const T&, TVMFFIAny*)   write a view (no reference taken)
 *   MoveToAny(T, TVMFFIAny*)              write an owning value
 *   CheckAnyStrict(const TVMFFIAny*)      true when the value IS a T, no conversion
 *   CopyFromAnyViewAfterCheck / MoveFromAnyAfterCheck   read after CheckAnyStrict
 *   TryCastFromAnyView(const TVMFFIAny*)  std::optional<T>, with conversions
 *   GetMismatchTypeInfo, TypeStr, TypeSchema   text for messages and reflection
 *
 * Conversions TryCastFromAnyView accepts beyond the exact type: bool and int
 * read each other; float reads int and bool; void* reads None as nullptr.
 */
#ifndef TVM_FFI_TYPE_TRAITS_H_
#define TVM_FFI_TYPE_TRAITS_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Any;  // any.h

/*! \brief The built-in type indices (kTVMFFINone, kTVMFFIInt, ..., kTVMFFIDynObjectBegin). */
using TypeIndex = TVMFFITypeIndex;
/*! \brief A registered type's record, as returned by TVMFFIGetTypeInfo. */
using TypeInfo = TVMFFITypeInfo;

/*! \brief The type key of each built-in type index, as registered by the runtime. */
struct StaticTypeKey {
  // The wildcard of type schemas.
  static constexpr const char* kTVMFFIAny = "Any";  // -1: matches every value
  // Values held in the payload (indices below 64).
  static constexpr const char* kTVMFFINone = "None";  // 0
  static constexpr const char* kTVMFFIInt = "int";  // 1
  static constexpr const char* kTVMFFIBool = "bool";  // 2
  static constexpr const char* kTVMFFIFloat = "float";  // 3
  static constexpr const char* kTVMFFIOpaquePtr = "void*";  // 4
  static constexpr const char* kTVMFFIDataType = "DataType";  // 5
  static constexpr const char* kTVMFFIDevice = "Device";  // 6
  static constexpr const char* kTVMFFIDLTensorPtr = "DLTensor*";  // 7
  static constexpr const char* kTVMFFIRawStr = "const char*";  // 8
  static constexpr const char* kTVMFFIByteArrayPtr = "TVMFFIByteArray*";  // 9
  static constexpr const char* kTVMFFIObjectRValueRef = "ObjectRValueRef";  // 10
  static constexpr const char* kTVMFFISmallStr = "ffi.SmallStr";  // 11
  static constexpr const char* kTVMFFISmallBytes = "ffi.SmallBytes";  // 12
  static constexpr const char* kTVMFFIUnchanged = "ffi.Unchanged";  // 13
  // Objects with a fixed index (64 and up).
  static constexpr const char* kTVMFFIObject = "ffi.Object";  // 64
  static constexpr const char* kTVMFFIStr = "ffi.String";  // 65
  static constexpr const char* kTVMFFIBytes = "ffi.Bytes";  // 66
  static constexpr const char* kTVMFFIError = "ffi.Error";  // 67
  static constexpr const char* kTVMFFIFunction = "ffi.Function";  // 68
  static constexpr const char* kTVMFFIShape = "ffi.Shape";  // 69
  static constexpr const char* kTVMFFITensor = "ffi.Tensor";  // 70
  static constexpr const char* kTVMFFIArray = "ffi.Array";  // 71
  static constexpr const char* kTVMFFIMap = "ffi.Map";  // 72
  static constexpr const char* kTVMFFIModule = "ffi.Module";  // 73
  static constexpr const char* kTVMFFIOpaquePyObject = "ffi.OpaquePyObject";  // 74
  static constexpr const char* kTVMFFIList = "ffi.List";  // 75
  static constexpr const char* kTVMFFIDict = "ffi.Dict";  // 76
  static constexpr const char* kTVMFFIVisitInterrupt = "ffi.VisitInterrupt";  // 77
  static constexpr const char* kTVMFFIBigInt = "ffi.BigInt";  // 78
};

/*!
 * \brief Whether containers may use T's TypeTraits as they are; a type whose
 *        container behaviour differs specialises this to false.
 */
template <typename T>
inline constexpr bool use_default_type_traits_v = true;

/*!
 * \brief True when every value of SourceType is also a TargetType without a
 *        check (same type, a base class, or TargetType is Any).  Containers
 *        specialise it for their element types.
 */
template <typename TargetType, typename SourceType, typename = void>
inline constexpr bool type_subsumes_v =
    std::is_same_v<TargetType, SourceType> || std::is_base_of_v<TargetType, SourceType>;
template <typename SourceType>
inline constexpr bool type_subsumes_v<Any, SourceType> = true;

/*!
 * \brief The registered type key of `type_index` ("int", "ffi.Array", ...).
 * \note The index must be registered (TVMFFIGetTypeInfo's precondition).
 */
inline std::string TypeIndexToTypeKey(int32_t type_index) {
  const TypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return std::string(info->type_key.data, info->type_key.size);
}

/*! \brief Members every enabled TypeTraits shares. */
struct TypeTraitsBase {
  /*! \brief kTVMFFIAny: a field that declares no narrower type. */
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  static constexpr bool storage_enabled = true;
  static constexpr bool convert_enabled = true;
  /*! \brief Names the type actually held, for "expected X but got Y" messages. */
  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* source) {
    return TypeIndexToTypeKey(source->type_index);
  }
};

/*! \brief Conversion rules of T; the primary template disables conversion. */
template <typename, typename = void>
struct TypeTraits {
  static constexpr bool storage_enabled = false;
  static constexpr bool convert_enabled = false;
};

/*! \brief TypeTraits of T with const and reference removed. */
template <typename T>
using TypeTraitsNoCR = TypeTraits<std::remove_const_t<std::remove_reference_t<T>>>;

/*! \brief The static type index a field of type T declares (kTVMFFIAny if none). */
template <typename T, typename = void>
struct TypeToFieldStaticTypeIndex {
  static constexpr int32_t value = TypeIndex::kTVMFFIAny;
};
template <typename T>
struct TypeToFieldStaticTypeIndex<T, std::enable_if_t<TypeTraits<T>::convert_enabled>> {
  static constexpr int32_t value = TypeTraits<T>::field_static_type_index;
};

/*!
 * \brief The type index of T at run time; v() may register the type on first
 *        use (object types), so it is a function rather than a constant.
 */
template <typename T, typename = void>
struct TypeToRuntimeTypeIndex {
  static int32_t v() { return TypeToFieldStaticTypeIndex<T>::value; }
};

namespace detail {

/*! \brief {"type":"<key>"}: the schema of a type with no parameters. */
inline std::string PlainTypeSchema(const char* type_key) {
  return std::string("{\"type\":\"") + type_key + "\"}";
}

/*!
 * \brief Shared members of the traits of a value that lives in the payload
 *        (no reference count): copying and moving are the same, and a strict
 *        check is one comparison of the type index.  `Derived` provides
 *        CopyToAnyView and CopyFromAnyViewAfterCheck.
 */
template <typename Derived, typename T, int32_t kIndex, const char* const* kKey>
struct PodTraitsBase : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = kIndex;
  TVM_FFI_INLINE static void MoveToAny(T src, TVMFFIAny* result) {
    Derived::CopyToAnyView(src, result);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kIndex;
  }
  TVM_FFI_INLINE static T MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return Derived::CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return *kKey; }
  TVM_FFI_INLINE static std::string TypeSchema() { return PlainTypeSchema(*kKey); }
};

/*! \brief Writes the type index and zeroes the padding word and the payload. */
TVM_FFI_INLINE void ResetAnyPod(TVMFFIAny* result, int32_t type_index) {
  result->type_index = type_index;
  result->zero_padding = 0;
  result->v_int64 = 0;
}

/*! \brief True for an int or a bool: the two read each other in TryCastFromAnyView. */
TVM_FFI_INLINE bool IsIntOrBool(const TVMFFIAny* src) {
  return src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBool;
}

}  // namespace detail

/*! \brief None <-> nullptr. */
template <>
struct TypeTraits<std::nullptr_t>
    : public detail::PodTraitsBase<TypeTraits<std::nullptr_t>, std::nullptr_t,
                                   TypeIndex::kTVMFFINone, &StaticTypeKey::kTVMFFINone> {
  TVM_FFI_INLINE static void CopyToAnyView(const std::nullptr_t&, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFINone);
  }
  TVM_FFI_INLINE static std::nullptr_t CopyFromAnyViewAfterCheck(const TVMFFIAny*) {
    return nullptr;
  }
  TVM_FFI_INLINE static std::optional<std::nullptr_t> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFINone) return std::nullopt;
    return nullptr;
  }
};

/*!
 * \brief A bool that, unlike bool, does not accept an int when converted from
 *        an Any.  Use it where an int must not pass for a bool (a Variant
 *        alternative, a fallback type).
 */
class StrictBool {
 public:
  /*! \brief Wraps a bool (implicit, so a StrictBool is written like a bool). */
  StrictBool(bool value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  /*! \brief The wrapped bool. */
  operator bool() const { return value_; }  // NOLINT(google-explicit-constructor)

 private:
  bool value_;
};

/*! \brief bool: stored as kTVMFFIBool with 0 or 1 in v_int64; reads an int as `!= 0`. */
template <>
struct TypeTraits<bool> : public detail::PodTraitsBase<TypeTraits<bool>, bool,
                                                       TypeIndex::kTVMFFIBool,
                                                       &StaticTypeKey::kTVMFFIBool> {
  TVM_FFI_INLINE static void CopyToAnyView(const bool& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIBool);
    result->v_int64 = src ? 1 : 0;
  }
  TVM_FFI_INLINE static bool CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return src->v_int64 != 0;
  }
  TVM_FFI_INLINE static std::optional<bool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!detail::IsIntOrBool(src)) return std::nullopt;
    return src->v_int64 != 0;
  }
};

/*! \brief StrictBool: like bool, but only a kTVMFFIBool converts. */
template <>
struct TypeTraits<StrictBool> : public detail::PodTraitsBase<TypeTraits<StrictBool>, StrictBool,
                                                             TypeIndex::kTVMFFIBool,
                                                             &StaticTypeKey::kTVMFFIBool> {
  TVM_FFI_INLINE static void CopyToAnyView(const StrictBool& src, TVMFFIAny* result) {
    TypeTraits<bool>::CopyToAnyView(static_cast<bool>(src), result);
  }
  TVM_FFI_INLINE static StrictBool CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return StrictBool(src->v_int64 != 0);
  }
  TVM_FFI_INLINE static std::optional<StrictBool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIBool) return std::nullopt;
    return StrictBool(src->v_int64 != 0);
  }
};

/*!
 * \brief Integers and integer-backed enums: stored as kTVMFFIInt (int64).
 *        Reading narrows with static_cast; a bool reads as 0 or 1.
 */
template <typename Int>
struct TypeTraitsIntBase : public detail::PodTraitsBase<TypeTraits<Int>, Int, TypeIndex::kTVMFFIInt,
                                                        &StaticTypeKey::kTVMFFIInt> {
  /*! \brief Stores `src` as an int. */
  TVM_FFI_INLINE static void CopyInt64ToAnyView(int64_t src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIInt);
    result->v_int64 = src;
  }
  TVM_FFI_INLINE static Int CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<Int>(src->v_int64);
  }
  TVM_FFI_INLINE static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!detail::IsIntOrBool(src)) return std::nullopt;
    return static_cast<Int>(src->v_int64);
  }
};

template <typename Int>
struct TypeTraits<Int, std::enable_if_t<std::is_integral_v<Int>>> : public TypeTraitsIntBase<Int> {
  TVM_FFI_INLINE static void CopyToAnyView(const Int& src, TVMFFIAny* result) {
    TypeTraitsIntBase<Int>::CopyInt64ToAnyView(static_cast<int64_t>(src), result);
  }
};

/*! \brief True for an enum whose underlying type is an integer. */
template <typename T, bool = std::is_enum_v<T>>
constexpr bool is_integeral_enum_v = false;
template <typename T>
constexpr bool is_integeral_enum_v<T, true> = std::is_integral_v<std::underlying_type_t<T>>;

template <typename IntEnum>
struct TypeTraits<IntEnum, std::enable_if_t<is_integeral_enum_v<IntEnum>>>
    : public TypeTraitsIntBase<IntEnum> {
  TVM_FFI_INLINE static void CopyToAnyView(const IntEnum& src, TVMFFIAny* result) {
    TypeTraitsIntBase<IntEnum>::CopyInt64ToAnyView(static_cast<int64_t>(src), result);
  }
};

/*! \brief float and double: stored as kTVMFFIFloat (double); an int or bool converts. */
template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point_v<Float>>>
    : public detail::PodTraitsBase<TypeTraits<Float>, Float, TypeIndex::kTVMFFIFloat,
                                   &StaticTypeKey::kTVMFFIFloat> {
  TVM_FFI_INLINE static void CopyToAnyView(const Float& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIFloat);
    result->v_float64 = static_cast<double>(src);
  }
  TVM_FFI_INLINE static Float CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<Float>(src->v_float64);
  }
  TVM_FFI_INLINE static std::optional<Float> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIFloat) return static_cast<Float>(src->v_float64);
    if (detail::IsIntOrBool(src)) return static_cast<Float>(src->v_int64);
    return std::nullopt;
  }
};

/*! \brief void*: stored as kTVMFFIOpaquePtr; None reads as nullptr. */
template <>
struct TypeTraits<void*> : public detail::PodTraitsBase<TypeTraits<void*>, void*,
                                                        TypeIndex::kTVMFFIOpaquePtr,
                                                        &StaticTypeKey::kTVMFFIOpaquePtr> {
  TVM_FFI_INLINE static void CopyToAnyView(void* src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIOpaquePtr);
    result->v_ptr = src;
  }
  TVM_FFI_INLINE static void* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return src->v_ptr;
  }
  TVM_FFI_INLINE static std::optional<void*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIOpaquePtr) return src->v_ptr;
    if (src->type_index == TypeIndex::kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
};

/*!
 * \brief Traits of a type that is never stored in an Any but can be made from
 *        values of other types: TryCastFromAnyView tries each FallbackType in
 *        order and converts the first match with
 *        TypeTraits<T>::ConvertFallbackValue.
 */
template <typename T, typename... FallbackTypes>
struct FallbackOnlyTraitsBase : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;

  TVM_FFI_INLINE static std::optional<T> TryCastFromAnyView(const TVMFFIAny* src) {
    return TryFallbackTypes<FallbackTypes...>(src);
  }

  template <typename FallbackType, typename... Rest>
  TVM_FFI_INLINE static std::optional<T> TryFallbackTypes(const TVMFFIAny* src) {
    static_assert(!std::is_same_v<FallbackType, bool>,
                  "bool as a fallback type also accepts every int; use tvm::ffi::StrictBool");
    std::optional<FallbackType> matched = TypeTraits<FallbackType>::TryCastFromAnyView(src);
    if (matched.has_value()) return TypeTraits<T>::ConvertFallbackValue(*std::move(matched));
    if constexpr (sizeof...(Rest) != 0) {
      return TryFallbackTypes<Rest...>(src);
    } else {
      return std::nullopt;
    }
  }
};

}  // namespace ffi
}  // namespace tvm

/*!
 * \brief Declares, inside an object class, the type information of a type the
 *        runtime (or another library) has registered under `RegisteredKey`:
 *        the index is looked up on first use and never allocated here.
 *        `TypeDepth` is the type's depth in the hierarchy (ffi.Object is 0).
 * \note Expanding it needs TVM_FFI_CHECK_SAFE_CALL (tvm/ffi/function.h).
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(RegisteredKey, TypeDepth)              \
  static constexpr const char* _type_key = RegisteredKey;                         \
  static constexpr int32_t _type_depth = TypeDepth;                               \
  static constexpr bool _type_mutable = true;                                     \
  static constexpr bool _type_final = false;                                      \
  static constexpr uint32_t _type_child_slots = 0;                                \
  static constexpr bool _type_child_slots_can_overflow = true;                    \
  static int32_t RuntimeTypeIndex() {                                             \
    static const int32_t tvm_ffi_looked_up_index = [] {                           \
      constexpr TVMFFIByteArray tvm_ffi_key{RegisteredKey, sizeof(RegisteredKey) - 1}; \
      int32_t tvm_ffi_index = -1;                                                 \
      TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&tvm_ffi_key, &tvm_ffi_index)); \
      return tvm_ffi_index;                                                       \
    }();                                                                          \
    return tvm_ffi_looked_up_index;                                               \
  }

#endif  // TVM_FFI_TYPE_TRAITS_H_

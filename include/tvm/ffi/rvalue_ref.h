/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/rvalue_ref.h
 * \brief RValueRef<T>: passes a reference into a function so the callee may
 *        take it over (and, when it is the only one, mutate the object in
 *        place instead of copying it).
 *
 * As an argument it is a view of kind kTVMFFIObjectRValueRef whose payload
 * is the address of the ObjectPtr inside the RValueRef; the callee that
 * takes the object sets that pointer to null.
 */
#ifndef TVM_FFI_RVALUE_REF_H_
#define TVM_FFI_RVALUE_REF_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief Declared first so the storage trait can name it; only ObjectRef types. */
template <typename TObjRef, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, TObjRef>>>
class RValueRef;

/*! \brief Never stored in an Any: only the TypeTraits below apply. */
template <typename TObjRef>
inline constexpr bool use_default_type_traits_v<RValueRef<TObjRef>> = false;

/*!
 * \brief A reference of type TObjRef handed over to the callee.
 *
 * Holds the object as an ObjectPtr so that an argument view can carry the
 * slot's address; TypeTraits below is the only reader of the slot.
 */
template <typename TObjRef, typename>
class RValueRef {
  // The argument conversions read and empty the slot directly.
  template <typename, typename>
  friend struct TypeTraits;

 public:
  using ContainerType = typename TObjRef::ContainerType;

  /*! \brief Takes `data` over. */
  explicit RValueRef(TObjRef&& data) : data_(Release(std::move(data))) {}

  /*! \brief Gives the reference back out (this RValueRef becomes empty). */
  TObjRef operator*() && { return Rewrap(std::move(data_)); }

 private:
  using Slot = ObjectPtr<ContainerType>;

  static Slot Release(TObjRef&& ref) {
    return detail::ObjectUnsafe::ObjectPtrFromObjectRef<ContainerType>(std::move(ref));
  }
  static TObjRef Rewrap(Slot&& ptr) {
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(std::move(ptr));
  }

  /*! \brief Mutable: a callee holding a const view may still take the object. */
  mutable Slot data_;
};

/*!
 * \brief RValueRef<T> as an argument (never stored): from an rvalue-ref view
 *        whose object is a T the object is taken; any other value T accepts
 *        is converted (the caller keeps its reference).
 */
template <typename TObjRef>
struct TypeTraits<RValueRef<TObjRef>> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;

  TVM_FFI_INLINE static void CopyToAnyView(const RValueRef<TObjRef>& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIObjectRValueRef);
    result->v_ptr = &src.data_;
  }
  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIObjectRValueRef) {
      return TypeTraits<TObjRef>::GetMismatchTypeInfo(src);
    }
    TVMFFIAny target = Target(src);
    return "RValueRef<" + TypeTraits<TObjRef>::GetMismatchTypeInfo(&target) + ">";
  }
  TVM_FFI_INLINE static std::optional<RValueRef<TObjRef>> TryCastFromAnyView(const TVMFFIAny* src) {
    // `target` lives in this scope: `src` may point at it below.
    TVMFFIAny target;
    if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      target = Target(src);
      if (TypeTraits<TObjRef>::CheckAnyStrict(&target)) {
        ObjectPtr<Object>* slot = static_cast<ObjectPtr<Object>*>(src->v_ptr);
        return RValueRef<TObjRef>(
            detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(std::move(*slot)));
      }
      src = &target;  // not the type itself: try T's conversions, copying
    }
    std::optional<TObjRef> converted = TypeTraits<TObjRef>::TryCastFromAnyView(src);
    if (!converted.has_value()) return std::nullopt;
    return RValueRef<TObjRef>(*std::move(converted));
  }
  TVM_FFI_INLINE static std::string TypeStr() {
    return "RValueRef<" + TypeTraits<TObjRef>::TypeStr() + ">";
  }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return std::string("{\"type\":\"") + StaticTypeKey::kTVMFFIObjectRValueRef + "\",\"args\":[" +
           TypeTraits<TObjRef>::TypeSchema() + "]}";
  }

 private:
  /*! \brief A view of the object an rvalue-ref view points at. */
  static TVMFFIAny Target(const TVMFFIAny* src) {
    const ObjectPtr<Object>* slot = static_cast<const ObjectPtr<Object>*>(src->v_ptr);
    TVM_FFI_ICHECK(slot->get() != nullptr) << "RValueRef already moved";
    TVMFFIAny target;
    detail::WriteObjectToAny(detail::ObjectUnsafe::GetHeader(slot->get()), &target);
    return target;
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_RVALUE_REF_H_

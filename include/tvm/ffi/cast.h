/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/cast.h
 * \brief From an object pointer back to a reference: GetRef and GetObjectPtr.
 *
 * (Checked conversions between reference types are ObjectRef::as<T>() and
 * as_or_throw<T>(), and Any::cast<T>(); see tvm/ffi/object.h and any.h.)
 */
#ifndef TVM_FFI_CAST_H_
#define TVM_FFI_CAST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <type_traits>

namespace tvm {
namespace ffi {

/*! \brief A new ObjectPtr<BaseType> to `ptr` (a reference is taken). */
template <typename BaseType, typename ObjectType>
inline ObjectPtr<BaseType> GetObjectPtr(ObjectType* ptr) {
  static_assert(std::is_base_of_v<BaseType, ObjectType>,
                "GetObjectPtr: BaseType must be a base of ObjectType");
  return detail::ObjectUnsafe::ObjectPtrFromUnowned<BaseType>(ptr);
}

namespace detail {
// GetRef for a plain (non-Optional) reference type: a null `ptr` is the
// empty reference, which only a nullable RefType may be.
template <typename RefType>
inline RefType RefFromObject(const Object* ptr) {
  if constexpr (!RefType::_type_is_nullable) TVM_FFI_ICHECK_NOTNULL(ptr);
  ObjectPtr<Object> owner =
      ptr == nullptr ? ObjectPtr<Object>()
                     : ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(ptr));
  return ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(std::move(owner));
}
}  // namespace detail

/*!
 * \brief A new reference of type RefType to the object `ptr` (a reference is
 *        taken).  RefType must be able to hold every ObjectType
 *        (object_ref_contains_v); for a run-time check use ObjectRef::as.
 *        A null `ptr` gives an empty RefType when it is nullable (or an
 *        empty Optional), and an InternalError otherwise.
 */
template <typename RefType, typename ObjectType>
inline RefType GetRef(const ObjectType* ptr) {
  const Object* base = ptr;
  if constexpr (!is_optional_type_v<RefType>) {
    static_assert(object_ref_contains_v<RefType, ObjectType>,
                  "GetRef: RefType must hold every ObjectType (specialize object_ref_contains_v "
                  "for a typed reference known to be safe, or use ObjectRef::as<RefType>())");
    return detail::RefFromObject<RefType>(base);
  } else {
    using ValueType = typename RefType::value_type;
    static_assert(object_ref_contains_v<ValueType, ObjectType>,
                  "GetRef<Optional<T>>: T must hold every ObjectType");
    RefType out(std::nullopt);
    if (base != nullptr) out = GetRef<ValueType>(ptr);
    return out;
  }
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CAST_H_

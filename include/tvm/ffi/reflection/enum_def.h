/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/enum_def.h
 * \brief EnumDef: registers the members of an enum type (tvm/ffi/enum.h) and
 *        their per-member attributes.
 *
 * \code{.cpp}
 * class ColorObj : public EnumObj {
 *  public:
 *   TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my.Color", ColorObj, EnumObj);
 * };
 * TVM_FFI_STATIC_INIT_BLOCK() {
 *   refl::EnumDef<ColorObj>("Red").set_attr("hex", String("#f00"));   // int index 0
 *   refl::EnumDef<ColorObj>("Green");                                 // int index 1
 * }
 * \endcode
 *
 * A StrEnum or plain Enum member's int index is its position; an IntEnum
 * member names its int index explicitly.  Each member is one object made
 * at registration; the state lives in the "__ffi_enum__" type attribute.
 */
#ifndef TVM_FFI_REFLECTION_ENUM_DEF_H_
#define TVM_FFI_REFLECTION_ENUM_DEF_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace tvm::ffi::reflection {

// Only EnumObj subclasses have members to register.
template <typename EnumClsObj, typename = std::enable_if_t<std::is_base_of_v<EnumObj, EnumClsObj>>>
class EnumDef;

/*!
 * \brief Registers one member of the enum EnumClsObj per instance (the
 *        constructor registers, the set_attr calls attach attributes).
 */
template <typename EnumClsObj, typename>
class EnumDef : public ReflectionDefBase {
  // The enum type, and the member this EnumDef registered.
  int32_t type_index_;
  ObjectRef member_;

 public:
  /*! \brief The member `str_index`; its int index is the number of members before it. */
  explicit EnumDef(const char* str_index) : type_index_(EnumClsObj::_GetOrAllocRuntimeTypeIndex()) {
    static_assert(!std::is_base_of_v<IntEnumObj, EnumClsObj>,
                  "an IntEnum member needs its integer index: EnumDef(name, int_index)");
    ObjectRef state = EnsureState();
    Register(state, static_cast<int64_t>(StateOf(state)->entries.size()), String(str_index));
  }

  /*! \brief The IntEnum member `str_index` with int index `int_index`. */
  EnumDef(const char* str_index, int64_t int_index)
      : type_index_(EnumClsObj::_GetOrAllocRuntimeTypeIndex()) {
    static_assert(std::is_base_of_v<IntEnumObj, EnumClsObj>,
                  "only an IntEnum member takes an explicit integer index");
    Register(EnsureState(), int_index, String(str_index));
  }

  /*!
   * \brief Whether the enum has a member whose str index is `name`.
   * \throws TypeError when the type's "__ffi_enum__" entry is not an EnumState.
   */
  static bool IsDefined(const String& name) {
    std::optional<ObjectRef> state = ExistingState(EnumClsObj::_GetOrAllocRuntimeTypeIndex());
    if (!state.has_value()) return false;
    return StateOf(*state)->indexes.count(Any(name)) != 0;
  }

  /*! \brief set_attr of the key's native hook made from `Fn` (see NativeFunctionView). */
  template <auto Fn, typename T>
  EnumDef& set_native_fn_attr(AttrKey<T> key) {
    return set_attr(key, T::template FromNative<Fn>());
  }
  /*! \brief set_attr with a typed key; `value` is converted to the key's type. */
  template <typename T, typename Value>
  EnumDef& set_attr(AttrKey<T> key, Value&& value) {
    return set_attr(key.name, T(std::forward<Value>(value)));
  }

  /*! \brief Sets the attribute `attr_name` of this member to `value`. */
  template <typename T>
  EnumDef& set_attr(const char* attr_name, T value) {
    Dict<String, Dict<ObjectRef, Any>> attrs = StateOf(EnsureState())->attrs;
    String key(attr_name);
    std::optional<Dict<ObjectRef, Any>> existing = attrs.Get(key);
    Dict<ObjectRef, Any> per_member = existing.has_value() ? *existing : Dict<ObjectRef, Any>();
    if (!existing.has_value()) attrs.Set(key, per_member);
    per_member.Set(member_, Any(std::move(value)));
    return *this;
  }

 private:
  // The state objects are handled as ObjectRef + a checked static cast: during
  // static initialisation (GCC runs constructor functions first) the inline
  // type index EnumState's cast would use may not be set yet.
  static const EnumStateObj* StateOf(const ObjectRef& state) {
    return static_cast<const EnumStateObj*>(state.get());
  }

  static std::optional<ObjectRef> ExistingState(int32_t type_index) {
    constexpr TVMFFIByteArray kColumn = AsByteArray(type_attr::kEnumState.name);
    if (TVMFFIGetTypeAttrColumn(&kColumn) == nullptr) return std::nullopt;
    AnyView entry = TypeAttrColumn(type_attr::kEnumState)[type_index];
    if (entry == nullptr) return std::nullopt;
    const bool is_state = entry.type_index() == EnumStateObj::_GetOrAllocRuntimeTypeIndex();
    if (TVM_FFI_PREDICT_FALSE(!is_state)) {
      TVM_FFI_THROW(TypeError) << "Expected `" << EnumStateObj::_type_key
                               << "` in enum state column, but got `" << entry.GetTypeKey()
                               << "`";
    }
    Object* obj = reinterpret_cast<Object*>(entry.CopyToTVMFFIAny().v_obj);
    return ObjectRef(::tvm::ffi::detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj));
  }

  ObjectRef EnsureState() {
    if (std::optional<ObjectRef> state = ExistingState(type_index_)) return *state;
    ObjectPtr<EnumStateObj> made = make_object<EnumStateObj>();
    ::tvm::ffi::detail::ObjectUnsafe::GetHeader(made.get())->type_index =
        EnumStateObj::_GetOrAllocRuntimeTypeIndex();
    ObjectRef state(std::move(made));
    RegisterTypeAttrValue(type_index_, type_attr::kEnumState.name, state);
    return state;
  }

  void Register(const ObjectRef& state, int64_t int_index, String str_index) {
    const EnumStateObj* s = StateOf(state);
    Any int_key(int_index);
    Any str_key(str_index);
    if (s->indexes.count(int_key) != 0 || s->indexes.count(str_key) != 0) {
      TVM_FFI_THROW(ValueError) << "Duplicate enum index for type `" << EnumClsObj::_type_key
                                << "`";
    }
    // A subclass has only its default constructor: fill the indexes after.
    ObjectPtr<EnumClsObj> member = make_object<EnumClsObj>();
    member->_str_index = std::move(str_index);
    member->_int_index = int_index;
    // Set explicitly for the same reason as in StateOf.
    ::tvm::ffi::detail::ObjectUnsafe::GetHeader(member.get())->type_index = type_index_;
    member_ = ObjectRef(std::move(member));
    List<ObjectRef> entries = s->entries;
    Dict<Any, ObjectRef> indexes = s->indexes;
    entries.push_back(member_);
    indexes.Set(int_key, member_);
    indexes.Set(str_key, member_);
  }
};

}  // namespace tvm::ffi::reflection

#endif  // TVM_FFI_REFLECTION_ENUM_DEF_H_

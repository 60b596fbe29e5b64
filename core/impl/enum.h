// Enumerations: ffi.Enum and its subclasses ffi.IntEnum and ffi.StrEnum,
// whose instances are singletons, and ffi.EnumState, the table of one enum
// type's singletons (docs/dataclasses.md "Enums").
//
// Layouts are upstream's (its C++ headers read the fields inline):
//   ffi.EnumState = { TVMFFIObject, List entries (+24), Dict indexes (+32),
//                     Dict attrs (+40) }
//   ffi.Enum      = { TVMFFIObject, int64_t _int_index (+24),
//                     str _str_index (+32, 16 bytes: upstream's String is a
//                     TVMFFIAny-sized cell, a small string inline or a heap one) }
// ffi.IntEnum and ffi.StrEnum add no fields; their reflected `value` is
// _int_index and _str_index respectively.
//
// An enum type keeps its EnumState in the "__ffi_enum__" type-attribute
// column: `entries` holds the singletons in registration order, `indexes`
// maps both the int and the str index of each to it, and `attrs` maps an
// attribute name to a Dict from singleton to value.  C++ registers
// singletons with EnumDef; Python enums (tvm_ffi.dataclasses.Enum) find and
// extend the same state.
//
//   EnumDef<ColorObj>("red").Attr("code", Any(int64_t(10)));
//   EnumDef<LevelObj>("high", 20);           // an IntEnum: explicit int index
//   Any red = EnumGet(ColorObj::RuntimeTypeIndex(), Any("red"));
//
// EnumRef<T> is a reference to a singleton of T; as a field or argument it
// also takes the singleton's payload (an int for an IntEnum, a str for a
// StrEnum) and stores the singleton at that index, as Python's converters
// do for enum-typed fields.
#ifndef TVM_FFI_CORE_IMPL_ENUM_H_
#define TVM_FFI_CORE_IMPL_ENUM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "any.h"
#include "any_equal.h"
#include "dict.h"
#include "error.h"
#include "list.h"
#include "object.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class EnumStateObj : public Object {
 public:
  List entries;
  Dict indexes;
  Dict attrs;
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(EnumStateObj, "ffi.EnumState", PlainObject)
};

class EnumObj : public Object {
 public:
  int64_t _int_index = 0;  // NOLINT(readability-identifier-naming): upstream's field names
  Any _str_index = Any(String());  // always a str (small or heap)
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(EnumObj, "ffi.Enum", PlainObject)
};

class IntEnumObj : public EnumObj {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(IntEnumObj, "ffi.IntEnum", EnumObj)
};

class StrEnumObj : public EnumObj {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(StrEnumObj, "ffi.StrEnum", EnumObj)
};

static_assert(sizeof(EnumStateObj) == 48, "ffi.EnumState: header, entries, indexes, attrs");
static_assert(sizeof(EnumObj) == 48, "ffi.Enum: header, _int_index, _str_index");

// The name of the type-attribute column holding each enum type's EnumState.
inline constexpr const char kEnumStateAttr[] = "__ffi_enum__";

// Whether type `type_index` is `ancestor_index` or derives from it.
inline bool TypeDerivesFrom(int32_t type_index, int32_t ancestor_index) {
  if (type_index == ancestor_index) return true;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(ancestor_index);
  if (info == nullptr || target == nullptr || info->type_depth <= target->type_depth) return false;
  return info->type_ancestors[target->type_depth]->type_index == ancestor_index;
}

// The EnumState of enum type `type_index`, borrowed from the type-attribute
// column; nullptr when the type has none.  TypeError when the column holds
// something else for the type.
inline EnumStateObj* EnumStateOf(int32_t type_index) {
  const TVMFFIByteArray name = {kEnumStateAttr, sizeof(kEnumStateAttr) - 1};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  if (col == nullptr) return nullptr;
  int32_t i = type_index - col->begin_index;
  if (i < 0 || i >= col->size || col->data[i].type_index == kTVMFFINone) return nullptr;
  const TVMFFIAny& v = col->data[i];
  if (v.type_index != EnumStateObj::RuntimeTypeIndex()) {
    TVM_FFI_IMPL_THROW(TypeError) << "the " << kEnumStateAttr << " attribute of `"
                            << TypeIndexToDisplayName(type_index)
                            << "` must be an ffi.EnumState, got "
                            << TypeIndexToDisplayName(v.type_index);
  }
  return static_cast<EnumStateObj*>(Object::FromHandle(v.v_obj));
}

// The EnumState of `type_index`, registered empty on first use.  TypeError
// when the type is not an ffi.Enum.
inline EnumStateObj* EnsureEnumState(int32_t type_index) {
  if (!TypeDerivesFrom(type_index, EnumObj::RuntimeTypeIndex())) {
    TVM_FFI_IMPL_THROW(TypeError) << "`" << TypeIndexToDisplayName(type_index)
                            << "` is not an enum type (a subclass of ffi.Enum)";
  }
  if (EnumStateObj* state = EnumStateOf(type_index)) return state;
  Any state(ObjectRef(ObjectPtr<Object>(MakeObject<EnumStateObj>())));
  const TVMFFIByteArray name = {kEnumStateAttr, sizeof(kEnumStateAttr) - 1};
  int rc = TVMFFITypeRegisterAttr(type_index, &name, state.raw());
  if (rc != 0) ThrowRaised(rc);
  return EnumStateOf(type_index);
}

// The singleton of enum type `type_index` at integer or string index
// `index`; ValueError naming the type and the index when there is none.
inline Any EnumGet(int32_t type_index, const AnyView& index) {
  if (EnumStateObj* state = EnumStateOf(type_index)) {
    if (const TVMFFIAny* v = state->indexes.GetDictObj()->FindValue(*index.raw())) {
      return Any(AnyView::FromRaw(*v));
    }
  }
  TVM_FFI_IMPL_THROW(ValueError) << "enum `" << TypeIndexToDisplayName(type_index)
                           << "` has no instance at index " << RenderKey(*index.raw());
}

// Registers one singleton of the C++ enum class T (a subclass of EnumObj):
// EnumDef<T>(name) takes the next integer index (the number of singletons
// so far), EnumDef<T>(name, int_index) an explicit one (IntEnum types only).
// ValueError when either index is taken.  Attr(name, value) sets an
// attribute of the singleton in the state's `attrs`.
template <typename T>
class EnumDef {
  static_assert(std::is_base_of_v<EnumObj, T>, "EnumDef needs a subclass of EnumObj");

 public:
  explicit EnumDef(const char* str_index) : type_index_(T::RuntimeTypeIndex()) {
    static_assert(!std::is_base_of_v<IntEnumObj, T>, "an IntEnum singleton needs its int index");
    EnumStateObj* state = EnsureEnumState(type_index_);
    Register(state, state->entries.size(), str_index);
  }
  EnumDef(const char* str_index, int64_t int_index) : type_index_(T::RuntimeTypeIndex()) {
    static_assert(std::is_base_of_v<IntEnumObj, T>, "only IntEnum singletons take an int index");
    Register(EnsureEnumState(type_index_), int_index, str_index);
  }

  EnumDef& Attr(const char* name, Any value) {
    EnumStateObj* state = EnsureEnumState(type_index_);
    Any key{String(name)};
    Dict column;
    if (std::optional<Any> existing = state->attrs.Get(key)) {
      column = existing->As<Dict>();
    } else {
      state->attrs.Set(key, Any(column));
    }
    column.Set(instance_, std::move(value));
    return *this;
  }

  const Any& instance() const { return instance_; }

 private:
  void Register(EnumStateObj* state, int64_t int_index, const char* str_index) {
    Any int_key(int_index);
    Any str_key{String(str_index)};
    if (state->indexes.count(int_key) != 0 || state->indexes.count(str_key) != 0) {
      TVM_FFI_IMPL_THROW(ValueError) << "enum `" << TypeIndexToDisplayName(type_index_)
                               << "` already has an instance at index " << int_index << " or \""
                               << str_index << "\"";
    }
    ObjectPtr<T> obj = MakeObject<T>();
    obj->_int_index = int_index;
    obj->_str_index = str_key;
    instance_ = Any(ObjectRef(ObjectPtr<Object>(std::move(obj))));
    state->entries.push_back(instance_);
    state->indexes.Set(int_key, instance_);
    state->indexes.Set(str_key, instance_);
  }

  int32_t type_index_;
  Any instance_;
};

// Not an ObjectRef subclass, so that its TypeTraits are its own (the
// generic object-reference traits would also match a subclass).  The
// layout is one object pointer, as an ObjectRef's.
template <typename T>
class EnumRef {
  static_assert(std::is_base_of_v<EnumObj, T>, "EnumRef needs a subclass of EnumObj");

 public:
  using ContainerType = T;
  explicit EnumRef(ObjectPtr<Object> p) : ref_(std::move(p)) {}

  bool defined() const { return ref_.defined(); }
  T* get() const { return static_cast<T*>(ref_.get_mutable()); }
  T* operator->() const { return get(); }
  const ObjectRef& ref() const { return ref_; }
  ObjectPtr<Object> MoveData() && { return std::move(ref_).MoveData(); }

 private:
  ObjectRef ref_;
};

template <typename T>
struct TypeTraits<EnumRef<T>, void> : ObjectRefTraitsBase<EnumRef<T>> {
  static std::string TypeSchema() { return std::string("{\"type\":\"") + T::kTypeKey + "\"}"; }
  static std::optional<EnumRef<T>> TryCast(const TVMFFIAny* v) {
    if (v->type_index >= kTVMFFIStaticObjectBegin) {
      Object* obj = Object::FromHandle(v->v_obj);
      if (!obj->IsInstanceIndex(T::RuntimeTypeIndex())) return std::nullopt;
      return EnumRef<T>(ObjectPtr<Object>::Borrow(obj));
    }
    bool payload = std::is_base_of_v<IntEnumObj, T> ? v->type_index == kTVMFFIInt
                   : std::is_base_of_v<StrEnumObj, T>
                       ? TypeTraits<String>::TryCast(v).has_value()
                       : false;
    if (!payload) return std::nullopt;
    EnumStateObj* state = EnumStateOf(T::RuntimeTypeIndex());
    if (state == nullptr) return std::nullopt;
    const TVMFFIAny* found = state->indexes.GetDictObj()->FindValue(*v);
    if (found == nullptr) return std::nullopt;
    return EnumRef<T>(ObjectPtr<Object>::Borrow(Object::FromHandle(found->v_obj)));
  }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ENUM_H_

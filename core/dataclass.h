// Object types defined at run time (ffi.DataclassDefine): their layout,
// field storage, typed setters, creation and deletion.
//
// A type made with TVMFFITypeGetOrAllocIndex has no C++ class behind it.
// DataclassDefine lays its fields out after the parent's region, registers
// each one with a getter and a setter Function, and registers an
// `__ffi_new__` type attribute that makes zeroed instances, an
// `__ffi_init__` method and the type's metadata (creator NULL).
#ifndef TVM_FFI_CORE_DATACLASS_H_
#define TVM_FFI_CORE_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace dataclass {

// The storage of one field, picked by its static type index.
enum class Storage : int32_t {
  kInt,     // int64_t; kTVMFFIInt
  kFloat,   // double; kTVMFFIFloat
  kBool,    // bool (one byte); kTVMFFIBool
  kObject,  // TVMFFIObjectHandle, may be NULL; an object type index
  kAny,     // TVMFFIAny; kTVMFFIAny
};

// One field as given to DataclassDefine.
struct FieldSpec {
  std::string name;
  int32_t static_type_index = kTVMFFIAny;
  bool nullable = false;
  int64_t flags = 0;
  std::string doc;
  Any default_value;
  Optional<Function> check;  // absent: no check
};

// Defines the type (see the file comment).  `type_index` must be a dynamic
// index without fields, metadata or an earlier definition.  Every argument is
// checked before anything is registered: a bad one is ValueError (unknown
// type index, unsupported static type index, duplicate field name) or
// RuntimeError (already defined) naming it.
void Define(int32_t type_index, const std::vector<FieldSpec>& fields, int32_t structural_eq_kind);

// A new instance with every field zero (None/NULL for objects and Any).
// The type must have been defined (ValueError otherwise).
Any New(int32_t type_index);

// A new object of obj's type whose reflected fields (ancestors' first) are
// set from obj's through their getters and setters.  TypeError when the type
// has no creator (see CreateEmptyInstance in reflection_visit.h) or a field has
// no getter or setter.
Any ShallowCopy(const TVMFFIAny& obj);

}  // namespace dataclass
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_DATACLASS_H_

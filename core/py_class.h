// Upstream's protocol for object types whose fields are laid out by its
// Python package (classes defined in Python, `py_class`): the globals
// ffi.MakeFieldGetter, ffi.MakeFieldSetter, ffi._RegisterFFIInit and
// ffi._PyClassRegisterTypeAttrColumns.
//
// The package allocates the type index, computes each field's offset, size
// and alignment, and registers the fields itself with TVMFFITypeRegisterField
// using a getter from MakeFieldGetter and a setter Function from
// MakeFieldSetter.  A field's storage follows from its static type index:
//   kTVMFFIInt int64_t, kTVMFFIFloat double, kTVMFFIBool bool (1 byte),
//   kTVMFFIOpaquePtr void*, kTVMFFIDataType DLDataType, kTVMFFIDevice DLDevice,
//   kTVMFFIAny / kTVMFFINone a TVMFFIAny (16 bytes; an object handle when
//   the field's size is 8), any object index an object handle (NULL = None).
// _PyClassRegisterTypeAttrColumns then registers `__ffi_init__` (from the
// reflected fields), `__ffi_new__` (a zeroed instance of total_size bytes
// whose deleter releases the Any and object fields) and
// `__ffi_shallow_copy__` as type attributes.
#ifndef TVM_FFI_CORE_PY_CLASS_H_
#define TVM_FFI_CORE_PY_CLASS_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

#include <tvm/ffi/function.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace py_class {

// A new heap ffi.String (or, is_bytes, ffi.Bytes) object holding the bytes,
// never the small form, for an object field slot (a pointer); new reference.
TVMFFIObjectHandle MakeHeapStringObject(const char* data, size_t size, bool is_bytes);

// The TVMFFIFieldGetter for a field of this static type index, as an
// integer (ValueError for an index with no storage).
int64_t FieldGetter(int32_t field_type_index);

// A setter Function(field_address: void*, value) that converts value with
// f_convert(type_converter, &value, &out) (0 or -1 with the error raised;
// out is owning) and stores the result.
Function FieldSetter(int32_t field_type_index, int64_t type_converter, int64_t f_convert);

// An __ffi_init__ built from the reflected fields of `type_index` (read at
// call time, through the C ABI).  It creates an empty instance
// (CreateEmptyInstance, reflection_visit.h), then sets each field from, in
// order: the positional arguments, the keyword arguments (after the KWARGS
// sentinel: name, value, name, value...), or the field's default (calling the
// factory when DefaultFromFactory).  The positional parameters are the fields
// not marked KwOnly, those without a default first, each group in field order
// (ancestors' fields first): `parent_required, child_required,
// parent_default` (so a default declared before a required field is never
// filled by position ahead of it).  A field with none of these is a TypeError
// (upstream's ``<type_key>.__ffi_init__() missing required argument: 'x'``, or
// ``... missing required keyword-only argument: 'x'``), as are unknown or
// repeated names.  InitOff fields are no parameters: they get their default,
// if any.  (ffi.DataclassDefine's types get the same constructor.)
Function MakeAutoInit(int32_t type_index);

// Registers the `__ffi_init__` type attribute built from the reflected fields.
void RegisterInit(int32_t type_index);

// Registers `__ffi_init__`, `__ffi_new__` and `__ffi_shallow_copy__`.
void RegisterTypeAttrColumns(int32_t type_index, int32_t total_size);

}  // namespace py_class
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_PY_CLASS_H_

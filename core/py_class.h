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

#include <cstdint>

#include "impl/function.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace py_class {

// The TVMFFIFieldGetter for a field of this static type index, as an
// integer (ValueError for an index with no storage).
int64_t FieldGetter(int32_t field_type_index);

// A setter Function(field_address: void*, value) that converts value with
// f_convert(type_converter, &value, &out) (0 or -1 with the error raised;
// out is owning) and stores the result.
Function FieldSetter(int32_t field_type_index, int64_t type_converter, int64_t f_convert);

// Registers the `__ffi_init__` type attribute built from the reflected fields.
void RegisterInit(int32_t type_index);

// Registers `__ffi_init__`, `__ffi_new__` and `__ffi_shallow_copy__`.
void RegisterTypeAttrColumns(int32_t type_index, int32_t total_size);

}  // namespace py_class
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_PY_CLASS_H_

// ffi.StructuralVisitor and the structural walk: a traversal of a value's
// structure that reports what it meets to callbacks.
//
// The visitor is tvm::ffi::StructuralVisitorObj (tvm/ffi/extra/structural_visit.h):
// layout = { TVMFFIObject, const StructuralVisitorVTable* vtable (+24),
// int32_t def_region_mode (+32) }, as upstream's; its C++ headers call
// vtable->visit and read def_region_mode inline.  A visit returns None to go
// on, an ffi.VisitInterrupt to stop the whole traversal (handed to the
// caller), or an Error.
//
// The default descent of a value (DefaultVisit): the type's "__s_visit__"
// type attribute if it has one (a native function with the vtable's visit
// signature, or an ffi.Function(visitor, value)); else nothing for a
// non-object; else each reflected field (ancestors' first) not marked
// SEqHashIgnore, a field marked SEqHashDefSimple / SEqHashDefPattern inside
// that definition region.  Array and List visit their items, Map and Dict
// their values.  The fields of a FreeVar object reached inside a Simple
// region are visited outside any region.  A Pattern region stays in force
// inside it (entering another kind there has no effect).
#ifndef TVM_FFI_CORE_STRUCTURAL_WALK_H_
#define TVM_FFI_CORE_STRUCTURAL_WALK_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/structural_visit.h>

#include <cstdint>
#include <string>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

static_assert(sizeof(StructuralVisitorObj) == 40,
              "ffi.StructuralVisitor: header, vtable, def_region_mode");

namespace structural_walk {

// The exception being handled (inside a catch) as an owning raw Error, for
// a vtable entry to return instead of throwing across the C ABI.
TVMFFIAny CurrentExceptionAsRawError() noexcept;

// Reads a reflected field of `obj` through its getter: an owning value.
Any ReadField(const Object* obj, const TVMFFIFieldInfo* f);

// None and Unchanged made from a whole 16-byte value: tvm::ffi::Any() stores
// the fields one by one, and a value read back whole right after that waits
// for the stores (the walks make and pass on one per node).
inline Any NoneValue() {
  static constexpr TVMFFIAny kNone = {TypeIndex::kTVMFFINone, {0}, {0}};
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(kNone);
}
inline Any UnchangedValue() {
  static constexpr TVMFFIAny kUnchanged = {TypeIndex::kTVMFFIUnchanged, {0}, {0}};
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(kUnchanged);
}

// An owning copy of a view; inline for the values the walks meet (Any's
// converting constructor is out of line for the raw strings it converts).
inline Any OwnedCopy(AnyView v) {
  TVMFFIAny raw = v.CopyToTVMFFIAny();
  if (raw.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
    ObjectUnsafe::IncRefObjectHandle(raw.v_obj);
    return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
  }
  if (raw.type_index == TypeIndex::kTVMFFIRawStr ||
      raw.type_index == TypeIndex::kTVMFFIByteArrayPtr ||
      raw.type_index == TypeIndex::kTVMFFIObjectRValueRef) {
    return Any(v);
  }
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
}

// The vtable entry visit(value): None or a VisitInterrupt; throws the Error.
Any Visit(StructuralVisitorObj* visitor, AnyView value);

// The default descent of value (see the file comment); throws the Error.
Any DefaultVisit(StructuralVisitorObj* visitor, AnyView value);

// Records `node` in the ffi.VisitErrorContext of the Error held (owned) in
// *err: appended to the context already there, or a new context whose
// prev_error_context is the error's previous extra_context.  Non-objects are
// not recorded, nor containers unless `record_containers`.  An Error this
// library did not make may have the 0.1.0-0.1.7 cell without extra_context
// (abi-v0.1.md 4.4): *err is then replaced by a copy this library makes
// (same kind, message and backtrace) that carries the context.
void AttachVisitErrorContext(TVMFFIAny* err, AnyView node, bool record_containers) noexcept;

// As above, for an Error being thrown: the Error to throw on (`err` itself,
// or its copy).
Error WithVisitErrorContext(Error err, AnyView node, bool record_containers) noexcept;

}  // namespace structural_walk
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRUCTURAL_WALK_H_

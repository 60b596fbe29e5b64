// ffi.StructuralVisitor and the structural walk: a traversal of a value's
// structure that reports what it meets to callbacks.
//
// layout = { TVMFFIObject, const VTable* vtable (+24), int32_t
// def_region_mode (+32) }, as upstream's; its C++ headers call
// vtable->visit and read def_region_mode inline.  A visit returns None to go
// on, an ffi.VisitInterrupt to stop the whole traversal (handed to the
// caller), or an Error.
//
// The default descent of a value (DefaultVisit): the type's "__s_visit__"
// type attribute if it has one (a native function with VTable::visit's
// signature, or an ffi.Function(visitor, value)); else nothing for a
// non-object; else each reflected field (ancestors' first) not marked
// SEqHashIgnore, a field marked SEqHashDefSimple / SEqHashDefPattern inside
// that definition region.  Array and List visit their items, Map and Dict
// their values.  The fields of a FreeVar object reached inside a Simple
// region are visited outside any region.  A Pattern region stays in force
// inside it (entering another kind there has no effect).
#ifndef TVM_FFI_CORE_STRUCTURAL_WALK_H_
#define TVM_FFI_CORE_STRUCTURAL_WALK_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

#include "impl/any.h"
#include "impl/function.h"
#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class StructuralVisitorObj : public Object {
 public:
  // Returns an owning None, VisitInterrupt or Error; never throws.
  using VisitFn = TVMFFIAny (*)(StructuralVisitorObj* self, TVMFFIAny value) noexcept;
  struct VTable {
    VisitFn visit;
  };
  const VTable* vtable;
  int32_t def_region_mode = kTVMFFIDefRegionKindNone;

  explicit StructuralVisitorObj(const VTable* vt) : vtable(vt) {}
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(StructuralVisitorObj, "ffi.StructuralVisitor", PlainObject)
};

static_assert(sizeof(StructuralVisitorObj) == 40,
              "ffi.StructuralVisitor: header, vtable, def_region_mode");

namespace structural_walk {

// The exception being handled (inside a catch) as an owning raw Error, for
// a vtable entry to return instead of throwing across the C ABI.
TVMFFIAny CurrentExceptionAsRawError() noexcept;

// visitor->vtable->visit(value): None or a VisitInterrupt; throws the Error.
Any Visit(StructuralVisitorObj* visitor, const TVMFFIAny& value);

// The default descent of value (see the file comment); throws the Error.
Any DefaultVisit(StructuralVisitorObj* visitor, const TVMFFIAny& value);

// Calls fn() with the visitor's definition region set to `kind` (unless a
// Pattern region is in force), restoring it afterwards.
template <typename F>
auto WithDefRegionKind(StructuralVisitorObj* visitor, int32_t kind, F&& fn) {
  if (visitor->def_region_mode == kTVMFFIDefRegionKindPattern) return fn();
  struct Restore {
    StructuralVisitorObj* v;
    int32_t old;
    ~Restore() { v->def_region_mode = old; }
  } restore{visitor, visitor->def_region_mode};
  visitor->def_region_mode = kind;
  return fn();
}

// Records `node` (an object other than a container) in the VisitErrorContext of the Error `err`
// (libtvm_ffi's errors only): appended to the context already there, or a
// new context whose prev_error_context is the error's previous extra_context.
void AttachVisitErrorContext(TVMFFIObjectHandle err, const TVMFFIAny& node) noexcept;

}  // namespace structural_walk
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRUCTURAL_WALK_H_

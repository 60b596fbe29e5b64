// ffi.VisitErrorContext: where in a tree an error of a recursive visit arose.
//
// layout = { TVMFFIObject, List reverse_visit_pattern (+24),
//            Object* prev_error_context (+32, NULL = None) }, as upstream's;
// upstream's C++ headers attach one to an Error's extra_context and push the
// node of each visit level the error unwinds through, innermost first.
// FindAccessPaths(root, context, allow_prefix_match) finds the access paths
// from `root` along which the recorded nodes lie (outermost at the top).
#ifndef TVM_FFI_CORE_VISIT_ERROR_CONTEXT_H_
#define TVM_FFI_CORE_VISIT_ERROR_CONTEXT_H_

#include "impl/array.h"
#include "impl/list.h"
#include "impl/object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class VisitErrorContextObj : public Object {
 public:
  List reverse_visit_pattern;
  ObjectRef prev_error_context;
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(VisitErrorContextObj, "ffi.VisitErrorContext", PlainObject)
};

static_assert(sizeof(VisitErrorContextObj) == 40,
              "ffi.VisitErrorContext: header, reverse_visit_pattern, prev_error_context");

namespace visit_error_context {

// The access paths (ffi.reflection.AccessPath) from `root` to every place
// where the recorded nodes appear as a chain, in depth-first order of the
// reflected fields, sequence items and map values.  The pattern drops NULL
// entries and collapses repeats of one node in a row.  With
// `allow_prefix_match`, once part of the chain has matched, every reflected
// object below it whose subtree holds no full match yields its own path.
Array<Any> FindAccessPaths(const ObjectRef& root, const VisitErrorContextObj* context,
                           bool allow_prefix_match);

}  // namespace visit_error_context
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_VISIT_ERROR_CONTEXT_H_

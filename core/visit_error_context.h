// ffi.VisitErrorContext: where in a tree an error of a recursive visit arose.
//
// The object is tvm::ffi::VisitErrorContextObj (tvm/ffi/extra/visit_error_context.h):
// layout = { TVMFFIObject, List reverse_visit_pattern (+24),
//            Object* prev_error_context (+32, NULL = None) }, as upstream's;
// upstream's C++ headers attach one to an Error's extra_context and push the
// node of each visit level the error unwinds through, innermost first.
// FindAccessPaths(root, context, allow_prefix_match) finds the access paths
// from `root` along which the recorded nodes lie (outermost at the top).
#ifndef TVM_FFI_CORE_VISIT_ERROR_CONTEXT_H_
#define TVM_FFI_CORE_VISIT_ERROR_CONTEXT_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/access_path.h>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace visit_error_context {

// The access paths (ffi.reflection.AccessPath) from `root` to every place
// where the recorded nodes appear as a chain, in depth-first order of the
// reflected fields, sequence items and map values.  The pattern drops NULL
// entries and containers (walked through, never matched) and collapses
// repeats of one node in a row.  With
// `allow_prefix_match`, once part of the chain has matched, every reflected
// object below it whose subtree holds no full match yields its own path.
Array<reflection::AccessPath> FindAccessPaths(const ObjectRef& root,
                                              const VisitErrorContextObj* context,
                                              bool allow_prefix_match);

}  // namespace visit_error_context
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_VISIT_ERROR_CONTEXT_H_

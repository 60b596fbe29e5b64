/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/visit_error_context.h
 * \brief VisitErrorContext: where in a tree of objects an error of a
 *        recursive visit arose, recorded on the Error as it unwinds.
 *
 * A recursive visitor brackets the work on each node with
 * TVM_FFI_VISIT_BEGIN() / TVM_FFI_VISIT_END(node).  When an Error passes
 * through a level, the node of that level is appended to the error's
 * VisitErrorContext (kept in the error's extra_context; created on first
 * use), so the context lists the nodes from the innermost outwards.
 * TVM_FFI_VISIT_THROW(Kind, node) throws an Error whose context starts at
 * `node`.  Afterwards VisitErrorContext::FindAccessPaths(root, context)
 * (in libtvm_ffi) turns the recorded nodes into access paths from the root.
 *
 * \code{.cpp}
 * void Check(const ObjectRef& node) {
 *   TVM_FFI_VISIT_BEGIN();
 *   if (IsBad(node)) TVM_FFI_VISIT_THROW(ValueError, node) << "bad node";
 *   for (const ObjectRef& kid : KidsOf(node)) Check(kid);
 *   TVM_FFI_VISIT_END(node);
 * }
 * \endcode
 */
#ifndef TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
#define TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

#include <optional>
#include <utility>

/*
 * The three closing macros share one catch clause; `on_error` is what the
 * clause does after recording `node` (rethrow, or return the error).
 */
#define TVM_FFI_VISIT_CATCH_(node, on_error)                                    \
  }                                                                             \
  catch (::tvm::ffi::Error & tvm_ffi_visit_error_) {                            \
    ::tvm::ffi::detail::UpdateVisitErrorContext(tvm_ffi_visit_error_, (node));  \
    on_error;                                                                   \
  }

/*! \brief Opens the region of one visit level (closed by TVM_FFI_VISIT_END*). */
#define TVM_FFI_VISIT_BEGIN() try {
/*!
 * \brief Closes a visit level: an Error leaving it gets `node` appended to
 *        its VisitErrorContext and is rethrown.
 */
#define TVM_FFI_VISIT_END(node) TVM_FFI_VISIT_CATCH_(node, throw)
/*!
 * \brief As TVM_FFI_VISIT_END, for a function returning Expected<T>: the
 *        error is returned as Unexpected instead of rethrown.
 */
#define TVM_FFI_VISIT_END_RETURN_EXPECTED(node) \
  TVM_FFI_VISIT_CATCH_(node, return ::tvm::ffi::Unexpected(tvm_ffi_visit_error_))
/*!
 * \brief TVM_FFI_THROW(ErrorKind) with a new VisitErrorContext holding
 *        `node` as the error's extra_context; stream the message into it.
 */
#define TVM_FFI_VISIT_THROW(ErrorKind, node)                                        \
  ::tvm::ffi::detail::ErrorBuilder(#ErrorKind,                                      \
                                   TVMFFIBacktrace(__FILE__, __LINE__,              \
                                                   TVM_FFI_FUNC_SIG, 0),            \
                                   TVM_FFI_ALWAYS_LOG_BEFORE_THROW, ::std::nullopt, \
                                   ::tvm::ffi::detail::VisitContextAsExtra(node))   \
      .stream()

namespace tvm {
namespace ffi {

/*!
 * \brief The record of the nodes an Error passed through.
 *
 * layout = { TVMFFIObject, List reverse_visit_pattern (+24),
 *            Optional<ObjectRef> prev_error_context (+32) }, the layout the
 * library registers for `ffi.VisitErrorContext`.
 */
class VisitErrorContextObj : public Object {
 public:
  /// \cond Doxygen_Suppress
  // Mutable so that an error's context grows in place as it unwinds; never
  // compared or hashed by structure.
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.VisitErrorContext", VisitErrorContextObj, Object);
  /// \endcond

  /*! \brief The nodes, innermost first (the order the error unwound through them). */
  List<ObjectRef> reverse_visit_pattern;
  /*! \brief The error's extra_context from before this context replaced it, if any. */
  Optional<ObjectRef> prev_error_context;
};

/*! \brief A reference to a VisitErrorContextObj (never null). */
class VisitErrorContext : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitErrorContext, ObjectRef,
                                                VisitErrorContextObj);
  /// \endcond

  /*! \brief Takes a non-null object. */
  explicit VisitErrorContext(ObjectPtr<VisitErrorContextObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }

  /*!
   * \brief The access paths from `root` along which the recorded nodes lie.
   * \param root The value the visit started from.
   * \param visit_context The context taken from the error.
   * \param allow_prefix_match Also report the paths where only the outer
   *        part of the recorded chain could be matched.
   * \return The paths, in the depth-first order of the fields and items.
   */
  TVM_FFI_COLD_CODE TVM_FFI_EXTRA_CXX_API static Array<reflection::AccessPath> FindAccessPaths(
      const ObjectRef& root, const VisitErrorContext& visit_context,
      bool allow_prefix_match = false);

  /*! \brief The error's VisitErrorContext, or nullopt when it has none. */
  TVM_FFI_COLD_CODE static Optional<VisitErrorContext> TryGetFromError(const Error& err) {
    Optional<VisitErrorContext> found;
    std::optional<ObjectRef> extra = err.extra_context();
    if (extra.has_value()) found = extra->as<VisitErrorContext>();
    return found;
  }
};

namespace detail {

/*! \brief A new context whose pattern is just `node`. */
TVM_FFI_COLD_CODE inline VisitErrorContext MakeVisitErrorContext(const ObjectRef& node) {
  ObjectPtr<VisitErrorContextObj> ctx = make_object<VisitErrorContextObj>();
  ctx->reverse_visit_pattern.push_back(node);
  return VisitErrorContext(std::move(ctx));
}

/*! \brief MakeVisitErrorContext(node) in the form ErrorBuilder takes as extra context. */
TVM_FFI_COLD_CODE inline std::optional<ObjectRef> VisitContextAsExtra(const ObjectRef& node) {
  return std::optional<ObjectRef>(MakeVisitErrorContext(node));
}

/*!
 * \brief Records that `err` unwound through `node`: appends to its
 *        VisitErrorContext, or (when its extra_context is something else or
 *        nothing) installs a new one that keeps the old context as
 *        prev_error_context.
 */
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(Error& err,  // NOLINT(runtime/references)
                                                      const ObjectRef& node) {
  std::optional<ObjectRef> extra = err.extra_context();
  if (extra.has_value()) {
    if (Optional<VisitErrorContext> ctx = extra->as<VisitErrorContext>()) {
      // The context is shared by every copy of the error: update it in place.
      ctx.value()->reverse_visit_pattern.push_back(node);
      return;
    }
  }
  ObjectPtr<VisitErrorContextObj> ctx = make_object<VisitErrorContextObj>();
  ctx->reverse_visit_pattern.push_back(node);
  if (extra.has_value()) ctx->prev_error_context = *std::move(extra);
  ErrorObj* obj = static_cast<ErrorObj*>(ObjectUnsafe::RawObjectPtrFromObjectRef(err));
  TVMFFIObjectHandle old = obj->extra_context;
  obj->extra_context = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(ctx));
  if (old != nullptr) ObjectUnsafe::DecRefObjectHandle(old);
}

/*!
 * \brief For visitors that pass errors as a raw result: when `result` holds
 *        an Error and `node` is an object, record `node` on the error.
 */
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(const TVMFFIAny& result,
                                                      AnyView node) noexcept {
  if (node.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return;
  if (result.type_index != TypeIndex::kTVMFFIError) return;
  Error err = AnyView::CopyFromTVMFFIAny(result).cast<Error>();
  UpdateVisitErrorContext(err, node.cast<ObjectRef>());
}

/*! \brief UpdateVisitErrorContext(err, node) when `node` is an object; else nothing. */
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(Error& err,  // NOLINT(runtime/references)
                                                      AnyView node) noexcept {
  if (node.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return;
  UpdateVisitErrorContext(err, node.cast<ObjectRef>());
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_

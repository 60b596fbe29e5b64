/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/access_path.h
 * \brief AccessPath: where a value sits inside another, as a chain of steps
 *        (field, array item, map item, or the "missing" forms of these,
 *        which name a place that exists on one side of a comparison only).
 *
 * Layouts (shared with the library, which makes these objects too, e.g. for
 * StructuralEqual::GetFirstMismatch):
 *   ffi.reflection.AccessStep = { header, int32 kind, 4 zero bytes, Any key }
 *   ffi.reflection.AccessPath = { header, parent (nullable ref), step
 *                                 (nullable ref), int32 depth }
 * A root has depth 0 and neither parent nor step.
 */
#ifndef TVM_FFI_REFLECTION_ACCESS_PATH_H_
#define TVM_FFI_REFLECTION_ACCESS_PATH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {

class AccessStep;

/*!
 * \brief The kind of a step (an int32 in the object; the values are fixed).
 *
 * The first three select something that exists: a field (the key is its
 * name), an array element (its index) or a map entry (its key).  The three
 * "missing" kinds name the same places on the side of a comparison that
 * does not have them.
 */
enum class AccessKind : int32_t {
  kAttr = 0,
  kArrayItem,
  kMapItem,
  kAttrMissing,
  kArrayItemMissing,
  kMapItemMissing,
};
static_assert(static_cast<int32_t>(AccessKind::kMapItemMissing) == 5, "the ABI values are 0..5");

/*! \brief One step: a kind and a key. */
class AccessStepObj : public Object {
 public:
  /// \cond Doxygen_Suppress
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessStep", AccessStepObj, Object);
  /// \endcond

  /*! \brief A kAttr step with a None key. */
  AccessStepObj() = default;
  /*! \brief Builds the step (`kind`, `key`). */
  AccessStepObj(AccessKind kind, Any key) : kind(kind), key(std::move(key)) {}
  /*! \brief True when `other` has this kind and an AnyEqual key. */
  inline bool StepEqual(const AccessStep& other) const;

  /*! \brief The kind. */
  AccessKind kind{AccessKind::kAttr};

 private:
  // Keeps the 4 bytes after `kind` zero: the library reads kind as 8 bytes.
  [[maybe_unused]] int32_t kind_padding_{0};

 public:
  /*!
   * \brief What the step selects: the field name (kAttr*), the index
   *        (kArrayItem*) or the map key (kMapItem*; None when a missing entry's
   *        key is not known).
   */
  Any key;
};

/*!
 * \brief Owning handle of an AccessStepObj; never null.  The static
 *        functions name each kind of step.
 */
class AccessStep : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessStep, ObjectRef, AccessStepObj);
  /// \endcond

  /*! \brief The step (`kind`, `key`). */
  AccessStep(AccessKind kind, Any key)
      : ObjectRef(make_object<AccessStepObj>(kind, std::move(key))) {}

  // Steps that exist on both sides of a comparison.

  /*! \brief Into field `field_name`. */
  static AccessStep Attr(String field_name) { return Of(AccessKind::kAttr, std::move(field_name)); }
  /*! \brief Into element `index` of a sequence. */
  static AccessStep ArrayItem(int64_t index) { return Of(AccessKind::kArrayItem, index); }
  /*! \brief Into the value stored under `key`. */
  static AccessStep MapItem(Any key) { return Of(AccessKind::kMapItem, std::move(key)); }

  // Steps to something that only one side has.

  /*! \brief Field `field_name`, which the other object lacks. */
  static AccessStep AttrMissing(String field_name) {
    return Of(AccessKind::kAttrMissing, std::move(field_name));
  }
  /*! \brief Element `index`, past the end of the other sequence. */
  static AccessStep ArrayItemMissing(int64_t index) {
    return Of(AccessKind::kArrayItemMissing, index);
  }
  /*! \brief Entry `key` (None when unknown), which the other map lacks. */
  static AccessStep MapItemMissing(Any key = nullptr) {
    return Of(AccessKind::kMapItemMissing, std::move(key));
  }

 private:
  static AccessStep Of(AccessKind kind, Any key) { return AccessStep(kind, std::move(key)); }
};

inline bool AccessStepObj::StepEqual(const AccessStep& other) const {
  const AccessStepObj* rhs = other.get();
  if (rhs->kind != kind) return false;
  return AnyEqual()(key, rhs->key);
}

class AccessPath;

/*! \brief A path: the parent path and the last step. */
class AccessPathObj : public Object {
 public:
  /*! \brief The path without the last step (an AccessPath), or None at the root. */
  Optional<ObjectRef> parent;
  /*! \brief The last step, or None at the root. */
  Optional<AccessStep> step;
  /*! \brief The number of steps. */
  int32_t depth{0};

  AccessPathObj() = default;
  /*! \brief A path node from its parts. */
  AccessPathObj(Optional<ObjectRef> parent, Optional<AccessStep> step, int32_t depth)
      : parent(std::move(parent)), step(std::move(step)), depth(depth) {}

  /// \cond Doxygen_Suppress
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessPath", AccessPathObj, Object);
  /// \endcond

  // Longer paths: this one followed by one more step.  Each named form is
  // Extend(AccessStep::<same name>(argument)).

  /*! \brief This path followed by `step`. */
  inline AccessPath Extend(AccessStep step) const;
  inline AccessPath Attr(String field_name) const;
  inline AccessPath ArrayItem(int64_t index) const;
  inline AccessPath MapItem(Any key) const;

  /*! \brief The parent path, or nullopt at the root. */
  inline Optional<AccessPath> GetParent() const;
  /*! \brief The steps from the root, first step first. */
  inline Array<AccessStep> ToSteps() const;

  // The same, for a place only the other side of a comparison has.
  inline AccessPath AttrMissing(String field_name) const;
  inline AccessPath ArrayItemMissing(int64_t index) const;
  inline AccessPath MapItemMissing(Any key) const;

  /*! \brief Same length and equal steps. */
  inline bool PathEqual(const AccessPath& other) const;
  /*! \brief Whether `other` starts with this path (a path is a prefix of itself). */
  inline bool IsPrefixOf(const AccessPath& other) const;


 private:
  // Extend(AccessStep(kind, key)): the six named extensions.
  inline AccessPath Step(AccessKind kind, Any key) const;
  // The parent node; a malformed chain (a non-path parent) is an InternalError.
  const AccessPathObj* ParentNode() const {
    const AccessPathObj* up = parent.has_value() ? (*parent).as<AccessPathObj>() : nullptr;
    TVM_FFI_ICHECK(up != nullptr) << "AccessPath: a node of depth " << depth
                                  << " has no parent path";
    return up;
  }
  // The last step; every non-root node has one.
  const AccessStepObj* LastStep() const {
    TVM_FFI_ICHECK(step.has_value()) << "AccessPath: a node of depth " << depth << " has no step";
    return (*step).get();
  }
  // Walks both chains together; equal depths are required first.
  static bool ChainEqual(const AccessPathObj* a, const AccessPathObj* b) {
    if (a->depth != b->depth) return false;
    while (a != b && a->depth > 0) {
      const AccessStepObj* sa = a->LastStep();
      const AccessStepObj* sb = b->LastStep();
      if (sa->kind != sb->kind || !AnyEqual()(sa->key, sb->key)) return false;
      a = a->ParentNode();
      b = b->ParentNode();
    }
    return true;
  }
};

/*! \brief Reference to an AccessPathObj (never null). */
class AccessPath : public ObjectRef {
  // Only the root and AccessPathObj::Extend make nodes.
  friend class AccessPathObj;
  explicit AccessPath(ObjectPtr<AccessPathObj> node) : ObjectRef(std::move(node)) {}

 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessPath, ObjectRef, AccessPathObj);
  /// \endcond

  /*! \brief The empty path. */
  static AccessPath Root() {
    return AccessPath(make_object<AccessPathObj>(std::nullopt, std::nullopt, 0));
  }
  /*! \brief The root extended by each step of [begin, end). */
  template <typename Iter>
  static AccessPath FromSteps(Iter begin, Iter end) {  // NOLINT(performance-unnecessary-value-param)
    AccessPath path = Root();
    for (; begin != end; ++begin) path = path->Extend(*begin);
    return path;
  }
  /*! \brief The root extended by each of `steps`. */
  static AccessPath FromSteps(const Array<AccessStep>& steps) {
    return FromSteps(steps.begin(), steps.end());
  }
};

/*! \brief A pair of paths, e.g. the first mismatch of two values (lhs, rhs). */
using AccessPathPair = Tuple<AccessPath, AccessPath>;

inline Optional<AccessPath> AccessPathObj::GetParent() const {
  Optional<AccessPath> up;
  if (parent.has_value()) up = (*parent).as<AccessPath>();
  return up;
}

inline AccessPath AccessPathObj::Extend(AccessStep next) const {
  return AccessPath(
      make_object<AccessPathObj>(GetRef<AccessPath>(this), std::move(next), depth + 1));
}

inline AccessPath AccessPathObj::Step(AccessKind kind, Any key) const {
  return Extend(AccessStep(kind, std::move(key)));
}
// The six named extensions (inline by their declarations in the class).
AccessPath AccessPathObj::Attr(String x) const { return Step(AccessKind::kAttr, std::move(x)); }
AccessPath AccessPathObj::ArrayItem(int64_t x) const { return Step(AccessKind::kArrayItem, x); }
AccessPath AccessPathObj::MapItem(Any x) const { return Step(AccessKind::kMapItem, std::move(x)); }
AccessPath AccessPathObj::AttrMissing(String x) const {
  return Step(AccessKind::kAttrMissing, std::move(x));
}
AccessPath AccessPathObj::ArrayItemMissing(int64_t x) const {
  return Step(AccessKind::kArrayItemMissing, x);
}
AccessPath AccessPathObj::MapItemMissing(Any x) const {
  return Step(AccessKind::kMapItemMissing, std::move(x));
}

inline Array<AccessStep> AccessPathObj::ToSteps() const {
  std::vector<AccessStep> steps(static_cast<size_t>(depth), AccessStep(UnsafeInit{}));
  const AccessPathObj* node = this;
  for (int32_t i = depth; i > 0; --i) {
    steps[static_cast<size_t>(i - 1)] = GetRef<AccessStep>(node->LastStep());
    node = node->ParentNode();
  }
  return Array<AccessStep>(steps.begin(), steps.end());
}

inline bool AccessPathObj::PathEqual(const AccessPath& other) const {
  return ChainEqual(this, other.get());
}

inline bool AccessPathObj::IsPrefixOf(const AccessPath& other) const {
  const AccessPathObj* node = other.get();
  if (node->depth < depth) return false;
  while (node->depth > depth) node = node->ParentNode();
  return ChainEqual(this, node);
}

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_ACCESS_PATH_H_

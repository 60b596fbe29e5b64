/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/structural_mutate.h
 * \brief Rewriting a value's structure: StructuralMutatorObj (a mutator
 *        object with C-callable entry points), StructuralMap (callbacks that
 *        replace values before or after the descent) and StructuralMutate
 *        (callbacks that take over the descent), with copy on write.
 *
 * A mutation of a value returns the replacement, the marker Unchanged (the
 * value stays; nothing below it changed), or an Error (carried as an
 * Expected, never thrown across a level).  As an error leaves a level whose
 * value is an object, the object is recorded in the error's
 * VisitErrorContext.
 *
 * The descent into a value (DefaultMutateExpected) follows the type's
 * `__s_mutate__` attribute (type_attr::kStructuralMutate) — with
 * InplaceMode::kAllow and a value nobody else holds, `__s_maybe_inplace_mutate__`,
 * which may update the value in place.  libtvm_ffi registers both for
 * Array, List, Map and Dict (items; map values) and for strings, bytes and
 * big integers (never changed).  A non-object without one is unchanged.  Any
 * other object has its reflected fields mutated (not those marked
 * SEqHashIgnore; SEqHashDef{Simple,Pattern} fields inside that definition
 * region): when a field changes, the result is a shallow copy
 * (`__ffi_shallow_copy__`) with the new field values set.  A plain value
 * without a hook comes back as itself.  Objects whose
 * structural kind is FreeVar or DAGNode go through the mutator's variable
 * remap: a node already mutated is replaced by its earlier result, so a
 * shared node stays shared, and a free variable outside any definition
 * region is left alone.
 *
 * \code{.cpp}
 * // Every IntImm below root, doubled; everything else is copied only where needed.
 * Any out = StructuralMap<WalkOrder::kPostOrder>(
 *     root, [](const IntImm& x) -> Expected<Any> { return IntImm(x->value * 2); });
 * \endcode
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
#define TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>

// Mutation is built on the visitor (structural_visit.h): same walk, same
// reflection-driven field access, results as UnchangedOr in an Expected.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/structural_callbacks.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>

namespace tvm {
namespace ffi {

class StructuralMutatorObj;

// ---- The C-level contract of a mutator -----------------------------------
// Every slot returns an owned TVMFFIAny; an Error in it means the step failed.

/*!
 * \brief One mutation step: the replacement value, the Unchanged marker, or
 *        an Error.  Native `__s_mutate__` attributes share this shape.
 */
using FStructuralMutateABI = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView value) noexcept;
/*! \brief Looks `var` up in the remap: its image, or None if it was never mapped. */
using FStructuralVarRemapGet = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var) noexcept;
/*! \brief Maps `var` to `mapped_value` in the remap; None on success. */
using FStructuralVarRemapSet = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var,
                                             AnyView mapped_value) noexcept;

/*! \brief Function table of a mutator object. */
struct StructuralMutatorVTable {
  /*! \brief Rewrites a value into a fresh one; the input is never touched. */
  FStructuralMutateABI mutate = nullptr;
  /*! \brief Like `mutate`, but may edit a uniquely held input where it stands. */
  FStructuralMutateABI maybe_inplace_mutate = nullptr;
  /*! \brief Remap lookup. */
  FStructuralVarRemapGet var_remap_get = nullptr;
  /*! \brief Remap update. */
  FStructuralVarRemapSet var_remap_set = nullptr;
};

/*!
 * \brief Permission for a mutation to reuse its input: kAllow lets it edit a
 *        value in place when this walk holds the only reference.
 */
enum class InplaceMode : int32_t {
  kDisallow = 0,
  kAllow = 1,
};

// ---- Forward declarations -------------------------------------------------

template <typename T>
class UnchangedOr;
template <typename Parent, typename... Callbacks>
class StructuralMutateEngine;
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralMapEngine;
template <typename Parent, WalkOrder order>
class StructuralMapDynEngine;

/// \cond Doxygen_Suppress
// UnchangedOr<U> fits where UnchangedOr<T> is expected exactly when U fits T.
template <typename T, typename U>
inline constexpr bool type_subsumes_v<UnchangedOr<T>, UnchangedOr<U>> = type_subsumes_v<T, U>;
/// \endcond

/*! \brief The marker "this value did not change" (type index kTVMFFIUnchanged). */
struct Unchanged {
  /*! \brief The marker in an Any. */
  TVM_FFI_INLINE operator Any() const noexcept {  // NOLINT(google-explicit-constructor)
    return detail::AnyUnsafe::MoveTVMFFIAnyRawToAny(CopyToTVMFFIAny());
  }
  /*! \brief The marker as a raw value (no payload; the padding is zero). */
  TVM_FFI_INLINE TVMFFIAny CopyToTVMFFIAny() const noexcept {
    TVMFFIAny marker{};
    marker.type_index = TypeIndex::kTVMFFIUnchanged;
    return marker;
  }
};

namespace detail {
struct UnchangedOrUnsafe;
/*! \brief Tells UnchangedOr<...> apart from other types. */
template <typename T>
struct IsUnchangedOr : std::false_type {};
template <typename T>
struct IsUnchangedOr<UnchangedOr<T>> : std::true_type {};
template <typename T>
inline constexpr bool is_unchanged_or_v = IsUnchangedOr<T>::value;
}  // namespace detail

/*!
 * \brief A T, or the Unchanged marker.  The result type of mutations: an
 *        unchanged value costs no copy.
 */
template <typename T>
class UnchangedOr {
 public:
  static_assert(!std::is_base_of_v<Error, std::remove_cv_t<T>>,
                "UnchangedOr<Error> is not allowed: errors travel in Expected");

  /*! \brief The marker. */
  TVM_FFI_INLINE UnchangedOr(Unchanged unchanged) noexcept  // NOLINT(*)
      : data_(static_cast<Any>(unchanged)) {}
  /*! \brief A value. */
  TVM_FFI_INLINE UnchangedOr(T value) : data_(Any(std::move(value))) {}  // NOLINT(*)
  /*! \brief A value of a type that converts to T. */
  template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Unchanged> &&
                                                    !detail::is_unchanged_or_v<std::decay_t<U>> &&
                                                    !detail::is_expected_v<std::decay_t<U>> &&
                                                    !detail::is_unexpected_v<std::decay_t<U>> &&
                                                    !std::is_base_of_v<Error, std::decay_t<U>> &&
                                                    std::is_convertible_v<U, T>>>
  TVM_FFI_INLINE UnchangedOr(U&& value) : data_(Any(T(std::forward<U>(value)))) {}  // NOLINT(*)
  /*! \brief From an UnchangedOr of a narrower or convertible type; the marker stays the marker. */
  template <typename U,
            typename = std::enable_if_t<type_subsumes_v<T, U> || std::is_convertible_v<U, T>>>
  TVM_FFI_INLINE UnchangedOr(UnchangedOr<U> other)  // NOLINT(*)
      : data_(Rewrap(std::move(other))) {}

  /*! \brief Whether this is the marker. */
  TVM_FFI_INLINE bool IsUnchanged() const& noexcept {
    return data_.type_index() == TypeIndex::kTVMFFIUnchanged;
  }
  /*! \brief Whether the result leaves `original` as it was (marker, or the same value). */
  TVM_FFI_INLINE bool UnchangedOrSameAs(const T& original) const& noexcept {
    return IsUnchanged() || data_.same_as(original);
  }
  /*! \brief The held value as a U (exact types only), or nullopt (also for the marker). */
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>>>
  TVM_FFI_INLINE std::optional<U> as() && {
    return std::move(data_).template as<U>();
  }
  /*! \brief The held value as a U; TypeError otherwise. */
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>>>
  TVM_FFI_INLINE U as_or_throw() && {
    return std::move(data_).template as_or_throw<U>();
  }

  /*! \brief The new value, or `original` for the marker. */
  TVM_FFI_INLINE T ValueOrUnchanged(const T& original) && {
    if (IsUnchanged()) return original;
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  /*! \brief The new value, or `original` (moved) for the marker. */
  TVM_FFI_INLINE T ValueOrUnchanged(T&& original) && {
    if (IsUnchanged()) return std::move(original);
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  /*! \brief For UnchangedOr<Any>: the new value, or an owned copy of `original`. */
  template <typename U = T,
            typename = std::enable_if_t<std::is_same_v<T, Any> && std::is_same_v<U, T>>>
  TVM_FFI_INLINE Any ValueOrUnchanged(AnyView original) && {
    if (IsUnchanged()) return Any(original);
    return std::move(data_);
  }
  /*! \brief The value; must not be the marker. */
  TVM_FFI_INLINE T ValueUnchecked() && {
    return detail::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
 private:
  // The held Any of an UnchangedOr<U> re-tagged as ours: as is when every U
  // is a T (and for the marker), else through a converted T.
  template <typename U>
  static Any Rewrap(UnchangedOr<U>&& other) {
    if constexpr (!type_subsumes_v<T, U>) {
      if (!other.IsUnchanged()) return Any(T(std::move(other).ValueUnchecked()));
    }
    return std::move(other.data_);
  }

  // Adopts `data` (a T or the marker) without checking it.
  struct UnsafeInit {};
  TVM_FFI_INLINE explicit UnchangedOr(UnsafeInit, Any data) noexcept : data_(std::move(data)) {}

  Any data_;

  template <typename, typename>
  friend struct TypeTraits;
  friend struct detail::UnchangedOrUnsafe;
  template <typename>
  friend class UnchangedOr;
};

namespace detail {

/*! \brief Raw access to an UnchangedOr's value for the headers' own use. */
struct UnchangedOrUnsafe {
  /*! \brief Adopts an owned raw value that is a T or the marker. */
  template <typename T>
  TVM_FFI_INLINE static UnchangedOr<T> MoveFromTVMFFIAny(TVMFFIAny raw) {
    return UnchangedOr<T>(typename UnchangedOr<T>::UnsafeInit{},
                          AnyUnsafe::MoveTVMFFIAnyRawToAny(raw));
  }
  /*! \brief Releases the held value as an owned raw value. */
  template <typename T>
  TVM_FFI_INLINE static TVMFFIAny MoveToTVMFFIAny(UnchangedOr<T>&& result) noexcept {
    return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(result.data_));
  }
};

/*! \brief The TypeError of a result that is not of the type a macro declared. */
TVM_FFI_COLD_CODE inline Unexpected<Error> SMutateDeclaredTypeError() noexcept {
  return Unexpected(
      Error("TypeError", "structural mutate result does not match the declared type", ""));
}

}  // namespace detail

/*! \brief The typed view of a `__s_mutate__` attribute. */
using FStructuralMutate =
    reflection::NativeFunctionView<UnchangedOr<Any>(StructuralMutatorObj*, AnyView)>;

namespace type_attr {
/*! \brief A type's own descent for a value nobody else holds (may update it in place). */
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMaybeInplaceMutate{
    "__s_maybe_inplace_mutate__"};
/*! \brief A type's own descent for mutators. */
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMutate{"__s_mutate__"};
}  // namespace type_attr

/*!
 * \brief The base of every structural mutator (type ffi.StructuralMutator).
 *
 * layout = { TVMFFIObject, const StructuralMutatorVTable* (+24),
 *            TVMFFIDefRegionKind (+32), subclass members... }: the library
 * calls the vtable of a mutator it is handed and reads its region.
 */
class StructuralMutatorObj : public Object {
 public:
  /// \cond Doxygen_Suppress
  static constexpr const bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralMutator", StructuralMutatorObj, Object);
  /// \endcond

  /*!
   * \brief Mutates `value` through the vtable; an error comes back, never
   *        thrown.  kAllow picks the in-place entry, but only for an object
   *        whose one reference is the caller's.
   */
  TVM_FFI_INLINE Expected<UnchangedOr<Any>> MutateExpected(
      AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) noexcept {
    FStructuralMutateABI entry = vtable_->mutate;
    if (inplace_mode == InplaceMode::kAllow) {
      const Object* obj = value.as<Object>();
      if (obj != nullptr && obj->unique()) entry = vtable_->maybe_inplace_mutate;
    }
    return AdoptRaw<UnchangedOr<Any>>(entry(this, value));
  }
  /*! \brief MutateExpected, with the error thrown. */
  TVM_FFI_INLINE UnchangedOr<Any> Mutate(AnyView value,
                                         InplaceMode inplace_mode = InplaceMode::kDisallow) {
    return MutateExpected(value, inplace_mode).value();
  }
  /*! \brief What a mutator does with a value it has no rule for (see the file comment). */
  TVM_FFI_INLINE Expected<UnchangedOr<Any>> DefaultMutateExpected(
      AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) noexcept {
    TVMFFIAny raw =
        inplace_mode == InplaceMode::kDisallow ? DefaultRaw(value) : DefaultInplaceRaw(value);
    return AdoptRaw<UnchangedOr<Any>>(raw);
  }

  /*! \brief Makes `mapped_value` the replacement of `var` for the rest of the mutation. */
  TVM_FFI_INLINE Expected<void> VarRemapSetExpected(AnyView var, AnyView mapped_value) noexcept {
    return AdoptRaw<void>(vtable_->var_remap_set(this, var, mapped_value));
  }
  /*! \brief The replacement recorded for `var`, or None. */
  TVM_FFI_INLINE Expected<Any> VarRemapGetExpected(AnyView var) noexcept {
    return AdoptRaw<Any>(vtable_->var_remap_get(this, var));
  }

  /*!
   * \brief Runs `callback()` inside definition region `kind` and puts the
   *        previous region back afterwards, even on an exception.  A Pattern
   *        region is never replaced by a nested one.
   */
  template <typename Callback>
  TVM_FFI_INLINE auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback)
      -> decltype(std::forward<Callback>(callback)()) {
    return detail::SWithDefRegion(&def_region_mode_, kind, std::forward<Callback>(callback));
  }
  /*! \brief The definition region in force. */
  TVM_FFI_INLINE TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }

  /*! \brief Mutator type handed to StructuralMutate callbacks. */
  using MutatorObjType = StructuralMutatorObj;

 protected:
  /*! \brief A mutator dispatching through `vtable` (static storage). */
  explicit StructuralMutatorObj(const StructuralMutatorVTable* vtable) : vtable_(vtable) {}

  /*! \brief The entry points. */
  const StructuralMutatorVTable* vtable_ = nullptr;
  /*! \brief The current definition region. */
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

 private:
  template <typename R>
  TVM_FFI_INLINE static Expected<R> AdoptRaw(TVMFFIAny raw) noexcept {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<R>(raw);
  }

  // A hook attribute: a native function, an ffi.Function, or nothing (None).
  TVM_FFI_INLINE TVMFFIAny CallHook(AnyView attr, AnyView value, bool* called) noexcept {
    *called = true;
    if (TVM_FFI_PREDICT_TRUE(attr.type_index() == TypeIndex::kTVMFFIOpaquePtr)) {
      return reinterpret_cast<FStructuralMutateABI>(attr.cast<void*>())(this, value);
    }
    if (attr.type_index() == TypeIndex::kTVMFFIFunction) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(
          attr.cast<Function>().CallExpected<Any>(this, value));
    }
    if (attr.type_index() != TypeIndex::kTVMFFINone) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(Expected<Any>(Unexpected(Error(
          "TypeError", "__s_mutate__ must be a direct hook pointer or ffi.Function", ""))));
    }
    *called = false;
    return TVMFFIAny{};
  }

  TVM_FFI_INLINE static TVMFFIAny WithContext(TVMFFIAny result, AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(result.type_index == TypeIndex::kTVMFFIError)) {
      detail::UpdateVisitErrorContext(result, value);
    }
    return result;
  }

  TVMFFIAny DefaultRaw(AnyView value) noexcept {
    static reflection::TypeAttrColumn column(type_attr::kStructuralMutate);
    bool called = false;
    TVMFFIAny result = CallHook(column[value.type_index()], value, &called);
    if (!called) result = DescendObject(value);
    return WithContext(result, value);
  }

  TVMFFIAny DefaultInplaceRaw(AnyView value) noexcept {
    static reflection::TypeAttrColumn column(type_attr::kStructuralMaybeInplaceMutate);
    bool called = false;
    TVMFFIAny result = CallHook(column[value.type_index()], value, &called);
    if (called) return WithContext(result, value);
    // No in-place rule: the copying descent.
    return DefaultRaw(value);
  }

  // A value without a hook: a plain value stays; an object has its fields
  // mutated, through the variable remap for FreeVar and DAGNode kinds.
  TVMFFIAny DescendObject(AnyView value) noexcept {
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
      return detail::AnyUnsafe::MoveAnyToTVMFFIAny(Any(value));  // a plain value is itself
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(value.type_index());
    int32_t kind = info->metadata == nullptr ? kTVMFFISEqHashKindUnsupported
                                             : info->metadata->structural_eq_hash_kind;
    bool free_var = kind == kTVMFFISEqHashKindFreeVar;
    bool dag_node = kind == kTVMFFISEqHashKindDAGNode;
    if (free_var || dag_node) {
      Expected<Any> mapped = VarRemapGetExpected(value);
      if (detail::ExpectedUnsafe::GetData(mapped).type_index() != TypeIndex::kTVMFFINone) {
        return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(mapped));
      }
      // A free variable used outside a definition is not rewritten.
      if (free_var && def_region_mode_ == kTVMFFIDefRegionKindNone) {
        return Unchanged().CopyToTVMFFIAny();
      }
    }
    Expected<Any> result = MutateFields(value, info);
    if (TVM_FFI_PREDICT_FALSE(result.is_err())) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
    }
    if (free_var || dag_node) {
      const Any& out = detail::ExpectedUnsafe::GetData(result);
      // Remember the result: a DAG node always (so it is rewritten once), a
      // free variable when it changed or is defined by a pattern.
      if (dag_node || def_region_mode_ == kTVMFFIDefRegionKindPattern ||
          out.type_index() != TypeIndex::kTVMFFIUnchanged) {
        Expected<void> set = VarRemapSetExpected(value, out);
        if (TVM_FFI_PREDICT_FALSE(set.is_err())) {
          return detail::ExpectedUnsafe::MoveToTVMFFIAny(Expected<Any>(Unexpected(set.error())));
        }
      }
    }
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  // The reflected fields: Unchanged when none changes, else a shallow copy
  // with the changed fields set.
  Expected<Any> MutateFields(AnyView value, const TVMFFITypeInfo* info) noexcept {
    const Object* original = value.as<Object>();
    Optional<ObjectRef> copy;  // made at the first changed field
    Object* target = nullptr;
    Expected<Any> failure = Any();
    bool failed = false;
    auto one_field = [&](const TVMFFIFieldInfo* field) -> bool {
      if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return false;
      Any current;
      void* addr = const_cast<char*>(reinterpret_cast<const char*>(original)) + field->offset;
      if (TVM_FFI_PREDICT_FALSE(field->getter(addr, reinterpret_cast<TVMFFIAny*>(&current)) != 0)) {
        failure = Unexpected(detail::MoveFromSafeCallRaised());
        return failed = true;
      }
      auto mutate = [&]() { return MutateExpected(current, InplaceMode::kDisallow); };
      Expected<UnchangedOr<Any>> next =
          (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple)
              ? WithDefRegionKind(kTVMFFIDefRegionKindSimple, mutate)
          : (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern)
              ? WithDefRegionKind(kTVMFFIDefRegionKindPattern, mutate)
              : mutate();
      if (TVM_FFI_PREDICT_FALSE(next.is_err())) {
        failure = Unexpected(next.error());
        return failed = true;
      }
      const Any& replacement = detail::ExpectedUnsafe::GetData(next);
      if (replacement.type_index() == TypeIndex::kTVMFFIUnchanged || current.same_as(replacement)) {
        return false;
      }
      if (TVM_FFI_PREDICT_FALSE(field->setter == nullptr)) {
        failure = Unexpected(Error(
            "TypeError", "Cannot structurally mutate field `" +
                             std::string(field->name.data, field->name.size) + "` of type `" +
                             std::string(info->type_key.data, info->type_key.size) +
                             "` because it does not define a setter",
            ""));
        return failed = true;
      }
      if (target == nullptr) {
        Expected<ObjectRef> made = ShallowCopy(value);
        if (TVM_FFI_PREDICT_FALSE(made.is_err())) {
          failure = Unexpected(made.error());
          return failed = true;
        }
        copy = made.value();
        target = const_cast<Object*>(copy.value().get());
      }
      void* target_addr = reinterpret_cast<char*>(target) + field->offset;
      if (TVM_FFI_PREDICT_FALSE(reflection::CallFieldSetter(
                                    field, target_addr,
                                    reinterpret_cast<const TVMFFIAny*>(&replacement)) != 0)) {
        failure = Unexpected(detail::MoveFromSafeCallRaised());
        return failed = true;
      }
      return false;
    };
    auto all_fields = [&]() {
      reflection::ForEachFieldInfoWithEarlyStop(info, one_field);
      return 0;
    };
    // The fields of a free variable met inside a simple definition are uses.
    if (def_region_mode_ == kTVMFFIDefRegionKindSimple && info->metadata != nullptr &&
        info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar) {
      WithDefRegionKind(kTVMFFIDefRegionKindNone, all_fields);
    } else {
      all_fields();
    }
    if (failed) return failure;
    if (!copy.has_value()) return Any(Unchanged());
    return Any(copy.value());
  }

  // A distinct object of the same type, through the type's __ffi_shallow_copy__.
  static Expected<ObjectRef> ShallowCopy(AnyView value) noexcept {
    static reflection::TypeAttrColumn column(type_attr::kShallowCopy);
    AnyView attr = column[value.type_index()];
    if (TVM_FFI_PREDICT_FALSE(attr.type_index() != TypeIndex::kTVMFFIFunction)) {
      return Unexpected(Error("TypeError", "__ffi_shallow_copy__ must be an ffi.Function", ""));
    }
    Expected<Any> made = attr.cast<Function>().CallExpected<Any>(value);
    if (TVM_FFI_PREDICT_FALSE(made.is_err())) return Unexpected(made.error());
    const Any& out = detail::ExpectedUnsafe::GetData(made);
    if (TVM_FFI_PREDICT_FALSE(out.type_index() != value.type_index() ||
                              out.as<Object>() == value.as<Object>())) {
      return Unexpected(Error(
          "TypeError",
          "Shallow copy callback must return a distinct object with the same type as its input",
          ""));
    }
    return out.cast<ObjectRef>();
  }
};

/*! \brief A reference to a StructuralMutatorObj (never null). */
class StructuralMutator : public ObjectRef {
 public:
  /*! \brief Takes a non-null mutator. */
  explicit StructuralMutator(ObjectPtr<StructuralMutatorObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }

  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralMutator, ObjectRef,
                                                StructuralMutatorObj);
  /// \endcond
};

namespace detail {

/*! \brief Whether the value in the (successful) `result` may be read as a `Type`. */
template <typename Type, typename R>
TVM_FFI_INLINE bool SMutateResultIs(const Expected<R>& result) noexcept {
  if constexpr (type_subsumes_v<Expected<Type>, Expected<R>>) {
    return true;  // known statically
  } else {
    return AnyUnsafe::CheckAnyStrict<Type>(ExpectedUnsafe::GetData(result));
  }
}

/*! \brief Moves the value out of a successful `result` as a `Type` (already checked). */
template <typename Type, typename R>
TVM_FFI_INLINE Type SMutateTakeResult(Expected<R>& result) {
  return AnyUnsafe::MoveFromAnyAfterCheck<Type>(ExpectedUnsafe::GetData(result));
}

}  // namespace detail

/*!
 * \brief In a function returning Expected: evaluates `Result` (an Expected)
 *        and returns its error when it holds one.
 */
#define TVM_FFI_S_MUTATE_MAYBE_EARLY_RETURN(Result)                                 \
  do {                                                                              \
    auto&& tvm_ffi_s_mutate_result_ = (Result);                                     \
    if (TVM_FFI_PREDICT_FALSE(!tvm_ffi_s_mutate_result_.is_ok())) {                 \
      return ::tvm::ffi::Unexpected(::std::move(tvm_ffi_s_mutate_result_).error()); \
    }                                                                               \
  } while (0)

/// \cond Doxygen_Suppress
// Both ASSIGN_OR_RETURN forms: `Check` is true for the checked one.
#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(Check, Tmp, Type, Name, ResultExpr)            \
  auto Tmp = (ResultExpr); /* NOLINT(bugprone-macro-parentheses) */                            \
  TVM_FFI_S_MUTATE_MAYBE_EARLY_RETURN(Tmp);                                                    \
  if (Check && TVM_FFI_PREDICT_FALSE(!::tvm::ffi::detail::SMutateResultIs<Type>(Tmp))) {       \
    return ::tvm::ffi::detail::SMutateDeclaredTypeError();                                     \
  }                                                                                            \
  Type Name = ::tvm::ffi::detail::SMutateTakeResult<Type>(Tmp) /* NOLINT(bugprone-macro-parentheses) */
/// \endcond

/*!
 * \brief `Type Name = <value of ResultExpr>;`, or return its error; a value
 *        that is not exactly a Type returns the TypeError "structural mutate
 *        result does not match the declared type".
 */
#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr)                     \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(                                            \
      true, TVM_FFI_STR_CONCAT(tvm_ffi_mutate_result_, __COUNTER__), Type, Name, ResultExpr)
/*! \brief As TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN without the type check (the caller knows). */
#define TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr)              \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(                                            \
      false, TVM_FFI_STR_CONCAT(tvm_ffi_mutate_result_, __COUNTER__), Type, Name, ResultExpr)

/*!
 * \brief The mutator base of the engines: the variable remap (a table from
 *        object to its replacement, holding a reference to each key).
 */
class StructuralMapEngineBase : public StructuralMutatorObj {
 public:
  /*! \brief The per-layer state map callbacks receive after the value (none here). */
  using StateTupleType = std::tuple<>;

  /*! \brief A mutator dispatching through `vtable`. */
  explicit StructuralMapEngineBase(const StructuralMutatorVTable* vtable)
      : StructuralMutatorObj(vtable) {}
  ~StructuralMapEngineBase() {
    for (const auto& kv : var_remap_) {
      detail::ObjectUnsafe::DecRefObjectHandle(const_cast<Object*>(kv.first));
    }
  }
  StructuralMapEngineBase(const StructuralMapEngineBase&) = delete;
  StructuralMapEngineBase& operator=(const StructuralMapEngineBase&) = delete;

 protected:
  /*! \brief The state of this layer (none). */
  TVM_FFI_INLINE StateTupleType StateTuple() const noexcept { return {}; }

  /*! \brief The vtable entry reading the remap. */
  static TVMFFIAny DispatchVarRemapGet(StructuralMutatorObj* mutator, AnyView var) noexcept {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMapEngineBase*>(mutator)->RemapGet(var));
  }
  /*! \brief The vtable entry writing the remap. */
  static TVMFFIAny DispatchVarRemapSet(StructuralMutatorObj* mutator, AnyView var,
                                       AnyView mapped_value) noexcept {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMapEngineBase*>(mutator)->RemapSet(var, mapped_value));
  }
  /*!
   * \brief The vtable of an engine class: both mutate entries call
   *        `Engine::Step<mode>(value)` (Expected<Any>), the remap entries are
   *        this class's.  Engine befriends this class for the access.
   */
  template <typename Engine>
  static const StructuralMutatorVTable* EngineVTable() {
    static const StructuralMutatorVTable vtable{
        &StepEntry<Engine, InplaceMode::kDisallow>,
        &StepEntry<Engine, InplaceMode::kAllow>,
        &DispatchVarRemapGet,
        &DispatchVarRemapSet,
    };
    return &vtable;
  }
  /*! \brief Records `node` (when an object) in the error `result` holds. */
  TVM_FFI_COLD_CODE static void UpdateVisitErrorContext(const Expected<Any>& result,
                                                        AnyView node) noexcept {
    if (node.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return;
    Error err = result.error();
    detail::UpdateVisitErrorContext(err, node.cast<ObjectRef>());
  }

 private:
  template <typename Engine, InplaceMode kMode>
  static TVMFFIAny StepEntry(StructuralMutatorObj* self, AnyView value) noexcept {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<Engine*>(self)->template Step<kMode>(value));
  }
  TVM_FFI_COLD_CODE static Unexpected<Error> NotAnObjectKey() noexcept {
    return Unexpected(Error("TypeError", "Variable-remap key must be an object-backed value", ""));
  }
  Expected<Any> RemapGet(AnyView var) noexcept {
    if (TVM_FFI_PREDICT_FALSE(var.type_index() < TypeIndex::kTVMFFIStaticObjectBegin)) {
      return NotAnObjectKey();
    }
    auto it = var_remap_.find(var.as<Object>());
    if (it == var_remap_.end()) return Any(nullptr);
    return it->second;
  }
  Expected<void> RemapSet(AnyView var, AnyView mapped_value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(var.type_index() < TypeIndex::kTVMFFIStaticObjectBegin)) {
      return NotAnObjectKey();
    }
    const Object* key = var.as<Object>();
    auto [it, inserted] = var_remap_.try_emplace(key, Any(mapped_value));
    if (inserted) {
      // The table keeps its key alive, so no other object reuses the address.
      detail::ObjectUnsafe::IncRefObjectHandle(const_cast<Object*>(key));
    } else {
      it->second = Any(mapped_value);
    }
    return Expected<void>();
  }

  std::unordered_map<const Object*, Any> var_remap_;
};

namespace detail {

/*!
 * \brief The descent after a pre-order callback of StructuralMap: into the
 *        callback's result (or the value itself when it is Unchanged), in
 *        place when allowed and nobody else holds that value.
 */
template <InplaceMode kMode, typename Engine>
TVM_FFI_INLINE Expected<Any> SMapDescend(Engine* self, AnyView value, Any mapped) noexcept {
  const bool kept = mapped.type_index() == TypeIndex::kTVMFFIUnchanged;
  AnyView next = kept ? value : AnyView(mapped);
  InplaceMode mode = InplaceMode::kDisallow;
  if constexpr (kMode == InplaceMode::kAllow) {
    // In place is still fine for the value we were allowed to touch, and for
    // a fresh result nobody else holds.
    const Object* fresh = next.as<Object>();
    const bool ours = kept || next.same_as(value) || (fresh != nullptr && fresh->unique());
    if (ours) mode = InplaceMode::kAllow;
  }
  Expected<UnchangedOr<Any>> below = self->DefaultMutateExpected(next, mode);
  if (TVM_FFI_PREDICT_FALSE(below.is_err())) return Unexpected(below.error());
  Any deeper = ExpectedUnsafe::GetData(below);
  // When the descent changed nothing, the callback's own answer stands
  // (possibly Unchanged itself).
  if (deeper.type_index() == TypeIndex::kTVMFFIUnchanged) return mapped;
  return deeper;
}

/*!
 * \brief The default descent, with the result widened to Expected<Any>.  It is
 *        asked of the engine, so that a Parent layer's own
 *        DefaultMutateExpected (which hides the base one) is the one used.
 */
template <typename Engine>
TVM_FFI_INLINE Expected<Any> SMapDefault(Engine* self, AnyView value, InplaceMode mode) noexcept {
  Expected<UnchangedOr<Any>> r = self->DefaultMutateExpected(value, mode);
  if (TVM_FFI_PREDICT_FALSE(r.is_err())) return Unexpected(r.error());
  return std::move(ExpectedUnsafe::GetData(r));
}

/*!
 * \brief One step of a StructuralMap engine.  `offer(target, &out)` hands
 *        `target` to the engine's callbacks and says whether one took it.
 *        Pre-order offers the original value and then descends into the
 *        answer; post-order descends first and offers what came back, an
 *        Unchanged answer keeping the descended value.
 */
template <WalkOrder order, InplaceMode kMode, typename Engine, typename Offer>
TVM_FFI_INLINE Expected<Any> SMapStep(Engine* self, AnyView value, Offer&& offer) noexcept {
  Expected<Any> answer = Any();
  if constexpr (order == WalkOrder::kPostOrder) {
    Expected<Any> below = SMapDefault(self, value, kMode);
    if (TVM_FFI_PREDICT_FALSE(below.is_err())) return below;
    const Any& now = ExpectedUnsafe::GetData(below);
    const bool same = now.type_index() == TypeIndex::kTVMFFIUnchanged;
    if (!offer(same ? value : AnyView(now), &answer)) return below;
    const bool keep_below =
        !answer.is_err() &&
        ExpectedUnsafe::GetData(answer).type_index() == TypeIndex::kTVMFFIUnchanged;
    return keep_below ? below : answer;
  } else {
    if (!offer(value, &answer)) return SMapDefault(self, value, kMode);
    if (TVM_FFI_PREDICT_FALSE(answer.is_err())) return answer;
    return SMapDescend<kMode>(self, value, std::move(ExpectedUnsafe::GetData(answer)));
  }
}

/*! \brief Whether an object of `type_index` is a `target` (the type or a subtype). */
inline bool SMapTypeMatches(int32_t type_index, int32_t target) {
  if (type_index == target) return true;
  const bool both_objects = type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
                            target >= TypeIndex::kTVMFFIStaticObjectBegin;
  if (!both_objects) return false;
  const TVMFFITypeInfo* have = TVMFFIGetTypeInfo(type_index);
  const TVMFFITypeInfo* want = TVMFFIGetTypeInfo(target);
  return have != nullptr && want != nullptr && want->type_depth < have->type_depth &&
         have->type_ancestors[want->type_depth]->type_index == target;
}

}  // namespace detail

/*!
 * \brief The mutator of StructuralMap, over a Parent (a StructuralMapEngineBase).
 *
 * A value goes to the first callback whose first parameter takes it (as in
 * StructuralWalkEngine), with the Parent layers' StateTuple() after it and,
 * optionally, the TVMFFIDefRegionKind last.  The callback returns
 * Expected<Any>: a replacement, Unchanged(), or an error.  Pre-order: the
 * callback sees the original value and the descent continues into its
 * result.  Post-order: the descent comes first and the callback sees the
 * value with its parts already mapped; its Unchanged keeps that value.
 */
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralMapEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "StructuralMapEngine: Parent must derive from StructuralMapEngineBase");
  static_assert((std::is_convertible_v<typename detail::FunctionInfo<Callbacks>::RetType,
                                       Expected<Any>> &&
                 ...),
                "a StructuralMap callback returns a replacement, Unchanged, an Error or "
                "Expected<Any>");
  /*! \brief The states callbacks receive after the value. */
  using StateTupleType = typename Parent::StateTupleType;

  /*! \brief An engine owning the callbacks. */
  explicit StructuralMapEngine(Callbacks... callbacks)
      : Parent(StructuralMapEngineBase::EngineVTable<StructuralMapEngine>()),
        callbacks_(std::move(callbacks)...) {}

 private:
  friend class StructuralMapEngineBase;

  template <InplaceMode kMode>
  Expected<Any> Step(AnyView value) noexcept {
    return detail::SMapStep<order, kMode>(
        this, value, [this](AnyView target, Expected<Any>* out) { return Offer(target, out); });
  }

  bool Offer(AnyView target, Expected<Any>* out) noexcept {
    static_assert(std::is_same_v<decltype(this->StateTuple()), StateTupleType>,
                  "Parent::StateTuple() must return Parent::StateTupleType by value");
    const bool taken = callbacks_.FirstMatch(target, [&](auto& fn, auto&& arg) {
      *out = detail::SCallWithStates<Any>(
          fn, std::forward<decltype(arg)>(arg), [this] { return this->StateTuple(); },
          [this] { return this->def_region_kind(); });
    });
    if (taken && TVM_FFI_PREDICT_FALSE(out->is_err())) this->UpdateVisitErrorContext(*out, target);
    return taken;
  }

  detail::SCallbackList<Callbacks...> callbacks_;
};

/*!
 * \brief StructuralMapEngine with callbacks chosen at run time: (type index,
 *        ffi.Function) pairs, the first whose type the value is (or derives
 *        from) applies.  The functions of `callbacks_with_def_region_kind`
 *        also receive the region.  Used by the library's ffi.StructuralMap.
 */
template <typename Parent, WalkOrder order>
class StructuralMapDynEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "StructuralMapDynEngine: Parent must derive from StructuralMapEngineBase");

  /*! \brief An engine over the two callback tables (looked up in order). */
  StructuralMapDynEngine(Array<Tuple<int32_t, Function>> callbacks,
                         Array<Tuple<int32_t, Function>> callbacks_with_def_region_kind)
      : Parent(StructuralMapEngineBase::EngineVTable<StructuralMapDynEngine>()),
        callbacks_(std::move(callbacks)),
        callbacks_with_kind_(std::move(callbacks_with_def_region_kind)) {}

 private:
  friend class StructuralMapEngineBase;
  using Table = Array<Tuple<int32_t, Function>>;

  template <InplaceMode kMode>
  Expected<Any> Step(AnyView value) noexcept {
    return detail::SMapStep<order, kMode>(
        this, value, [this](AnyView target, Expected<Any>* out) { return Offer(target, out); });
  }

  // The function registered for the type of `target` in `table`, if any.
  static std::optional<Function> Find(const Table& table, int32_t type_index) {
    for (const Tuple<int32_t, Function>& row : table) {
      if (detail::SMapTypeMatches(type_index, row.get<0>())) return row.get<1>();
    }
    return std::nullopt;
  }

  bool Offer(AnyView target, Expected<Any>* out) noexcept {
    const int32_t type_index = target.type_index();
    if (std::optional<Function> fn = Find(callbacks_, type_index)) {
      *out = fn->CallExpected<Any>(target);
    } else if (std::optional<Function> fn_kind = Find(callbacks_with_kind_, type_index)) {
      *out = fn_kind->CallExpected<Any>(target, static_cast<int>(this->def_region_kind()));
    } else {
      return false;
    }
    if (TVM_FFI_PREDICT_FALSE(out->is_err())) this->UpdateVisitErrorContext(*out, target);
    return true;
  }

  Table callbacks_;
  Table callbacks_with_kind_;
};

/*!
 * \brief The mutator of StructuralMutate, over a Parent (a StructuralMapEngineBase).
 *
 * A value taken by a callback (first parameter as for StructuralMapEngine)
 * is handed to it with the mutator as `Parent::MutatorObjType*` and,
 * optionally, the InplaceMode: the callback decides how to descend
 * (mutator->MutateExpected(part), mutator->DefaultMutateExpected(value))
 * and returns Expected<Any> (a replacement or Unchanged()).  Values no
 * callback takes get the default descent.
 */
template <typename Parent, typename... Callbacks>
class StructuralMutateEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "StructuralMutateEngine: Parent must derive from StructuralMapEngineBase");
  static_assert(((detail::kSCallbackArity<Callbacks> == 2 ||
                  detail::kSCallbackArity<Callbacks> == 3) &&
                 ...),
                "a StructuralMutate callback takes (value, mutator) or "
                "(value, mutator, inplace_mode)");

  /*! \brief An engine owning the callbacks. */
  explicit StructuralMutateEngine(Callbacks... callbacks)
      : Parent(StructuralMapEngineBase::EngineVTable<StructuralMutateEngine>()),
        callbacks_(std::move(callbacks)...) {}

 private:
  friend class StructuralMapEngineBase;
  using MutatorPtr = typename Parent::MutatorObjType*;

  template <InplaceMode kMode>
  Expected<Any> Step(AnyView value) noexcept {
    Expected<Any> out = Any();
    const bool taken = callbacks_.FirstMatch(value, [&](auto& fn, auto&& arg) {
      out = Invoke(fn, std::forward<decltype(arg)>(arg), kMode);
    });
    if (!taken) return detail::SMapDefault(this, value, kMode);
    if (TVM_FFI_PREDICT_FALSE(out.is_err())) this->UpdateVisitErrorContext(out, value);
    return out;
  }

  template <typename F, typename V>
  TVM_FFI_INLINE Expected<Any> Invoke(F& fn, V&& value, InplaceMode mode) noexcept {
    static_assert(std::is_same_v<std::remove_pointer_t<std::decay_t<detail::SCallbackParam<F, 1>>>,
                                 typename Parent::MutatorObjType>,
                  "the second parameter of a StructuralMutate callback must be "
                  "Parent::MutatorObjType*");
    auto* self = static_cast<MutatorPtr>(this);
    try {
      if constexpr (detail::kSCallbackArity<F> == 2) {
        return fn(std::forward<V>(value), self);
      } else {
        static_assert(std::is_same_v<detail::SCallbackParam<F, 2>, InplaceMode>,
                      "the third parameter of a StructuralMutate callback must be InplaceMode");
        return fn(std::forward<V>(value), self, mode);
      }
    } catch (const Error& err) {
      return Unexpected(err);
    }
  }

  detail::SCallbackList<Callbacks...> callbacks_;
};


namespace detail {

/*! \brief Runs `mutator` on `root` (in place where nobody else holds a part). */
inline Expected<Any> SMutateRoot(const StructuralMutator& mutator, Any root) noexcept {
  Expected<UnchangedOr<Any>> r = mutator->MutateExpected(root, InplaceMode::kAllow);
  if (TVM_FFI_PREDICT_FALSE(r.is_err())) return Unexpected(r.error());
  Any out = ExpectedUnsafe::GetData(r);
  if (out.type_index() == TypeIndex::kTVMFFIUnchanged) return root;
  return out;
}

}  // namespace detail

/*!
 * \brief Maps `root` with the callbacks (see StructuralMapEngine) in `order`;
 *        never throws.
 * \return The new value (`root` itself when nothing changed), or the error.
 */
template <WalkOrder order, typename... Callbacks>
Expected<Any> StructuralMapExpected(Any root, Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralMap needs at least one callback");
  using Engine = StructuralMapEngine<StructuralMapEngineBase, order, std::decay_t<Callbacks>...>;
  StructuralMutator mutator(make_object<Engine>(std::forward<Callbacks>(callbacks)...));
  return detail::SMutateRoot(mutator, std::move(root));
}

/*! \brief StructuralMapExpected, with the error thrown. */
template <WalkOrder order, typename... Callbacks>
Any StructuralMap(Any root, Callbacks&&... callbacks) {
  return StructuralMapExpected<order>(std::move(root), std::forward<Callbacks>(callbacks)...)
      .value();
}

/*!
 * \brief Mutates `root` with the callbacks (see StructuralMutateEngine); never throws.
 * \return The new value (`root` itself when nothing changed), or the error.
 */
template <typename... Callbacks>
Expected<Any> StructuralMutateExpected(Any root, Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralMutate needs at least one callback");
  using Engine = StructuralMutateEngine<StructuralMapEngineBase, std::decay_t<Callbacks>...>;
  StructuralMutator mutator(make_object<Engine>(std::forward<Callbacks>(callbacks)...));
  return detail::SMutateRoot(mutator, std::move(root));
}

/*! \brief StructuralMutateExpected, with the error thrown. */
template <typename... Callbacks>
Any StructuralMutate(Any root, Callbacks&&... callbacks) {
  return StructuralMutateExpected(std::move(root), std::forward<Callbacks>(callbacks)...).value();
}

/// \cond Doxygen_Suppress
template <typename T>
inline constexpr bool use_default_type_traits_v<UnchangedOr<T>> = false;

template <typename T>
struct TypeTraits<UnchangedOr<T>> : public TypeTraitsBase {
  TVM_FFI_INLINE static std::string TypeSchema() {
    return R"({"type":"UnchangedOr","args":[)" + detail::TypeSchemaImpl<T>::v() + "]}";
  }
  TVM_FFI_INLINE static std::string TypeStr() {
    return "UnchangedOr<" + detail::Type2Str<T>::v() + ">";
  }

  TVM_FFI_INLINE static void MoveToAny(UnchangedOr<T> src, TVMFFIAny* result) {
    *result = detail::UnchangedOrUnsafe::MoveToTVMFFIAny(std::move(src));
  }
  TVM_FFI_INLINE static void CopyToAnyView(const UnchangedOr<T>& src, TVMFFIAny* result) {
    *result = AnyView(src.data_).CopyToTVMFFIAny();
  }

  // The marker is accepted everywhere; other values as T accepts them (for
  // T = Any: anything but an Error).
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (IsMarker(src)) return true;
    if constexpr (kAnyPayload) {
      return src->type_index != TypeIndex::kTVMFFIError;
    } else {
      return TypeTraits<T>::CheckAnyStrict(src);
    }
  }
  TVM_FFI_INLINE static std::optional<UnchangedOr<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (IsMarker(src)) return UnchangedOr<T>(Unchanged());
    if constexpr (kAnyPayload) {
      if (src->type_index == TypeIndex::kTVMFFIError) return std::nullopt;
      return Borrowed(src);
    } else {
      if (std::optional<T> converted = TypeTraits<T>::TryCastFromAnyView(src)) {
        return UnchangedOr<T>(*std::move(converted));
      }
      return std::nullopt;
    }
  }
  TVM_FFI_INLINE static UnchangedOr<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return UnchangedOr<T>(typename UnchangedOr<T>::UnsafeInit{},
                          detail::AnyUnsafe::MoveTVMFFIAnyToAny(src));
  }
  TVM_FFI_INLINE static UnchangedOr<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (IsMarker(src)) return Unchanged();
    if constexpr (kAnyPayload) {
      return Borrowed(src);
    } else {
      return UnchangedOr<T>(TypeTraits<T>::CopyFromAnyViewAfterCheck(src));
    }
  }

 private:
  static constexpr bool kAnyPayload = std::is_same_v<T, Any>;
  TVM_FFI_INLINE static bool IsMarker(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIUnchanged;
  }
  TVM_FFI_INLINE static UnchangedOr<T> Borrowed(const TVMFFIAny* src) {
    return UnchangedOr<T>(Any(AnyView::CopyFromTVMFFIAny(*src)));
  }
};
/// \endcond

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_

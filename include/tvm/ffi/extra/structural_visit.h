/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/structural_visit.h
 * \brief Read-only traversal of a value's structure: StructuralVisitorObj
 *        (a visitor object with a C-callable entry point), StructuralWalk
 *        (callbacks before or after the descent, with Skip and Interrupt)
 *        and StructuralVisit (callbacks that take over the descent).
 *
 * A visit of a value returns nothing to go on, a VisitInterrupt to stop the
 * whole traversal (the interrupt reaches the caller), or an Error (carried
 * as an Expected, never thrown across a level).  As an error leaves a level
 * whose value is an object, that object is recorded in the error's
 * VisitErrorContext (visit_error_context.h).
 *
 * The descent into a value (DefaultVisitExpected) follows the type's
 * `__s_visit__` attribute (type_attr::kStructuralVisit): a native function
 * pointer or an ffi.Function(visitor, value).  libtvm_ffi registers it for
 * Array and List (their items) and Map and Dict (their values).  A non-object
 * without one has nothing inside; any other object goes to the library's
 * ffi.StructuralVisitorDefaultVisit, which visits the reflected fields (not
 * those marked SEqHashIgnore; those marked SEqHashDef{Simple,Pattern} inside
 * that definition region, see WithDefRegionKind).
 *
 * \code{.cpp}
 * // Collect every Var below root, but not inside a Lambda.
 * std::vector<const VarObj*> vars;
 * StructuralWalk<WalkOrder::kPreOrder>(
 *     root,
 *     [&](const LambdaObj*) -> Expected<WalkResult> { return WalkResult::Skip(); },
 *     [&](const VarObj* v) -> Expected<WalkResult> {
 *       vars.push_back(v);
 *       return WalkResult::Advance();
 *     });
 * \endcode
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
#define TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

// The visitor engine reads fields through reflection and reports failures
// through Expected, so it pulls in most of the core headers.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/structural_callbacks.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/native_function.h>

namespace tvm {
namespace ffi {

class StructuralVisitorObj;

// ---- The C-level contract of a visitor ----------------------------------

/*!
 * \brief One visit step as a plain function: given the visitor and a borrowed
 *        value, it hands back an owned TVMFFIAny that is None to go on, a
 *        VisitInterrupt to stop, or an Error.  A type's native `__s_visit__`
 *        attribute has this same shape.
 */
using FStructuralVisitABI = TVMFFIAny (*)(StructuralVisitorObj* visitor, AnyView value) noexcept;

/*! \brief Function table of a visitor object; today it has one slot. */
struct StructuralVisitorVTable {
  /*! \brief Called for every value the walk reaches. */
  FStructuralVisitABI visit = nullptr;
};

// ---- Early exit ----------------------------------------------------------

/*!
 * \brief Returned by a visit to end the walk at once; `value` travels back
 *        to whoever started it.  Type ffi.VisitInterrupt, a final built-in
 *        whose body after the header is a single Any.
 */
class VisitInterruptObj : public Object {
 public:
  /*! \brief Result handed to the caller of the walk (None when there is none). */
  Any value;

  /*! \brief Holds `payload`; None by default. */
  explicit VisitInterruptObj(Any payload = Any()) : value(std::move(payload)) {}

  /// \cond Doxygen_Suppress
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIVisitInterrupt;
  static const constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIVisitInterrupt, VisitInterruptObj,
                                     Object);
  /// \endcond
};

/*! \brief Owning handle of a VisitInterruptObj; always points at one. */
class VisitInterrupt : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitInterrupt, ObjectRef, VisitInterruptObj);
  /// \endcond

  /*! \brief Stops the walk without a result (the payload is None). */
  VisitInterrupt() : ObjectRef(NewObj(Any(nullptr))) {}
  /*! \brief Stops the walk and hands `value` back. */
  explicit VisitInterrupt(Any value) : ObjectRef(NewObj(std::move(value))) {}

 private:
  static ObjectPtr<VisitInterruptObj> NewObj(Any payload) {
    return make_object<VisitInterruptObj>(std::move(payload));
  }
};

/*! \brief The typed view of a `__s_visit__` attribute. */
using FStructuralVisit =
    reflection::NativeFunctionView<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)>;

namespace type_attr {
/*! \brief A type's own descent for structural visitors. */
inline constexpr reflection::AttrKey<FStructuralVisit> kStructuralVisit{"__s_visit__"};
}  // namespace type_attr

// ---- Shared small helpers of the engines ----------------------------------

namespace detail {

/*! \brief Whether a raw visit result ends the caller's work (it is not None). */
TVM_FFI_INLINE bool StructuralVisitRawNeedEarlyReturn(const TVMFFIAny& result) noexcept {
  return result.type_index != TypeIndex::kTVMFFINone;
}

/*! \brief Notes `value` in the VisitErrorContext of the Error in `result`, then hands it back. */
TVM_FFI_COLD_CODE inline TVMFFIAny AttachStructuralVisitErrorContextRaw(TVMFFIAny result,
                                                                        AnyView value) noexcept {
  UpdateVisitErrorContext(result, value);
  return result;
}

/*! \brief True for an Expected that carries an Error or a VisitInterrupt. */
template <typename T>
TVM_FFI_INLINE bool StructuralVisitNeedEarlyReturn(const Expected<T>& result) noexcept {
  const int32_t kind = result.type_index();
  return kind == TypeIndex::kTVMFFIVisitInterrupt || kind == TypeIndex::kTVMFFIError;
}

/*! \brief True when an interrupt is present. */
TVM_FFI_INLINE bool StructuralVisitNeedEarlyReturn(
    const Optional<VisitInterrupt>& result) noexcept {
  return result.has_value();
}

/*! \brief The raw form of "nothing to report, go on". */
TVM_FFI_INLINE TVMFFIAny SVisitContinueRaw() noexcept {
  return ExpectedUnsafe::MoveToTVMFFIAny(Expected<Optional<VisitInterrupt>>(std::nullopt));
}

}  // namespace detail

/*!
 * \brief The base of every structural visitor (type ffi.StructuralVisitor).
 *
 * layout = { TVMFFIObject, const StructuralVisitorVTable* (+24),
 *            TVMFFIDefRegionKind (+32), subclass members... }: the library
 * calls vtable->visit and reads and sets the region of a visitor it is
 * handed.  A subclass passes its vtable to the constructor; the engines
 * below build theirs.
 */
class StructuralVisitorObj : public Object {
 public:
  /// \cond Doxygen_Suppress
  static constexpr const bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralVisitor", StructuralVisitorObj, Object);
  /// \endcond

  /*! \brief Visits `value` through the vtable; an error comes back, never thrown. */
  TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> VisitExpected(AnyView value) noexcept {
    return AdoptRaw(vtable_->visit(this, value));
  }
  /*! \brief VisitExpected, with the error thrown. */
  TVM_FFI_INLINE Optional<VisitInterrupt> Visit(AnyView value) {
    return VisitExpected(value).value();
  }
  /*!
   * \brief What a visitor does with a value it has no rule of its own for:
   *        the type's `__s_visit__` hook, or the library's field-by-field
   *        descent (see the file comment).
   */
  TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> DefaultVisitExpected(AnyView value) noexcept {
    return AdoptRaw(DefaultVisitRaw(value));
  }

  /*!
   * \brief Runs `callback()` inside definition region `kind`; the region in
   *        force before is back afterwards, also when callback throws.  A
   *        Pattern region is sticky: nested regions do not replace it.
   * \return The callback's result.
   */
  template <typename Callback>
  TVM_FFI_INLINE auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback) {
    return detail::SWithDefRegion(&def_region_mode_, kind, std::forward<Callback>(callback));
  }
  /*! \brief The definition region in force. */
  TVM_FFI_INLINE TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }

  /*! \brief Visitor type handed to StructuralVisit callbacks (a layer may narrow it). */
  using VisitorObjType = StructuralVisitorObj;
  /*! \brief Extra per-layer arguments of walk callbacks; this layer adds none. */
  using StateTupleType = std::tuple<>;

 protected:
  /*! \brief A visitor calling through `vtable`, which must outlive it. */
  explicit StructuralVisitorObj(const StructuralVisitorVTable* vtable) : vtable_(vtable) {}
  /*! \brief This layer's walk-callback arguments: none. */
  TVM_FFI_INLINE StateTupleType StateTuple() const noexcept { return {}; }

  /*! \brief The entry points. */
  const StructuralVisitorVTable* vtable_ = nullptr;
  /*! \brief The current definition region. */
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

 private:
  using Outcome = Expected<Optional<VisitInterrupt>>;

  TVM_FFI_INLINE static Outcome AdoptRaw(TVMFFIAny raw) noexcept {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(raw);
  }
  TVM_FFI_INLINE static TVMFFIAny ReleaseRaw(Outcome outcome) noexcept {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(outcome));
  }

  // Fast path: a native hook is called directly.
  TVM_FFI_INLINE TVMFFIAny DefaultVisitRaw(AnyView value) noexcept {
    static reflection::TypeAttrColumn hooks(type_attr::kStructuralVisit);
    AnyView hook = hooks[value.type_index()];
    if (TVM_FFI_PREDICT_FALSE(hook.type_index() != TypeIndex::kTVMFFIOpaquePtr)) {
      return DefaultVisitSlow(value, hook);
    }
    return reinterpret_cast<FStructuralVisitABI>(hook.cast<void*>())(this, value);
  }

  // Everything else: a packed hook, a malformed hook, or none at all.
  TVM_FFI_NO_INLINE TVMFFIAny DefaultVisitSlow(AnyView value, AnyView hook) noexcept {
    switch (hook.type_index()) {
      case TypeIndex::kTVMFFIFunction:
        return ReleaseRaw(hook.cast<Function>().CallExpected<Optional<VisitInterrupt>>(this, value));
      case TypeIndex::kTVMFFINone:
        break;
      default:
        return ReleaseRaw(Unexpected(Error(
            "TypeError", "__s_visit__ must be an opaque function pointer or ffi.Function", "")));
    }
    // Plain values have no parts.  Reflected objects are handed to the
    // library, which calls back into this visitor once per field.
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
      return detail::SVisitContinueRaw();
    }
    static const Function* library_visit =
        new Function(Function::GetGlobalRequired("ffi.StructuralVisitorDefaultVisit"));
    return ReleaseRaw(library_visit->CallExpected<Optional<VisitInterrupt>>(this, value));
  }
};

/*! \brief A reference to a StructuralVisitorObj (never null). */
class StructuralVisitor : public ObjectRef {
 public:
  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralVisitor, ObjectRef, StructuralVisitorObj);
  /// \endcond

  /*! \brief Wraps `n`, which must not be null. */
  explicit StructuralVisitor(ObjectPtr<StructuralVisitorObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }
};

/*!
 * \brief What a walk callback decides: go on (Advance), do not descend into
 *        this value (Skip; pre-order only), or stop everything (Interrupt).
 *        None converts to Advance.
 */
class WalkResult : public Variant<VisitInterrupt, int32_t> {
 public:
  /*! \brief The variant WalkResult is. */
  using Storage = Variant<VisitInterrupt, int32_t>;
  /*! \brief The int of Advance. */
  static constexpr int32_t kAdvanceTag = 0;
  /*! \brief The int of Skip. */
  static constexpr int32_t kSkipTag = 1;

  /*! \brief Stop the walk; the walk returns `signal`. */
  TVM_FFI_INLINE static WalkResult Interrupt(VisitInterrupt signal = VisitInterrupt()) {
    return WalkResult(Storage(std::move(signal)));
  }
  /*! \brief Do not descend into this value. */
  TVM_FFI_INLINE static WalkResult Skip() { return WalkResult(kSkipTag); }
  /*! \brief Go on: descend (pre-order) and continue. */
  TVM_FFI_INLINE static WalkResult Advance() { return WalkResult(kAdvanceTag); }

 private:
  friend struct TypeTraits<WalkResult>;
  TVM_FFI_INLINE explicit WalkResult(Storage storage) : Storage(std::move(storage)) {}
  TVM_FFI_INLINE explicit WalkResult(int32_t tag) : Storage(tag) {}
};

/// \cond Doxygen_Suppress
template <>
inline constexpr bool use_default_type_traits_v<WalkResult> = false;

// WalkResult travels as its variant; None is read as Advance.
template <>
struct TypeTraits<WalkResult> : public TypeTraits<WalkResult::Storage> {
  using Base = TypeTraits<WalkResult::Storage>;

  TVM_FFI_INLINE static std::string TypeStr() { return "WalkResult"; }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return IsNone(src) || Base::CheckAnyStrict(src);
  }
  TVM_FFI_INLINE static std::optional<WalkResult> TryCastFromAnyView(const TVMFFIAny* src) {
    if (IsNone(src)) return WalkResult::Advance();
    if (std::optional<WalkResult::Storage> inner = Base::TryCastFromAnyView(src)) {
      return WalkResult(*std::move(inner));
    }
    return std::nullopt;
  }
  TVM_FFI_INLINE static WalkResult CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return IsNone(src) ? WalkResult::Advance() : WalkResult(Base::CopyFromAnyViewAfterCheck(src));
  }
  TVM_FFI_INLINE static WalkResult MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return IsNone(src) ? WalkResult::Advance() : WalkResult(Base::MoveFromAnyAfterCheck(src));
  }

 private:
  TVM_FFI_INLINE static bool IsNone(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone;
  }
};
/// \endcond

/*! \brief When a walk calls its callbacks: before or after the descent into a value. */
enum class WalkOrder : int32_t {
  kPreOrder = 0,
  kPostOrder = 1,
};

/*!
 * \brief In a function returning a visit result: evaluates `Result` and
 *        returns it when it stops the caller (interrupt or error).
 */
#define TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(Result)                                       \
  do {                                                                                   \
    auto&& tvm_ffi_s_visit_result_ = (Result);                                           \
    if (TVM_FFI_PREDICT_FALSE(                                                           \
            ::tvm::ffi::detail::StructuralVisitNeedEarlyReturn(tvm_ffi_s_visit_result_))) { \
      return ::std::move(tvm_ffi_s_visit_result_);                                       \
    }                                                                                    \
  } while (0)

/*!
 * \brief The visitor of StructuralWalk, over a Parent visitor class.
 *
 * Each value (None excepted) goes to the first callback whose first
 * parameter it converts to without copying conversions (`AnyView` and `Any`
 * take everything; `const T*` takes a T; an ObjectRef type takes its
 * objects; `int64_t` takes ints ...), with the Parent layers' StateTuple()
 * after it and, optionally, the current TVMFFIDefRegionKind last.  The
 * callback returns Expected<WalkResult>; an exception it throws is caught
 * and becomes the error.  Values no callback takes are just descended into.
 */
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralWalkEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralVisitorObj, Parent>,
                "StructuralWalkEngine: Parent must derive from StructuralVisitorObj");
  /*! \brief The states callbacks receive after the value. */
  using StateTupleType = typename Parent::StateTupleType;

  /*! \brief An engine owning the callbacks. */
  explicit StructuralWalkEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{[](StructuralVisitorObj* self,
                                                   AnyView value) noexcept {
      return static_cast<StructuralWalkEngine*>(self)->Step(value);
    }};
    return &vtable;
  }

  // Offers `value` to the callbacks; the decision is Advance when none takes it.
  TVM_FFI_INLINE Expected<WalkResult> Decide(AnyView value) noexcept {
    static_assert(std::is_same_v<decltype(Parent::StateTuple()), StateTupleType>,
                  "Parent::StateTuple() must return Parent::StateTupleType by value");
    Expected<WalkResult> decision = WalkResult::Advance();
    callbacks_.FirstMatch(value, [&](auto& fn, auto&& arg) {
      decision = detail::SCallWithStates<WalkResult>(
          fn, std::forward<decltype(arg)>(arg), [this] { return Parent::StateTuple(); },
          [this] { return Parent::def_region_kind(); });
    });
    return decision;
  }

  // Applies the callbacks' decision on `value`.  Returns false to go on;
  // true with *out set when the step ends here: an interrupt or an error
  // (with `value` noted) to pass up, or None for Skip.
  TVM_FFI_INLINE bool Apply(AnyView value, TVMFFIAny* out) noexcept {
    Expected<WalkResult> decision = Decide(value);
    if (TVM_FFI_PREDICT_TRUE(!detail::StructuralVisitNeedEarlyReturn(decision))) {
      if (detail::ExpectedUnsafe::ValueAs<int32_t>(decision) != WalkResult::kSkipTag) {
        return false;
      }
      *out = detail::SVisitContinueRaw();
      return true;
    }
    if (decision.is_err()) {
      Error err = decision.error();
      detail::UpdateVisitErrorContext(err, value);
    }
    *out = detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(decision));
    return true;
  }

  TVMFFIAny Step(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(value.type_index() == TypeIndex::kTVMFFINone)) {
      return detail::SVisitContinueRaw();
    }
    TVMFFIAny out;
    if constexpr (order == WalkOrder::kPreOrder) {
      if (Apply(value, &out)) return out;
    }
    out = detail::ExpectedUnsafe::MoveToTVMFFIAny(Parent::DefaultVisitExpected(value));
    if (TVM_FFI_PREDICT_FALSE(detail::StructuralVisitRawNeedEarlyReturn(out))) {
      return out.type_index == TypeIndex::kTVMFFIError
                 ? detail::AttachStructuralVisitErrorContextRaw(out, value)
                 : out;
    }
    if constexpr (order == WalkOrder::kPostOrder) {
      // After the descent a Skip has nothing left to skip: same as Advance.
      if (Apply(value, &out)) return out;
    }
    return detail::SVisitContinueRaw();
  }

  detail::SCallbackList<Callbacks...> callbacks_;
};

/*!
 * \brief The visitor of StructuralVisit, over a Parent visitor class.
 *
 * A value (None excepted) taken by a callback (first parameter as for
 * StructuralWalkEngine) is handed to it with the visitor as
 * `Parent::VisitorObjType*`: the callback decides whether and how to
 * descend (visitor->VisitExpected(child), visitor->DefaultVisitExpected(v))
 * and returns Expected<Optional<VisitInterrupt>> (or a convertible value).
 * Values no callback takes get the default descent.
 */
template <typename Parent, typename... Callbacks>
class StructuralVisitEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralVisitorObj, Parent>,
                "StructuralVisitEngine: Parent must derive from StructuralVisitorObj");
  static_assert(((detail::kSCallbackArity<Callbacks> == 2) && ...),
                "a StructuralVisit callback takes (value, visitor)");

  /*! \brief An engine owning the callbacks. */
  explicit StructuralVisitEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  using Outcome = Expected<Optional<VisitInterrupt>>;
  using VisitorPtr = typename Parent::VisitorObjType*;

  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{[](StructuralVisitorObj* self,
                                                   AnyView value) noexcept {
      return static_cast<StructuralVisitEngine*>(self)->Step(value);
    }};
    return &vtable;
  }

  template <typename F, typename V>
  TVM_FFI_INLINE Outcome Invoke(F& fn, V&& value) noexcept {
    static_assert(std::is_same_v<std::remove_pointer_t<std::decay_t<detail::SCallbackParam<F, 1>>>,
                                 typename Parent::VisitorObjType>,
                  "the second parameter of a StructuralVisit callback must be "
                  "Parent::VisitorObjType*");
    try {
      return Outcome(fn(std::forward<V>(value), static_cast<VisitorPtr>(this)));
    } catch (const Error& err) {
      return Outcome(Unexpected(err));
    }
  }

  TVMFFIAny Step(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(value.type_index() == TypeIndex::kTVMFFINone)) {
      return detail::SVisitContinueRaw();
    }
    std::optional<Outcome> taken;
    callbacks_.FirstMatch(value, [&](auto& fn, auto&& arg) {
      taken.emplace(Invoke(fn, std::forward<decltype(arg)>(arg)));
    });
    TVMFFIAny out = detail::ExpectedUnsafe::MoveToTVMFFIAny(
        taken.has_value() ? *std::move(taken) : Parent::DefaultVisitExpected(value));
    if (TVM_FFI_PREDICT_TRUE(out.type_index != TypeIndex::kTVMFFIError)) return out;
    return detail::AttachStructuralVisitErrorContextRaw(out, value);
  }

  detail::SCallbackList<Callbacks...> callbacks_;
};

namespace detail {

/*! \brief Builds an `Engine` visitor over `callbacks` and visits `root` with it. */
template <typename Engine, typename... Callbacks>
Expected<Optional<VisitInterrupt>> SVisitWithEngine(AnyView root,
                                                    Callbacks&&... callbacks) noexcept {
  StructuralVisitor visitor(make_object<Engine>(std::forward<Callbacks>(callbacks)...));
  return visitor->VisitExpected(root);
}

}  // namespace detail

/*!
 * \brief Walks `root` calling the callbacks (see StructuralWalkEngine) in
 *        `order`; never throws.
 * \return nullopt after the whole walk, the VisitInterrupt that stopped it,
 *         or the error.
 */
template <WalkOrder order, typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralWalkExpected(AnyView root,
                                                          Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralWalk needs at least one callback");
  return detail::SVisitWithEngine<
      StructuralWalkEngine<StructuralVisitorObj, order, std::decay_t<Callbacks>...>>(
      root, std::forward<Callbacks>(callbacks)...);
}

/*!
 * \brief Visits `root` with the callbacks (see StructuralVisitEngine); never throws.
 * \return nullopt, the VisitInterrupt a callback returned, or the error.
 */
template <typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralVisitExpected(AnyView root,
                                                           Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralVisit needs at least one callback");
  return detail::SVisitWithEngine<
      StructuralVisitEngine<StructuralVisitorObj, std::decay_t<Callbacks>...>>(
      root, std::forward<Callbacks>(callbacks)...);
}

/*! \brief StructuralWalkExpected, with the error thrown. */
template <WalkOrder order, typename... Callbacks>
Optional<VisitInterrupt> StructuralWalk(AnyView root, Callbacks&&... callbacks) {
  return StructuralWalkExpected<order>(root, std::forward<Callbacks>(callbacks)...).value();
}

/*! \brief StructuralVisitExpected, with the error thrown. */
template <typename... Callbacks>
Optional<VisitInterrupt> StructuralVisit(AnyView root, Callbacks&&... callbacks) {
  return StructuralVisitExpected(root, std::forward<Callbacks>(callbacks)...).value();
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_

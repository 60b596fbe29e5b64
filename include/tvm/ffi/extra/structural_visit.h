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
  /*! \brief The visitor type callbacks receive (engines' layers may narrow it). */
  using VisitorObjType = StructuralVisitorObj;
  /*! \brief The per-layer state walk callbacks receive after the value (none here). */
  using StateTupleType = std::tuple<>;

  /*! \brief Visits `value`; an error is thrown. */
  TVM_FFI_INLINE Optional<VisitInterrupt> Visit(AnyView value) {
    return VisitExpected(value).value();
  }
  /*! \brief Visits `value` through the vtable; never throws. */
  TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> VisitExpected(AnyView value) noexcept {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        vtable_->visit(this, value));
  }
  /*! \brief The definition region the visit is in. */
  TVM_FFI_INLINE TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }
  /*!
   * \brief Runs `callback()` with the definition region set to `kind`, and
   *        restores the previous region afterwards (also when it throws).
   *        Inside a Pattern region nothing changes: a pattern stays a pattern.
   * \return What callback returns.
   */
  template <typename Callback>
  TVM_FFI_INLINE auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback) {
    if (def_region_mode_ == kTVMFFIDefRegionKindPattern) {
      return std::forward<Callback>(callback)();
    }
    struct Restore {
      StructuralVisitorObj* self;
      TVMFFIDefRegionKind saved;
      ~Restore() { self->def_region_mode_ = saved; }
    } restore{this, def_region_mode_};
    def_region_mode_ = kind;
    return std::forward<Callback>(callback)();
  }
  /*!
   * \brief The standard descent into `value` (see the file comment): what a
   *        visitor does for a value it has no special rule for.
   */
  TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> DefaultVisitExpected(AnyView value) noexcept {
    return detail::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        DefaultVisitRaw(value));
  }

  /// \cond Doxygen_Suppress
  static constexpr const bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralVisitor", StructuralVisitorObj, Object);
  /// \endcond

 protected:
  /*! \brief The state of this layer for walk callbacks (none). */
  TVM_FFI_INLINE StateTupleType StateTuple() const noexcept { return {}; }
  /*! \brief A visitor dispatching through `vtable` (static storage). */
  explicit StructuralVisitorObj(const StructuralVisitorVTable* vtable) : vtable_(vtable) {}

  /*! \brief The entry points. */
  const StructuralVisitorVTable* vtable_ = nullptr;
  /*! \brief The current definition region. */
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

 private:
  TVM_FFI_INLINE TVMFFIAny DefaultVisitRaw(AnyView value) noexcept {
    static reflection::TypeAttrColumn column(type_attr::kStructuralVisit);
    AnyView attr = column[value.type_index()];
    if (TVM_FFI_PREDICT_TRUE(attr.type_index() == TypeIndex::kTVMFFIOpaquePtr)) {
      return reinterpret_cast<FStructuralVisitABI>(attr.cast<void*>())(this, value);
    }
    return DefaultVisitSlow(value, attr);
  }

  // A packed hook, no hook, or a bad one.
  TVM_FFI_NO_INLINE TVMFFIAny DefaultVisitSlow(AnyView value, AnyView attr) noexcept {
    using Result = Expected<Optional<VisitInterrupt>>;
    if (attr.type_index() == TypeIndex::kTVMFFIFunction) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(
          attr.cast<Function>().CallExpected<Optional<VisitInterrupt>>(this, value));
    }
    if (attr.type_index() != TypeIndex::kTVMFFINone) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(Unexpected(Error(
          "TypeError", "__s_visit__ must be an opaque function pointer or ffi.Function", ""))));
    }
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(std::nullopt));
    }
    // A reflected object: the library visits its fields (and calls back
    // into this visitor for each).
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(
        LibraryDefaultVisit().CallExpected<Optional<VisitInterrupt>>(this, value));
  }

  static const Function& LibraryDefaultVisit() {
    // Kept for the life of the process (never destroyed after the registry).
    static const Function* fn =
        new Function(Function::GetGlobalRequired("ffi.StructuralVisitorDefaultVisit"));
    return *fn;
  }
};

/*! \brief A reference to a StructuralVisitorObj (never null). */
class StructuralVisitor : public ObjectRef {
 public:
  /*! \brief Takes a non-null visitor. */
  explicit StructuralVisitor(ObjectPtr<StructuralVisitorObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }

  /// \cond Doxygen_Suppress
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralVisitor, ObjectRef, StructuralVisitorObj);
  /// \endcond
};

namespace detail {

/*! \brief Whether a visit result stops the caller (an interrupt). */
TVM_FFI_INLINE bool StructuralVisitNeedEarlyReturn(
    const Optional<VisitInterrupt>& result) noexcept {
  return result.has_value();
}

/*! \brief Whether a visit result stops the caller (an error or an interrupt). */
template <typename T>
TVM_FFI_INLINE bool StructuralVisitNeedEarlyReturn(const Expected<T>& result) noexcept {
  int32_t index = result.type_index();
  return index == TypeIndex::kTVMFFIError || index == TypeIndex::kTVMFFIVisitInterrupt;
}

/*! \brief Whether a raw visit result stops the caller (anything but None). */
TVM_FFI_INLINE bool StructuralVisitRawNeedEarlyReturn(const TVMFFIAny& result) noexcept {
  return result.type_index != TypeIndex::kTVMFFINone;
}

/*! \brief Records `value` in the context of the Error in `result`; returns `result`. */
TVM_FFI_COLD_CODE inline TVMFFIAny AttachStructuralVisitErrorContextRaw(TVMFFIAny result,
                                                                        AnyView value) noexcept {
  UpdateVisitErrorContext(result, value);
  return result;
}

}  // namespace detail

/*!
 * \brief What a walk callback decides: go on (Advance), do not descend into
 *        this value (Skip; pre-order only), or stop everything (Interrupt).
 *        None converts to Advance.
 */
class WalkResult : public Variant<VisitInterrupt, int32_t> {
 public:
  /*! \brief The int of Advance. */
  static constexpr int32_t kAdvanceTag = 0;
  /*! \brief The int of Skip. */
  static constexpr int32_t kSkipTag = 1;
  /*! \brief The variant WalkResult is. */
  using Storage = Variant<VisitInterrupt, int32_t>;

  TVM_FFI_INLINE ~WalkResult() = default;
  TVM_FFI_INLINE WalkResult(const WalkResult&) = default;
  TVM_FFI_INLINE WalkResult(WalkResult&&) noexcept = default;
  TVM_FFI_INLINE WalkResult& operator=(const WalkResult&) = default;
  TVM_FFI_INLINE WalkResult& operator=(WalkResult&&) noexcept = default;

  /*! \brief Go on: descend (pre-order) and continue. */
  TVM_FFI_INLINE static WalkResult Advance() { return WalkResult(kAdvanceTag); }
  /*! \brief Do not descend into this value. */
  TVM_FFI_INLINE static WalkResult Skip() { return WalkResult(kSkipTag); }
  /*! \brief Stop the walk; the walk returns `signal`. */
  TVM_FFI_INLINE static WalkResult Interrupt(VisitInterrupt signal = VisitInterrupt()) {
    return WalkResult(Storage(std::move(signal)));
  }

 private:
  TVM_FFI_INLINE explicit WalkResult(int32_t tag) : Storage(tag) {}
  TVM_FFI_INLINE explicit WalkResult(Storage storage) : Storage(std::move(storage)) {}
  friend struct TypeTraits<WalkResult>;
};

/// \cond Doxygen_Suppress
template <>
inline constexpr bool use_default_type_traits_v<WalkResult> = false;

template <>
struct TypeTraits<WalkResult> : public TypeTraits<WalkResult::Storage> {
  using Base = TypeTraits<WalkResult::Storage>;

  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || Base::CheckAnyStrict(src);
  }
  TVM_FFI_INLINE static WalkResult CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return WalkResult::Advance();
    return WalkResult(Base::CopyFromAnyViewAfterCheck(src));
  }
  TVM_FFI_INLINE static WalkResult MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return WalkResult::Advance();
    return WalkResult(Base::MoveFromAnyAfterCheck(src));
  }
  TVM_FFI_INLINE static std::optional<WalkResult> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return WalkResult::Advance();
    std::optional<WalkResult::Storage> inner = Base::TryCastFromAnyView(src);
    if (!inner.has_value()) return std::nullopt;
    return WalkResult(*std::move(inner));
  }
  TVM_FFI_INLINE static std::string TypeStr() { return "WalkResult"; }
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
      : Parent(Table()), callbacks_(std::move(callbacks)...) {}

 private:
  using Result = Expected<Optional<VisitInterrupt>>;

  static const StructuralVisitorVTable* Table() {
    static const StructuralVisitorVTable table{&StructuralWalkEngine::Entry};
    return &table;
  }
  static TVMFFIAny Entry(StructuralVisitorObj* self, AnyView value) noexcept {
    return static_cast<StructuralWalkEngine*>(self)->VisitOne(value);
  }

  template <typename Callback, typename Value, size_t... Is>
  TVM_FFI_INLINE Expected<WalkResult> Call(Callback& callback, Value&& value,
                                           std::index_sequence<Is...>) noexcept {
    using Info = detail::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args == 1 + sizeof...(Is) || Info::num_args == 2 + sizeof...(Is),
                  "a StructuralWalk callback takes (value, states...) and optionally the "
                  "TVMFFIDefRegionKind last");
    static_assert(std::is_same_v<decltype(Parent::StateTuple()), StateTupleType>,
                  "Parent::StateTuple() must return Parent::StateTupleType by value");
    try {
      StateTupleType states = Parent::StateTuple();
      if constexpr (Info::num_args == 1 + sizeof...(Is)) {
        return callback(std::forward<Value>(value), std::get<Is>(states)...);
      } else {
        return callback(std::forward<Value>(value), std::get<Is>(states)...,
                        Parent::def_region_kind());
      }
    } catch (const Error& err) {
      return Unexpected(err);
    }
  }

  // Calls `callback` when it takes `value`; returns whether it did.
  template <typename Callback>
  TVM_FFI_INLINE bool TryOne(Callback& callback, AnyView value,
                             Expected<WalkResult>* out) noexcept {
    using Info = detail::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args >= 1, "a StructuralWalk callback takes the value first");
    using First = std::remove_cv_t<std::remove_reference_t<std::tuple_element_t<0, typename Info::ArgType>>>;
    using States = std::make_index_sequence<std::tuple_size_v<StateTupleType>>;
    if constexpr (std::is_same_v<First, AnyView>) {
      *out = Call(callback, value, States{});
      return true;
    } else if constexpr (std::is_same_v<First, Any>) {
      *out = Call(callback, Any(value), States{});
      return true;
    } else {
      std::optional<First> matched = value.template as<First>();
      if (!matched.has_value()) return false;
      *out = Call(callback, *std::move(matched), States{});
      return true;
    }
  }

  template <size_t... Is>
  TVM_FFI_INLINE bool TryAll(AnyView value, Expected<WalkResult>* out,
                             std::index_sequence<Is...>) noexcept {
    return (TryOne(std::get<Is>(callbacks_), value, out) || ...);
  }

  // Runs the callbacks on `value`: true when the walk must stop (*stop holds
  // the raw result to return) or, for Skip, must not descend (*stop is None).
  TVM_FFI_INLINE bool RunCallbacks(AnyView value, TVMFFIAny* stop) noexcept {
    Expected<WalkResult> decision = WalkResult::Advance();
    TryAll(value, &decision, std::index_sequence_for<Callbacks...>{});
    if (TVM_FFI_PREDICT_FALSE(detail::StructuralVisitNeedEarlyReturn(decision))) {
      if (decision.is_err()) {
        Error err = decision.error();
        detail::UpdateVisitErrorContext(err, value);
      }
      *stop = detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(decision));
      return true;
    }
    if (TVM_FFI_PREDICT_FALSE(detail::ExpectedUnsafe::ValueAs<int32_t>(decision) ==
                              WalkResult::kSkipTag)) {
      *stop = detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(std::nullopt));
      return true;
    }
    return false;
  }

  TVMFFIAny VisitOne(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(value.type_index() == TypeIndex::kTVMFFINone)) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(std::nullopt));
    }
    TVMFFIAny stop;
    if constexpr (order == WalkOrder::kPreOrder) {
      if (RunCallbacks(value, &stop)) return stop;
    }
    TVMFFIAny inner = detail::ExpectedUnsafe::MoveToTVMFFIAny(Parent::DefaultVisitExpected(value));
    if (TVM_FFI_PREDICT_FALSE(detail::StructuralVisitRawNeedEarlyReturn(inner))) {
      if (inner.type_index == TypeIndex::kTVMFFIError) {
        return detail::AttachStructuralVisitErrorContextRaw(inner, value);
      }
      return inner;
    }
    if constexpr (order == WalkOrder::kPostOrder) {
      // Skip after the descent means nothing more than Advance.
      if (RunCallbacks(value, &stop)) return stop;
    }
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(std::nullopt));
  }

  std::tuple<Callbacks...> callbacks_;
};

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
  using Engine = StructuralWalkEngine<StructuralVisitorObj, order, std::decay_t<Callbacks>...>;
  StructuralVisitor visitor(make_object<Engine>(std::forward<Callbacks>(callbacks)...));
  return visitor->VisitExpected(root);
}

/*! \brief StructuralWalkExpected, with the error thrown. */
template <WalkOrder order, typename... Callbacks>
Optional<VisitInterrupt> StructuralWalk(AnyView root, Callbacks&&... callbacks) {
  return StructuralWalkExpected<order>(root, std::forward<Callbacks>(callbacks)...).value();
}

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

  /*! \brief An engine owning the callbacks. */
  explicit StructuralVisitEngine(Callbacks... callbacks)
      : Parent(Table()), callbacks_(std::move(callbacks)...) {}

 private:
  using Result = Expected<Optional<VisitInterrupt>>;

  static const StructuralVisitorVTable* Table() {
    static const StructuralVisitorVTable table{&StructuralVisitEngine::Entry};
    return &table;
  }
  static TVMFFIAny Entry(StructuralVisitorObj* self, AnyView value) noexcept {
    return static_cast<StructuralVisitEngine*>(self)->VisitOne(value);
  }

  TVMFFIAny VisitOne(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(value.type_index() == TypeIndex::kTVMFFINone)) {
      return detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(std::nullopt));
    }
    TVMFFIAny out;
    if (!TryAll(value, &out, std::index_sequence_for<Callbacks...>{})) {
      out = detail::ExpectedUnsafe::MoveToTVMFFIAny(Parent::DefaultVisitExpected(value));
    }
    if (TVM_FFI_PREDICT_FALSE(out.type_index == TypeIndex::kTVMFFIError)) {
      return detail::AttachStructuralVisitErrorContextRaw(out, value);
    }
    return out;
  }

  template <typename Callback>
  TVM_FFI_INLINE bool TryOne(Callback& callback, AnyView value, TVMFFIAny* out) noexcept {
    using Info = detail::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args == 2, "a StructuralVisit callback takes (value, visitor)");
    using First = std::remove_cv_t<std::remove_reference_t<std::tuple_element_t<0, typename Info::ArgType>>>;
    using Second = std::remove_pointer_t<std::decay_t<std::tuple_element_t<1, typename Info::ArgType>>>;
    static_assert(std::is_same_v<Second, typename Parent::VisitorObjType>,
                  "the second parameter of a StructuralVisit callback must be "
                  "Parent::VisitorObjType*");
    auto* visitor = static_cast<typename Parent::VisitorObjType*>(this);
    try {
      if constexpr (std::is_same_v<First, AnyView>) {
        *out = detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(callback(value, visitor)));
        return true;
      } else if constexpr (std::is_same_v<First, Any>) {
        *out = detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(callback(Any(value), visitor)));
        return true;
      } else {
        std::optional<First> matched = value.template as<First>();
        if (!matched.has_value()) return false;
        *out = detail::ExpectedUnsafe::MoveToTVMFFIAny(
            Result(callback(*std::move(matched), visitor)));
        return true;
      }
    } catch (const Error& err) {
      *out = detail::ExpectedUnsafe::MoveToTVMFFIAny(Result(Unexpected(err)));
      return true;
    }
  }

  template <size_t... Is>
  TVM_FFI_INLINE bool TryAll(AnyView value, TVMFFIAny* out, std::index_sequence<Is...>) noexcept {
    return (TryOne(std::get<Is>(callbacks_), value, out) || ...);
  }

  std::tuple<Callbacks...> callbacks_;
};

/*!
 * \brief Visits `root` with the callbacks (see StructuralVisitEngine); never throws.
 * \return nullopt, the VisitInterrupt a callback returned, or the error.
 */
template <typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralVisitExpected(AnyView root,
                                                           Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralVisit needs at least one callback");
  using Engine = StructuralVisitEngine<StructuralVisitorObj, std::decay_t<Callbacks>...>;
  StructuralVisitor visitor(make_object<Engine>(std::forward<Callbacks>(callbacks)...));
  return visitor->VisitExpected(root);
}

/*! \brief StructuralVisitExpected, with the error thrown. */
template <typename... Callbacks>
Optional<VisitInterrupt> StructuralVisit(AnyView root, Callbacks&&... callbacks) {
  return StructuralVisitExpected(root, std::forward<Callbacks>(callbacks)...).value();
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_

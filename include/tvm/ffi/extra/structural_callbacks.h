/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/structural_callbacks.h
 * \brief Internal: how the engines of structural_visit.h and
 *        structural_mutate.h pick and call a user callback.
 *
 * Every engine there holds a list of callables and offers each value it
 * meets to them in order.  A callable accepts the value when the value
 * converts, without a copying conversion, to the type of its first
 * parameter: `AnyView` and `Any` accept everything, `const T*` a T, an
 * ObjectRef type its objects, `int64_t` an int, and so on.  What the engine
 * then passes after the value differs per engine, so the engine supplies it
 * as a small lambda; this header only does the matching (SCallbackList) and
 * the common "value, layer states..., optional region kind" call shape
 * (SCallWithStates).  Not part of the public API.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_CALLBACKS_H_
#define TVM_FFI_EXTRA_STRUCTURAL_CALLBACKS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function_detail.h>

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace detail {

/*! \brief Parameter `I` of callable `F`, without reference and cv qualifiers. */
template <typename F, size_t I>
using SCallbackParam = std::remove_cv_t<std::remove_reference_t<
    std::tuple_element_t<I, typename FunctionInfo<std::decay_t<F>>::ArgType>>>;

/*! \brief How many parameters callable `F` takes. */
template <typename F>
inline constexpr size_t kSCallbackArity = FunctionInfo<std::decay_t<F>>::num_args;

/*!
 * \brief An ordered list of callbacks, each taking the values its first
 *        parameter accepts.
 */
template <typename... Fs>
class SCallbackList {
 public:
  static_assert(((kSCallbackArity<Fs> >= 1) && ...),
                "a structural callback takes the value as its first parameter");

  /*! \brief Takes ownership of the callbacks. */
  explicit SCallbackList(Fs... fs) : fns_(std::move(fs)...) {}

  /*!
   * \brief Finds the first callback that accepts `value` and runs
   *        `use(callback, converted_value)`.
   * \return false when none accepts it (then `use` is not run).
   */
  template <typename Use>
  TVM_FFI_INLINE bool FirstMatch(AnyView value, Use&& use) {
    return std::apply([&](auto&... fn) { return (Offer(fn, value, use) || ...); }, fns_);
  }

 private:
  template <typename F, typename Use>
  TVM_FFI_INLINE static bool Offer(F& fn, AnyView value, Use& use) {
    using Want = SCallbackParam<F, 0>;
    if constexpr (std::is_same_v<Want, AnyView>) {
      use(fn, value);
    } else if constexpr (std::is_same_v<Want, Any>) {
      use(fn, Any(value));
    } else {
      std::optional<Want> converted = value.template as<Want>();
      if (!converted.has_value()) return false;
      use(fn, *std::move(converted));
    }
    return true;
  }

  std::tuple<Fs...> fns_;
};

/*!
 * \brief Calls `fn(value, states..., [kind])`: the states are the elements of
 *        the tuple `get_states()` returns, and the region kind is passed only
 *        when `fn` has a parameter for it.  An Error thrown by `fn` (or while
 *        collecting the states) comes back as the unexpected result.
 */
template <typename R, typename F, typename V, typename GetStates, typename GetKind>
TVM_FFI_INLINE Expected<R> SCallWithStates(F& fn, V&& value, GetStates&& get_states,
                                           GetKind&& get_kind) noexcept {
  using States = std::decay_t<decltype(get_states())>;
  constexpr size_t kStates = std::tuple_size_v<States>;
  constexpr size_t kArity = kSCallbackArity<F>;
  static_assert(kArity == 1 + kStates || kArity == 2 + kStates,
                "a structural callback takes (value, states...) and optionally the "
                "TVMFFIDefRegionKind last");
  try {
    States states = get_states();
    return std::apply(
        [&](auto&... state) -> Expected<R> {
          if constexpr (kArity == 1 + kStates) {
            return fn(std::forward<V>(value), state...);
          } else {
            return fn(std::forward<V>(value), state..., get_kind());
          }
        },
        states);
  } catch (const Error& err) {
    return Unexpected(err);
  }
}

/*!
 * \brief The definition-region switch of visitors and mutators: runs
 *        `callback()` with `*slot` set to `kind` and restores the old value
 *        on the way out (return or exception).  A slot that holds Pattern
 *        keeps it: inside a pattern everything stays a pattern.
 */
template <typename Callback>
TVM_FFI_INLINE decltype(auto) SWithDefRegion(TVMFFIDefRegionKind* slot, TVMFFIDefRegionKind kind,
                                             Callback&& callback) {
  struct Restore {
    TVMFFIDefRegionKind* slot;
    TVMFFIDefRegionKind outer;
    ~Restore() { *slot = outer; }
  } restore{slot, *slot};
  if (*slot != kTVMFFIDefRegionKindPattern) *slot = kind;
  return std::forward<Callback>(callback)();
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_CALLBACKS_H_

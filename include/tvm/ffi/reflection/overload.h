/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/reflection/overload.h
 * \brief OverloadObjectDef: ObjectDef where one method name (constructors
 *        included) may be registered several times with different
 *        signatures; a call runs the first registration whose parameters
 *        accept the arguments.
 *
 * \code{.cpp}
 * refl::OverloadObjectDef<ShapeObj>()
 *     .def(refl::init<int64_t>())
 *     .def(refl::init<double>())
 *     .def_static("scale", &ShapeObj::ScaleInt)
 *     .def_static("scale", &ShapeObj::ScaleFloat);
 * \endcode
 *
 * Every registration is also published as its own method record (same name,
 * same dispatching function, its own type schema), so a stub generator sees
 * each signature.  Arguments are matched without conversion hooks: a value
 * matches a parameter when `try_cast` to it succeeds.
 */
#ifndef TVM_FFI_REFLECTION_OVERLOAD_H_
#define TVM_FFI_REFLECTION_OVERLOAD_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/// \cond Doxygen_Suppress
namespace detail {

/*! \brief One signature of an overloaded function, type-erased. */
struct OverloadBase {
 public:
  OverloadBase(int32_t num_args, std::string name) : num_args_(num_args), name_(std::move(name)) {}
  virtual ~OverloadBase() = default;
  OverloadBase(const OverloadBase&) = delete;
  OverloadBase& operator=(const OverloadBase&) = delete;

  /*! \brief Calls with `args` if they all convert; false (nothing called) otherwise. */
  virtual bool TryCall(const AnyView* args, int32_t num_args, Any* rv) const = 0;
  /*! \brief Why `args` do not fit this signature (one line). */
  virtual void DescribeMismatch(std::ostream& os, const AnyView* args, int32_t num_args) const = 0;
  /*! \brief Adds a signature after this one; only a dispatcher (the first signature) takes one. */
  virtual void Register(std::unique_ptr<OverloadBase> /*overload*/) {
    TVM_FFI_THROW(InternalError) << "`" << name_ << "`: only the first signature of an "
                                 << "overloaded function takes more signatures";
  }

  /*! \brief The number of parameters. */
  const int32_t num_args_;
  /*! \brief "<type key>.<method>", for messages. */
  const std::string name_;
};

/*! \brief The signature of a typed callable. */
template <typename Callable>
struct TypedOverload : public OverloadBase {
 public:
  static_assert(std::is_same_v<Callable, std::decay_t<Callable>>,
                "TypedOverload holds the callable by value");
  using FuncInfo = FunctionInfo<Callable>;
  using ParamTypes = typename FuncInfo::ArgType;
  using Ret = typename FuncInfo::RetType;
  static constexpr size_t kNumArgs = FuncInfo::num_args;

  TypedOverload(Callable f, std::string name)
      : OverloadBase(static_cast<int32_t>(kNumArgs), std::move(name)), f_(std::move(f)) {}

  bool TryCall(const AnyView* args, int32_t num_args, Any* rv) const override {
    if (num_args != static_cast<int32_t>(kNumArgs)) return false;
    return TryCallImpl(std::make_index_sequence<kNumArgs>{}, args, rv);
  }

  void DescribeMismatch(std::ostream& os, const AnyView* args, int32_t num_args) const override {
    if (num_args != static_cast<int32_t>(kNumArgs)) {
      os << "Mismatched number of arguments when calling: `" << name_ << " " << FuncInfo::Sig()
         << "`. Expected " << kNumArgs << " arguments";
      return;
    }
    DescribeFirstBadArg(std::make_index_sequence<kNumArgs>{}, os, args);
  }

 protected:
  template <size_t I>
  using Param = std::tuple_element_t<I, ParamTypes>;
  template <size_t I>
  using Plain = std::remove_const_t<std::remove_reference_t<Param<I>>>;

  // The argument converted to parameter I's plain type, or nullopt.
  template <size_t I>
  static std::optional<Plain<I>> Convert(const AnyView& arg) {
    if constexpr (std::is_same_v<Plain<I>, AnyView>) {
      return arg;
    } else if constexpr (std::is_same_v<Plain<I>, Any>) {
      return Any(arg);
    } else {
      return arg.template try_cast<Plain<I>>();
    }
  }

  template <size_t... I>
  bool TryCallImpl(std::index_sequence<I...>, [[maybe_unused]] const AnyView* args,
                   Any* rv) const {
    std::tuple<std::optional<Plain<I>>...> converted;
    bool all = ((std::get<I>(converted) = Convert<I>(args[I]), std::get<I>(converted).has_value()) &&
                ...);
    if (!all) return false;
    if constexpr (std::is_void_v<Ret>) {
      f_(static_cast<Param<I>>(*std::move(std::get<I>(converted)))...);
      *rv = Any();
    } else {
      *rv = Ret(f_(static_cast<Param<I>>(*std::move(std::get<I>(converted)))...));
    }
    return true;
  }

  template <size_t... I>
  void DescribeFirstBadArg(std::index_sequence<I...>, std::ostream& os,
                           [[maybe_unused]] const AnyView* args) const {
    bool done = false;
    ((done = done || DescribeIfBad<I>(os, args[I])), ...);
  }

  template <size_t I>
  bool DescribeIfBad(std::ostream& os, const AnyView& arg) const {
    if (Convert<I>(arg).has_value()) return false;
    TVMFFIAny raw = arg.CopyToTVMFFIAny();
    os << "Mismatched type on argument #" << I << " when calling: `" << name_ << " "
       << FuncInfo::Sig() << "`. Expected `" << Type2Str<Plain<I>>::v() << "` but got `"
       << TypeTraits<Plain<I>>::GetMismatchTypeInfo(&raw) << "`";
    return true;
  }

  Callable f_;
};

/*! \brief A new signature for OverloadedFunction::Register. */
template <typename Callable>
inline std::unique_ptr<OverloadBase> CreateNewOverload(Callable&& f, std::string name) {
  return std::make_unique<TypedOverload<std::decay_t<Callable>>>(std::forward<Callable>(f),
                                                                 std::move(name));
}

/*!
 * \brief The packed callable of an overloaded method: its first signature
 *        plus the ones registered later, tried in order.
 */
template <typename Callable>
struct OverloadedFunction : public TypedOverload<Callable> {
 public:
  using Base = TypedOverload<Callable>;
  using Base::Base;

  /*! \brief Adds a signature, tried after the earlier ones. */
  void Register(std::unique_ptr<OverloadBase> overload) final { more_.push_back(std::move(overload)); }

  void operator()(const AnyView* args, int32_t num_args, Any* rv) const {
    if (more_.empty()) {
      // A single signature reports errors as any typed function does.
      unpack_call<typename Base::Ret>(std::make_index_sequence<Base::kNumArgs>{}, &this->name_,
                                      this->f_, args, num_args, rv);
      return;
    }
    if (this->TryCall(args, num_args, rv)) return;
    for (const std::unique_ptr<OverloadBase>& overload : more_) {
      if (overload->num_args_ == num_args && overload->TryCall(args, num_args, rv)) return;
    }
    std::ostringstream os;
    os << "No matching overload found when calling: `" << this->name_ << "` with " << num_args
       << " arguments:";
    os << "\nOverload #0: ";
    this->DescribeMismatch(os, args, num_args);
    for (size_t i = 0; i < more_.size(); ++i) {
      os << "\nOverload #" << i + 1 << ": ";
      more_[i]->DescribeMismatch(os, args, num_args);
    }
    TVM_FFI_THROW(TypeError) << os.str();
  }

 private:
  std::vector<std::unique_ptr<OverloadBase>> more_;
};

}  // namespace detail
/// \endcond

namespace reflection {

/*!
 * \brief ObjectDef that accepts several registrations of one method name
 *        (see the file note).  Fields cannot be overloaded.
 */
template <typename Class>
class OverloadObjectDef : private ObjectDef<Class> {
  // One per overloaded name: the registered function and its dispatcher.
  struct Dispatcher {
    // Owned by `method` (the function object holds the dispatcher).
    ::tvm::ffi::detail::OverloadBase* overload;
    Function method;
  };

 public:
  /*! \brief The plain ObjectDef underneath. */
  using Super = ObjectDef<Class>;

  /*! \brief Registers the type's metadata (see ObjectDef). */
  template <typename... ExtraArgs>
  explicit OverloadObjectDef(ExtraArgs&&... extra_args)
      : Super(std::forward<ExtraArgs>(extra_args)...) {}

  // Methods, static methods and constructors: the first registration of a
  // name creates its dispatcher, each later one adds a signature to it.

  /*! \brief An instance method, or one more signature of it. */
  template <typename Func, typename... Extra>
  TVM_FFI_INLINE OverloadObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    return Overload(name, false, std::forward<Func>(func), extra...);
  }
  /*! \brief A static method, or one more signature of it. */
  template <typename Func, typename... Extra>
  TVM_FFI_INLINE OverloadObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    return Overload(name, true, std::forward<Func>(func), extra...);
  }
  /*! \brief A constructor, or one more signature of it (see ObjectDef::def(init)). */
  template <typename... Args, typename... Extra>
  TVM_FFI_INLINE OverloadObjectDef& def([[maybe_unused]] init<Args...> init_func,
                                        Extra&&... extra) {
    this->has_explicit_init_ = true;
    const bool first = dispatchers_.count(Super::kInitMethodName) == 0;
    Overload(Super::kInitMethodName, true, &init<Args...>::template execute<Class>, extra...);
    // The column holds the dispatcher, which later signatures extend in place.
    if (first) this->PublishInitMethod();
    return *this;
  }

  // Fields are registered once each, exactly as ObjectDef does.

  /*! \brief A read-only field (see ObjectDef::def_ro). */
  template <typename T, typename BaseClass, typename... Extra>
  TVM_FFI_INLINE OverloadObjectDef& def_ro(const char* name, T BaseClass::* field_ptr,
                                           Extra&&... extra) {
    return Same(Super::def_ro(name, field_ptr, std::forward<Extra>(extra)...));
  }
  /*! \brief A writable field (see ObjectDef::def_rw). */
  template <typename T, typename BaseClass, typename... Extra>
  TVM_FFI_INLINE OverloadObjectDef& def_rw(const char* name, T BaseClass::* field_ptr,
                                           Extra&&... extra) {
    return Same(Super::def_rw(name, field_ptr, std::forward<Extra>(extra)...));
  }

 private:
  // The ObjectDef calls return the base; chaining continues on this object.
  OverloadObjectDef& Same(Super&) { return *this; }

  template <typename Func, typename... Extra>
  OverloadObjectDef& Overload(const char* name, bool is_static, Func&& func,
                              const Extra&... extra) {
    using FuncInfo = ::tvm::ffi::detail::FunctionInfo<std::decay_t<Func>>;
    std::string full_name = std::string(this->type_key_) + "." + name;
    auto wrapped = ReflectionDefBase::WrapFunction(std::forward<Func>(func));
    using Wrapped = std::decay_t<decltype(wrapped)>;
    Function method;
    auto found = dispatchers_.find(name);
    if (found != dispatchers_.end()) {
      found->second.overload->Register(
          ::tvm::ffi::detail::CreateNewOverload(std::move(wrapped), std::move(full_name)));
      method = found->second.method;
    } else {
      using Impl = ::tvm::ffi::detail::OverloadedFunction<Wrapped>;
      auto [fn, impl] = Function::FromPackedInplace<Impl>(std::move(wrapped), std::move(full_name));
      method = fn;
      dispatchers_.emplace(name, Dispatcher{impl, std::move(fn)});
    }
    MethodInfoBuilder info;
    ReflectionDefBase::FinishMethodInfo(&info, name, method, FuncInfo::TypeSchema(),
                                        is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0,
                                        extra...);
    std::string metadata = Metadata::ToJSON(info.metadata_);
    info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(this->type_index_, &info));
    return *this;
  }

  std::unordered_map<std::string, Dispatcher> dispatchers_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_OVERLOAD_H_

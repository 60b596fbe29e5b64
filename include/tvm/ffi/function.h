/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/function.h
 * \brief Function (a callable object with the safe-call ABI), TypedFunction,
 *        the safe-call brackets, and TVM_FFI_DLL_EXPORT_TYPED_FUNC.
 *
 * A function object is the Object header followed by TVMFFIFunctionCell:
 * `safe_call` is the C entry every caller may use (errors come back as -1
 * with the error in the thread's slot), `cpp_call` an optional C++ entry
 * that throws instead (NULL for functions made through the C API).  Calls
 * from this header use cpp_call when it is set and safe_call otherwise.
 *
 * Writing a kernel library:
 *
 *   void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) { ... }
 *   TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
 *
 * exports `__tvm_ffi_add_one`, a TVMFFISafeCallType that converts its
 * arguments and reports errors as the ABI requires.
 */
#ifndef TVM_FFI_FUNCTION_H_
#define TVM_FFI_FUNCTION_H_

/*! \brief 1 to also export __tvm_ffi__metadata_<name> (the type schema) per exported function. */
#ifndef TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 0
#endif

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function_detail.h>

#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*!
 * \brief Opens the body of a C entry point that must not let an exception
 *        escape; TVM_FFI_SAFE_CALL_END closes it.  Between them, code may
 *        throw; an Error is stored in the thread's slot as it is, any other
 *        std::exception as an InternalError with its what(), and the
 *        function returns -1.  Falling off the end returns 0.
 */
#define TVM_FFI_SAFE_CALL_BEGIN() \
  try {                           \
  (void)0

/*! \brief Closes TVM_FFI_SAFE_CALL_BEGIN (see there). */
#define TVM_FFI_SAFE_CALL_END()                                      \
  return 0;                                                          \
  }                                                                  \
  catch (const std::exception& tvm_ffi_caught) {                     \
    return ::tvm::ffi::detail::SafeCallStoreException(tvm_ffi_caught); \
  }                                                                  \
  TVM_FFI_UNREACHABLE()

namespace detail {
/*!
 * \brief The catch of TVM_FFI_SAFE_CALL_END: an Error goes to the thread's
 *        slot unchanged, another std::exception as an InternalError carrying
 *        its what().  Returns the C error code, -1.
 */
TVM_FFI_COLD_CODE inline int SafeCallStoreException(const std::exception& caught) noexcept {
  if (const auto* as_error = dynamic_cast<const Error*>(&caught)) {
    SetSafeCallRaised(*as_error);
  } else {
    SetSafeCallRaised(Error("InternalError", caught.what(), ""));
  }
  return -1;
}
}  // namespace detail

/*!
 * \brief Evaluates a C call; a non-zero return rethrows the error from the
 *        thread's slot as a C++ Error.
 */
#define TVM_FFI_CHECK_SAFE_CALL(func)                              \
  do {                                                             \
    if (TVM_FFI_PREDICT_FALSE((func) != 0)) {                      \
      throw ::tvm::ffi::detail::MoveFromSafeCallRaised();          \
    }                                                              \
  } while (0)

/*! \brief The ffi.Function object: the header and TVMFFIFunctionCell. */
class FunctionObj : public Object, public TVMFFIFunctionCell {
 public:
  /// \cond Doxygen_Suppress
  static constexpr const uint32_t _type_index = TypeIndex::kTVMFFIFunction;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIFunction, FunctionObj, Object);
  /// \endcond

  using TVMFFIFunctionCell::safe_call;
  using TVMFFIFunctionCell::cpp_call;
  /*! \brief Type of the C++ entry kept in cpp_call; it reports errors by throwing. */
  using FCall = void (*)(const FunctionObj*, const AnyView*, int32_t, Any*);

  /*!
   * \brief Calls the function, through cpp_call when there is one and
   *        through safe_call otherwise; an error is thrown.
   * \param result Must hold None; receives the owned result.
   */
  TVM_FFI_INLINE void CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
    if (cpp_call == nullptr) {
      ViaSafeCall(this, args, num_args, result);
      return;
    }
    reinterpret_cast<FCall>(cpp_call)(this, args, num_args, result);
  }

 protected:
  friend class Function;
  FunctionObj() {}

 private:
  // The C entry, with a failure turned back into a thrown Error.
  static void ViaSafeCall(const FunctionObj* fn, const AnyView* args, int32_t num_args,
                          Any* result) {
    auto* cell = const_cast<FunctionObj*>(fn);
    int rc = cell->safe_call(cell, reinterpret_cast<const TVMFFIAny*>(args), num_args,
                             reinterpret_cast<TVMFFIAny*>(result));
    TVM_FFI_CHECK_SAFE_CALL(rc);
  }
};

namespace detail {

/*!
 * \brief A function object that owns a packed C++ callable
 *        `void(const AnyView*, int32_t, Any*)` and exposes both entries.
 */
template <typename TCallable>
class FunctionObjImpl : public FunctionObj {
 public:
  static_assert(std::is_same_v<TCallable, std::remove_cv_t<std::remove_reference_t<TCallable>>>,
                "FunctionObjImpl holds the callable by value");
  using TSelf = FunctionObjImpl<TCallable>;

  /*! \brief The callable, for code that fills it in after construction. */
  TCallable* GetCallable() { return &callable_; }

  /*! \brief Constructs the callable from `args` and points both entries at it. */
  template <typename... Args>
  explicit FunctionObjImpl(Args&&... args) : callable_(std::forward<Args>(args)...) {
    this->cpp_call = reinterpret_cast<void*>(&TSelf::Invoke);
    this->safe_call = &TSelf::InvokeSafe;
  }
  FunctionObjImpl& operator=(const FunctionObjImpl&) = delete;
  FunctionObjImpl(const FunctionObjImpl&) = delete;

 private:
  mutable TCallable callable_;

  static int InvokeSafe(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    TVM_FFI_SAFE_CALL_BEGIN();
    // An object already in `result` would be overwritten without a release.
    TVM_FFI_ICHECK_LT(result->type_index, TypeIndex::kTVMFFIStaticObjectBegin);
    Any* out = reinterpret_cast<Any*>(result);
    try {
      Invoke(static_cast<FunctionObj*>(handle), reinterpret_cast<const AnyView*>(args), num_args,
             out);
    } catch (...) {
      // abi-v0.1 section 6.1: after a failure the caller treats the result
      // as unwritten, so nothing the callable stored may stay there.
      *out = Any();
      throw;
    }
    TVM_FFI_SAFE_CALL_END();
  }
  static void Invoke(const FunctionObj* fn, const AnyView* args, int32_t num_args, Any* result) {
    static_cast<const TSelf*>(fn)->callable_(args, num_args, result);
  }
};

/*!
 * \brief A foreign function given as a C safe_call plus its closure `self`;
 *        `deleter` (may be NULL) releases the closure with the object.
 */
class ExternCFunctionObjImpl : public FunctionObj {
 public:
  ExternCFunctionObjImpl(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self))
      : self_(self), safe_call_(safe_call), deleter_(deleter) {
    this->cpp_call = nullptr;
    this->safe_call = &ExternCFunctionObjImpl::Forward;
  }
  ~ExternCFunctionObjImpl() {
    if (deleter_ == nullptr) return;
    deleter_(self_);
  }

 private:
  void* self_;
  TVMFFISafeCallType safe_call_;
  void (*deleter_)(void* self);

  // The handle the caller passes is this object; the foreign code wants its closure.
  static int32_t Forward(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* rv) {
    auto* impl = static_cast<ExternCFunctionObjImpl*>(static_cast<Object*>(handle));
    return impl->safe_call_(impl->self_, args, num_args, rv);
  }
};

/*! \brief A foreign C safe_call without a closure: it receives the object as its handle. */
class ExternCFunctionObjNullHandleImpl : public FunctionObj {
 public:
  explicit ExternCFunctionObjNullHandleImpl(TVMFFISafeCallType safe_call) {
    this->cpp_call = nullptr;
    this->safe_call = safe_call;
  }
};

/*! \brief Stores argument i of a pack as a view, for for_each over the arguments. */
class PackedArgsSetter {
 private:
  AnyView* args_;

 public:
  explicit PackedArgsSetter(AnyView* args) : args_(args) {}
  template <typename T>
  TVM_FFI_INLINE void operator()(size_t i, T&& value) const {
    args_[i] = std::forward<T>(value);
  }
};

}  // namespace detail

/*!
 * \brief What a packed function receives: `size()` AnyViews starting at
 *        `data()`.  Nothing is owned; the views live as long as the call.
 */
class PackedArgs {
 public:
  PackedArgs(const AnyView* data, int32_t size) : data_(data), size_(size) {}

  /*! \brief Argument `i`, unchecked. */
  AnyView operator[](int i) const { return data_[i]; }
  int size() const { return size_; }
  const AnyView* data() const { return data_; }

  /*! \brief The arguments from `begin` up to `end` (exclusive); -1 means all the rest. */
  PackedArgs Slice(int begin, int end = -1) const {
    int stop = (end == -1) ? size_ : end;
    return PackedArgs(data_ + begin, stop - begin);
  }

  /*! \brief Stores a view of each of `args`, in order, at data[0], data[1], ... */
  template <typename... Args>
  TVM_FFI_INLINE static void Fill(AnyView* data, Args&&... args) {
    const detail::PackedArgsSetter write_view(data);
    detail::for_each(write_view, std::forward<Args>(args)...);
  }

 private:
  const AnyView* data_;
  int32_t size_;
};

/*!
 * \brief Handle of a function object (may be null).  Calling it takes any
 *        arguments AnyView accepts and gives back an Any.
 */
class Function : public ObjectRef {
  // The two shapes a packed callable may take.
  template <typename C>
  static constexpr bool kWantsPackedArgs =
      std::is_convertible_v<C, std::function<void(PackedArgs args, Any*)>>;
  template <typename C>
  static constexpr bool kWantsRawArgs =
      std::is_convertible_v<C, std::function<void(const AnyView*, int32_t, Any*)>>;

 public:
  Function(std::nullptr_t) : ObjectRef(nullptr) {}  // NOLINT(*)
  /*! \brief Same as FromPacked(packed_call). */
  template <typename TCallable,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<TCallable>, Function>>>
  explicit Function(TCallable&& packed_call)
      : Function(FromPacked(std::forward<TCallable>(packed_call))) {}

  /*!
   * \brief Wraps a packed callable: one taking
   *        `(const AnyView* args, int32_t num_args, Any* rv)`, or one taking
   *        `(PackedArgs args, Any* rv)` (adapted to the first form).
   */
  template <typename TCallable>
  static Function FromPacked(TCallable&& packed_call) {
    static_assert(kWantsPackedArgs<TCallable> || kWantsRawArgs<TCallable>,
                  "Function::FromPacked takes void(const AnyView*, int32_t, Any*) or "
                  "void(PackedArgs, Any*)");
    if constexpr (!kWantsPackedArgs<TCallable>) {
      return FromPackedInternal(std::forward<TCallable>(packed_call));
    } else {
      auto adapt = [inner = std::forward<TCallable>(packed_call)](
                       const AnyView* args, int32_t num_args, Any* rv) mutable {
        inner(PackedArgs(args, num_args), rv);
      };
      return FromPackedInternal(std::move(adapt));
    }
  }

  /*!
   * \brief A function whose callable of type TCallable is constructed in the
   *        object from `args`; returns the function and a pointer to it.
   */
  template <typename TCallable, typename... Args>
  static auto FromPackedInplace(Args&&... args) {
    static_assert(std::is_same_v<TCallable, std::decay_t<TCallable>>);
    static_assert(std::is_invocable_v<TCallable, const AnyView*, int32_t, Any*>);
    ObjectPtr<detail::FunctionObjImpl<TCallable>> obj =
        make_object<detail::FunctionObjImpl<TCallable>>(std::forward<Args>(args)...);
    TCallable* callable = obj->GetCallable();
    Function func;
    func.data_ = std::move(obj);
    return std::make_tuple(std::move(func), callable);
  }

  /*!
   * \brief A function over a C safe_call.  With a closure `self` the call
   *        receives `self` as its handle and `deleter(self)` runs when the
   *        function dies; without either it receives the function object.
   */
  static Function FromExternC(void* self, TVMFFISafeCallType safe_call,
                              void (*deleter)(void* self)) {
    Function func;
    if (self == nullptr && deleter == nullptr) {
      func.data_ = make_object<detail::ExternCFunctionObjNullHandleImpl>(safe_call);
    } else {
      func.data_ = make_object<detail::ExternCFunctionObjImpl>(self, safe_call, deleter);
    }
    return func;
  }

  /*! \brief The global function registered as `name`, or std::nullopt. */
  static std::optional<Function> GetGlobal(std::string_view name) {
    TVMFFIByteArray key{name.data(), name.size()};
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionGetGlobal(&key, &handle));
    if (handle == nullptr) return std::nullopt;
    return Function(detail::ObjectUnsafe::ObjectPtrFromOwned<FunctionObj>(
        static_cast<TVMFFIObject*>(handle)));
  }
  static std::optional<Function> GetGlobal(const std::string& name) {
    return GetGlobal(std::string_view(name));
  }
  static std::optional<Function> GetGlobal(const String& name) {
    return GetGlobal(std::string_view(name.data(), name.size()));
  }
  static std::optional<Function> GetGlobal(const char* name) {
    return GetGlobal(std::string_view(name));
  }

  /*! \brief As GetGlobal; a missing name is a ValueError "Function <name> not found". */
  static Function GetGlobalRequired(std::string_view name) {
    std::optional<Function> found = GetGlobal(name);
    if (!found.has_value()) TVM_FFI_THROW(ValueError) << "Function " << name << " not found";
    return *std::move(found);
  }
  static Function GetGlobalRequired(const std::string& name) {
    return GetGlobalRequired(std::string_view(name));
  }
  static Function GetGlobalRequired(const String& name) {
    return GetGlobalRequired(std::string_view(name.data(), name.size()));
  }
  static Function GetGlobalRequired(const char* name) {
    return GetGlobalRequired(std::string_view(name));
  }

  /*!
   * \brief Registers `func` as the global `name`; an existing name is an
   *        error unless `override` is true.
   */
  static void SetGlobal(std::string_view name, Function func, bool override = false) {  // NOLINT
    TVMFFIByteArray key{name.data(), name.size()};
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFIFunctionSetGlobal(&key, detail::ObjectUnsafe::GetHeader(func.get()), override));
  }

  /*! \brief The names of all global functions. */
  static std::vector<String> ListGlobalNames() {
    Function names_at =
        GetGlobalRequired("ffi.FunctionListGlobalNamesFunctor")().cast<Function>();
    int count = names_at(-1).cast<int>();
    std::vector<String> names;
    names.reserve(count);
    for (int i = 0; i < count; ++i) names.push_back(names_at(i).cast<String>());
    return names;
  }

  /*! \brief Removes the global function `name`. */
  static void RemoveGlobal(const String& name) {
    static Function remove = GetGlobalRequired("ffi.FunctionRemoveGlobal");
    remove(name);
  }

  /*!
   * \brief A function from a typed C++ callable: arguments are converted to
   *        its parameter types (TypeError on a mismatch), its result to Any.
   */
  template <typename TCallable>
  static Function FromTyped(TCallable&& callable) {
    return FromTypedImpl(std::forward<TCallable>(callable), std::nullopt);
  }
  /*! \brief As FromTyped; `name` appears in argument errors. */
  template <typename TCallable>
  static Function FromTyped(TCallable&& callable, std::string name) {
    return FromTypedImpl(std::forward<TCallable>(callable), std::move(name));
  }

  /*! \brief Calls a C safe_call directly with `args`; an error is thrown. */
  template <typename... Args>
  TVM_FFI_INLINE static Any InvokeExternC(void* handle, TVMFFISafeCallType safe_call,
                                          Args&&... args) {
    AnyView packed[sizeof...(Args) > 0 ? sizeof...(Args) : 1];
    PackedArgs::Fill(packed, std::forward<Args>(args)...);
    Any result;
    TVM_FFI_CHECK_SAFE_CALL(safe_call(handle, reinterpret_cast<const TVMFFIAny*>(packed),
                                      static_cast<int32_t>(sizeof...(Args)),
                                      reinterpret_cast<TVMFFIAny*>(&result)));
    return result;
  }

  /*! \brief Calls the function; an error is thrown as Error. */
  template <typename... Args>
  TVM_FFI_INLINE Any operator()(Args&&... args) const {
    AnyView packed[sizeof...(Args) > 0 ? sizeof...(Args) : 1];
    PackedArgs::Fill(packed, std::forward<Args>(args)...);
    Any result;
    object()->CallPacked(packed, static_cast<int32_t>(sizeof...(Args)), &result);
    return result;
  }
  TVM_FFI_INLINE void CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
    object()->CallPacked(args, num_args, result);
  }
  TVM_FFI_INLINE void CallPacked(PackedArgs args, Any* result) const {
    object()->CallPacked(args.data(), args.size(), result);
  }

  /*!
   * \brief Calls the function through its C entry without throwing: the
   *        result as an Expected<T> (T = Any: whatever it returned).  An
   *        error raised by the call, or a result that does not convert to T
   *        (a TypeError "CallExpected: result type mismatch, expected T, but
   *        got X"), is the Expected's error; an Error returned as a value is
   *        passed on as the error too.
   */
  template <typename T = Any, typename... Args>
  TVM_FFI_INLINE Expected<T> CallExpected(Args&&... args) const {
    AnyView packed[sizeof...(Args) > 0 ? sizeof...(Args) : 1];
    PackedArgs::Fill(packed, std::forward<Args>(args)...);
    Any result;
    FunctionObj* func = const_cast<FunctionObj*>(object());
    if (func->safe_call(func, reinterpret_cast<const TVMFFIAny*>(packed),
                        static_cast<int32_t>(sizeof...(Args)),
                        reinterpret_cast<TVMFFIAny*>(&result)) != 0) {
      return Unexpected(detail::MoveFromSafeCallRaised());
    }
    if constexpr (std::is_same_v<T, Any>) {
      return result;
    } else {
      if constexpr (std::is_void_v<T>) {
        if (result.type_index() == TypeIndex::kTVMFFINone) return Expected<void>();
      } else {
        if (std::optional<T> value = result.template try_cast<T>()) return *std::move(value);
      }
      if (std::optional<Error> returned = result.template try_cast<Error>()) {
        return Unexpected(*std::move(returned));
      }
      return Unexpected(Error("TypeError",
                              "CallExpected: result type mismatch, expected " +
                                  detail::Type2Str<T>::v() + ", but got " + result.GetTypeKey(),
                              ""));
    }
  }

  TVM_FFI_INLINE bool operator==(std::nullptr_t) const { return data_ == nullptr; }
  TVM_FFI_INLINE bool operator!=(std::nullptr_t) const { return data_ != nullptr; }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Function, ObjectRef, FunctionObj);

  /*! \brief Registration helper (tvm/ffi/reflection/registry.h). */
  class Registry;

 private:
  const FunctionObj* object() const { return static_cast<const FunctionObj*>(data_.get()); }

  template <typename TCallable>
  static Function FromPackedInternal(TCallable&& packed_call) {
    Function func;
    func.data_ =
        make_object<detail::FunctionObjImpl<std::decay_t<TCallable>>>(std::forward<TCallable>(packed_call));
    return func;
  }

  template <typename TCallable>
  static Function FromTypedImpl(TCallable&& callable, std::optional<std::string> name) {
    using FuncInfo = detail::FunctionInfo<std::decay_t<TCallable>>;
    return FromPackedInternal([callable = std::forward<TCallable>(callable),
                               name = std::move(name)](const AnyView* args, int32_t num_args,
                                                       Any* rv) mutable {
      detail::unpack_call<typename FuncInfo::RetType>(
          std::make_index_sequence<FuncInfo::num_args>{}, name ? &*name : nullptr, callable, args,
          num_args, rv);
    });
  }
};

template <typename FType>
class TypedFunction;

/*!
 * \brief A Function with a C++ signature: calls convert the arguments and
 *        cast the result to R (TypeError when it does not convert).
 *        Layout: { Function packed_ }.
 */
template <typename R, typename... Args>
class TypedFunction<R(Args...)> {
 public:
  using TSelf = TypedFunction<R(Args...)>;

  TypedFunction() = default;
  TypedFunction(std::nullptr_t) {}                                // NOLINT(*)
  TypedFunction(Function packed) : packed_(std::move(packed)) {}  // NOLINT(*)
  /*! \brief From a callable of signature R(Args...); `name` appears in errors. */
  template <typename FLambda,
            typename = std::enable_if_t<std::is_convertible_v<FLambda, std::function<R(Args...)>>>>
  TypedFunction(FLambda&& typed_lambda, std::string name)
      : packed_(Function::FromTyped(std::forward<FLambda>(typed_lambda), std::move(name))) {}
  template <typename FLambda,
            typename = std::enable_if_t<std::is_convertible_v<FLambda, std::function<R(Args...)>> &&
                                        !std::is_same_v<std::decay_t<FLambda>, TSelf>>>
  TypedFunction(FLambda&& typed_lambda)  // NOLINT(google-explicit-constructor)
      : packed_(Function::FromTyped(std::forward<FLambda>(typed_lambda))) {}
  template <typename FLambda,
            typename = std::enable_if_t<std::is_convertible_v<FLambda, std::function<R(Args...)>> &&
                                        !std::is_same_v<std::decay_t<FLambda>, TSelf>>>
  TSelf& operator=(FLambda&& typed_lambda) {
    packed_ = Function::FromTyped(std::forward<FLambda>(typed_lambda));
    return *this;
  }
  TSelf& operator=(Function packed) {
    packed_ = std::move(packed);
    return *this;
  }

  /*! \brief Calls the function and converts its result to R. */
  TVM_FFI_INLINE R operator()(Args... args) const {  // NOLINT(performance-unnecessary-value-param)
    if constexpr (std::is_void_v<R>) {
      packed_(std::forward<Args>(args)...);
    } else if constexpr (std::is_same_v<R, Any>) {
      return packed_(std::forward<Args>(args)...);
    } else {
      return packed_(std::forward<Args>(args)...).template cast<R>();
    }
  }

  operator Function() const { return packed(); }  // NOLINT(google-explicit-constructor)
  const Function& packed() const& { return packed_; }
  constexpr Function&& packed() && { return std::move(packed_); }
  bool operator==(std::nullptr_t) const { return packed_ == nullptr; }
  bool operator!=(std::nullptr_t) const { return packed_ != nullptr; }
  /*! \brief The type schema of the signature. */
  static std::string TypeSchema() { return detail::FuncFunctorImpl<R, Args...>::TypeSchema(); }

 private:
  Function packed_;
};

template <typename FType>
inline constexpr bool use_default_type_traits_v<TypedFunction<FType>> = false;

/*! \brief TypedFunction<F> in an Any: an ffi.Function (the signature is not checked). */
template <typename FType>
struct TypeTraits<TypedFunction<FType>> : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFunction;
  using FunctionTraits = TypeTraits<Function>;

  TVM_FFI_INLINE static void CopyToAnyView(const TypedFunction<FType>& src, TVMFFIAny* result) {
    FunctionTraits::CopyToAnyView(src.packed(), result);
  }
  TVM_FFI_INLINE static void MoveToAny(TypedFunction<FType> src, TVMFFIAny* result) {
    FunctionTraits::MoveToAny(std::move(src).packed(), result);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIFunction;
  }
  TVM_FFI_INLINE static TypedFunction<FType> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return TypedFunction<FType>(FunctionTraits::CopyFromAnyViewAfterCheck(src));
  }
  TVM_FFI_INLINE static TypedFunction<FType> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return TypedFunction<FType>(FunctionTraits::MoveFromAnyAfterCheck(src));
  }
  TVM_FFI_INLINE static std::optional<TypedFunction<FType>> TryCastFromAnyView(
      const TVMFFIAny* src) {
    std::optional<Function> func = FunctionTraits::TryCastFromAnyView(src);
    if (!func.has_value()) return std::nullopt;
    return TypedFunction<FType>(*std::move(func));
  }
  TVM_FFI_INLINE static std::string TypeStr() { return detail::FunctionInfo<FType>::Sig(); }
  TVM_FFI_INLINE static std::string TypeSchema() { return TypedFunction<FType>::TypeSchema(); }
};

/*! \brief The type index registered for `type_key`; an unknown key throws. */
inline int32_t TypeKeyToIndex(std::string_view type_key) {
  TVMFFIByteArray key{type_key.data(), type_key.size()};
  int32_t type_index = -1;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
  return type_index;
}

namespace detail {

/*! \brief Body of an exported typed function: unpacks the C arguments and calls `fn`. */
template <typename F>
TVM_FFI_INLINE void ExportedTypedCall(const std::string* export_name, const F& fn,
                                      const TVMFFIAny* args, int32_t num_args,
                                      TVMFFIAny* result) {
  using Sig = FunctionInfo<std::decay_t<F>>;
  const AnyView* views = reinterpret_cast<const AnyView*>(args);
  unpack_call<typename Sig::RetType>(std::make_index_sequence<Sig::num_args>{}, export_name, fn,
                                     views, num_args, reinterpret_cast<Any*>(result));
}

/*! \brief Writes `text` to `result` as an ffi String; returns the C status. */
TVM_FFI_INLINE int ExportedStringResult(std::string_view text, TVMFFIAny* result) {
  TVMFFIByteArray bytes{text.data(), text.size()};
  return TVMFFIStringFromByteArray(&bytes, result);
}

/*! \brief The metadata JSON of an exported function: {"type_schema": "<schema as a string>"}. */
template <typename F>
std::string ExportedMetadataJSON() {
  String schema(FunctionInfo<std::decay_t<F>>::TypeSchema());
  return "{\"type_schema\":" + std::string(EscapeStringJSON(schema)) + "}";
}

}  // namespace detail

/*! \brief The exported C entry of TVM_FFI_DLL_EXPORT_TYPED_FUNC (internal). */
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)                              \
  extern "C" {                                                                                 \
  TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(void* self, const TVMFFIAny* args,             \
                                                int32_t num_args, TVMFFIAny* result) {         \
    (void)self;                                                                                \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                 \
    static const std::string tvm_ffi_export_name = #ExportName;                                \
    ::tvm::ffi::detail::ExportedTypedCall(&tvm_ffi_export_name, Function, args, num_args,      \
                                          result);                                             \
    TVM_FFI_SAFE_CALL_END();                                                                   \
  }                                                                                            \
  }

/// \cond Doxygen_Suppress
// An exported C entry taking no arguments whose result is the string `Text`.
#define TVM_FFI_DLL_EXPORT_STRING_ENTRY_(Symbol, Text)                                        \
  extern "C" {                                                                                \
  TVM_FFI_DLL_EXPORT int Symbol(void*, const TVMFFIAny*, int32_t, TVMFFIAny* result) {        \
    TVM_FFI_SAFE_CALL_BEGIN();                                                                \
    return ::tvm::ffi::detail::ExportedStringResult(Text, result);                            \
    TVM_FFI_SAFE_CALL_END();                                                                  \
  }                                                                                           \
  }
/// \endcond

/*!
 * \brief Exports the typed C++ function `Function` from a shared library as
 *        the C symbol `__tvm_ffi_<ExportName>` (a TVMFFISafeCallType), which
 *        module loaders find by name.  With TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
 *        also `__tvm_ffi__metadata_<ExportName>`, returning
 *        {"type_schema": "<schema JSON as a string>"}.
 */
#if TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function)                        \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)                        \
  TVM_FFI_DLL_EXPORT_STRING_ENTRY_(                                                \
      __tvm_ffi__metadata_##ExportName,                                            \
      ::tvm::ffi::detail::ExportedMetadataJSON<decltype(Function)>())
#else
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function) \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC_IMPL_(ExportName, Function)
#endif

/*!
 * \brief With TVM_FFI_DLL_EXPORT_INCLUDE_METADATA, exports
 *        `__tvm_ffi__doc_<ExportName>` returning DocString; otherwise nothing.
 */
#if TVM_FFI_DLL_EXPORT_INCLUDE_METADATA
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString) \
  TVM_FFI_DLL_EXPORT_STRING_ENTRY_(__tvm_ffi__doc_##ExportName, ::std::string_view(DocString))
#else
#define TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(ExportName, DocString)
#endif

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_FUNCTION_H_

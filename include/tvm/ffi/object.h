/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/object.h
 * \brief Object (the C++ view of the 24-byte TVMFFIObject header), the smart
 *        pointers ObjectPtr, Arc and WeakObjectPtr, the reference base class
 *        ObjectRef, and the macros that give an object class its type index.
 *
 * Everything here is inline: reference counting is done with the same
 * atomics the runtime uses on the combined count (strong in bits 0-31, weak
 * in bits 32-63; see TVMFFIObject in tvm/ffi/c_api.h), so objects made by
 * this code and by the runtime (or by another library built from any copy of
 * these headers) mix freely.
 *
 * Layouts (part of the C++ ABI; code compiled against either copy of these
 * headers interoperates):
 *   Object         = { TVMFFIObject header_ }                 24 bytes
 *   ObjectPtr<T>   = { Object* data_ }                         8 bytes
 *   WeakObjectPtr  = { Object* data_ }                         8 bytes
 *   ObjectRef      = { ObjectPtr<Object> data_ }               8 bytes
 */
#ifndef TVM_FFI_OBJECT_H_
#define TVM_FFI_OBJECT_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/type_traits.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/*!
 * \brief Tag for the constructor of a reference type that leaves it empty
 *        (null), for code that fills it in right after.  Not for users: a
 *        non-nullable reference must never be observed empty.
 */
struct UnsafeInit {};

template <typename... V>
class Variant;

namespace detail {
struct ObjectUnsafe;

/*! \brief Bits of the combined reference count (strong: low word, weak: high word). */
constexpr uint64_t kCombinedRefCountStrongOne = 1;
constexpr uint64_t kCombinedRefCountWeakOne = uint64_t{1} << 32;
constexpr uint64_t kCombinedRefCountBothOne = kCombinedRefCountStrongOne | kCombinedRefCountWeakOne;
constexpr uint64_t kCombinedRefCountMaskUInt32 = kCombinedRefCountWeakOne - 1;

#if defined(__SANITIZE_THREAD__)
#define TVM_FFI_DETAIL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TVM_FFI_DETAIL_TSAN 1
#endif
#endif

/*!
 * \brief Acquire side of the release decrements of `count`, before the object
 *        they drop is destroyed.  ThreadSanitizer does not model fences (GCC
 *        refuses them under -fsanitize=thread): there an acquire load of the
 *        same count, which reads the end of its release sequence, does the job.
 */
TVM_FFI_INLINE void AcquireBeforeDelete(const uint64_t* count) {
#ifdef TVM_FFI_DETAIL_TSAN
  (void)__atomic_load_n(count, __ATOMIC_ACQUIRE);
#else
  (void)count;
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

/*! \brief Whether an object with runtime type index `object_type_index` is a TargetType. */
template <typename TargetType>
TVM_FFI_INLINE bool IsObjectInstance(int32_t object_type_index);
}  // namespace detail

/*!
 * \brief Base class of every object.
 *
 * A subclass describes its type with static members (set by the
 * TVM_FFI_DECLARE_OBJECT_INFO* macros or written by hand):
 *   _type_key        registered name, e.g. "my.Point"
 *   _type_index      static index (built-in types) or the one allocated at load
 *   _type_depth      0 for Object, parent's + 1
 *   _type_final      no subclasses (instance checks become one comparison)
 *   _type_mutable    references hand out non-const pointers
 *   _type_child_slots, _type_child_slots_can_overflow   index range reserved
 *                    for subclasses, and whether more may follow elsewhere
 *   _type_s_eq_hash_kind   how structural equality and hashing treat it
 *
 * Objects are made with make_object (tvm/ffi/memory.h) and owned through
 * ObjectPtr or an ObjectRef; they are never created on the stack.
 */
class Object {
 protected:
  /*! \brief The ABI header; must stay the first and only data member of Object. */
  TVMFFIObject header_;

 public:
  /*! \brief Zeroes the header; make_object fills it in after construction. */
  Object() {
    header_.combined_ref_count = 0;
    header_.type_index = 0;
    header_.zero_padding = 0;
    header_.deleter = nullptr;
  }

  /*! \brief Whether this object is a TargetType (or a subclass of it). */
  template <typename TargetType>
  bool IsInstance() const {
    return detail::IsObjectInstance<TargetType>(header_.type_index);
  }
  /*! \brief The runtime type index. */
  int32_t type_index() const { return header_.type_index; }
  /*! \brief The registered type key of this object's type. */
  std::string GetTypeKey() const { return TypeIndexToTypeKey(header_.type_index); }
  /*! \brief The runtime's hash of the type key. */
  uint64_t GetTypeKeyHash() const { return TVMFFIGetTypeInfo(header_.type_index)->type_key_hash; }
  /*! \brief The type key registered for `tindex`. */
  static std::string TypeIndex2Key(int32_t tindex) { return TypeIndexToTypeKey(tindex); }
  /*! \brief True when exactly one strong and no extra weak reference exist. */
  bool unique() const { return LoadCount() == detail::kCombinedRefCountBothOne; }
  /*! \brief The strong reference count (a snapshot; other threads may change it). */
  uint64_t use_count() const { return LoadCount() & detail::kCombinedRefCountMaskUInt32; }

  // The root's entries of the per-class type description that
  // TVM_FFI_DECLARE_OBJECT_INFO(_FINAL) and the static-type macros override.
  // Identity:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIObject;
  static constexpr const char* _type_key = StaticTypeKey::kTVMFFIObject;
  static constexpr int32_t _type_depth = 0;
  /*! \brief The type index of this class (registering it first if needed). */
  TVM_FFI_INLINE static int32_t RuntimeTypeIndex() noexcept { return TypeIndex::kTVMFFIObject; }
  /*! \brief Registers the class with the runtime (once) and returns its index. */
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {  // NOLINT(*)
    return TypeIndex::kTVMFFIObject;
  }
  // Subclassing: how many child indices to reserve, and whether more may follow.
  static constexpr bool _type_final = false;
  static constexpr uint32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
  // Fields writable through reflection; structural equality/hash behaviour.
  static constexpr bool _type_mutable = false;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  static constexpr bool _type_s_eq_hash_subclass_kind_fixed = false;

 private:
  uint64_t LoadCount() const {
    return __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED);
  }
  void CallDeleter(int flags) {
    if (header_.deleter != nullptr) header_.deleter(&header_, flags);
  }
  /*! \brief One more strong reference.  Relaxed: the caller already holds one. */
  TVM_FFI_INLINE void IncRef() {
    __atomic_fetch_add(&header_.combined_ref_count, detail::kCombinedRefCountStrongOne,
                       __ATOMIC_RELAXED);
  }
  /*! \brief One more weak reference. */
  void IncWeakRef() {
    __atomic_fetch_add(&header_.combined_ref_count, detail::kCombinedRefCountWeakOne,
                       __ATOMIC_RELAXED);
  }
  /*!
   * \brief Drops a strong reference.  The last strong reference destroys the
   *        object (deleter flag Strong) and then drops the weak reference all
   *        strong ones share, which frees the memory when no WeakObjectPtr is
   *        left (flag Weak).  When both counts are one, a single call with
   *        both flags does it.
   */
  TVM_FFI_INLINE void DecRef() {
    uint64_t before = __atomic_fetch_sub(&header_.combined_ref_count,
                                         detail::kCombinedRefCountStrongOne, __ATOMIC_RELEASE);
    if (before == detail::kCombinedRefCountBothOne) {
      detail::AcquireBeforeDelete(&header_.combined_ref_count);
      CallDeleter(kTVMFFIObjectDeleterFlagBitMaskBoth);
    } else if ((before & detail::kCombinedRefCountMaskUInt32) ==
               detail::kCombinedRefCountStrongOne) {
      detail::AcquireBeforeDelete(&header_.combined_ref_count);
      CallDeleter(kTVMFFIObjectDeleterFlagBitMaskStrong);
      DecWeakRef();
    }
  }
  /*! \brief Drops a weak reference; the last one frees the memory. */
  void DecWeakRef() {
    uint64_t before = __atomic_fetch_sub(&header_.combined_ref_count,
                                         detail::kCombinedRefCountWeakOne, __ATOMIC_RELEASE);
    if (before == detail::kCombinedRefCountWeakOne) {
      detail::AcquireBeforeDelete(&header_.combined_ref_count);
      CallDeleter(kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }
  /*! \brief Adds a strong reference unless the strong count already reached zero. */
  bool TryPromoteWeakPtr() {
    uint64_t seen = LoadCount();
    while ((seen & detail::kCombinedRefCountMaskUInt32) != 0) {
      if (__atomic_compare_exchange_n(&header_.combined_ref_count, &seen,
                                      seen + detail::kCombinedRefCountStrongOne, true,
                                      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        return true;
      }
    }
    return false;
  }

  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct tvm::ffi::detail::ObjectUnsafe;
};

/*!
 * \brief An owning (strong) pointer to an object of type T, or null.
 *
 * Converts implicitly from an ObjectPtr of a subclass.  Copying adds a
 * reference; moving transfers it.
 */
template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() = default;
  ObjectPtr(std::nullptr_t) {}  // NOLINT(*)
  TVM_FFI_INLINE ObjectPtr(const ObjectPtr<T>& other) : ObjectPtr(other.data_) {}  // NOLINT(*)
  template <typename U>
  TVM_FFI_INLINE ObjectPtr(const ObjectPtr<U>& other) : ObjectPtr(other.data_) {  // NOLINT(*)
    static_assert(std::is_base_of_v<T, U>, "ObjectPtr<T> converts only from a subclass of T");
  }
  TVM_FFI_INLINE ObjectPtr(ObjectPtr<T>&& other) noexcept : data_(other.data_) {  // NOLINT(*)
    other.data_ = nullptr;
  }
  template <typename U>
  TVM_FFI_INLINE ObjectPtr(ObjectPtr<U>&& other) noexcept : data_(other.data_) {  // NOLINT(*)
    static_assert(std::is_base_of_v<T, U>, "ObjectPtr<T> converts only from a subclass of T");
    other.data_ = nullptr;
  }
  TVM_FFI_INLINE ~ObjectPtr() {
    // The pointer dies with this object, so it is not cleared first.
    if (data_ != nullptr) data_->DecRef();
  }

  /*! \brief Exchanges the pointees of two pointers. */
  void swap(ObjectPtr<T>& other) { std::swap(data_, other.data_); }  // NOLINT(*)
  /*! \brief The object, or nullptr. */
  T* get() const { return static_cast<T*>(data_); }
  T* operator->() const { return get(); }
  T& operator*() const { return *get(); }  // NOLINT(*)

  TVM_FFI_INLINE ObjectPtr<T>& operator=(const ObjectPtr<T>& other) {  // NOLINT(*)
    ObjectPtr<T> keep(other);
    swap(keep);
    return *this;
  }
  TVM_FFI_INLINE ObjectPtr<T>& operator=(ObjectPtr<T>&& other) noexcept {  // NOLINT(*)
    ObjectPtr<T> keep(std::move(other));
    swap(keep);
    return *this;
  }

  explicit operator bool() const { return data_ != nullptr; }
  /*! \brief Drops the reference held, leaving the pointer null. */
  TVM_FFI_INLINE void reset() {
    Object* old = data_;
    data_ = nullptr;
    if (old != nullptr) old->DecRef();
  }
  /*! \brief Strong count of the pointee, 0 for null. */
  int use_count() const { return data_ == nullptr ? 0 : static_cast<int>(data_->use_count()); }
  /*! \brief True when this is the only reference. */
  bool unique() const { return data_ != nullptr && data_->unique(); }

  bool operator==(const ObjectPtr<T>& other) const { return data_ == other.data_; }
  bool operator!=(const ObjectPtr<T>& other) const { return data_ != other.data_; }
  bool operator==(std::nullptr_t) const { return data_ == nullptr; }
  bool operator!=(std::nullptr_t) const { return data_ != nullptr; }

 private:
  /*! \brief The pointee as its Object base; the only data member. */
  Object* data_{nullptr};

  /*! \brief Takes a new strong reference to `data` (may be null). */
  explicit ObjectPtr(Object* data) : data_(data) {
    if (data_ != nullptr) data_->IncRef();
  }

  friend class Object;
  friend class ObjectRef;
  friend struct ObjectPtrHash;
  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct tvm::ffi::detail::ObjectUnsafe;
};

/*!
 * \brief Shared ownership of an object that is always there.
 *
 * Arc<T> is laid out exactly as ObjectPtr<T> and converts to it, but nothing
 * public makes a null one: there is no default or nullptr constructor, and
 * reset()/swap() are hidden.  make_arc creates one.  Only a moved-from Arc
 * or one built with UnsafeInit is null, and code doing that must fill it in
 * before anyone reads it; no member checks.
 */
template <typename T>
class Arc : public ObjectPtr<T> {
  using Base = ObjectPtr<T>;
  // Upcasts only: an Arc<U> becomes an Arc<T> when U derives from T.
  template <typename U>
  using EnableIfDerived = std::enable_if_t<std::is_base_of_v<T, U>, int>;

 public:
  // Never empty by construction.
  Arc() = delete;
  Arc(std::nullptr_t) = delete;

  // Copy and move as the ObjectPtr does; kept inline so that the compiler
  // can see through a moved-from Arc's destructor.
  TVM_FFI_INLINE Arc(const Arc&) = default;
  TVM_FFI_INLINE Arc(Arc&&) noexcept = default;
  TVM_FFI_INLINE Arc& operator=(const Arc&) = default;
  TVM_FFI_INLINE Arc& operator=(Arc&&) noexcept = default;
  TVM_FFI_INLINE ~Arc() = default;

  /*! \brief Shares the object of an Arc to a subclass. */
  template <typename U, EnableIfDerived<U> = 0>
  Arc(const Arc<U>& from) : Base(from) {}  // NOLINT(*)
  /*! \brief Takes over the object of an Arc to a subclass. */
  template <typename U, EnableIfDerived<U> = 0>
  Arc(Arc<U>&& from) : Base(std::move(from)) {}  // NOLINT(*)

  /*! \brief Starts null: for code that assigns the real value right after. */
  explicit Arc(UnsafeInit) : Base(nullptr) {}

 private:
  template <typename>
  friend class Arc;
  friend struct tvm::ffi::detail::ObjectUnsafe;

  explicit Arc(Base ptr) : Base(std::move(ptr)) {}
  using Base::reset;
  using Base::swap;
};

/*! \brief Whether T is Object itself or one of its subclasses. */
template <typename T>
inline constexpr bool is_object_subclass_v = std::is_base_of_v<Object, T>;

namespace detail {
template <typename T>
using remove_cvref_object_t = std::remove_cv_t<std::remove_reference_t<T>>;
/*! \brief An object type spelled with a const/volatile qualifier or as a reference. */
template <typename T>
inline constexpr bool is_qualified_object_v =
    !std::is_same_v<T, remove_cvref_object_t<T>> &&
    ::tvm::ffi::is_object_subclass_v<remove_cvref_object_t<T>>;
}  // namespace detail

// Storage of an ObjectPtr or Arc to a subclass fits storage for its base
// (an Arc fits an ObjectPtr, never the other way: an ObjectPtr may be null).
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<ObjectPtr<Base>, ObjectPtr<Derived>> =
    std::is_base_of_v<Base, Derived>;
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<ObjectPtr<Base>, Arc<Derived>> =
    std::is_base_of_v<Base, Derived>;
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<Arc<Base>, Arc<Derived>> = std::is_base_of_v<Base, Derived>;

/*!
 * \brief A weak pointer: keeps the object's memory alive but not the object.
 *        lock() returns a strong pointer while the object lives, else null.
 */
template <typename T>
class WeakObjectPtr {
 public:
  WeakObjectPtr() = default;
  WeakObjectPtr(std::nullptr_t) {}                                                 // NOLINT(*)
  WeakObjectPtr(const WeakObjectPtr<T>& other) : WeakObjectPtr(other.data_) {}    // NOLINT(*)
  WeakObjectPtr(const ObjectPtr<T>& other) : WeakObjectPtr(other.data_) {}        // NOLINT(*)
  template <typename U>
  WeakObjectPtr(const WeakObjectPtr<U>& other) : WeakObjectPtr(other.data_) {  // NOLINT(*)
    static_assert(std::is_base_of_v<T, U>, "WeakObjectPtr<T> converts only from a subclass of T");
  }
  template <typename U>
  WeakObjectPtr(const ObjectPtr<U>& other) : WeakObjectPtr(other.data_) {  // NOLINT(*)
    static_assert(std::is_base_of_v<T, U>, "WeakObjectPtr<T> converts only from a subclass of T");
  }
  WeakObjectPtr(WeakObjectPtr<T>&& other) : data_(other.data_) {  // NOLINT(*)
    other.data_ = nullptr;
  }
  template <typename U>
  WeakObjectPtr(WeakObjectPtr<U>&& other) : data_(other.data_) {  // NOLINT(*)
    static_assert(std::is_base_of_v<T, U>, "WeakObjectPtr<T> converts only from a subclass of T");
    other.data_ = nullptr;
  }
  ~WeakObjectPtr() { reset(); }

  void swap(WeakObjectPtr<T>& other) { std::swap(data_, other.data_); }  // NOLINT(*)
  WeakObjectPtr<T>& operator=(const WeakObjectPtr<T>& other) {  // NOLINT(*)
    WeakObjectPtr<T> keep(other);
    swap(keep);
    return *this;
  }
  WeakObjectPtr<T>& operator=(WeakObjectPtr<T>&& other) {  // NOLINT(*)
    WeakObjectPtr<T> keep(std::move(other));
    swap(keep);
    return *this;
  }

  /*! \brief A strong pointer to the object if it is still alive, else null. */
  ObjectPtr<T> lock() const {
    ObjectPtr<T> strong;
    if (data_ != nullptr && data_->TryPromoteWeakPtr()) strong.data_ = data_;
    return strong;
  }
  /*! \brief Drops the weak reference held. */
  TVM_FFI_INLINE void reset() {
    Object* old = data_;
    data_ = nullptr;
    if (old != nullptr) old->DecWeakRef();
  }
  /*! \brief Strong count of the object (0 once it is destroyed or for null). */
  int use_count() const { return data_ == nullptr ? 0 : static_cast<int>(data_->use_count()); }
  /*! \brief True when there is no live object behind this pointer. */
  bool expired() const { return use_count() == 0; }

 private:
  Object* data_{nullptr};

  explicit WeakObjectPtr(Object* data) : data_(data) {
    if (data_ != nullptr) data_->IncWeakRef();
  }

  template <typename>
  friend class WeakObjectPtr;
  friend struct tvm::ffi::detail::ObjectUnsafe;
};

template <typename T, typename = void>
class Optional;

/*!
 * \brief Base class of reference types (String, Array<T>, Function, user
 *        types): a handle holding one ObjectPtr.  Equality is identity.
 *
 * A subclass names its object type with TVM_FFI_DEFINE_OBJECT_REF_METHODS_*
 * and its nullability with _type_is_nullable.
 */
class ObjectRef {
 public:
  ObjectRef() = default;
  TVM_FFI_INLINE ~ObjectRef() = default;
  TVM_FFI_INLINE ObjectRef(const ObjectRef& other) = default;
  TVM_FFI_INLINE ObjectRef(ObjectRef&& other) noexcept : data_(std::move(other.data_)) {}
  TVM_FFI_INLINE ObjectRef& operator=(const ObjectRef& other) = default;
  TVM_FFI_INLINE ObjectRef& operator=(ObjectRef&& other) noexcept {
    data_ = std::move(other.data_);
    return *this;
  }
  /*! \brief Holds `data`. */
  explicit ObjectRef(ObjectPtr<Object> data) : data_(std::move(data)) {}
  /*! \brief An empty reference (see UnsafeInit). */
  explicit ObjectRef(UnsafeInit) {}

  /*! \brief True when both refer to the same object (or are both empty). */
  bool same_as(const ObjectRef& other) const { return data_ == other.data_; }
  bool operator==(const ObjectRef& other) const { return data_ == other.data_; }
  bool operator!=(const ObjectRef& other) const { return data_ != other.data_; }
  /*! \brief Orders by address (for ordered containers of references). */
  bool operator<(const ObjectRef& other) const {
    return std::less<const Object*>()(data_.get(), other.data_.get());
  }
  /*! \brief False for an empty reference. */
  bool defined() const { return data_ != nullptr; }
  const Object* get() const { return data_.get(); }
  const Object* operator->() const { return get(); }
  bool unique() const { return data_.unique(); }
  int use_count() const { return data_.use_count(); }

  /*! \brief The object as an ObjectType if it is one, else nullptr. */
  template <typename ObjectType, typename = std::enable_if_t<std::is_base_of_v<Object, ObjectType>>>
  const ObjectType* as() const& {
    if (data_ == nullptr || !data_->IsInstance<ObjectType>()) return nullptr;
    return static_cast<const ObjectType*>(data_.get());
  }

  /*!
   * \brief This reference as an ObjectRefType if the object is one (an empty
   *        reference converts only to a nullable type), else std::nullopt.
   */
  template <typename ObjectRefType,
            typename = std::enable_if_t<std::is_base_of_v<ObjectRef, ObjectRefType>>>
  TVM_FFI_INLINE std::optional<ObjectRefType> as() const& {
    if (!ConvertsTo<ObjectRefType>()) return std::nullopt;
    ObjectRefType result(UnsafeInit{});
    result.data_ = data_;
    return result;
  }
  template <typename ObjectRefType,
            typename = std::enable_if_t<std::is_base_of_v<ObjectRef, ObjectRefType>>>
  TVM_FFI_INLINE std::optional<ObjectRefType> as() && {
    if (!ConvertsTo<ObjectRefType>()) return std::nullopt;
    ObjectRefType result(UnsafeInit{});
    result.data_ = std::move(data_);
    return result;
  }

  /*! \brief As as<ObjectRefType>(), but a mismatch throws TypeError (tvm/ffi/cast.h). */
  template <typename ObjectRefType,
            typename = std::enable_if_t<std::is_base_of_v<ObjectRef, ObjectRefType>>>
  TVM_FFI_INLINE ObjectRefType as_or_throw() const&;
  template <typename ObjectRefType,
            typename = std::enable_if_t<std::is_base_of_v<ObjectRef, ObjectRefType>>>
  TVM_FFI_INLINE ObjectRefType as_or_throw() &&;

  /*! \brief The object's type index; kTVMFFINone for an empty reference. */
  int32_t type_index() const {
    return data_ == nullptr ? static_cast<int32_t>(TypeIndex::kTVMFFINone) : data_->type_index();
  }
  /*! \brief The object's type key; "None" for an empty reference. */
  std::string GetTypeKey() const {
    return data_ == nullptr ? std::string(StaticTypeKey::kTVMFFINone) : data_->GetTypeKey();
  }

  /*! \brief The object type this reference holds. */
  using ContainerType = Object;
  /*! \brief Any object that is a ContainerType may be held (no narrower rule). */
  static constexpr bool _type_container_is_exact = true;
  /*! \brief May be empty. */
  static constexpr bool _type_is_nullable = true;

 protected:
  /*! \brief The object; the only data member. */
  ObjectPtr<Object> data_;

  /*! \brief The object, without const: for subclasses with mutating methods. */
  Object* get_mutable() const { return data_.get(); }

  friend struct ObjectPtrHash;
  friend struct tvm::ffi::detail::ObjectUnsafe;

 private:
  template <typename ObjectRefType>
  bool ConvertsTo() const;
};

/*!
 * \brief True when a RefType may hold an ObjectType (its container type is a
 *        base of ObjectType and it places no further condition).
 */
template <typename RefType, typename ObjectType,
          typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType> &&
                                      std::is_base_of_v<Object, ObjectType>>>
inline constexpr bool object_ref_contains_v =
    std::is_base_of_v<typename RefType::ContainerType, ObjectType> &&
    RefType::_type_container_is_exact;

/*! \brief Hashes a reference or pointer by the object's address (for unordered containers). */
struct ObjectPtrHash {
  template <typename T>
  size_t operator()(const ObjectPtr<T>& a) const {
    return ByAddress(a.get());
  }
  size_t operator()(const ObjectRef& a) const { return ByAddress(a.get()); }
  template <typename... V>
  TVM_FFI_INLINE size_t operator()(const Variant<V...>& a) const;

 private:
  static size_t ByAddress(const Object* p) { return std::hash<const Object*>()(p); }
};

/*! \brief Compares references or pointers by identity (for unordered containers). */
struct ObjectPtrEqual {
  bool operator()(const ObjectRef& a, const ObjectRef& b) const { return a.same_as(b); }
  template <typename T>
  bool operator()(const ObjectPtr<T>& a, const ObjectPtr<T>& b) const {
    return a == b;
  }
  template <typename... V>
  TVM_FFI_INLINE bool operator()(const Variant<V...>& a, const Variant<V...>& b) const;
};

}  // namespace ffi
}  // namespace tvm

/*!
 * \brief Type information of a class whose index is fixed in advance
 *        (TypeName::_type_index written by hand, a built-in type): the class
 *        is registered under TypeKey on first _GetOrAllocRuntimeTypeIndex().
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_STATIC(TypeKey, TypeName, ParentType)                     \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                         \
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {                            \
    TVM_FFI_OBJECT_INFO_STATIC_CHECKS_(TypeName, ParentType);                                 \
    static int32_t tvm_ffi_registered [[maybe_unused]] =                                      \
        ::tvm::ffi::detail::RegisterObjectType<TypeName>(                                     \
            TypeName::_type_index, ParentType::_GetOrAllocRuntimeTypeIndex());                \
    return TypeName::_type_index;                                                             \
  }                                                                                           \
  TVM_FFI_INLINE static int32_t RuntimeTypeIndex() noexcept { return TypeName::_type_index; } \
  static constexpr const char* _type_key = TypeKey

/*!
 * \brief Type information of a class whose _type_key is already declared:
 *        the runtime allocates its index when the library is loaded.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)                 \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                         \
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {                            \
    TVM_FFI_OBJECT_INFO_STATIC_CHECKS_(TypeName, ParentType);                                 \
    static int32_t tvm_ffi_allocated = ::tvm::ffi::detail::RegisterObjectType<TypeName>(      \
        -1, ParentType::_GetOrAllocRuntimeTypeIndex());                                       \
    return tvm_ffi_allocated;                                                                 \
  }                                                                                           \
  static inline const int32_t _type_index = _GetOrAllocRuntimeTypeIndex();                    \
  TVM_FFI_INLINE static int32_t RuntimeTypeIndex() noexcept { return TypeName::_type_index; }

/*!
 * \brief Type information of an object class registered under TypeKey, a
 *        subclass of ParentType; put it in the class's public section.
 */
#define TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                \
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)

/*! \brief As TVM_FFI_DECLARE_OBJECT_INFO, for a class that has no subclasses. */
#define TVM_FFI_DECLARE_OBJECT_INFO_FINAL(TypeKey, TypeName, ParentType) \
  static const constexpr int _type_child_slots [[maybe_unused]] = 0;     \
  static const constexpr bool _type_final [[maybe_unused]] = true;       \
  TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType)

/*! \brief Compile-time rules every declared object class must follow (internal). */
#define TVM_FFI_OBJECT_INFO_STATIC_CHECKS_(TypeName, ParentType)                                 \
  static_assert(!ParentType::_type_final, "the parent type is declared final");                 \
  static_assert(!ParentType::_type_s_eq_hash_subclass_kind_fixed ||                             \
                    TypeName::_type_s_eq_hash_kind == ParentType::_type_s_eq_hash_kind,         \
                "a subclass must keep the structural equal/hash kind its ancestor fixed");      \
  static_assert(TypeName::_type_child_slots == 0 || ParentType::_type_child_slots == 0 ||       \
                    TypeName::_type_child_slots < ParentType::_type_child_slots,                \
                "_type_child_slots must be below the parent's when the parent reserves slots")

/*! \brief Members shared by the two reference-method macros (internal). */
#define TVM_FFI_OBJECT_REF_COMMON_METHODS_(TypeName, ParentType, ObjectName)                   \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                           \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                        \
  using __PtrType =                                                                            \
      std::conditional_t<ObjectName::_type_mutable, ObjectName*, const ObjectName*>;           \
  __PtrType operator->() const { return static_cast<__PtrType>(data_.get()); }                 \
  __PtrType get() const { return static_cast<__PtrType>(data_.get()); }                        \
  using ContainerType = ObjectName

/*!
 * \brief The constructors and accessors of a reference class TypeName
 *        (subclass of ParentType) that holds ObjectName and may be empty:
 *        default (empty), from ObjectPtr<ObjectName>, copy/move, ->, get().
 */
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TypeName, ParentType, ObjectName)    \
  TypeName() = default;                                                                 \
  explicit TypeName(::tvm::ffi::ObjectPtr<ObjectName> n) : ParentType(std::move(n)) {} \
  [[maybe_unused]] static constexpr bool _type_is_nullable = true;                      \
  TVM_FFI_OBJECT_REF_COMMON_METHODS_(TypeName, ParentType, ObjectName)

/*!
 * \brief As the NULLABLE form, for a reference that is never empty: no
 *        default constructor, and the class writes its own constructors.
 */
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TypeName, ParentType, ObjectName) \
  [[maybe_unused]] static constexpr bool _type_is_nullable = false;                     \
  TVM_FFI_OBJECT_REF_COMMON_METHODS_(TypeName, ParentType, ObjectName)

namespace tvm {
namespace ffi {
namespace detail {

/*!
 * \brief Registers TypeName with the runtime (TVMFFITypeGetOrAllocIndex) and
 *        returns its index: `static_index` for a fixed index, -1 to allocate.
 *        Registering the same key again returns the first index.
 */
template <typename TypeName>
TVM_FFI_COLD_CODE int32_t RegisterObjectType(int32_t static_index, int32_t parent_index) {
  TVMFFIByteArray key{TypeName::_type_key, std::char_traits<char>::length(TypeName::_type_key)};
  return TVMFFITypeGetOrAllocIndex(&key, static_index, TypeName::_type_depth,
                                   static_cast<int32_t>(TypeName::_type_child_slots),
                                   TypeName::_type_child_slots_can_overflow ? 1 : 0,
                                   parent_index);
}

template <typename TargetType>
TVM_FFI_INLINE bool IsObjectInstance(int32_t object_type_index) {
  static_assert(std::is_base_of_v<Object, TargetType>);
  if constexpr (std::is_same_v<std::remove_cv_t<TargetType>, Object>) {
    return true;
  } else if constexpr (TargetType::_type_final) {
    return object_type_index == TargetType::RuntimeTypeIndex();
  } else {
    const int32_t target = TargetType::RuntimeTypeIndex();
    // Subclasses registered in the reserved range [target, target + slots]
    // are decided without a lookup; the others only through the ancestors.
    if (object_type_index == target) return true;
    if constexpr (TargetType::_type_child_slots != 0) {
      if (object_type_index > target &&
          object_type_index <= target + static_cast<int32_t>(TargetType::_type_child_slots)) {
        return true;
      }
    }
    if constexpr (!TargetType::_type_child_slots_can_overflow) {
      return false;
    } else {
      // A subclass is always registered after its parent, so its index is larger.
      if (object_type_index < target) return false;
      const TypeInfo* info = TVMFFIGetTypeInfo(object_type_index);
      return info->type_depth > TargetType::_type_depth &&
             info->type_ancestors[TargetType::_type_depth]->type_index == target;
    }
  }
}

/*!
 * \brief Whether a value of runtime type `actual_type_index` matches the
 *        declared type `target_type_index` (kTVMFFIAny matches everything,
 *        ffi.String and ffi.Bytes match their small forms, object types match
 *        their subclasses).
 */
TVM_FFI_INLINE bool RuntimeTypeIndexMatch(int32_t actual_type_index, int32_t target_type_index) {
  if (actual_type_index == target_type_index || target_type_index == TypeIndex::kTVMFFIAny) {
    return true;
  }
  switch (target_type_index) {
    case TypeIndex::kTVMFFIStr:
      return actual_type_index == TypeIndex::kTVMFFISmallStr;
    case TypeIndex::kTVMFFIBytes:
      return actual_type_index == TypeIndex::kTVMFFISmallBytes;
    case TypeIndex::kTVMFFIObject:
      return actual_type_index >= TypeIndex::kTVMFFIStaticObjectBegin;
    default:
      break;
  }
  if (actual_type_index < target_type_index ||
      target_type_index < TypeIndex::kTVMFFIStaticObjectBegin) {
    return false;
  }
  const TypeInfo* actual = TVMFFIGetTypeInfo(actual_type_index);
  const TypeInfo* target = TVMFFIGetTypeInfo(target_type_index);
  return actual->type_depth > target->type_depth &&
         actual->type_ancestors[target->type_depth]->type_index == target_type_index;
}

/*!
 * \brief The conversions between raw handles, pointers and references that
 *        the headers need and users should not: each states whether it takes
 *        a new reference ("Unowned": it does) or adopts one ("Owned": it does
 *        not, the caller's reference moves in).
 */
struct ObjectUnsafe {
  // ---- headers and handles --------------------------------------------------
  /*! \brief The ABI header of an object. */
  TVM_FFI_INLINE static TVMFFIObject* GetHeader(const Object* src) {
    return const_cast<TVMFFIObject*>(&src->header_);
  }
  /*! \brief The allocator header placed just before an object body. */
  TVM_FFI_INLINE static TVMFFIObjectAllocHeader* GetObjectAllocHeaderFromPtr(void* ptr) {
    return reinterpret_cast<TVMFFIObjectAllocHeader*>(static_cast<char*>(ptr) -
                                                      sizeof(TVMFFIObjectAllocHeader));
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  /*! \brief Offset of the header within Class, relative to its Object base (0 normally). */
  template <typename Class>
  TVM_FFI_INLINE static int64_t GetObjectOffsetToSubclass() {
    return static_cast<int64_t>(offsetof(Class, header_)) -
           static_cast<int64_t>(offsetof(Object, header_));
  }
#pragma GCC diagnostic pop
  /*! \brief The object behind a header, as a T*, no reference taken. */
  template <typename T>
  TVM_FFI_INLINE static T* RawObjectPtrFromUnowned(TVMFFIObject* obj_ptr) {
    // Through Object* first: the header sits at the Object base, which need
    // not be where a T* points.
    return static_cast<T*>(BodyOf(obj_ptr));
  }
  /*! \brief Adds one strong reference to a handle (NULL is a no-op). */
  TVM_FFI_INLINE static void IncRefObjectHandle(TVMFFIObjectHandle handle) {
    if (Object* body = static_cast<Object*>(handle)) body->IncRef();
  }
  /*! \brief Drops one strong reference of a handle (NULL is a no-op). */
  TVM_FFI_INLINE static void DecRefObjectHandle(TVMFFIObjectHandle handle) {
    if (Object* body = static_cast<Object*>(handle)) body->DecRef();
  }

  // ---- raw pointers to ObjectPtr ---------------------------------------------
  // "Owned": the caller's reference moves into the result.  "Unowned": the
  // result takes a reference of its own.
  template <typename T>
  TVM_FFI_INLINE static ObjectPtr<T> ObjectPtrFromOwned(Object* raw_ptr) {
    ObjectPtr<T> adopted;
    adopted.data_ = raw_ptr;
    return adopted;
  }
  template <typename T>
  TVM_FFI_INLINE static ObjectPtr<T> ObjectPtrFromOwned(TVMFFIObject* obj_ptr) {
    return ObjectPtrFromOwned<T>(BodyOf(obj_ptr));
  }
  template <typename T>
  TVM_FFI_INLINE static ObjectPtr<T> ObjectPtrFromUnowned(Object* raw_ptr) {
    return ObjectPtr<T>(raw_ptr);
  }
  template <typename T>
  TVM_FFI_INLINE static ObjectPtr<T> ObjectPtrFromUnowned(TVMFFIObject* obj_ptr) {
    return ObjectPtr<T>(BodyOf(obj_ptr));
  }
  template <typename T>
  TVM_FFI_INLINE static Arc<T> ArcFromObjectPtr(ObjectPtr<T>&& ptr) {
    return Arc<T>(std::move(ptr));
  }

  // ---- between ObjectRef and ObjectPtr (no check of the object's type) -------
  template <typename T>
  TVM_FFI_INLINE static T ObjectRefFromObjectPtr(ObjectPtr<Object>&& ptr) {
    T ref(UnsafeInit{});
    ref.data_ = std::move(ptr);
    return ref;
  }
  template <typename T>
  TVM_FFI_INLINE static T ObjectRefFromObjectPtr(const ObjectPtr<Object>& ptr) {
    return ObjectRefFromObjectPtr<T>(ObjectPtr<Object>(ptr));
  }
  template <typename T>
  TVM_FFI_INLINE static ObjectPtr<T> ObjectPtrFromObjectRef(const ObjectRef& ref) {
    return ObjectPtr<T>(ref.data_.data_);
  }
  template <typename T>
  TVM_FFI_INLINE static ObjectPtr<T> ObjectPtrFromObjectRef(ObjectRef&& ref) {
    return ObjectPtrFromOwned<T>(std::exchange(ref.data_.data_, nullptr));
  }
  TVM_FFI_INLINE static Object* RawObjectPtrFromObjectRef(const ObjectRef& src) {
    return src.data_.data_;
  }

  // ---- out to raw headers -----------------------------------------------------
  TVM_FFI_INLINE static TVMFFIObject* TVMFFIObjectPtrFromObjectRef(const ObjectRef& src) {
    return HeaderOrNull(src.data_.data_);
  }
  template <typename T>
  TVM_FFI_INLINE static TVMFFIObject* TVMFFIObjectPtrFromObjectPtr(const ObjectPtr<T>& src) {
    return HeaderOrNull(src.data_);
  }
  /*! \brief Releases the pointer's reference to the caller as a raw header. */
  template <typename T>
  TVM_FFI_INLINE static TVMFFIObject* MoveObjectPtrToTVMFFIObjectPtr(ObjectPtr<T>&& src) {
    return HeaderOrNull(std::exchange(src.data_, nullptr));
  }
  TVM_FFI_INLINE static TVMFFIObject* MoveObjectRefToTVMFFIObjectPtr(ObjectRef&& src) {
    return MoveObjectPtrToTVMFFIObjectPtr(std::move(src.data_));
  }

 private:
  TVM_FFI_INLINE static Object* BodyOf(TVMFFIObject* header) {
    return reinterpret_cast<Object*>(header);
  }
  TVM_FFI_INLINE static TVMFFIObject* HeaderOrNull(const Object* body) {
    return body == nullptr ? nullptr : GetHeader(body);
  }
};

/*! \brief Writes an object header into `result` as an object value (no reference taken). */
TVM_FFI_INLINE void WriteObjectToAny(TVMFFIObject* obj, TVMFFIAny* result) {
  result->type_index = obj->type_index;
  result->zero_padding = 0;
  TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result);
  result->v_obj = obj;
}

/*! \brief True when `src` holds an object that is a TObject. */
template <typename TObject>
TVM_FFI_INLINE bool AnyHoldsObjectOf(const TVMFFIAny* src) {
  return src->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
         IsObjectInstance<TObject>(src->type_index);
}

}  // namespace detail

template <typename ObjectRefType>
bool ObjectRef::ConvertsTo() const {
  if (data_ == nullptr) return ObjectRefType::_type_is_nullable;
  TVMFFIAny view;
  detail::WriteObjectToAny(detail::ObjectUnsafe::GetHeader(data_.get()), &view);
  return TypeTraits<ObjectRefType>::CheckAnyStrict(&view);
}

namespace detail {
/*! \brief True for an unqualified object type (what ObjectPtr and Arc may point to here). */
template <typename TObject>
inline constexpr bool is_plain_object_v =
    is_object_subclass_v<TObject> && std::is_same_v<TObject, std::remove_cv_t<TObject>>;
}  // namespace detail

/*! \brief The run-time index of a reference type is its container's. */
template <typename T>
struct TypeToRuntimeTypeIndex<T, std::enable_if_t<std::is_base_of_v<ObjectRef, T>>> {
  static int32_t v() { return T::ContainerType::RuntimeTypeIndex(); }
};
/*! \brief ... and that of an object pointer its pointee's. */
template <typename TObject>
struct TypeToRuntimeTypeIndex<Arc<TObject>, std::enable_if_t<detail::is_plain_object_v<TObject>>> {
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};
template <typename TObject>
struct TypeToRuntimeTypeIndex<ObjectPtr<TObject>,
                              std::enable_if_t<detail::is_plain_object_v<TObject>>> {
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};

/*! \brief ObjectPtr<T>: an object that is a T, or None (a null pointer). */
template <typename TObject>
struct TypeTraits<ObjectPtr<TObject>, std::enable_if_t<detail::is_plain_object_v<TObject>>>
    : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;

  TVM_FFI_INLINE static void CopyToAnyView(const ObjectPtr<TObject>& src, TVMFFIAny* result) {
    TVMFFIObject* obj = detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectPtr(src);
    if (obj == nullptr) return TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    detail::WriteObjectToAny(obj, result);
  }
  TVM_FFI_INLINE static void MoveToAny(ObjectPtr<TObject> src, TVMFFIAny* result) {
    TVMFFIObject* obj = detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(src));
    if (obj == nullptr) return TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    detail::WriteObjectToAny(obj, result);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || detail::AnyHoldsObjectOf<TObject>(src);
  }
  TVM_FFI_INLINE static ObjectPtr<TObject> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return nullptr;
    return detail::ObjectUnsafe::ObjectPtrFromUnowned<TObject>(src->v_obj);
  }
  TVM_FFI_INLINE static ObjectPtr<TObject> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return nullptr;
    ObjectPtr<TObject> taken = detail::ObjectUnsafe::ObjectPtrFromOwned<TObject>(src->v_obj);
    TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, src);
    return taken;
  }
  TVM_FFI_INLINE static std::optional<ObjectPtr<TObject>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return TObject::_type_key; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return std::string("{\"type\":\"Optional\",\"args\":[") +
           detail::PlainTypeSchema(TObject::_type_key) + "]}";
  }
};

/*! \brief Arc<T>: an object that is a T; None does not convert. */
template <typename TObject>
struct TypeTraits<Arc<TObject>, std::enable_if_t<detail::is_plain_object_v<TObject>>>
    : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  using PtrTraits = TypeTraits<ObjectPtr<TObject>>;

  TVM_FFI_INLINE static void CopyToAnyView(const Arc<TObject>& src, TVMFFIAny* result) {
    PtrTraits::CopyToAnyView(src, result);
  }
  TVM_FFI_INLINE static void MoveToAny(Arc<TObject> src, TVMFFIAny* result) {
    PtrTraits::MoveToAny(std::move(src), result);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return detail::AnyHoldsObjectOf<TObject>(src);
  }
  TVM_FFI_INLINE static Arc<TObject> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return detail::ObjectUnsafe::ArcFromObjectPtr(PtrTraits::CopyFromAnyViewAfterCheck(src));
  }
  TVM_FFI_INLINE static Arc<TObject> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return detail::ObjectUnsafe::ArcFromObjectPtr(PtrTraits::MoveFromAnyAfterCheck(src));
  }
  TVM_FFI_INLINE static std::optional<Arc<TObject>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return TObject::_type_key; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(TObject::_type_key);
  }
};

/*!
 * \brief Traits of a reference type: an object that is a ContainerType, or
 *        None when the reference is nullable.
 */
template <typename TObjRef>
struct ObjectRefTypeTraitsBase : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  using ContainerType = typename TObjRef::ContainerType;

  TVM_FFI_INLINE static void CopyToAnyView(const TObjRef& src, TVMFFIAny* result) {
    TVMFFIObject* obj = detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(src);
    if (obj == nullptr) return TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    detail::WriteObjectToAny(obj, result);
  }
  TVM_FFI_INLINE static void MoveToAny(TObjRef src, TVMFFIAny* result) {
    TVMFFIObject* obj = detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(src));
    if (obj == nullptr) return TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, result);
    detail::WriteObjectToAny(obj, result);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (TObjRef::_type_is_nullable && src->type_index == TypeIndex::kTVMFFINone) return true;
    return detail::AnyHoldsObjectOf<ContainerType>(src);
  }
  TVM_FFI_INLINE static TObjRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    ObjectPtr<Object> ptr;
    if (src->type_index != TypeIndex::kTVMFFINone) {
      ptr = detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(src->v_obj);
    }
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(std::move(ptr));
  }
  TVM_FFI_INLINE static TObjRef MoveFromAnyAfterCheck(TVMFFIAny* src) {
    ObjectPtr<Object> ptr;
    if (src->type_index != TypeIndex::kTVMFFINone) {
      ptr = detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(src->v_obj);
      TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, src);
    }
    return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(std::move(ptr));
  }
  TVM_FFI_INLINE static std::optional<TObjRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!TypeTraits<TObjRef>::CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return ContainerType::_type_key; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(ContainerType::_type_key);
  }
};

template <typename TObjRef>
struct TypeTraits<TObjRef, std::enable_if_t<std::is_base_of_v<ObjectRef, TObjRef> &&
                                            use_default_type_traits_v<TObjRef>>>
    : public ObjectRefTypeTraitsBase<TObjRef> {};

/*!
 * \brief Traits of a reference type that also converts from other types:
 *        when the value is not the reference type itself, each FallbackType
 *        is tried in order and converted by TypeTraits<T>::ConvertFallbackValue.
 */
template <typename ObjectRefType, typename... FallbackTypes>
struct ObjectRefWithFallbackTraitsBase : public ObjectRefTypeTraitsBase<ObjectRefType> {
  TVM_FFI_INLINE static std::optional<ObjectRefType> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<ObjectRefType> exact = ObjectRefTypeTraitsBase<ObjectRefType>::TryCastFromAnyView(src);
    if (exact.has_value()) return exact;
    return FallbackOnlyTraitsBase<ObjectRefType, FallbackTypes...>::TryCastFromAnyView(src);
  }
  template <typename FallbackType, typename... Rest>
  TVM_FFI_INLINE static std::optional<ObjectRefType> TryFallbackTypes(const TVMFFIAny* src) {
    return FallbackOnlyTraitsBase<ObjectRefType, FallbackTypes...>::template TryFallbackTypes<
        FallbackType, Rest...>(src);
  }
};

/*!
 * \brief A raw object pointer: a view of an object that is a TObject (no
 *        None).  Converting from an Any needs a mutable type (or const TObject).
 */
template <typename TObject>
struct TypeTraits<TObject*, std::enable_if_t<std::is_base_of_v<Object, TObject>>>
    : public TypeTraitsBase {
  TVM_FFI_INLINE static void CopyToAnyView(TObject* src, TVMFFIAny* result) {
    detail::WriteObjectToAny(detail::ObjectUnsafe::GetHeader(src), result);
  }
  /*! \brief Writes an owning value: takes a new reference. */
  TVM_FFI_INLINE static void MoveToAny(TObject* src, TVMFFIAny* result) {
    CopyToAnyView(src, result);
    detail::ObjectUnsafe::IncRefObjectHandle(result->v_obj);
  }
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return detail::AnyHoldsObjectOf<TObject>(src);
  }
  TVM_FFI_INLINE static TObject* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    static_assert(std::is_const_v<TObject> || TObject::_type_mutable,
                  "a non-const pointer is only read from an Any for a mutable object type");
    return detail::ObjectUnsafe::RawObjectPtrFromUnowned<TObject>(src->v_obj);
  }
  TVM_FFI_INLINE static std::optional<TObject*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  TVM_FFI_INLINE static std::string TypeStr() { return TObject::_type_key; }
  TVM_FFI_INLINE static std::string TypeSchema() {
    return detail::PlainTypeSchema(TObject::_type_key);
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_OBJECT_H_

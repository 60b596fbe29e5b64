// Objects: the 24-byte header, reference counting, allocation and smart pointers.
#ifndef TVM_FFI_CORE_IMPL_OBJECT_H_
#define TVM_FFI_CORE_IMPL_OBJECT_H_

#include <tvm/ffi/c_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// Everything in this header is inline and uses only the exported C ABI, so
// code outside the library (tests, the testing library, extensions) can use
// it while linking nothing but libtvm_ffi.

// Base of every object made by this library.  The TVMFFIObject header is the
// first (and only) member, so an Object* is a TVMFFIObjectHandle.  Subclasses
// append their cell right after it; there are no virtual functions, so no
// vtable moves the header.
//
// A subclass declares:
//   static constexpr const char* kTypeKey = "ns.Name";
//   static int32_t RuntimeTypeIndex();       // from TVMFFI_DECLARE_*_TYPE below
class Object {
 public:
  TVMFFIObject header_;

  int32_t type_index() const { return header_.type_index; }
  TVMFFIObjectHandle handle() const {
    return const_cast<TVMFFIObject*>(&header_);
  }
  static Object* FromHandle(TVMFFIObjectHandle h) { return reinterpret_cast<Object*>(h); }

  uint32_t use_count() const {
    return static_cast<uint32_t>(RefWord().load(std::memory_order_relaxed) & 0xFFFFFFFFu);
  }
  uint32_t weak_count() const {
    return static_cast<uint32_t>(RefWord().load(std::memory_order_relaxed) >> 32);
  }

  // The reference protocol of the ABI (bit-exact with other implementations).
  static void IncRef(TVMFFIObject* h) {
    AsAtomic(h).fetch_add(1, std::memory_order_relaxed);
  }
  // The object dies through ReleaseDead (below), never by calling its
  // deleter directly: a container's deleter releases its elements through
  // DecRef again, and ReleaseDead bounds how deep that nests.
  //
  // The last decrement must see every write other threads made before their
  // own (release) decrements: an acquire load of the word after it does
  // that (it reads from the release sequence of those decrements), as a
  // fence would, but in a form ThreadSanitizer understands.
  static void DecRef(TVMFFIObject* h) {
    std::atomic<uint64_t>& word = AsAtomic(h);
    uint64_t before = word.fetch_sub(1, std::memory_order_release);
    if (before == kInitialCount) {
      (void)word.load(std::memory_order_acquire);
      ReleaseDead(h, kTVMFFIObjectDeleterFlagBitMaskBoth);
    } else if ((before & 0xFFFFFFFFu) == 1) {
      (void)word.load(std::memory_order_acquire);
      ReleaseDead(h, kTVMFFIObjectDeleterFlagBitMaskStrong);
    }
  }
  static void IncWeakRef(TVMFFIObject* h) {
    AsAtomic(h).fetch_add(kWeakOne, std::memory_order_relaxed);
  }
  static void DecWeakRef(TVMFFIObject* h) {
    std::atomic<uint64_t>& word = AsAtomic(h);
    if (word.fetch_sub(kWeakOne, std::memory_order_release) == kWeakOne) {
      (void)word.load(std::memory_order_acquire);  // as in DecRef
      CallDeleter(h, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }
  // Adds a strong reference if the object is still alive.
  static bool TryPromoteWeak(TVMFFIObject* h) {
    std::atomic<uint64_t>& word = AsAtomic(h);
    uint64_t cur = word.load(std::memory_order_relaxed);
    while ((cur & 0xFFFFFFFFu) != 0) {
      if (word.compare_exchange_weak(cur, cur + 1, std::memory_order_acq_rel,
                                     std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

  // Whether this object's type is `target_index` or derives from it.
  bool IsInstanceIndex(int32_t target_index) const {
    int32_t self = header_.type_index;
    if (self == target_index || target_index == kTVMFFIObject) return true;
    if (self < target_index) return false;  // children always get larger indices
    const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(target_index);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(self);
    if (target == nullptr || info == nullptr) return false;
    if (info->type_depth <= target->type_depth) return false;
    return info->type_ancestors[target->type_depth]->type_index == target_index;
  }

  static constexpr uint64_t kWeakOne = uint64_t(1) << 32;
  static constexpr uint64_t kInitialCount = kWeakOne | 1u;

  // How many object deaths may nest on one thread's stack before further
  // ones are deferred (see ReleaseDead).
  static constexpr int32_t kMaxReleaseDepth = 64;

  // Destroys an object whose last strong reference is gone: `flags` is
  // kTVMFFIObjectDeleterFlagBitMaskBoth (no weak reference left either: the
  // deleter destroys and frees) or ...Strong (the deleter destroys, then the
  // weak reference the strong side held is dropped).
  //
  // Deleting an object releases what it holds, which may kill more objects
  // from inside this call: a chain of a million nested arrays would nest a
  // million deleters.  So, as CPython's trashcan does, a thread that is
  // already kMaxReleaseDepth deaths deep does not run the deleter: it queues
  // the object on a per-thread list, and the outermost ReleaseDead on the
  // stack runs the queued deleters (each starting at depth 1 again) before it
  // returns.  Every object is therefore destroyed exactly once, on the thread
  // that dropped its last reference, before the outermost DecRef returns, and
  // the stack holds at most kMaxReleaseDepth nested deleters per copy of this
  // code (each library built with these headers has its own counter).
  //
  // The depth counter and queue are a thread_local POD: no constructor, no
  // destructor, so they work during thread exit too.  If the queue cannot
  // grow (out of memory) the deleter runs at once, as if there were no limit.
  static void ReleaseDead(TVMFFIObject* h, int flags) {
    ReleaseState& st = release_state_;
    if (st.depth >= kMaxReleaseDepth && Defer(st, h, flags)) return;
    ++st.depth;
    Destroy(h, flags);
    if (st.depth == 1 && st.size != 0) DrainDeferred(st);
    --st.depth;
  }

  // The depth of nested deaths on this thread (0 outside any deleter), and
  // how many are queued; for tests.
  static int32_t release_depth() { return release_state_.depth; }
  static size_t deferred_release_count() { return release_state_.size; }

 protected:
  static void CallDeleter(TVMFFIObject* h, int flags) {
    void (*deleter)(void*, int) = TVM_FFI_OBJECT_DELETER(h);
    if (deleter != nullptr) deleter(h, flags);
  }

  Object() = default;
  ~Object() = default;

 private:
  struct DeferredDeath {
    TVMFFIObject* object;
    int flags;
  };
  struct ReleaseState {
    int32_t depth;
    size_t size;
    size_t capacity;
    DeferredDeath* items;
  };
  // Zero-initialised and trivially destructible: no TLS guard, no TLS destructor.
  static inline thread_local ReleaseState release_state_{};

  static void Destroy(TVMFFIObject* h, int flags) {
    CallDeleter(h, flags);
    if (flags == kTVMFFIObjectDeleterFlagBitMaskStrong) DecWeakRef(h);
  }
  // Queues a death; false when the queue cannot grow.
  static bool Defer(ReleaseState& st, TVMFFIObject* h, int flags) {
    if (st.size == st.capacity) {
      size_t cap = st.capacity == 0 ? 16 : st.capacity * 2;
      void* grown = std::realloc(st.items, cap * sizeof(DeferredDeath));
      if (grown == nullptr) return false;
      st.items = static_cast<DeferredDeath*>(grown);
      st.capacity = cap;
    }
    st.items[st.size++] = DeferredDeath{h, flags};
    return true;
  }
  // Runs the queued deaths (and those they queue) at depth 1, then frees the
  // queue so an idle thread holds no memory.
  static void DrainDeferred(ReleaseState& st) {
    while (st.size != 0) {
      DeferredDeath d = st.items[--st.size];
      Destroy(d.object, d.flags);
    }
    std::free(st.items);
    st.items = nullptr;
    st.capacity = 0;
  }

  static std::atomic<uint64_t>& AsAtomic(TVMFFIObject* h) {
    static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t), "atomic layout");
    return *reinterpret_cast<std::atomic<uint64_t>*>(&h->combined_ref_count);
  }
  const std::atomic<uint64_t>& RefWord() const {
    return *reinterpret_cast<const std::atomic<uint64_t>*>(&header_.combined_ref_count);
  }
};

static_assert(sizeof(Object) == sizeof(TVMFFIObject), "Object is exactly the header");

namespace detail {

// Storage of objects made here: one malloc block (posix_memalign for
// over-aligned types), released by the deleter that was stored at creation.
inline void* AllocObjectStorage(size_t size, size_t alignment) {
  void* mem = nullptr;
  if (alignment <= alignof(std::max_align_t)) {
    mem = std::malloc(size);
  } else if (posix_memalign(&mem, alignment, size) != 0) {
    mem = nullptr;
  }
  if (mem == nullptr) throw std::bad_alloc();
  return mem;
}
inline void FreeObjectStorage(void* ptr) { std::free(ptr); }

template <typename T>
void ObjectDeleter(void* self, int flags) {
  T* obj = static_cast<T*>(reinterpret_cast<Object*>(self));
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) obj->~T();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(static_cast<void*>(obj));
}

}  // namespace detail

template <typename T>
class ObjectPtr;

// Makes a T with `extra_bytes` of trailing storage (for inline arrays).
template <typename T, typename... Args>
ObjectPtr<T> MakeObjectWithExtra(size_t extra_bytes, Args&&... args);

template <typename T, typename... Args>
ObjectPtr<T> MakeObject(Args&&... args) {
  return MakeObjectWithExtra<T>(0, std::forward<Args>(args)...);
}

// Intrusive strong pointer.  Null or one strong reference.
template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() noexcept = default;
  ObjectPtr(std::nullptr_t) noexcept {}  // NOLINT(runtime/explicit)
  ObjectPtr(const ObjectPtr& other) noexcept : ptr_(other.ptr_) { Retain(); }
  ObjectPtr(ObjectPtr&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of<T, U>::value>>
  ObjectPtr(const ObjectPtr<U>& other) noexcept : ptr_(other.get()) {  // NOLINT
    Retain();
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of<T, U>::value>>
  ObjectPtr(ObjectPtr<U>&& other) noexcept : ptr_(other.release()) {}  // NOLINT
  ~ObjectPtr() { Reset(); }

  ObjectPtr& operator=(ObjectPtr other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  // Adopts an existing strong reference (no increment).
  static ObjectPtr Adopt(T* ptr) noexcept {
    ObjectPtr p;
    p.ptr_ = ptr;
    return p;
  }
  // Adds a reference to a borrowed pointer.
  static ObjectPtr Borrow(T* ptr) noexcept {
    ObjectPtr p;
    p.ptr_ = ptr;
    p.Retain();
    return p;
  }
  static ObjectPtr AdoptHandle(TVMFFIObjectHandle h) noexcept {
    return Adopt(static_cast<T*>(Object::FromHandle(h)));
  }
  static ObjectPtr BorrowHandle(TVMFFIObjectHandle h) noexcept {
    return Borrow(static_cast<T*>(Object::FromHandle(h)));
  }

  T* get() const noexcept { return ptr_; }
  T* operator->() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }
  bool operator==(std::nullptr_t) const noexcept { return ptr_ == nullptr; }
  bool operator!=(std::nullptr_t) const noexcept { return ptr_ != nullptr; }
  template <typename U>
  bool operator==(const ObjectPtr<U>& o) const noexcept {
    return static_cast<const void*>(ptr_) == static_cast<const void*>(o.get());
  }

  // Gives up the reference without releasing it.
  T* release() noexcept {
    T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }
  TVMFFIObjectHandle release_handle() noexcept {
    T* p = release();
    return p == nullptr ? nullptr : static_cast<Object*>(p)->handle();
  }
  void Reset() noexcept {
    if (ptr_ != nullptr) {
      Object::DecRef(&static_cast<Object*>(ptr_)->header_);
      ptr_ = nullptr;
    }
  }
  uint32_t use_count() const noexcept { return ptr_ == nullptr ? 0 : ptr_->use_count(); }

 private:
  void Retain() noexcept {
    if (ptr_ != nullptr) Object::IncRef(&static_cast<Object*>(ptr_)->header_);
  }
  T* ptr_ = nullptr;
};

template <typename T, typename... Args>
ObjectPtr<T> MakeObjectWithExtra(size_t extra_bytes, Args&&... args) {
  static_assert(std::is_base_of<Object, T>::value, "T must derive from Object");
  void* mem = detail::AllocObjectStorage(sizeof(T) + extra_bytes, alignof(T));
  T* obj;
  try {
    obj = new (mem) T(std::forward<Args>(args)...);
  } catch (...) {
    detail::FreeObjectStorage(mem);
    throw;
  }
  Object* base = obj;
  base->header_.combined_ref_count = Object::kInitialCount;
  base->header_.type_index = T::RuntimeTypeIndex();
  base->header_.zero_padding = 0;
  TVM_FFI_OBJECT_DELETER(&base->header_) = &detail::ObjectDeleter<T>;
  return ObjectPtr<T>::Adopt(obj);
}

// A nullable reference to an object of (at least) type ObjectType.
class PlainObject;

class ObjectRef {
 public:
  using ContainerType = PlainObject;
  ObjectRef() = default;
  explicit ObjectRef(ObjectPtr<Object> data) : data_(std::move(data)) {}

  bool defined() const { return data_ != nullptr; }
  const Object* get() const { return data_.get(); }
  Object* get_mutable() const { return data_.get(); }
  TVMFFIObjectHandle handle() const { return data_ ? data_->handle() : nullptr; }
  int32_t type_index() const { return data_ ? data_->type_index() : kTVMFFINone; }
  uint32_t use_count() const { return data_.use_count(); }
  bool same_as(const ObjectRef& other) const { return data_.get() == other.data_.get(); }
  const ObjectPtr<Object>& data() const { return data_; }
  ObjectPtr<Object> MoveData() && { return std::move(data_); }

 protected:
  ObjectPtr<Object> data_;
};

// Declares the type information a class needs.  Use inside the class body.
//   TVM_FFI_IMPL_DECLARE_STATIC_TYPE(StringObj, kTVMFFIStr, "ffi.String")
//   TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(FooObj, "testing.Foo", ParentObj)
// The constants are [[maybe_unused]]: a class in an unnamed namespace that
// never reads them would otherwise be a clang warning.
#define TVM_FFI_IMPL_DECLARE_STATIC_TYPE(Class, index, key)                \
  [[maybe_unused]] static constexpr const char* kTypeKey = key;      \
  [[maybe_unused]] static constexpr int32_t kStaticTypeIndex = index; \
  static int32_t RuntimeTypeIndex() { return index; }

#define TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(Class, key, Parent)                                  \
  [[maybe_unused]] static constexpr const char* kTypeKey = key;                          \
  static int32_t RuntimeTypeIndex() {                                                    \
    static const int32_t index = ::tvm::ffi::detail::impl::RegisterDynamicType(                    \
        key, Parent::RuntimeTypeIndex());                                                \
    return index;                                                                        \
  }

// Registers (or finds) a dynamic object type under `key` as a child of
// `parent_index` through the C ABI; throws Error (error.h) when refused.
int32_t RegisterDynamicType(const char* key, int32_t parent_index);

// ffi.Object itself: a bare header, used for sentinels.
class PlainObject : public Object {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(PlainObject, kTVMFFIObject, "ffi.Object")
};

template <typename T>
inline const T* ObjectAs(const Object* obj) {
  return obj != nullptr && obj->IsInstanceIndex(T::RuntimeTypeIndex())
             ? static_cast<const T*>(obj)
             : nullptr;
}

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_OBJECT_H_

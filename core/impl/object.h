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

#include "../object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// The reference counting is core/object_internal.h's (object.cc): this
// layer forwards to it, so one implementation remains while unported files
// still use these classes.

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

  // The reference protocol of the ABI: core/object_internal.h is the one
  // implementation (deaths nested too deep are deferred there).
  static void IncRef(TVMFFIObject* h) { core::ObjectIncRef(h); }
  static void DecRef(TVMFFIObject* h) { core::ObjectDecRef(h); }
  static void IncWeakRef(TVMFFIObject* h) { core::ObjectIncWeakRef(h); }
  static void DecWeakRef(TVMFFIObject* h) { core::ObjectDecWeakRef(h); }
  // Adds a strong reference if the object is still alive.
  static bool TryPromoteWeak(TVMFFIObject* h) { return core::ObjectTryPromoteWeak(h); }

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

 protected:
  Object() = default;
  ~Object() = default;

 private:
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
#define TVM_FFI_IMPL_DECLARE_STATIC_TYPE(Class, index, key)           \
  [[maybe_unused]] static constexpr const char* kTypeKey = key;       \
  [[maybe_unused]] static constexpr int32_t kStaticTypeIndex = index; \
  static int32_t RuntimeTypeIndex() { return index; }

#define TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(Class, key, Parent)                   \
  [[maybe_unused]] static constexpr const char* kTypeKey = key;                 \
  static int32_t RuntimeTypeIndex() {                                           \
    static const int32_t index = ::tvm::ffi::detail::impl::RegisterDynamicType( \
        key, Parent::RuntimeTypeIndex());                                       \
    return index;                                                               \
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

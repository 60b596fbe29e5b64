/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/memory.h
 * \brief Making objects: make_object, make_arc, make_inplace_array_object.
 *
 * The object's memory comes from malloc (posix_memalign above the default
 * alignment) in the code that calls make_object, and the header's deleter is
 * a function of that same code: any library may free an object made by any
 * other, because freeing always goes through the deleter.
 */
#ifndef TVM_FFI_MEMORY_H_
#define TVM_FFI_MEMORY_H_

#include <tvm/ffi/object.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

namespace detail {

/*!
 * \brief `size` bytes aligned to `align` (a power of two).
 * \throws std::bad_alloc when the memory is not available.
 */
TVM_FFI_INLINE void* AlignedAlloc(size_t size, size_t align) {
  void* ptr = nullptr;
  if (align <= alignof(std::max_align_t)) {
    ptr = std::malloc(size);
  } else if (posix_memalign(&ptr, align, size) != 0) {
    ptr = nullptr;
  }
  if (ptr == nullptr) throw std::bad_alloc();
  return ptr;
}

/*! \brief Frees memory from AlignedAlloc. */
TVM_FFI_INLINE void AlignedFree(void* data) noexcept { std::free(data); }
}  // namespace detail

/*! \brief The deleter stored in an object header (see TVMFFIObjectDeleterFlagBitMask). */
using FObjectDeleter = void (*)(void* obj, int flags);

namespace detail {

/*!
 * \brief The deleter of objects made by SimpleObjAllocator: the Strong flag
 *        runs T's destructor (T::~T exactly, never a virtual one), the Weak
 *        flag frees the memory.
 *
 * The block's start is found from T's layout, not by casting the object: a
 * weak-only call comes after the destructor ran, and a downcast of a destroyed
 * polymorphic object is undefined (UBSan's vptr check reports it).
 */
template <typename T>
void SimpleObjDeleter(void* header, int flags) {
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) != 0) {
    T* live = ObjectUnsafe::RawObjectPtrFromUnowned<T>(static_cast<TVMFFIObject*>(header));
    live->T::~T();
  }
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskWeak) != 0) {
    AlignedFree(static_cast<char*>(header) - ObjectUnsafe::GetObjectOffsetToSubclass<T>());
  }
}

/*!
 * \brief Base of object allocators (CRTP): constructs with the Derived
 *        allocator's Handler<T> (or ArrayHandler<T, Elem>) and fills in the
 *        header: both counts one, the class's type index, the handler's deleter.
 */
template <typename Derived>
class ObjAllocatorBase {
 public:
  /*! \brief A new T made from `args`. */
  template <typename T, typename... Args>
  ObjectPtr<T> make_object(Args&&... args) {
    static_assert(std::is_base_of_v<Object, T>, "make_object makes only subclasses of Object");
    using Handler = typename Derived::template Handler<T>;
    T* obj = Handler::New(static_cast<Derived*>(this), std::forward<Args>(args)...);
    return Adopt<T>(obj, Handler::Deleter());
  }

  /*! \brief A new ArrayType followed in memory by room for `num_elems` ElemType. */
  template <typename ArrayType, typename ElemType, typename... Args>
  ObjectPtr<ArrayType> make_inplace_array(size_t num_elems, Args&&... args) {
    static_assert(std::is_base_of_v<Object, ArrayType>,
                  "make_inplace_array makes only subclasses of Object");
    using Handler = typename Derived::template ArrayHandler<ArrayType, ElemType>;
    ArrayType* obj =
        Handler::New(static_cast<Derived*>(this), num_elems, std::forward<Args>(args)...);
    return Adopt<ArrayType>(obj, Handler::Deleter());
  }

 private:
  ObjAllocatorBase() = default;
  friend Derived;

  template <typename T>
  static ObjectPtr<T> Adopt(T* obj, FObjectDeleter deleter) {
    TVMFFIObject* header = ObjectUnsafe::GetHeader(obj);
    header->combined_ref_count = kCombinedRefCountBothOne;
    header->type_index = T::RuntimeTypeIndex();
    header->zero_padding = 0;
    header->deleter = deleter;
    return ObjectUnsafe::ObjectPtrFromOwned<T>(static_cast<Object*>(obj));
  }
};

/*! \brief The default allocator: one malloc per object, freed by SimpleObjDeleter. */
class SimpleObjAllocator : public ObjAllocatorBase<SimpleObjAllocator> {
 public:
  /*! \brief Constructs T in fresh memory; the memory is freed if the constructor throws. */
  template <typename T>
  struct Handler {
    static FObjectDeleter Deleter() { return SimpleObjDeleter<T>; }
    template <typename... Args>
    static T* New(SimpleObjAllocator*, Args&&... args) {
      void* memory = AlignedAlloc(sizeof(T), alignof(T));
      return Construct<T>(memory, std::forward<Args>(args)...);
    }
  };

  /*!
   * \brief As Handler, with room for `num_elems` ElemType after the object
   *        (the object constructs them; the size is rounded up to the
   *        object's alignment).
   */
  template <typename ArrayType, typename ElemType>
  struct ArrayHandler {
    static FObjectDeleter Deleter() { return SimpleObjDeleter<ArrayType>; }
    template <typename... Args>
    static ArrayType* New(SimpleObjAllocator*, size_t num_elems, Args&&... args) {
      static_assert(alignof(ArrayType) % alignof(ElemType) == 0 &&
                        sizeof(ArrayType) % alignof(ElemType) == 0,
                    "elements must be aligned when placed right after the object");
      constexpr size_t align = alignof(ArrayType);
      size_t bytes = sizeof(ArrayType) + sizeof(ElemType) * num_elems;
      bytes = (bytes + align - 1) / align * align;
      return Construct<ArrayType>(AlignedAlloc(bytes, align), std::forward<Args>(args)...);
    }
  };

 private:
  template <typename T, typename... Args>
  static T* Construct(void* memory, Args&&... args) {
    try {
      return new (memory) T(std::forward<Args>(args)...);
    } catch (...) {
      AlignedFree(memory);
      throw;
    }
  }
};

}  // namespace detail

/*!
 * \brief A new ArrayType with room for `num_elems` ElemType right after it
 *        in the same allocation (how Array and Shape store their elements).
 */
template <typename ArrayType, typename ElemType, typename... Args>
inline ObjectPtr<ArrayType> make_inplace_array_object(size_t num_elems, Args&&... args) {
  detail::SimpleObjAllocator allocator;
  return allocator.make_inplace_array<ArrayType, ElemType>(num_elems,
                                                           std::forward<Args>(args)...);
}

/*!
 * \brief A new object of type T constructed from `args`, with one strong
 *        reference (the returned pointer).
 */
template <typename T, typename... Args>
inline ObjectPtr<T> make_object(Args&&... args) {
  detail::SimpleObjAllocator allocator;
  return allocator.make_object<T>(std::forward<Args>(args)...);
}

/*! \brief As make_object, returned as a never-null Arc. */
template <typename T, typename... Args>
inline Arc<T> make_arc(Args&&... args) {
  ObjectPtr<T> made = make_object<T>(std::forward<Args>(args)...);
  return detail::ObjectUnsafe::ArcFromObjectPtr(std::move(made));
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_MEMORY_H_

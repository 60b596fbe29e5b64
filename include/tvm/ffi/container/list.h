/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/list.h
 * \brief List<T>: the mutable ffi.List sequence, and ListObj.
 *
 * Layouts (C++ ABI): ListObj = SeqBaseObj (56 bytes); its elements live in
 * a separate buffer from ::operator new that `data_deleter` frees (so a
 * List keeps its identity when it grows).  List<T> = { ObjectPtr }.
 *
 * Unlike Array, a List is not copy-on-write: every List referring to an
 * object sees every change made through any of them.
 */
#ifndef TVM_FFI_CONTAINER_LIST_H_
#define TVM_FFI_CONTAINER_LIST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/object.h>

#include <algorithm>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/*! \brief The ffi.List object (type index kTVMFFIList): elements in a growable buffer. */
class ListObj : public SeqBaseObj {
  // List grows the buffer through the private helpers, sized by these two
  // constants; the Any conversions read the slots directly.
  template <typename, typename>
  friend class List;
  /*! \brief A full buffer is replaced by one this many times larger. */
  static constexpr int64_t kIncFactor = 2;
  /*! \brief Slots of a list's first buffer. */
  static constexpr int64_t kInitSize = 4;
  template <typename, typename>
  friend struct TypeTraits;

 public:
  /// \cond Doxygen_Suppress
  static const constexpr bool _type_final = true;
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIList;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIList, ListObj, Object);
  /// \endcond

  /*! \brief A new list of `n` copies of `val`. */
  static ObjectPtr<ListObj> CreateRepeated(int64_t n, const Any& val) {
    ObjectPtr<ListObj> out = Empty(n);
    out->EnlargeBy(n, val);
    return out;
  }

 private:

  // Buffers this header allocates are raw ::operator new storage.
  static void RawDataDeleter(void* data) { ::operator delete(data); }

  /*! \brief A list with no elements and room for `n` (no buffer when n is 0). */
  static ObjectPtr<ListObj> Empty(int64_t n = kInitSize) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot construct a List of negative size";
    ObjectPtr<ListObj> made = make_object<ListObj>();
    made->data_deleter = RawDataDeleter;
    made->data = n > 0 ? ::operator new(sizeof(Any) * static_cast<size_t>(n)) : nullptr;
    made->TVMFFISeqCell::capacity = n;
    made->TVMFFISeqCell::size = 0;
    return made;
  }

  // Moves the elements into a new buffer of n slots when n exceeds the
  // capacity.  The old buffer goes to the deleter that came with it (the
  // list may have been made by another library); the new one is ours.
  void Reserve(int64_t n) {
    if (n <= TVMFFISeqCell::capacity) return;
    Any* old_elems = MutableBegin();
    Any* new_elems = static_cast<Any*>(::operator new(sizeof(Any) * static_cast<size_t>(n)));
    for (int64_t i = 0; i < TVMFFISeqCell::size; ++i) {
      new (new_elems + i) Any(std::move(old_elems[i]));
      old_elems[i].~Any();
    }
    if (data_deleter != nullptr && data != nullptr) data_deleter(data);
    data = new_elems;
    data_deleter = RawDataDeleter;
    TVMFFISeqCell::capacity = n;
  }
};

/*!
 * \brief A shared, mutable sequence of T.  Reads are by value (a converted
 *        copy); writes change the one object every copy of the List sees.
 *
 * Errors: an index outside [0, size) is an IndexError
 * `Index <i> out of bounds <size>`.
 */
template <typename T, typename = typename std::enable_if_t<detail::storage_enabled_v<T>>>
class List : public ObjectRef {
 public:
  using value_type = T;

  /*! \brief Takes a ListObj (InternalError when n is null). */
  explicit List(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }
  /*! \brief Shares the object of a list whose elements are all T's. */
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  List(const List<U>& other) : ObjectRef(other.data_) {}  // NOLINT(*)
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  List(List<U>&& other) : ObjectRef(std::move(other.data_)) {}  // NOLINT(*)
  List(const List<T>& other) : ObjectRef(other.data_) {}        // NOLINT(*)
  List(List<T>&& other) : ObjectRef(std::move(other.data_)) {}  // NOLINT(*)
  /*! \brief An empty list without a buffer. */
  List() : ObjectRef(ListObj::Empty(0)) {}  // NOLINT(modernize-use-equals-default)
  /*! \brief A null list (only for the type machinery). */
  explicit List(UnsafeInit tag) : ObjectRef(tag) {}

  // Assignment rebinds this List to the other's object (no element copy);
  // the argument is taken by value, so copy and move share one body.
  TVM_FFI_INLINE List<T>& operator=(List<T> other) {
    data_ = std::move(other.data_);
    return *this;
  }
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  TVM_FFI_INLINE List<T>& operator=(List<U> other) {
    data_ = std::move(other.data_);
    return *this;
  }
  template <typename IterType>
  List(IterType first, IterType last) {  // NOLINT(performance-unnecessary-value-param)
    static_assert(is_valid_iterator_v<T, IterType>, "IterType's elements are not T");
    Assign(first, last);
  }
  List(std::initializer_list<T> init) { Assign(init.begin(), init.end()); }  // NOLINT(*)
  List(const std::vector<T>& init) { Assign(init.begin(), init.end()); }     // NOLINT(*)
  /*! \brief `n` copies of `val`. */
  explicit List(const size_t n, const T& val) {
    data_ = ListObj::CreateRepeated(static_cast<int64_t>(n), val);
  }

  /// \cond Doxygen_Suppress
  // Reads an element for the iterators: the same checked copy as operator[].
  struct ValueConverter {
    using ResultType = T;
    static T convert(const Any& n) { return List<T>::Convert(n); }
  };
  /// \endcond
  using iterator = detail::IterAdapter<ValueConverter, const Any*>;
  using reverse_iterator = detail::ReverseIterAdapter<ValueConverter, const Any*>;

  size_t size() const { return data_ == nullptr ? 0 : GetListObj()->size(); }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return data_ == nullptr ? 0 : GetListObj()->capacity(); }
  /*! \brief Element i, converted (IndexError outside [0, size)). */
  T operator[](int64_t i) const { return Convert(NonNull()->at(i)); }
  T front() const { return Convert(NonNull()->front()); }
  T back() const { return Convert(NonNull()->back()); }

  // Iteration runs over the stored Any slots; each read converts one.
  iterator begin() const { return iterator(GetListObj()->begin()); }
  iterator end() const { return iterator(GetListObj()->end()); }
  reverse_iterator rbegin() const { return reverse_iterator(GetListObj()->end() - 1); }
  reverse_iterator rend() const { return reverse_iterator(GetListObj()->begin() - 1); }

  void push_back(const T& item) { emplace_back(item); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    ListObj* p = EnsureCapacity(1);
    p->EmplaceInit(p->size(), std::forward<Args>(args)...);
    ++p->TVMFFISeqCell::size;
  }
  void insert(iterator position, const T& val) {
    int64_t idx = IndexOf(position, "insert to");
    EnsureCapacity(1)->insert(idx, Any(val));
  }
  template <typename IterType>
  void insert(iterator position, IterType first, IterType last) {
    static_assert(is_valid_iterator_v<T, IterType>, "IterType's elements are not T");
    if (first == last) return;
    int64_t idx = IndexOf(position, "insert to");
    EnsureCapacity(static_cast<int64_t>(std::distance(first, last)))->insert(idx, first, last);
  }
  void pop_back() {
    NonNullForWrite("pop_back");
    GetListObj()->pop_back();
  }
  void erase(iterator position) { GetListObj()->erase(IndexOf(position, "erase")); }
  void erase(iterator first, iterator last) {
    if (first == last) return;
    int64_t from = IndexOf(first, "erase");
    GetListObj()->erase(from, from + (last - first));
  }
  /*! \brief Grows with None values or shrinks to `n` (ValueError when n < 0). */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot resize a List to negative size";
    EnsureCapacity(std::max<int64_t>(0, n - static_cast<int64_t>(size())))->resize(n);
  }
  void reserve(int64_t n) { EnsureListObj()->Reserve(n); }
  void clear() {
    if (data_ != nullptr) GetListObj()->clear();
  }
  /*! \brief Replaces element i in place (IndexError outside [0, size)). */
  void Set(int64_t i, T value) { EnsureListObj()->SetItem(i, std::move(value)); }

  ListObj* GetListObj() const { return static_cast<ListObj*>(data_.get()); }

  /*! \brief Replaces the contents by copies of [first, last). */
  template <typename IterType>
  void Assign(IterType first, IterType last) {  // NOLINT(performance-unnecessary-value-param)
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot construct a List of negative size";
    ListObj* p = EnsureListObj();
    p->Reserve(n);
    p->clear();
    for (; first != last; ++first) {
      p->EmplaceInit(p->size(), *first);
      ++p->TVMFFISeqCell::size;
    }
  }

  /// \cond Doxygen_Suppress
  using ContainerType = ListObj;
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;
  /// \endcond

 private:
  static T Convert(const Any& value) { return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(value); }
  TVM_FFI_INLINE ListObj* NonNull() const {
    if (TVM_FFI_PREDICT_FALSE(data_ == nullptr)) detail::ThrowIndexNullSeq("list");
    return GetListObj();
  }
  void NonNullForWrite(const char* what) const {
    if (data_ == nullptr) TVM_FFI_THROW(RuntimeError) << "cannot " << what << " a null list";
  }
  int64_t IndexOf(const iterator& position, const char* what) const {
    NonNullForWrite(what);
    return static_cast<int64_t>(position - begin());
  }
  // The object with room for `extra` more elements: max(2 * capacity, size + extra).
  ListObj* EnsureCapacity(int64_t extra) {
    ListObj* p = EnsureListObj();
    int64_t need = p->TVMFFISeqCell::size + extra;
    if (p->TVMFFISeqCell::capacity < need) {
      p->Reserve(std::max(p->TVMFFISeqCell::capacity * ListObj::kIncFactor, need));
    }
    return p;
  }
  ListObj* EnsureListObj() {
    if (data_ == nullptr) data_ = ListObj::Empty();
    return GetListObj();
  }

  template <typename, typename>
  friend class List;
};

/// \cond Doxygen_Suppress
template <typename T, typename U>
inline constexpr bool type_subsumes_v<List<T>, List<U>> = type_subsumes_v<T, U>;
template <typename T>
inline constexpr bool use_default_type_traits_v<List<T>> = false;
/// \endcond

/*!
 * \brief List<T> in Any: an ffi.List of exact T elements is shared; an
 *        ffi.List or ffi.Array whose elements convert to T is copied.
 */
template <typename T>
struct TypeTraits<List<T>> : public SeqTypeTraitsBase<TypeTraits<List<T>>, List<T>, T> {
  static constexpr const char* kTypeName = "List";
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIList;
  // Accepted without a copy / accepted element by element.
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIList;
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIArray;
  static constexpr int32_t field_static_type_index = kPrimaryTypeIndex;

  /*! \brief {"type": "ffi.List", "args": [<schema of T>]}. */
  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string schema = R"({"type":")";
    schema += kStaticTypeKey;
    schema += R"(","args":[)";
    schema += detail::TypeSchema<T>::v();
    schema += "]}";
    return schema;
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_LIST_H_

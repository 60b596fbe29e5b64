/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/array.h
 * \brief Array<T>: the immutable-by-sharing ffi.Array sequence, and ArrayObj.
 *
 * Layouts (C++ ABI): ArrayObj = SeqBaseObj (56 bytes) followed in the same
 * allocation by `capacity` Any slots; `data` points at the first slot and
 * `data_deleter` is null.  Array<T> = { ObjectPtr }.
 *
 * Copy-on-write: copying an Array shares the object; a mutating member
 * first makes the object unique (a copy when it is shared) and grows it
 * (capacity doubled, at least 4) when it is full.
 */
#ifndef TVM_FFI_CONTAINER_ARRAY_H_
#define TVM_FFI_CONTAINER_ARRAY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

namespace detail {
/*! \brief ValueError for a range of negative length (cold, out of line). */
[[noreturn]] [[gnu::cold]] TVM_FFI_NO_INLINE inline void ThrowNegativeArraySize() {
  TVM_FFI_THROW(ValueError) << "cannot construct an Array of negative size";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief The ffi.Array object (type index kTVMFFIArray): elements stored inline. */
class ArrayObj : public SeqBaseObj {
  // Array grows and copies through the private factories, sized by these
  // two constants.
  friend ObjectPtr<ArrayObj> make_object<>();
  template <typename, typename>
  friend class Array;
  /*! \brief Growth factor of a full array. */
  static constexpr int64_t kIncFactor = 2;
  /*! \brief Capacity of a new array. */
  static constexpr int64_t kInitSize = 4;
  // Tuple and the Any conversions read the slots directly.
  template <typename... Types>
  friend class Tuple;
  template <typename, typename>
  friend struct TypeTraits;

 public:
  /*! \brief A new array of capacity `cap` holding copies of `from`'s elements. */
  static ObjectPtr<ArrayObj> CopyFrom(int64_t cap, ArrayObj* from) {
    if (from->TVMFFISeqCell::size > cap) TVM_FFI_THROW(ValueError) << "Not enough capacity";
    ObjectPtr<ArrayObj> out = Empty(cap);
    out->AppendEach(from->MutableBegin(), from->TVMFFISeqCell::size,
                    [](Any* src) -> const Any& { return *src; });
    return out;
  }
  /*! \brief A new array of capacity `cap` taking `from`'s elements (`from` is left empty). */
  static ObjectPtr<ArrayObj> MoveFrom(int64_t cap, ArrayObj* from) {
    if (from->TVMFFISeqCell::size > cap) TVM_FFI_THROW(RuntimeError) << "Not enough capacity";
    ObjectPtr<ArrayObj> out = Empty(cap);
    out->AppendEach(from->MutableBegin(), from->TVMFFISeqCell::size,
                    [](Any* src) -> Any&& { return std::move(*src); });
    // The moved-from slots hold None: dropping them without destruction is exact.
    from->TVMFFISeqCell::size = 0;
    return out;
  }
  /*! \brief A new array of `n` copies of `val`. */
  static ObjectPtr<ArrayObj> CreateRepeated(int64_t n, const Any& val) {
    ObjectPtr<ArrayObj> out = Empty(n);
    out->EnlargeBy(n, val);
    return out;
  }

  /// \cond Doxygen_Suppress
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIArray;
  static const constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIArray, ArrayObj, Object);
  /// \endcond

 private:
  /*! \brief An empty array with room for `n` elements after the object. */
  static ObjectPtr<ArrayObj> Empty(int64_t n = kInitSize) {
    ObjectPtr<ArrayObj> out = make_inplace_array_object<ArrayObj, Any>(static_cast<size_t>(n));
    out->data = reinterpret_cast<char*>(out.get()) + sizeof(ArrayObj);
    out->TVMFFISeqCell::size = 0;
    out->TVMFFISeqCell::capacity = n;
    out->data_deleter = nullptr;
    return out;
  }
  // Constructs n new slots at the end from get(src + i), counting each once built.
  template <typename Get>
  void AppendEach(Any* src, int64_t n, Get get) {
    for (int64_t i = 0; i < n; ++i) {
      EmplaceInit(static_cast<size_t>(TVMFFISeqCell::size), get(src + i));
      ++TVMFFISeqCell::size;
    }
  }
  size_t GetSize() const { return static_cast<size_t>(TVMFFISeqCell::size); }
};

/*!
 * \brief Whether the elements IterType yields can go into a container of T:
 *        T itself or a subclass of it (any type for T = Any).
 */
template <typename T, typename IterType>
struct is_valid_iterator
    : std::bool_constant<std::is_base_of_v<
          T, std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<IterType>())>>>> {};
template <typename T, typename IterType>
struct is_valid_iterator<Optional<T>, IterType> : is_valid_iterator<T, IterType> {};
template <typename IterType>
struct is_valid_iterator<Any, IterType> : std::true_type {};
/*! \brief is_valid_iterator's value. */
template <typename T, typename IterType>
inline constexpr bool is_valid_iterator_v =
    std::is_same_v<T, std::remove_cv_t<std::remove_reference_t<
                          decltype(*std::declval<IterType>())>>> ||
    is_valid_iterator<T, IterType>::value;

/*!
 * \brief A shared sequence of T: reads are by value (a converted copy of the
 *        stored Any), writes copy the object first when it is shared.
 *
 * Never null once constructed (the default is an empty array).  Errors:
 * an index outside [0, size) is an IndexError
 * `Index <i> out of bounds <size>`.
 */
template <typename T, typename = typename std::enable_if_t<detail::storage_enabled_v<T>>>
class Array : public ObjectRef {
  // Enables a conversion from Array<U> when every U is a T.
  template <typename U>
  using IfElementsFit = std::enable_if_t<type_subsumes_v<T, U>>;
  // The assignments: drop this array's object and share `other`'s.
  TVM_FFI_INLINE Array<T>& ShareFrom(ObjectRef other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }

 public:
  /// \cond Doxygen_Suppress
  using ContainerType = ArrayObj;
  static constexpr bool _type_is_nullable = false;
  static constexpr bool _type_container_is_exact = false;
  /// \endcond
  using value_type = T;

  /*! \brief Takes an ArrayObj (InternalError when n is null). */
  explicit Array(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK_NOTNULL(data_.get());
  }
  /*! \brief A null array (only for the type machinery). */
  explicit Array(UnsafeInit tag) : ObjectRef(tag) {}
  /*! \brief An empty array with room for 4 elements. */
  Array() : ObjectRef(ArrayObj::Empty()) {}  // NOLINT(modernize-use-equals-default)

  // Copies and moves share the ArrayObj.  An Array<U> with U a subtype of T
  // is shared the same way: each of its elements is already a T.
  Array(const Array<T>& other) : ObjectRef(other) {}        // NOLINT(*)
  Array(Array<T>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  /*! \brief Shares an Array<U> whose elements are all T (U a subtype of T). */
  template <typename U, typename = IfElementsFit<U>>
  Array(const Array<U>& other) : ObjectRef(other) {}  // NOLINT(*)
  template <typename U, typename = IfElementsFit<U>>
  Array(Array<U>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(*)
  TVM_FFI_INLINE Array<T>& operator=(const Array<T>& other) { return ShareFrom(other); }
  TVM_FFI_INLINE Array<T>& operator=(Array<T>&& other) { return ShareFrom(std::move(other)); }
  template <typename U, typename = IfElementsFit<U>>
  TVM_FFI_INLINE Array<T>& operator=(const Array<U>& other) {
    return ShareFrom(other);
  }
  template <typename U, typename = IfElementsFit<U>>
  TVM_FFI_INLINE Array<T>& operator=(Array<U>&& other) {
    return ShareFrom(std::move(other));
  }

  /*! \brief Copies of [first, last). */
  template <typename IterType>
  Array(IterType first, IterType last) {  // NOLINT(performance-unnecessary-value-param)
    static_assert(is_valid_iterator_v<T, IterType>, "IterType's elements are not T");
    Assign(first, last);
  }
  Array(std::initializer_list<T> init) { Assign(init.begin(), init.end()); }  // NOLINT(*)
  Array(const std::vector<T>& init) { Assign(init.begin(), init.end()); }     // NOLINT(*)
  /*! \brief `n` copies of `val`. */
  explicit Array(const size_t n, const T& val) {
    data_ = ArrayObj::CreateRepeated(static_cast<int64_t>(n), val);
  }

  /// \cond Doxygen_Suppress
  // Reads an element for the iterators: the same checked copy as operator[].
  struct ValueConverter {
    using ResultType = T;
    static T convert(const Any& n) { return Array<T>::Convert(n); }
  };
  /// \endcond
  using iterator = detail::IterAdapter<ValueConverter, const Any*>;
  using reverse_iterator = detail::ReverseIterAdapter<ValueConverter, const Any*>;

  size_t size() const { return data_ == nullptr ? 0 : GetArrayObj()->size(); }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return data_ == nullptr ? 0 : GetArrayObj()->capacity(); }
  /*! \brief Element i, converted (IndexError outside [0, size)). */
  const T operator[](int64_t i) const { return Convert(NonNull()->at(i)); }
  /*! \brief The first element (IndexError when empty). */
  T front() const { return Convert(NonNull()->front()); }
  /*! \brief The last element (IndexError when empty). */
  T back() const { return Convert(NonNull()->back()); }

  // Iteration runs over the stored Any slots; each read converts one.
  iterator begin() const { return iterator(GetArrayObj()->begin()); }
  iterator end() const { return iterator(GetArrayObj()->end()); }
  reverse_iterator rbegin() const { return reverse_iterator(GetArrayObj()->end() - 1); }
  reverse_iterator rend() const { return reverse_iterator(GetArrayObj()->begin() - 1); }

  void push_back(const T& item) { emplace_back(item); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    ArrayObj* p = CopyOnWrite(1);
    p->EmplaceInit(p->size(), std::forward<Args>(args)...);
    ++p->TVMFFISeqCell::size;
  }
  /*! \brief Inserts `val` before `position`. */
  void insert(iterator position, const T& val) {
    int64_t idx = IndexOf(position, "insert");
    CopyOnWrite(1)->insert(idx, Any(val));
  }
  /*! \brief Inserts copies of [first, last) before `position`. */
  template <typename IterType>
  void insert(iterator position, IterType first, IterType last) {
    static_assert(is_valid_iterator_v<T, IterType>, "IterType's elements are not T");
    if (first == last) return;
    int64_t idx = IndexOf(position, "insert");
    CopyOnWrite(static_cast<int64_t>(std::distance(first, last)))->insert(idx, first, last);
  }
  /*! \brief Removes the last element (IndexError when empty). */
  void pop_back() {
    NonNullForWrite("pop_back");
    CopyOnWrite()->pop_back();
  }
  void erase(iterator position) {
    int64_t idx = IndexOf(position, "erase");
    CopyOnWrite()->erase(idx);
  }
  void erase(iterator first, iterator last) {
    if (first == last) return;
    int64_t from = IndexOf(first, "erase");
    CopyOnWrite()->erase(from, from + (last - first));
  }
  /*! \brief Grows with None values or shrinks to `n` (ValueError when n < 0). */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot resize an Array to negative size";
    if (data_ == nullptr) {
      Reallocate(n);
      return;
    }
    int64_t now = static_cast<int64_t>(size());
    if (n > now) CopyOnWrite(n - now)->resize(n);
    if (n < now) CopyOnWrite()->resize(n);
  }
  /*! \brief Makes room for `n` elements (a new, unshared object when it grows). */
  void reserve(int64_t n) {
    if (data_ == nullptr || n > static_cast<int64_t>(capacity())) Reallocate(n);
  }
  void clear() {
    if (data_ != nullptr) CopyOnWrite()->clear();
  }
  /*! \brief Replaces element i (IndexError outside [0, size)). */
  void Set(int64_t i, T value) {
    ArrayObj* unique = CopyOnWrite();
    unique->SetItem(i, std::move(value));
  }

  /*! \brief Replaces the contents by copies of [first, last). */
  template <typename IterType>
  void Assign(IterType first, IterType last) {  // NOLINT(performance-unnecessary-value-param)
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    if (TVM_FFI_PREDICT_FALSE(n < 0)) detail::ThrowNegativeArraySize();
    // An unshared object with room enough is reused; otherwise a new one.
    const bool reuse = data_ != nullptr && data_.unique() &&
                       GetArrayObj()->capacity() >= static_cast<size_t>(n);
    if (!reuse) data_ = ArrayObj::Empty(n);
    ArrayObj* p = GetArrayObj();
    if (reuse) p->clear();
    for (; first != last; ++first) {
      p->EmplaceInit(p->size(), *first);
      ++p->TVMFFISeqCell::size;
    }
  }
  /*! \brief The unique object, copied first when shared (made when null). */
  ArrayObj* CopyOnWrite() {
    if (data_ == nullptr) return Reallocate(ArrayObj::kInitSize);
    if (!data_.unique()) return Reallocate(static_cast<int64_t>(capacity()));
    return GetArrayObj();
  }

  /*!
   * \brief [fmap(x) for x in this] as an Array<U>.  When no element changes
   *        identity the result shares this array's object.
   */
  template <typename F, typename U = std::invoke_result_t<F, T>>
  Array<U> Map(F fmap) const {
    ObjectPtr<Object> mapped = Transform(data_, fmap);
    return Array<U>(std::move(mapped));
  }
  /*! \brief Replaces each element x by fmutate(x), in place when unshared. */
  template <typename F, typename = std::enable_if_t<std::is_same_v<T, std::invoke_result_t<F, T>>>>
  void MutateByApply(F fmutate) {
    ObjectPtr<Object> self = std::move(data_);
    data_ = Transform(std::move(self), fmutate);
  }

  /*! \brief The object (null only for an Array made with UnsafeInit). */
  ArrayObj* GetArrayObj() const { return static_cast<ArrayObj*>(data_.get()); }

  /*! \brief The concatenation of its arguments, each a T or an Array<T>. */
  template <typename... Args>
  static Array<T> Agregate(Args... args) {
    Array<T> out;
    out.reserve(static_cast<int64_t>((CountOf(args) + ... + size_t{0})));
    (out.AppendPart(std::move(args)), ...);
    return out;
  }

 private:
  static T Convert(const Any& value) { return detail::AnyUnsafe::CopyFromAnyViewAfterCheck<T>(value); }
  TVM_FFI_INLINE ArrayObj* NonNull() const {
    if (TVM_FFI_PREDICT_FALSE(data_ == nullptr)) detail::ThrowIndexNullSeq("array");
    return GetArrayObj();
  }
  void NonNullForWrite(const char* what) const {
    if (data_ == nullptr) TVM_FFI_THROW(RuntimeError) << "cannot " << what << " a null array";
  }
  int64_t IndexOf(const iterator& position, const char* what) const {
    NonNullForWrite(what);
    return static_cast<int64_t>(position - begin());
  }
  static size_t CountOf(const Array<T>& part) { return part.size(); }
  static size_t CountOf(const T&) { return 1; }
  void AppendPart(const Array<T>& part) { insert(end(), part.begin(), part.end()); }
  void AppendPart(const T& part) { push_back(part); }

  // The unique object with room for `extra` more elements: grown to
  // max(2 * capacity, size + extra) when full.
  ArrayObj* CopyOnWrite(int64_t extra) {
    ArrayObj* p = GetArrayObj();
    if (p == nullptr) return Reallocate(std::max<int64_t>(ArrayObj::kInitSize, extra));
    int64_t need = p->TVMFFISeqCell::size + extra;
    if (p->TVMFFISeqCell::capacity >= need) return CopyOnWrite();
    return Reallocate(std::max(p->TVMFFISeqCell::capacity * ArrayObj::kIncFactor, need));
  }
  // Puts the elements into a new object of capacity `cap` (moved over when
  // this array is their only owner, copied when shared) and returns it.
  ArrayObj* Reallocate(int64_t cap) {
    ArrayObj* old = GetArrayObj();
    ObjectPtr<ArrayObj> fresh;
    if (old == nullptr) {
      fresh = ArrayObj::Empty(cap);
    } else {
      fresh = data_.unique() ? ArrayObj::MoveFrom(cap, old) : ArrayObj::CopyFrom(cap, old);
    }
    data_ = std::move(fresh);
    return GetArrayObj();
  }

  // Map/MutateByApply.  A unique input mapped T -> T is rewritten in
  // place.  Otherwise, when U could share T's storage, the input is kept
  // until the first element whose result is not the same object; only then
  // is a new array made.
  template <typename F, typename U = std::invoke_result_t<F, T>>
  static ObjectPtr<Object> Transform(ObjectPtr<Object> data, F fmap) {
    if (data == nullptr) return nullptr;
    TVM_FFI_ICHECK(data->IsInstance<ArrayObj>());
    ArrayObj* arr = static_cast<ArrayObj*>(data.get());
    if constexpr (std::is_same_v<T, U>) {
      if (data.unique()) {
        for (Any* slot = arr->MutableBegin(); slot != arr->MutableEnd(); ++slot) {
          T value = Convert(*slot);
          slot->reset();  // the callee sees the only reference
          *slot = fmap(std::move(value));
        }
        return data;
      }
    }
    const int64_t n = static_cast<int64_t>(arr->size());
    int64_t i = 0;
    ObjectPtr<ArrayObj> out;
    if constexpr (is_valid_iterator_v<T, U*> || is_valid_iterator_v<U, T*>) {
      for (; i < n; ++i) {
        U mapped = fmap(Convert(arr->begin()[i]));
        if (arr->begin()[i].same_as(mapped)) continue;
        out = ArrayObj::CreateRepeated(n, Any());
        for (int64_t j = 0; j < i; ++j) out->SetItemAfterCheck(j, arr->begin()[j]);
        out->SetItemAfterCheck(i++, std::move(mapped));
        break;
      }
      if (out == nullptr) return data;
    } else {
      out = ArrayObj::CreateRepeated(n, Any());
    }
    for (; i < n; ++i) out->SetItemAfterCheck(i, fmap(Convert(arr->begin()[i])));
    return out;
  }

  template <typename, typename>
  friend class Array;
};

/*! \brief make_object<ArrayObj>() is an empty array with the default capacity. */
template <>
inline ObjectPtr<ArrayObj> make_object() {
  return ArrayObj::Empty();
}

/*!
 * \brief Array<T> in Any: an ffi.Array of exact T elements is shared; an
 *        ffi.Array or ffi.List whose elements convert to T is copied.
 */
template <typename T>
struct TypeTraits<Array<T>> : public SeqTypeTraitsBase<TypeTraits<Array<T>>, Array<T>, T> {
  // The names SeqTypeTraitsBase reads: the kind an Array holds, the kind it
  // copies from, and the name used in messages.
  static constexpr const char* kTypeName = "Array";
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIArray;
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIList;
  /*! \brief As a field, an Array is stored as an ffi.Array. */
  static constexpr int32_t field_static_type_index = kPrimaryTypeIndex;
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIArray;

  TVM_FFI_INLINE static std::string TypeSchema() {
    std::string schema = "{\"type\":\"";
    schema.append(kStaticTypeKey).append("\",\"args\":[").append(detail::TypeSchema<T>::v());
    return schema + "]}";
  }
};

/// \cond Doxygen_Suppress
// Array<U> is an Array<T> when each U is a T; conversions use the traits above.
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Array<T>, Array<U>> = type_subsumes_v<T, U>;
template <typename T>
inline constexpr bool use_default_type_traits_v<Array<T>> = false;
/// \endcond

/*! \brief lhs followed by rhs. */
template <typename T, typename = typename std::enable_if_t<std::is_same_v<T, Any> ||
                                                           TypeTraits<T>::convert_enabled>>
inline Array<T> Concat(Array<T> lhs, const Array<T>& rhs) {
  lhs.insert(lhs.end(), rhs.begin(), rhs.end());
  return lhs;
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_ARRAY_H_

// Arrays: ffi.Array (71), the sequence cell helpers and the C++ Array<T>.
//
// An ffi.Array is immutable once shared; its elements live inline after its
// TVMFFISeqCell.  Array<T> reads them as T (Any by default).
#ifndef TVM_FFI_CORE_IMPL_ARRAY_H_
#define TVM_FFI_CORE_IMPL_ARRAY_H_

#include <cstring>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../seq_storage.h"
#include "any.h"
#include "any_equal.h"
#include "type_schema.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace detail {

// A copy of an owning value with its own reference.
inline TVMFFIAny CopyOwned(const TVMFFIAny& v) {
  if (v.type_index >= kTVMFFIStaticObjectBegin) Object::IncRef(v.v_obj);
  TVMFFIAny out;
  CopyRaw(&out, &v);
  return out;
}

// Throws IndexError "index <i> out of range for <what> of size <n>".
inline void CheckIndex(int64_t index, int64_t size, const char* what) {
  ::tvm::ffi::detail::core::CheckSeqIndex(index, size, what);
}

// Converts an element to T; TypeError names the element when it does not fit.
template <typename T>
T ElementAs(const TVMFFIAny& v, int64_t index) {
  if constexpr (std::is_same<T, Any>::value) {
    return Any::Adopt(CopyOwned(v));
  } else {
    std::optional<T> out = TypeTraits<T>::TryCast(&v);
    if (!out.has_value()) {
      ThrowTypeMismatch(TypeTraits<T>::TypeStr(), &v, "element " + DecimalString(index));
    }
    return std::move(*out);
  }
}

// The capacity a sequence grows to so that it holds `needed` elements:
// doubling, starting from 4.
inline int64_t GrownCapacity(int64_t capacity, int64_t needed) {
  return ::tvm::ffi::detail::core::SeqGrownCapacity(capacity, needed);
}

// Writes the owning raw form of a C++ value to `out` (overwritten, not
// released).
template <typename T, typename V>
void WriteOwnedRaw(V&& value, TVMFFIAny* out) {
  if constexpr (std::is_same<T, Any>::value || std::is_same<T, AnyView>::value) {
    Any(std::forward<V>(value)).MoveTo(out);
  } else {
    SetNone(out);
    TypeTraits<T>::MoveToOwned(std::forward<V>(value), out);
  }
}

// The owning raw form of a C++ value.
template <typename T>
TVMFFIAny ToOwnedRaw(T value) {
  TVMFFIAny out;
  WriteOwnedRaw<T>(std::move(value), &out);
  return out;
}

}  // namespace detail

// What Array and List share: the cell at header + 24, whose elements are
// owning TVMFFIAny values.  Only the cell is read, so sequences made by other
// libraries work too.  The storage is core/seq_storage.{h,cc}: objects come
// only from its ArrayMake/ListMake, whose deleter frees them.
class SeqObj : public Object {
 public:
  TVMFFISeqCell cell;

  SeqObj() = delete;
  ~SeqObj() = delete;

  int64_t size() const { return cell.size; }
  int64_t capacity() const { return cell.capacity; }
  TVMFFIAny* data() const { return static_cast<TVMFFIAny*>(cell.data); }
  const TVMFFIAny& at(int64_t i) const { return data()[i]; }
  TVMFFIAny* begin() const { return data(); }
  TVMFFIAny* end() const { return data() + cell.size; }

  // Whether some element equals `value` (container-key equality, §5).
  bool Contains(const TVMFFIAny& value) const {
    return ::tvm::ffi::detail::core::SeqContains(cell, value);
  }
  // Replaces element i with an owning value, taking it over.
  void SetOwned(int64_t i, const TVMFFIAny& value) {
    ::tvm::ffi::detail::core::SeqSetOwned(&cell, i, value);
  }
};

// layout = { TVMFFIObject, TVMFFISeqCell, TVMFFIAny[capacity] }; elements at
// header + 56, data_deleter NULL.
class ArrayObj : public SeqObj {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(ArrayObj, kTVMFFIArray, "ffi.Array")

  // An empty array with room for `capacity` inline elements.
  static ObjectPtr<ArrayObj> Make(int64_t capacity) {
    return ObjectPtr<ArrayObj>::AdoptHandle(::tvm::ffi::detail::core::ArrayMake(capacity));
  }
  static ObjectPtr<ArrayObj> FromViews(const TVMFFIAny* views, int64_t n) {
    return ObjectPtr<ArrayObj>::AdoptHandle(::tvm::ffi::detail::core::ArrayFromViews(views, n));
  }
  // Copies the elements of any sequence cell (new references).
  static ObjectPtr<ArrayObj> CopyOf(const TVMFFISeqCell& src, int64_t capacity) {
    return ObjectPtr<ArrayObj>::AdoptHandle(::tvm::ffi::detail::core::ArrayCopyOf(src, capacity));
  }

  // Appends an owning value, taking it over.  Requires size < capacity.
  void PushOwned(const TVMFFIAny& value) { detail::CopyRaw(data() + cell.size++, &value); }
  // Appends a C++ value converted in place.  Requires size < capacity.
  template <typename T, typename V>
  void PushConverted(V&& value) {
    detail::WriteOwnedRaw<T>(std::forward<V>(value), data() + cell.size);
    ++cell.size;
  }
};

static_assert(sizeof(ArrayObj) == 56, "Array elements start at header + 56");

// What the Array and List references share.
template <typename ObjType>
class SeqRefBase : public ObjectRef {
 public:
  using ContainerType = ObjType;

  int64_t size() const { return obj()->size(); }
  bool empty() const { return size() == 0; }
  int64_t capacity() const { return obj()->capacity(); }
  bool Contains(const AnyView& value) const { return obj()->Contains(*value.raw()); }

 protected:
  SeqRefBase() = default;
  explicit SeqRefBase(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}
  ObjType* obj() const { return static_cast<ObjType*>(data_.get()); }
};

// A reference to an ffi.Array whose elements are read as T.  Never null when
// built by its constructors.  Mutators copy the array first unless this is
// the only reference (copy on write), so arrays shared with others never
// change.
template <typename T = Any>
class Array : public SeqRefBase<ArrayObj> {
 public:
  using value_type = T;

  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    iterator(const ArrayObj* obj, int64_t i) : obj_(obj), i_(i) {}
    T operator*() const { return detail::ElementAs<T>(obj_->at(i_), i_); }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++i_;
      return old;
    }
    iterator& operator--() {
      --i_;
      return *this;
    }
    iterator operator+(difference_type n) const { return iterator(obj_, i_ + n); }
    iterator operator-(difference_type n) const { return iterator(obj_, i_ - n); }
    difference_type operator-(const iterator& o) const { return i_ - o.i_; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const ArrayObj* obj_;
    int64_t i_;
  };

  Array() : SeqRefBase(ArrayObj::Make(0)) {}
  Array(std::initializer_list<T> items) : Array(items.begin(), items.end()) {}
  explicit Array(const std::vector<T>& items) : Array(items.begin(), items.end()) {}
  template <typename It,
            typename = typename std::iterator_traits<It>::iterator_category>
  Array(It first, It last) {
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    ObjectPtr<ArrayObj> obj = ArrayObj::Make(n);
    for (; first != last; ++first) obj->template PushConverted<T>(*first);
    data_ = std::move(obj);
  }
  explicit Array(ObjectPtr<Object> p) : SeqRefBase(std::move(p)) {}

  // IndexError when out of range (negative indices included).
  T operator[](int64_t i) const { return at(i); }
  T at(int64_t i) const {
    detail::CheckIndex(i, size(), "Array");
    return detail::ElementAs<T>(obj()->at(i), i);
  }
  // The stored value, borrowed (valid while the array is and unmodified).
  const TVMFFIAny& raw_at(int64_t i) const {
    detail::CheckIndex(i, size(), "Array");
    return obj()->at(i);
  }
  T front() const { return at(0); }
  T back() const { return at(size() - 1); }
  iterator begin() const { return iterator(obj(), 0); }
  iterator end() const { return iterator(obj(), size()); }
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  void push_back(T value) {
    TVMFFIAny raw = detail::ToOwnedRaw<T>(std::move(value));
    ArrayObj* a = Writable(size() + 1);
    a->PushOwned(raw);
  }
  void Set(int64_t i, T value) {
    detail::CheckIndex(i, size(), "Array");
    TVMFFIAny raw = detail::ToOwnedRaw<T>(std::move(value));
    Writable(size())->SetOwned(i, raw);
  }

  ArrayObj* GetArrayObj() const { return obj(); }

 private:
  // An array this reference alone owns, with room for `needed` elements.
  ArrayObj* Writable(int64_t needed) {
    ArrayObj* a = obj();
    if (a->use_count() == 1 && needed <= a->capacity()) return a;
    int64_t cap = a->capacity();
    if (needed > cap) cap = detail::GrownCapacity(cap, needed);
    data_ = ArrayObj::CopyOf(a->cell, cap);
    return obj();
  }
};

// Array<T> needs element checks, so it has its own traits.  The second
// argument repeats the generic ObjectRef condition on purpose: that makes
// this specialisation more specialised than the generic one instead of
// ambiguous with it.
//
// Accepts an ffi.Array whose elements all convert to T (borrowed when they
// are already stored as T, else converted into a new Array), and an ffi.List
// (copied into a new Array).
template <typename T>
struct TypeTraits<Array<T>, std::enable_if_t<std::is_base_of<ObjectRef, Array<T>>::value>>
    : ObjectRefTraitsBase<Array<T>> {
  static constexpr bool kAnyElement = std::is_same<T, Any>::value;

  static std::string TypeStr() {
    if (kAnyElement) return ArrayObj::kTypeKey;
    return "Array[" + TypeTraits<T>::TypeStr() + "]";
  }
  // {"type":"ffi.Array"} for Array<Any>, else with the element's schema as args.
  static std::string TypeSchema() {
    if (kAnyElement) return detail::SchemaNamed(ArrayObj::kTypeKey);
    return std::string("{\"type\":\"") + ArrayObj::kTypeKey + "\",\"args\":[" +
           detail::TypeSchemaOf<T>() + "]}";
  }
  static std::optional<Array<T>> TryCast(const TVMFFIAny* v) {
    if (v->type_index != kTVMFFIArray && v->type_index != kTVMFFIList) return std::nullopt;
    const TVMFFISeqCell* src = TVMFFISeqGetCellPtr(v->v_obj);
    const TVMFFIAny* elems = static_cast<const TVMFFIAny*>(src->data);
    if (kAnyElement && v->type_index == kTVMFFIArray) {
      return Array<T>(ObjectPtr<Object>::BorrowHandle(v->v_obj));
    }
    // Convert every element; keep the original when nothing changed.
    bool changed = v->type_index != kTVMFFIArray;
    std::vector<TVMFFIAny> converted;
    converted.reserve(static_cast<size_t>(src->size));
    auto release_all = [&converted] {
      for (TVMFFIAny& c : converted) AnyRelease(&c);
    };
    for (int64_t i = 0; i < src->size; ++i) {
      std::optional<T> item = TypeTraits<T>::TryCast(&elems[i]);
      if (!item.has_value()) {
        release_all();
        return std::nullopt;
      }
      converted.push_back(detail::ToOwnedRaw<T>(std::move(*item)));
      if (!AnyKeyEqual(converted.back(), elems[i])) changed = true;
    }
    if (!changed) {
      release_all();
      return Array<T>(ObjectPtr<Object>::BorrowHandle(v->v_obj));
    }
    ObjectPtr<ArrayObj> out = ArrayObj::Make(static_cast<int64_t>(converted.size()));
    for (TVMFFIAny& c : converted) out->PushOwned(c);
    return Array<T>(ObjectPtr<Object>(std::move(out)));
  }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_ARRAY_H_

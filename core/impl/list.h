// Lists: ffi.List (75), a shared mutable sequence, and the C++ reference List.
//
// The elements live in a separately allocated buffer.
#ifndef TVM_FFI_CORE_IMPL_LIST_H_
#define TVM_FFI_CORE_IMPL_LIST_H_

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "any.h"
#include "array.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

namespace detail {
// List buffers come from ::operator new: apache-tvm-ffi's C++ headers grow a
// List of ours in place with ::operator new and keep its data_deleter.
inline void FreeListBuffer(void* data) { ::operator delete(data); }
// The index checks of List and the ffi.List* globals, all IndexError.
inline void CheckListRange(int64_t first, int64_t last, int64_t size) {
  if (first < 0 || first > last || last > size) {
    TVM_FFI_IMPL_THROW(IndexError) << "range [" << first << ", " << last
                             << ") out of range for List of size " << size;
  }
}
inline void CheckListInsertIndex(int64_t i, int64_t size) {
  if (i < 0 || i > size) {
    TVM_FFI_IMPL_THROW(IndexError) << "insert index " << i << " out of range for List of size " << size;
  }
}
inline void CheckListPopIndex(int64_t i, int64_t size) {
  if (size == 0) TVM_FFI_IMPL_THROW(IndexError) << "pop from empty List";
  CheckIndex(i, size, "List");
}
// memmove of `count` elements; count may be 0 with null pointers.
inline void MoveElements(TVMFFIAny* dst, const TVMFFIAny* src, int64_t count) {
  if (count > 0) std::memmove(dst, src, static_cast<size_t>(count) * sizeof(TVMFFIAny));
}
}  // namespace detail

// layout = { TVMFFIObject, TVMFFISeqCell }; the cell's data points at a
// TVMFFIAny[capacity] from ::operator new that data_deleter frees.  The methods work
// on lists made by other libraries too: a buffer is only ever released
// through the data_deleter stored next to it.
class ListObj : public SeqObj {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(ListObj, kTVMFFIList, "ffi.List")

  ListObj() : SeqObj(&detail::FreeListBuffer) {}
  ~ListObj() {
    TruncateTo(0);
    if (cell.data_deleter != nullptr && cell.data != nullptr) cell.data_deleter(cell.data);
  }

  static ObjectPtr<ListObj> Make(int64_t capacity = 0) {
    ObjectPtr<ListObj> obj = MakeObject<ListObj>();
    obj->Reserve(capacity);
    return obj;
  }
  static ObjectPtr<ListObj> FromViews(const TVMFFIAny* views, int64_t n) {
    return MakeFromViews<ListObj>(views, n);
  }

  // Makes room for at least `n` elements (exactly n when growing).
  void Reserve(int64_t n) {
    if (n <= cell.capacity) return;
    void* buf = ::operator new(static_cast<size_t>(n) * sizeof(TVMFFIAny));
    detail::MoveElements(static_cast<TVMFFIAny*>(buf), data(), cell.size);
    if (cell.data != nullptr && cell.data_deleter != nullptr) cell.data_deleter(cell.data);
    cell.data = buf;
    cell.capacity = n;
    cell.data_deleter = &detail::FreeListBuffer;
  }

  // The mutators below take over owning values; indices are checked by the
  // caller unless stated.
  void Append(TVMFFIAny value) {
    GrowFor(cell.size + 1);
    data()[cell.size++] = value;
  }
  // 0 <= i <= size.
  void Insert(int64_t i, TVMFFIAny value) {
    GrowFor(cell.size + 1);
    TVMFFIAny* d = data();
    detail::MoveElements(d + i + 1, d + i, cell.size - i);
    d[i] = value;
    ++cell.size;
  }
  // Removes element i and hands its reference to the caller.
  TVMFFIAny Take(int64_t i) {
    TVMFFIAny* d = data();
    TVMFFIAny out = d[i];
    detail::MoveElements(d + i, d + i + 1, cell.size - i - 1);
    --cell.size;
    return out;
  }
  // Replaces [first, last) with copies of `items` (new references).  `items`
  // must not point into this list: copy it first when it may.
  void ReplaceRange(int64_t first, int64_t last, const TVMFFIAny* items, int64_t n) {
    int64_t new_size = cell.size - (last - first) + n;
    GrowFor(new_size);
    TVMFFIAny* d = data();
    // Take the replaced elements out before releasing them, so a destructor
    // that reenters this list sees a consistent state.
    std::vector<TVMFFIAny> removed(d + first, d + last);
    detail::MoveElements(d + first + n, d + last, cell.size - last);
    for (int64_t i = 0; i < n; ++i) d[first + i] = detail::CopyOwned(items[i]);
    cell.size = new_size;
    for (TVMFFIAny& v : removed) AnyRelease(&v);
  }
  void EraseRange(int64_t first, int64_t last) { ReplaceRange(first, last, nullptr, 0); }
  void Reverse() {
    TVMFFIAny* d = data();
    for (int64_t i = 0, j = cell.size - 1; i < j; ++i, --j) std::swap(d[i], d[j]);
  }
  void Clear() { EraseRange(0, cell.size); }

 private:
  void GrowFor(int64_t needed) {
    if (needed > cell.capacity) Reserve(detail::GrownCapacity(cell.capacity, needed));
  }
};

// A reference to a shared ffi.List: every copy of the reference sees the
// same, mutable elements.  Never null when built by its constructors.
class List : public SeqRefBase<ListObj> {
 public:
  List() : SeqRefBase(ListObj::Make()) {}
  List(std::initializer_list<Any> items)
      : SeqRefBase(ListObj::Make(static_cast<int64_t>(items.size()))) {
    for (const Any& v : items) obj()->Append(detail::CopyOwned(*v.raw()));
  }
  explicit List(ObjectPtr<Object> p) : SeqRefBase(std::move(p)) {}

  // IndexError when out of range (negative indices included).
  Any operator[](int64_t i) const { return at(i); }
  Any at(int64_t i) const {
    detail::CheckIndex(i, size(), "List");
    return Any::Adopt(detail::CopyOwned(obj()->at(i)));
  }
  void push_back(Any value) { obj()->Append(value.Release()); }
  void Set(int64_t i, Any value) {
    detail::CheckIndex(i, size(), "List");
    obj()->SetOwned(i, value.Release());
  }
  // 0 <= i <= size, else IndexError.
  void Insert(int64_t i, Any value) {
    detail::CheckListInsertIndex(i, size());
    obj()->Insert(i, value.Release());
  }
  // Removes and returns element i.
  Any Pop(int64_t i) {
    detail::CheckListPopIndex(i, size());
    return Any::Adopt(obj()->Take(i));
  }
  void Erase(int64_t i) {
    detail::CheckIndex(i, size(), "List");
    TVMFFIAny removed = obj()->Take(i);
    AnyRelease(&removed);
  }
  // Requires 0 <= first <= last <= size, else IndexError.
  void EraseRange(int64_t first, int64_t last) {
    detail::CheckListRange(first, last, size());
    obj()->EraseRange(first, last);
  }
  // Replaces [first, last) with the elements of `items` (it may be this list).
  void ReplaceSlice(int64_t first, int64_t last, const std::vector<Any>& items) {
    detail::CheckListRange(first, last, size());
    std::vector<TVMFFIAny> raw;
    raw.reserve(items.size());
    for (const Any& v : items) raw.push_back(*v.raw());
    obj()->ReplaceRange(first, last, raw.data(), static_cast<int64_t>(raw.size()));
  }
  void Reverse() { obj()->Reverse(); }
  void Clear() { obj()->Clear(); }
  std::vector<Any> ToVector() const {
    std::vector<Any> out;
    out.reserve(static_cast<size_t>(size()));
    for (const TVMFFIAny& v : *obj()) out.push_back(Any::Adopt(detail::CopyOwned(v)));
    return out;
  }

  ListObj* GetListObj() const { return obj(); }
};

// A List parameter also accepts an ffi.Array (copied into a new List).
template <>
struct TypeTraits<List> : ObjectRefTraitsBase<List> {
  static std::optional<List> TryCast(const TVMFFIAny* v) {
    if (v->type_index == kTVMFFIList) return List(ObjectPtr<Object>::BorrowHandle(v->v_obj));
    if (v->type_index != kTVMFFIArray) return std::nullopt;
    const TVMFFISeqCell* src = TVMFFISeqGetCellPtr(v->v_obj);
    ObjectPtr<ListObj> out = ListObj::Make(src->size);
    const TVMFFIAny* elems = static_cast<const TVMFFIAny*>(src->data);
    for (int64_t i = 0; i < src->size; ++i) out->Append(detail::CopyOwned(elems[i]));
    return List(ObjectPtr<Object>(std::move(out)));
  }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_LIST_H_

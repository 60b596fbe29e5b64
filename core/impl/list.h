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
// The index checks of List and the ffi.List* globals, all IndexError.
inline void CheckListRange(int64_t first, int64_t last, int64_t size) {
  ::tvm::ffi::detail::core::CheckListRange(first, last, size);
}
inline void CheckListInsertIndex(int64_t i, int64_t size) {
  ::tvm::ffi::detail::core::CheckListInsertIndex(i, size);
}
inline void CheckListPopIndex(int64_t i, int64_t size) {
  ::tvm::ffi::detail::core::CheckListPopIndex(i, size);
}
}  // namespace detail

// layout = { TVMFFIObject, TVMFFISeqCell }; the cell's data points at a
// TVMFFIAny[capacity] buffer its data_deleter frees (core/seq_storage.h).
class ListObj : public SeqObj {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(ListObj, kTVMFFIList, "ffi.List")

  static ObjectPtr<ListObj> Make(int64_t capacity = 0) {
    return ObjectPtr<ListObj>::AdoptHandle(::tvm::ffi::detail::core::ListMake(capacity));
  }
  static ObjectPtr<ListObj> FromViews(const TVMFFIAny* views, int64_t n) {
    return ObjectPtr<ListObj>::AdoptHandle(::tvm::ffi::detail::core::ListFromViews(views, n));
  }

  // Makes room for at least `n` elements (exactly n when growing).
  void Reserve(int64_t n) { ::tvm::ffi::detail::core::ListReserve(&cell, n); }
  // The mutators below take over owning values; indices are checked by the
  // caller.
  void Append(TVMFFIAny value) { ::tvm::ffi::detail::core::ListAppend(&cell, value); }
  void Insert(int64_t i, TVMFFIAny value) { ::tvm::ffi::detail::core::ListInsert(&cell, i, value); }
  // Removes element i and hands its reference to the caller.
  TVMFFIAny Take(int64_t i) { return ::tvm::ffi::detail::core::ListTake(&cell, i); }
  // Replaces [first, last) with copies of `items`, which must not point into
  // this list.
  void ReplaceRange(int64_t first, int64_t last, const TVMFFIAny* items, int64_t n) {
    ::tvm::ffi::detail::core::ListReplaceRange(&cell, first, last, items, n);
  }
  void EraseRange(int64_t first, int64_t last) { ReplaceRange(first, last, nullptr, 0); }
  void Reverse() { ::tvm::ffi::detail::core::ListReverse(&cell); }
  void Clear() { ::tvm::ffi::detail::core::ListClear(&cell); }
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

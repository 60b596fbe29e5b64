// ffi.List global functions: construction and in-place mutation.
#include "impl/list.h"

#include <vector>

#include "container_internal.h"
#include "impl/function.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

ListObj* ListArg(const AnyView& arg, const char* func) {
  return ExactObjectArg<ListObj>(arg, func, 0);
}

TVM_FFI_IMPL_REGISTER_GLOBAL_PACKED("ffi.List", [](const AnyView* args, int32_t n, Any* rv) {
  *rv = ObjectPtrToAny(ListObj::FromViews(reinterpret_cast<const TVMFFIAny*>(args), n));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListSize",
                       [](AnyView l) { return ListArg(l, "ffi.ListSize")->size(); });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListGetItem", [](AnyView l, int64_t i) {
  ListObj* list = ListArg(l, "ffi.ListGetItem");
  detail::CheckIndex(i, list->size(), "List");
  return CopyStored(list->at(i));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListSetItem", [](AnyView l, int64_t i, Any value) {
  ListObj* list = ListArg(l, "ffi.ListSetItem");
  detail::CheckIndex(i, list->size(), "List");
  list->SetOwned(i, value.Release());
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListContains", [](AnyView l, AnyView value) {
  return ListArg(l, "ffi.ListContains")->Contains(*value.raw());
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListAppend", [](AnyView l, Any value) {
  ListArg(l, "ffi.ListAppend")->Append(value.Release());
});

// 0 <= i <= size (the bindings clamp Python's out-of-range insert indices).
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListInsert", [](AnyView l, int64_t i, Any value) {
  ListObj* list = ListArg(l, "ffi.ListInsert");
  detail::CheckListInsertIndex(i, list->size());
  list->Insert(i, value.Release());
});

// Removes and returns element i.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListPop", [](AnyView l, int64_t i) {
  ListObj* list = ListArg(l, "ffi.ListPop");
  detail::CheckListPopIndex(i, list->size());
  return Any::Adopt(list->Take(i));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListErase", [](AnyView l, int64_t i) {
  ListObj* list = ListArg(l, "ffi.ListErase");
  detail::CheckIndex(i, list->size(), "List");
  Any removed = Any::Adopt(list->Take(i));
});

// Erases [first, last).
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListEraseRange", [](AnyView l, int64_t first, int64_t last) {
  ListObj* list = ListArg(l, "ffi.ListEraseRange");
  detail::CheckListRange(first, last, list->size());
  list->EraseRange(first, last);
});

// Replaces [first, last) with the elements of `items` (an Array or a List,
// possibly this very list).
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListReplaceSlice", [](AnyView l, int64_t first, int64_t last,
                                                  AnyView items) {
  ListObj* list = ListArg(l, "ffi.ListReplaceSlice");
  detail::CheckListRange(first, last, list->size());
  if (items.type_index() != kTVMFFIArray && items.type_index() != kTVMFFIList) {
    detail::ThrowArgumentMismatch("ffi.ListReplaceSlice", 3, "ffi.Array or ffi.List", items.raw());
  }
  // Copy first: `items` may be this list.
  const TVMFFISeqCell* src = TVMFFISeqGetCellPtr(items.raw()->v_obj);
  const TVMFFIAny* elems = static_cast<const TVMFFIAny*>(src->data);
  std::vector<Any> copy;
  copy.reserve(static_cast<size_t>(src->size));
  for (int64_t i = 0; i < src->size; ++i) copy.push_back(CopyStored(elems[i]));
  list->ReplaceRange(first, last, reinterpret_cast<const TVMFFIAny*>(copy.data()),
                     static_cast<int64_t>(copy.size()));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListReverse",
                       [](AnyView l) { ListArg(l, "ffi.ListReverse")->Reverse(); });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListClear", [](AnyView l) { ListArg(l, "ffi.ListClear")->Clear(); });

// Grows the capacity to at least `capacity` elements (never shrinks); the
// size and the elements are unchanged.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ListReserve", [](AnyView l, int64_t capacity) {
  ListObj* list = ListArg(l, "ffi.ListReserve");
  if (capacity < 0) {
    TVM_FFI_IMPL_THROW(ValueError) << "ffi.ListReserve: capacity must be non-negative, got " << capacity;
  }
  list->Reserve(capacity);
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// ffi.List global functions: construction and in-place mutation.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>

#include <vector>

#include "container_internal.h"
#include "global_def.h"
#include "seq_storage.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

TVMFFISeqCell* ListArg(const AnyView& arg, const char* func) {
  return SeqCellOf(ExactObjectArg(arg, kTVMFFIList, "ffi.List", func, 0));
}

TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.List", [](const AnyView* args, int32_t n, Any* rv) {
  *rv = AdoptObject(ListFromViews(reinterpret_cast<const TVMFFIAny*>(args), n));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListSize",
                             [](AnyView l) { return ListArg(l, "ffi.ListSize")->size; });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListGetItem", [](AnyView l, AnyView index) {
  int64_t i = IntArg(index, "ffi.ListGetItem", 1);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListGetItem");
  CheckSeqIndex(i, list->size, "List");
  return Any(AsAny(SeqData(*list)[i]));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListSetItem", [](AnyView l, AnyView index, Any value) {
  int64_t i = IntArg(index, "ffi.ListSetItem", 1);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListSetItem");
  CheckSeqIndex(i, list->size, "List");
  SeqSetOwned(list, i, ReleaseAny(std::move(value)));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListContains", [](AnyView l, AnyView value) {
  return SeqContains(*ListArg(l, "ffi.ListContains"), *ViewRaw(value));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListAppend", [](AnyView l, Any value) {
  ListAppend(ListArg(l, "ffi.ListAppend"), ReleaseAny(std::move(value)));
});

// 0 <= i <= size (the bindings clamp Python's out-of-range insert indices).
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListInsert", [](AnyView l, AnyView index, Any value) {
  int64_t i = IntArg(index, "ffi.ListInsert", 1);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListInsert");
  CheckListInsertIndex(i, list->size);
  ListInsert(list, i, ReleaseAny(std::move(value)));
});

// Removes and returns element i.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListPop", [](AnyView l, AnyView index) {
  int64_t i = IntArg(index, "ffi.ListPop", 1);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListPop");
  CheckListPopIndex(i, list->size);
  TVMFFIAny taken = ListTake(list, i);
  return AnyUnsafe::MoveTVMFFIAnyToAny(&taken);
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListErase", [](AnyView l, AnyView index) {
  int64_t i = IntArg(index, "ffi.ListErase", 1);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListErase");
  CheckSeqIndex(i, list->size, "List");
  TVMFFIAny removed = ListTake(list, i);
  ReleaseValue(&removed);
});

// Erases [first, last).
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListEraseRange", [](AnyView l, AnyView first, AnyView last) {
  int64_t from = IntArg(first, "ffi.ListEraseRange", 1);
  int64_t to = IntArg(last, "ffi.ListEraseRange", 2);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListEraseRange");
  CheckListRange(from, to, list->size);
  ListReplaceRange(list, from, to, nullptr, 0);
});

// Replaces [first, last) with the elements of `items` (an Array or a List,
// possibly this very list).
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListReplaceSlice", [](AnyView l, AnyView first, AnyView last,
                                                        AnyView items) {
  int64_t from = IntArg(first, "ffi.ListReplaceSlice", 1);
  int64_t to = IntArg(last, "ffi.ListReplaceSlice", 2);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListReplaceSlice");
  CheckListRange(from, to, list->size);
  const TVMFFIAny* raw = ViewRaw(items);
  if (raw->type_index != kTVMFFIArray && raw->type_index != kTVMFFIList) {
    TVM_FFI_CORE_THROW(TypeError) << "In function ffi.ListReplaceSlice: argument 4: expected "
                                     "ffi.Array or ffi.List, got "
                                  << TypeIndexToDisplayName(raw->type_index);
  }
  // Copy first: `items` may be this list.
  const TVMFFISeqCell* src = SeqCellOf(raw->v_obj);
  std::vector<Any> copy;
  copy.reserve(static_cast<size_t>(src->size));
  for (int64_t i = 0; i < src->size; ++i) copy.push_back(AsAny(SeqData(*src)[i]));
  ListReplaceRange(list, from, to, reinterpret_cast<const TVMFFIAny*>(copy.data()),
                   static_cast<int64_t>(copy.size()));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListReverse",
                             [](AnyView l) { ListReverse(ListArg(l, "ffi.ListReverse")); });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListClear",
                             [](AnyView l) { ListClear(ListArg(l, "ffi.ListClear")); });

// Grows the capacity to at least `capacity` elements (never shrinks); the
// size and the elements are unchanged.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ListReserve", [](AnyView l, AnyView capacity) {
  int64_t n = IntArg(capacity, "ffi.ListReserve", 1);
  TVMFFISeqCell* list = ListArg(l, "ffi.ListReserve");
  if (n < 0) {
    TVM_FFI_CORE_THROW(ValueError) << "ffi.ListReserve: capacity must be non-negative, got " << n;
  }
  ListReserve(list, n);
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

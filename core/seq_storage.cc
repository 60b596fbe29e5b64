// Element storage of ffi.Array and ffi.List (see seq_storage.h).
#include "seq_storage.h"

#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "container_internal.h"
#include "error_internal.h"
#include "map_table.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

static_assert(sizeof(::tvm::ffi::SeqBaseObj) == sizeof(TVMFFIObject) + sizeof(TVMFFISeqCell),
              "TVMFFISeqCell follows the header of tvm::ffi::SeqBaseObj");

namespace {

// memmove of `count` elements; count may be 0 with null pointers.
inline void MoveElements(TVMFFIAny* dst, const TVMFFIAny* src, int64_t count) {
  if (count > 0) std::memmove(dst, src, static_cast<size_t>(count) * sizeof(TVMFFIAny));
}

// Releases the elements, last first, then the buffer when it has a deleter
// (a List's): the strong half of both deleters.
void DestroyElements(TVMFFISeqCell* c) {
  TVMFFIAny* d = SeqData(*c);
  for (int64_t i = c->size; i > 0; --i) ReleaseValue(&d[i - 1]);
  c->size = 0;
  if (c->data_deleter != nullptr && c->data != nullptr) c->data_deleter(c->data);
}

void SeqObjectDeleter(void* self, int flags) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) DestroyElements(SeqCellOf(obj));
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

// A new sequence object with `inline_slots` element slots after the cell,
// where `data` points.
TVMFFIObject* MakeSeqObject(int32_t type_index, int64_t inline_slots) {
  size_t bytes = sizeof(TVMFFIObject) + sizeof(TVMFFISeqCell) +
                 static_cast<size_t>(inline_slots) * sizeof(TVMFFIAny);
  void* mem = std::malloc(bytes);
  if (mem == nullptr) throw std::bad_alloc();
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(mem);
  InitObjectHeader(obj, type_index, SeqObjectDeleter);
  TVMFFISeqCell* c = SeqCellOf(obj);
  c->data = c + 1;
  c->size = 0;
  c->capacity = inline_slots;
  c->data_deleter = nullptr;
  return obj;
}

// List buffers come from ::operator new (see seq_storage.h).
void FreeListBuffer(void* data) { ::operator delete(data); }

void ListGrowFor(TVMFFISeqCell* c, int64_t needed) {
  if (needed > c->capacity) ListReserve(c, SeqGrownCapacity(c->capacity, needed));
}

// Fills an empty sequence with owned conversions of the views, counting each
// element once it is there (a throw leaves a consistent sequence).
TVMFFIObject* FillFromViews(TVMFFIObject* obj, const TVMFFIAny* views, int64_t n) {
  TVMFFISeqCell* c = SeqCellOf(obj);
  try {
    for (int64_t i = 0; i < n; ++i) {
      SeqData(*c)[i] = ViewToOwned(views[i]);
      c->size = i + 1;
    }
  } catch (...) {
    ObjectDecRef(obj);
    throw;
  }
  return obj;
}

}  // namespace

void CheckSeqIndex(int64_t index, int64_t size, const char* what) {
  if (index < 0 || index >= size) {
    TVM_FFI_CORE_THROW(IndexError) << "index " << index << " out of range for " << what
                                   << " of size " << size;
  }
}

void CheckListRange(int64_t first, int64_t last, int64_t size) {
  if (first < 0 || first > last || last > size) {
    TVM_FFI_CORE_THROW(IndexError) << "range [" << first << ", " << last
                                   << ") out of range for List of size " << size;
  }
}

void CheckListInsertIndex(int64_t i, int64_t size) {
  if (i < 0 || i > size) {
    TVM_FFI_CORE_THROW(IndexError) << "insert index " << i << " out of range for List of size "
                                   << size;
  }
}

void CheckListPopIndex(int64_t i, int64_t size) {
  if (size == 0) TVM_FFI_CORE_THROW(IndexError) << "pop from empty List";
  CheckSeqIndex(i, size, "List");
}

int64_t SeqGrownCapacity(int64_t capacity, int64_t needed) {
  int64_t cap = capacity < 4 ? 4 : capacity;
  while (cap < needed) cap *= 2;
  return cap;
}

bool SeqContains(const TVMFFISeqCell& c, const TVMFFIAny& value) {
  const TVMFFIAny* d = SeqData(c);
  for (int64_t i = 0; i < c.size; ++i) {
    if (AnyKeyEqual(d[i], value)) return true;
  }
  return false;
}

void SeqSetOwned(TVMFFISeqCell* c, int64_t i, TVMFFIAny value) {
  TVMFFIAny old = SeqData(*c)[i];
  SeqData(*c)[i] = value;
  ReleaseValue(&old);
}

TVMFFIObject* ArrayMake(int64_t capacity) {
  if (capacity < 0) TVM_FFI_CORE_THROW(ValueError) << "negative Array capacity " << capacity;
  return MakeSeqObject(kTVMFFIArray, capacity);
}

TVMFFIObject* ArrayFromViews(const TVMFFIAny* views, int64_t n) {
  return FillFromViews(ArrayMake(n), views, n);
}

TVMFFIObject* ArrayCopyOf(const TVMFFISeqCell& src, int64_t capacity) {
  TVMFFIObject* obj = ArrayMake(capacity < src.size ? src.size : capacity);
  TVMFFISeqCell* c = SeqCellOf(obj);
  const TVMFFIAny* from = SeqData(src);
  for (int64_t i = 0; i < src.size; ++i) SeqData(*c)[i] = CopyValue(from[i]);
  c->size = src.size;
  return obj;
}

TVMFFIObject* ListMake(int64_t capacity) {
  TVMFFIObject* obj = MakeSeqObject(kTVMFFIList, 0);
  TVMFFISeqCell* c = SeqCellOf(obj);
  c->data = nullptr;
  c->data_deleter = FreeListBuffer;
  try {
    ListReserve(c, capacity);
  } catch (...) {
    ObjectDecRef(obj);
    throw;
  }
  return obj;
}

TVMFFIObject* ListFromViews(const TVMFFIAny* views, int64_t n) {
  return FillFromViews(ListMake(n), views, n);
}

void ListReserve(TVMFFISeqCell* c, int64_t n) {
  if (n <= c->capacity) return;
  void* buf = ::operator new(static_cast<size_t>(n) * sizeof(TVMFFIAny));
  MoveElements(static_cast<TVMFFIAny*>(buf), SeqData(*c), c->size);
  if (c->data != nullptr && c->data_deleter != nullptr) c->data_deleter(c->data);
  c->data = buf;
  c->capacity = n;
  c->data_deleter = FreeListBuffer;
}

void ListAppend(TVMFFISeqCell* c, TVMFFIAny value) {
  try {
    ListGrowFor(c, c->size + 1);
  } catch (...) {
    ReleaseValue(&value);
    throw;
  }
  SeqData(*c)[c->size++] = value;
}

void ListInsert(TVMFFISeqCell* c, int64_t i, TVMFFIAny value) {
  try {
    ListGrowFor(c, c->size + 1);
  } catch (...) {
    ReleaseValue(&value);
    throw;
  }
  TVMFFIAny* d = SeqData(*c);
  MoveElements(d + i + 1, d + i, c->size - i);
  d[i] = value;
  ++c->size;
}

TVMFFIAny ListTake(TVMFFISeqCell* c, int64_t i) {
  TVMFFIAny* d = SeqData(*c);
  TVMFFIAny out = d[i];
  MoveElements(d + i, d + i + 1, c->size - i - 1);
  --c->size;
  return out;
}

void ListReplaceRange(TVMFFISeqCell* c, int64_t first, int64_t last, const TVMFFIAny* items,
                      int64_t n) {
  int64_t new_size = c->size - (last - first) + n;
  ListGrowFor(c, new_size);
  TVMFFIAny* d = SeqData(*c);
  std::vector<TVMFFIAny> removed(d + first, d + last);
  MoveElements(d + first + n, d + last, c->size - last);
  for (int64_t i = 0; i < n; ++i) d[first + i] = CopyValue(items[i]);
  c->size = new_size;
  for (TVMFFIAny& v : removed) ReleaseValue(&v);
}

void ListReverse(TVMFFISeqCell* c) {
  TVMFFIAny* d = SeqData(*c);
  for (int64_t i = 0, j = c->size - 1; i < j; ++i, --j) std::swap(d[i], d[j]);
}

void ListClear(TVMFFISeqCell* c) { ListReplaceRange(c, 0, c->size, nullptr, 0); }

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

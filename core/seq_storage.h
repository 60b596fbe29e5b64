// Element storage of ffi.Array and ffi.List on the public SeqBaseObj layout
// (include/tvm/ffi/container/seq_base.h): a TVMFFISeqCell after the 24-byte
// object header, whose elements are owning TVMFFIAny values at `data`.
//
// An Array keeps `capacity` slots inline after the cell (data_deleter NULL);
// a List keeps them in a separate ::operator new buffer its data_deleter
// frees (apache-tvm-ffi's headers grow our Lists in place with ::operator new
// and keep that deleter).  The List functions work on lists made by any
// library: a buffer is only ever freed through the deleter stored next to
// it.  Only plain C types appear here.  Index arguments are checked by the
// callers (the Check* functions) unless stated.
#ifndef TVM_FFI_CORE_SEQ_STORAGE_H_
#define TVM_FFI_CORE_SEQ_STORAGE_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

inline TVMFFISeqCell* SeqCellOf(TVMFFIObject* seq) {
  return reinterpret_cast<TVMFFISeqCell*>(reinterpret_cast<char*>(seq) + sizeof(TVMFFIObject));
}
inline const TVMFFISeqCell* SeqCellOf(const TVMFFIObject* seq) {
  return reinterpret_cast<const TVMFFISeqCell*>(reinterpret_cast<const char*>(seq) +
                                                sizeof(TVMFFIObject));
}
inline TVMFFIAny* SeqData(const TVMFFISeqCell& c) { return static_cast<TVMFFIAny*>(c.data); }

// IndexError "index <i> out of range for <what> of size <n>".
void CheckSeqIndex(int64_t index, int64_t size, const char* what);
// The index checks of the List operations, all IndexError.
void CheckListRange(int64_t first, int64_t last, int64_t size);  // 0 <= first <= last <= size
void CheckListInsertIndex(int64_t i, int64_t size);              // 0 <= i <= size
void CheckListPopIndex(int64_t i, int64_t size);                 // non-empty, 0 <= i < size

// The capacity a sequence grows to so that it holds `needed` elements:
// doubling, starting from 4.
int64_t SeqGrownCapacity(int64_t capacity, int64_t needed);

// Whether some element equals `value` (container-key equality).
bool SeqContains(const TVMFFISeqCell& c, const TVMFFIAny& value);
// Replaces element i with an owning value, taking it over.
void SeqSetOwned(TVMFFISeqCell* c, int64_t i, TVMFFIAny value);

// ---- ffi.Array: new references; std::bad_alloc when out of memory --------

// An empty array with room for `capacity` inline elements (ValueError when
// negative).
TVMFFIObject* ArrayMake(int64_t capacity);
// An array of owned conversions of the views (strings copied, rvalue
// references taken).
TVMFFIObject* ArrayFromViews(const TVMFFIAny* views, int64_t n);
// An array of copies (new references) of the elements of any sequence cell,
// with room for max(capacity, size).
TVMFFIObject* ArrayCopyOf(const TVMFFISeqCell& src, int64_t capacity);

// ---- ffi.List ----------------------------------------------------------

// An empty list with a buffer for `capacity` elements (none for 0).
TVMFFIObject* ListMake(int64_t capacity);
// A list of owned conversions of the views.
TVMFFIObject* ListFromViews(const TVMFFIAny* views, int64_t n);
// Makes room for at least `n` elements (exactly n when growing).
void ListReserve(TVMFFISeqCell* c, int64_t n);
// The mutators take over owning values.
void ListAppend(TVMFFISeqCell* c, TVMFFIAny value);
void ListInsert(TVMFFISeqCell* c, int64_t i, TVMFFIAny value);  // 0 <= i <= size
// Removes element i and hands its reference to the caller.
TVMFFIAny ListTake(TVMFFISeqCell* c, int64_t i);
// Replaces [first, last) with copies (new references) of `items`, which
// must not point into this list.  The replaced elements are taken out
// before they are released, so a destructor that reenters the list sees it
// consistent.
void ListReplaceRange(TVMFFISeqCell* c, int64_t first, int64_t last, const TVMFFIAny* items,
                      int64_t n);
void ListReverse(TVMFFISeqCell* c);
void ListClear(TVMFFISeqCell* c);

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_SEQ_STORAGE_H_

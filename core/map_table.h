// The open-addressing hash table behind ffi.Map and ffi.Dict, on the public
// MapBaseObj layout (include/tvm/ffi/container/map_base.h, docs/abi.md "Map
// and Dict").
//
// After the 24-byte object header come the MapCell fields.  Bit 63 of
// `slots` marks the small form: `data` points at `size` pairs in insertion
// order, with room for `slots & ~bit63` (2 or 4; a new map keeps them inline
// after the cell).  Otherwise `data` is a table of `slots` (a power of two)
// entries in blocks of 16: 16 metadata bytes, then 16 entries of
// { pair, prev, next }.  A metadata byte is 0xFF (empty), 0xFE (protected:
// empty, not to be reused during a move), or has bit 7 clear for the head of
// a chain and set for a later member; bits 0-6 select the distance to the
// next member (kMapJumps; 0 ends the chain).  A key's chain starts at entry
// (hash * phi64) >> fib_shift.  Iteration follows the doubly linked list from
// iter_list_head.
//
// The table is apache-tvm-ffi 0.1.x's, whose headers read (and, for a Dict,
// change) these maps inline, so a map built here must be the table upstream
// would build from the same inserts (tests/compat checks it).  Only plain C
// types appear here.  Not synchronised: callers serialise mutation.
#ifndef TVM_FFI_CORE_MAP_TABLE_H_
#define TVM_FFI_CORE_MAP_TABLE_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "map_key.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// One stored pair; both values own what they hold.
struct MapPair {
  TVMFFIAny key;
  TVMFFIAny value;
};

// The fields after the object header.  The last three are read only in the
// dense form; every map object has room for all of them (a small map turns
// dense in place).
struct MapCell {
  void* data;
  uint64_t size;
  uint64_t slots;               // bit 63 set: small form
  void (*data_deleter)(void*);  // frees `data` (not the pairs in it), or nullptr
  uint32_t fib_shift;
  uint64_t iter_list_head;
  uint64_t iter_list_tail;
};

static_assert(sizeof(MapPair) == 32, "a stored pair is two TVMFFIAny");
static_assert(offsetof(MapCell, data) == 0 && offsetof(MapCell, size) == 8 &&
                  offsetof(MapCell, slots) == 16 && offsetof(MapCell, data_deleter) == 24 &&
                  offsetof(MapCell, fib_shift) == 32 && offsetof(MapCell, iter_list_head) == 40 &&
                  offsetof(MapCell, iter_list_tail) == 48 && sizeof(MapCell) == 56,
              "MapCell layout (docs/abi.md)");

constexpr uint64_t kMapSmallTag = uint64_t(1) << 63;
constexpr uint64_t kMapSmallInitSlots = 2;
constexpr uint64_t kMapSmallMaxSlots = 4;
// The end position of a dense map, and "no entry" in its iteration list.
constexpr uint64_t kMapNoIndex = ~uint64_t(0);

// One dense entry and one block of 16.
struct MapDenseItem {
  MapPair kv;
  uint64_t prev;
  uint64_t next;
};
constexpr int kMapBlockSlots = 16;
struct MapDenseBlock {
  uint8_t meta[kMapBlockSlots];
  MapDenseItem items[kMapBlockSlots];
};
static_assert(sizeof(MapDenseItem) == 48 && sizeof(MapDenseBlock) == kMapBlockSlots * 49,
              "dense block layout");

inline MapCell* MapCellOf(TVMFFIObject* map) {
  return reinterpret_cast<MapCell*>(reinterpret_cast<char*>(map) + sizeof(TVMFFIObject));
}
inline const MapCell* MapCellOf(const TVMFFIObject* map) {
  return reinterpret_cast<const MapCell*>(reinterpret_cast<const char*>(map) +
                                          sizeof(TVMFFIObject));
}

// ---- Reading (inline: iteration runs in loops) ----------------------------

inline bool MapIsSmall(const MapCell& c) { return (c.slots & kMapSmallTag) != 0; }
inline uint64_t MapNumSlots(const MapCell& c) { return c.slots & ~kMapSmallTag; }
inline MapDenseItem& MapDenseAt(const MapCell& c, uint64_t i) {
  return static_cast<MapDenseBlock*>(c.data)[i / kMapBlockSlots].items[i % kMapBlockSlots];
}
inline uint8_t MapDenseMeta(const MapCell& c, uint64_t i) {
  return static_cast<const MapDenseBlock*>(c.data)[i / kMapBlockSlots].meta[i % kMapBlockSlots];
}

// Positions: indices into the pair array (small form) or entries (dense
// form), visited in iteration order from MapBeginPos by MapNextPos until
// MapEndPos.  Valid until the next mutation.
inline uint64_t MapBeginPos(const MapCell& c) { return MapIsSmall(c) ? 0 : c.iter_list_head; }
inline uint64_t MapEndPos(const MapCell& c) { return MapIsSmall(c) ? c.size : kMapNoIndex; }
inline uint64_t MapNextPos(const MapCell& c, uint64_t pos) {
  if (MapIsSmall(c)) return pos + 1 < c.size ? pos + 1 : c.size;
  return pos == kMapNoIndex ? pos : MapDenseAt(c, pos).next;
}
inline MapPair& MapPairAt(const MapCell& c, uint64_t pos) {
  return MapIsSmall(c) ? static_cast<MapPair*>(c.data)[pos] : MapDenseAt(c, pos).kv;
}
// Whether `pos` holds a pair now (for positions kept across mutations).
inline bool MapIsLivePos(const MapCell& c, uint64_t pos) {
  if (MapIsSmall(c)) return pos < c.size;
  if (c.data == nullptr || pos >= MapNumSlots(c)) return false;
  uint8_t m = MapDenseMeta(c, pos);
  return m != 0xFF && m != 0xFE;
}

// Keys compare and hash with AnyKeyEqual / AnyKeyHash (core/map_key.h).
// The position of `key`, or MapEndPos.
uint64_t MapFindPos(const MapCell& c, const TVMFFIAny& key);
// The value stored under `key`, borrowed; nullptr when absent.
inline const TVMFFIAny* MapFindValue(const MapCell& c, const TVMFFIAny& key) {
  uint64_t pos = MapFindPos(c, key);
  return pos == MapEndPos(c) ? nullptr : &MapPairAt(c, pos).value;
}

// Throws KeyError `key <rendered key> not found in <what>`.
[[noreturn]] void ThrowMapKeyNotFound(const TVMFFIAny& key, const char* what);

// ---- Making and changing (map_table.cc) ------------------------------------
//
// Maps are objects of type `type_index` (kTVMFFIMap or kTVMFFIDict) that
// this library allocates; the functions that change a map work on maps made
// by any library that follows the layout (storage is only ever freed through
// the data_deleter stored next to it).  Allocation failure is std::bad_alloc.

// A new empty map in the small form with room for `pairs` (2 to 4) pairs
// inside the object; new reference.
TVMFFIObject* MapMake(int32_t type_index, uint64_t pairs = kMapSmallInitSlots);
// A new map of `type_index` holding copies (new references) of the pairs of
// `src`, in the same form: a small copy has room for max(size, 2) pairs, a
// dense copy repeats the table entry for entry.
TVMFFIObject* MapMakeCopy(int32_t type_index, const TVMFFIObject* src);

// A new map of `type_index` of the pairs (views[0], views[1]), ... (n
// values, n even), converted to owning values; a repeated key keeps its last
// value.  The table is the one apache-tvm-ffi's ffi.Map builds, pair by pair
// from an empty map (room for 2 pairs in the small form, then 4, then a
// dense table), so both libraries make the same table from the same
// arguments (tests/compat checks it); 3 or 4 distinct keys take one
// allocation.
TVMFFIObject* MapMakeFromViews(int32_t type_index, const TVMFFIAny* views, int64_t n);

// Inserts or replaces, taking over both owning values (released if it
// throws).  A replaced value is released and the new key dropped (the first
// key stays); in the dense form the pair moves to the back of the iteration
// order.  Growth replaces the storage, never the object.
void MapSet(TVMFFIObject* map, TVMFFIAny key, TVMFFIAny value);
// Removes the pair of `key`; false when it is absent.
bool MapErase(TVMFFIObject* map, const TVMFFIAny& key);
// Removes every pair (they are detached before any is released); the
// storage and its form stay.
void MapClear(TVMFFIObject* map);

// Frees the dense tables the calling thread keeps for reuse (at most 256 KB,
// freed at thread exit anyway).
void MapDropCachedTables();

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_MAP_TABLE_H_

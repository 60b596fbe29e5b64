// Maps: the storage of ffi.Map and ffi.Dict, ffi.Map (72) and the C++ Map.
//
// The object layout and the algorithms are those of apache-tvm-ffi 0.1.x,
// whose C++ headers look up, insert and iterate inline on map objects made
// by any library: docs/abi.md ("Map and Dict") describes them.  In short,
// after the 24-byte object header come
//
//   void* data; uint64_t size; uint64_t slots; void (*data_deleter)(void*);
//
// and, in the dense form only, uint32_t fib_shift (then 4 bytes of padding),
// uint64_t iter_list_head, uint64_t iter_list_tail.  Bit 63 of `slots` marks
// the small form: `data` points to `size` (key, value) pairs kept in
// insertion order, with room for `slots & ~bit63` (at most 4).  The dense form
// is a blocked hash table of `slots` (a power of two) entries: see DenseMap.
// When `data_deleter` is set, it frees `data` (not the pairs in it).
//
// An ffi.Map is immutable once shared; the C++ Map copies on write.
#ifndef TVM_FFI_CORE_IMPL_MAP_H_
#define TVM_FFI_CORE_IMPL_MAP_H_

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "any.h"
#include "any_equal.h"
#include "array.h"
#include "error.h"
#include "object.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

// Throws KeyError `key <rendered key> not found in <what>`.
[[noreturn]] inline void ThrowKeyNotFound(const TVMFFIAny& key, const char* what) {
  TVM_FFI_IMPL_THROW(KeyError) << "key " << RenderKey(key) << " not found in " << what;
}

namespace detail {

// One stored pair; both values own what they hold.  32 bytes.
struct MapKV {
  TVMFFIAny key;
  TVMFFIAny value;
};

// The fields after the object header (offset 24).  The last three are read
// only in the dense form; objects of either form have room for all of them
// (an object made in the small form can be switched to the dense form in
// place).
struct MapCell {
  void* data;
  uint64_t size;
  uint64_t slots;                 // bit 63 set: small form
  void (*data_deleter)(void*);    // frees `data`, or nullptr
  uint32_t fib_shift;             // dense: hash index = (hash * phi64) >> fib_shift
  uint64_t iter_list_head;        // dense: first entry in iteration order
  uint64_t iter_list_tail;        // dense: last entry in iteration order
};

static_assert(sizeof(MapKV) == 32, "MapKV layout");
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

// Frees storage this library allocated for a map (small pair arrays and
// dense blocks alike): the data_deleter of such storage.
inline void MapFreeStorage(void* data) { std::free(data); }

inline void* MapAllocStorage(size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// Dense tables this library allocates carry a 16-byte prefix before the
// blocks (which is where `data` points) holding the table's entry count, so
// that their data_deleter (MapFreeDenseTable) knows the size.  Nothing else
// reads the prefix: code built against other headers only calls the deleter.
struct DenseTablePrefix {
  uint64_t slots;
  uint64_t unused;
};
static_assert(sizeof(DenseTablePrefix) == 16, "keeps the blocks 16-byte aligned");

// Each thread keeps a few freed dense tables for reuse, at most one per
// power-of-two size from 8 to 4096 entries and at most kMaxBytes in all.  A
// map that grows doubles its table again and again, and a program that
// builds maps of one size in a loop frees and allocates the same sizes over
// and over: reusing them saves the allocator calls and, for tables near
// glibc's trim threshold (128 KB), the page faults of memory returned to the
// system and taken back.  Freed at thread exit (or, per thread, by
// MapDropCachedTables).
class DenseTableCache {
 public:
  static constexpr int kMinLog2 = 3;
  static constexpr int kMaxLog2 = 12;
  static constexpr size_t kMaxBytes = 256 * 1024;

  DenseTableCache() = default;
  DenseTableCache(const DenseTableCache&) = delete;
  DenseTableCache& operator=(const DenseTableCache&) = delete;
  ~DenseTableCache() {
    Drop();
    Dead() = true;
  }

  // A freed table of exactly `slots` entries (its prefix), or nullptr.
  void* Take(uint64_t slots, size_t bytes) {
    int c = ClassOf(slots);
    if (c < 0 || table_[c] == nullptr) return nullptr;
    void* p = table_[c];
    table_[c] = nullptr;
    bytes_ -= bytes;
    return p;
  }
  // Keeps `prefix` (a table of `slots` entries, `bytes` long); false when it
  // does not fit (the caller frees it).
  bool Give(void* prefix, uint64_t slots, size_t bytes) {
    int c = ClassOf(slots);
    if (c < 0 || table_[c] != nullptr || bytes_ + bytes > kMaxBytes) return false;
    table_[c] = prefix;
    bytes_ += bytes;
    return true;
  }
  void Drop() {
    for (void*& p : table_) {
      std::free(p);
      p = nullptr;
    }
    bytes_ = 0;
  }

  // This thread's cache; nullptr once it has been destroyed at thread exit
  // (maps freed later, by other thread-exit destructors, bypass it).
  static DenseTableCache* Get() {
    if (Dead()) return nullptr;
    static thread_local DenseTableCache cache;
    return &cache;
  }

 private:
  static bool& Dead() {
    static thread_local bool dead = false;  // trivially destructible: valid to the end
    return dead;
  }
  static int ClassOf(uint64_t slots) {
    if (slots < (uint64_t(1) << kMinLog2) || slots > (uint64_t(1) << kMaxLog2) ||
        (slots & (slots - 1)) != 0) {
      return -1;
    }
    int c = 0;
    for (uint64_t s = slots >> kMinLog2; s > 1; s >>= 1) ++c;
    return c;
  }

  void* table_[kMaxLog2 - kMinLog2 + 1] = {};
  size_t bytes_ = 0;
};

inline size_t DenseTableBytes(uint64_t slots);  // defined after DenseMap

// The data_deleter of dense tables from DenseMap::AllocBlocks.
inline void MapFreeDenseTable(void* data) {
  void* prefix = static_cast<char*>(data) - sizeof(DenseTablePrefix);
  uint64_t slots = static_cast<DenseTablePrefix*>(prefix)->slots;
  DenseTableCache* cache = DenseTableCache::Get();
  if (cache == nullptr || !cache->Give(prefix, slots, DenseTableBytes(slots))) std::free(prefix);
}

// The chain jump distances of the dense form (see DenseMap): 0..15, the
// triangle numbers T(6)..T(72), then T(n) for the 43 n below.
constexpr int kMapNumJumps = 126;
struct MapJumpTable {
  uint64_t value[kMapNumJumps];
};
constexpr uint32_t kMapLargeTriangleRoots[43] = {
    130,        195,         292,         438,       657,       986,       1478,      2217,
    3326,       4988,        7482,        11223,     16835,     25252,     37877,     56816,
    85223,      127835,      191752,      287627,    431440,    647160,    970740,    1456110,
    2184165,    3276247,     4914370,     7371555,   11057333,  16585999,  24878998,  37318497,
    55977745,   83966618,    125949926,   188924889, 283387334, 425081001, 637621501, 956432251,
    1434648376, 2151972564U, 3227958845U};
constexpr MapJumpTable MakeMapJumpTable() {
  MapJumpTable t{};
  int k = 0;
  for (uint64_t d = 0; d < 16; ++d) t.value[k++] = d;
  for (uint64_t n = 6; n <= 72; ++n) t.value[k++] = n * (n + 1) / 2;
  for (uint32_t root : kMapLargeTriangleRoots) {
    uint64_t n = root;
    t.value[k++] = n * (n + 1) / 2;
  }
  return t;
}
inline constexpr MapJumpTable kMapJumps = MakeMapJumpTable();
static_assert(kMapJumps.value[16] == 21 && kMapJumps.value[82] == 2628 &&
                  kMapJumps.value[83] == 8515 && kMapJumps.value[125] == 5209859154120846435ULL,
              "dense map jump table");

// The dense form: a table of `slots` entries (a power of two) stored as
// blocks of 16, each block holding 16 metadata bytes and then 16 entries of
// 48 bytes (the pair, then the previous and next entry in iteration order).
//
// A metadata byte is 0xFF for an empty entry, 0xFE for a protected one (empty
// but not to be reused during a move); otherwise bit 7 is clear for the head
// of a chain and set for a later member, and bits 0-6 select the distance to
// the next member of the chain from kMapJumps (0: the chain ends).  The chain of
// a key starts at entry FibHash(hash); every key of the chain has that start.
// Iteration follows the doubly linked list iter_list_head -> next -> ...
class DenseMap {
 public:
  static constexpr int kBlockSlots = 16;
  static constexpr uint8_t kEmpty = 0xFF;
  static constexpr uint8_t kProtected = 0xFE;
  static constexpr uint8_t kTailBit = 0x80;
  static constexpr uint8_t kJumpMask = 0x7F;
  static constexpr int kNumJumps = kMapNumJumps;
  static constexpr double kMaxLoadFactor = 0.99;

  struct Item {
    MapKV kv;
    uint64_t prev;
    uint64_t next;
  };
  struct Block {
    uint8_t meta[kBlockSlots];
    Item items[kBlockSlots];
  };
  static_assert(sizeof(Item) == 48, "dense entry layout");
  static_assert(sizeof(Block) == kBlockSlots * 49, "dense block layout");

  // The storage pointer and size are read once: the table must not be
  // replaced while this view is in use.
  explicit DenseMap(MapCell* cell)
      : c_(cell), blocks_(static_cast<Block*>(cell->data)), mask_(cell->slots - 1) {}

  // The distance selected by a jump code (kMapJumps).
  static uint64_t Jump(uint8_t code) { return kMapJumps.value[code]; }

  static uint64_t FibHash(uint64_t hash, uint32_t shift) {
    return (hash * 11400714819323198485ULL) >> shift;
  }
  static uint64_t NumBlocks(uint64_t slots) { return (slots + kBlockSlots - 1) / kBlockSlots; }

  // The smallest power-of-two table for `cap` entries that leaves at least
  // half of it free, and its Fibonacci shift.
  static void TableSizeFor(uint64_t cap, uint32_t* shift, uint64_t* slots) {
    uint32_t s = 64;
    uint64_t n = 1;
    for (uint64_t c = cap; c != 0; c >>= 1) {
      --s;
      n <<= 1;
    }
    if (n < cap * 2) {
      *shift = s - 1;
      *slots = n << 1;
    } else {
      *shift = s;
      *slots = n;
    }
  }

  // Fresh storage for `slots` entries, every entry empty: this thread's
  // cached table of that size when there is one.  Freed with
  // MapFreeDenseTable.
  static Block* AllocBlocks(uint64_t slots) {
    uint64_t n = NumBlocks(slots);
    size_t bytes = DenseTableBytes(slots);
    DenseTableCache* cache = DenseTableCache::Get();
    void* prefix = cache == nullptr ? nullptr : cache->Take(slots, bytes);
    if (prefix == nullptr) prefix = MapAllocStorage(bytes);
    static_cast<DenseTablePrefix*>(prefix)->slots = slots;
    Block* blocks = reinterpret_cast<Block*>(static_cast<char*>(prefix) + sizeof(DenseTablePrefix));
    for (uint64_t b = 0; b < n; ++b) std::memset(blocks[b].meta, kEmpty, kBlockSlots);
    return blocks;
  }

  uint64_t slots() const { return mask_ + 1; }
  uint8_t& Meta(uint64_t i) const { return Blocks()[i / kBlockSlots].meta[i % kBlockSlots]; }
  Item& At(uint64_t i) const { return Blocks()[i / kBlockSlots].items[i % kBlockSlots]; }
  // Starts loading entry i's pair, which is on another cache line than its
  // metadata byte, while the metadata is read.
  void Prefetch(uint64_t i) const {
#if defined(__GNUC__)
    __builtin_prefetch(&At(i).kv);
#endif
  }
  bool IsLive(uint64_t i) const {
    uint8_t m = Meta(i);
    return m != kEmpty && m != kProtected;
  }
  // The next member of i's chain, or kMapNoIndex.
  uint64_t ChainNext(uint64_t i, uint8_t meta) const {
    uint64_t d = Jump(meta & kJumpMask);
    return d == 0 ? kMapNoIndex : (i + d) & mask_;
  }

  // The entry holding `key`, or kMapNoIndex.
  uint64_t Find(const TVMFFIAny& key, uint64_t hash) const {
    if (c_->size == 0) return kMapNoIndex;
    uint64_t i = FibHash(hash, c_->fib_shift);
    Prefetch(i);
    uint8_t m = Meta(i);
    if (m & kTailBit) return kMapNoIndex;  // empty, protected, or another chain's member
    for (;;) {
      if (AnyKeyEqual(key, At(i).kv.key)) return i;
      i = ChainNext(i, m);
      if (i == kMapNoIndex) return kMapNoIndex;
      m = Meta(i);
    }
  }

  enum InsertResult { kInserted, kExisted, kNoRoom };

  // Adds (key, value) as a new pair at the back of the iteration list
  // (kInserted: the table takes over both references), or finds `key`
  // present (kExisted: *out is its entry; nothing changed), or finds no room
  // (kNoRoom: the table must grow; pairs may have moved to other entries, but
  // every lookup and the iteration order are as before).  `known_absent`
  // skips the key comparisons (the outcome is the same either way).
  InsertResult TryInsert(const TVMFFIAny& key, const TVMFFIAny& value, uint64_t hash,
                         uint64_t* out, bool known_absent = false) {
    if (c_->slots == 0) return kNoRoom;
    uint64_t i = FibHash(hash, c_->fib_shift);
    uint8_t m = Meta(i);
    if (m == kEmpty) {
      PlaceBack(i, 0, key, value);
      return kInserted;
    }
    if (m & kTailBit) {
      // The entry belongs to another chain: move that chain's rest away.
      if (IsFull() || !TrySpareHead(i)) return kNoRoom;
      PlaceBack(i, 0, key, value);
      return kInserted;
    }
    uint64_t tail = i;
    for (;;) {
      if (!known_absent && AnyKeyEqual(key, At(tail).kv.key)) {
        *out = tail;
        return kExisted;
      }
      uint64_t d = Jump(m & kJumpMask);
      if (d == 0) break;
      tail = (tail + d) & mask_;
      m = Meta(tail);
    }
    if (IsFull()) return kNoRoom;
    uint8_t jump;
    uint64_t empty;
    if (!NextEmpty(tail, &jump, &empty)) return kNoRoom;
    Meta(tail) = static_cast<uint8_t>((m & kTailBit) | jump);
    PlaceBack(empty, kTailBit, key, value);
    return kInserted;
  }

  // Removes entry i from its chain and the iteration list; returns its pair
  // (the caller releases it).
  MapKV Remove(uint64_t i) {
    --c_->size;
    MapKV removed = At(i).kv;
    uint8_t m = Meta(i);
    if (Jump(m & kJumpMask) == 0) {
      if (m & kTailBit) SetJump(FindPrev(i), 0);
      ListUnlink(i);
      Meta(i) = kEmpty;
      return removed;
    }
    // Move the chain's last member into i.
    uint64_t prev = i;
    uint64_t last = ChainNext(i, m);
    while (Jump(Meta(last) & kJumpMask) != 0) {
      prev = last;
      last = ChainNext(last, Meta(last));
    }
    ListUnlink(i);
    At(i).kv = At(last).kv;
    ListReplace(last, i);
    Meta(last) = kEmpty;
    SetJump(prev, 0);
    return removed;
  }

  void ListUnlink(uint64_t i) {
    uint64_t prev = At(i).prev;
    uint64_t next = At(i).next;
    if (prev == kMapNoIndex) {
      c_->iter_list_head = next;
    } else {
      At(prev).next = next;
    }
    if (next == kMapNoIndex) {
      c_->iter_list_tail = prev;
    } else {
      At(next).prev = prev;
    }
  }
  void ListPushBack(uint64_t i) {
    At(i).prev = c_->iter_list_tail;
    At(i).next = kMapNoIndex;
    if (c_->iter_list_tail != kMapNoIndex) At(c_->iter_list_tail).next = i;
    if (c_->iter_list_head == kMapNoIndex) c_->iter_list_head = i;
    c_->iter_list_tail = i;
  }

 private:
  Block* Blocks() const { return blocks_; }

  bool IsFull() const {
    return static_cast<double>(c_->size + 1) > static_cast<double>(mask_ + 1) * kMaxLoadFactor;
  }
  void SetJump(uint64_t i, uint8_t jump) const {
    uint8_t& m = Meta(i);
    m = static_cast<uint8_t>((m & kTailBit) | jump);
  }
  // Fills the empty (or protected) entry i and links it at the back of the
  // iteration list.
  void PlaceBack(uint64_t i, uint8_t meta, const TVMFFIAny& key, const TVMFFIAny& value) {
    uint64_t tail = c_->iter_list_tail;
    uint64_t size = c_->size;
    Meta(i) = meta;
    Item& item = At(i);
    item.kv.key = key;
    item.kv.value = value;
    item.prev = tail;
    item.next = kMapNoIndex;
    if (tail == kMapNoIndex) {
      c_->iter_list_head = i;
    } else {
      At(tail).next = i;
    }
    c_->iter_list_tail = i;
    c_->size = size + 1;
  }
  // The first empty entry among the jumps from i, and its jump code.
  bool NextEmpty(uint64_t i, uint8_t* jump, uint64_t* out) const {
    uint8_t code = 1;
#if defined(__SSE2__)
    if (mask_ + 1 >= kBlockSlots) {
      // Codes 1-15 jump 1-15 entries: the rest of i's block, then the start
      // of the next one (the first again when there is one block).  One
      // 16-byte compare per block finds the first empty entry among them.
      uint64_t block = i / kBlockSlots;
      uint32_t off = static_cast<uint32_t>(i % kBlockSlots);
      uint64_t next_block = (block + 1) & ((mask_ + 1) / kBlockSlots - 1);
      uint32_t bits = ((EmptyBits(block) >> (off + 1)) | (EmptyBits(next_block) << (15 - off))) &
                      0x7FFFu;  // bit d-1: entry i+d is empty
      if (bits != 0) {
        uint32_t d = static_cast<uint32_t>(__builtin_ctz(bits)) + 1;
        *jump = static_cast<uint8_t>(d);
        *out = (i + d) & mask_;
        return true;
      }
      code = kBlockSlots;
    }
#endif
    for (; code < kNumJumps; ++code) {
      uint64_t candidate = (i + Jump(code)) & mask_;
      if (Meta(candidate) == kEmpty) {
        *jump = code;
        *out = candidate;
        return true;
      }
    }
    return false;
  }
#if defined(__SSE2__)
  // Bit k set: entry k of block b is empty.
  uint32_t EmptyBits(uint64_t b) const {
    __m128i meta = _mm_loadu_si128(reinterpret_cast<const __m128i*>(Blocks()[b].meta));
    return static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(meta, _mm_set1_epi8(static_cast<char>(kEmpty)))));
  }
#endif
  // The member before i in its chain (i is not a head): the live entry
  // whose jump leads to i (there is exactly one), found by trying the jumps
  // backwards from i, shortest first; no key is hashed.
  uint64_t FindPrev(uint64_t i) const {
    for (uint8_t code = 1; code < kNumJumps; ++code) {
      uint64_t p = (i - Jump(code)) & mask_;
      uint8_t m = Meta(p);
      if (m != kEmpty && m != kProtected && (m & kJumpMask) == code) return p;
    }
    // Not reached in a well-formed table; walk i's chain from its start.
    uint64_t prev = FibHash(AnyKeyHash(At(i).kv.key), c_->fib_shift);
    for (uint64_t next = ChainNext(prev, Meta(prev)); next != i && next != kMapNoIndex;
         prev = next, next = ChainNext(next, Meta(next))) {
    }
    return prev;
  }
  // Entry `target` is a later member of another chain: moves it and the rest
  // of that chain to empty entries reached from the member before it, and
  // leaves `target` protected (the caller places the new head there).
  bool TrySpareHead(uint64_t target) {
    uint64_t w = FindPrev(target);
    uint64_t r = target;
    bool first = true;
    for (;;) {
      uint8_t jump;
      uint64_t empty;
      if (!NextEmpty(w, &jump, &empty)) return false;
      Meta(empty) = kTailBit;
      At(empty).kv = At(r).kv;
      ListReplace(r, empty);
      uint8_t r_meta = Meta(r);
      Meta(r) = first ? kProtected : kEmpty;
      first = false;
      SetJump(w, jump);
      w = empty;
      r = ChainNext(r, r_meta);
      if (r == kMapNoIndex) return true;
    }
  }
  // Entry dst takes src's place in the iteration list.
  void ListReplace(uint64_t src, uint64_t dst) {
    uint64_t prev = At(src).prev;
    uint64_t next = At(src).next;
    At(dst).prev = prev;
    At(dst).next = next;
    if (prev == kMapNoIndex) {
      c_->iter_list_head = dst;
    } else {
      At(prev).next = dst;
    }
    if (next == kMapNoIndex) {
      c_->iter_list_tail = dst;
    } else {
      At(next).prev = dst;
    }
  }

  MapCell* c_;
  Block* blocks_;
  uint64_t mask_;  // slots - 1
};

inline size_t DenseTableBytes(uint64_t slots) {
  return sizeof(DenseTablePrefix) + static_cast<size_t>(DenseMap::NumBlocks(slots)) *
                                        sizeof(DenseMap::Block);
}

}  // namespace detail

// Frees the dense tables the calling thread keeps for reuse (see
// detail::DenseTableCache; at most 256 KB, freed at thread exit anyway).
inline void MapDropCachedTables() {
  if (detail::DenseTableCache* cache = detail::DenseTableCache::Get()) cache->Drop();
}

// What Map and Dict share: the layout above, and the operations both the
// globals and the C++ references use.  Works on map objects made by any
// library that follows the layout (so storage may carry a foreign
// data_deleter).  Not synchronised: callers serialise mutation.
class MapBaseObj : public Object {
 public:
  using KV = detail::MapKV;

  bool IsSmall() const { return (cell_.slots & detail::kMapSmallTag) != 0; }
  uint64_t NumSlots() const { return cell_.slots & ~detail::kMapSmallTag; }
  int64_t size() const { return static_cast<int64_t>(cell_.size); }
  const detail::MapCell& cell() const { return cell_; }

  // Positions: indices into the pair array (small form) or entries (dense
  // form), visited in iteration order from BeginPos() by NextPos() until
  // EndPos().  Valid until the next mutation.
  uint64_t BeginPos() const { return IsSmall() ? 0 : cell_.iter_list_head; }
  uint64_t EndPos() const { return IsSmall() ? cell_.size : detail::kMapNoIndex; }
  uint64_t NextPos(uint64_t pos) const {
    if (IsSmall()) return pos + 1 < cell_.size ? pos + 1 : cell_.size;
    return pos == detail::kMapNoIndex ? pos : Dense().At(pos).next;
  }
  const KV& KVAt(uint64_t pos) const {
    return IsSmall() ? SmallData()[pos] : Dense().At(pos).kv;
  }
  // Whether `pos` holds a pair now (for positions kept across mutations).
  bool IsLivePos(uint64_t pos) const {
    if (IsSmall()) return pos < cell_.size;
    return cell_.data != nullptr && pos < NumSlots() && Dense().IsLive(pos);
  }
  // The position of `key`, or EndPos().
  uint64_t FindPos(const TVMFFIAny& key) const {
    if (IsSmall()) {
      const KV* kv = SmallData();
      for (uint64_t i = 0; i < cell_.size; ++i) {
        if (AnyKeyEqual(kv[i].key, key)) return i;
      }
      return cell_.size;
    }
    return Dense().Find(key, AnyKeyHash(key));
  }
  // The value stored under `key`, borrowed; nullptr when absent.
  const TVMFFIAny* FindValue(const TVMFFIAny& key) const {
    if (IsSmall()) {
      const KV* kv = SmallData();
      for (uint64_t i = 0; i < cell_.size; ++i) {
        if (AnyKeyEqual(kv[i].key, key)) return &kv[i].value;
      }
      return nullptr;
    }
    detail::DenseMap dense = Dense();
    uint64_t pos = dense.Find(key, AnyKeyHash(key));
    return pos == detail::kMapNoIndex ? nullptr : &dense.At(pos).kv.value;
  }

  // Inserts or replaces; takes over both owning values.  A replaced value is
  // released and the new key dropped (the first key stays).  Growth happens
  // in place (the storage, not the object, is replaced).
  void Set(TVMFFIAny key, TVMFFIAny value) {
    try {
      if (IsSmall()) {
        uint64_t n = NumSlots();
        if (n < detail::kMapSmallMaxSlots || cell_.size < n) {
          SmallSet(key, value);
          return;
        }
        if (n != detail::kMapSmallMaxSlots) {
          TVM_FFI_IMPL_THROW(InternalError) << "map in the small form has " << n
                                      << " slots (at most 4 allowed)";
        }
        // A full small map (even when the key is present) becomes dense.
        uint32_t shift;
        uint64_t slots;
        detail::DenseMap::TableSizeFor(cell_.size, &shift, &slots);
        Rebuild(shift, slots);
      }
      DenseSet(key, value);
    } catch (...) {
      AnyRelease(&key);
      AnyRelease(&value);
      throw;
    }
  }

  // Removes the pair; false when the key is absent.
  bool Erase(const TVMFFIAny& key) {
    uint64_t pos = FindPos(key);
    if (pos == EndPos()) return false;
    KV removed;
    if (IsSmall()) {
      KV* kv = SmallData();
      removed = kv[pos];
      std::memmove(static_cast<void*>(kv + pos), static_cast<const void*>(kv + pos + 1),
                   static_cast<size_t>(cell_.size - pos - 1) * sizeof(KV));
      --cell_.size;
    } else {
      removed = Dense().Remove(pos);
    }
    AnyRelease(&removed.key);
    AnyRelease(&removed.value);
    return true;
  }

  // Removes every pair; the storage (and its form) stays.
  void Clear() {
    // Detach the pairs before releasing them, so destructors that look at
    // this map see it empty.
    std::vector<KV> removed;
    removed.reserve(static_cast<size_t>(cell_.size));
    if (IsSmall()) {
      removed.assign(SmallData(), SmallData() + cell_.size);
    } else if (cell_.data != nullptr) {
      detail::DenseMap dense = Dense();
      for (uint64_t i = 0; i < NumSlots(); ++i) {
        if (dense.IsLive(i)) {
          removed.push_back(dense.At(i).kv);
          dense.Meta(i) = detail::DenseMap::kEmpty;
        }
      }
      cell_.iter_list_head = detail::kMapNoIndex;
      cell_.iter_list_tail = detail::kMapNoIndex;
    }
    cell_.size = 0;
    for (KV& kv : removed) {
      AnyRelease(&kv.key);
      AnyRelease(&kv.value);
    }
  }

 protected:
  MapBaseObj() {
    cell_.data = InlineData();
    cell_.size = 0;
    cell_.slots = detail::kMapSmallTag | detail::kMapSmallInitSlots;
    cell_.data_deleter = nullptr;
    cell_.fib_shift = 63;
    cell_.iter_list_head = detail::kMapNoIndex;
    cell_.iter_list_tail = detail::kMapNoIndex;
  }
  ~MapBaseObj() {
    if (IsSmall()) {
      KV* kv = SmallData();
      for (uint64_t i = 0; i < cell_.size; ++i) {
        AnyRelease(&kv[i].key);
        AnyRelease(&kv[i].value);
      }
    } else if (cell_.data != nullptr) {
      detail::DenseMap dense = Dense();
      for (uint64_t i = 0; i < NumSlots(); ++i) {
        if (dense.IsLive(i)) {
          AnyRelease(&dense.At(i).kv.key);
          AnyRelease(&dense.At(i).kv.value);
        }
      }
    }
    if (cell_.data_deleter != nullptr && cell_.data != nullptr) cell_.data_deleter(cell_.data);
  }

  // A new, empty Derived in the small form with room for `n` pairs
  // (2 <= n <= 4) inside the object.
  template <typename Derived>
  static ObjectPtr<Derived> MakeEmpty(uint64_t n = detail::kMapSmallInitSlots) {
    if (n < detail::kMapSmallInitSlots) n = detail::kMapSmallInitSlots;
    ObjectPtr<Derived> obj = MakeObjectWithExtra<Derived>(static_cast<size_t>(n) * sizeof(KV));
    obj->cell_.slots = detail::kMapSmallTag | n;
    return obj;
  }
  // A new Derived holding copies (new references) of the pairs of `src`, in
  // the same form: a small copy has room for max(size, 2) pairs; a dense copy
  // repeats the table entry for entry.
  template <typename Derived>
  static ObjectPtr<Derived> MakeCopy(const MapBaseObj& src) {
    if (src.IsSmall()) {
      ObjectPtr<Derived> obj = MakeEmpty<Derived>(src.cell_.size);
      const KV* from = src.SmallData();
      KV* to = obj->SmallData();
      for (uint64_t i = 0; i < src.cell_.size; ++i) {
        to[i].key = detail::CopyOwned(from[i].key);
        to[i].value = detail::CopyOwned(from[i].value);
        obj->cell_.size = i + 1;
      }
      return obj;
    }
    ObjectPtr<Derived> obj = MakeEmpty<Derived>();
    uint64_t slots = src.NumSlots();
    detail::DenseMap::Block* blocks = detail::DenseMap::AllocBlocks(slots);
    obj->cell_.data = blocks;
    obj->cell_.data_deleter = detail::MapFreeDenseTable;
    obj->cell_.slots = slots;
    obj->cell_.fib_shift = src.cell_.fib_shift;
    obj->cell_.iter_list_head = src.cell_.iter_list_head;
    obj->cell_.iter_list_tail = src.cell_.iter_list_tail;
    detail::DenseMap from = src.Dense();
    detail::DenseMap to = obj->Dense();
    // Copy entries first and metadata after, so a partly made copy that is
    // destroyed releases exactly the entries it holds.
    for (uint64_t i = 0; i < slots; ++i) {
      if (!from.IsLive(i)) continue;
      detail::DenseMap::Item& item = to.At(i);
      item.kv.key = detail::CopyOwned(from.At(i).kv.key);
      item.kv.value = detail::CopyOwned(from.At(i).kv.value);
      item.prev = from.At(i).prev;
      item.next = from.At(i).next;
      to.Meta(i) = from.Meta(i);
    }
    obj->cell_.size = src.cell_.size;
    return obj;
  }

 private:
  KV* SmallData() const { return static_cast<KV*>(cell_.data); }
  void* InlineData() { return reinterpret_cast<char*>(this) + sizeof(MapBaseObj); }
  detail::DenseMap Dense() const { return detail::DenseMap(const_cast<detail::MapCell*>(&cell_)); }

  // Installs new storage, freeing the old (memory only: its pairs moved).
  void ReplaceStorage(void* data, void (*deleter)(void*)) {
    void* old = cell_.data;
    void (*old_deleter)(void*) = cell_.data_deleter;
    cell_.data = data;
    cell_.data_deleter = deleter;
    if (old_deleter != nullptr && old != nullptr) old_deleter(old);
  }

  // Small form with room left or the key present; grows the pair array
  // (doubling, at most 4) when full.
  void SmallSet(TVMFFIAny key, TVMFFIAny value) {
    KV* kv = SmallData();
    for (uint64_t i = 0; i < cell_.size; ++i) {
      if (AnyKeyEqual(kv[i].key, key)) {
        TVMFFIAny old = kv[i].value;
        kv[i].value = value;
        AnyRelease(&old);
        AnyRelease(&key);
        return;
      }
    }
    uint64_t n = NumSlots();
    if (cell_.size == n) {
      uint64_t grown = n * 2 > detail::kMapSmallInitSlots ? n * 2 : detail::kMapSmallInitSlots;
      if (grown > detail::kMapSmallMaxSlots) grown = detail::kMapSmallMaxSlots;
      KV* bigger = static_cast<KV*>(detail::MapAllocStorage(static_cast<size_t>(grown) * sizeof(KV)));
      std::memcpy(static_cast<void*>(bigger), static_cast<const void*>(kv),
                  static_cast<size_t>(cell_.size) * sizeof(KV));
      ReplaceStorage(bigger, detail::MapFreeStorage);
      cell_.slots = detail::kMapSmallTag | grown;
      kv = bigger;
    }
    kv[cell_.size].key = key;
    kv[cell_.size].value = value;
    ++cell_.size;
  }

  void DenseSet(TVMFFIAny key, TVMFFIAny value) {
    if (NumSlots() == 0) TVM_FFI_IMPL_THROW(InternalError) << "map in the dense form has no storage";
    uint64_t hash = AnyKeyHash(key);
    for (;;) {
      detail::DenseMap dense = Dense();
      uint64_t pos;
      switch (dense.TryInsert(key, value, hash, &pos)) {
        case detail::DenseMap::kInserted:
          return;
        case detail::DenseMap::kExisted: {
          TVMFFIAny old = dense.At(pos).kv.value;
          dense.At(pos).kv.value = value;
          dense.ListUnlink(pos);
          dense.ListPushBack(pos);
          AnyRelease(&old);
          AnyRelease(&key);
          return;
        }
        case detail::DenseMap::kNoRoom:
          break;
      }
      Rebuild(cell_.fib_shift - 1, NumSlots() * 2);
    }
  }

  // Moves every pair, in iteration order, into a new dense table of `slots`
  // entries (doubling until they fit) and switches this map to it.
  void Rebuild(uint32_t shift, uint64_t slots) {
    if (IsSmall()) {
      // At most 4 pairs (kMapSmallMaxSlots); a corrupt size is refused by Set.
      uint64_t hashes[detail::kMapSmallMaxSlots];
      const uint64_t n = cell_.size;
      for (uint64_t k = 0; k < n; ++k) hashes[k] = AnyKeyHash(SmallData()[k].key);
      RebuildFrom(shift, slots, [&](auto&& place) {
        for (uint64_t k = 0; k < n; ++k) {
          if (!place(SmallData()[k], hashes[k])) return false;
        }
        return true;
      });
      return;
    }
    // Each key's hash is computed once however many tables are tried (a
    // table that turns out too small is retried twice as large), scanning
    // the table in memory order, where the hashes of several keys can
    // proceed at once.  It is kept in the entry's `prev` link, which the
    // walk below does not need and which sits on the line of `next` that it
    // reads anyway; the links are put back if anything throws before the old
    // table is dropped.
    detail::DenseMap from = Dense();
    detail::DenseMap::Block* blocks = static_cast<detail::DenseMap::Block*>(cell_.data);
    const uint64_t nblocks = detail::DenseMap::NumBlocks(NumSlots());
    try {
      for (uint64_t b = 0; b < nblocks; ++b) {
        for (int j = 0; j < detail::DenseMap::kBlockSlots; ++j) {
          uint8_t m = blocks[b].meta[j];
          if (m != detail::DenseMap::kEmpty && m != detail::DenseMap::kProtected) {
            detail::DenseMap::Item& item = blocks[b].items[j];
            item.prev = AnyKeyHash(item.kv.key);
          }
        }
      }
      const uint64_t head = cell_.iter_list_head;
      const uint64_t size = cell_.size;
      RebuildFrom(shift, slots, [&](auto&& place) {
        uint64_t left = size;
        for (uint64_t pos = head; pos != detail::kMapNoIndex && left != 0; --left) {
          const detail::DenseMap::Item& item = from.At(pos);
          uint64_t next = item.next;
          if (!place(item.kv, item.prev)) return false;
          pos = next;
        }
        return true;
      });
    } catch (...) {
      uint64_t prev = detail::kMapNoIndex;
      for (uint64_t pos = cell_.iter_list_head; pos != detail::kMapNoIndex;
           pos = from.At(pos).next) {
        from.At(pos).prev = prev;
        prev = pos;
      }
      throw;
    }
  }

  // Builds a table of `slots` entries from the pairs `walk` offers, in
  // iteration order, with their hashes (doubling the table until they all
  // fit), and switches this map to it.  Only allocation can throw.
  template <typename Walk>
  void RebuildFrom(uint32_t shift, uint64_t slots, Walk walk) {
    for (;;) {
      detail::MapCell fresh;
      fresh.data = detail::DenseMap::AllocBlocks(slots);
      fresh.size = 0;
      fresh.slots = slots;
      fresh.data_deleter = detail::MapFreeDenseTable;
      fresh.fib_shift = shift;
      fresh.iter_list_head = detail::kMapNoIndex;
      fresh.iter_list_tail = detail::kMapNoIndex;
      // Raw copies only: no key is compared or hashed.
      detail::DenseMap to(&fresh);
      uint64_t unused;
      bool fits = walk([&](const KV& kv, uint64_t hash) {
        return to.TryInsert(kv.key, kv.value, hash, &unused, /*known_absent=*/true) ==
               detail::DenseMap::kInserted;
      });
      if (!fits) {
        detail::MapFreeDenseTable(fresh.data);
        --shift;
        slots *= 2;
        continue;
      }
      ReplaceStorage(fresh.data, fresh.data_deleter);
      cell_.size = fresh.size;
      cell_.slots = fresh.slots;
      cell_.fib_shift = fresh.fib_shift;
      cell_.iter_list_head = fresh.iter_list_head;
      cell_.iter_list_tail = fresh.iter_list_tail;
      return;
    }
  }

  detail::MapCell cell_;
};

static_assert(sizeof(MapBaseObj) == sizeof(TVMFFIObject) + sizeof(detail::MapCell),
              "the map fields follow the 24-byte object header");

class MapObj : public MapBaseObj {
 public:
  TVM_FFI_IMPL_DECLARE_STATIC_TYPE(MapObj, kTVMFFIMap, "ffi.Map")
  static constexpr const char* kDisplayName = "Map";  // in error messages

  static ObjectPtr<MapObj> Make() { return MakeEmpty<MapObj>(); }
  static ObjectPtr<MapObj> CopyOf(const MapBaseObj& src) { return MakeCopy<MapObj>(src); }
};

// Forward iteration over (key, value) pairs in the map's order.
class MapIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = std::pair<Any, Any>;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = value_type;

  MapIterator(const MapBaseObj* obj, uint64_t pos) : obj_(obj), pos_(pos) {}
  Any key() const { return Any::Adopt(detail::CopyOwned(obj_->KVAt(pos_).key)); }
  Any value() const { return Any::Adopt(detail::CopyOwned(obj_->KVAt(pos_).value)); }
  value_type operator*() const { return value_type(key(), value()); }
  MapIterator& operator++() {
    pos_ = obj_->NextPos(pos_);
    return *this;
  }
  bool operator==(const MapIterator& o) const { return pos_ == o.pos_; }
  bool operator!=(const MapIterator& o) const { return pos_ != o.pos_; }

 private:
  const MapBaseObj* obj_;
  uint64_t pos_;
};

// The read side Map and Dict share.  Never null when built by the
// constructors of Map or Dict.
template <typename ObjType>
class MapRefBase : public ObjectRef {
 public:
  using ContainerType = ObjType;
  using iterator = MapIterator;

  int64_t size() const { return obj()->size(); }
  bool empty() const { return size() == 0; }
  int64_t count(const AnyView& key) const { return obj()->FindValue(*key.raw()) ? 1 : 0; }
  // KeyError naming the key when absent.
  Any at(const AnyView& key) const {
    const TVMFFIAny* v = obj()->FindValue(*key.raw());
    if (v == nullptr) ThrowKeyNotFound(*key.raw(), ObjType::kDisplayName);
    return Any::Adopt(detail::CopyOwned(*v));
  }
  Any operator[](const AnyView& key) const { return at(key); }
  std::optional<Any> Get(const AnyView& key) const {
    const TVMFFIAny* v = obj()->FindValue(*key.raw());
    if (v == nullptr) return std::nullopt;
    return Any::Adopt(detail::CopyOwned(*v));
  }
  iterator begin() const { return iterator(obj(), obj()->BeginPos()); }
  iterator end() const { return iterator(obj(), obj()->EndPos()); }

 protected:
  explicit MapRefBase(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}
  ObjType* obj() const { return static_cast<ObjType*>(data_.get()); }
};

// A reference to an immutable ffi.Map.  Set and Erase copy the map first
// unless this is the only reference (copy on write).
class Map : public MapRefBase<MapObj> {
 public:
  Map() : MapRefBase(MapObj::Make()) {}
  Map(std::initializer_list<std::pair<Any, Any>> items) : Map() {
    for (const auto& kv : items) Set(kv.first, kv.second);
  }
  explicit Map(ObjectPtr<Object> p) : MapRefBase(std::move(p)) {}

  void Set(Any key, Any value) { Writable()->Set(key.Release(), value.Release()); }
  // Removes the key if present; returns whether it was.
  bool Erase(const AnyView& key) {
    if (obj()->FindValue(*key.raw()) == nullptr) return false;
    return Writable()->Erase(*key.raw());
  }

  MapObj* GetMapObj() const { return obj(); }

 private:
  MapObj* Writable() {
    if (obj()->use_count() != 1) data_ = MapObj::CopyOf(*obj());
    return obj();
  }
};

// Map and Dict parameters accept either kind: the reference itself, or a new
// copy of the other kind (so a Map never changes, and a callee's changes to
// a Dict made from a Map are not seen through the Map).
template <typename Ref>
struct MapRefTraits : ObjectRefTraitsBase<Ref> {
  static std::optional<Ref> TryCast(const TVMFFIAny* v) {
    using Obj = typename Ref::ContainerType;
    if (v->type_index == Obj::kStaticTypeIndex) {
      return Ref(ObjectPtr<Object>::BorrowHandle(v->v_obj));
    }
    if (v->type_index == kTVMFFIMap || v->type_index == kTVMFFIDict) {
      const MapBaseObj* src = static_cast<const MapBaseObj*>(Object::FromHandle(v->v_obj));
      return Ref(ObjectPtr<Object>(Obj::CopyOf(*src)));
    }
    return std::nullopt;
  }
};

template <>
struct TypeTraits<Map> : MapRefTraits<Map> {};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_MAP_H_

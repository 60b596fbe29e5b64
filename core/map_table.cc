// The hash table of ffi.Map and ffi.Dict: lookup, insertion, growth, removal
// and the map objects themselves (see map_table.h for the layout).
#include "map_table.h"

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map_base.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "container_internal.h"
#include "error_internal.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

static_assert(sizeof(::tvm::ffi::MapBaseObj) == sizeof(TVMFFIObject) + sizeof(MapCell),
              "MapCell mirrors the fields of tvm::ffi::MapBaseObj");

namespace {

// ---- Values -----------------------------------------------------------------

// ---- Storage ----------------------------------------------------------------

void* AllocStorage(size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
// The data_deleter of grown small-form pair arrays.
void FreeStorage(void* data) { std::free(data); }

// Dense tables carry a 16-byte prefix before the blocks (where `data`
// points) holding their entry count, so that their data_deleter
// (FreeDenseTable) knows the size.  Nothing else reads it: other libraries
// only call the deleter.
struct DenseTablePrefix {
  uint64_t slots;
  uint64_t unused;
};
static_assert(sizeof(DenseTablePrefix) == 16, "keeps the blocks 16-byte aligned");

uint64_t NumBlocks(uint64_t slots) { return (slots + kMapBlockSlots - 1) / kMapBlockSlots; }
size_t DenseTableBytes(uint64_t slots) {
  return sizeof(DenseTablePrefix) + static_cast<size_t>(NumBlocks(slots)) * sizeof(MapDenseBlock);
}

// Each thread keeps a few freed dense tables for reuse, at most one per
// power-of-two size from 8 to 4096 entries and kMaxBytes in all.  A growing
// map doubles its table again and again, and a loop that builds maps of one
// size frees and allocates the same sizes over and over: reuse saves the
// allocator calls and, near glibc's trim threshold (128 KB), the page faults
// of memory returned to the system and taken back.  Freed at thread exit.
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
  // Keeps `prefix`; false when it does not fit (the caller frees it).
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

  // This thread's cache; nullptr once destroyed at thread exit (maps freed
  // later, by other thread-exit destructors, bypass it).
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

// The data_deleter of dense tables from AllocBlocks.
void FreeDenseTable(void* data) {
  void* prefix = static_cast<char*>(data) - sizeof(DenseTablePrefix);
  uint64_t slots = static_cast<DenseTablePrefix*>(prefix)->slots;
  DenseTableCache* cache = DenseTableCache::Get();
  if (cache == nullptr || !cache->Give(prefix, slots, DenseTableBytes(slots))) std::free(prefix);
}

// ---- The dense form ---------------------------------------------------------

constexpr uint8_t kEmpty = 0xFF;
constexpr uint8_t kProtected = 0xFE;
constexpr uint8_t kTailBit = 0x80;
constexpr uint8_t kJumpMask = 0x7F;
constexpr int kNumJumps = 126;
constexpr double kMaxLoadFactor = 0.99;

inline uint64_t Jump(uint8_t code) { return ::tvm::ffi::detail::kMapJumpDistances.value[code]; }
inline uint64_t FibHash(uint64_t hash, uint32_t shift) {
  return (hash * 11400714819323198485ULL) >> shift;
}

// The smallest power-of-two table for `cap` entries that leaves at least
// half of it free, and its Fibonacci shift.
void TableSizeFor(uint64_t cap, uint32_t* shift, uint64_t* slots) {
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

// Fresh storage for `slots` entries, all empty: this thread's cached table
// of that size when there is one.  Freed with FreeDenseTable.
MapDenseBlock* AllocBlocks(uint64_t slots) {
  uint64_t n = NumBlocks(slots);
  size_t bytes = DenseTableBytes(slots);
  DenseTableCache* cache = DenseTableCache::Get();
  void* prefix = cache == nullptr ? nullptr : cache->Take(slots, bytes);
  if (prefix == nullptr) prefix = AllocStorage(bytes);
  static_cast<DenseTablePrefix*>(prefix)->slots = slots;
  MapDenseBlock* blocks =
      reinterpret_cast<MapDenseBlock*>(static_cast<char*>(prefix) + sizeof(DenseTablePrefix));
  for (uint64_t b = 0; b < n; ++b) std::memset(blocks[b].meta, kEmpty, kMapBlockSlots);
  return blocks;
}

// A view of a cell in the dense form.  The storage pointer and size are read
// once: the table must not be replaced while the view is in use.
class DenseTable {
 public:
  explicit DenseTable(MapCell* cell)
      : c_(cell), blocks_(static_cast<MapDenseBlock*>(cell->data)), mask_(cell->slots - 1) {}

  uint8_t& Meta(uint64_t i) const { return blocks_[i / kMapBlockSlots].meta[i % kMapBlockSlots]; }
  MapDenseItem& At(uint64_t i) const { return blocks_[i / kMapBlockSlots].items[i % kMapBlockSlots]; }
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
#if defined(__GNUC__)
    __builtin_prefetch(&At(i).kv);  // another cache line than the metadata byte
#endif
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

  // Adds (key, value) at the back of the iteration list (kInserted: the
  // table takes over both references), or finds `key` present (kExisted:
  // *out is its entry; nothing changed), or finds no room (kNoRoom: the
  // table must grow; pairs may have moved, but every lookup and the
  // iteration order are as before).  `known_absent` skips the key
  // comparisons.
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
  MapPair Remove(uint64_t i) {
    --c_->size;
    MapPair removed = At(i).kv;
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
    NextLink(prev) = next;
    PrevLink(next) = prev;
  }
  void ListPushBack(uint64_t i) {
    uint64_t tail = c_->iter_list_tail;
    At(i).prev = tail;
    At(i).next = kMapNoIndex;
    NextLink(tail) = i;
    c_->iter_list_tail = i;
  }

 private:
  // The link that points forward to the entry after `i`: i's `next`, or the
  // list head when i is kMapNoIndex (the entry before the first).
  uint64_t& NextLink(uint64_t i) const {
    return i == kMapNoIndex ? c_->iter_list_head : At(i).next;
  }
  // The link that points back to the entry before `i`: i's `prev`, or the
  // list tail when i is kMapNoIndex (the entry after the last).
  uint64_t& PrevLink(uint64_t i) const {
    return i == kMapNoIndex ? c_->iter_list_tail : At(i).prev;
  }
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
    MapDenseItem& item = At(i);
    item.kv.key = key;
    item.kv.value = value;
    item.prev = tail;
    item.next = kMapNoIndex;
    NextLink(tail) = i;
    c_->iter_list_tail = i;
    c_->size = size + 1;
  }
  // The first empty entry among the jumps from i, and its jump code.
  bool NextEmpty(uint64_t i, uint8_t* jump, uint64_t* out) const {
    uint8_t code = 1;
#if defined(__SSE2__)
    if (mask_ + 1 >= kMapBlockSlots) {
      // Codes 1-15 jump 1-15 entries: the rest of i's block, then the start
      // of the next one (the same block when there is one).  One 16-byte
      // compare per block finds the first empty entry among them.
      uint64_t block = i / kMapBlockSlots;
      uint32_t off = static_cast<uint32_t>(i % kMapBlockSlots);
      uint64_t next_block = (block + 1) & ((mask_ + 1) / kMapBlockSlots - 1);
      uint32_t bits = ((EmptyBits(block) >> (off + 1)) | (EmptyBits(next_block) << (15 - off))) &
                      0x7FFFu;  // bit d-1: entry i+d is empty
      if (bits != 0) {
        uint32_t d = static_cast<uint32_t>(__builtin_ctz(bits)) + 1;
        *jump = static_cast<uint8_t>(d);
        *out = (i + d) & mask_;
        return true;
      }
      code = kMapBlockSlots;
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
    __m128i meta = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks_[b].meta));
    return static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(meta, _mm_set1_epi8(static_cast<char>(kEmpty)))));
  }
#endif
  // The member before i in its chain (i is not a head): the live entry whose
  // jump leads to i (there is exactly one), found by trying the jumps
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
    NextLink(prev) = dst;
    PrevLink(next) = dst;
  }

  MapCell* c_;
  MapDenseBlock* blocks_;
  uint64_t mask_;  // slots - 1
};

// ---- The map ----------------------------------------------------------------

MapPair* SmallData(const MapCell& c) { return static_cast<MapPair*>(c.data); }
void* InlineData(MapCell* c) { return reinterpret_cast<char*>(c) + sizeof(MapCell); }

// Installs new storage, freeing the old (memory only: its pairs moved).
void ReplaceStorage(MapCell* c, void* data, void (*deleter)(void*)) {
  void* old = c->data;
  void (*old_deleter)(void*) = c->data_deleter;
  c->data = data;
  c->data_deleter = deleter;
  if (old_deleter != nullptr && old != nullptr) old_deleter(old);
}

// Releases every pair and the storage: the strong half of the deleter.
void DestroyPairs(MapCell* c) {
  if (MapIsSmall(*c)) {
    MapPair* kv = SmallData(*c);
    for (uint64_t i = 0; i < c->size; ++i) {
      ReleaseValue(&kv[i].key);
      ReleaseValue(&kv[i].value);
    }
  } else if (c->data != nullptr) {
    DenseTable dense(c);
    const uint64_t slots = MapNumSlots(*c);
    for (uint64_t i = 0; i < slots; ++i) {
      if (dense.IsLive(i)) {
        ReleaseValue(&dense.At(i).kv.key);
        ReleaseValue(&dense.At(i).kv.value);
      }
    }
  }
  if (c->data_deleter != nullptr && c->data != nullptr) c->data_deleter(c->data);
}

void MapObjectDeleter(void* self, int flags) {
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) DestroyPairs(MapCellOf(obj));
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

// Builds a table of `slots` entries from the pairs `walk` offers, in
// iteration order, with their hashes (doubling the table until they all
// fit), and switches the map to it.  Only allocation can throw.
template <typename Walk>
void RebuildFrom(MapCell* c, uint32_t shift, uint64_t slots, Walk walk) {
  for (;;) {
    MapCell fresh;
    fresh.data = AllocBlocks(slots);
    fresh.size = 0;
    fresh.slots = slots;
    fresh.data_deleter = FreeDenseTable;
    fresh.fib_shift = shift;
    fresh.iter_list_head = kMapNoIndex;
    fresh.iter_list_tail = kMapNoIndex;
    // Raw copies only: no key is compared or hashed.
    DenseTable to(&fresh);
    uint64_t unused;
    bool fits = walk([&](const MapPair& kv, uint64_t hash) {
      return to.TryInsert(kv.key, kv.value, hash, &unused, /*known_absent=*/true) ==
             DenseTable::kInserted;
    });
    if (!fits) {
      FreeDenseTable(fresh.data);
      --shift;
      slots *= 2;
      continue;
    }
    ReplaceStorage(c, fresh.data, fresh.data_deleter);
    c->size = fresh.size;
    c->slots = fresh.slots;
    c->fib_shift = fresh.fib_shift;
    c->iter_list_head = fresh.iter_list_head;
    c->iter_list_tail = fresh.iter_list_tail;
    return;
  }
}

// Moves every pair, in iteration order, into a new dense table of `slots`
// entries (doubling until they fit) and switches the map to it.
void Rebuild(MapCell* c, uint32_t shift, uint64_t slots) {
  if (MapIsSmall(*c)) {
    // At most 4 pairs (kMapSmallMaxSlots; MapSet refuses a larger small form).
    uint64_t hashes[kMapSmallMaxSlots];
    const uint64_t n = c->size;
    for (uint64_t k = 0; k < n; ++k) hashes[k] = AnyKeyHash(SmallData(*c)[k].key);
    RebuildFrom(c, shift, slots, [&](auto&& place) {
      for (uint64_t k = 0; k < n; ++k) {
        if (!place(SmallData(*c)[k], hashes[k])) return false;
      }
      return true;
    });
    return;
  }
  // Each key's hash is computed once however many tables are tried, scanning
  // the table in memory order (the hashes of several keys can proceed at
  // once).  It is kept in the entry's `prev` link, which the walk below does
  // not need and which sits on the line of `next` that it reads anyway; the
  // links are put back if anything throws before the old table is dropped.
  DenseTable from(c);
  MapDenseBlock* blocks = static_cast<MapDenseBlock*>(c->data);
  const uint64_t nblocks = NumBlocks(MapNumSlots(*c));
  try {
    for (uint64_t b = 0; b < nblocks; ++b) {
      for (int j = 0; j < kMapBlockSlots; ++j) {
        uint8_t m = blocks[b].meta[j];
        if (m != kEmpty && m != kProtected) {
          MapDenseItem& item = blocks[b].items[j];
          item.prev = AnyKeyHash(item.kv.key);
        }
      }
    }
    const uint64_t head = c->iter_list_head;
    const uint64_t size = c->size;
    RebuildFrom(c, shift, slots, [&](auto&& place) {
      uint64_t left = size;
      for (uint64_t pos = head; pos != kMapNoIndex && left != 0; --left) {
        const MapDenseItem& item = from.At(pos);
        uint64_t next = item.next;
        if (!place(item.kv, item.prev)) return false;
        pos = next;
      }
      return true;
    });
  } catch (...) {
    uint64_t prev = kMapNoIndex;
    for (uint64_t pos = c->iter_list_head; pos != kMapNoIndex; pos = from.At(pos).next) {
      from.At(pos).prev = prev;
      prev = pos;
    }
    throw;
  }
}

// The pair of `key` in a small map, or its size.
uint64_t SmallFindPos(const MapCell& c, const TVMFFIAny& key) {
  const MapPair* kv = SmallData(c);
  for (uint64_t i = 0; i < c.size; ++i) {
    if (AnyKeyEqual(kv[i].key, key)) return i;
  }
  return c.size;
}

// Stores (key, value), taking both references, at pair `pos` of a small map
// found by SmallFindPos: a present key gets the new value (the old one is
// released and the new key dropped), an absent one is appended (the caller
// made room).  Cannot fail.
void SmallStore(MapCell* c, uint64_t pos, TVMFFIAny key, TVMFFIAny value) {
  MapPair* kv = SmallData(*c);
  if (pos < c->size) {
    TVMFFIAny old = kv[pos].value;
    kv[pos].value = value;
    ReleaseValue(&old);
    ReleaseValue(&key);
    return;
  }
  kv[pos].key = key;
  kv[pos].value = value;
  ++c->size;
}

// Small form with room left or the key present; grows the pair array
// (doubling, at most 4) when full.
void SmallSet(MapCell* c, TVMFFIAny key, TVMFFIAny value) {
  uint64_t pos = SmallFindPos(*c, key);
  uint64_t n = MapNumSlots(*c);
  if (pos == c->size && c->size == n) {
    uint64_t grown = n * 2 > kMapSmallInitSlots ? n * 2 : kMapSmallInitSlots;
    if (grown > kMapSmallMaxSlots) grown = kMapSmallMaxSlots;
    MapPair* bigger = static_cast<MapPair*>(AllocStorage(static_cast<size_t>(grown) * sizeof(MapPair)));
    std::memcpy(static_cast<void*>(bigger), static_cast<const void*>(SmallData(*c)),
                static_cast<size_t>(c->size) * sizeof(MapPair));
    ReplaceStorage(c, bigger, FreeStorage);
    c->slots = kMapSmallTag | grown;
  }
  SmallStore(c, pos, key, value);
}

void DenseSet(MapCell* c, TVMFFIAny key, TVMFFIAny value) {
  if (MapNumSlots(*c) == 0) {
    TVM_FFI_CORE_THROW(InternalError) << "map in the dense form has no storage";
  }
  uint64_t hash = AnyKeyHash(key);
  for (;;) {
    DenseTable dense(c);
    uint64_t pos;
    switch (dense.TryInsert(key, value, hash, &pos)) {
      case DenseTable::kInserted:
        return;
      case DenseTable::kExisted: {
        TVMFFIAny old = dense.At(pos).kv.value;
        dense.At(pos).kv.value = value;
        dense.ListUnlink(pos);
        dense.ListPushBack(pos);
        ReleaseValue(&old);
        ReleaseValue(&key);
        return;
      }
      case DenseTable::kNoRoom:
        break;
    }
    Rebuild(c, c->fib_shift - 1, MapNumSlots(*c) * 2);
  }
}

}  // namespace

// ---- Keys -------------------------------------------------------------------

uint64_t MapFindPos(const MapCell& c, const TVMFFIAny& key) {
  if (MapIsSmall(c)) return SmallFindPos(c, key);
  return DenseTable(const_cast<MapCell*>(&c)).Find(key, AnyKeyHash(key));
}

void ThrowMapKeyNotFound(const TVMFFIAny& key, const char* what) {
  TVM_FFI_CORE_THROW(KeyError) << "key " << RenderKey(key) << " not found in " << what;
}

// ---- Objects ----------------------------------------------------------------

TVMFFIObject* MapMake(int32_t type_index, uint64_t pairs) {
  if (pairs < kMapSmallInitSlots) pairs = kMapSmallInitSlots;
  void* mem = AllocStorage(sizeof(TVMFFIObject) + sizeof(MapCell) +
                           static_cast<size_t>(pairs) * sizeof(MapPair));
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(mem);
  InitObjectHeader(obj, type_index, MapObjectDeleter);
  MapCell* c = MapCellOf(obj);
  c->data = InlineData(c);
  c->size = 0;
  c->slots = kMapSmallTag | pairs;
  c->data_deleter = nullptr;
  c->fib_shift = 63;
  c->iter_list_head = kMapNoIndex;
  c->iter_list_tail = kMapNoIndex;
  return obj;
}

TVMFFIObject* MapMakeCopy(int32_t type_index, const TVMFFIObject* src) {
  const MapCell& from_cell = *MapCellOf(src);
  if (MapIsSmall(from_cell)) {
    TVMFFIObject* obj = MapMake(type_index, from_cell.size);
    MapCell* c = MapCellOf(obj);
    const MapPair* from = SmallData(from_cell);
    MapPair* to = SmallData(*c);
    for (uint64_t i = 0; i < from_cell.size; ++i) {
      to[i].key = CopyValue(from[i].key);
      to[i].value = CopyValue(from[i].value);
    }
    c->size = from_cell.size;
    return obj;
  }
  TVMFFIObject* obj = MapMake(type_index);
  MapCell* c = MapCellOf(obj);
  const uint64_t slots = MapNumSlots(from_cell);
  try {
    c->data = AllocBlocks(slots);
  } catch (...) {
    ObjectDecRef(obj);
    throw;
  }
  c->data_deleter = FreeDenseTable;
  c->slots = slots;
  c->fib_shift = from_cell.fib_shift;
  c->iter_list_head = from_cell.iter_list_head;
  c->iter_list_tail = from_cell.iter_list_tail;
  DenseTable from(const_cast<MapCell*>(&from_cell));
  DenseTable to(c);
  for (uint64_t i = 0; i < slots; ++i) {
    if (!from.IsLive(i)) continue;
    MapDenseItem& item = to.At(i);
    item.kv.key = CopyValue(from.At(i).kv.key);
    item.kv.value = CopyValue(from.At(i).kv.value);
    item.prev = from.At(i).prev;
    item.next = from.At(i).next;
    to.Meta(i) = from.Meta(i);
  }
  c->size = from_cell.size;
  return obj;
}

TVMFFIObject* MapMakeFromViews(int32_t type_index, const TVMFFIAny* views, int64_t n) {
  // With 3 or more pairs the small form starts with room for 4: what growth
  // from 2 reaches at the third distinct key, without the second allocation
  // and the copy.
  constexpr int64_t kPresizeFromPairs = 3;
  const bool presized = n / 2 >= kPresizeFromPairs;
  Any map = AdoptObject(MapMake(type_index, presized ? kMapSmallMaxSlots : kMapSmallInitSlots));
  TVMFFIObject* obj = AnyUnsafe::TVMFFIAnyPtrFromAny(map)->v_obj;
  MapCell* c = MapCellOf(obj);
  for (int64_t i = 0; i + 1 < n; i += 2) {
    TVMFFIAny key = ViewToOwned(views[i]);
    TVMFFIAny value;
    try {
      value = ViewToOwned(views[i + 1]);
    } catch (...) {
      ReleaseValue(&key);
      throw;
    }
    if (MapIsSmall(*c) && c->size < MapNumSlots(*c)) {
      // Straight to the pair array while it has room.  A full one goes
      // through MapSet even when it holds the key: a full small form of 4
      // turns dense on any insert, as upstream's does.
      uint64_t pos;
      try {
        pos = SmallFindPos(*c, key);
      } catch (...) {
        ReleaseValue(&key);
        ReleaseValue(&value);
        throw;
      }
      SmallStore(c, pos, key, value);
      continue;
    }
    MapSet(obj, key, value);
  }
  // Repeats that leave at most 2 distinct keys: growth would have stopped
  // at 2 slots, so the pairs move to a map of that size.
  if (presized && MapIsSmall(*c) && c->size <= kMapSmallInitSlots) {
    return MapMakeCopy(type_index, obj);
  }
  return ReleaseAny(std::move(map)).v_obj;
}

// ---- Changing ---------------------------------------------------------------

void MapSet(TVMFFIObject* map, TVMFFIAny key, TVMFFIAny value) {
  MapCell* c = MapCellOf(map);
  try {
    if (MapIsSmall(*c)) {
      uint64_t n = MapNumSlots(*c);
      if (n < kMapSmallMaxSlots || c->size < n) {
        SmallSet(c, key, value);
        return;
      }
      if (n != kMapSmallMaxSlots) {
        TVM_FFI_CORE_THROW(InternalError) << "map in the small form has " << n
                                          << " slots (at most 4 allowed)";
      }
      // A full small map (even when the key is present) becomes dense.
      uint32_t shift;
      uint64_t slots;
      TableSizeFor(c->size, &shift, &slots);
      Rebuild(c, shift, slots);
    }
    DenseSet(c, key, value);
  } catch (...) {
    ReleaseValue(&key);
    ReleaseValue(&value);
    throw;
  }
}

bool MapErase(TVMFFIObject* map, const TVMFFIAny& key) {
  MapCell* c = MapCellOf(map);
  uint64_t pos = MapFindPos(*c, key);
  if (pos == MapEndPos(*c)) return false;
  MapPair removed;
  if (MapIsSmall(*c)) {
    MapPair* kv = SmallData(*c);
    removed = kv[pos];
    std::memmove(static_cast<void*>(kv + pos), static_cast<const void*>(kv + pos + 1),
                 static_cast<size_t>(c->size - pos - 1) * sizeof(MapPair));
    --c->size;
  } else {
    removed = DenseTable(c).Remove(pos);
  }
  ReleaseValue(&removed.key);
  ReleaseValue(&removed.value);
  return true;
}

void MapClear(TVMFFIObject* map) {
  MapCell* c = MapCellOf(map);
  // Detach the pairs before releasing them, so destructors that look at
  // this map see it empty.
  std::vector<MapPair> removed;
  removed.reserve(static_cast<size_t>(c->size));
  if (MapIsSmall(*c)) {
    removed.assign(SmallData(*c), SmallData(*c) + c->size);
  } else if (c->data != nullptr) {
    DenseTable dense(c);
    const uint64_t slots = MapNumSlots(*c);
    for (uint64_t i = 0; i < slots; ++i) {
      if (dense.IsLive(i)) {
        removed.push_back(dense.At(i).kv);
        dense.Meta(i) = kEmpty;
      }
    }
    c->iter_list_head = kMapNoIndex;
    c->iter_list_tail = kMapNoIndex;
  }
  c->size = 0;
  for (MapPair& kv : removed) {
    ReleaseValue(&kv.key);
    ReleaseValue(&kv.value);
  }
}

void MapDropCachedTables() {
  if (DenseTableCache* cache = DenseTableCache::Get()) cache->Drop();
}

}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

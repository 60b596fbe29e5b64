// ffi.RecursiveEq/Lt/Le/Gt/Ge/Hash: content comparison over values, containers
// and reflected fields.
#include "recursive_compare.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>

#include "big_int_internal.h"
#include "global_def.h"
#include "map_key.h"
#include "object_internal.h"
#include "reflection_visit.h"
#include "string_internal.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

const TVMFFIAny& Raw(const Any& value) { return *AnyUnsafe::TVMFFIAnyPtrFromAny(value); }

const Object* ObjectOf(const TVMFFIAny& v) {
  return ObjectUnsafe::RawObjectPtrFromUnowned<Object>(v.v_obj);
}

// The comparison class of a value: both spellings of str and of bytes are one
// class, and so are int and the big int (a BigInt never holds a value that
// fits in int64_t, so the two only meet as unequal numbers).
int32_t ClassOf(int32_t type_index) {
  switch (type_index) {
    case kTVMFFIRawStr:
    case kTVMFFISmallStr:
      return kTVMFFIStr;
    case kTVMFFIByteArrayPtr:
    case kTVMFFISmallBytes:
      return kTVMFFIBytes;
    case kTVMFFIBigInt:
      return kTVMFFIInt;
    default:
      return type_index;
  }
}

// Built-in object types without content to compare (functions, errors,
// tensors, modules, opaque Python objects, ...): equal only to themselves.
bool ByIdentity(int32_t type_index) {
  switch (type_index) {
    case kTVMFFIStr:
    case kTVMFFIBytes:
    case kTVMFFIShape:
    case kTVMFFIArray:
    case kTVMFFIList:
    case kTVMFFIMap:
    case kTVMFFIDict:
    case kTVMFFIBigInt:
      return false;
    default:
      return type_index >= kTVMFFIStaticObjectBegin && type_index < kTVMFFIDynObjectBegin;
  }
}

template <typename T>
int Sign3(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Bytes compare as unsigned, then the shorter prefix first (Python's order).
int CompareBytes(const char* a, size_t na, const char* b, size_t nb) {
  size_t n = na < nb ? na : nb;
  int c = n == 0 ? 0 : std::memcmp(a, b, n);
  if (c != 0) return c < 0 ? -1 : 1;
  return Sign3(na, nb);
}

// Integers of either form: the sign, then the words from the most significant.
int CompareInts(const TVMFFIAny& a, const TVMFFIAny& b) {
  if (a.type_index == kTVMFFIInt && b.type_index == kTVMFFIInt) return Sign3(a.v_int64, b.v_int64);
  TVMFFIByteArray x = BigIntContent(&a);
  TVMFFIByteArray y = BigIntContent(&b);
  size_t nx = x.size / 8, ny = y.size / 8;
  auto word = [](const TVMFFIByteArray& c, size_t i) {
    int64_t w;
    std::memcpy(&w, c.data + 8 * i, 8);
    return w;
  };
  bool neg_x = word(x, nx - 1) < 0, neg_y = word(y, ny - 1) < 0;
  if (neg_x != neg_y) return neg_x ? -1 : 1;
  // Minimal two's complement of one sign: more words means further from 0.
  if (nx != ny) return (nx < ny) != neg_x ? -1 : 1;
  for (size_t i = nx; i-- > 0;) {
    int64_t wx = word(x, i), wy = word(y, i);
    if (wx == wy) continue;
    if (i == nx - 1) return Sign3(wx, wy);
    return Sign3(static_cast<uint64_t>(wx), static_cast<uint64_t>(wy));
  }
  return 0;
}

[[noreturn]] void ThrowDifferentTypes(const TVMFFIAny& a, const TVMFFIAny& b) {
  TVM_FFI_THROW(TypeError) << "Cannot compare values of different types: "
                          << TypeIndexToDisplayName(a.type_index) << " vs "
                          << TypeIndexToDisplayName(b.type_index);
}

const TVMFFITypeInfo* InfoOf(const Object* obj) { return TypeInfoOrThrow(obj->type_index()); }

// Type attributes that replace the field-wise walk for one type:
//   __ffi_eq__(self, other, fn_eq) -> bool
//   __ffi_compare__(self, other, fn_cmp) -> int (< 0, 0, > 0; also equality
//     when the type has no __ffi_eq__)
//   __ffi_hash__(self, fn_hash) -> int
// fn_* continue the walk on nested values (cycles and depth still watched).
struct HookColumn {
  const char* name;
  std::atomic<const TVMFFITypeAttrColumn*> column{nullptr};
};
HookColumn g_eq_hook{"__ffi_eq__"};
HookColumn g_compare_hook{"__ffi_compare__"};
HookColumn g_hash_hook{"__ffi_hash__"};

std::optional<Function> FindHook(HookColumn& hook, int32_t type_index) {
  const TVMFFITypeAttrColumn* column = hook.column.load(std::memory_order_acquire);
  if (column == nullptr) {
    // The column appears when the first type registers the hook; until then
    // each call looks again.
    TVMFFIByteArray name{hook.name, std::strlen(hook.name)};
    column = TVMFFIGetTypeAttrColumn(&name);
    if (column == nullptr) return std::nullopt;
    hook.column.store(column, std::memory_order_release);
  }
  int32_t row = type_index - column->begin_index;
  if (row < 0 || row >= column->size || column->data[row].type_index != kTVMFFIFunction) {
    return std::nullopt;
  }
  return AnyView::CopyFromTVMFFIAny(column->data[row]).cast<Function>();
}

AnyView ObjectView(const Object* obj) {
  TVMFFIAny v;
  v.type_index = obj->type_index();
  v.zero_padding = 0;
  v.v_obj = ObjectUnsafe::GetHeader(obj);
  return AnyView::CopyFromTVMFFIAny(v);
}

// A hook's result as an int64 (bool for __ffi_eq__ is accepted as 0/1).
int64_t HookInt(const Any& r, const char* hook, const Object* obj) {
  if (r.type_index() == kTVMFFIInt || r.type_index() == kTVMFFIBool) return Raw(r).v_int64;
  TVM_FFI_THROW(TypeError) << hook << " of `" << TypeIndexToDisplayName(obj->type_index())
                          << "` must return an int, got "
                          << TypeIndexToDisplayName(r.type_index());
  return 0;  // not reached: the builder throws
}

// The walk state shared by equality and ordering: the pairs of objects being
// compared (for cycles) and the depth.
class Walk {
 public:
  explicit Walk(const char* name) : name_(name) {}

  // Enters the pair (x, y); false when it is already being compared below
  // (a reference cycle).
  bool Enter(const Object* x, const Object* y) {
    if (TooDeep(stack_.size())) ThrowTooDeep(name_, stack_.data(), stack_.size());
    if (!active_.emplace(x, y).second) return false;
    stack_.push_back(x);
    return true;
  }
  void Leave(const Object* x, const Object* y) {
    active_.erase(std::make_pair(x, y));
    stack_.pop_back();
  }
  const char* name() const { return name_; }

  // Results of pairs already compared in this walk.  A value that shares
  // sub-values (a DAG) has exponentially many paths but few distinct pairs,
  // so each pair is compared once.  The memo holds both objects, so an
  // address cannot be reused by another object while it is remembered.
  const int* Recall(const Object* x, const Object* y) const {
    auto it = memo_.find(std::make_pair(x, y));
    return it == memo_.end() ? nullptr : &it->second;
  }
  void Remember(const TVMFFIAny& a, const TVMFFIAny& b, int result) {
    const Object* x = ObjectOf(a);
    const Object* y = ObjectOf(b);
    if (memo_.emplace(std::make_pair(x, y), result).second) {
      kept_.emplace_back(AnyView::CopyFromTVMFFIAny(a));
      kept_.emplace_back(AnyView::CopyFromTVMFFIAny(b));
    }
  }

 private:
  struct PairHash {
    size_t operator()(const std::pair<const Object*, const Object*>& p) const {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  const char* name_;
  std::vector<const Object*> stack_;
  std::set<std::pair<const Object*, const Object*>> active_;
  std::unordered_map<std::pair<const Object*, const Object*>, int, PairHash> memo_;
  std::vector<Any> kept_;
};

// An owning copy of a container item, so that the walk holds what it visits
// even when a hook called below changes or clears the container.
inline Any Hold(const TVMFFIAny& v) { return Any(AnyView::CopyFromTVMFFIAny(v)); }

// The entries of a map, owned (a hook may change a Dict being walked).
inline std::vector<std::pair<Any, Any>> MapEntries(const MapBaseObj* m) {
  std::vector<std::pair<Any, Any>> out;
  out.reserve(m->size());
  for (const auto& kv : *m) out.emplace_back(kv.first, kv.second);
  return out;
}

// Equality -------------------------------------------------------------------------

// The callback a type's hook receives (fn_eq, fn_cmp, fn_hash): it runs
// `body` on the walker that called the hook.  The walker lives on the
// caller's stack, so when the hook returns (this object goes out of scope)
// the link is cut and a callback the hook kept raises instead.
template <typename W>
class HookCallback {
 public:
  template <typename F>
  HookCallback(W* walker, const char* name, F body)
      : link_(std::make_shared<std::atomic<W*>>(walker)) {
    std::shared_ptr<std::atomic<W*>> link = link_;
    fn_ = Function::FromPacked([link, name, body](const AnyView* args, int32_t n, Any* rv) {
      W* w = link->load(std::memory_order_acquire);
      if (w == nullptr) {
        TVM_FFI_THROW(RuntimeError) << name << " was called after the hook that received it "
                                      "had returned";
      }
      body(w, args, n, rv);
    });
  }
  ~HookCallback() { link_->store(nullptr, std::memory_order_release); }
  HookCallback(const HookCallback&) = delete;
  HookCallback& operator=(const HookCallback&) = delete;
  const Function& fn() const { return fn_; }

 private:
  std::shared_ptr<std::atomic<W*>> link_;
  Function fn_;
};

[[noreturn]] void ThrowCyclicOrdering(const char* walk, int32_t type_index) {
  TVM_FFI_THROW(ValueError) << walk << ": cyclic reference detected in ordering (a "
                           << TypeIndexToDisplayName(type_index) << " contains itself)";
}

class EqWalker {
 public:
  EqWalker() : walk_("ffi.RecursiveEq") {}
  // Equality as part of an ordering (of maps, which have no order of their
  // own): a cycle has no answer there, so it raises as the ordering does.
  explicit EqWalker(const char* ordering) : walk_(ordering), ordering_(true) {}

  bool Equal(const TVMFFIAny& a, const TVMFFIAny& b) {
    int32_t ca = ClassOf(a.type_index);
    if (ca != ClassOf(b.type_index)) return false;
    switch (ca) {
      case kTVMFFINone:
        return true;
      case kTVMFFIInt:
        return CompareInts(a, b) == 0;
      case kTVMFFIBool:
        return (a.v_int64 != 0) == (b.v_int64 != 0);
      case kTVMFFIFloat:
        return a.v_float64 == b.v_float64 || (std::isnan(a.v_float64) && std::isnan(b.v_float64));
      case kTVMFFIDataType:
        return a.v_dtype.code == b.v_dtype.code && a.v_dtype.bits == b.v_dtype.bits &&
               a.v_dtype.lanes == b.v_dtype.lanes;
      case kTVMFFIDevice:
        return a.v_device.device_type == b.v_device.device_type &&
               a.v_device.device_id == b.v_device.device_id;
      case kTVMFFIStr:
      case kTVMFFIBytes:
        return AnyKeyEqual(a, b);
      default:
        break;
    }
    if (ca < kTVMFFIStaticObjectBegin) return a.v_ptr == b.v_ptr;  // raw pointers
    const Object* x = ObjectOf(a);
    const Object* y = ObjectOf(b);
    if (x == y) return true;
    if (ca == kTVMFFIShape) return ShapeEqual(a, b);
    if (ByIdentity(ca)) return false;
    if (const int* known = walk_.Recall(x, y)) return *known == 0;
    // A pair met again below itself: equal unless something else differs.
    if (!walk_.Enter(x, y)) {
      if (ordering_) ThrowCyclicOrdering(walk_.name(), ca);
      return true;
    }
    Any hold_a = Hold(a), hold_b = Hold(b);
    bool ok;
    if (ca == kTVMFFIArray || ca == kTVMFFIList) {
      ok = SeqEqual(static_cast<const SeqBaseObj*>(x), static_cast<const SeqBaseObj*>(y));
    } else if (ca == kTVMFFIMap || ca == kTVMFFIDict) {
      ok = MapEqual(static_cast<const MapBaseObj*>(x), static_cast<const MapBaseObj*>(y));
    } else {
      ok = ObjectEqual(x, y);
    }
    walk_.Leave(x, y);
    // An unequal pair makes the whole walk unequal (no caller but a hook
    // could ignore it), so remembering "equal" under an assumption made for
    // a cycle above cannot change the answer.
    walk_.Remember(a, b, ok ? 0 : 1);
    return ok;
  }

 private:
  static bool ShapeEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
    const TVMFFIShapeCell* x = TVMFFIShapeGetCellPtr(a.v_obj);
    const TVMFFIShapeCell* y = TVMFFIShapeGetCellPtr(b.v_obj);
    if (x->size != y->size) return false;
    return x->size == 0 || std::memcmp(x->data, y->data, x->size * sizeof(int64_t)) == 0;
  }

  // Sizes are read again after each item: a hook may have changed them.
  bool SeqEqual(const SeqBaseObj* x, const SeqBaseObj* y) {
    if (x->size() != y->size()) return false;
    for (size_t i = 0; i < x->size() && i < y->size(); ++i) {
      Any ea = x->begin()[i], eb = y->begin()[i];
      if (!Equal(Raw(ea), Raw(eb))) return false;
    }
    return x->size() == y->size();
  }

  // Keys are matched as the maps match them; values by content.
  bool MapEqual(const MapBaseObj* x, const MapBaseObj* y) {
    if (x->size() != y->size()) return false;
    for (const auto& kv : MapEntries(x)) {
      MapBaseObj::iterator found = y->find(kv.first);
      if (found == y->end()) return false;
      Any other = found->second;
      if (!Equal(Raw(kv.second), Raw(other))) return false;
    }
    return x->size() == y->size();
  }

  bool ObjectEqual(const Object* x, const Object* y) {
    if (std::optional<Function> hook = FindHook(g_eq_hook, x->type_index())) {
      HookCallback<EqWalker> fn_eq(
          this, "fn_eq", [](EqWalker* w, const AnyView* args, int32_t n, Any* rv) {
            if (n != 2) TVM_FFI_THROW(TypeError) << "fn_eq takes 2 arguments, got " << n;
            *rv = w->Equal(Raw(Any(args[0])), Raw(Any(args[1])));
          });
      return HookInt((*hook)(ObjectView(x), ObjectView(y), fn_eq.fn()), "__ffi_eq__", x) != 0;
    }
    if (std::optional<Function> hook = FindHook(g_compare_hook, x->type_index())) {
      // Only equality matters here: nested values answer 0 (equal) or 1.
      HookCallback<EqWalker> fn_cmp(
          this, "fn_cmp", [](EqWalker* w, const AnyView* args, int32_t n, Any* rv) {
            if (n != 2) TVM_FFI_THROW(TypeError) << "fn_cmp takes 2 arguments, got " << n;
            *rv = int64_t(w->Equal(Raw(Any(args[0])), Raw(Any(args[1]))) ? 0 : 1);
          });
      return HookInt((*hook)(ObjectView(x), ObjectView(y), fn_cmp.fn()), "__ffi_compare__",
                     x) == 0;
    }
    return FieldsEqual(x, y);
  }

  bool FieldsEqual(const Object* x, const Object* y) {
    return ForEachFieldInfo(InfoOf(x), [&](const TVMFFIFieldInfo* f) {
      if (f->flags & kTVMFFIFieldFlagBitMaskCompareOff) return true;
      Any va = ReadField(ObjectUnsafe::GetHeader(x), f);
      Any vb = ReadField(ObjectUnsafe::GetHeader(y), f);
      return Equal(Raw(va), Raw(vb));
    });
  }

  Walk walk_;
  bool ordering_ = false;
};

// Ordering -------------------------------------------------------------------------

class OrderWalker {
 public:
  explicit OrderWalker(const char* name) : walk_(name) {}

  int Compare(const TVMFFIAny& a, const TVMFFIAny& b) {
    // None sorts before every other value.
    if (a.type_index == kTVMFFINone || b.type_index == kTVMFFINone) {
      return Sign3(a.type_index != kTVMFFINone, b.type_index != kTVMFFINone);
    }
    int32_t ca = ClassOf(a.type_index);
    if (ca != ClassOf(b.type_index)) ThrowDifferentTypes(a, b);
    switch (ca) {
      case kTVMFFIInt:
        return CompareInts(a, b);
      case kTVMFFIBool:
        return Sign3(a.v_int64 != 0, b.v_int64 != 0);
      case kTVMFFIFloat:
        if (std::isnan(a.v_float64) || std::isnan(b.v_float64)) {
          TVM_FFI_THROW(TypeError) << "Cannot order NaN values";
        }
        return Sign3(a.v_float64, b.v_float64);
      case kTVMFFIDataType: {
        int c = Sign3(a.v_dtype.code, b.v_dtype.code);
        if (c == 0) c = Sign3(a.v_dtype.bits, b.v_dtype.bits);
        if (c == 0) c = Sign3(a.v_dtype.lanes, b.v_dtype.lanes);
        return c;
      }
      case kTVMFFIDevice: {
        int c = Sign3(a.v_device.device_type, b.v_device.device_type);
        return c != 0 ? c : Sign3(a.v_device.device_id, b.v_device.device_id);
      }
      case kTVMFFIStr:
      case kTVMFFIBytes: {
        const char *da = "", *db = "";
        size_t na = 0, nb = 0;
        bool is_bytes = false;
        GetStringView(&a, &da, &na, &is_bytes);
        GetStringView(&b, &db, &nb, &is_bytes);
        return CompareBytes(da, na, db, nb);
      }
      default:
        break;
    }
    if (ca < kTVMFFIStaticObjectBegin) {
      if (a.v_ptr == b.v_ptr) return 0;
      TVM_FFI_THROW(TypeError) << "Cannot order " << TypeIndexToDisplayName(a.type_index)
                              << " values";
    }
    const Object* x = ObjectOf(a);
    const Object* y = ObjectOf(b);
    if (x == y) return 0;
    if (ca == kTVMFFIShape) {
      const TVMFFIShapeCell* sx = TVMFFIShapeGetCellPtr(a.v_obj);
      const TVMFFIShapeCell* sy = TVMFFIShapeGetCellPtr(b.v_obj);
      size_t n = sx->size < sy->size ? sx->size : sy->size;
      for (size_t i = 0; i < n; ++i) {
        if (sx->data[i] != sy->data[i]) return Sign3(sx->data[i], sy->data[i]);
      }
      return Sign3(sx->size, sy->size);
    }
    if (ByIdentity(ca)) {
      TVM_FFI_THROW(TypeError) << "Cannot order " << TypeIndexToDisplayName(ca)
                              << " values (they are compared by identity)";
    }
    if (ca == kTVMFFIMap || ca == kTVMFFIDict) {
      // Maps have equality but no order.
      if (EqWalker(walk_.name()).Equal(a, b)) return 0;
      TVM_FFI_THROW(TypeError) << "Cannot order Map/Dict values";
    }
    if (const int* known = walk_.Recall(x, y)) return *known;
    if (!walk_.Enter(x, y)) ThrowCyclicOrdering(walk_.name(), ca);
    Any hold_a = Hold(a), hold_b = Hold(b);
    int c;
    if (ca == kTVMFFIArray || ca == kTVMFFIList) {
      c = SeqCompare(static_cast<const SeqBaseObj*>(x), static_cast<const SeqBaseObj*>(y));
    } else if (std::optional<Function> hook = FindHook(g_compare_hook, ca)) {
      HookCallback<OrderWalker> fn_cmp(
          this, "fn_cmp", [](OrderWalker* w, const AnyView* args, int32_t n, Any* rv) {
            if (n != 2) TVM_FFI_THROW(TypeError) << "fn_cmp takes 2 arguments, got " << n;
            *rv = int64_t(w->Compare(Raw(Any(args[0])), Raw(Any(args[1]))));
          });
      int64_t r =
          HookInt((*hook)(ObjectView(x), ObjectView(y), fn_cmp.fn()), "__ffi_compare__", x);
      c = Sign3(r, int64_t(0));
    } else {
      c = FieldsCompare(x, y);
    }
    walk_.Leave(x, y);
    walk_.Remember(a, b, c);
    return c;
  }

 private:
  int SeqCompare(const SeqBaseObj* x, const SeqBaseObj* y) {
    for (size_t i = 0; i < x->size() && i < y->size(); ++i) {
      Any ea = x->begin()[i], eb = y->begin()[i];
      int c = Compare(Raw(ea), Raw(eb));
      if (c != 0) return c;
    }
    return Sign3(x->size(), y->size());
  }

  int FieldsCompare(const Object* x, const Object* y) {
    int c = 0;
    ForEachFieldInfo(InfoOf(x), [&](const TVMFFIFieldInfo* f) {
      if (f->flags & kTVMFFIFieldFlagBitMaskCompareOff) return true;
      Any va = ReadField(ObjectUnsafe::GetHeader(x), f);
      Any vb = ReadField(ObjectUnsafe::GetHeader(y), f);
      c = Compare(Raw(va), Raw(vb));
      return c == 0;
    });
    return c;
  }

  Walk walk_;
};

// Hashing --------------------------------------------------------------------------

inline uint64_t Mix(uint64_t seed, uint64_t value) {
  // A splitmix64-style finaliser over the pair: order-dependent and well spread.
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + value + 0x7f4a7c159e3779b9ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Hasher {
 public:
  uint64_t Hash(const TVMFFIAny& v) {
    int32_t c = ClassOf(v.type_index);
    uint64_t tag = static_cast<uint64_t>(c);
    switch (c) {
      case kTVMFFINone:
        return Mix(tag, 0);
      case kTVMFFIInt:
        if (v.type_index == kTVMFFIInt) return Mix(tag, v.v_uint64);
        {
          TVMFFIByteArray words = BigIntContent(&v);
          return Mix(Mix(tag, words.size), HashBytes(words.data, words.size));
        }
      case kTVMFFIBool:
        return Mix(tag, v.v_int64 != 0);
      case kTVMFFIFloat: {
        double d = v.v_float64;
        if (std::isnan(d)) return Mix(tag, 0x7ff8000000000000ULL);  // every NaN is equal
        if (d == 0.0) return Mix(tag, 0);                            // -0.0 == 0.0
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof(bits));
        return Mix(tag, bits);
      }
      case kTVMFFIDataType:
        return Mix(tag, (uint64_t(v.v_dtype.code) << 32) | (uint64_t(v.v_dtype.bits) << 16) |
                            v.v_dtype.lanes);
      case kTVMFFIDevice:
        return Mix(tag, (uint64_t(static_cast<uint32_t>(v.v_device.device_type)) << 32) |
                            static_cast<uint32_t>(v.v_device.device_id));
      case kTVMFFIStr:
      case kTVMFFIBytes:
        return Mix(tag, AnyKeyHash(v));
      default:
        break;
    }
    if (c < kTVMFFIStaticObjectBegin) return Mix(tag, reinterpret_cast<uintptr_t>(v.v_ptr));
    const Object* obj = ObjectOf(v);
    if (c == kTVMFFIShape) {
      const TVMFFIShapeCell* s = TVMFFIShapeGetCellPtr(v.v_obj);
      uint64_t h = Mix(tag, s->size);
      for (size_t i = 0; i < s->size; ++i) h = Mix(h, static_cast<uint64_t>(s->data[i]));
      return h;
    }
    if (ByIdentity(c)) return Mix(tag, reinterpret_cast<uintptr_t>(obj));
    // An object met again below itself hashes as a reference to that level.
    auto found = active_.find(obj);
    if (found != active_.end()) {
      lowest_ref_ = std::min(lowest_ref_, found->second);
      return Mix(Mix(tag, 0xc7c1eULL), found->second);
    }
    auto known = memo_.find(obj);
    if (known != memo_.end()) return known->second;
    if (TooDeep(stack_.size())) ThrowTooDeep("ffi.RecursiveHash", stack_.data(), stack_.size());
    size_t level = stack_.size();
    size_t outer_lowest_ref = lowest_ref_;
    lowest_ref_ = SIZE_MAX;
    active_.emplace(obj, level);
    stack_.push_back(obj);
    Any hold = Hold(v);
    uint64_t h;
    if (std::optional<uint64_t> container = HashContainer(
            obj, c, tag, Mix, [this](const TVMFFIAny& e) { return Hash(e); })) {
      h = *container;
    } else if (std::optional<Function> hook = FindHook(g_hash_hook, c)) {
      HookCallback<Hasher> fn_hash(
          this, "fn_hash", [](Hasher* w, const AnyView* args, int32_t n, Any* rv) {
            if (n != 1) TVM_FFI_THROW(TypeError) << "fn_hash takes 1 argument, got " << n;
            *rv = static_cast<int64_t>(w->Hash(Raw(Any(args[0]))));
          });
      int64_t r = HookInt((*hook)(ObjectView(obj), fn_hash.fn()), "__ffi_hash__", obj);
      h = Mix(Mix(tag, InfoOf(obj)->type_key_hash), static_cast<uint64_t>(r));
    } else {
      const TVMFFITypeInfo* info = InfoOf(obj);
      if (FindHook(g_eq_hook, c) || FindHook(g_compare_hook, c)) {
        // A field-wise hash could tell apart values the hook calls equal.
        TVM_FFI_THROW(ValueError)
            << "ffi.RecursiveHash: type '" << TypeKeyOf(info)
            << "' defines __ffi_eq__ or __ffi_compare__ but not __ffi_hash__; register a "
               "__ffi_hash__ hook consistent with them (values equal under RecursiveEq must "
               "hash alike)";
      }
      h = Mix(tag, info->type_key_hash);
      ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
        // A CompareOff field takes no part in equality, so none in the hash.
        if (f->flags & (kTVMFFIFieldFlagBitMaskHashOff | kTVMFFIFieldFlagBitMaskCompareOff)) {
          return true;
        }
        Any value = ReadField(ObjectUnsafe::GetHeader(obj), f);
        h = Mix(h, Hash(Raw(value)));
        return true;
      });
    }
    stack_.pop_back();
    active_.erase(obj);
    // A hash with no cycle reference below it (those name absolute levels)
    // is the same wherever the object is met: remember it (and hold the
    // object, so its address is not reused), so a shared sub-value is
    // hashed once.
    if (lowest_ref_ == SIZE_MAX) {
      memo_.emplace(obj, h);
      kept_.push_back(std::move(hold));
    }
    lowest_ref_ = std::min(outer_lowest_ref, lowest_ref_);
    return h;
  }

 private:
  std::vector<const Object*> stack_;
  std::unordered_map<const Object*, size_t> active_;
  // The lowest level a cycle reference below the current object pointed to
  // (SIZE_MAX: none).
  size_t lowest_ref_ = SIZE_MAX;
  std::unordered_map<const Object*, uint64_t> memo_;
  std::vector<Any> kept_;
};

}  // namespace

bool RecursiveEq(const TVMFFIAny& lhs, const TVMFFIAny& rhs) {
  EqWalker walker;
  return walker.Equal(lhs, rhs);
}

int RecursiveCompare(const TVMFFIAny& lhs, const TVMFFIAny& rhs, const char* walk) {
  OrderWalker walker(walk);
  return walker.Compare(lhs, rhs);
}

int64_t RecursiveHash(const TVMFFIAny& value) {
  Hasher hasher;
  return static_cast<int64_t>(hasher.Hash(value));
}

namespace {

// The arguments are taken as Any, which turns a raw C string into a String.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.RecursiveEq",
                             [](Any lhs, Any rhs) { return RecursiveEq(Raw(lhs), Raw(rhs)); });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.RecursiveLt", [](Any lhs, Any rhs) {
  return RecursiveCompare(Raw(lhs), Raw(rhs), "ffi.RecursiveLt") < 0;
});
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.RecursiveLe", [](Any lhs, Any rhs) {
  return RecursiveCompare(Raw(lhs), Raw(rhs), "ffi.RecursiveLe") <= 0;
});
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.RecursiveGt", [](Any lhs, Any rhs) {
  return RecursiveCompare(Raw(lhs), Raw(rhs), "ffi.RecursiveGt") > 0;
});
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.RecursiveGe", [](Any lhs, Any rhs) {
  return RecursiveCompare(Raw(lhs), Raw(rhs), "ffi.RecursiveGe") >= 0;
});
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.RecursiveHash",
                             [](Any value) { return RecursiveHash(Raw(value)); });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

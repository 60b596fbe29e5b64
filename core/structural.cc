// Structural equality and hashing over values and reflected objects, and access paths.
#include "structural.h"

#include <pthread.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "global_def.h"
#include "map_key.h"
#include "object_internal.h"
#include "reflection_visit.h"
#include "string_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

const TVMFFIAny& Raw(const Any& value) { return *AnyUnsafe::TVMFFIAnyPtrFromAny(value); }
const TVMFFIAny& Raw(const AnyView& value) { return *reinterpret_cast<const TVMFFIAny*>(&value); }

const Object* ObjectOf(const TVMFFIAny& v) {
  return ObjectUnsafe::RawObjectPtrFromUnowned<Object>(v.v_obj);
}

// A new reference to `obj`.
ObjectRef RefOf(const Object* obj) {
  return ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(obj)));
}

}  // namespace

// Access paths ------------------------------------------------------------------

ObjectRef AccessPathRoot() { return ObjectRef(make_object<AccessPathObj>()); }

ObjectRef AccessPathExtend(const ObjectRef& path, AccessKind kind, Any key) {
  ObjectPtr<AccessStepObj> step = make_object<AccessStepObj>();
  step->kind = static_cast<int32_t>(kind);
  step->key = std::move(key);
  ObjectPtr<AccessPathObj> out = make_object<AccessPathObj>();
  out->depth = static_cast<const AccessPathObj*>(path.get())->depth + 1;
  out->parent = path;
  out->step = ObjectRef(std::move(step));
  return ObjectRef(std::move(out));
}

namespace {

const AccessPathObj* AsPath(const AnyView& v, const char* what) {
  if (v.type_index() != AccessPathObj::RuntimeTypeIndex()) {
    TVM_FFI_THROW(TypeError) << what << ": expected ffi.reflection.AccessPath, got "
                             << TypeIndexToDisplayName(v.type_index());
  }
  return static_cast<const AccessPathObj*>(ObjectOf(Raw(v)));
}

// The steps from the root, outermost first.  A path rebuilt from a graph or
// a pickle may be malformed (a parent without a step, a wrong depth): that
// is a ValueError, never a walk through a missing link.
std::vector<const AccessStepObj*> PathSteps(const AccessPathObj* p) {
  std::vector<const AccessStepObj*> steps;
  int64_t depth = p->depth;
  while (p->parent.defined()) {
    if (!p->step.defined() || p->depth != depth) {
      TVM_FFI_THROW(ValueError) << "malformed ffi.reflection.AccessPath: "
                                << (p->step.defined() ? "a depth does not match its chain"
                                                      : "a parent without a step");
    }
    steps.push_back(static_cast<const AccessStepObj*>(p->step.get()));
    p = static_cast<const AccessPathObj*>(p->parent.get());
    --depth;
  }
  if (p->step.defined() || depth != 0 || p->depth != 0) {
    TVM_FFI_THROW(ValueError) << "malformed ffi.reflection.AccessPath: "
                              << (p->step.defined() ? "a step without a parent"
                                                    : "a depth does not match its chain");
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

std::string StepToString(const AccessStepObj* s) {
  const TVMFFIAny& key = Raw(s->key);
  switch (static_cast<AccessKind>(s->kind)) {
    case AccessKind::kAttr: {
      const char* data = "";
      size_t size = 0;
      bool is_bytes = false;
      if (GetStringView(&key, &data, &size, &is_bytes)) return "." + std::string(data, size);
      return "." + RenderKey(key);
    }
    case AccessKind::kArrayItem:
      return "[" + RenderKey(key) + "]";
    case AccessKind::kMapItem:
      return "[" + RenderKey(key) + "]";
    case AccessKind::kAttrMissing:
    case AccessKind::kArrayItemMissing:
    case AccessKind::kMapItemMissing:
      return "[<missing:" + RenderKey(key) + ">]";
  }
  return "[<step kind " + std::to_string(s->kind) + ">]";
}

bool StepEqual(const AccessStepObj* a, const AccessStepObj* b) {
  return a->kind == b->kind && AnyKeyEqual(Raw(a->key), Raw(b->key));
}

}  // namespace

std::string AccessPathToString(const ObjectRef& path) {
  std::string out = "<root>";
  for (const AccessStepObj* s : PathSteps(AsPath(AnyView(path), "AccessPathToString"))) {
    out += StepToString(s);
  }
  return out;
}

// Too-deep walks ------------------------------------------------------------------

void ThrowTooDeepHeaders(const char* walk, const TVMFFIObject* const* active, size_t n) {
  std::unordered_map<const TVMFFIObject*, size_t> seen;
  for (size_t i = 0; i < n; ++i) {
    if (active[i] == nullptr) continue;
    if (!seen.emplace(active[i], i).second) {
      TVM_FFI_THROW(ValueError)
          << walk << ": the value contains a reference cycle (an object of "
          << "type `" << TypeIndexToDisplayName(active[i]->type_index)
          << "` contains itself)";
    }
  }
  if (n >= static_cast<size_t>(kStructuralMaxDepth)) {
    TVM_FFI_THROW(RecursionError)
        << walk << ": the value is nested deeper than " << kStructuralMaxDepth << " levels";
  }
  TVM_FFI_THROW(RecursionError) << walk << ": the value is nested too deeply for this "
                                << "thread's stack (" << n << " levels)";
}

bool StackNearlyFull() noexcept {
  constexpr uintptr_t kReserve = 256 * 1024;
  // The lowest address of this thread's stack, found once per thread (0 when
  // unknown).
  thread_local const uintptr_t low = []() -> uintptr_t {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
    void* addr = nullptr;
    size_t size = 0;
    int rc = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    return rc == 0 ? reinterpret_cast<uintptr_t>(addr) : 0;
  }();
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return low != 0 && here > low && here - low < kReserve;
}

namespace {

// Shared by equality and hashing --------------------------------------------------

// Str and Bytes in either form compare by content, so both forms get one index.
inline int32_t CanonicalIndex(int32_t type_index) {
  if (type_index == kTVMFFISmallStr) return kTVMFFIStr;
  if (type_index == kTVMFFISmallBytes) return kTVMFFIBytes;
  return type_index;
}

// The metadata kind of a dynamic object type, or -1 for the built-in types
// compared by identity (functions, errors, modules, opaque objects).
int32_t SEqHashKindOf(const Object* obj, const TVMFFITypeInfo** info_out, const char* walk) {
  const TVMFFITypeInfo* info = TypeInfoOrThrow(obj->type_index());
  *info_out = info;
  if (info->metadata == nullptr) {
    if (obj->type_index() < kTVMFFIDynObjectBegin) return -1;
    TVM_FFI_THROW(TypeError) << walk << ": type `" << TypeKeyOf(info)
                            << "` has no type metadata, so it has no structural equality or hash";
  }
  int32_t kind = static_cast<int32_t>(info->metadata->structural_eq_hash_kind);
  if (kind == kTVMFFISEqHashKindUnsupported) {
    if (obj->type_index() < kTVMFFIDynObjectBegin) return -1;
    TVM_FFI_THROW(TypeError) << walk << ": type `" << TypeKeyOf(info)
                            << "` does not support structural equality or hash (its "
                            << "structural_eq_hash_kind is Unsupported)";
  }
  return kind;
}

inline bool FloatEqual(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

inline uint64_t FloatBits(double x) {
  if (std::isnan(x)) return 0x7ff8000000000000ULL;
  if (x == 0.0) return 0;  // -0.0 == 0.0
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

inline bool IsHostDevice(int32_t device_type) {
  return device_type == kDLCPU || device_type == kDLCUDAHost || device_type == kDLROCMHost;
}

// Calls fn(const char* element, int64_t bytes) for each element of a host
// tensor (at most `limit` of them), in row-major order, honouring strides.
template <typename F>
void ForEachElement(const DLTensor& t, F&& fn, int64_t limit = INT64_MAX) {
  int64_t elem = (static_cast<int64_t>(t.dtype.bits) * t.dtype.lanes + 7) / 8;
  const char* base = static_cast<const char*>(t.data) + t.byte_offset;
  int64_t total = 1;
  for (int32_t i = 0; i < t.ndim; ++i) total *= t.shape[i];
  if (total == 0) return;
  std::vector<int64_t> index(static_cast<size_t>(t.ndim), 0);
  std::vector<int64_t> strides(static_cast<size_t>(t.ndim));
  int64_t run = 1;
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    strides[static_cast<size_t>(i)] = t.strides != nullptr ? t.strides[i] : run;
    run *= t.shape[i];
  }
  if (total > limit) total = limit;
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (int32_t i = 0; i < t.ndim; ++i) offset += index[static_cast<size_t>(i)] * strides[static_cast<size_t>(i)];
    fn(base + offset * elem, elem);
    for (int32_t i = t.ndim - 1; i >= 0; --i) {
      if (++index[static_cast<size_t>(i)] < t.shape[i]) break;
      index[static_cast<size_t>(i)] = 0;
    }
  }
}

void CheckHostTensor(const DLTensor& t, const char* walk) {
  if (!IsHostDevice(t.device.device_type)) {
    TVM_FFI_THROW(ValueError) << walk << ": cannot read the content of a tensor on device type "
                             << t.device.device_type
                             << "; pass skip_tensor_content=True to compare metadata only";
  }
}

// Two views of the same elements (same data, offset and strides): equal
// without reading them.
bool SameMemory(const DLTensor& a, const DLTensor& b) {
  if (a.data != b.data || a.byte_offset != b.byte_offset) return false;
  for (int32_t i = 0; i < a.ndim; ++i) {
    int64_t sa = a.strides != nullptr ? a.strides[i] : -1;
    int64_t sb = b.strides != nullptr ? b.strides[i] : -1;
    if (sa != sb) return false;
  }
  return true;
}

// Tensor hashes read at most this many elements (equal tensors agree on
// them, so the hash stays consistent with equality); a broadcast view of
// 2^40 elements hashes as fast as a small one.
constexpr int64_t kHashedTensorElements = 4096;

bool SameTensorMeta(const DLTensor& a, const DLTensor& b) {
  if (a.ndim != b.ndim || a.dtype.code != b.dtype.code || a.dtype.bits != b.dtype.bits ||
      a.dtype.lanes != b.dtype.lanes || a.device.device_type != b.device.device_type ||
      a.device.device_id != b.device.device_id) {
    return false;
  }
  for (int32_t i = 0; i < a.ndim; ++i) {
    if (a.shape[i] != b.shape[i]) return false;
  }
  return true;
}

const DLTensor& TensorOf(const Object* obj) {
  return *TVMFFITensorGetDLTensorPtr(ObjectUnsafe::GetHeader(obj));
}

// Equality ------------------------------------------------------------------------

struct Step {
  AccessKind kind;
  Any key;
};

// The definition region a field's value is compared in: a field flagged
// as a definition opens one (a non-recursive one only outside a recursive
// region); any other field stays in the node's outer region.
int32_t FieldRegion(int32_t outer, int64_t flags) {
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefRecursive) return kTVMFFIDefRegionKindRecursive;
  if ((flags & kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive) &&
      outer != kTVMFFIDefRegionKindRecursive) {
    return kTVMFFIDefRegionKindNonRecursive;
  }
  return outer;
}

// A type's custom structural hook, "__s_equal__" or "__s_hash__" (an
// ffi.Function, as upstream's headers register it), if it has one.  The
// column appears with the first registration and then stays put.
struct StructuralHookColumn {
  const char* name;
  std::atomic<const TVMFFITypeAttrColumn*> column{nullptr};
};
StructuralHookColumn g_sequal_hook{"__s_equal__"};
StructuralHookColumn g_shash_hook{"__s_hash__"};

std::optional<Function> StructuralHook(StructuralHookColumn& hook, int32_t type_index) {
  const TVMFFITypeAttrColumn* column = hook.column.load(std::memory_order_acquire);
  if (column == nullptr) {
    column = KeyAttrColumn(hook.name);
    if (column == nullptr) return std::nullopt;
    hook.column.store(column, std::memory_order_release);
  }
  const TVMFFIAny* entry = KeyAttrEntry(column, type_index);
  if (entry == nullptr || entry->type_index != kTVMFFIFunction) return std::nullopt;
  return AnyView::CopyFromTVMFFIAny(*entry).cast<Function>();
}

// The field flags that stand for a hook callback's TVMFFIDefRegionKind.
int64_t DefRegionFlags(int64_t kind) {
  if (kind == kTVMFFIDefRegionKindRecursive) return kTVMFFIFieldFlagBitMaskSEqHashDefRecursive;
  if (kind == kTVMFFIDefRegionKindNonRecursive) return kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive;
  return 0;
}

AnyView ObjectAnyView(const Object* obj) {
  TVMFFIAny v;
  std::memset(&v, 0, sizeof(v));
  v.type_index = obj->type_index();
  v.v_obj = ObjectUnsafe::GetHeader(obj);
  return AnyView::CopyFromTVMFFIAny(v);
}

class EqualChecker {
 public:
  EqualChecker(bool map_free_vars, bool skip_tensor_content, bool track)
      : skip_tensor_(skip_tensor_content), track_(track) {
    region_ = map_free_vars ? kTVMFFIDefRegionKindRecursive : kTVMFFIDefRegionKindNone;
  }

  // Inline: the elements of containers are most often ints, compared here
  // without a call (as AnyKeyEqual does: the same 16 bytes).
  __attribute__((always_inline)) bool Equal(const TVMFFIAny& a, const TVMFFIAny& b) {
    if (a.type_index == kTVMFFIInt && b.type_index == kTVMFFIInt) {
      return a.zero_padding == b.zero_padding && a.v_int64 == b.v_int64;
    }
    return ValueEqual(a, b);
  }

  bool ValueEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
    int32_t ta = CanonicalIndex(a.type_index);
    int32_t tb = CanonicalIndex(b.type_index);
    if (ta != tb) return false;
    if (ta < kTVMFFIStaticObjectBegin) {
      switch (ta) {
        case kTVMFFINone:
          return true;
        case kTVMFFIFloat:
          return FloatEqual(a.v_float64, b.v_float64);
        case kTVMFFIDataType:
          return a.v_dtype.code == b.v_dtype.code && a.v_dtype.bits == b.v_dtype.bits &&
                 a.v_dtype.lanes == b.v_dtype.lanes;
        case kTVMFFIDevice:
          return a.v_device.device_type == b.v_device.device_type &&
                 a.v_device.device_id == b.v_device.device_id;
        default:
          return AnyKeyEqual(a, b);  // ints, bools, pointers, strings in either form
      }
    }
    const Object* la = ObjectOf(a);
    const Object* rb = ObjectOf(b);
    switch (ta) {
      case kTVMFFIStr:
      case kTVMFFIBytes:
      case kTVMFFIBigInt:
        return AnyKeyEqual(a, b);
      case kTVMFFIShape:
        return ShapeEqual(a, b);
      case kTVMFFITensor:
        return la == rb || TensorEqual(TensorOf(la), TensorOf(rb));
      default:
        break;
    }
    if (TooDeep(active_.size())) ThrowTooDeep("ffi.StructuralEqual", active_.data(), active_.size());
    // A pair found equal before, with no DAG node or variable below it (whose
    // answer depends on the bindings made so far), is equal again: a value
    // sharing sub-values has exponentially many paths but few such pairs.
    auto pair = std::make_pair(la, rb);
    if (equal_memo_.count(pair) != 0) return true;
    bool outer_dependent = dependent_;
    dependent_ = false;
    active_.push_back(la);
    bool ok;
    // A container is walked even when both sides are the same object: the
    // DAG nodes and variables inside must be bound on the way, or a later
    // comparison of one of them against another object would be judged
    // without the binding (Array([arr, d]) against Array([arr, d2])).
    if (ta == kTVMFFIArray || ta == kTVMFFIList) {
      ok = SeqEqual(static_cast<const SeqBaseObj*>(la), static_cast<const SeqBaseObj*>(rb));
    } else if (ta == kTVMFFIMap || ta == kTVMFFIDict) {
      ok = MapEqual(static_cast<const MapBaseObj*>(la), static_cast<const MapBaseObj*>(rb));
    } else {
      ok = ObjectEqual(la, rb);
    }
    active_.pop_back();
    // The root pair is never looked up again: no entry (and no allocation).
    if (ok && !dependent_ && !active_.empty()) equal_memo_.insert(pair);
    dependent_ = dependent_ || outer_dependent;
    return ok;
  }

  // The mismatch steps, root first.
  std::vector<Step> lhs_steps() const { return Reversed(lhs_rev_); }
  std::vector<Step> rhs_steps() const { return Reversed(rhs_rev_); }

 private:
  static std::vector<Step> Reversed(const std::vector<Step>& v) {
    return std::vector<Step>(v.rbegin(), v.rend());
  }

  // Records one step of the mismatch path on the way back up.
  bool Fail(AccessKind lk, Any lkey, AccessKind rk, Any rkey) {
    if (track_) {
      lhs_rev_.push_back(Step{lk, std::move(lkey)});
      rhs_rev_.push_back(Step{rk, std::move(rkey)});
    }
    return false;
  }

  bool ShapeEqual(const TVMFFIAny& a, const TVMFFIAny& b) {
    const TVMFFIShapeCell* x = TVMFFIShapeGetCellPtr(a.v_obj);
    const TVMFFIShapeCell* y = TVMFFIShapeGetCellPtr(b.v_obj);
    size_t n = x->size < y->size ? x->size : y->size;
    for (size_t i = 0; i < n; ++i) {
      if (x->data[i] != y->data[i]) {
        int64_t k = static_cast<int64_t>(i);
        return Fail(AccessKind::kArrayItem, Any(k), AccessKind::kArrayItem, Any(k));
      }
    }
    return SizeTail(static_cast<int64_t>(x->size), static_cast<int64_t>(y->size));
  }

  // Equal prefixes: the longer side has an item the other is missing.
  bool SizeTail(int64_t nx, int64_t ny) {
    if (nx == ny) return true;
    if (nx < ny) return Fail(AccessKind::kArrayItemMissing, Any(nx), AccessKind::kArrayItem, Any(nx));
    return Fail(AccessKind::kArrayItem, Any(ny), AccessKind::kArrayItemMissing, Any(ny));
  }

  bool TensorEqual(const DLTensor& x, const DLTensor& y) {
    if (!SameTensorMeta(x, y)) return false;
    if (skip_tensor_ || SameMemory(x, y)) return true;
    CheckHostTensor(x, "ffi.StructuralEqual");
    CheckHostTensor(y, "ffi.StructuralEqual");
    int64_t elem = (static_cast<int64_t>(x.dtype.bits) * x.dtype.lanes + 7) / 8;
    int64_t total = 1;
    for (int32_t i = 0; i < x.ndim; ++i) total *= x.shape[i];
    const char* bx = static_cast<const char*>(x.data) + x.byte_offset;
    const char* by = static_cast<const char*>(y.data) + y.byte_offset;
    if (IsContiguous(x) && IsContiguous(y)) {
      return total == 0 || std::memcmp(bx, by, static_cast<size_t>(total * elem)) == 0;
    }
    // Strided: walk both with one multi-index.
    size_t nd = static_cast<size_t>(x.ndim);
    std::vector<int64_t> index(nd, 0), sx(nd), sy(nd);
    int64_t run = 1;
    for (size_t i = nd; i-- > 0;) {
      sx[i] = x.strides != nullptr ? x.strides[i] : run;
      sy[i] = y.strides != nullptr ? y.strides[i] : run;
      run *= x.shape[i];
    }
    for (int64_t n = 0; n < total; ++n) {
      int64_t ox = 0, oy = 0;
      for (size_t i = 0; i < nd; ++i) {
        ox += index[i] * sx[i];
        oy += index[i] * sy[i];
      }
      if (std::memcmp(bx + ox * elem, by + oy * elem, static_cast<size_t>(elem)) != 0) {
        return false;
      }
      for (size_t i = nd; i-- > 0;) {
        if (++index[i] < x.shape[i]) break;
        index[i] = 0;
      }
    }
    return true;
  }

  bool SeqEqual(const SeqBaseObj* x, const SeqBaseObj* y) {
    int64_t nx = static_cast<int64_t>(x->size()), ny = static_cast<int64_t>(y->size());
    int64_t n = nx < ny ? nx : ny;
    for (int64_t i = 0; i < n; ++i) {
      if (!Equal(Raw(x->begin()[i]), Raw(y->begin()[i]))) {
        return Fail(AccessKind::kArrayItem, Any(i), AccessKind::kArrayItem, Any(i));
      }
    }
    return SizeTail(nx, ny);
  }

  // A key of the lhs map as the rhs would hold it: an object key that was
  // already mapped (a bound variable) becomes its counterpart.
  TVMFFIAny MapKey(const TVMFFIAny& key) const {
    if (key.type_index >= kTVMFFIStaticObjectBegin) {
      auto it = lhs_map_.find(ObjectOf(key));
      if (it != lhs_map_.end()) {
        TVMFFIAny out = key;
        out.type_index = it->second->type_index();
        out.v_obj = ObjectUnsafe::GetHeader(it->second);
        return out;
      }
    }
    return key;
  }

  bool MapEqual(const MapBaseObj* x, const MapBaseObj* y) {
    for (const auto& kv : *x) {
      const TVMFFIAny& lhs_key = Raw(kv.first);
      const TVMFFIAny mapped = MapKey(lhs_key);
      MapBaseObj::iterator other =
          mapped.v_obj == lhs_key.v_obj ? y->find(kv.first)
                                        : y->find(Any(AnyView::CopyFromTVMFFIAny(mapped)));
      const Any& key = kv.first;
      if (other == y->end()) {
        return Fail(AccessKind::kMapItem, key, AccessKind::kMapItemMissing, key);
      }
      if (!Equal(Raw(kv.second), Raw(other->second))) {
        return Fail(AccessKind::kMapItem, key, AccessKind::kMapItem, key);
      }
    }
    if (x->size() == y->size()) return true;
    // The rhs has a key that no lhs key maps to.
    for (const auto& ykv : *y) {
      const TVMFFIAny& key = Raw(ykv.first);
      bool found = false;
      for (auto it = x->begin(); it != x->end() && !found; ++it) {
        found = AnyKeyEqual(MapKey(Raw(it->first)), key);
      }
      if (!found) return Fail(AccessKind::kMapItemMissing, ykv.first, AccessKind::kMapItem, ykv.first);
    }
    return false;
  }

  bool ObjectEqual(const Object* x, const Object* y) {
    if (x->type_index() != y->type_index()) return false;
    const TVMFFITypeInfo* info = nullptr;
    int32_t kind = SEqHashKindOf(x, &info, "ffi.StructuralEqual");
    if (kind < 0 || kind == kTVMFFISEqHashKindUniqueInstance) return x == y;
    if (kind == kTVMFFISEqHashKindConstTreeNode && x == y) return true;
    bool mapped_kind = kind == kTVMFFISEqHashKindDAGNode || kind == kTVMFFISEqHashKindFreeVar;
    if (mapped_kind) {
      dependent_ = true;
      auto it = lhs_map_.find(x);
      if (it != lhs_map_.end()) return it->second == y;
      if (rhs_map_.count(y) != 0) return false;
    }
    if (kind != kTVMFFISEqHashKindFreeVar) {
      bool ok = FieldsEqual(x, y, info);
      if (ok && kind == kTVMFFISEqHashKindDAGNode) Bind(x, y);
      return ok;
    }
    // A free variable: its own fields are compared outside a non-recursive
    // definition region; it binds to its counterpart when inside a region
    // (or when both sides are the same object).
    int32_t saved = region_;
    if (region_ == kTVMFFIDefRegionKindNonRecursive) region_ = kTVMFFIDefRegionKindNone;
    bool ok = FieldsEqual(x, y, info);
    region_ = saved;
    if (!ok) return false;
    if (x == y || region_ != kTVMFFIDefRegionKindNone) {
      Bind(x, y);
      return true;
    }
    return false;
  }

  void Bind(const Object* x, const Object* y) {
    lhs_map_[x] = y;
    rhs_map_[y] = x;
  }

  bool FieldsEqual(const Object* x, const Object* y, const TVMFFITypeInfo* info) {
    // The fields of a node inside a non-recursive region are no definitions.
    int32_t outer = region_ == kTVMFFIDefRegionKindNonRecursive ? kTVMFFIDefRegionKindNone : region_;
    int32_t saved = region_;
    if (std::optional<Function> hook = StructuralHook(g_sequal_hook, info->type_index)) {
      // The type compares itself: hook(lhs, rhs, cmp), where cmp(a, b,
      // def_region_kind, field_name) compares two of its parts.
      Function cmp = Function::FromTyped([&](AnyView a, AnyView b, int64_t kind, AnyView name) {
        region_ = FieldRegion(outer, DefRegionFlags(kind));
        bool ok = Equal(Raw(a), Raw(b));
        region_ = outer;
        if (!ok) Fail(AccessKind::kAttr, Any(name), AccessKind::kAttr, Any(name));
        return ok;
      });
      bool ok = (*hook)(ObjectAnyView(x), ObjectAnyView(y), cmp).cast<bool>();
      region_ = saved;
      return ok;
    }
    bool ok = ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return true;
      region_ = FieldRegion(outer, f->flags);
      Any a = ReadField(ObjectUnsafe::GetHeader(x), f);
      Any b = ReadField(ObjectUnsafe::GetHeader(y), f);
      if (Equal(Raw(a), Raw(b))) return true;
      String name(f->name.data, f->name.size);
      Fail(AccessKind::kAttr, Any(name), AccessKind::kAttr, Any(name));
      return false;
    });
    region_ = saved;
    return ok;
  }

  bool skip_tensor_;
  bool track_;
  int32_t region_;
  std::vector<const Object*> active_;
  std::unordered_map<const Object*, const Object*> lhs_map_, rhs_map_;
  std::vector<Step> lhs_rev_, rhs_rev_;
  // Whether the pair being compared met a DAG node or a variable below it.
  bool dependent_ = false;
  struct PairHash {
    size_t operator()(const std::pair<const Object*, const Object*>& p) const {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  std::unordered_set<std::pair<const Object*, const Object*>, PairHash> equal_memo_;
};

// Hashing -------------------------------------------------------------------------

inline uint64_t Mix(uint64_t seed, uint64_t value) {
  // splitmix64 finaliser over the pair: well spread, cheap, and order-dependent.
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + value + 0x632be59bd9b4e019ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Hasher {
 public:
  Hasher(bool map_free_vars, bool skip_tensor_content) : skip_tensor_(skip_tensor_content) {
    region_ = map_free_vars ? kTVMFFIDefRegionKindRecursive : kTVMFFIDefRegionKindNone;
  }

  // Inline: an element of a container is most often an int, hashed here
  // without a call; objects go to ObjectValueHash.
  __attribute__((always_inline)) uint64_t Hash(const TVMFFIAny& v) {
    int32_t t = CanonicalIndex(v.type_index);
    if (t == kTVMFFIInt || t == kTVMFFIBool) return Mix(t, v.v_uint64);
    if (t < kTVMFFIStaticObjectBegin) return PodHash(t, v);
    return ObjectValueHash(t, v);
  }

 private:
  static uint64_t PodHash(int32_t t, const TVMFFIAny& v) {
    switch (t) {
      case kTVMFFINone:
        return Mix(t, 0);
      case kTVMFFIFloat:
        return Mix(t, FloatBits(v.v_float64));
      case kTVMFFIDataType:
        return Mix(t, (uint64_t(v.v_dtype.code) << 32) | (uint64_t(v.v_dtype.bits) << 16) |
                          v.v_dtype.lanes);
      case kTVMFFIDevice:
        return Mix(t, (uint64_t(static_cast<uint32_t>(v.v_device.device_type)) << 32) |
                          static_cast<uint32_t>(v.v_device.device_id));
      case kTVMFFIInt:
      case kTVMFFIBool:
        return Mix(t, v.v_uint64);
      default:
        return Mix(t, AnyKeyHash(v));
    }
  }

  uint64_t ObjectValueHash(int32_t t, const TVMFFIAny& v) {
    const Object* obj = ObjectOf(v);
    switch (t) {
      case kTVMFFIStr:
      case kTVMFFIBytes:
      case kTVMFFIBigInt:
        return Mix(t, AnyKeyHash(v));
      case kTVMFFIShape: {
        const TVMFFIShapeCell* c = TVMFFIShapeGetCellPtr(v.v_obj);
        uint64_t h = Mix(t, c->size);
        for (size_t i = 0; i < c->size; ++i) h = Mix(h, static_cast<uint64_t>(c->data[i]));
        return h;
      }
      case kTVMFFITensor:
        return TensorHash(TensorOf(obj));
      default:
        break;
    }
    if (TooDeep(active_.size())) ThrowTooDeep("ffi.StructuralHash", active_.data(), active_.size());
    // As in equality: a hash with no DAG node or variable below it does not
    // depend on what was visited before, so a shared sub-value is hashed once.
    auto known = memo_.find(obj);
    if (known != memo_.end()) return known->second;
    bool outer_dependent = dependent_;
    dependent_ = false;
    active_.push_back(obj);
    std::optional<uint64_t> container =
        HashContainer(obj, t, static_cast<uint64_t>(t), Mix,
                      [this](const TVMFFIAny& e) { return Hash(e); });
    uint64_t h = container.has_value() ? *container : ObjectHash(obj);
    active_.pop_back();
    // The root's hash is never looked up again: no entry (and no allocation).
    if (!dependent_ && !active_.empty()) memo_.emplace(obj, h);
    dependent_ = dependent_ || outer_dependent;
    return h;
  }

  uint64_t TensorHash(const DLTensor& x) {
    uint64_t h = Mix(kTVMFFITensor, static_cast<uint64_t>(x.ndim));
    h = Mix(h, (uint64_t(x.dtype.code) << 32) | (uint64_t(x.dtype.bits) << 16) | x.dtype.lanes);
    h = Mix(h, (uint64_t(static_cast<uint32_t>(x.device.device_type)) << 32) |
                   static_cast<uint32_t>(x.device.device_id));
    for (int32_t i = 0; i < x.ndim; ++i) h = Mix(h, static_cast<uint64_t>(x.shape[i]));
    if (skip_tensor_) return h;
    CheckHostTensor(x, "ffi.StructuralHash");
    ForEachElement(
        x,
        [&h](const char* p, int64_t elem) {
          h = Mix(h, HashBytes(p, static_cast<size_t>(elem)));
        },
        kHashedTensorElements);
    return h;
  }

  uint64_t ObjectHash(const Object* obj) {
    const TVMFFITypeInfo* info = nullptr;
    int32_t kind = SEqHashKindOf(obj, &info, "ffi.StructuralHash");
    uint64_t type_bits = Mix(static_cast<uint64_t>(obj->type_index()), info->type_key_hash);
    auto pointer = reinterpret_cast<uintptr_t>(obj);
    if (kind < 0 || kind == kTVMFFISEqHashKindUniqueInstance) return Mix(type_bits, pointer);
    if (kind == kTVMFFISEqHashKindDAGNode || kind == kTVMFFISEqHashKindFreeVar) {
      dependent_ = true;
      // A node seen before hashes as a reference to its first visit, as
      // equality maps it to the counterpart of that visit.
      auto it = seen_.find(obj);
      if (it != seen_.end()) return Mix(Mix(type_bits, 0xdaULL), it->second);
    }
    if (kind != kTVMFFISEqHashKindFreeVar) {
      uint64_t h = FieldsHash(obj, info, type_bits);
      if (kind == kTVMFFISEqHashKindDAGNode) seen_.emplace(obj, seen_.size());
      return h;
    }
    int32_t saved = region_;
    if (region_ == kTVMFFIDefRegionKindNonRecursive) region_ = kTVMFFIDefRegionKindNone;
    uint64_t h = FieldsHash(obj, info, type_bits);
    region_ = saved;
    if (region_ == kTVMFFIDefRegionKindNone) return Mix(h, pointer);  // free: by identity
    uint64_t index = seen_.size();
    seen_.emplace(obj, index);
    return Mix(Mix(h, 0xdefULL), index);
  }

  uint64_t FieldsHash(const Object* obj, const TVMFFITypeInfo* info, uint64_t h) {
    int32_t outer = region_ == kTVMFFIDefRegionKindNonRecursive ? kTVMFFIDefRegionKindNone : region_;
    int32_t saved = region_;
    if (std::optional<Function> hook = StructuralHook(g_shash_hook, info->type_index)) {
      // The type hashes itself: hook(obj, init, hash), where hash(part,
      // init, def_region_kind) mixes a part into init.
      Function part = Function::FromTyped([&](AnyView v, int64_t init, int64_t kind) {
        region_ = FieldRegion(outer, DefRegionFlags(kind));
        uint64_t mixed = Mix(static_cast<uint64_t>(init), Hash(Raw(v)));
        region_ = outer;
        return static_cast<int64_t>(mixed);
      });
      int64_t out = (*hook)(ObjectAnyView(obj), static_cast<int64_t>(h), part).cast<int64_t>();
      region_ = saved;
      return static_cast<uint64_t>(out);
    }
    ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return true;
      region_ = FieldRegion(outer, f->flags);
      Any value = ReadField(ObjectUnsafe::GetHeader(obj), f);
      h = Mix(h, Hash(Raw(value)));
      return true;
    });
    region_ = saved;
    return h;
  }

  bool skip_tensor_;
  int32_t region_;
  std::vector<const Object*> active_;
  std::unordered_map<const Object*, uint64_t> seen_;
  // Whether the object being hashed met a DAG node or a variable below it.
  bool dependent_ = false;
  std::unordered_map<const Object*, uint64_t> memo_;
};

ObjectRef BuildPath(const std::vector<Step>& steps) {
  ObjectRef p = AccessPathRoot();
  for (const Step& s : steps) p = AccessPathExtend(p, s.kind, s.key);
  return p;
}

}  // namespace

std::optional<std::pair<ObjectRef, ObjectRef>> SFirstMismatch(const TVMFFIAny& lhs,
                                                               const TVMFFIAny& rhs,
                                                               bool map_free_vars,
                                                               bool skip_tensor_content) {
  EqualChecker checker(map_free_vars, skip_tensor_content, true);
  if (checker.Equal(lhs, rhs)) return std::nullopt;
  return std::make_pair(BuildPath(checker.lhs_steps()), BuildPath(checker.rhs_steps()));
}

bool SEqual(const TVMFFIAny& lhs, const TVMFFIAny& rhs, bool map_free_vars,
            bool skip_tensor_content) {
  EqualChecker checker(map_free_vars, skip_tensor_content, false);
  return checker.Equal(lhs, rhs);
}

uint64_t SHash(const TVMFFIAny& value, bool map_free_vars, bool skip_tensor_content) {
  Hasher hasher(map_free_vars, skip_tensor_content);
  return hasher.Hash(value);
}

// Registration --------------------------------------------------------------------

namespace {

namespace refl = ::tvm::ffi::reflection;

// The getter of a link field (AccessPathObj::parent, ::step): the object, or
// None when null.
int GetLink(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  const ObjectRef& link = *static_cast<const ObjectRef*>(field);
  *result = AnyUnsafe::MoveAnyToTVMFFIAny(link.defined() ? Any(link) : Any());
  TVM_FFI_SAFE_CALL_END();
}

// The setter of a link field: None, or an object of type Target; anything
// else is a TypeError "expected Optional[<key>], got <type>".
template <typename Target>
int SetLink(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  ObjectRef* slot = static_cast<ObjectRef*>(field);
  if (value->type_index == kTVMFFINone) {
    *slot = ObjectRef(nullptr);
  } else if (value->type_index >= kTVMFFIStaticObjectBegin &&
             ObjectOf(*value)->IsInstance<Target>()) {
    *slot = RefOf(ObjectOf(*value));
  } else {
    TVM_FFI_THROW(TypeError) << "expected Optional[" << Target::_type_key << "], got "
                             << TypeIndexToDisplayName(value->type_index);
  }
  TVM_FFI_SAFE_CALL_END();
}

// Registers a frozen link field of AccessPathObj: a nullable reference,
// typed Any in its schema (the setter does the checking).
template <typename Target>
void RegisterLinkField(const char* name, ObjectRef AccessPathObj::*member, const char* doc) {
  static const char kMetadata[] = "{\"type_schema\":\"{\\\"type\\\":\\\"Any\\\"}\"}";
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.doc = TVMFFIByteArray{doc, std::strlen(doc)};
  info.metadata = TVMFFIByteArray{kMetadata, sizeof(kMetadata) - 1};
  info.flags = 0;
  info.size = static_cast<int64_t>(sizeof(ObjectRef));
  info.alignment = static_cast<int64_t>(alignof(ObjectRef));
  info.offset = refl::GetFieldByteOffsetToObject<AccessPathObj>(member);
  info.getter = &GetLink;
  info.setter = reinterpret_cast<void*>(&SetLink<Target>);
  info.default_value_or_factory.type_index = kTVMFFINone;
  info.field_static_type_index = kTVMFFIAny;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(AccessPathObj::RuntimeTypeIndex(), &info));
}

ObjectRef PathOf(AnyView self) { return RefOf(AsPath(self, "AccessPath")); }

// The path `self` extended by one step (kind, key).
ObjectRef ExtendSelf(AnyView self, AccessKind kind, Any key) {
  return AccessPathExtend(PathOf(self), kind, std::move(key));
}

// Whether a's steps are the first steps of b's (all of them when `whole`).
bool StepsMatch(AnyView self, AnyView other, const char* what, bool whole) {
  const AccessPathObj* a = AsPath(self, what);
  const AccessPathObj* b = AsPath(other, what);
  if (whole ? a->depth != b->depth : a->depth > b->depth) return false;
  std::vector<const AccessStepObj*> x = PathSteps(a), y = PathSteps(b);
  for (size_t i = 0; i < x.size(); ++i) {
    if (!StepEqual(x[i], y[i])) return false;
  }
  return true;
}

void RegisterAccessPathTypes() {
  refl::ObjectDef<AccessStepObj>(refl::init(false),
                                 "One step of an access path: kind (AccessKind) and key.")
      .def_ro("kind", &AccessStepObj::kind,
              "0 attr, 1 array item, 2 map item, 3-5 the same, missing")
      .def_ro("key", &AccessStepObj::key, "field name, index or map key")
      .def_type_attr("__ffi_repr__", Function::FromTyped([](AnyView self, AnyView) {
                       if (self.type_index() != AccessStepObj::RuntimeTypeIndex()) {
                         TVM_FFI_THROW(TypeError) << "expected ffi.reflection.AccessStep";
                       }
                       return String(StepToString(
                           static_cast<const AccessStepObj*>(ObjectOf(Raw(self)))));
                     }));
  refl::ObjectDef<AccessPathObj> path_def(refl::init(false),
                                          "A path from a root value to a nested value.");
  RegisterLinkField<AccessPathObj>("parent", &AccessPathObj::parent,
                                   "the path without its last step");
  RegisterLinkField<AccessStepObj>("step", &AccessPathObj::step, "the last step");
  path_def.def_ro("depth", &AccessPathObj::depth, "number of steps")
      .def_static("_root", []() { return AccessPathRoot(); })
      .def("_extend",
           [](AnyView self, AnyView step) {
             if (step.type_index() != AccessStepObj::RuntimeTypeIndex()) {
               TVM_FFI_THROW(TypeError) << "AccessPath._extend: expected "
                                        << "ffi.reflection.AccessStep, got "
                                        << TypeIndexToDisplayName(step.type_index());
             }
             const AccessPathObj* parent = AsPath(self, "AccessPath._extend");
             ObjectPtr<AccessPathObj> out = make_object<AccessPathObj>();
             out->depth = parent->depth + 1;
             out->parent = RefOf(parent);
             out->step = RefOf(ObjectOf(Raw(step)));
             return ObjectRef(std::move(out));
           })
      .def("_attr",
           [](AnyView self, String name) {
             return ExtendSelf(self, AccessKind::kAttr, Any(std::move(name)));
           })
      .def("_array_item",
           [](AnyView self, int64_t i) { return ExtendSelf(self, AccessKind::kArrayItem, Any(i)); })
      .def("_map_item",
           [](AnyView self, Any key) {
             return ExtendSelf(self, AccessKind::kMapItem, std::move(key));
           })
      .def("_attr_missing",
           [](AnyView self, String name) {
             return ExtendSelf(self, AccessKind::kAttrMissing, Any(std::move(name)));
           })
      .def("_array_item_missing",
           [](AnyView self, int64_t i) {
             return ExtendSelf(self, AccessKind::kArrayItemMissing, Any(i));
           })
      .def("_map_item_missing",
           [](AnyView self, Any key) {
             return ExtendSelf(self, AccessKind::kMapItemMissing, std::move(key));
           })
      .def("_is_prefix_of",
           [](AnyView self, AnyView other) {
             return StepsMatch(self, other, "AccessPath._is_prefix_of", false);
           })
      .def("_path_equal",
           [](AnyView self, AnyView other) {
             return StepsMatch(self, other, "AccessPath._path_equal", true);
           })
      .def("_to_steps",
           [](AnyView self) {
             Array<Any> out;
             for (const AccessStepObj* s : PathSteps(AsPath(self, "AccessPath._to_steps"))) {
               out.push_back(Any(RefOf(s)));
             }
             return out;
           })
      .def("_repr", [](AnyView self) { return String(AccessPathToString(PathOf(self))); })
      .def_type_attr("__ffi_repr__", Function::FromTyped([](AnyView self, AnyView) {
                       return String(AccessPathToString(PathOf(self)));
                     }));
}

const bool kAccessPathRegistered = RegisterAtLoad(&RegisterAccessPathTypes);

// The arguments are taken as Any, which turns a raw C string into a String.
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralEqual", [](Any lhs, Any rhs, bool map_free_vars,
                                                       bool skip_tensor_content) {
  return SEqual(Raw(lhs), Raw(rhs), map_free_vars, skip_tensor_content);
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralHash",
                             [](Any value, bool map_free_vars, bool skip_tensor_content) {
                               return static_cast<int64_t>(
                                   SHash(Raw(value), map_free_vars, skip_tensor_content));
                             });

// None when equal, else Array [lhs_path, rhs_path].
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.GetFirstStructuralMismatch",
                             [](Any lhs, Any rhs, bool map_free_vars,
                                bool skip_tensor_content) -> Any {
                               auto m = SFirstMismatch(Raw(lhs), Raw(rhs), map_free_vars,
                                                       skip_tensor_content);
                               if (!m.has_value()) return Any();
                               Array<Any> pair;
                               pair.push_back(m->first);
                               pair.push_back(m->second);
                               return Any(std::move(pair));
                             });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// Structural equality, hashing and access paths (internal interface).
#ifndef TVM_FFI_CORE_STRUCTURAL_H_
#define TVM_FFI_CORE_STRUCTURAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/object.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

// Nesting deeper than this (objects within objects) is refused with a
// RecursionError naming the walk; a reference cycle is reported as a
// ValueError when it is found at that depth.  Each level costs a few C++
// frames (about 1 KiB in a Release build, several in an ASan Debug build), so
// the walks also watch the stack itself (StackNearlyFull).
constexpr int kStructuralMaxDepth = 2048;

// Structural equality and hash (docs/reflection.md has the rules); the
// public spelling is tvm/ffi/extra/structural_equal.h and structural_hash.h.
bool SEqual(const TVMFFIAny& lhs, const TVMFFIAny& rhs, bool map_free_vars,
            bool skip_tensor_content);
uint64_t SHash(const TVMFFIAny& value, bool map_free_vars, bool skip_tensor_content);

// Whether the calling thread has less than 256 KiB of stack left below the
// caller's frame (false when its stack bounds are unknown).  Walks check it
// with the depth limit: a thread with a small stack, or frames made large by
// a sanitizer, gets an error instead of a crash.
bool StackNearlyFull() noexcept;

// Whether a walk at `depth` levels must stop (the depth limit or the stack).
// The stack is looked at every 16 levels: 16 levels take far less than the
// 256 KiB reserve, even in an ASan Debug build.
inline bool TooDeep(size_t depth) {
  return depth >= static_cast<size_t>(kStructuralMaxDepth) ||
         ((depth & 15) == 15 && StackNearlyFull());
}

// For the error message of a walk that went too deep (TooDeep): throws
// ValueError when `active` (the objects on the current path, outermost
// first) holds an object twice, else RecursionError.
[[noreturn]] void ThrowTooDeepHeaders(const char* walk, const TVMFFIObject* const* active,
                                      size_t n);

// ThrowTooDeep for a path of objects of any C++ object class (each starts
// with its TVMFFIObject header, as tvm::ffi::Object does);
// only the error path copies the pointers.
template <typename ObjectT>
[[noreturn]] void ThrowTooDeep(const char* walk, const ObjectT* const* active, size_t n) {
  std::vector<const TVMFFIObject*> headers(n);
  for (size_t i = 0; i < n; ++i) headers[i] = reinterpret_cast<const TVMFFIObject*>(active[i]);
  ThrowTooDeepHeaders(walk, headers.data(), n);
}

// The hash of a container whose type index is `t`: an Array or List hashes
// its elements in order, a Map or Dict sums over its entries (independent of
// their order); `tag` starts the value.  `mix(seed, value)` combines and
// `hash(element)` hashes an element: each walk (structural, recursive)
// brings its own.  Returns nullopt for any other type.  Each element is held
// while it is hashed (and a map's entries are copied first), so a type's
// hook that changes the container cannot free what is being hashed; the
// caller holds `obj`.
template <typename MixFn, typename HashFn>
std::optional<uint64_t> HashContainer(const Object* obj, int32_t t, uint64_t tag, MixFn mix,
                                      HashFn&& hash) {
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    const SeqBaseObj* s = static_cast<const SeqBaseObj*>(obj);
    uint64_t h = mix(tag, static_cast<uint64_t>(s->size()));
    for (size_t i = 0; i < s->size(); ++i) {
      Any item = s->begin()[i];
      h = mix(h, hash(*AnyUnsafe::TVMFFIAnyPtrFromAny(item)));
    }
    return h;
  }
  if (t == kTVMFFIMap || t == kTVMFFIDict) {
    const MapBaseObj* m = static_cast<const MapBaseObj*>(obj);
    std::vector<std::pair<Any, Any>> entries;
    entries.reserve(m->size());
    for (const auto& kv : *m) entries.emplace_back(kv.first, kv.second);
    uint64_t sum = 0;
    for (const auto& kv : entries) {
      sum += mix(hash(*AnyUnsafe::TVMFFIAnyPtrFromAny(kv.first)),
                 hash(*AnyUnsafe::TVMFFIAnyPtrFromAny(kv.second)));
    }
    return mix(mix(tag, static_cast<uint64_t>(entries.size())), sum);
  }
  return std::nullopt;
}

// Step kinds of an access path (upstream's AccessKind values).
enum class AccessKind : int32_t {
  kAttr = 0,
  kArrayItem = 1,
  kMapItem = 2,
  kAttrMissing = 3,
  kArrayItemMissing = 4,
  kMapItemMissing = 5,
};

// ffi.reflection.AccessStep: one step (kind, key).  Layout (upstream's, and
// tvm/ffi/reflection/access_path.h's, whose C++ code reads it inline):
// { header, int32 kind, 4 padding bytes (kept zero), Any key }.
class AccessStepObj : public Object {
 public:
  int32_t kind = 0;
  int32_t kind_padding = 0;
  Any key;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessStep", AccessStepObj, Object);
};

// ffi.reflection.AccessPath: a linked list of steps from the root; the root
// has depth 0 and no parent or step (both None).  Layout (upstream's):
// { header, parent (nullable ref), step (nullable ref), int32 depth }.
// The link fields' setters (used when a graph or pickle rebuilds a path)
// refuse anything but None or a path (a step); PathSteps checks that the
// chain is well formed (depth matching) before anything walks it.
class AccessPathObj : public Object {
 public:
  ObjectRef parent;  // an AccessPathObj, or null (None)
  ObjectRef step;    // an AccessStepObj, or null (None)
  int32_t depth = 0;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessPath", AccessPathObj, Object);
};
static_assert(sizeof(AccessStepObj) == sizeof(TVMFFIObject) + 8 + sizeof(TVMFFIAny),
              "ffi.reflection.AccessStep: header, int32 kind, padding, Any key");
static_assert(sizeof(AccessPathObj) == sizeof(TVMFFIObject) + 24,
              "ffi.reflection.AccessPath: header, parent, step, int32 depth");

ObjectRef AccessPathRoot();
ObjectRef AccessPathExtend(const ObjectRef& path, AccessKind kind, Any key);
// "<root>.field[3]["key"][<missing:2>]".
std::string AccessPathToString(const ObjectRef& path);

// The paths (lhs, rhs) to the first difference, or nullopt when equal.
std::optional<std::pair<ObjectRef, ObjectRef>> SFirstMismatch(const TVMFFIAny& lhs,
                                                               const TVMFFIAny& rhs,
                                                               bool map_free_vars,
                                                               bool skip_tensor_content);

}  // namespace core

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_STRUCTURAL_H_

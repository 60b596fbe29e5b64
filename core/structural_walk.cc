// ffi.StructuralVisitor, the default descent, the walk engine and their
// globals (see structural_walk.h).
#include "structural_walk.h"

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "visit_error_context.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace structural_walk {
namespace {

namespace refl = ::tvm::ffi::reflection;

constexpr const char* kVisitAttr = "__s_visit__";

// The vtable of any visitor (a protected member of the public class).
struct VisitorAccess : StructuralVisitorObj {
  static const StructuralVisitorVTable* VTableOf(const StructuralVisitorObj* v) {
    return v->*(&VisitorAccess::vtable_);
  }
};

TVMFFIAny NoneRaw() {
  TVMFFIAny raw;
  std::memset(&raw, 0, sizeof(raw));
  return raw;
}

// An owning raw value of `result` (None or a VisitInterrupt).
TVMFFIAny ToRaw(Any result) { return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(result)); }

TVMFFIAny CurrentErrorRaw() noexcept { return CurrentExceptionAsRawError(); }

// A raw visit result taken over: None or VisitInterrupt returned, an Error thrown.
Any TakeResult(TVMFFIAny raw, const char* what) {
  Any result = AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
  if (result.type_index() == TypeIndex::kTVMFFIError) {
    throw AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(result));
  }
  if (result.type_index() != TypeIndex::kTVMFFINone &&
      result.type_index() != TypeIndex::kTVMFFIVisitInterrupt) {
    TVM_FFI_CORE_THROW(TypeError) << what << " must return None or ffi.VisitInterrupt, got "
                                  << TypeIndexToDisplayName(result.type_index());
  }
  return result;
}

bool Stops(const Any& result) { return result.type_index() != TypeIndex::kTVMFFINone; }

// A borrowed view of an object.
AnyView ViewOf(const Object* obj) {
  TVMFFIAny raw = NoneRaw();
  raw.type_index = obj->type_index();
  raw.v_obj = ObjectUnsafe::GetHeader(obj);
  return AnyView::CopyFromTVMFFIAny(raw);
}

const TVMFFIAny* VisitHookOf(int32_t type_index) {
  static const TVMFFITypeAttrColumn* column = [] {
    TVMFFIByteArray name = {kVisitAttr, std::strlen(kVisitAttr)};
    return TVMFFIGetTypeAttrColumn(&name);
  }();
  if (column == nullptr) return nullptr;
  int32_t off = type_index - column->begin_index;
  if (off < 0 || off >= column->size) return nullptr;
  return &column->data[off];
}

Any VisitReflectedFields(StructuralVisitorObj* visitor, const Object* obj) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
  if (info == nullptr) TVM_FFI_CHECK_SAFE_CALL(-1);
  auto visit_fields = [&]() -> Any {
    Any stop;
    refl::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* f) {
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return false;
      Any value = ReadField(obj, f);
      // Initialized, never move-assigned: Any's move assignment swaps field
      // by field and then reads the value whole (a stalled store per node).
      Any result = [&]() -> Any {
        if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
          return visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple,
                                            [&] { return Visit(visitor, value); });
        }
        if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
          return visitor->WithDefRegionKind(kTVMFFIDefRegionKindPattern,
                                            [&] { return Visit(visitor, value); });
        }
        return Visit(visitor, value);
      }();
      if (!Stops(result)) return false;
      stop = std::move(result);
      return true;
    });
    return stop;
  };
  // A FreeVar reached as a simple definition: the variable is the definition,
  // its fields are uses.
  if (visitor->def_region_kind() == kTVMFFIDefRegionKindSimple && info->metadata != nullptr &&
      info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar) {
    return visitor->WithDefRegionKind(kTVMFFIDefRegionKindNone, visit_fields);
  }
  return visit_fields();
}

// __s_visit__ of Array and List: the items.
TVMFFIAny VisitSeq(StructuralVisitorObj* visitor, AnyView value) noexcept {
  try {
    const SeqBaseObj* s = AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<SeqBaseObj>(value);
    for (int64_t i = 0; i < static_cast<int64_t>(s->size()); ++i) {
      Any r = Visit(visitor, s->at(i));
      if (Stops(r)) return ToRaw(std::move(r));
    }
    return NoneRaw();
  } catch (...) {
    return CurrentErrorRaw();
  }
}

// __s_visit__ of Map and Dict: the values (keys are anchors, not visited).
TVMFFIAny VisitMapValues(StructuralVisitorObj* visitor, AnyView value) noexcept {
  try {
    const MapBaseObj* m = AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<MapBaseObj>(value);
    for (const MapBaseObj::KVType& kv : *m) {
      Any r = Visit(visitor, kv.second);
      if (Stops(r)) return ToRaw(std::move(r));
    }
    return NoneRaw();
  } catch (...) {
    return CurrentErrorRaw();
  }
}

// Whether a value of type `actual` matches a callback registered for `target`:
// the same index; kTVMFFIAny matches everything, str/bytes their small forms,
// ffi.Object every object, an object type its subclasses.
bool TypeMatches(int32_t actual, int32_t target) {
  if (actual == target || target == TypeIndex::kTVMFFIAny) return true;
  if (target == TypeIndex::kTVMFFIStr) return actual == TypeIndex::kTVMFFISmallStr;
  if (target == TypeIndex::kTVMFFIBytes) return actual == TypeIndex::kTVMFFISmallBytes;
  if (target == TypeIndex::kTVMFFIObject) return actual >= TypeIndex::kTVMFFIStaticObjectBegin;
  if (actual < TypeIndex::kTVMFFIStaticObjectBegin ||
      target < TypeIndex::kTVMFFIStaticObjectBegin) {
    return false;
  }
  const TVMFFITypeInfo* a = TVMFFIGetTypeInfo(actual);
  const TVMFFITypeInfo* t = TVMFFIGetTypeInfo(target);
  return a != nullptr && t != nullptr && a->type_depth > t->type_depth &&
         a->type_ancestors[t->type_depth]->type_index == target;
}

struct Callback {
  int32_t type_index;
  Function fn;
};

std::vector<Callback> CallbacksArg(const Array<Any>& entries, const char* func) {
  std::vector<Callback> out;
  for (int64_t i = 0; i < static_cast<int64_t>(entries.size()); ++i) {
    Any entry = entries[i];
    std::optional<Array<Any>> pair = entry.try_cast<Array<Any>>();
    if (!pair.has_value() || pair->size() != 2 ||
        (*pair)[1].type_index() != TypeIndex::kTVMFFIFunction) {
      TVM_FFI_CORE_THROW(TypeError) << func << ": callback entry " << i
                                    << " must be a (type_index, function) pair";
    }
    out.push_back({static_cast<int32_t>((*pair)[0].cast<int64_t>()), (*pair)[1].cast<Function>()});
  }
  return out;
}

const Callback* Match(const std::vector<Callback>& callbacks, int32_t type_index) {
  for (const Callback& c : callbacks) {
    if (TypeMatches(type_index, c.type_index)) return &c;
  }
  return nullptr;
}

// A walk: typed callbacks before (pre-order) or after (post-order) the
// default descent of each value.  A callback returns None or 0 (advance),
// 1 (skip the children; pre-order only) or a VisitInterrupt (stop).
class WalkVisitor : public StructuralVisitorObj {
 public:
  WalkVisitor(std::vector<Callback> plain, std::vector<Callback> with_kind, bool pre_order)
      : StructuralVisitorObj(&kVTable),
        plain_(std::move(plain)),
        with_kind_(std::move(with_kind)),
        pre_order_(pre_order) {}

 private:
  static constexpr int64_t kSkip = 1;
  static const StructuralVisitorVTable kVTable;

  static TVMFFIAny Dispatch(StructuralVisitorObj* self, AnyView value) noexcept {
    try {
      return ToRaw(static_cast<WalkVisitor*>(self)->VisitImpl(value));
    } catch (...) {
      TVMFFIAny err = CurrentErrorRaw();
      AttachVisitErrorContext(&err, value, false);
      return err;
    }
  }

  // None to advance, the int 1 to skip, or a VisitInterrupt.
  Any RunCallback(AnyView value) {
    const Callback* plain = Match(plain_, value.type_index());
    const Callback* with_kind = plain == nullptr ? Match(with_kind_, value.type_index()) : nullptr;
    if (plain == nullptr && with_kind == nullptr) return NoneValue();
    Any r = plain != nullptr ? plain->fn(value)
                             : with_kind->fn(value, static_cast<int64_t>(def_region_kind()));
    if (r.type_index() == TypeIndex::kTVMFFINone ||
        r.type_index() == TypeIndex::kTVMFFIVisitInterrupt) {
      return r;
    }
    if (r.type_index() == TypeIndex::kTVMFFIInt) {
      int64_t v = AnyUnsafe::TVMFFIAnyPtrFromAny(r)->v_int64;
      if (v == 0) return NoneValue();
      if (v == kSkip) return r;
    }
    TVM_FFI_CORE_THROW(TypeError)
        << "ffi.StructuralWalk: a callback must return None, 0 (advance), "
           "1 (skip) or ffi.VisitInterrupt, got "
        << TypeIndexToDisplayName(r.type_index());
  }

  Any VisitImpl(AnyView value) {
    if (value.type_index() == TypeIndex::kTVMFFINone) return NoneValue();
    if (pre_order_) {
      Any r = RunCallback(value);
      if (r.type_index() == TypeIndex::kTVMFFIVisitInterrupt) return r;
      if (r.type_index() == TypeIndex::kTVMFFIInt) return NoneValue();  // skip
    }
    {
      Any r = DefaultVisit(this, value);
      if (Stops(r)) return r;
    }
    if (!pre_order_) {
      Any r = RunCallback(value);
      if (r.type_index() == TypeIndex::kTVMFFIVisitInterrupt) return r;
    }
    return NoneValue();
  }

  std::vector<Callback> plain_;
  std::vector<Callback> with_kind_;
  bool pre_order_;
};

const StructuralVisitorVTable WalkVisitor::kVTable = {&WalkVisitor::Dispatch};

// Upstream's structural_visit: the first callback whose type matches a value
// owns it, fn(value, visitor) -> None or VisitInterrupt, and descends (or
// not) through the visitor; a value no callback matches takes its default
// descent.
class CallbackVisitor : public StructuralVisitorObj {
 public:
  explicit CallbackVisitor(std::vector<Callback> callbacks)
      : StructuralVisitorObj(&kVTable), callbacks_(std::move(callbacks)) {}

 private:
  static const StructuralVisitorVTable kVTable;

  static TVMFFIAny Dispatch(StructuralVisitorObj* self, AnyView value) noexcept {
    try {
      return ToRaw(static_cast<CallbackVisitor*>(self)->VisitImpl(value));
    } catch (...) {
      TVMFFIAny err = CurrentErrorRaw();
      AttachVisitErrorContext(&err, value, false);
      return err;
    }
  }

  Any VisitImpl(AnyView value) {
    if (value.type_index() == TypeIndex::kTVMFFINone) return NoneValue();
    if (const Callback* c = Match(callbacks_, value.type_index())) {
      Any r = c->fn(value, ViewOf(this));
      if (r.type_index() != TypeIndex::kTVMFFINone &&
          r.type_index() != TypeIndex::kTVMFFIVisitInterrupt) {
        TVM_FFI_CORE_THROW(TypeError) << "ffi.StructuralVisit: a callback must return None or "
                                         "ffi.VisitInterrupt, got "
                                      << TypeIndexToDisplayName(r.type_index());
      }
      return r;
    }
    return DefaultVisit(this, value);
  }

  std::vector<Callback> callbacks_;
};

const StructuralVisitorVTable CallbackVisitor::kVTable = {&CallbackVisitor::Dispatch};

void RegisterVisitHook(int32_t type_index, FStructuralVisitABI hook) {
  TVMFFIByteArray name = {kVisitAttr, std::strlen(kVisitAttr)};
  TVMFFIAny v = NoneRaw();
  v.type_index = TypeIndex::kTVMFFIOpaquePtr;
  v.v_ptr = reinterpret_cast<void*>(hook);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name, &v));
}

const bool kRegistered = RegisterAtLoad([] {
  refl::ObjectDef<StructuralVisitorObj>("A structural traversal in progress.");
  TVMFFIByteArray name = {kVisitAttr, std::strlen(kVisitAttr)};
  TVMFFIAny none = NoneRaw();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(TypeIndex::kTVMFFINone, &name, &none));
  for (int32_t t : {TypeIndex::kTVMFFIArray, TypeIndex::kTVMFFIList}) {
    RegisterVisitHook(t, &VisitSeq);
  }
  for (int32_t t : {TypeIndex::kTVMFFIMap, TypeIndex::kTVMFFIDict}) {
    RegisterVisitHook(t, &VisitMapValues);
  }
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralVisitorVisit",
                             [](const StructuralVisitor& visitor, AnyView value) {
                               return Visit(const_cast<StructuralVisitorObj*>(visitor.get()),
                                            value);
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralVisitorDefaultVisit",
                             [](const StructuralVisitor& visitor, AnyView value) {
                               return DefaultVisit(
                                   const_cast<StructuralVisitorObj*>(visitor.get()), value);
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralVisitorDefRegionKind",
                             [](const StructuralVisitor& visitor) {
                               return static_cast<int64_t>(visitor->def_region_kind());
                             });

TVM_FFI_CORE_REGISTER_GLOBAL(
    "ffi.StructuralVisitorWithDefRegionKind",
    [](const StructuralVisitor& visitor, int64_t kind, const Function& callback) -> Any {
      if (kind < kTVMFFIDefRegionKindNone || kind > kTVMFFIDefRegionKindSimple) {
        TVM_FFI_CORE_THROW(ValueError) << "ffi.StructuralVisitorWithDefRegionKind: unknown "
                                          "definition region kind "
                                       << kind;
      }
      if (callback == nullptr) {
        TVM_FFI_CORE_THROW(TypeError)
            << "ffi.StructuralVisitorWithDefRegionKind: the callback must be an ffi.Function, "
               "got None";
      }
      StructuralVisitorObj* v = const_cast<StructuralVisitorObj*>(visitor.get());
      return v->WithDefRegionKind(static_cast<TVMFFIDefRegionKind>(kind),
                                  [&]() -> Any { return callback(); });
    });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralVisit", [](AnyView root, const Array<Any>& callbacks) {
  ObjectPtr<CallbackVisitor> visitor =
      make_object<CallbackVisitor>(CallbacksArg(callbacks, "ffi.StructuralVisit"));
  return Visit(visitor.get(), root);
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralWalk",
                             [](AnyView root, const Array<Any>& callbacks,
                                const Array<Any>& callbacks_with_def_region_kind, int64_t order) {
                               if (order != 0 && order != 1) {
                                 TVM_FFI_CORE_THROW(ValueError)
                                     << "ffi.StructuralWalk: order must be 0 (pre-order) or 1 "
                                        "(post-order), got "
                                     << order;
                               }
                               ObjectPtr<WalkVisitor> visitor = make_object<WalkVisitor>(
                                   CallbacksArg(callbacks, "ffi.StructuralWalk"),
                                   CallbacksArg(callbacks_with_def_region_kind,
                                                "ffi.StructuralWalk"),
                                   order == 0);
                               return Visit(visitor.get(), root);
                             });

}  // namespace

TVMFFIAny CurrentExceptionAsRawError() noexcept {
  TVMFFIAny out = NoneRaw();
  SetRaisedFromCurrentException();
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  if (h != nullptr) {
    out.type_index = TypeIndex::kTVMFFIError;
    out.v_obj = static_cast<TVMFFIObject*>(h);
  }
  return out;
}

Any ReadField(const Object* obj, const TVMFFIFieldInfo* f) {
  if (f->getter == nullptr) {
    TVM_FFI_CORE_THROW(TypeError) << "field `" << std::string(f->name.data, f->name.size)
                                  << "` has no getter";
  }
  TVMFFIAny out = NoneRaw();
  void* addr = const_cast<char*>(reinterpret_cast<const char*>(obj)) + f->offset;
  TVM_FFI_CHECK_SAFE_CALL(f->getter(addr, &out));
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(out);
}

Any Visit(StructuralVisitorObj* visitor, AnyView value) {
  return TakeResult(VisitorAccess::VTableOf(visitor)->visit(visitor, value), "a structural visit");
}

Any DefaultVisit(StructuralVisitorObj* visitor, AnyView value) {
  const TVMFFIAny* hook = VisitHookOf(value.type_index());
  if (hook != nullptr && hook->type_index == TypeIndex::kTVMFFIOpaquePtr) {
    auto fn = reinterpret_cast<FStructuralVisitABI>(hook->v_ptr);
    return TakeResult(fn(visitor, value), "__s_visit__");
  }
  if (hook != nullptr && hook->type_index == TypeIndex::kTVMFFIFunction) {
    Function fn = AnyView::CopyFromTVMFFIAny(*hook).cast<Function>();
    Any r = fn(ViewOf(visitor), value);
    return TakeResult(ToRaw(std::move(r)), "__s_visit__");
  }
  if (hook != nullptr && hook->type_index != TypeIndex::kTVMFFINone) {
    TVM_FFI_CORE_THROW(TypeError)
        << "__s_visit__ must be an opaque function pointer or ffi.Function";
  }
  if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return NoneValue();
  return VisitReflectedFields(visitor, value.cast<const Object*>());
}

void AttachVisitErrorContext(TVMFFIAny* err, AnyView node, bool record_containers) noexcept {
  int32_t index = node.type_index();
  if (err->type_index != TypeIndex::kTVMFFIError ||
      index < TypeIndex::kTVMFFIStaticObjectBegin) {
    return;
  }
  // The walk's containers are no steps of the chain: FindAccessPaths walks through them.
  if (!record_containers &&
      (index == TypeIndex::kTVMFFIArray || index == TypeIndex::kTVMFFIList ||
       index == TypeIndex::kTVMFFIMap || index == TypeIndex::kTVMFFIDict)) {
    return;
  }
  try {
    static void (*const own_deleter)(void*, int) = [] {
      TVMFFIByteArray empty = {"", 0};
      TVMFFIObjectHandle probe = nullptr;
      if (TVMFFIErrorCreate(&empty, &empty, &empty, &probe) != 0) {
        return static_cast<void (*)(void*, int)>(nullptr);
      }
      void (*d)(void*, int) = TVM_FFI_OBJECT_DELETER(static_cast<TVMFFIObject*>(probe));
      TVMFFIObjectDecRef(probe);
      return d;
    }();
    if (own_deleter == nullptr) return;
    if (TVM_FFI_OBJECT_DELETER(err->v_obj) != own_deleter) {
      // Only this library's errors have the extra_context slot for sure: the
      // context goes on a copy.  Kind, message and backtrace are in every
      // version's cell.
      const TVMFFIErrorCell* old_cell = TVMFFIErrorGetCellPtr(err->v_obj);
      TVMFFIObjectHandle copy = nullptr;
      if (TVMFFIErrorCreate(&old_cell->kind, &old_cell->message, &old_cell->backtrace, &copy) !=
          0) {
        TVMFFIObjectHandle ignored = nullptr;  // out of memory: the error goes on as it is
        TVMFFIErrorMoveFromRaised(&ignored);
        if (ignored != nullptr) TVMFFIObjectDecRef(ignored);
        return;
      }
      TVMFFIObjectDecRef(err->v_obj);
      err->v_obj = static_cast<TVMFFIObject*>(copy);
    }
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err->v_obj);
    TVMFFIObjectHandle ctx = cell->extra_context;
    ObjectRef node_ref = node.cast<ObjectRef>();
    if (ctx != nullptr &&
        TVMFFIObjectGetTypeIndex(ctx) == VisitErrorContextObj::RuntimeTypeIndex()) {
      ObjectUnsafe::RawObjectPtrFromUnowned<VisitErrorContextObj>(static_cast<TVMFFIObject*>(ctx))
          ->reverse_visit_pattern.push_back(node_ref);
      return;
    }
    ObjectPtr<VisitErrorContextObj> fresh = make_object<VisitErrorContextObj>();
    fresh->reverse_visit_pattern.push_back(node_ref);
    if (ctx != nullptr) {
      // takes the error's reference
      fresh->prev_error_context =
          ObjectRef(ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(ctx)));
    }
    cell->extra_context = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(fresh));
  } catch (...) {
    // Out of memory: the error goes on without the context.
  }
}

Error WithVisitErrorContext(Error err, AnyView node, bool record_containers) noexcept {
  TVMFFIAny raw = AnyUnsafe::MoveAnyToTVMFFIAny(Any(std::move(err)));
  AttachVisitErrorContext(&raw, node, record_containers);
  return AnyUnsafe::MoveFromAnyAfterCheck<Error>(AnyUnsafe::MoveTVMFFIAnyRawToAny(raw));
}

}  // namespace structural_walk
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

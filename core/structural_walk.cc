// ffi.StructuralVisitor, the default descent, the walk engine and their
// globals (see structural_walk.h).
#include "structural_walk.h"

#include <cstring>
#include <utility>
#include <vector>

#include "impl/array.h"
#include "impl/error.h"
#include "impl/list.h"
#include "impl/map.h"
#include "impl/reflection.h"
#include "container_internal.h"
#include "reflection_visit.h"
#include "visit_error_context.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace structural_walk {
namespace {

constexpr const char* kVisitAttr = "__s_visit__";

// An owning raw value of `result` (None or a VisitInterrupt).
TVMFFIAny ToRaw(Any result) { return result.Release(); }

TVMFFIAny CurrentErrorRaw() noexcept { return CurrentExceptionAsRawError(); }

// A raw visit result taken over: None or VisitInterrupt returned, an Error thrown.
Any TakeResult(TVMFFIAny raw, const char* what) {
  Any result = Any::Adopt(raw);
  if (result.type_index() == kTVMFFIError) {
    throw Error(ObjectPtr<Object>::BorrowHandle(result.raw()->v_obj));
  }
  if (result.type_index() != kTVMFFINone && result.type_index() != kTVMFFIVisitInterrupt) {
    TVM_FFI_IMPL_THROW(TypeError) << what << " must return None or ffi.VisitInterrupt, got "
                            << TypeIndexToDisplayName(result.type_index());
  }
  return result;
}

bool Stops(const Any& result) { return result.type_index() != kTVMFFINone; }

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
  if (info == nullptr) ThrowRaised(-1);
  auto visit_fields = [&]() -> Any {
    for (const TVMFFIFieldInfo* f : reflection_detail::AllFields(info)) {
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      Any value = ReadField(const_cast<Object*>(obj)->handle(), f);
      Any result;
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
        result = WithDefRegionKind(visitor, kTVMFFIDefRegionKindSimple,
                                   [&] { return Visit(visitor, *value.raw()); });
      } else if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
        result = WithDefRegionKind(visitor, kTVMFFIDefRegionKindPattern,
                                   [&] { return Visit(visitor, *value.raw()); });
      } else {
        result = Visit(visitor, *value.raw());
      }
      if (Stops(result)) return result;
    }
    return Any();
  };
  // A FreeVar reached as a simple definition: the variable is the definition,
  // its fields are uses.
  if (visitor->def_region_mode == kTVMFFIDefRegionKindSimple && info->metadata != nullptr &&
      info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar) {
    return WithDefRegionKind(visitor, kTVMFFIDefRegionKindNone, visit_fields);
  }
  return visit_fields();
}

// __s_visit__ of Array and List: the items.
TVMFFIAny VisitSeq(StructuralVisitorObj* visitor, TVMFFIAny value) noexcept {
  try {
    const SeqObj* s = static_cast<const SeqObj*>(Object::FromHandle(value.v_obj));
    for (int64_t i = 0; i < s->size(); ++i) {
      Any r = Visit(visitor, s->at(i));
      if (Stops(r)) return ToRaw(std::move(r));
    }
    return ToRaw(Any());
  } catch (...) {
    return CurrentErrorRaw();
  }
}

// __s_visit__ of Map and Dict: the values (keys are anchors, not visited).
TVMFFIAny VisitMapValues(StructuralVisitorObj* visitor, TVMFFIAny value) noexcept {
  try {
    const MapBaseObj* m = static_cast<const MapBaseObj*>(Object::FromHandle(value.v_obj));
    for (uint64_t p = m->BeginPos(); p != m->EndPos(); p = m->NextPos(p)) {
      Any r = Visit(visitor, m->KVAt(p).value);
      if (Stops(r)) return ToRaw(std::move(r));
    }
    return ToRaw(Any());
  } catch (...) {
    return CurrentErrorRaw();
  }
}

// Whether a value of type `actual` matches a callback registered for `target`:
// the same index; kTVMFFIAny matches everything, str/bytes their small forms,
// ffi.Object every object, an object type its subclasses.
bool TypeMatches(int32_t actual, int32_t target) {
  if (actual == target || target == kTVMFFIAny) return true;
  if (target == kTVMFFIStr) return actual == kTVMFFISmallStr;
  if (target == kTVMFFIBytes) return actual == kTVMFFISmallBytes;
  if (target == kTVMFFIObject) return actual >= kTVMFFIStaticObjectBegin;
  if (actual < kTVMFFIStaticObjectBegin || target < kTVMFFIStaticObjectBegin) return false;
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
  for (int64_t i = 0; i < entries.size(); ++i) {
    Any entry = entries[i];
    std::optional<Array<Any>> pair = TypeTraits<Array<Any>>::TryCast(entry.raw());
    if (!pair.has_value() || pair->size() != 2) {
      TVM_FFI_IMPL_THROW(TypeError) << func << ": callback entry " << i
                              << " must be a (type_index, function) pair";
    }
    out.push_back({static_cast<int32_t>((*pair)[0].As<int64_t>()), (*pair)[1].As<Function>()});
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
  static const VTable kVTable;

  static TVMFFIAny Dispatch(StructuralVisitorObj* self, TVMFFIAny value) noexcept {
    try {
      return ToRaw(static_cast<WalkVisitor*>(self)->VisitImpl(value));
    } catch (...) {
      TVMFFIAny err = CurrentErrorRaw();
      if (err.type_index == kTVMFFIError) AttachVisitErrorContext(err.v_obj, value);
      return err;
    }
  }

  // None to advance, the int 1 to skip, or a VisitInterrupt.
  Any RunCallback(const TVMFFIAny& value) {
    Any r;
    if (const Callback* c = Match(plain_, value.type_index)) {
      r = c->fn(AnyView::FromRaw(value));
    } else if (const Callback* c = Match(with_kind_, value.type_index)) {
      r = c->fn(AnyView::FromRaw(value), static_cast<int64_t>(def_region_mode));
    } else {
      return Any();
    }
    if (r.type_index() == kTVMFFINone || r.type_index() == kTVMFFIVisitInterrupt) return r;
    if (r.type_index() == kTVMFFIInt && (r.raw()->v_int64 == 0 || r.raw()->v_int64 == kSkip)) {
      return r.raw()->v_int64 == 0 ? Any() : r;
    }
    TVM_FFI_IMPL_THROW(TypeError) << "ffi.StructuralWalk: a callback must return None, 0 (advance), "
                               "1 (skip) or ffi.VisitInterrupt, got "
                            << TypeIndexToDisplayName(r.type_index());
  }

  Any VisitImpl(const TVMFFIAny& value) {
    if (value.type_index == kTVMFFINone) return Any();
    if (pre_order_) {
      Any r = RunCallback(value);
      if (r.type_index() == kTVMFFIVisitInterrupt) return r;
      if (r.type_index() == kTVMFFIInt) return Any();  // skip
    }
    Any r = DefaultVisit(this, value);
    if (Stops(r)) return r;
    if (!pre_order_) {
      r = RunCallback(value);
      if (r.type_index() == kTVMFFIVisitInterrupt) return r;
    }
    return Any();
  }

  std::vector<Callback> plain_;
  std::vector<Callback> with_kind_;
  bool pre_order_;
};

const StructuralVisitorObj::VTable WalkVisitor::kVTable = {&WalkVisitor::Dispatch};

// Upstream's structural_visit: the first callback whose type matches a value
// owns it, fn(value, visitor) -> None or VisitInterrupt, and descends (or
// not) through the visitor; a value no callback matches takes its default
// descent.
class CallbackVisitor : public StructuralVisitorObj {
 public:
  explicit CallbackVisitor(std::vector<Callback> callbacks)
      : StructuralVisitorObj(&kVTable), callbacks_(std::move(callbacks)) {}

 private:
  static const VTable kVTable;

  static TVMFFIAny Dispatch(StructuralVisitorObj* self, TVMFFIAny value) noexcept {
    try {
      return ToRaw(static_cast<CallbackVisitor*>(self)->VisitImpl(value));
    } catch (...) {
      TVMFFIAny err = CurrentErrorRaw();
      if (err.type_index == kTVMFFIError) AttachVisitErrorContext(err.v_obj, value);
      return err;
    }
  }

  Any VisitImpl(const TVMFFIAny& value) {
    if (value.type_index == kTVMFFINone) return Any();
    if (const Callback* c = Match(callbacks_, value.type_index)) {
      TVMFFIAny self;
      std::memset(&self, 0, sizeof(self));
      self.type_index = type_index();
      self.v_obj = static_cast<TVMFFIObject*>(handle());
      Any r = c->fn(AnyView::FromRaw(value), AnyView::FromRaw(self));
      if (r.type_index() != kTVMFFINone && r.type_index() != kTVMFFIVisitInterrupt) {
        TVM_FFI_IMPL_THROW(TypeError) << "ffi.StructuralVisit: a callback must return None or "
                                   "ffi.VisitInterrupt, got "
                                << TypeIndexToDisplayName(r.type_index());
      }
      return r;
    }
    return DefaultVisit(this, value);
  }

  std::vector<Callback> callbacks_;
};

const StructuralVisitorObj::VTable CallbackVisitor::kVTable = {&CallbackVisitor::Dispatch};

StructuralVisitorObj* VisitorArg(const AnyView& v, const char* func) {
  if (v.type_index() < kTVMFFIStaticObjectBegin ||
      !Object::FromHandle(v.raw()->v_obj)
           ->IsInstanceIndex(StructuralVisitorObj::RuntimeTypeIndex())) {
    detail::ThrowArgumentMismatch(func, 0, StructuralVisitorObj::kTypeKey, v.raw());
  }
  return static_cast<StructuralVisitorObj*>(Object::FromHandle(v.raw()->v_obj));
}

Any NativeAttr(void* fn) {
  TVMFFIAny v;
  std::memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = fn;
  return Any(AnyView::FromRaw(v));
}

const bool kRegistered = RunAtLoad([] {
  ObjectDef<StructuralVisitorObj>("A structural traversal in progress.")
      .Attr("__ffi_type_final__", Any(false));
  TVMFFIByteArray name = {kVisitAttr, std::strlen(kVisitAttr)};
  TVMFFIAny none;
  std::memset(&none, 0, sizeof(none));
  reflection_detail::Check(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none));  // the column
  for (int32_t t : {kTVMFFIArray, kTVMFFIList}) {
    reflection_detail::Check(TVMFFITypeRegisterAttr(
        t, &name, NativeAttr(reinterpret_cast<void*>(&VisitSeq)).raw()));
  }
  for (int32_t t : {kTVMFFIMap, kTVMFFIDict}) {
    reflection_detail::Check(TVMFFITypeRegisterAttr(
        t, &name, NativeAttr(reinterpret_cast<void*>(&VisitMapValues)).raw()));
  }
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralVisitorVisit", [](AnyView visitor, AnyView value) {
  return Visit(VisitorArg(visitor, "ffi.StructuralVisitorVisit"), *value.raw());
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralVisitorDefaultVisit", [](AnyView visitor, AnyView value) {
  return DefaultVisit(VisitorArg(visitor, "ffi.StructuralVisitorDefaultVisit"), *value.raw());
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralVisitorDefRegionKind", [](AnyView visitor) {
  return static_cast<int64_t>(
      VisitorArg(visitor, "ffi.StructuralVisitorDefRegionKind")->def_region_mode);
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralVisitorWithDefRegionKind",
                       [](AnyView visitor, int64_t kind, Function callback) {
                         if (kind < kTVMFFIDefRegionKindNone ||
                             kind > kTVMFFIDefRegionKindSimple) {
                           TVM_FFI_IMPL_THROW(ValueError)
                               << "ffi.StructuralVisitorWithDefRegionKind: unknown "
                                  "definition region kind "
                               << kind;
                         }
                         StructuralVisitorObj* v =
                             VisitorArg(visitor, "ffi.StructuralVisitorWithDefRegionKind");
                         return WithDefRegionKind(v, static_cast<int32_t>(kind),
                                                  [&] { return callback(); });
                       });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralVisit", [](AnyView root, Array<Any> callbacks) {
  ObjectPtr<CallbackVisitor> visitor =
      MakeObject<CallbackVisitor>(CallbacksArg(callbacks, "ffi.StructuralVisit"));
  return Visit(visitor.get(), *root.raw());
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralWalk", [](AnyView root, Array<Any> callbacks,
                                                 Array<Any> callbacks_with_def_region_kind,
                                                 int64_t order) {
  if (order != 0 && order != 1) {
    TVM_FFI_IMPL_THROW(ValueError) << "ffi.StructuralWalk: order must be 0 (pre-order) or 1 "
                                "(post-order), got "
                             << order;
  }
  ObjectPtr<WalkVisitor> visitor = MakeObject<WalkVisitor>(
      CallbacksArg(callbacks, "ffi.StructuralWalk"),
      CallbacksArg(callbacks_with_def_region_kind, "ffi.StructuralWalk"), order == 0);
  return Visit(visitor.get(), *root.raw());
});

}  // namespace

TVMFFIAny CurrentExceptionAsRawError() noexcept {
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  SetRaisedFromCurrentException();
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  if (h != nullptr) {
    out.type_index = kTVMFFIError;
    out.v_obj = static_cast<TVMFFIObject*>(h);
  }
  return out;
}

Any Visit(StructuralVisitorObj* visitor, const TVMFFIAny& value) {
  return TakeResult(visitor->vtable->visit(visitor, value), "a structural visit");
}

Any DefaultVisit(StructuralVisitorObj* visitor, const TVMFFIAny& value) {
  const TVMFFIAny* hook = VisitHookOf(value.type_index);
  if (hook != nullptr && hook->type_index == kTVMFFIOpaquePtr) {
    auto fn = reinterpret_cast<StructuralVisitorObj::VisitFn>(hook->v_ptr);
    return TakeResult(fn(visitor, value), "__s_visit__");
  }
  if (hook != nullptr && hook->type_index == kTVMFFIFunction) {
    Function fn(ObjectPtr<Object>::BorrowHandle(hook->v_obj));
    TVMFFIAny self;
    std::memset(&self, 0, sizeof(self));
    self.type_index = visitor->type_index();
    self.v_obj = static_cast<TVMFFIObject*>(visitor->handle());
    Any r = fn(AnyView::FromRaw(self), AnyView::FromRaw(value));
    return TakeResult(r.Release(), "__s_visit__");
  }
  if (hook != nullptr && hook->type_index != kTVMFFINone) {
    TVM_FFI_IMPL_THROW(TypeError) << "__s_visit__ must be an opaque function pointer or ffi.Function";
  }
  if (value.type_index < kTVMFFIStaticObjectBegin) return Any();
  return VisitReflectedFields(visitor, Object::FromHandle(value.v_obj));
}

void AttachVisitErrorContext(TVMFFIObjectHandle err, const TVMFFIAny& node) noexcept {
  // Containers are no steps of the chain: FindAccessPaths walks through them.
  if (node.type_index < kTVMFFIStaticObjectBegin || node.type_index == kTVMFFIArray ||
      node.type_index == kTVMFFIList || node.type_index == kTVMFFIMap ||
      node.type_index == kTVMFFIDict) {
    return;
  }
  try {
    // Only errors this library made have the extra_context slot for sure.
    static void (*const own_deleter)(void*, int) = [] {
      TVMFFIByteArray empty = {"", 0};
      TVMFFIObjectHandle probe = nullptr;
      if (TVMFFIErrorCreate(&empty, &empty, &empty, &probe) != 0) return (void (*)(void*, int))nullptr;
      void (*d)(void*, int) = TVM_FFI_OBJECT_DELETER(static_cast<TVMFFIObject*>(probe));
      TVMFFIObjectDecRef(probe);
      return d;
    }();
    if (own_deleter == nullptr ||
        TVM_FFI_OBJECT_DELETER(static_cast<TVMFFIObject*>(err)) != own_deleter) {
      return;
    }
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
    TVMFFIObjectHandle ctx = cell->extra_context;
    ObjectRef node_ref(ObjectPtr<Object>::BorrowHandle(node.v_obj));
    if (ctx != nullptr &&
        TVMFFIObjectGetTypeIndex(ctx) == VisitErrorContextObj::RuntimeTypeIndex()) {
      static_cast<VisitErrorContextObj*>(Object::FromHandle(ctx))
          ->reverse_visit_pattern.push_back(Any(node_ref));
      return;
    }
    ObjectPtr<VisitErrorContextObj> fresh = MakeObject<VisitErrorContextObj>();
    fresh->reverse_visit_pattern.push_back(Any(node_ref));
    if (ctx != nullptr) {
      fresh->prev_error_context = ObjectRef(ObjectPtr<Object>::AdoptHandle(ctx));  // takes the ref
    }
    cell->extra_context = static_cast<Object*>(fresh.release())->handle();
  } catch (...) {
    // Out of memory: the error goes on without the context.
  }
}

}  // namespace structural_walk
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

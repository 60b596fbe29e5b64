// ffi.StructuralMutator's registration, the default mutation and the
// engines of ffi.StructuralMap and ffi.StructuralMutate (see
// structural_mutate.h).
#include "structural_mutate.h"

#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "impl/any_equal.h"
#include "impl/array.h"
#include "impl/dict.h"
#include "impl/error.h"
#include "impl/function.h"
#include "impl/list.h"
#include "impl/map.h"
#include "impl/reflection.h"
#include "reflection_visit.h"
#include "structural.h"
#include "structural_walk.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

const bool kRegistered = RunAtLoad([] {
  ObjectDef<StructuralMutatorObj>("A structural mutation in progress.")
      .Attr("__ffi_type_final__", Any(false));
  TVMFFIAny none;
  std::memset(&none, 0, sizeof(none));
  for (const char* column : {"__s_mutate__", "__s_maybe_inplace_mutate__"}) {
    TVMFFIByteArray name = {column, std::strlen(column)};
    reflection_detail::Check(TVMFFITypeRegisterAttr(kTVMFFINone, &name, &none));
  }
});

StructuralMutatorObj* MutatorArg(const AnyView& v, const char* func) {
  if (v.type_index() < kTVMFFIStaticObjectBegin ||
      !Object::FromHandle(v.raw()->v_obj)
           ->IsInstanceIndex(StructuralMutatorObj::RuntimeTypeIndex())) {
    detail::ThrowArgumentMismatch(func, 0, StructuralMutatorObj::kTypeKey, v.raw());
  }
  return static_cast<StructuralMutatorObj*>(Object::FromHandle(v.raw()->v_obj));
}

// Takes over a vtable entry's result; throws the Error it carries.
Any TakeResult(TVMFFIAny raw) {
  Any result = Any::Adopt(raw);
  if (result.type_index() == kTVMFFIError) {
    throw Error(ObjectPtr<Object>::BorrowHandle(result.raw()->v_obj));
  }
  return result;
}

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutatorMutate", [](AnyView mutator, AnyView value) -> Any {
  StructuralMutatorObj* m = MutatorArg(mutator, "ffi.StructuralMutatorMutate");
  Any result = TakeResult(m->vtable->mutate(m, *value.raw()));
  if (result.type_index() == kTVMFFIUnchanged) return Any(value);
  return result;
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutatorVarRemapGet", [](AnyView mutator, AnyView var) {
  StructuralMutatorObj* m = MutatorArg(mutator, "ffi.StructuralMutatorVarRemapGet");
  return TakeResult(m->vtable->var_remap_get(m, *var.raw()));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutatorVarRemapSet",
                       [](AnyView mutator, AnyView var, AnyView mapped_value) {
                         StructuralMutatorObj* m =
                             MutatorArg(mutator, "ffi.StructuralMutatorVarRemapSet");
                         TakeResult(m->vtable->var_remap_set(m, *var.raw(), *mapped_value.raw()));
                       });

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutatorDefRegionKind", [](AnyView mutator) {
  return static_cast<int64_t>(
      MutatorArg(mutator, "ffi.StructuralMutatorDefRegionKind")->def_region_mode);
});

// As ffi.StructuralVisitorWithDefRegionKind: a Pattern region stays in force.
Any WithDefRegionKind(StructuralMutatorObj* m, int64_t kind, const Function& callback) {
  if (kind < kTVMFFIDefRegionKindNone || kind > kTVMFFIDefRegionKindSimple) {
    TVM_FFI_IMPL_THROW(ValueError)
        << "ffi.StructuralMutatorWithDefRegionKind: unknown definition region kind " << kind;
  }
  if (m->def_region_mode == kTVMFFIDefRegionKindPattern) return callback();
  struct Restore {
    StructuralMutatorObj* m;
    int32_t old;
    ~Restore() { m->def_region_mode = old; }
  } restore{m, m->def_region_mode};
  m->def_region_mode = static_cast<int32_t>(kind);
  return callback();
}

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutatorWithDefRegionKind",
                       [](AnyView mutator, int64_t kind, Function callback) {
                         return WithDefRegionKind(
                             MutatorArg(mutator, "ffi.StructuralMutatorWithDefRegionKind"), kind,
                             callback);
                       });


// The default mutation and the engines ------------------------------------------------

Any Unchanged() {
  TVMFFIAny raw;
  std::memset(&raw, 0, sizeof(raw));
  raw.type_index = kTVMFFIUnchanged;
  return Any::Adopt(raw);
}

bool IsUnchanged(const Any& r) { return r.type_index() == kTVMFFIUnchanged; }

// Whether `r`, a mutation's result for `v`, leaves v as it was: the marker,
// the same object, the same text (a string the callback rebuilt), or the same
// plain value.
bool SameValue(const TVMFFIAny& v, const Any& r) {
  if (IsUnchanged(r)) return true;
  const char *a = nullptr, *b = nullptr;
  size_t na = 0, nb = 0;
  bool a_bytes = false, b_bytes = false;
  if (GetStringView(&v, &a, &na, &a_bytes) && GetStringView(r.raw(), &b, &nb, &b_bytes)) {
    return a_bytes == b_bytes && na == nb && std::memcmp(a, b, na) == 0;
  }
  if (v.type_index != r.type_index()) return false;
  if (v.type_index >= kTVMFFIStaticObjectBegin) return v.v_obj == r.raw()->v_obj;
  return v.v_uint64 == r.raw()->v_uint64;
}

const TVMFFITypeInfo* InfoOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) ThrowRaised(-1);
  return info;
}

int32_t SEqHashKindOf(const TVMFFITypeInfo* info) {
  return info->metadata == nullptr ? kTVMFFISEqHashKindUnsupported
                                   : info->metadata->structural_eq_hash_kind;
}

// Calls fn() with the mutator's definition region set to `kind` (a Pattern
// region stays in force), restoring it afterwards.
template <typename F>
Any InRegion(StructuralMutatorObj* m, int32_t kind, F&& fn) {
  if (m->def_region_mode == kTVMFFIDefRegionKindPattern) return fn();
  struct Restore {
    StructuralMutatorObj* m;
    int32_t old;
    ~Restore() { m->def_region_mode = old; }
  } restore{m, m->def_region_mode};
  m->def_region_mode = kind;
  return fn();
}

// One child through the mutator's vtable: maybe_inplace_mutate when the
// child is owned by this path alone, else mutate.
Any MutateChild(StructuralMutatorObj* m, const TVMFFIAny& child, bool unique) {
  return TakeResult(unique ? m->vtable->maybe_inplace_mutate(m, child)
                           : m->vtable->mutate(m, child));
}

// Whether `held` (a child we hold one reference to, read out of a parent
// that holds another) is owned by that parent alone.
bool OwnedByParentAlone(const Any& held, bool parent_unique) {
  return parent_unique && held.type_index() >= kTVMFFIStaticObjectBegin &&
         Object::FromHandle(held.raw()->v_obj)->use_count() == 2;
}

class DefaultMutation {
 public:
  DefaultMutation(StructuralMutatorObj* m, std::vector<const Object*>* active, const char* walk)
      : m_(m), active_(active), walk_(walk) {}

  // The value with its insides mutated (see structural_mutate.h), or the
  // Unchanged marker.  `unique`: the value is owned by this path alone and
  // may be changed in place.
  Any Run(const TVMFFIAny& value, bool unique) {
    if (value.type_index < kTVMFFIStaticObjectBegin) return Unchanged();
    const Object* obj = Object::FromHandle(value.v_obj);
    if (TooDeep(active_->size())) {
      ThrowTooDeep(walk_, active_->data(), active_->size());
    }
    active_->push_back(obj);
    struct Pop {
      std::vector<const Object*>* a;
      ~Pop() { a->pop_back(); }
    } pop{active_};
    switch (value.type_index) {
      case kTVMFFIArray:
      case kTVMFFIList:
        return Seq(value, unique);
      case kTVMFFIMap:
      case kTVMFFIDict:
        return MapValues(value, unique);
      default:
        break;
    }
    if (value.type_index < kTVMFFIDynObjectBegin) return Unchanged();  // str, tensor, ...
    return Fields(value, unique);
  }

 private:
  Any Seq(const TVMFFIAny& value, bool unique) {
    const SeqObj* src = static_cast<const SeqObj*>(Object::FromHandle(value.v_obj));
    ObjectPtr<SeqObj> copy;  // made at the first change of a shared sequence
    for (int64_t i = 0; i < src->size(); ++i) {
      Any item(AnyView::FromRaw(src->at(i)));
      Any r = MutateChild(m_, *item.raw(), OwnedByParentAlone(item, unique));
      if (SameValue(*item.raw(), r)) continue;
      if (unique) {
        const_cast<SeqObj*>(src)->SetOwned(i, r.Release());
        continue;
      }
      if (copy == nullptr) {
        if (value.type_index == kTVMFFIArray) {
          copy = ArrayObj::CopyOf(src->cell, src->size());
        } else {
          ObjectPtr<ListObj> list = ListObj::Make(src->size());
          for (int64_t j = 0; j < src->size(); ++j) list->Append(Any(AnyView::FromRaw(src->at(j))).Release());
          copy = std::move(list);
        }
      }
      copy->SetOwned(i, r.Release());
    }
    if (copy != nullptr) return Any(ObjectRef(std::move(copy)));
    return Unchanged();
  }

  // Values only: keys anchor the entries and stay as they are.
  Any MapValues(const TVMFFIAny& value, bool unique) {
    const MapBaseObj* src = static_cast<const MapBaseObj*>(Object::FromHandle(value.v_obj));
    std::vector<std::pair<Any, Any>> entries;
    for (uint64_t p = src->BeginPos(); p != src->EndPos(); p = src->NextPos(p)) {
      const auto& kv = src->KVAt(p);
      entries.emplace_back(Any(AnyView::FromRaw(kv.key)), Any(AnyView::FromRaw(kv.value)));
    }
    std::vector<Any> results(entries.size());
    std::vector<bool> changed(entries.size(), false);
    bool any_changed = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      const Any& v = entries[i].second;
      Any r = MutateChild(m_, *v.raw(), OwnedByParentAlone(v, unique));
      if (SameValue(*v.raw(), r)) continue;
      results[i] = std::move(r);
      changed[i] = any_changed = true;
    }
    if (!any_changed) return Unchanged();
    if (unique) {
      MapBaseObj* dst = const_cast<MapBaseObj*>(src);
      for (size_t i = 0; i < entries.size(); ++i) {
        if (changed[i]) dst->Set(Any(entries[i].first).Release(), results[i].Release());
      }
      return Unchanged();  // changed in place
    }
    ObjectPtr<MapBaseObj> out;
    if (value.type_index == kTVMFFIDict) {
      out = DictObj::Make();
    } else {
      out = MapObj::Make();
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      Any v = changed[i] ? std::move(results[i]) : entries[i].second;
      out->Set(Any(entries[i].first).Release(), v.Release());
    }
    return Any(ObjectRef(std::move(out)));
  }

  Any Fields(const TVMFFIAny& value, bool unique) {
    const Object* obj = Object::FromHandle(value.v_obj);
    const TVMFFITypeInfo* info = InfoOf(obj->type_index());
    int32_t kind = SEqHashKindOf(info);
    if (kind == kTVMFFISEqHashKindFreeVar) return FreeVar(value, info, unique);
    return FieldsOf(value, info, unique);
  }

  // A variable: a use takes what its definition was mapped to (or stays);
  // a definition mutates its fields (as uses) and records the result.  A
  // Pattern definition records itself even when unchanged, so its later
  // occurrences in the pattern are not mutated again.
  Any FreeVar(const TVMFFIAny& value, const TVMFFITypeInfo* info, bool unique) {
    Any mapped = TakeResult(m_->vtable->var_remap_get(m_, value));
    if (mapped.type_index() != kTVMFFINone) return mapped;
    int32_t region = m_->def_region_mode;
    if (region == kTVMFFIDefRegionKindNone) return Unchanged();
    Any r = region == kTVMFFIDefRegionKindSimple
                ? InRegion(m_, kTVMFFIDefRegionKindNone, [&] { return FieldsOf(value, info, unique); })
                : FieldsOf(value, info, unique);
    bool same = SameValue(value, r);
    if (!same || region == kTVMFFIDefRegionKindPattern) {
      TakeResult(m_->vtable->var_remap_set(m_, value, same ? value : *r.raw()));
    }
    return r;
  }

  Any FieldsOf(const TVMFFIAny& value, const TVMFFITypeInfo* info, bool unique) {
    const Object* obj = Object::FromHandle(value.v_obj);
    std::vector<const TVMFFIFieldInfo*> fields = reflection_detail::AllFields(info);
    std::vector<Any> results(fields.size());
    std::vector<bool> changed(fields.size(), false);
    bool any_changed = false;
    for (size_t i = 0; i < fields.size(); ++i) {
      const TVMFFIFieldInfo* f = fields[i];
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      Any v = ReadField(const_cast<Object*>(obj)->handle(), f);
      bool child_unique = OwnedByParentAlone(v, unique);
      auto mutate = [&] { return MutateChild(m_, *v.raw(), child_unique); };
      Any r;
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
        r = InRegion(m_, kTVMFFIDefRegionKindSimple, mutate);
      } else if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
        r = InRegion(m_, kTVMFFIDefRegionKindPattern, mutate);
      } else {
        r = mutate();
      }
      if (SameValue(*v.raw(), r)) continue;
      results[i] = std::move(r);
      changed[i] = any_changed = true;
    }
    if (!any_changed) return Unchanged();
    TVMFFIObjectHandle target = const_cast<Object*>(obj)->handle();
    Any out;
    if (!unique) {
      // Copy on write: a fresh instance with every field of the original.
      TVMFFIObjectHandle h = reflection_detail::CreateEmptyInstance(info);
      if (h == nullptr) {
        TVM_FFI_IMPL_THROW(TypeError) << walk_ << ": type `" << TypeKeyOf(info)
                                << "` has no creator in its type metadata, so a changed "
                                   "instance cannot be copied";
      }
      out = Any(ObjectRef(ObjectPtr<Object>::AdoptHandle(h)));
      for (const TVMFFIFieldInfo* f : fields) {
        Any v = ReadField(target, f);
        reflection_detail::CopyFieldInto(h, f, *v.raw());
      }
      target = h;
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (changed[i]) reflection_detail::AssignField(target, fields[i], *results[i].raw());
    }
    return unique ? Unchanged() : out;
  }

  StructuralMutatorObj* m_;
  std::vector<const Object*>* active_;
  const char* walk_;
};


// An entry of a callback list: (type_index, fn) or (type_index, fn, takes_mode).
struct Callback {
  int32_t type_index;
  Function fn;
  bool takes_mode = false;
};

// Whether a value of type `actual` matches a callback for `target`: the same
// index; kTVMFFIAny matches everything, str/bytes their small forms,
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

std::vector<Callback> CallbacksArg(const Array<Any>& entries, const char* func, bool with_mode) {
  std::vector<Callback> out;
  for (int64_t i = 0; i < entries.size(); ++i) {
    std::optional<Array<Any>> e = TypeTraits<Array<Any>>::TryCast(entries[i].raw());
    std::optional<int64_t> index;
    std::optional<Function> fn;
    if (e.has_value() && (e->size() == 2 || (with_mode && e->size() == 3))) {
      index = (*e)[0].TryAs<int64_t>();
      fn = (*e)[1].TryAs<Function>();
    }
    if (!index.has_value() || !fn.has_value()) {
      TVM_FFI_IMPL_THROW(TypeError) << func << ": callback entry " << i << " must be a (type_index, "
                              << (with_mode ? "function[, takes_inplace_mode])" : "function)")
                              << " tuple";
    }
    Callback c{static_cast<int32_t>(*index), *fn, false};
    if (e->size() == 3) c.takes_mode = (*e)[2].As<bool>();
    out.push_back(std::move(c));
  }
  return out;
}

const Callback* Match(const std::vector<Callback>& callbacks, int32_t type_index) {
  for (const Callback& c : callbacks) {
    if (TypeMatches(type_index, c.type_index)) return &c;
  }
  return nullptr;
}

// What both engines share: the vtable's variable remap, the memo of DAG
// nodes' default mutations, and the path (for the depth limit).
class Engine : public StructuralMutatorObj {
 public:
  Engine(const VTable* vt, const char* walk) : StructuralMutatorObj(vt), walk_(walk) {}

  // The default mutation of `value`, each DAG node's computed once.
  Any Default(const TVMFFIAny& value, bool unique) {
    const Object* dag = nullptr;
    if (value.type_index >= kTVMFFIDynObjectBegin &&
        SEqHashKindOf(InfoOf(value.type_index)) == kTVMFFISEqHashKindDAGNode) {
      dag = Object::FromHandle(value.v_obj);
      auto it = dag_memo_.find(dag);
      if (it != dag_memo_.end()) return it->second;
    }
    Any r = DefaultMutation(this, &active_, walk_).Run(value, unique);
    if (dag != nullptr) {
      dag_memo_.emplace(dag, r);
      kept_.emplace_back(AnyView::FromRaw(value));  // its address is not reused meanwhile
    }
    return r;
  }

  Any AsObject() {
    TVMFFIAny self;
    std::memset(&self, 0, sizeof(self));
    self.type_index = type_index();
    self.v_obj = static_cast<TVMFFIObject*>(handle());
    return Any(AnyView::FromRaw(self));
  }

 protected:
  static TVMFFIAny RemapGet(StructuralMutatorObj* self, TVMFFIAny var) noexcept {
    try {
      Engine* e = static_cast<Engine*>(self);
      if (var.type_index < kTVMFFIStaticObjectBegin) return Any().Release();
      auto it = e->remap_.find(Object::FromHandle(var.v_obj));
      return it == e->remap_.end() ? Any().Release() : Any(it->second).Release();
    } catch (...) {
      return structural_walk::CurrentExceptionAsRawError();
    }
  }

  static TVMFFIAny RemapSet(StructuralMutatorObj* self, TVMFFIAny var, TVMFFIAny mapped) noexcept {
    try {
      Engine* e = static_cast<Engine*>(self);
      if (var.type_index < kTVMFFIStaticObjectBegin) {
        TVM_FFI_IMPL_THROW(TypeError) << "var_remap_set: the variable must be an object, got "
                                << TypeIndexToDisplayName(var.type_index);
      }
      const Object* key = Object::FromHandle(var.v_obj);
      if (e->remap_.find(key) == e->remap_.end()) e->kept_.emplace_back(AnyView::FromRaw(var));
      e->remap_[key] = Any(AnyView::FromRaw(mapped));
      return Any().Release();
    } catch (...) {
      return structural_walk::CurrentExceptionAsRawError();
    }
  }

  // A vtable entry's body: the result, or the Error it threw.
  template <typename F>
  static TVMFFIAny Guard(F&& body) noexcept {
    try {
      return body().Release();
    } catch (...) {
      return structural_walk::CurrentExceptionAsRawError();
    }
  }

 private:
  const char* walk_;
  std::unordered_map<const Object*, Any> remap_;
  std::unordered_map<const Object*, Any> dag_memo_;
  std::vector<Any> kept_;
  std::vector<const Object*> active_;
};

uint32_t UseCount(const Any& v) {
  return v.type_index() >= kTVMFFIStaticObjectBegin
             ? Object::FromHandle(v.raw()->v_obj)->use_count()
             : 0;
}

// ffi.StructuralMap: mutate(x) = post(D(pre(x))), the callbacks replacing
// values (fn(value) or fn(value, def_region_kind)), at every occurrence.
class MapEngine : public Engine {
 public:
  MapEngine(std::vector<Callback> plain, std::vector<Callback> with_kind, bool pre_order)
      : Engine(&kVTable, "ffi.StructuralMap"),
        plain_(std::move(plain)),
        with_kind_(std::move(with_kind)),
        pre_order_(pre_order) {}

  Any Do(const TVMFFIAny& value, bool unique) {
    Any cur(AnyView::FromRaw(value));
    bool changed = false;
    auto take = [&](Any r) {
      if (SameValue(*cur.raw(), r)) return;
      cur = std::move(r);
      changed = true;
      unique = cur.type_index() >= kTVMFFIStaticObjectBegin &&
               Object::FromHandle(cur.raw()->v_obj)->use_count() == 1;
    };
    if (pre_order_) {
      // A callback that kept the value it was given (a Python list of seen
      // values) shares it from then on: no longer changed in place.
      uint32_t before = UseCount(cur);
      take(RunCallback(*cur.raw()));
      if (!changed && UseCount(cur) > before) unique = false;
    }
    take(Default(*cur.raw(), unique));
    if (!pre_order_) take(RunCallback(*cur.raw()));
    return changed ? cur : Unchanged();
  }

 private:
  static TVMFFIAny MutateEntry(StructuralMutatorObj* self, TVMFFIAny value) noexcept {
    return Guard([&] { return static_cast<MapEngine*>(self)->Do(value, false); });
  }
  static TVMFFIAny InplaceEntry(StructuralMutatorObj* self, TVMFFIAny value) noexcept {
    return Guard([&] { return static_cast<MapEngine*>(self)->Do(value, true); });
  }

  Any RunCallback(const TVMFFIAny& value) {
    if (const Callback* c = Match(plain_, value.type_index)) {
      return c->fn(AnyView::FromRaw(value));
    }
    if (const Callback* c = Match(with_kind_, value.type_index)) {
      return c->fn(AnyView::FromRaw(value), static_cast<int64_t>(def_region_mode));
    }
    return Unchanged();
  }

  std::vector<Callback> plain_;
  std::vector<Callback> with_kind_;
  bool pre_order_;

 public:
  static const VTable kVTable;
};

const StructuralMutatorObj::VTable MapEngine::kVTable = {
    &MapEngine::MutateEntry, &MapEngine::InplaceEntry, &Engine::RemapGet, &Engine::RemapSet};

// ffi.StructuralMutate: the first matching callback owns a value,
// fn(value, mutator[, inplace_mode]) -> its final replacement; a value no
// callback matches takes its default mutation.
class MutateEngine : public Engine {
 public:
  explicit MutateEngine(std::vector<Callback> callbacks)
      : Engine(&kVTable, "ffi.StructuralMutate"), callbacks_(std::move(callbacks)) {}

  Any Do(const TVMFFIAny& value, bool unique) {
    const Callback* c = Match(callbacks_, value.type_index);
    if (c == nullptr) return Default(value, unique);
    Any r;
    if (c->takes_mode) {
      bool allow = unique && value.type_index >= kTVMFFIStaticObjectBegin;
      r = c->fn(AnyView::FromRaw(value), AsObject(), static_cast<int64_t>(allow ? 1 : 0));
    } else {
      r = c->fn(AnyView::FromRaw(value), AsObject());
    }
    return SameValue(value, r) ? Unchanged() : r;
  }

 private:
  static TVMFFIAny MutateEntry(StructuralMutatorObj* self, TVMFFIAny value) noexcept {
    return Guard([&] { return static_cast<MutateEngine*>(self)->Do(value, false); });
  }
  static TVMFFIAny InplaceEntry(StructuralMutatorObj* self, TVMFFIAny value) noexcept {
    return Guard([&] { return static_cast<MutateEngine*>(self)->Do(value, true); });
  }

  std::vector<Callback> callbacks_;

 public:
  static const VTable kVTable;
};

const StructuralMutatorObj::VTable MutateEngine::kVTable = {
    &MutateEngine::MutateEntry, &MutateEngine::InplaceEntry, &Engine::RemapGet,
    &Engine::RemapSet};

bool IsEngine(const StructuralMutatorObj* m) {
  return m->vtable == &MapEngine::kVTable || m->vtable == &MutateEngine::kVTable;
}

// The root as the engines take it: owned (an argument moved in with
// ObjectRValueRef is the engine's alone), and whether nobody else holds it.
bool RootUnique(const Any& root) {
  return root.type_index() >= kTVMFFIStaticObjectBegin &&
         Object::FromHandle(root.raw()->v_obj)->use_count() == 1;
}

Any ResultOr(Any result, Any root) { return IsUnchanged(result) ? root : result; }

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMap", [](Any root, Array<Any> callbacks,
                                                Array<Any> callbacks_with_def_region_kind,
                                                int64_t order) {
  if (order != 0 && order != 1) {
    TVM_FFI_IMPL_THROW(ValueError) << "ffi.StructuralMap: order must be 0 (pre-order) or 1 "
                                "(post-order), got "
                             << order;
  }
  ObjectPtr<MapEngine> engine = MakeObject<MapEngine>(
      CallbacksArg(callbacks, "ffi.StructuralMap", false),
      CallbacksArg(callbacks_with_def_region_kind, "ffi.StructuralMap", false), order == 0);
  bool unique = RootUnique(root);
  Any result = engine->Do(*root.raw(), unique);
  return ResultOr(std::move(result), std::move(root));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutate", [](Any root, Array<Any> callbacks) {
  ObjectPtr<MutateEngine> engine =
      MakeObject<MutateEngine>(CallbacksArg(callbacks, "ffi.StructuralMutate", true));
  bool unique = RootUnique(root);
  Any result = engine->Do(*root.raw(), unique);
  return ResultOr(std::move(result), std::move(root));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.StructuralMutatorDefaultMutate", [](AnyView mutator, AnyView value) {
  StructuralMutatorObj* m = MutatorArg(mutator, "ffi.StructuralMutatorDefaultMutate");
  Any held(value);
  Any result;
  if (IsEngine(m)) {
    result = static_cast<Engine*>(m)->Default(*held.raw(), false);
  } else {
    std::vector<const Object*> active;
    result = DefaultMutation(m, &active, "ffi.StructuralMutatorDefaultMutate").Run(*held.raw(), false);
  }
  return ResultOr(std::move(result), held);
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

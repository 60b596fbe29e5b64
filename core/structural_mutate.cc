// ffi.StructuralMutator, structural mutation and mapping: the type's
// registration, the default mutation and the engines.  The mutator is
// tvm::ffi::StructuralMutatorObj (tvm/ffi/extra/structural_mutate.h):
//
// layout = { TVMFFIObject, const VTable* vtable (+24), int32_t
// def_region_mode (+32) }, as upstream's; its C++ headers call the vtable
// entries inline.  A mutate entry takes a view of a value and returns the new
// value, a kTVMFFIUnchanged marker (the value stays as it was), or an Error;
// maybe_inplace_mutate is called instead when the value is owned by the
// caller's path alone and may be changed in place.
//
// The default mutation of a value (ffi.StructuralMutatorDefaultMutate):
// Array and List items, and Map and Dict values (keys stay), each through the
// mutator's vtable; the reflected fields not marked SEqHashIgnore (a field
// marked SEqHashDefSimple / SEqHashDefPattern inside that definition region);
// nothing for other values.  A FreeVar object is a variable: outside a
// definition region it takes what var_remap_get maps it to (or stays); inside
// one its fields are mutated and a changed result is recorded with
// var_remap_set (a Pattern definition records itself even when unchanged).
// A changed container or object is a copy (copy on write), unless it is owned
// by this path alone (its reference count is 1 along a path of such values
// from a root the caller gave away), when it is changed in place.
//
// The engines: ffi.StructuralMap(root, callbacks, callbacks_with_def_region_kind,
// order) replaces each value by post(D(pre(value))), the first matching
// callback running before (order 0) or after (order 1) the default mutation D,
// at every occurrence (a DAGNode's D is computed once); ffi.StructuralMutate(root,
// callbacks) gives each value to the first matching callback
// fn(value, mutator[, inplace_mode]), whose result is final, or to D.  Their
// mutators keep the variable remap.  A walk deeper than the structural depth
// limit (a reference cycle) raises.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "structural.h"
#include "structural_walk.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

namespace refl = ::tvm::ffi::reflection;
using structural_walk::ReadField;

// The vtable of any mutator (a protected member of the public class).
struct MutatorAccess : StructuralMutatorObj {
  static const StructuralMutatorVTable* VTableOf(const StructuralMutatorObj* m) {
    return m->*(&MutatorAccess::vtable_);
  }
};

const StructuralMutatorVTable* VTableOf(const StructuralMutatorObj* m) {
  return MutatorAccess::VTableOf(m);
}

const bool kRegistered = RegisterAtLoad([] {
  refl::ObjectDef<StructuralMutatorObj>("A structural mutation in progress.");
  TVMFFIAny none;
  std::memset(&none, 0, sizeof(none));
  for (const char* column : {"__s_mutate__", "__s_maybe_inplace_mutate__"}) {
    TVMFFIByteArray name = {column, std::strlen(column)};
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(TypeIndex::kTVMFFINone, &name, &none));
  }
});

StructuralMutatorObj* MutatorOf(const StructuralMutator& m) {
  return const_cast<StructuralMutatorObj*>(m.get());
}

// Takes over a vtable entry's result; throws the Error it carries.
Any TakeResult(TVMFFIAny raw) {
  Any result = AnyUnsafe::MoveTVMFFIAnyRawToAny(raw);
  if (result.type_index() == TypeIndex::kTVMFFIError) {
    throw AnyUnsafe::MoveFromAnyAfterCheck<Error>(std::move(result));
  }
  return result;
}

TVMFFIAny Release(Any value) { return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)); }

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutatorMutate",
                             [](const StructuralMutator& mutator, AnyView value) -> Any {
                               StructuralMutatorObj* m = MutatorOf(mutator);
                               Any result = TakeResult(VTableOf(m)->mutate(m, value));
                               if (result.type_index() == TypeIndex::kTVMFFIUnchanged) {
                                 return Any(value);
                               }
                               return result;
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutatorVarRemapGet",
                             [](const StructuralMutator& mutator, AnyView var) {
                               StructuralMutatorObj* m = MutatorOf(mutator);
                               return TakeResult(VTableOf(m)->var_remap_get(m, var));
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutatorVarRemapSet",
                             [](const StructuralMutator& mutator, AnyView var,
                                AnyView mapped_value) {
                               StructuralMutatorObj* m = MutatorOf(mutator);
                               TakeResult(VTableOf(m)->var_remap_set(m, var, mapped_value));
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutatorDefRegionKind",
                             [](const StructuralMutator& mutator) {
                               return static_cast<int64_t>(mutator->def_region_kind());
                             });

// As ffi.StructuralVisitorWithDefRegionKind: a Pattern region stays in force.
Any WithDefRegionKind(StructuralMutatorObj* m, int64_t kind, const Function& callback) {
  if (kind < kTVMFFIDefRegionKindNone || kind > kTVMFFIDefRegionKindSimple) {
    TVM_FFI_CORE_THROW(ValueError)
        << "ffi.StructuralMutatorWithDefRegionKind: unknown definition region kind " << kind;
  }
  if (callback == nullptr) {
    TVM_FFI_CORE_THROW(TypeError)
        << "ffi.StructuralMutatorWithDefRegionKind: the callback must be an ffi.Function, got None";
  }
  return m->WithDefRegionKind(static_cast<TVMFFIDefRegionKind>(kind),
                              [&]() -> Any { return callback(); });
}

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutatorWithDefRegionKind",
                             [](const StructuralMutator& mutator, int64_t kind,
                                const Function& callback) {
                               return WithDefRegionKind(MutatorOf(mutator), kind, callback);
                             });


// The default mutation and the engines ------------------------------------------------

Any Unchanged() { return structural_walk::UnchangedValue(); }

bool IsUnchanged(const Any& r) { return r.type_index() == TypeIndex::kTVMFFIUnchanged; }

// Whether `r`, a mutation's result for `v`, leaves v as it was: the marker,
// the same object, the same text (a string the callback rebuilt), or the same
// plain value.
bool SameValue(AnyView v, const Any& r) {
  if (IsUnchanged(r)) return true;
  int32_t kind_v = StringKindOf(v.type_index());
  if (kind_v != -1 && StringKindOf(r.type_index()) != -1) {
    return kind_v == StringKindOf(r.type_index()) &&
           AnyStringBytes(v.CopyToTVMFFIAny()) == AnyStringBytes(*AnyUnsafe::TVMFFIAnyPtrFromAny(r));
  }
  if (v.type_index() != r.type_index()) return false;
  return v.CopyToTVMFFIAny().v_uint64 == AnyUnsafe::TVMFFIAnyPtrFromAny(r)->v_uint64;
}

const TVMFFITypeInfo* InfoOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) TVM_FFI_CHECK_SAFE_CALL(-1);
  return info;
}

int32_t SEqHashKindOf(const TVMFFITypeInfo* info) {
  return info->metadata == nullptr ? kTVMFFISEqHashKindUnsupported
                                   : info->metadata->structural_eq_hash_kind;
}

// Calls fn() with the mutator's definition region set to `kind` (a Pattern
// region stays in force), restoring it afterwards.
template <typename F>
Any InRegion(StructuralMutatorObj* m, TVMFFIDefRegionKind kind, F&& fn) {
  return m->WithDefRegionKind(kind, std::forward<F>(fn));
}

const Object* ObjectOf(AnyView v) { return AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<Object>(v); }

// One child through the mutator's vtable: maybe_inplace_mutate when the
// child is owned by this path alone, else mutate.
Any MutateChild(StructuralMutatorObj* m, AnyView child, bool unique) {
  const StructuralMutatorVTable* vt = VTableOf(m);
  return TakeResult(unique ? vt->maybe_inplace_mutate(m, child) : vt->mutate(m, child));
}

// Whether `held` (a child we hold one reference to, read out of a parent
// that holds another) is owned by that parent alone.
bool OwnedByParentAlone(const Any& held, bool parent_unique) {
  return parent_unique && held.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin &&
         ObjectOf(held)->use_count() == 2;
}

// The depth limit of the walk (a reference cycle never ends): structural.h's check.
void CheckDepth(const char* walk, const std::vector<const Object*>& active) {
  if (TooDeep(active.size())) ThrowTooDeep(walk, active.data(), active.size());
}

class DefaultMutation {
 public:
  DefaultMutation(StructuralMutatorObj* m, std::vector<const Object*>* active, const char* walk)
      : m_(m), active_(active), walk_(walk) {}

  // The value with its insides mutated (see the top of this file), or the
  // Unchanged marker.  `unique`: the value is owned by this path alone and
  // may be changed in place.
  Any Run(AnyView value, bool unique) {
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return Unchanged();
    const Object* obj = ObjectOf(value);
    CheckDepth(walk_, *active_);
    active_->push_back(obj);
    struct Pop {
      std::vector<const Object*>* a;
      ~Pop() { a->pop_back(); }
    } pop{active_};
    switch (value.type_index()) {
      case TypeIndex::kTVMFFIArray:
      case TypeIndex::kTVMFFIList:
        return Seq(value, unique);
      case TypeIndex::kTVMFFIMap:
      case TypeIndex::kTVMFFIDict:
        return MapValues(value, unique);
      default:
        break;
    }
    if (value.type_index() < TypeIndex::kTVMFFIDynObjectBegin) return Unchanged();  // str, ...
    return Fields(value, unique);
  }

 private:
  Any Seq(AnyView value, bool unique) {
    SeqBaseObj* src = const_cast<SeqBaseObj*>(static_cast<const SeqBaseObj*>(ObjectOf(value)));
    ObjectPtr<SeqBaseObj> copy;  // made at the first change of a shared sequence
    for (int64_t i = 0; i < static_cast<int64_t>(src->size()); ++i) {
      Any item = src->at(i);
      Any r = MutateChild(m_, item, OwnedByParentAlone(item, unique));
      if (SameValue(item, r)) continue;
      if (unique) {
        src->SetItemAfterCheck(i, std::move(r));
        continue;
      }
      if (copy == nullptr) {
        if (value.type_index() == TypeIndex::kTVMFFIArray) {
          copy = ObjectUnsafe::ObjectPtrFromObjectRef<SeqBaseObj>(
              Array<Any>(src->begin(), src->end()));
        } else {
          copy = ObjectUnsafe::ObjectPtrFromObjectRef<SeqBaseObj>(
              List<Any>(src->begin(), src->end()));
        }
      }
      copy->SetItemAfterCheck(i, std::move(r));
    }
    if (copy != nullptr) return Any(ObjectRef(std::move(copy)));
    return Unchanged();
  }

  // Values only: keys anchor the entries and stay as they are.
  Any MapValues(AnyView value, bool unique) {
    MapBaseObj* src = const_cast<MapBaseObj*>(static_cast<const MapBaseObj*>(ObjectOf(value)));
    std::vector<std::pair<Any, Any>> entries;
    for (const MapBaseObj::KVType& kv : *src) entries.emplace_back(kv.first, kv.second);
    std::vector<Any> results(entries.size());
    std::vector<bool> changed(entries.size(), false);
    bool any_changed = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      const Any& v = entries[i].second;
      Any r = MutateChild(m_, v, OwnedByParentAlone(v, unique));
      if (SameValue(v, r)) continue;
      results[i] = std::move(r);
      changed[i] = any_changed = true;
    }
    if (!any_changed) return Unchanged();
    if (unique) {
      // Values take no part in the hash: each entry's value is replaced where it is.
      for (size_t i = 0; i < entries.size(); ++i) {
        if (!changed[i]) continue;
        auto it = src->find(entries[i].first);
        if (it == src->end()) continue;
        const_cast<MapBaseObj::KVType&>(*it).second = std::move(results[i]);
      }
      return Unchanged();  // changed in place
    }
    if (value.type_index() == TypeIndex::kTVMFFIDict) {
      Dict<Any, Any> out;
      for (size_t i = 0; i < entries.size(); ++i) {
        out.Set(entries[i].first, changed[i] ? std::move(results[i]) : entries[i].second);
      }
      return Any(std::move(out));
    }
    Map<Any, Any> out;
    for (size_t i = 0; i < entries.size(); ++i) {
      out.Set(entries[i].first, changed[i] ? std::move(results[i]) : entries[i].second);
    }
    return Any(std::move(out));
  }

  Any Fields(AnyView value, bool unique) {
    const TVMFFITypeInfo* info = InfoOf(value.type_index());
    int32_t kind = SEqHashKindOf(info);
    if (kind == kTVMFFISEqHashKindFreeVar) return FreeVar(value, info, unique);
    return FieldsOf(value, info, unique);
  }

  // A variable: a use takes what its definition was mapped to (or stays);
  // a definition mutates its fields (as uses) and records the result.  A
  // Pattern definition records itself even when unchanged, so its later
  // occurrences in the pattern are not mutated again.
  Any FreeVar(AnyView value, const TVMFFITypeInfo* info, bool unique) {
    Any mapped = TakeResult(VTableOf(m_)->var_remap_get(m_, value));
    if (mapped.type_index() != TypeIndex::kTVMFFINone) return mapped;
    TVMFFIDefRegionKind region = m_->def_region_kind();
    if (region == kTVMFFIDefRegionKindNone) return Unchanged();
    Any r = region == kTVMFFIDefRegionKindSimple
                ? InRegion(m_, kTVMFFIDefRegionKindNone,
                           [&]() -> Any { return FieldsOf(value, info, unique); })
                : FieldsOf(value, info, unique);
    bool same = SameValue(value, r);
    if (!same || region == kTVMFFIDefRegionKindPattern) {
      TakeResult(VTableOf(m_)->var_remap_set(m_, value, same ? value : AnyView(r)));
    }
    return r;
  }

  static void AssignField(Object* obj, const TVMFFIFieldInfo* f, AnyView value) {
    if (f->setter == nullptr) {
      TVM_FFI_CORE_THROW(TypeError) << "field `" << std::string(f->name.data, f->name.size)
                                    << "` has no setter";
    }
    void* address = reinterpret_cast<char*>(obj) + f->offset;
    TVMFFIAny raw = value.CopyToTVMFFIAny();
    TVM_FFI_CHECK_SAFE_CALL(refl::CallFieldSetter(f, address, &raw));
  }

  // A new instance of `info`'s type with every field zero or empty: from the
  // metadata's creator, else from the `__ffi_new__` type attribute (types
  // defined at run time have no C creator).  Null when the type has neither.
  static ObjectRef CreateEmptyInstance(const TVMFFITypeInfo* info) {
    if (info->metadata != nullptr && info->metadata->creator != nullptr) {
      TVMFFIObjectHandle handle = nullptr;
      TVM_FFI_CHECK_SAFE_CALL(info->metadata->creator(&handle));
      return ObjectRef(
          ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
    }
    static const TVMFFIByteArray kName = {"__ffi_new__", 11};
    const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kName);
    if (col == nullptr) return ObjectRef();
    int32_t i = info->type_index - col->begin_index;
    if (i < 0 || i >= col->size || col->data[i].type_index != TypeIndex::kTVMFFIFunction) {
      return ObjectRef();
    }
    Any made = AnyView::CopyFromTVMFFIAny(col->data[i]).cast<Function>()();
    if (made.type_index() != info->type_index) {
      TVM_FFI_CORE_THROW(TypeError) << "__ffi_new__ of `"
                                    << std::string(info->type_key.data, info->type_key.size)
                                    << "` returned " << TypeIndexToDisplayName(made.type_index())
                                    << ", not an instance of the type";
    }
    return made.cast<ObjectRef>();
  }

  Any FieldsOf(AnyView value, const TVMFFITypeInfo* info, bool unique) {
    const Object* obj = ObjectOf(value);
    std::vector<const TVMFFIFieldInfo*> fields;
    refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) { fields.push_back(f); });
    std::vector<Any> results(fields.size());
    std::vector<bool> changed(fields.size(), false);
    bool any_changed = false;
    for (size_t i = 0; i < fields.size(); ++i) {
      const TVMFFIFieldInfo* f = fields[i];
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      Any v = ReadField(obj, f);
      bool child_unique = OwnedByParentAlone(v, unique);
      auto mutate = [&]() -> Any { return MutateChild(m_, v, child_unique); };
      // Initialized, never move-assigned (see structural_walk.h's NoneValue).
      Any r = [&]() -> Any {
        if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
          return InRegion(m_, kTVMFFIDefRegionKindSimple, mutate);
        }
        if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
          return InRegion(m_, kTVMFFIDefRegionKindPattern, mutate);
        }
        return mutate();
      }();
      if (SameValue(v, r)) continue;
      results[i] = std::move(r);
      changed[i] = any_changed = true;
    }
    if (!any_changed) return Unchanged();
    Object* target = const_cast<Object*>(obj);
    ObjectRef out;
    if (!unique) {
      // Copy on write: a fresh instance with every field of the original.
      out = CreateEmptyInstance(info);
      if (!out.defined()) {
        TVM_FFI_CORE_THROW(TypeError) << walk_ << ": type `"
                                      << std::string(info->type_key.data, info->type_key.size)
                                      << "` has no creator in its type metadata, so a changed "
                                         "instance cannot be copied";
      }
      target = const_cast<Object*>(out.get());
      for (const TVMFFIFieldInfo* f : fields) {
        Any v = ReadField(obj, f);
        // A None is not assigned where the field already reads None (so a
        // copy keeps an unset object field unset).
        if (v.type_index() == TypeIndex::kTVMFFINone && f->getter != nullptr &&
            ReadField(target, f).type_index() == TypeIndex::kTVMFFINone) {
          continue;
        }
        AssignField(target, f, v);
      }
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (changed[i]) AssignField(target, fields[i], results[i]);
    }
    return unique ? Unchanged() : Any(std::move(out));
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

std::vector<Callback> CallbacksArg(const Array<Any>& entries, const char* func, bool with_mode) {
  std::vector<Callback> out;
  for (int64_t i = 0; i < static_cast<int64_t>(entries.size()); ++i) {
    std::optional<Array<Any>> e = entries[i].try_cast<Array<Any>>();
    std::optional<int64_t> index;
    std::optional<Function> fn;
    if (e.has_value() && (e->size() == 2 || (with_mode && e->size() == 3))) {
      index = (*e)[0].try_cast<int64_t>();
      if ((*e)[1].type_index() == TypeIndex::kTVMFFIFunction) fn = (*e)[1].cast<Function>();
    }
    if (!index.has_value() || !fn.has_value()) {
      TVM_FFI_CORE_THROW(TypeError) << func << ": callback entry " << i << " must be a (type_index, "
                              << (with_mode ? "function[, takes_inplace_mode])" : "function)")
                              << " tuple";
    }
    Callback c{static_cast<int32_t>(*index), *fn, false};
    if (e->size() == 3) c.takes_mode = (*e)[2].cast<bool>();
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
  Engine(const StructuralMutatorVTable* vt, const char* walk) : StructuralMutatorObj(vt), walk_(walk) {}

  // The default mutation of `value`, each DAG node's computed once.
  Any Default(AnyView value, bool unique) {
    const Object* dag = nullptr;
    if (value.type_index() >= TypeIndex::kTVMFFIDynObjectBegin &&
        SEqHashKindOf(InfoOf(value.type_index())) == kTVMFFISEqHashKindDAGNode) {
      dag = ObjectOf(value);
      auto it = dag_memo_.find(dag);
      if (it != dag_memo_.end()) return it->second;
    }
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return Unchanged();
    Any r = [&]() -> Any {
      try {
        return DefaultMutation(this, &active_, walk_).Run(value, unique);
      } catch (Error& err) {
        // Each level an error unwinds through records its node, as upstream's.
        throw structural_walk::WithVisitErrorContext(std::move(err), value, true);
      }
    }();
    if (dag != nullptr) {
      dag_memo_.emplace(dag, r);
      kept_.emplace_back(value);  // its address is not reused meanwhile
    }
    return r;
  }

  AnyView AsObject() {
    TVMFFIAny self;
    std::memset(&self, 0, sizeof(self));
    self.type_index = type_index();
    self.v_obj = ObjectUnsafe::GetHeader(this);
    return AnyView::CopyFromTVMFFIAny(self);
  }

 protected:
  static TVMFFIAny RemapGet(StructuralMutatorObj* self, AnyView var) noexcept {
    try {
      Engine* e = static_cast<Engine*>(self);
      if (var.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return Release(Any());
      auto it = e->remap_.find(ObjectOf(var));
      return it == e->remap_.end() ? Release(Any()) : Release(it->second);
    } catch (...) {
      return structural_walk::CurrentExceptionAsRawError();
    }
  }

  static TVMFFIAny RemapSet(StructuralMutatorObj* self, AnyView var, AnyView mapped) noexcept {
    try {
      Engine* e = static_cast<Engine*>(self);
      if (var.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
        TVM_FFI_CORE_THROW(TypeError) << "var_remap_set: the variable must be an object, got "
                                      << TypeIndexToDisplayName(var.type_index());
      }
      const Object* key = ObjectOf(var);
      if (e->remap_.find(key) == e->remap_.end()) e->kept_.emplace_back(var);
      e->remap_[key] = Any(mapped);
      return Release(Any());
    } catch (...) {
      return structural_walk::CurrentExceptionAsRawError();
    }
  }

  // A vtable entry's body: the result, or the Error it threw.
  template <typename F>
  static TVMFFIAny Guard(F&& body) noexcept {
    try {
      return Release(body());
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
  return v.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin
             ? static_cast<uint32_t>(ObjectOf(v)->use_count())
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

  Any Do(AnyView value, bool unique) {
    Any cur = structural_walk::OwnedCopy(value);
    bool changed = false;
    auto take = [&](Any r) {
      if (SameValue(cur, r)) return;
      cur = std::move(r);
      changed = true;
      unique = cur.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin &&
               ObjectOf(cur)->use_count() == 1;
    };
    if (pre_order_) {
      // A callback that kept the value it was given (a Python list of seen
      // values) shares it from then on: no longer changed in place.
      uint32_t before = UseCount(cur);
      take(RunCallbackAt(cur));
      if (!changed && UseCount(cur) > before) unique = false;
    }
    take(Default(cur, unique));
    if (!pre_order_) take(RunCallbackAt(cur));
    return changed ? cur : Unchanged();
  }

 private:
  static TVMFFIAny MutateEntry(StructuralMutatorObj* self, AnyView value) noexcept {
    return Guard([&] { return static_cast<MapEngine*>(self)->Do(value, false); });
  }
  static TVMFFIAny InplaceEntry(StructuralMutatorObj* self, AnyView value) noexcept {
    return Guard([&] { return static_cast<MapEngine*>(self)->Do(value, true); });
  }

  // The callback's result for `value` (the node as the callback sees it: the
  // descended one after the descent); an Error, thrown or returned, records
  // that node.
  Any RunCallbackAt(AnyView value) {
    try {
      Any r = RunCallback(value);
      if (r.type_index() == TypeIndex::kTVMFFIError) throw std::move(r).cast<Error>();
      return r;
    } catch (Error& err) {
      throw structural_walk::WithVisitErrorContext(std::move(err), value, true);
    }
  }

  Any RunCallback(AnyView value) {
    if (const Callback* c = Match(plain_, value.type_index())) {
      return c->fn(value);
    }
    if (const Callback* c = Match(with_kind_, value.type_index())) {
      return c->fn(value, static_cast<int64_t>(def_region_kind()));
    }
    return Unchanged();
  }

  std::vector<Callback> plain_;
  std::vector<Callback> with_kind_;
  bool pre_order_;

 public:
  static const StructuralMutatorVTable kVTable;
};

const StructuralMutatorVTable MapEngine::kVTable = {
    &MapEngine::MutateEntry, &MapEngine::InplaceEntry, &Engine::RemapGet, &Engine::RemapSet};

// ffi.StructuralMutate: the first matching callback owns a value,
// fn(value, mutator[, inplace_mode]) -> its final replacement; a value no
// callback matches takes its default mutation.
class MutateEngine : public Engine {
 public:
  explicit MutateEngine(std::vector<Callback> callbacks)
      : Engine(&kVTable, "ffi.StructuralMutate"), callbacks_(std::move(callbacks)) {}

  Any Do(AnyView value, bool unique) {
    const Callback* c = Match(callbacks_, value.type_index());
    if (c == nullptr) return Default(value, unique);
    Any r;
    try {
      if (c->takes_mode) {
        bool allow = unique && value.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin;
        r = c->fn(value, AsObject(), static_cast<int64_t>(allow ? 1 : 0));
      } else {
        r = c->fn(value, AsObject());
      }
      if (r.type_index() == TypeIndex::kTVMFFIError) throw std::move(r).cast<Error>();
    } catch (Error& err) {
      // An Error of the callback, thrown or returned, records the node it owned.
      throw structural_walk::WithVisitErrorContext(std::move(err), value, true);
    }
    return SameValue(value, r) ? Unchanged() : r;
  }

 private:
  static TVMFFIAny MutateEntry(StructuralMutatorObj* self, AnyView value) noexcept {
    return Guard([&] { return static_cast<MutateEngine*>(self)->Do(value, false); });
  }
  static TVMFFIAny InplaceEntry(StructuralMutatorObj* self, AnyView value) noexcept {
    return Guard([&] { return static_cast<MutateEngine*>(self)->Do(value, true); });
  }

  std::vector<Callback> callbacks_;

 public:
  static const StructuralMutatorVTable kVTable;
};

const StructuralMutatorVTable MutateEngine::kVTable = {
    &MutateEngine::MutateEntry, &MutateEngine::InplaceEntry, &Engine::RemapGet,
    &Engine::RemapSet};

bool IsEngine(const StructuralMutatorObj* m) {
  return VTableOf(m) == &MapEngine::kVTable || VTableOf(m) == &MutateEngine::kVTable;
}

// The root as the engines take it: owned (an argument moved in with
// ObjectRValueRef is the engine's alone), and whether nobody else holds it.
bool RootUnique(const Any& root) {
  return root.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin &&
         ObjectOf(root)->use_count() == 1;
}

Any ResultOr(Any result, Any root) { return IsUnchanged(result) ? root : result; }

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMap",
                             [](Any root, const Array<Any>& callbacks,
                                const Array<Any>& callbacks_with_def_region_kind, int64_t order) {
                               if (order != 0 && order != 1) {
                                 TVM_FFI_CORE_THROW(ValueError)
                                     << "ffi.StructuralMap: order must be 0 (pre-order) or 1 "
                                        "(post-order), got "
                                     << order;
                               }
                               ObjectPtr<MapEngine> engine = make_object<MapEngine>(
                                   CallbacksArg(callbacks, "ffi.StructuralMap", false),
                                   CallbacksArg(callbacks_with_def_region_kind,
                                                "ffi.StructuralMap", false),
                                   order == 0);
                               bool unique = RootUnique(root);
                               Any result = engine->Do(root, unique);
                               return ResultOr(std::move(result), std::move(root));
                             });

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutate", [](Any root, const Array<Any>& callbacks) {
  ObjectPtr<MutateEngine> engine =
      make_object<MutateEngine>(CallbacksArg(callbacks, "ffi.StructuralMutate", true));
  bool unique = RootUnique(root);
  Any result = engine->Do(root, unique);
  return ResultOr(std::move(result), std::move(root));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.StructuralMutatorDefaultMutate",
                             [](const StructuralMutator& mutator, AnyView value) {
                               StructuralMutatorObj* m = MutatorOf(mutator);
                               Any held(value);
                               Any result;
                               if (IsEngine(m)) {
                                 result = static_cast<Engine*>(m)->Default(held, false);
                               } else {
                                 std::vector<const Object*> active;
                                 result = DefaultMutation(m, &active,
                                                          "ffi.StructuralMutatorDefaultMutate")
                                              .Run(held, false);
                               }
                               return ResultOr(std::move(result), held);
                             });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

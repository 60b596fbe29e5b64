// Built on the field visitor: deep copy, readable repr, field and structural visits.
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <tvmffi/any_equal.h>
#include <tvmffi/array.h>
#include <tvmffi/dict.h>
#include <tvmffi/function.h>
#include <tvmffi/list.h>
#include <tvmffi/map.h>
#include <tvmffi/reflection.h>
#include <tvmffi/shape.h>
#include <tvmffi/string.h>
#include <tvmffi/tensor.h>
#include "big_int_internal.h"
#include "reflection_visit.h"
#include "structural.h"

namespace tvmffi {
namespace core {
namespace {

const TVMFFITypeInfo* InfoOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) ThrowRaised(-1);
  return info;
}

// An owning copy of a container item: walks that run user code (hooks,
// creators, callbacks) hold what they visit, since that code may change
// or clear the container.
Any Held(const TVMFFIAny& v) { return Any(AnyView::FromRaw(v)); }

// A map's entries, owned, in its order.
std::vector<std::pair<Any, Any>> Entries(const MapBaseObj* m) {
  std::vector<std::pair<Any, Any>> out;
  out.reserve(static_cast<size_t>(m->size()));
  for (uint64_t p = m->BeginPos(); p != m->EndPos(); p = m->NextPos(p)) {
    const auto& kv = m->KVAt(p);
    out.emplace_back(Held(kv.key), Held(kv.value));
  }
  return out;
}

// Keeps the objects of the current path, for the depth limit and its message.
class DepthGuard {
 public:
  DepthGuard(std::vector<const Object*>* active, const Object* obj, const char* walk)
      : active_(active) {
    if (TooDeep(active->size())) {
      ThrowTooDeep(walk, active->data(), active->size());
    }
    active->push_back(obj);
  }
  ~DepthGuard() { active_->pop_back(); }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  std::vector<const Object*>* active_;
};

// Deep copy --------------------------------------------------------------------------

class DeepCopier {
 public:
  Any Copy(const TVMFFIAny& v) {
    if (v.type_index == kTVMFFIDLTensorPtr) {
      // A borrowed view: a copy of it could outlive the tensor it points to.
      TVMFFI_THROW(TypeError) << "ffi.DeepCopy: a DLTensor* is borrowed and cannot be copied; "
                                 "pass an ffi.Tensor";
    }
    if (v.type_index < kTVMFFIStaticObjectBegin) return Any(AnyView::FromRaw(v));
    const Object* obj = Object::FromHandle(v.v_obj);
    switch (v.type_index) {
      case kTVMFFIStr:
      case kTVMFFIBytes:
      case kTVMFFIBigInt:
      case kTVMFFIShape:
      case kTVMFFITensor:
      case kTVMFFIFunction:
      case kTVMFFIError:
      case kTVMFFIModule:
      case kTVMFFIOpaquePyObject:
      case kTVMFFIObject:
        return Any(AnyView::FromRaw(v));  // immutable, or not copyable: shared
      default:
        break;
    }
    auto memo = memo_.find(obj);
    if (memo != memo_.end()) return memo->second;
    DepthGuard guard(&active_, obj, "ffi.DeepCopy");
    Any hold = Held(v);  // creators and setters run user code
    // Each container's copy is remembered before its items are copied, so
    // an item that leads back to the container (a cycle through a List,
    // a Dict or an object field) gets the copy, not a second one.  Map
    // keys are copied like values.
    switch (v.type_index) {
      case kTVMFFIArray: {
        const SeqObj* src = static_cast<const SeqObj*>(obj);
        const int64_t n = src->size();  // an Array does not change size
        ObjectPtr<ArrayObj> out = ArrayObj::Make(n);
        ArrayObj* raw = out.get();
        Any result = Remember(obj, Any(ObjectRef(std::move(out))));
        for (int64_t i = 0; i < n; ++i) {
          Any item = Held(src->at(i));
          raw->PushOwned(Copy(*item.raw()).Release());
        }
        return result;
      }
      case kTVMFFIList: {
        const SeqObj* src = static_cast<const SeqObj*>(obj);
        ObjectPtr<ListObj> out = ListObj::Make(src->size());
        ListObj* raw = out.get();
        Any result = Remember(obj, Any(ObjectRef(std::move(out))));
        for (int64_t i = 0; i < src->size(); ++i) {
          Any item = Held(src->at(i));
          raw->Append(Copy(*item.raw()).Release());
        }
        return result;
      }
      case kTVMFFIMap: {
        const MapBaseObj* src = static_cast<const MapBaseObj*>(obj);
        ObjectPtr<MapObj> out = MapObj::Make();
        MapObj* raw = out.get();
        Any result = Remember(obj, Any(ObjectRef(std::move(out))));
        for (const auto& kv : Entries(src)) {
          Any key = Copy(*kv.first.raw());
          raw->Set(key.Release(), Copy(*kv.second.raw()).Release());
        }
        return result;
      }
      case kTVMFFIDict: {
        const MapBaseObj* src = static_cast<const MapBaseObj*>(obj);
        ObjectPtr<DictObj> out = DictObj::Make();
        DictObj* raw = out.get();
        Any result = Remember(obj, Any(ObjectRef(std::move(out))));
        for (const auto& kv : Entries(src)) {
          Any key = Copy(*kv.first.raw());
          raw->Set(key.Release(), Copy(*kv.second.raw()).Release());
        }
        return result;
      }
      default:
        return CopyObject(obj);
    }
  }

 private:
  // The source is held with its copy, so its address cannot be reused by
  // another object (and hit the memo) while the walk runs.
  Any Remember(const Object* src, Any copy) {
    memo_.emplace(src, copy);
    kept_.push_back(ObjectRef(ObjectPtr<Object>::BorrowHandle(src->handle())));
    return copy;
  }

  Any CopyObject(const Object* obj) {
    const TVMFFITypeInfo* info = InfoOf(obj->type_index());
    if (info->metadata != nullptr &&
        info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUniqueInstance) {
      return Any(ObjectRef(ObjectPtr<Object>::BorrowHandle(obj->handle())));
    }
    std::string refusal = reflection_detail::CopyRefusal(info);
    if (!refusal.empty()) {
      TVMFFI_THROW(RuntimeError) << "ffi.DeepCopy: type `" << TypeKeyOf(info)
                                 << "` does not support copy: " << refusal;
    }
    TVMFFIObjectHandle handle = reflection_detail::CreateEmptyInstance(info);
    if (handle == nullptr) {
      TVMFFI_THROW(TypeError) << "ffi.DeepCopy: type `" << TypeKeyOf(info)
                              << "` has no creator in its type metadata, so it cannot be copied";
    }
    ObjectRef copy(ObjectPtr<Object>::AdoptHandle(handle));
    Any result = Remember(obj, Any(copy));
    VisitFields(obj, [&](const TVMFFIFieldInfo* f, Any value) {
      Any field_copy = Copy(*value.raw());
      try {
        reflection_detail::CopyFieldInto(copy.handle(), f, *field_copy.raw());
      } catch (const Error& e) {
        throw Error(e.kind(), "ffi.DeepCopy: field `" + FieldName(f) + "` of `" +
                                  TypeKeyOf(info) + "`: " + e.message());
      }
      return true;
    });
    return result;
  }

  std::unordered_map<const Object*, Any> memo_;
  std::vector<ObjectRef> kept_;
  std::vector<const Object*> active_;
};

// Repr ---------------------------------------------------------------------------------

class Printer {
 public:
  std::string Print(const TVMFFIAny& v) {
    switch (v.type_index) {
      case kTVMFFIDataType: {
        TVMFFIAny s;
        AnyZero(&s);
        if (TVMFFIDataTypeToString(&v.v_dtype, &s) != 0) ThrowRaised(-1);
        Any owned = Any::Adopt(s);
        const char* data = "";
        size_t size = 0;
        bool is_bytes = false;
        GetStringView(owned.raw(), &data, &size, &is_bytes);
        return "dtype(\"" + std::string(data, size) + "\")";
      }
      case kTVMFFIDevice:
        return "Device(" + DecimalString(v.v_device.device_type) + ", " +
               DecimalString(v.v_device.device_id) + ")";
      case kTVMFFIOpaquePtr: {
        char buf[40];
        std::snprintf(buf, sizeof(buf), "<ptr %p>", v.v_ptr);
        return buf;
      }
      default:
        break;
    }
    if (v.type_index == kTVMFFIBigInt) {
      // Decimal conversion is quadratic: the digit limit applies (big_int_internal.h).
      size_t bound = BigIntDecimalDigitsBound(&v);
      if (bound > 2) CheckBigIntStrDigits(bound - 2, "ffi.ReprPrint");
    }
    if (v.type_index < kTVMFFIStaticObjectBegin || v.type_index == kTVMFFIStr ||
        v.type_index == kTVMFFIBytes || v.type_index == kTVMFFIBigInt) {
      return RenderKey(v);
    }
    const Object* obj = Object::FromHandle(v.v_obj);
    for (const Object* a : active_) {
      if (a == obj) return "...";  // a cycle
    }
    // A value sharing sub-values (a DAG) prints each at every reference, so a
    // few nodes can stand for an exponential text: past kMaxObjects printed
    // objects, the rest print as "..." and the walk ends quickly.
    if (++printed_ > kMaxObjects) return "...";
    DepthGuard guard(&active_, obj, "ffi.ReprPrint");
    // Held while printing: a type's __ffi_repr__ may drop the last other
    // reference (e.g. clear the container this value came from).
    Any hold = Held(v);
    switch (v.type_index) {
      case kTVMFFIArray:
      case kTVMFFIList: {
        const SeqObj* s = static_cast<const SeqObj*>(obj);
        std::string out = "[";
        for (int64_t i = 0; i < s->size(); ++i) {
          Any item = Held(s->at(i));
          out += (i ? ", " : "") + Print(*item.raw());
        }
        return out + "]";
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const MapBaseObj* m = static_cast<const MapBaseObj*>(obj);
        std::vector<std::pair<Any, Any>> entries = Entries(m);
        std::string out = "{";
        bool first = true;
        for (const auto& kv : entries) {
          out += (first ? "" : ", ") + Print(*kv.first.raw()) + ": " + Print(*kv.second.raw());
          first = false;
        }
        return out + "}";
      }
      case kTVMFFIShape: {
        const TVMFFIShapeCell* c = TVMFFIShapeGetCellPtr(v.v_obj);
        std::string out = "Shape(";
        for (size_t i = 0; i < c->size; ++i) out += (i ? ", " : "") + DecimalString(c->data[i]);
        return out + ")";
      }
      case kTVMFFITensor: {
        const DLTensor& t = static_cast<const TensorObj*>(obj)->dl_tensor;
        std::string out = "Tensor(shape=(";
        for (int32_t i = 0; i < t.ndim; ++i) {
          out += (i ? ", " : "") + DecimalString(t.shape[i]);
        }
        if (t.ndim == 1) out += ",";
        TVMFFIAny dt;
        dt.type_index = kTVMFFIDataType;
        dt.zero_padding = 0;
        dt.v_uint64 = 0;
        dt.v_dtype = t.dtype;
        TVMFFIAny dev;
        dev.type_index = kTVMFFIDevice;
        dev.zero_padding = 0;
        dev.v_uint64 = 0;
        dev.v_device = t.device;
        return out + "), dtype=" + Print(dt) + ", device=" + Print(dev) + ")";
      }
      default:
        return PrintObject(obj, v);
    }
  }

 private:
  std::string PrintObject(const Object* obj, const TVMFFIAny& v) {
    const TVMFFITypeInfo* info = InfoOf(obj->type_index());
    // The column appears when the first type registers a repr; until then
    // each call looks again.
    static std::atomic<const TVMFFITypeAttrColumn*> cached{nullptr};
    const TVMFFITypeAttrColumn* column = cached.load(std::memory_order_acquire);
    if (column == nullptr) {
      static const char kName[] = "__ffi_repr__";
      TVMFFIByteArray name{kName, sizeof(kName) - 1};
      column = TVMFFIGetTypeAttrColumn(&name);
      if (column != nullptr) cached.store(column, std::memory_order_release);
    }
    if (column != nullptr) {
      int32_t row = obj->type_index() - column->begin_index;
      if (row >= 0 && row < column->size && column->data[row].type_index == kTVMFFIFunction) {
        // A type's own repr: hook(self, fn_repr) -> str.
        Function hook(ObjectPtr<Object>::BorrowHandle(column->data[row].v_obj));
        // The hook may keep fn_repr past its own return; the printer lives on
        // this call's stack, so the link is cut when the hook is done.
        auto self = std::make_shared<std::atomic<Printer*>>(this);
        Function recurse = Function::FromPacked([self](const AnyView* args, int32_t n, Any* rv) {
          if (n != 1) TVMFFI_THROW(TypeError) << "fn_repr takes one argument";
          Printer* printer = self->load(std::memory_order_acquire);
          if (printer == nullptr) {
            TVMFFI_THROW(RuntimeError) << "fn_repr was called after the __ffi_repr__ call "
                                          "that received it had returned";
          }
          *rv = String(printer->Print(*Any(args[0]).raw()));
        });
        struct Unlink {
          std::atomic<Printer*>* link;
          ~Unlink() { link->store(nullptr, std::memory_order_release); }
        } unlink{self.get()};
        return hook(AnyView::FromRaw(v), recurse).As<std::string>();
      }
    }
    int32_t n_fields = 0;
    ForEachFieldInfo(info, [&n_fields](const TVMFFIFieldInfo*) { return ++n_fields, true; });
    if (n_fields == 0 && obj->type_index() < kTVMFFIDynObjectBegin) {
      char buf[40];
      std::snprintf(buf, sizeof(buf), " at %p>", static_cast<const void*>(obj));
      return "<" + TypeKeyOf(info) + buf;
    }
    std::string out = TypeKeyOf(info) + "(";
    bool first = true;
    VisitFields(obj, [&](const TVMFFIFieldInfo* f, Any value) {
      if (f->flags & kTVMFFIFieldFlagBitMaskReprOff) return true;
      out += (first ? "" : ", ") + FieldName(f) + "=" + Print(*value.raw());
      first = false;
      return true;
    });
    return out + ")";
  }

  static constexpr uint64_t kMaxObjects = uint64_t(1) << 18;
  uint64_t printed_ = 0;
  std::vector<const Object*> active_;
};

// Structural visit -----------------------------------------------------------------------

// Pre-order over a value graph: fn(value) for every value, each object once;
// a result of False prunes that value's children.
class Visitor {
 public:
  explicit Visitor(Function fn) : fn_(std::move(fn)) {}

  void Visit(const TVMFFIAny& v) {
    bool is_obj = v.type_index >= kTVMFFIStaticObjectBegin;
    const Object* obj = is_obj ? Object::FromHandle(v.v_obj) : nullptr;
    if (is_obj && !seen_.insert(obj).second) return;
    // `fn` may change the containers being visited: each visited object is
    // held (also so that its address stays out of `seen_` for others), and
    // items are read again after each call.
    if (is_obj) kept_.push_back(Held(v));
    Any r = fn_(AnyView::FromRaw(v));
    if (r.type_index() == kTVMFFIBool && r.raw()->v_int64 == 0) return;
    if (!is_obj) return;
    DepthGuard guard(&active_, obj, "ffi.StructuralVisit");
    switch (v.type_index) {
      case kTVMFFIArray:
      case kTVMFFIList: {
        const SeqObj* s = static_cast<const SeqObj*>(obj);
        for (int64_t i = 0; i < s->size(); ++i) {
          Any item = Held(s->at(i));
          Visit(*item.raw());
        }
        return;
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        for (const auto& kv : Entries(static_cast<const MapBaseObj*>(obj))) {
          Visit(*kv.first.raw());
          Visit(*kv.second.raw());
        }
        return;
      }
      default:
        break;
    }
    if (v.type_index < kTVMFFIDynObjectBegin) return;
    VisitFields(obj, [this](const TVMFFIFieldInfo*, Any value) {
      Visit(*value.raw());
      return true;
    });
  }

 private:
  Function fn_;
  std::unordered_set<const Object*> seen_;
  std::vector<Any> kept_;
  std::vector<const Object*> active_;
};

const Object* ReflectedObjectArg(const AnyView& v, const char* func) {
  if (v.type_index() < kTVMFFIStaticObjectBegin) {
    TVMFFI_THROW(TypeError) << func << ": expected an object, got "
                            << TypeIndexToDisplayName(v.type_index());
  }
  return Object::FromHandle(v.raw()->v_obj);
}

TVMFFI_REGISTER_GLOBAL("ffi.DeepCopy", [](AnyView value) {
  DeepCopier copier;
  return copier.Copy(*Any(value).raw());
});

TVMFFI_REGISTER_GLOBAL("ffi.ReprPrint", [](AnyView value) {
  Printer printer;
  return String(printer.Print(*Any(value).raw()));
});

// fn(name, value, flags) for each reflected field, ancestors' fields first.
TVMFFI_REGISTER_GLOBAL("ffi.VisitFields", [](AnyView obj, Function fn) {
  VisitFields(ReflectedObjectArg(obj, "ffi.VisitFields"),
              [&fn](const TVMFFIFieldInfo* f, Any value) {
                fn(String(f->name.data, f->name.size), value, f->flags);
                return true;
              });
});

TVMFFI_REGISTER_GLOBAL("ffi.StructuralVisit", [](AnyView root, Function fn) {
  Visitor visitor(std::move(fn));
  visitor.Visit(*Any(root).raw());
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

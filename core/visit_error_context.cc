// ffi.VisitErrorContext and ffi.VisitErrorContext.FindAccessPaths (see
// visit_error_context.h).
#include "visit_error_context.h"

#include <utility>
#include <vector>

#include "impl/function.h"
#include "impl/map.h"
#include "impl/reflection.h"
#include "container_internal.h"
#include "reflection_visit.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace visit_error_context {
namespace {

// A depth-first search that tracks the path taken and how much of the chain
// (outermost node first) the objects on that path have matched.
class PathFinder {
 public:
  PathFinder(std::vector<const Object*> chain, bool allow_prefix)
      : chain_(std::move(chain)), allow_prefix_(allow_prefix) {}

  Array<Any> Run(const ObjectRef& root) {
    if (root.defined() && !chain_.empty()) VisitObject(root.get());
    return std::move(found_);
  }

 private:
  struct Step {
    AccessKind kind;
    Any key;
  };

  ObjectRef CurrentPath() const {
    ObjectRef path = AccessPathRoot();
    for (const Step& s : steps_) path = AccessPathExtend(path, s.kind, s.key);
    return path;
  }

  void VisitValue(const TVMFFIAny& v) {
    if (v.type_index < kTVMFFIStaticObjectBegin) return;
    const Object* obj = Object::FromHandle(v.v_obj);
    if (v.type_index == kTVMFFIArray || v.type_index == kTVMFFIList) {
      const SeqObj* s = static_cast<const SeqObj*>(obj);
      for (int64_t i = 0; i < s->size(); ++i) {
        steps_.push_back({AccessKind::kArrayItem, Any(i)});
        VisitValue(s->at(i));
        steps_.pop_back();
      }
    } else if (v.type_index == kTVMFFIMap || v.type_index == kTVMFFIDict) {
      const MapBaseObj* m = static_cast<const MapBaseObj*>(obj);
      for (uint64_t p = m->BeginPos(); p != m->EndPos(); p = m->NextPos(p)) {
        steps_.push_back({AccessKind::kMapItem, Any(AnyView::FromRaw(m->KVAt(p).key))});
        VisitValue(m->KVAt(p).value);
        steps_.pop_back();
      }
    } else {
      VisitObject(obj);
    }
  }

  // Only objects of reflected types (with metadata) take part, as in upstream.
  void VisitObject(const Object* obj) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
    if (info == nullptr || info->metadata == nullptr) return;
    bool advanced = matched_ < chain_.size() && chain_[matched_] == obj;
    if (advanced) {
      ++matched_;
      if (matched_ == chain_.size()) {
        found_.push_back(Any(CurrentPath()));
        --matched_;
        return;
      }
    }
    int64_t found_before = found_.size();
    VisitFields(obj, [this](const TVMFFIFieldInfo* f, Any value) {
      steps_.push_back({AccessKind::kAttr, Any(String(f->name.data, f->name.size))});
      VisitValue(*value.raw());
      steps_.pop_back();
      return true;
    });
    if (allow_prefix_ && matched_ > 0 && matched_ < chain_.size() && !steps_.empty() &&
        found_.size() == found_before) {
      found_.push_back(Any(CurrentPath()));
    }
    if (advanced) --matched_;
  }

  std::vector<const Object*> chain_;
  bool allow_prefix_;
  size_t matched_ = 0;
  std::vector<Step> steps_;
  Array<Any> found_;
};

const bool kRegistered = RunAtLoad([] {
  ObjectDef<VisitErrorContextObj> def("The nodes a visit error unwound through, innermost first.");
  def.Attr("__ffi_type_final__", Any(true));
  def.ReadOnlyField("reverse_visit_pattern", &VisitErrorContextObj::reverse_visit_pattern);
  def.NullableRefField("prev_error_context", &VisitErrorContextObj::prev_error_context,
                       kTVMFFIFieldFlagBitMaskHasDefault);
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VisitErrorContext.FindAccessPaths",
                       [](ObjectRef root, AnyView context, bool allow_prefix_match) {
                         if (context.type_index() != VisitErrorContextObj::RuntimeTypeIndex()) {
                           detail::ThrowArgumentMismatch("ffi.VisitErrorContext.FindAccessPaths",
                                                         1, VisitErrorContextObj::kTypeKey,
                                                         context.raw());
                         }
                         return FindAccessPaths(
                             root,
                             static_cast<const VisitErrorContextObj*>(
                                 Object::FromHandle(context.raw()->v_obj)),
                             allow_prefix_match);
                       });

}  // namespace

Array<Any> FindAccessPaths(const ObjectRef& root, const VisitErrorContextObj* context,
                           bool allow_prefix_match) {
  // The pattern, outermost first: reversed, without NULLs and repeats in a row.
  std::vector<const Object*> chain;
  const ListObj* pattern = static_cast<const ListObj*>(context->reverse_visit_pattern.get());
  for (int64_t i = pattern->size() - 1; i >= 0; --i) {
    const TVMFFIAny& e = pattern->at(i);
    if (e.type_index < kTVMFFIStaticObjectBegin) continue;
    const Object* obj = Object::FromHandle(e.v_obj);
    if (!chain.empty() && chain.back() == obj) continue;
    chain.push_back(obj);
  }
  return PathFinder(std::move(chain), allow_prefix_match).Run(root);
}

}  // namespace visit_error_context
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

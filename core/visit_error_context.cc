// ffi.VisitErrorContext and ffi.VisitErrorContext.FindAccessPaths (see
// visit_error_context.h).
#include "visit_error_context.h"

#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <utility>
#include <vector>

#include "global_def.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace visit_error_context {
namespace {

namespace refl = ::tvm::ffi::reflection;

// A depth-first search that tracks the path taken and how much of the chain
// (outermost node first) the objects on that path have matched.
class PathFinder {
 public:
  PathFinder(std::vector<const Object*> chain, bool allow_prefix)
      : chain_(std::move(chain)), allow_prefix_(allow_prefix) {}

  Array<refl::AccessPath> Run(const ObjectRef& root) {
    if (root.defined() && !chain_.empty()) VisitObject(root.get());
    return std::move(found_);
  }

 private:
  refl::AccessPath CurrentPath() const {
    return refl::AccessPath::FromSteps(steps_.begin(), steps_.end());
  }

  void VisitValue(const Any& v) {
    int32_t index = v.type_index();
    if (index < TypeIndex::kTVMFFIStaticObjectBegin) return;
    const Object* obj = AnyUnsafe::RawObjectPtrFromAnyAfterCheck<Object>(v);
    if (index == TypeIndex::kTVMFFIArray || index == TypeIndex::kTVMFFIList) {
      const SeqBaseObj* s = static_cast<const SeqBaseObj*>(obj);
      int64_t n = static_cast<int64_t>(s->size());
      for (int64_t i = 0; i < n; ++i) {
        steps_.push_back(refl::AccessStep::ArrayItem(i));
        VisitValue(s->at(i));
        steps_.pop_back();
      }
    } else if (index == TypeIndex::kTVMFFIMap || index == TypeIndex::kTVMFFIDict) {
      const MapBaseObj* m = static_cast<const MapBaseObj*>(obj);
      for (const MapBaseObj::KVType& kv : *m) {
        steps_.push_back(refl::AccessStep::MapItem(kv.first));
        VisitValue(kv.second);
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
        found_.push_back(CurrentPath());
        --matched_;
        return;
      }
    }
    size_t found_before = found_.size();
    refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) {
      Any value = refl::FieldGetter(f)(obj);
      steps_.push_back(refl::AccessStep::Attr(String(f->name.data, f->name.size)));
      VisitValue(value);
      steps_.pop_back();
    });
    if (allow_prefix_ && matched_ > 0 && matched_ < chain_.size() && !steps_.empty() &&
        found_.size() == found_before) {
      found_.push_back(CurrentPath());
    }
    if (advanced) --matched_;
  }

  std::vector<const Object*> chain_;
  bool allow_prefix_;
  size_t matched_ = 0;
  std::vector<refl::AccessStep> steps_;
  Array<refl::AccessPath> found_;
};

const bool kRegistered = RegisterAtLoad([] {
  refl::ObjectDef<VisitErrorContextObj>("The nodes a visit error unwound through, innermost first.")
      .def_ro("reverse_visit_pattern", &VisitErrorContextObj::reverse_visit_pattern)
      .def_ro("prev_error_context", &VisitErrorContextObj::prev_error_context,
              refl::DefaultValue(Any()));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VisitErrorContext.FindAccessPaths",
                             [](const ObjectRef& root, const VisitErrorContext& context,
                                bool allow_prefix_match) {
                               return FindAccessPaths(root, context.get(), allow_prefix_match);
                             });

}  // namespace

Array<refl::AccessPath> FindAccessPaths(const ObjectRef& root, const VisitErrorContextObj* context,
                                        bool allow_prefix_match) {
  // The pattern, outermost first: reversed, without NULLs, containers and
  // repeats in a row.
  std::vector<const Object*> chain;
  const SeqBaseObj* pattern = static_cast<const SeqBaseObj*>(context->reverse_visit_pattern.get());
  int64_t n = pattern == nullptr ? 0 : static_cast<int64_t>(pattern->size());
  for (int64_t i = n - 1; i >= 0; --i) {
    const Any& e = pattern->at(i);
    int32_t index = e.type_index();
    // Containers are walked through, never matched: they are no steps.
    if (index < TypeIndex::kTVMFFIStaticObjectBegin || index == TypeIndex::kTVMFFIArray ||
        index == TypeIndex::kTVMFFIList || index == TypeIndex::kTVMFFIMap ||
        index == TypeIndex::kTVMFFIDict) {
      continue;
    }
    const Object* obj = AnyUnsafe::RawObjectPtrFromAnyAfterCheck<Object>(e);
    if (!chain.empty() && chain.back() == obj) continue;
    chain.push_back(obj);
  }
  return PathFinder(std::move(chain), allow_prefix_match).Run(root);
}

}  // namespace visit_error_context
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

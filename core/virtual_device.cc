// ffi.VirtualDevice: where a value lives (device type, device id, target,
// memory scope, each optional).  The type, its registration, its canonical
// table and the ffi.VirtualDevice* globals.
//
// layout = { TVMFFIObject, int64 device_type_int (+24), int64
// virtual_device_id (+32), Any target (+40), String memory_scope (+56, the
// 16-byte tvm::ffi::String) }.
// -1, None and "" mean "unconstrained".
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

class VirtualDeviceObj : public Object {
 public:
  int64_t device_type_int = -1;
  int64_t virtual_device_id = -1;
  Any target;
  String memory_scope;

  bool IsFullyUnconstrained() const {
    return device_type_int == -1 && virtual_device_id == -1 && target == nullptr &&
           memory_scope.empty();
  }
  bool IsFullyConstrained() const {
    return device_type_int != -1 && virtual_device_id != -1 && target != nullptr &&
           !memory_scope.empty();
  }

  TVM_FFI_DECLARE_OBJECT_INFO("ffi.VirtualDevice", VirtualDeviceObj, Object);
};

static_assert(sizeof(VirtualDeviceObj) == 24 + 8 + 8 + 16 + 16, "VirtualDevice layout");

class VirtualDevice : public ObjectRef {
 public:
  explicit VirtualDevice(ObjectPtr<VirtualDeviceObj> p) : ObjectRef(std::move(p)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VirtualDevice, ObjectRef, VirtualDeviceObj);
};

using VD = VirtualDevice;

// The column the JSON-graph reader calls after rebuilding an object
// (serialization.h, kJsonGraphFinalizeAttr).
constexpr const char* kJsonGraphFinalizeAttr = "__json_graph_finalize__";

void CheckConstraint(int64_t v, const char* what) {
  if (v < -1 || v > INT32_MAX) {
    TVM_FFI_CORE_THROW(ValueError) << "VirtualDevice: " << what
                                   << " must be -1 (unconstrained) or a non-negative int32, got "
                                   << v;
  }
}

VD MakeVD(int64_t device_type_int, int64_t virtual_device_id, Any target, String memory_scope) {
  CheckConstraint(device_type_int, "device_type_int");
  CheckConstraint(virtual_device_id, "virtual_device_id");
  if (target != nullptr && target.type_index() < kTVMFFIStaticObjectBegin) {
    TVM_FFI_CORE_THROW(TypeError) << "VirtualDevice: target must be an FFI object or None, got "
                                  << TypeIndexToDisplayName(target.type_index());
  }
  ObjectPtr<VirtualDeviceObj> p = make_object<VirtualDeviceObj>();
  p->device_type_int = device_type_int;
  p->virtual_device_id = virtual_device_id;
  p->target = std::move(target);
  p->memory_scope = std::move(memory_scope);
  return VD(std::move(p));
}

// The canonical table: one object per constraint set, kept for the life of
// the process (as are the targets it refers to).  Targets are keyed by
// identity.
struct CanonicalTable {
  std::mutex mu;
  std::map<std::tuple<int64_t, int64_t, const void*, std::string>, VD> table;
  VD unconstrained{make_object<VirtualDeviceObj>()};
};

CanonicalTable& Table() {
  static CanonicalTable* t = new CanonicalTable();  // never destroyed: outlives every user
  return *t;
}

const void* TargetKey(const Any& target) {
  return target == nullptr ? nullptr : AnyView(target).CopyToTVMFFIAny().v_obj;
}

VD Canonical(const VD& vd) {
  CanonicalTable& t = Table();
  if (vd->IsFullyUnconstrained()) return t.unconstrained;
  auto key = std::make_tuple(vd->device_type_int, vd->virtual_device_id, TargetKey(vd->target),
                             std::string(vd->memory_scope));
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.table.find(key);
  if (it != t.table.end()) return it->second;
  t.table.emplace(key, vd);
  return vd;
}

Optional<VD> Join(const VD& a, const VD& b) {
  auto pick = [](int64_t x, int64_t y, bool* ok) {
    if (x != -1 && y != -1 && x != y) *ok = false;
    return x != -1 ? x : y;
  };
  bool ok = true;
  int64_t dt = pick(a->device_type_int, b->device_type_int, &ok);
  int64_t id = pick(a->virtual_device_id, b->virtual_device_id, &ok);
  if (a->target != nullptr && b->target != nullptr && TargetKey(a->target) != TargetKey(b->target)) {
    ok = false;
  }
  if (!a->memory_scope.empty() && !b->memory_scope.empty() &&
      !(a->memory_scope == b->memory_scope)) {
    ok = false;
  }
  if (!ok) return Optional<VD>();
  Any target = a->target == nullptr ? b->target : a->target;
  String scope = !a->memory_scope.empty() ? a->memory_scope : b->memory_scope;
  return Canonical(MakeVD(dt, id, std::move(target), std::move(scope)));
}

VD Default(const VD& a, const VD& b) {
  int64_t dt = a->device_type_int != -1 ? a->device_type_int : b->device_type_int;
  int64_t id = a->virtual_device_id != -1 ? a->virtual_device_id : b->virtual_device_id;
  Any target = a->target;
  // b's target only where it fits: b's device type must be the result's.
  if (target == nullptr && b->device_type_int == dt) target = b->target;
  String scope = !a->memory_scope.empty() ? a->memory_scope : b->memory_scope;
  return Canonical(MakeVD(dt, id, std::move(target), std::move(scope)));
}

// TVMFFIFieldGetter of a field of C++ type F: an owning copy.
template <typename F>
int GetField(void* field, TVMFFIAny* result) {
  try {
    *result = AnyUnsafe::MoveAnyToTVMFFIAny(Any(*static_cast<const F*>(field)));
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

// TVMFFIFieldSetter: the value converted to F; TypeError "expected <T>, got <U>".
template <typename F>
int SetField(void* field, const TVMFFIAny* value) {
  try {
    AnyView view = AnyView::CopyFromTVMFFIAny(*value);
    if constexpr (std::is_same_v<F, Any>) {
      *static_cast<F*>(field) = Any(view);
    } else {
      std::optional<F> converted = view.try_cast<F>();
      if (!converted.has_value()) {
        TVM_FFI_CORE_THROW(TypeError) << "expected " << TypeTraits<F>::TypeStr() << ", got "
                                      << TypeIndexToDisplayName(value->type_index);
      }
      *static_cast<F*>(field) = *std::move(converted);
    }
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

int CreateDefault(TVMFFIObjectHandle* out) {
  try {
    *out = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<VirtualDeviceObj>());
    return 0;
  } catch (...) {
    return SetRaisedFromCurrentException();
  }
}

TVMFFIByteArray Bytes(const std::string& s) { return TVMFFIByteArray{s.data(), s.size()}; }

// A read-only field with a default (HasDefault, no Writable): the setter is
// for the library's own use (deserialization).
template <typename F>
void RegisterField(int32_t type_index, const char* name, F VirtualDeviceObj::*member,
                   int32_t static_type_index, const char* doc, const Any& default_value) {
  const std::string doc_text(doc);
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{name, std::strlen(name)};
  info.doc = Bytes(doc_text);
  info.flags = kTVMFFIFieldFlagBitMaskHasDefault;
  info.size = static_cast<int64_t>(sizeof(F));
  info.alignment = static_cast<int64_t>(alignof(F));
  info.offset = reflection::GetFieldByteOffsetToObject<VirtualDeviceObj, F>(member);
  info.getter = &GetField<F>;
  info.setter = reinterpret_cast<void*>(&SetField<F>);
  info.default_value_or_factory = AnyView(default_value).CopyToTVMFFIAny();
  info.field_static_type_index = static_type_index;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(type_index, &info));
}

const bool kRegistered = RegisterAtLoad([] {
  int32_t t = VirtualDeviceObj::RuntimeTypeIndex();
  // Not reflection::ObjectDef: the metadata says "a tree node" (compared
  // field by field), and the registration adds nothing else.
  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  const char* doc =
      "Where a value lives: device type, device id, target and memory scope, each optional.";
  meta.doc = TVMFFIByteArray{doc, std::strlen(doc)};
  meta.creator = &CreateDefault;
  meta.total_size = static_cast<int32_t>(sizeof(VirtualDeviceObj));
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(t, &meta));
  RegisterField(t, "device_type_int", &VirtualDeviceObj::device_type_int, kTVMFFIInt,
                "DLPack device type, -1 when unconstrained", Any(int64_t(-1)));
  RegisterField(t, "virtual_device_id", &VirtualDeviceObj::virtual_device_id, kTVMFFIInt,
                "device index, -1 when unconstrained", Any(int64_t(-1)));
  RegisterField(t, "target", &VirtualDeviceObj::target, kTVMFFIAny,
                "target object, None when unconstrained", Any());
  RegisterField(t, "memory_scope", &VirtualDeviceObj::memory_scope, kTVMFFIAny,
                "memory scope, \"\" when unconstrained", Any(String()));
  Function init = Function::FromTyped(
      [](int64_t device_type_int, int64_t virtual_device_id, Any target, String memory_scope) {
        return MakeVD(device_type_int, virtual_device_id, std::move(target),
                      std::move(memory_scope));
      },
      "ffi.VirtualDevice.__ffi_init__");
  const std::string init_name = "__ffi_init__";
  const std::string init_doc =
      "VirtualDevice(device_type_int, virtual_device_id, target, memory_scope)";
  TVMFFIMethodInfo m;
  std::memset(&m, 0, sizeof(m));
  m.name = Bytes(init_name);
  m.doc = Bytes(init_doc);
  m.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  m.method = AnyView(init).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(t, &m));
  Function finalize = Function::FromTyped([](VD vd) { return Canonical(vd); });
  TVMFFIByteArray attr = {kJsonGraphFinalizeAttr, std::strlen(kJsonGraphFinalizeAttr)};
  TVMFFIAny finalize_view = AnyView(finalize).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(t, &attr, &finalize_view));
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDevice",
                             [](int64_t device_type_int, int64_t virtual_device_id, Any target,
                                String memory_scope) {
                               return MakeVD(device_type_int, virtual_device_id,
                                             std::move(target), std::move(memory_scope));
                             });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDeviceFullyUnconstrained",
                             []() { return Table().unconstrained; });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDeviceCanonical", [](VD vd) { return Canonical(vd); });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDeviceJoin", [](VD a, VD b) { return Join(a, b); });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDeviceDefault", [](VD a, VD b) { return Default(a, b); });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDeviceIsFullyUnconstrained",
                             [](VD vd) { return vd->IsFullyUnconstrained(); });
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.VirtualDeviceIsFullyConstrained",
                             [](VD vd) { return vd->IsFullyConstrained(); });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

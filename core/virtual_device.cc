// ffi.VirtualDevice: the type's registration, its canonical table and the
// ffi.VirtualDevice* globals (see impl/virtual_device.h).
#include "impl/virtual_device.h"

#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "impl/reflection.h"
#include "serialization.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

using VD = ObjectRefOf<VirtualDeviceObj>;

void CheckConstraint(int64_t v, const char* what) {
  if (v < -1 || v > INT32_MAX) {
    TVM_FFI_IMPL_THROW(ValueError) << "VirtualDevice: " << what
                             << " must be -1 (unconstrained) or a non-negative int32, got " << v;
  }
}

VD MakeVD(int64_t device_type_int, int64_t virtual_device_id, Any target, String memory_scope) {
  CheckConstraint(device_type_int, "device_type_int");
  CheckConstraint(virtual_device_id, "virtual_device_id");
  if (!target.is_none() && target.type_index() < kTVMFFIStaticObjectBegin) {
    TVM_FFI_IMPL_THROW(TypeError) << "VirtualDevice: target must be an FFI object or None, got "
                            << TypeIndexToDisplayName(target.type_index());
  }
  ObjectPtr<VirtualDeviceObj> p = MakeObject<VirtualDeviceObj>();
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
  VD unconstrained{MakeObject<VirtualDeviceObj>()};
};

CanonicalTable& Table() {
  static CanonicalTable* t = new CanonicalTable();  // never destroyed: outlives every user
  return *t;
}

const void* TargetKey(const Any& target) {
  return target.is_none() ? nullptr : static_cast<const void*>(target.raw()->v_obj);
}

VD Canonical(const VD& vd) {
  CanonicalTable& t = Table();
  if (vd->IsFullyUnconstrained()) return t.unconstrained;
  auto key = std::make_tuple(vd->device_type_int, vd->virtual_device_id, TargetKey(vd->target),
                             vd->memory_scope.str());
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.table.find(key);
  if (it != t.table.end()) return it->second;
  t.table.emplace(key, vd);
  return vd;
}

std::optional<VD> Join(const VD& a, const VD& b) {
  auto pick = [](int64_t x, int64_t y, bool* ok) {
    if (x != -1 && y != -1 && x != y) *ok = false;
    return x != -1 ? x : y;
  };
  bool ok = true;
  int64_t dt = pick(a->device_type_int, b->device_type_int, &ok);
  int64_t id = pick(a->virtual_device_id, b->virtual_device_id, &ok);
  if (!a->target.is_none() && !b->target.is_none() && TargetKey(a->target) != TargetKey(b->target)) {
    ok = false;
  }
  if (a->memory_scope.size() != 0 && b->memory_scope.size() != 0 &&
      !(a->memory_scope == b->memory_scope)) {
    ok = false;
  }
  if (!ok) return std::nullopt;
  Any target = a->target.is_none() ? b->target : a->target;
  String scope = a->memory_scope.size() != 0 ? a->memory_scope : b->memory_scope;
  return Canonical(MakeVD(dt, id, std::move(target), std::move(scope)));
}

VD Default(const VD& a, const VD& b) {
  int64_t dt = a->device_type_int != -1 ? a->device_type_int : b->device_type_int;
  int64_t id = a->virtual_device_id != -1 ? a->virtual_device_id : b->virtual_device_id;
  Any target = a->target;
  // b's target only where it fits: b's device type must be the result's.
  if (target.is_none() && b->device_type_int == dt) target = b->target;
  String scope = a->memory_scope.size() != 0 ? a->memory_scope : b->memory_scope;
  return Canonical(MakeVD(dt, id, std::move(target), std::move(scope)));
}

// A read-only field with a default (HasDefault, no Writable): the setter is
// for the library's own use (deserialization).
template <typename F>
void RegisterField(int32_t type_index, const char* name, F VirtualDeviceObj::*member,
                   const char* doc, const Any& default_value) {
  const std::string doc_text(doc);  // MakeMemberInfo borrows it until registered
  TVMFFIFieldInfo info = reflection_detail::MakeMemberInfo<TVMFFIFieldInfo>(
      name, doc_text, kTVMFFIFieldFlagBitMaskHasDefault);
  info.size = static_cast<int64_t>(sizeof(F));
  info.alignment = static_cast<int64_t>(alignof(F));
  info.offset = reflection_detail::FieldOffset<VirtualDeviceObj>(member);
  info.getter = &reflection_detail::GetField<F>;
  info.setter = reinterpret_cast<void*>(&reflection_detail::SetField<F>);
  info.default_value_or_factory = *default_value.raw();
  info.field_static_type_index = reflection_detail::StaticTypeIndexOf<F>();
  reflection_detail::Check(TVMFFITypeRegisterField(type_index, &info));
}

const bool kRegistered = RunAtLoad([] {
  int32_t t = VirtualDeviceObj::RuntimeTypeIndex();
  // Not ObjectDef: its metadata says "structural equality unsupported", and a
  // VirtualDevice compares field by field (a tree node).
  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  const char* doc =
      "Where a value lives: device type, device id, target and memory scope, each optional.";
  meta.doc = TVMFFIByteArray{doc, std::strlen(doc)};
  meta.creator = &reflection_detail::CreateDefault<VirtualDeviceObj>;
  meta.total_size = static_cast<int32_t>(sizeof(VirtualDeviceObj));
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  reflection_detail::Check(TVMFFITypeRegisterMetadata(t, &meta));
  RegisterField(t, "device_type_int", &VirtualDeviceObj::device_type_int,
                "DLPack device type, -1 when unconstrained", Any(int64_t(-1)));
  RegisterField(t, "virtual_device_id", &VirtualDeviceObj::virtual_device_id,
                "device index, -1 when unconstrained", Any(int64_t(-1)));
  RegisterField(t, "target", &VirtualDeviceObj::target, "target object, None when unconstrained",
                Any());
  RegisterField(t, "memory_scope", &VirtualDeviceObj::memory_scope,
                "memory scope, \"\" when unconstrained", Any(String()));
  Function init = Function::FromTyped(
      [](int64_t device_type_int, int64_t virtual_device_id, Any target, String memory_scope) {
        return MakeVD(device_type_int, virtual_device_id, std::move(target),
                      std::move(memory_scope));
      },
      "ffi.VirtualDevice.__ffi_init__");
  const std::string init_doc =
      "VirtualDevice(device_type_int, virtual_device_id, target, memory_scope)";
  TVMFFIMethodInfo m = reflection_detail::MakeMemberInfo<TVMFFIMethodInfo>(
      "__ffi_init__", init_doc, kTVMFFIFieldFlagBitMaskIsStaticMethod);
  m.method.type_index = kTVMFFIFunction;
  m.method.v_obj = static_cast<TVMFFIObject*>(init.handle());
  reflection_detail::Check(TVMFFITypeRegisterMethod(t, &m));
  Any finalize(Function::FromTyped([](VD vd) { return Canonical(vd); }));
  TVMFFIByteArray attr = {serialization::kJsonGraphFinalizeAttr,
                          std::strlen(serialization::kJsonGraphFinalizeAttr)};
  reflection_detail::Check(TVMFFITypeRegisterAttr(t, &attr, finalize.raw()));
});

TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDevice", [](int64_t device_type_int, int64_t virtual_device_id,
                                               Any target, String memory_scope) {
  return MakeVD(device_type_int, virtual_device_id, std::move(target), std::move(memory_scope));
});
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDeviceFullyUnconstrained", []() { return Table().unconstrained; });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDeviceCanonical", [](VD vd) { return Canonical(vd); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDeviceJoin", [](VD a, VD b) { return Join(a, b); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDeviceDefault", [](VD a, VD b) { return Default(a, b); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDeviceIsFullyUnconstrained",
                       [](VD vd) { return vd->IsFullyUnconstrained(); });
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.VirtualDeviceIsFullyConstrained",
                       [](VD vd) { return vd->IsFullyConstrained(); });

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

// VirtualDevice: where a value lives, as a set of optional constraints.
//
// A reflected object of type key "ffi.VirtualDevice" with four read-only
// fields, each of which may be unconstrained:
//   device_type_int    DLPack device type, -1 when unconstrained
//   virtual_device_id  device index, -1 when unconstrained
//   target             any object (compared by identity), None when unconstrained
//   memory_scope       a str, "" when unconstrained
// Any subset may be constrained (only a memory scope is a valid annotation).
//
// FullyUnconstrained() is one shared object.  Canonical(vd) returns one
// object per distinct set of constraints, and FullyUnconstrained() itself
// when nothing is constrained.  Join(a, b) combines two sets (nullopt when a
// field is constrained differently in both); Default(a, b) fills a's
// unconstrained fields from b (b's target only when b's device type agrees
// with the result's).  Join and Default return canonical objects.
//
// The operations are globals in the core library (so C callers have them
// too): ffi.VirtualDevice(device_type_int, virtual_device_id, target,
// memory_scope), ffi.VirtualDeviceFullyUnconstrained(),
// ffi.VirtualDeviceCanonical(vd), ffi.VirtualDeviceJoin(a, b) (None on
// contradiction), ffi.VirtualDeviceDefault(a, b),
// ffi.VirtualDeviceIsFullyUnconstrained(vd), ffi.VirtualDeviceIsFullyConstrained(vd).
// This header is a C++ veneer over them.  Header-only.
#ifndef TVM_FFI_CORE_IMPL_VIRTUAL_DEVICE_H_
#define TVM_FFI_CORE_IMPL_VIRTUAL_DEVICE_H_

#include <optional>
#include <string>

#include "any.h"
#include "function.h"
#include "object.h"
#include "string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

class VirtualDeviceObj : public Object {
 public:
  int64_t device_type_int = -1;
  int64_t virtual_device_id = -1;
  Any target;
  String memory_scope;

  bool IsFullyUnconstrained() const {
    return device_type_int == -1 && virtual_device_id == -1 && target.is_none() &&
           memory_scope.size() == 0;
  }
  bool IsFullyConstrained() const {
    return device_type_int != -1 && virtual_device_id != -1 && !target.is_none() &&
           memory_scope.size() != 0;
  }

  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(VirtualDeviceObj, "ffi.VirtualDevice", PlainObject)
};

class VirtualDevice : public ObjectRef {
 public:
  using ContainerType = VirtualDeviceObj;
  explicit VirtualDevice(ObjectPtr<Object> p) : ObjectRef(std::move(p)) {}

  // A new (not canonical) object; ValueError for a device type or id below -1.
  static VirtualDevice Make(int64_t device_type_int = -1, int64_t virtual_device_id = -1,
                            Any target = Any(), String memory_scope = String()) {
    return Call("ffi.VirtualDevice", device_type_int, virtual_device_id, std::move(target),
                std::move(memory_scope))
        .As<VirtualDevice>();
  }
  static VirtualDevice FullyUnconstrained() {
    return Call("ffi.VirtualDeviceFullyUnconstrained").As<VirtualDevice>();
  }
  static VirtualDevice Canonical(const VirtualDevice& vd) {
    return Call("ffi.VirtualDeviceCanonical", vd).As<VirtualDevice>();
  }
  static std::optional<VirtualDevice> Join(const VirtualDevice& a, const VirtualDevice& b) {
    return Call("ffi.VirtualDeviceJoin", a, b).As<std::optional<VirtualDevice>>();
  }
  static VirtualDevice Default(const VirtualDevice& a, const VirtualDevice& b) {
    return Call("ffi.VirtualDeviceDefault", a, b).As<VirtualDevice>();
  }

  const VirtualDeviceObj* get() const { return static_cast<const VirtualDeviceObj*>(ObjectRef::get()); }
  const VirtualDeviceObj* operator->() const { return get(); }

 private:
  template <typename... Args>
  static Any Call(const char* name, Args&&... args) {
    std::optional<Function> f = Function::GetGlobal(name);
    if (!f.has_value()) TVM_FFI_IMPL_THROW(RuntimeError) << "global `" << name << "` is not registered";
    return (*f)(std::forward<Args>(args)...);
  }
};

}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CORE_IMPL_VIRTUAL_DEVICE_H_

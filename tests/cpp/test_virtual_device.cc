// ffi.VirtualDevice: constraints, canonical objects, join and default.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// ffi.VirtualDevice, the library's type; its fields are read through
// their reflected getters, and it is made and combined only through the
// library's globals.
class VirtualDeviceObj : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.VirtualDevice", VirtualDeviceObj, Object);
};

class VirtualDevice : public ObjectRef {
 public:
  static VirtualDevice Make(int64_t device_type_int = -1, int64_t virtual_device_id = -1,
                            Any target = Any(), String memory_scope = String()) {
    return Call("ffi.VirtualDevice", device_type_int, virtual_device_id, std::move(target),
                std::move(memory_scope))
        .cast<VirtualDevice>();
  }
  static VirtualDevice FullyUnconstrained() {
    return Call("ffi.VirtualDeviceFullyUnconstrained").cast<VirtualDevice>();
  }
  static VirtualDevice Canonical(const VirtualDevice& vd) {
    return Call("ffi.VirtualDeviceCanonical", vd).cast<VirtualDevice>();
  }
  static std::optional<VirtualDevice> Join(const VirtualDevice& a, const VirtualDevice& b) {
    Any joined = Call("ffi.VirtualDeviceJoin", a, b);
    if (joined == nullptr) return std::nullopt;
    return joined.cast<VirtualDevice>();
  }
  static VirtualDevice Default(const VirtualDevice& a, const VirtualDevice& b) {
    return Call("ffi.VirtualDeviceDefault", a, b).cast<VirtualDevice>();
  }

  int64_t device_type_int() const { return Field("device_type_int").cast<int64_t>(); }
  int64_t virtual_device_id() const { return Field("virtual_device_id").cast<int64_t>(); }
  Any target() const { return Field("target"); }
  String memory_scope() const { return Field("memory_scope").cast<String>(); }
  bool IsFullyUnconstrained() const {
    return device_type_int() == -1 && virtual_device_id() == -1 && target() == nullptr &&
           memory_scope().size() == 0;
  }
  bool IsFullyConstrained() const {
    return device_type_int() != -1 && virtual_device_id() != -1 && target() != nullptr &&
           memory_scope().size() != 0;
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VirtualDevice, ObjectRef, VirtualDeviceObj);

 private:
  Any Field(const char* name) const { return ReflectedField(Any(*this), name); }
};

}  // namespace

TEST_CASE("VirtualDevice: fields, fully (un)constrained", "[virtual_device]") {
  VirtualDevice none = VirtualDevice::Make();
  CHECK(none.device_type_int() == -1);
  CHECK(none.virtual_device_id() == -1);
  CHECK(none.target() == nullptr);
  CHECK(std::string(none.memory_scope()) == "");
  CHECK(none.IsFullyUnconstrained());
  CHECK(!none.IsFullyConstrained());
  VirtualDevice scope_only = VirtualDevice::Make(-1, -1, Any(), String("global"));
  CHECK(!scope_only.IsFullyUnconstrained());
  Array<Any> target{Any("llvm")};
  VirtualDevice full = VirtualDevice::Make(kDLCUDA, 0, Any(target), String("global"));
  CHECK(full.IsFullyConstrained());
  CHECK(ThrownBy([] { VirtualDevice::Make(-2); }) ==
                    "ValueError: VirtualDevice: device_type_int must be -1 (unconstrained) or a "
                    "non-negative int32, got -2");
  CHECK(ThrownBy([] { VirtualDevice::Make(1, -1, Any(int64_t(3))); }) ==
                    "TypeError: VirtualDevice: target must be an FFI object or None, got int");
}

TEST_CASE("VirtualDevice: canonical objects", "[virtual_device]") {
  VirtualDevice fu = VirtualDevice::FullyUnconstrained();
  CHECK(fu.same_as(VirtualDevice::FullyUnconstrained()));
  CHECK(VirtualDevice::Canonical(VirtualDevice::Make()).same_as(fu));
  VirtualDevice a = VirtualDevice::Make(kDLCUDA, 1, Any(), String("global"));
  VirtualDevice b = VirtualDevice::Make(kDLCUDA, 1, Any(), String("global"));
  CHECK(!a.same_as(b));
  VirtualDevice ca = VirtualDevice::Canonical(a);
  CHECK(ca.same_as(VirtualDevice::Canonical(b)));
  CHECK(!VirtualDevice::Canonical(VirtualDevice::Make(kDLCUDA, 2)).same_as(ca));
  // Targets count by identity.
  Array<Any> t1{Any("x")}, t2{Any("x")};
  CHECK(!VirtualDevice::Canonical(VirtualDevice::Make(1, 0, Any(t1)))
             .same_as(VirtualDevice::Canonical(VirtualDevice::Make(1, 0, Any(t2)))));
  CHECK(VirtualDevice::Canonical(VirtualDevice::Make(1, 0, Any(t1)))
            .same_as(VirtualDevice::Canonical(VirtualDevice::Make(1, 0, Any(t1)))));
}

TEST_CASE("VirtualDevice: join and default", "[virtual_device]") {
  Array<Any> t1{Any("x")}, t2{Any("y")};
  VirtualDevice dev = VirtualDevice::Make(kDLCUDA, 1);
  VirtualDevice scope = VirtualDevice::Make(-1, -1, Any(), String("global"));
  std::optional<VirtualDevice> j = VirtualDevice::Join(dev, scope);
  REQUIRE(j.has_value());
  CHECK((*j).device_type_int() == kDLCUDA);
  CHECK((*j).virtual_device_id() == 1);
  CHECK(std::string((*j).memory_scope()) == "global");
  CHECK(j->same_as(VirtualDevice::Canonical(VirtualDevice::Make(kDLCUDA, 1, Any(), String("global")))));
  CHECK(!VirtualDevice::Join(dev, VirtualDevice::Make(kDLCPU)).has_value());
  CHECK(!VirtualDevice::Join(dev, VirtualDevice::Make(kDLCUDA, 2)).has_value());
  CHECK(!VirtualDevice::Join(scope, VirtualDevice::Make(-1, -1, Any(), String("shared"))).has_value());
  CHECK(!VirtualDevice::Join(VirtualDevice::Make(-1, -1, Any(t1)), VirtualDevice::Make(-1, -1, Any(t2)))
             .has_value());
  CHECK(VirtualDevice::Join(VirtualDevice::Make(), VirtualDevice::Make())->same_as(
      VirtualDevice::FullyUnconstrained()));

  VirtualDevice d = VirtualDevice::Default(scope, VirtualDevice::Make(kDLCUDA, 3, Any(t1), String("local")));
  CHECK(d.device_type_int() == kDLCUDA);
  CHECK(d.virtual_device_id() == 3);
  CHECK(RawOf(d.target())->v_obj == HandleOf(t1));
  CHECK(std::string(d.memory_scope()) == "global");
  // b's target is not borrowed when b's device type disagrees with a's.
  VirtualDevice e = VirtualDevice::Default(VirtualDevice::Make(kDLCPU), VirtualDevice::Make(kDLCUDA, 0, Any(t1)));
  CHECK(e.device_type_int() == kDLCPU);
  CHECK(e.virtual_device_id() == 0);
  CHECK(e.target() == nullptr);
}

TEST_CASE("VirtualDevice: JSON graphs give back the canonical object", "[virtual_device]") {
  VirtualDevice a = VirtualDevice::Make(kDLCUDA, 1, Any(), String("global"));
  std::string text = ToJSONGraphString(a);
  CHECK(text ==
        R"({"root_index":2,"nodes":[{"type":"None"},{"type":"ffi.String","data":"global"},{"type":"ffi.VirtualDevice","data":{"device_type_int":2,"virtual_device_id":1,"target":0,"memory_scope":1}}]})");
  Any back = FromJSONGraphString(text);
  CHECK(back.cast<VirtualDevice>().same_as(VirtualDevice::Canonical(a)));
  CHECK(FromJSONGraphString(ToJSONGraphString(VirtualDevice::Make()))
            .cast<VirtualDevice>()
            .same_as(VirtualDevice::FullyUnconstrained()));
}

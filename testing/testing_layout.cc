// testing.* types whose bytes the reflected fields do not all account for, for
// the stub generator's layout check (tvm_ffi.stub.layout): it must find the
// exact byte ranges no field explains, with no flag telling it why.
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// testing.TestCxxClassHiddenField: v_i64 at 24, an unreflected member at
// [32, 40), v_i32 at 40, then padding to 48.
class TestCxxClassHiddenFieldObj : public Object {
 public:
  int64_t v_i64 = 0;
  int64_t hidden = 0;  // never reflected
  int32_t v_i32 = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassHiddenField", TestCxxClassHiddenFieldObj,
                              Object);
};

// testing.TestCxxClassPolymorphic: a virtual function puts a vptr in front of
// the header, so sizeof is 40 while the one field ends at header + 32.
class TestCxxClassPolymorphicObj : public Object {
 public:
  int64_t v_i64 = 0;
  TestCxxClassPolymorphicObj() = default;
  TestCxxClassPolymorphicObj(const TestCxxClassPolymorphicObj&) = delete;
  TestCxxClassPolymorphicObj& operator=(const TestCxxClassPolymorphicObj&) = delete;
  virtual ~TestCxxClassPolymorphicObj() = default;
  virtual int64_t Twice() const { return 2 * v_i64; }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassPolymorphic", TestCxxClassPolymorphicObj,
                              Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TestCxxClassHiddenFieldObj>(
      "v_i64 and v_i32 around a member no field reflects.", refl::init(false))
      .def_rw("v_i64", &TestCxxClassHiddenFieldObj::v_i64)
      .def_rw("v_i32", &TestCxxClassHiddenFieldObj::v_i32);
  KeepTestingAttrs<TestCxxClassHiddenFieldObj>(true);
  refl::ObjectDef<TestCxxClassPolymorphicObj>(
      "v_i64 in a class with a vptr; twice() calls through it.", refl::init(false))
      .def_rw("v_i64", &TestCxxClassPolymorphicObj::v_i64)
      .def("twice", &TestCxxClassPolymorphicObj::Twice, "Returns 2 * v_i64 (virtual).")
      .def_type_attr("__ffi_shallow_copy__", String(kNotCopyConstructible));
  KeepTestingAttrs<TestCxxClassPolymorphicObj>(true);
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

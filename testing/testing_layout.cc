// testing.* types whose bytes the reflected fields do not all account for, for
// the stub generator's layout check (tvm_ffi.stub.layout): it must find the
// exact byte ranges no field explains, with no flag telling it why.
#include <cstdint>

#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// testing.TestCxxClassHiddenField: v_i64 at 24, an unreflected member at
// [32, 40), v_i32 at 40, then padding to 48.
class TestCxxClassHiddenFieldObj : public Object {
 public:
  int64_t v_i64 = 0;
  int64_t hidden = 0;  // never reflected
  int32_t v_i32 = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxClassHiddenFieldObj, "testing.TestCxxClassHiddenField",
                              PlainObject)
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
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxClassPolymorphicObj, "testing.TestCxxClassPolymorphic",
                              PlainObject)
};

const bool kRegistered = RunAtLoad([] {
  ObjectDef<TestCxxClassHiddenFieldObj>("v_i64 and v_i32 around a member no field reflects.")
      .Field("v_i64", &TestCxxClassHiddenFieldObj::v_i64)
      .Field("v_i32", &TestCxxClassHiddenFieldObj::v_i32)
      .AutoInit();
  ObjectDef<TestCxxClassPolymorphicObj>("v_i64 in a class with a vptr; twice() calls through it.")
      .Field("v_i64", &TestCxxClassPolymorphicObj::v_i64)
      .Method("twice", &TestCxxClassPolymorphicObj::Twice, "Returns 2 * v_i64 (virtual).")
      .AutoInit();
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

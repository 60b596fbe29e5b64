// testing.* object types (reflected fields, methods, constructors) and use counts.
#include <tvmffi/map.h>
#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// testing.TestObjectBase: v_i64 (default 10), v_f64 (default 10.0),
// v_str (default "hello"); add_i64(self, x) -> v_i64 + x;
// __ffi_init__(v_i64=10, v_f64=10.0, v_str="hello"), keywords accepted.
class TestObjectBaseObj : public Object {
 public:
  int64_t v_i64 = 10;
  double v_f64 = 10.0;
  String v_str{"hello"};

  TestObjectBaseObj() = default;
  TestObjectBaseObj(int64_t i64, double f64, String str)
      : v_i64(i64), v_f64(f64), v_str(std::move(str)) {}

  int64_t AddI64(int64_t x) const { return v_i64 + x; }

  TVMFFI_DECLARE_DYNAMIC_TYPE(TestObjectBaseObj, "testing.TestObjectBase", PlainObject)
};

// testing.TestObjectDerived (child of TestObjectBase): adds v_array (Any, no
// default) and v_map (Any, default an empty Map; upstream's tests pass it by
// keyword); __ffi_init__(v_array, v_i64, v_f64, v_str, v_map) (required fields
// come first), keywords accepted.
class TestObjectDerivedObj : public TestObjectBaseObj {
 public:
  Any v_array;
  Any v_map;

  TestObjectDerivedObj() = default;
  TestObjectDerivedObj(int64_t i64, double f64, String str, Any array)
      : TestObjectBaseObj(i64, f64, std::move(str)), v_array(std::move(array)) {}

  TVMFFI_DECLARE_DYNAMIC_TYPE(TestObjectDerivedObj, "testing.TestObjectDerived",
                              TestObjectBaseObj)
};

const bool kRegistered = RunAtLoad([] {
  ObjectDef<TestObjectBaseObj>("Test object with an int, a float and a string field.")
      .Field("v_i64", &TestObjectBaseObj::v_i64, "int64 field", Any(int64_t(10)))
      .Field("v_f64", &TestObjectBaseObj::v_f64, "float64 field", Any(10.0))
      .Field("v_str", &TestObjectBaseObj::v_str, "string field", Any("hello"))
      .Method("add_i64", &TestObjectBaseObj::AddI64, "Returns v_i64 + x.")
      .AutoInit("Makes a TestObjectBase(v_i64=10, v_f64=10.0, v_str='hello').");
  ObjectDef<TestObjectDerivedObj>("TestObjectBase with an extra field of any type.")
      .Field("v_array", &TestObjectDerivedObj::v_array, "any value")
      .Field("v_map", &TestObjectDerivedObj::v_map, "any value", Any(Map()))
      .AutoInit("Makes a TestObjectDerived(v_array, v_i64, v_f64, v_str, v_map).");
});

TVMFFI_REGISTER_GLOBAL("testing.make_test_object_base",
                       [](int64_t v_i64, double v_f64, String v_str) {
                         return ObjectRefOf<TestObjectBaseObj>(
                             MakeObject<TestObjectBaseObj>(v_i64, v_f64, std::move(v_str)));
                       });

// The object's strong count as seen inside the call: the argument is a view,
// so the call itself adds no reference.
TVMFFI_REGISTER_GLOBAL("testing.object_use_count", [](AnyView obj) -> int64_t {
  if (obj.type_index() < kTVMFFIStaticObjectBegin) {
    TVMFFI_THROW(TypeError) << "testing.object_use_count: expected an object, got "
                            << TypeIndexToDisplayName(obj.type_index());
  }
  return Object::FromHandle(obj.raw()->v_obj)->use_count();
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

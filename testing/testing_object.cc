// testing.* object types (reflected fields, methods, constructors) and use counts.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <string>
#include <utility>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

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

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectBase", TestObjectBaseObj, Object);
};

class TestObjectBase : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TestObjectBase, ObjectRef, TestObjectBaseObj);
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

  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectDerived", TestObjectDerivedObj,
                              TestObjectBaseObj);
};

// TestObjectBase.v_str is registered through the C ABI, as refl::ObjectDef
// would register it except for its static type index: kTVMFFIStr (a str
// cell: String's 16 bytes hold a TVMFFIAny) where ObjectDef, like upstream's
// headers, records kTVMFFIAny.  Types defined at run time extend
// TestObjectBase (tests/python/test_dataclass_*.py, tests/cpp
// test_dataclass.cc), and the library lets one extend a C++ type only when
// it knows how to release each of its fields: a 16-byte field only when its
// index says str or bytes.
int GetStrField(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  Any value(*static_cast<const String*>(field));
  *result = ::tvm::ffi::detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value));
  TVM_FFI_SAFE_CALL_END();
}

int SetStrField(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *static_cast<String*>(field) = AnyView::CopyFromTVMFFIAny(*value).cast<String>();
  TVM_FFI_SAFE_CALL_END();
}

void RegisterVStr() {
  static constexpr char kName[] = "v_str";
  static constexpr char kDoc[] = "string field";
  std::string metadata = std::string("{\"type_schema\":") +
                         std::string(EscapeStringJSON(String(R"({"type":"ffi.String"})"))) + "}";
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = TVMFFIByteArray{kName, sizeof(kName) - 1};
  info.doc = TVMFFIByteArray{kDoc, sizeof(kDoc) - 1};
  info.metadata = TVMFFIByteArray{metadata.data(), metadata.size()};
  info.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault;
  info.size = sizeof(String);
  info.alignment = alignof(String);
  info.offset = refl::GetFieldByteOffsetToObject(&TestObjectBaseObj::v_str);
  info.getter = &GetStrField;
  info.setter = reinterpret_cast<void*>(&SetStrField);
  static const String kDefault("hello");  // the small (inline) form: no object
  info.default_value_or_factory = AnyView(kDefault).CopyToTVMFFIAny();
  info.field_static_type_index = TypeIndex::kTVMFFIStr;
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterField(TestObjectBaseObj::_GetOrAllocRuntimeTypeIndex(), &info));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  {
    refl::ObjectDef<TestObjectBaseObj> base(
        "Test object with an int, a float and a string field.", refl::init(false));
    base.def_rw("v_i64", &TestObjectBaseObj::v_i64, "int64 field",
                refl::default_value(int64_t(10)))
        .def_rw("v_f64", &TestObjectBaseObj::v_f64, "float64 field", refl::default_value(10.0));
    RegisterVStr();
    base.def("add_i64", &TestObjectBaseObj::AddI64, "Returns v_i64 + x.");
  }
  KeepTestingAttrs<TestObjectBaseObj>(
      true, "Makes a TestObjectBase(v_i64=10, v_f64=10.0, v_str='hello').");
  refl::ObjectDef<TestObjectDerivedObj>("TestObjectBase with an extra field of any type.",
                                        refl::init(false))
      .def_rw("v_array", &TestObjectDerivedObj::v_array, "any value")
      .def_rw("v_map", &TestObjectDerivedObj::v_map, "any value",
              refl::default_value(Map<Any, Any>()));
  KeepTestingAttrs<TestObjectDerivedObj>(
      true, "Makes a TestObjectDerived(v_array, v_i64, v_f64, v_str, v_map).");

  refl::GlobalDef()
      .def("testing.make_test_object_base",
           [](int64_t v_i64, double v_f64, String v_str) {
             return TestObjectBase(make_object<TestObjectBaseObj>(v_i64, v_f64, std::move(v_str)));
           })
      // The object's strong count as seen inside the call: the argument is a
      // view, so the call itself adds no reference.
      .def("testing.object_use_count", [](AnyView obj) -> int64_t {
        if (obj.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
          TVM_FFI_THROW(TypeError) << "testing.object_use_count: expected an object, got "
                                   << DisplayName(obj.type_index());
        }
        return static_cast<int64_t>(obj.as<Object>()->use_count());
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

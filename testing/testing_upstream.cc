// testing.* object types that upstream apache-tvm-ffi's test suite and its
// tvm_ffi.testing module use, with the same type keys, field names,
// constructors and methods (facts of upstream's documented test API).
#include <optional>
#include <string>

#include <tvmffi/array.h>
#include <tvmffi/map.h>
#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// testing.TestIntPair: a, b; __ffi_init__(a, b) positional; sum() -> a + b.
class TestIntPairObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;

  TestIntPairObj() = default;
  TestIntPairObj(int64_t a_in, int64_t b_in) : a(a_in), b(b_in) {}
  int64_t Sum() const { return a + b; }

  TVMFFI_DECLARE_DYNAMIC_TYPE(TestIntPairObj, "testing.TestIntPair", PlainObject)
};

// testing.TestNonCopyable: value; __ffi_init__(value) positional.
class TestNonCopyableObj : public Object {
 public:
  int64_t value = 0;

  TestNonCopyableObj() = default;
  explicit TestNonCopyableObj(int64_t v) : value(v) {}
  TestNonCopyableObj(const TestNonCopyableObj&) = delete;
  TestNonCopyableObj& operator=(const TestNonCopyableObj&) = delete;

  TVMFFI_DECLARE_DYNAMIC_TYPE(TestNonCopyableObj, "testing.TestNonCopyable", PlainObject)
};

// testing.TestFrozenCxx: value, tag; __ffi_init__(value, tag), keywords accepted.
class TestFrozenCxxObj : public Object {
 public:
  int64_t value = 0;
  String tag{""};

  TVMFFI_DECLARE_DYNAMIC_TYPE(TestFrozenCxxObj, "testing.TestFrozenCxx", PlainObject)
};

// testing.TestObjectPtrHolder: value (an object), optional_value (default None).
class TestObjectPtrHolderObj : public Object {
 public:
  Any value;
  Any optional_value;

  TVMFFI_DECLARE_DYNAMIC_TYPE(TestObjectPtrHolderObj, "testing.TestObjectPtrHolder",
                              PlainObject)
};


// testing.TestCustomHash / TestCustomCompare / TestEqWithoutHash: key, label;
// __ffi_init__(key, label) positional.  Their hooks look at key only:
// TestCustomHash hashes key (__ffi_hash__); TestCustomCompare equates, orders
// and hashes by key (__ffi_eq__, __ffi_compare__, __ffi_hash__);
// TestEqWithoutHash equates by key and has no hash hook.
class TestCustomHashObj : public Object {
 public:
  int64_t key = 0;
  String label{""};
  TestCustomHashObj() = default;
  TestCustomHashObj(int64_t k, String l) : key(k), label(std::move(l)) {}
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCustomHashObj, "testing.TestCustomHash", PlainObject)
};

class TestCustomCompareObj : public Object {
 public:
  int64_t key = 0;
  String label{""};
  TestCustomCompareObj() = default;
  TestCustomCompareObj(int64_t k, String l) : key(k), label(std::move(l)) {}
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCustomCompareObj, "testing.TestCustomCompare", PlainObject)
};

class TestEqWithoutHashObj : public Object {
 public:
  int64_t key = 0;
  String label{""};
  TestEqWithoutHashObj() = default;
  TestEqWithoutHashObj(int64_t k, String l) : key(k), label(std::move(l)) {}
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestEqWithoutHashObj, "testing.TestEqWithoutHash", PlainObject)
};

template <typename T>
int64_t KeyOf(const AnyView& v) {
  return static_cast<const T*>(Object::FromHandle(v.raw()->v_obj))->key;
}

// testing.TestCxxClassBase(v_i64, v_i32; both ReprOff) <- TestCxxClassDerived(+ v_f64,
// v_f32=8.0) <- TestCxxClassDerivedDerived(+ v_str="default", v_bool).
class TestCxxClassBaseObj : public Object {
 public:
  int64_t v_i64 = 0;
  int32_t v_i32 = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxClassBaseObj, "testing.TestCxxClassBase", PlainObject)
};

class TestCxxClassDerivedObj : public TestCxxClassBaseObj {
 public:
  double v_f64 = 0.0;
  float v_f32 = 8.0f;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxClassDerivedObj, "testing.TestCxxClassDerived",
                              TestCxxClassBaseObj)
};

class TestCxxClassDerivedDerivedObj : public TestCxxClassDerivedObj {
 public:
  String v_str{"default"};
  bool v_bool = false;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxClassDerivedDerivedObj, "testing.TestCxxClassDerivedDerived",
                              TestCxxClassDerivedObj)
};

// Types whose __ffi_init__ is built from the fields' flags (AutoInit).
class TestCxxInitSubsetObj : public Object {  // required_field; optional_field=-1, note="default" not in init
 public:
  int64_t required_field = 0;
  int64_t optional_field = -1;
  String note{"default"};
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxInitSubsetObj, "testing.TestCxxInitSubset", PlainObject)
};

class TestCxxKwOnlyObj : public Object {  // keyword-only x, y, z, w=100
 public:
  int64_t x = 0, y = 0, z = 0, w = 100;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxKwOnlyObj, "testing.TestCxxKwOnly", PlainObject)
};

class TestCxxAutoInitObj : public Object {  // a; b=42 not in init; keyword-only c; d=99
 public:
  int64_t a = 0, b = 42, c = 0, d = 99;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxAutoInitObj, "testing.TestCxxAutoInit", PlainObject)
};

class TestCxxAutoInitSimpleObj : public Object {  // x, y
 public:
  int64_t x = 0, y = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxAutoInitSimpleObj, "testing.TestCxxAutoInitSimple",
                              PlainObject)
};

class TestCxxAutoInitAllInitOffObj : public Object {  // x=7, y=9, z=1234, none in init
 public:
  int64_t x = 7, y = 9, z = 1234;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxAutoInitAllInitOffObj, "testing.TestCxxAutoInitAllInitOff",
                              PlainObject)
};

// p_required, p_default=11; keyword-only k_required, k_default=22; hidden=33 not in init.
class TestCxxAutoInitKwOnlyDefaultsObj : public Object {
 public:
  int64_t p_required = 0, p_default = 11, k_required = 0, k_default = 22, hidden = 33;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxAutoInitKwOnlyDefaultsObj,
                              "testing.TestCxxAutoInitKwOnlyDefaults", PlainObject)
};

class TestCxxNoAutoInitObj : public Object {  // x, y; no __ffi_init__
 public:
  int64_t x = 0, y = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxNoAutoInitObj, "testing.TestCxxNoAutoInit", PlainObject)
};

class TestCxxAutoInitParentObj : public Object {  // parent_required, parent_default=5
 public:
  int64_t parent_required = 0, parent_default = 5;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxAutoInitParentObj, "testing.TestCxxAutoInitParent",
                              PlainObject)
};

class TestCxxAutoInitChildObj : public TestCxxAutoInitParentObj {  // + child_required, keyword-only child_kw_only
 public:
  int64_t child_required = 0, child_kw_only = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxAutoInitChildObj, "testing.TestCxxAutoInitChild",
                              TestCxxAutoInitParentObj)
};

// testing.TestUnregisteredBaseObject(v1) <- TestUnregisteredObject(+ v2),
// with methods get_v1_plus_one and get_v2_plus_two; no Python class is bound
// to either (testing.make_unregistered_object returns one).
class TestUnregisteredBaseObj : public Object {
 public:
  int64_t v1 = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestUnregisteredBaseObj, "testing.TestUnregisteredBaseObject",
                              PlainObject)
};

class TestUnregisteredObj : public TestUnregisteredBaseObj {
 public:
  int64_t v2 = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestUnregisteredObj, "testing.TestUnregisteredObject",
                              TestUnregisteredBaseObj)
};

// testing.SchemaAllTypes: one field of each kind of type, and methods whose
// signatures (type schemas) cover the containers and Optional.
class SchemaAllTypesObj : public Object {
 public:
  bool v_bool = false;
  int64_t v_int = 0;
  double v_float = 0.0;
  DLDevice v_device{kDLCPU, 0};
  DLDataType v_dtype{kDLFloat, 32, 1};
  String v_string{""};
  Bytes v_bytes;
  std::optional<int64_t> v_opt_int;
  std::optional<String> v_opt_str;
  Array<int64_t> v_arr_int;
  Array<String> v_arr_str;
  Map v_map_str_int;
  Map v_map_str_arr_int;
  Any v_variant;
  Any v_opt_arr_variant;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SchemaAllTypesObj, "testing.SchemaAllTypes", PlainObject)
};
using SchemaAllTypesRef = ObjectRefOf<SchemaAllTypesObj>;

// testing.TestDeepCopyEdges: v_any (any value) and v_obj (an object), both
// default None; for deep copies of fields that hold containers or objects.
class TestDeepCopyEdgesObj : public Object {
 public:
  Any v_any;
  Any v_obj;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestDeepCopyEdgesObj, "testing.TestDeepCopyEdges", PlainObject)
};

// testing.test_raise_error(kind, message): throws from a function whose name
// shows in the error's backtrace (TestRaiseError), unlike a lambda's.
__attribute__((noinline)) void TestRaiseError(const std::string& kind,
                                              const std::string& message) {
  throw Error(kind, message);
}

const bool kRegistered = RunAtLoad([] {
  ObjectDef<TestIntPairObj>("A pair of integers.")
      .Field("a", &TestIntPairObj::a, "first")
      .Field("b", &TestIntPairObj::b, "second")
      .Method("sum", &TestIntPairObj::Sum, "Returns a + b.")
      .Init<int64_t, int64_t>("Makes a TestIntPair(a, b).");
  ObjectDef<TestNonCopyableObj>("An object whose C++ class cannot be copied.")
      .Field("value", &TestNonCopyableObj::value, "the value")
      .Init<int64_t>("Makes a TestNonCopyable(value).");
  ObjectDef<TestFrozenCxxObj>("An object whose fields Python must not assign.")
      .Field("value", &TestFrozenCxxObj::value, "the value")
      .Field("tag", &TestFrozenCxxObj::tag, "a label")
      .AutoInit("Makes a TestFrozenCxx(value, tag).");
  ObjectDef<TestObjectPtrHolderObj>("Holds an object and an optional object.")
      .Field("value", &TestObjectPtrHolderObj::value, "an object")
      .Field("optional_value", &TestObjectPtrHolderObj::optional_value, "an object or None",
             Any(nullptr))
      .AutoInit("Makes a TestObjectPtrHolder(value, optional_value=None).");

  constexpr int64_t kInitOff = kTVMFFIFieldFlagBitMaskInitOff;
  constexpr int64_t kKwOnly = kTVMFFIFieldFlagBitMaskKwOnly;
  ObjectDef<TestCustomHashObj>("Hashed by key only (__ffi_hash__).", kTVMFFISEqHashKindTreeNode)
      .Field("key", &TestCustomHashObj::key)
      .Field("label", &TestCustomHashObj::label)
      .Init<int64_t, String>()
      .Attr("__ffi_hash__", Function::FromTyped([](AnyView self, Function fn_hash) {
              return fn_hash(KeyOf<TestCustomHashObj>(self)).As<int64_t>();
            }));
  ObjectDef<TestCustomCompareObj>(
      "Equal, ordered and hashed by key only (__ffi_eq__, __ffi_compare__, __ffi_hash__).",
      kTVMFFISEqHashKindTreeNode)
      .Field("key", &TestCustomCompareObj::key)
      .Field("label", &TestCustomCompareObj::label)
      .Init<int64_t, String>()
      .Attr("__ffi_hash__", Function::FromTyped([](AnyView self, Function fn_hash) {
              return fn_hash(KeyOf<TestCustomCompareObj>(self)).As<int64_t>();
            }))
      .Attr("__ffi_eq__", Function::FromTyped([](AnyView a, AnyView b, Function fn_eq) {
              return fn_eq(KeyOf<TestCustomCompareObj>(a), KeyOf<TestCustomCompareObj>(b))
                  .As<bool>();
            }))
      .Attr("__ffi_compare__", Function::FromTyped([](AnyView a, AnyView b, Function fn_cmp) {
              return fn_cmp(KeyOf<TestCustomCompareObj>(a), KeyOf<TestCustomCompareObj>(b))
                  .As<int64_t>();
            }));
  ObjectDef<TestEqWithoutHashObj>("Equal by key only (__ffi_eq__), with no __ffi_hash__.",
                                  kTVMFFISEqHashKindTreeNode)
      .Field("key", &TestEqWithoutHashObj::key)
      .Field("label", &TestEqWithoutHashObj::label)
      .Init<int64_t, String>()
      .Attr("__ffi_eq__", Function::FromTyped([](AnyView a, AnyView b, Function fn_eq) {
              return fn_eq(KeyOf<TestEqWithoutHashObj>(a), KeyOf<TestEqWithoutHashObj>(b))
                  .As<bool>();
            }));
  ObjectDef<TestCxxClassBaseObj>("Base of the TestCxxClass hierarchy.", kTVMFFISEqHashKindTreeNode)
      // Upstream registers both with repr(false).
      .FieldWithFlags("v_i64", &TestCxxClassBaseObj::v_i64, kTVMFFIFieldFlagBitMaskReprOff)
      .FieldWithFlags("v_i32", &TestCxxClassBaseObj::v_i32, kTVMFFIFieldFlagBitMaskReprOff)
      .AutoInit()
      // A type attribute of the base only, for lookups with and without ancestors.
      .Attr("testing.where", Any("TestCxxClassBase"));
  ObjectDef<TestCxxClassDerivedObj>("TestCxxClassBase with v_f64 and v_f32=8.0.",
                                    kTVMFFISEqHashKindTreeNode)
      .Field("v_f64", &TestCxxClassDerivedObj::v_f64)
      .Field("v_f32", &TestCxxClassDerivedObj::v_f32, "", Any(8.0))
      .AutoInit();
  ObjectDef<TestCxxClassDerivedDerivedObj>("TestCxxClassDerived with v_str='default' and v_bool.",
                                           kTVMFFISEqHashKindTreeNode)
      .Field("v_str", &TestCxxClassDerivedDerivedObj::v_str, "", Any("default"))
      .Field("v_bool", &TestCxxClassDerivedDerivedObj::v_bool)
      .AutoInit();
  ObjectDef<TestCxxInitSubsetObj>("Only required_field is an __ffi_init__ parameter.")
      .Field("required_field", &TestCxxInitSubsetObj::required_field)
      .Field("optional_field", &TestCxxInitSubsetObj::optional_field, "", Any(int64_t(-1)),
             kInitOff)
      .Field("note", &TestCxxInitSubsetObj::note, "", Any("default"), kInitOff)
      .AutoInit();
  ObjectDef<TestCxxKwOnlyObj>("Keyword-only x, y, z and w=100.")
      .FieldWithFlags("x", &TestCxxKwOnlyObj::x, kKwOnly)
      .FieldWithFlags("y", &TestCxxKwOnlyObj::y, kKwOnly)
      .FieldWithFlags("z", &TestCxxKwOnlyObj::z, kKwOnly)
      .Field("w", &TestCxxKwOnlyObj::w, "", Any(int64_t(100)), kKwOnly)
      .AutoInit();
  ObjectDef<TestCxxAutoInitObj>("a; b=42 (not in init); keyword-only c; d=99.")
      .Field("a", &TestCxxAutoInitObj::a)
      .Field("b", &TestCxxAutoInitObj::b, "", Any(int64_t(42)), kInitOff)
      .FieldWithFlags("c", &TestCxxAutoInitObj::c, kKwOnly)
      .Field("d", &TestCxxAutoInitObj::d, "", Any(int64_t(99)))
      .AutoInit();
  ObjectDef<TestCxxAutoInitSimpleObj>("x, y.")
      .Field("x", &TestCxxAutoInitSimpleObj::x)
      .Field("y", &TestCxxAutoInitSimpleObj::y)
      .AutoInit();
  ObjectDef<TestCxxAutoInitAllInitOffObj>("x=7, y=9, z=1234, none an __ffi_init__ parameter.")
      .Field("x", &TestCxxAutoInitAllInitOffObj::x, "", Any(int64_t(7)), kInitOff)
      .Field("y", &TestCxxAutoInitAllInitOffObj::y, "", Any(int64_t(9)), kInitOff)
      .Field("z", &TestCxxAutoInitAllInitOffObj::z, "", Any(int64_t(1234)), kInitOff)
      .AutoInit();
  ObjectDef<TestCxxAutoInitKwOnlyDefaultsObj>(
      "p_required, p_default=11; keyword-only k_required, k_default=22; hidden=33.")
      .Field("p_required", &TestCxxAutoInitKwOnlyDefaultsObj::p_required)
      .Field("p_default", &TestCxxAutoInitKwOnlyDefaultsObj::p_default, "", Any(int64_t(11)))
      .FieldWithFlags("k_required", &TestCxxAutoInitKwOnlyDefaultsObj::k_required, kKwOnly)
      .Field("k_default", &TestCxxAutoInitKwOnlyDefaultsObj::k_default, "", Any(int64_t(22)),
             kKwOnly)
      .Field("hidden", &TestCxxAutoInitKwOnlyDefaultsObj::hidden, "", Any(int64_t(33)), kInitOff)
      .AutoInit();
  ObjectDef<TestCxxNoAutoInitObj>("x, y; no __ffi_init__.")
      .Field("x", &TestCxxNoAutoInitObj::x)
      .Field("y", &TestCxxNoAutoInitObj::y);
  ObjectDef<TestCxxAutoInitParentObj>("parent_required, parent_default=5.")
      .Field("parent_required", &TestCxxAutoInitParentObj::parent_required)
      .Field("parent_default", &TestCxxAutoInitParentObj::parent_default, "", Any(int64_t(5)))
      .AutoInit();
  ObjectDef<TestCxxAutoInitChildObj>("The parent's fields, child_required, keyword-only child_kw_only.")
      .Field("child_required", &TestCxxAutoInitChildObj::child_required)
      .FieldWithFlags("child_kw_only", &TestCxxAutoInitChildObj::child_kw_only, kKwOnly)
      .AutoInit();
  ObjectDef<SchemaAllTypesObj>("One field of each kind of type.")
      .Field("v_bool", &SchemaAllTypesObj::v_bool)
      .Field("v_int", &SchemaAllTypesObj::v_int)
      .Field("v_float", &SchemaAllTypesObj::v_float)
      .Field("v_device", &SchemaAllTypesObj::v_device)
      .Field("v_dtype", &SchemaAllTypesObj::v_dtype)
      .Field("v_string", &SchemaAllTypesObj::v_string)
      .Field("v_bytes", &SchemaAllTypesObj::v_bytes)
      .Field("v_opt_int", &SchemaAllTypesObj::v_opt_int)
      .Field("v_opt_str", &SchemaAllTypesObj::v_opt_str)
      .Field("v_arr_int", &SchemaAllTypesObj::v_arr_int)
      .Field("v_arr_str", &SchemaAllTypesObj::v_arr_str)
      .Field("v_map_str_int", &SchemaAllTypesObj::v_map_str_int)
      .Field("v_map_str_arr_int", &SchemaAllTypesObj::v_map_str_arr_int)
      .Field("v_variant", &SchemaAllTypesObj::v_variant)
      .Field("v_opt_arr_variant", &SchemaAllTypesObj::v_opt_arr_variant)
      .Method("add_int", [](const SchemaAllTypesRef& self, int64_t x) { return self->v_int + x; },
              "v_int + x.")
      .Method("append_int",
              [](const SchemaAllTypesRef&, Array<int64_t> xs, int64_t x) {
                xs.push_back(x);
                return xs;
              },
              "xs with x appended.")
      .Method("maybe_concat",
              [](const SchemaAllTypesRef&, std::optional<String> a,
                 std::optional<String> b) -> std::optional<String> {
                if (!a.has_value()) return b;
                if (!b.has_value()) return a;
                return String(a->str() + b->str());
              },
              "a + b; either alone when the other is None; None when both are.")
      .Method("merge_map",
              [](const SchemaAllTypesRef&, Map a, Map b) {
                Map out;
                for (const auto& kv : a) out.Set(kv.first, kv.second);
                for (const auto& kv : b) out.Set(kv.first, kv.second);
                return out;
              },
              "The pairs of a, then those of b (b wins on equal keys).")
      .StaticMethod("make_with",
                    [](int64_t v_int, double v_float, String v_string) {
                      ObjectPtr<SchemaAllTypesObj> obj = MakeObject<SchemaAllTypesObj>();
                      obj->v_int = v_int;
                      obj->v_float = v_float;
                      obj->v_string = std::move(v_string);
                      return SchemaAllTypesRef(std::move(obj));
                    },
                    "A SchemaAllTypes with v_int, v_float and v_string set.");
  ObjectDef<TestDeepCopyEdgesObj>("Fields of any value and of an object, for deep copies.",
                                  kTVMFFISEqHashKindTreeNode)
      .Field("v_any", &TestDeepCopyEdgesObj::v_any, "any value", Any(nullptr))
      .Field("v_obj", &TestDeepCopyEdgesObj::v_obj, "an object", Any(nullptr))
      .AutoInit();
  ObjectDef<TestUnregisteredBaseObj>("A type no Python class is bound to.")
      .Field("v1", &TestUnregisteredBaseObj::v1)
      .Method("get_v1_plus_one",
              [](const ObjectRefOf<TestUnregisteredBaseObj>& self) { return self->v1 + 1; },
              "Get (v1 + 1) from TestUnregisteredBaseObject.");
  ObjectDef<TestUnregisteredObj>("A derived type no Python class is bound to.")
      .Field("v2", &TestUnregisteredObj::v2)
      .Method("get_v2_plus_two",
              [](const ObjectRefOf<TestUnregisteredObj>& self) { return self->v2 + 2; },
              "Get (v2 + 2) from TestUnregisteredObject.");
});

TVMFFI_REGISTER_GLOBAL("testing.TestIntPairSum", [](ObjectRefOf<TestIntPairObj> p) -> int64_t {
  return p->a + p->b;
});

TVMFFI_REGISTER_GLOBAL("testing.test_raise_error",
                       [](const std::string& kind, const std::string& message) {
                         TestRaiseError(kind, message);
                       });

TVMFFI_REGISTER_GLOBAL("testing.make_unregistered_object", []() {
  ObjectPtr<TestUnregisteredObj> obj = MakeObject<TestUnregisteredObj>();
  obj->v1 = 41;
  obj->v2 = 42;
  return ObjectRefOf<TestUnregisteredObj>(std::move(obj));
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

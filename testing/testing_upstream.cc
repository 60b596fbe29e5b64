// testing.* object types that upstream apache-tvm-ffi's test suite and its
// tvm_ffi.testing module use, with the same type keys, field names,
// constructors and methods (facts of upstream's documented test API).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <utility>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// testing.TestIntPair: a, b; __ffi_init__(a, b) positional; sum() -> a + b.
class TestIntPairObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;

  TestIntPairObj() = default;
  TestIntPairObj(int64_t a_in, int64_t b_in) : a(a_in), b(b_in) {}
  int64_t Sum() const { return a + b; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestIntPair", TestIntPairObj, Object);
};

class TestIntPair : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TestIntPair, ObjectRef, TestIntPairObj);
};

// testing.TestNonCopyable: value; __ffi_init__(value) positional.
class TestNonCopyableObj : public Object {
 public:
  int64_t value = 0;

  TestNonCopyableObj() = default;
  explicit TestNonCopyableObj(int64_t v) : value(v) {}
  TestNonCopyableObj(const TestNonCopyableObj&) = delete;
  TestNonCopyableObj& operator=(const TestNonCopyableObj&) = delete;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestNonCopyable", TestNonCopyableObj, Object);
};

// testing.TestFrozenCxx: value, tag; __ffi_init__(value, tag), keywords accepted.
class TestFrozenCxxObj : public Object {
 public:
  int64_t value = 0;
  String tag{""};

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestFrozenCxx", TestFrozenCxxObj, Object);
};

// testing.TestObjectPtrHolder: value (an object), optional_value (default None).
class TestObjectPtrHolderObj : public Object {
 public:
  Any value;
  Any optional_value;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectPtrHolder", TestObjectPtrHolderObj, Object);
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
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCustomHash", TestCustomHashObj, Object);
};

class TestCustomCompareObj : public Object {
 public:
  int64_t key = 0;
  String label{""};
  TestCustomCompareObj() = default;
  TestCustomCompareObj(int64_t k, String l) : key(k), label(std::move(l)) {}
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCustomCompare", TestCustomCompareObj, Object);
};

class TestEqWithoutHashObj : public Object {
 public:
  int64_t key = 0;
  String label{""};
  TestEqWithoutHashObj() = default;
  TestEqWithoutHashObj(int64_t k, String l) : key(k), label(std::move(l)) {}
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestEqWithoutHash", TestEqWithoutHashObj, Object);
};

// The key of an object the hooks below are called with (always a T).
template <typename T>
int64_t KeyOf(const AnyView& v) {
  return static_cast<const T*>(v.as<Object>())->key;
}

// testing.TestCxxClassBase(v_i64, v_i32; both repr off) <- TestCxxClassDerived(+ v_f64,
// v_f32=8.0) <- TestCxxClassDerivedDerived(+ v_str="default", v_bool).
class TestCxxClassBaseObj : public Object {
 public:
  int64_t v_i64 = 0;
  int32_t v_i32 = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassBase", TestCxxClassBaseObj, Object);
};

class TestCxxClassDerivedObj : public TestCxxClassBaseObj {
 public:
  double v_f64 = 0.0;
  float v_f32 = 8.0f;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerived", TestCxxClassDerivedObj,
                              TestCxxClassBaseObj);
};

class TestCxxClassDerivedDerivedObj : public TestCxxClassDerivedObj {
 public:
  String v_str{"default"};
  bool v_bool = false;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerivedDerived", TestCxxClassDerivedDerivedObj,
                              TestCxxClassDerivedObj);
};

// Types whose __ffi_init__ is built from the fields' flags.
// required_field; optional_field=-1 and note="default", neither in init.
class TestCxxInitSubsetObj : public Object {
 public:
  int64_t required_field = 0;
  int64_t optional_field = -1;
  String note{"default"};
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxInitSubset", TestCxxInitSubsetObj, Object);
};

class TestCxxKwOnlyObj : public Object {  // keyword-only x, y, z, w=100
 public:
  int64_t x = 0, y = 0, z = 0, w = 100;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxKwOnly", TestCxxKwOnlyObj, Object);
};

class TestCxxAutoInitObj : public Object {  // a; b=42 not in init; keyword-only c; d=99
 public:
  int64_t a = 0, b = 42, c = 0, d = 99;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInit", TestCxxAutoInitObj, Object);
};

class TestCxxAutoInitSimpleObj : public Object {  // x, y
 public:
  int64_t x = 0, y = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitSimple", TestCxxAutoInitSimpleObj, Object);
};

class TestCxxAutoInitAllInitOffObj : public Object {  // x=7, y=9, z=1234, none in init
 public:
  int64_t x = 7, y = 9, z = 1234;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitAllInitOff", TestCxxAutoInitAllInitOffObj,
                              Object);
};

// p_required, p_default=11; keyword-only k_required, k_default=22; hidden=33 not in init.
class TestCxxAutoInitKwOnlyDefaultsObj : public Object {
 public:
  int64_t p_required = 0, p_default = 11, k_required = 0, k_default = 22, hidden = 33;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitKwOnlyDefaults",
                              TestCxxAutoInitKwOnlyDefaultsObj, Object);
};

class TestCxxNoAutoInitObj : public Object {  // x, y; no __ffi_init__
 public:
  int64_t x = 0, y = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxNoAutoInit", TestCxxNoAutoInitObj, Object);
};

class TestCxxAutoInitParentObj : public Object {  // parent_required, parent_default=5
 public:
  int64_t parent_required = 0, parent_default = 5;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitParent", TestCxxAutoInitParentObj, Object);
};

// + child_required, keyword-only child_kw_only
class TestCxxAutoInitChildObj : public TestCxxAutoInitParentObj {
 public:
  int64_t child_required = 0, child_kw_only = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxAutoInitChild", TestCxxAutoInitChildObj,
                              TestCxxAutoInitParentObj);
};

// testing.TestUnregisteredBaseObject(v1) <- TestUnregisteredObject(+ v2),
// with methods get_v1_plus_one and get_v2_plus_two; no Python class is bound
// to either (testing.make_unregistered_object returns one).
class TestUnregisteredBaseObj : public Object {
 public:
  int64_t v1 = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredBaseObject", TestUnregisteredBaseObj,
                              Object);
};

class TestUnregisteredObj : public TestUnregisteredBaseObj {
 public:
  int64_t v2 = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredObject", TestUnregisteredObj,
                              TestUnregisteredBaseObj);
};

class TestUnregisteredObject : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TestUnregisteredObject, ObjectRef,
                                             TestUnregisteredObj);
};

// testing.SchemaAllTypes: one field of each kind of type, and methods whose
// signatures (type schemas) cover the containers, Variant and Optional.
class SchemaAllTypesObj : public Object {
 public:
  bool v_bool = false;
  int64_t v_int = 0;
  double v_float = 0.0;
  DLDevice v_device{kDLCPU, 0};
  DLDataType v_dtype{kDLFloat, 32, 1};
  String v_string{""};
  Bytes v_bytes;
  Optional<int64_t> v_opt_int;
  Optional<String> v_opt_str;
  Array<int64_t> v_arr_int;
  Array<String> v_arr_str;
  Map<String, int64_t> v_map_str_int;
  Map<String, Array<int64_t>> v_map_str_arr_int;
  Variant<String, Array<int64_t>, Map<String, int64_t>> v_variant{String("")};
  Optional<Array<Variant<int64_t, String>>> v_opt_arr_variant;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SchemaAllTypes", SchemaAllTypesObj, Object);
};

class SchemaAllTypes : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(SchemaAllTypes, ObjectRef, SchemaAllTypesObj);
};

// testing.TestDeepCopyEdges: v_any (any value) and v_obj (an object), both
// default None; for deep copies of fields that hold containers or objects.
class TestDeepCopyEdgesObj : public Object {
 public:
  Any v_any;
  Any v_obj;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestDeepCopyEdges", TestDeepCopyEdgesObj, Object);
};

// testing.test_raise_error(kind, message): throws from a function whose name
// shows in the error's backtrace (TestRaiseError), unlike a lambda's.
__attribute__((noinline)) void TestRaiseError(const std::string& kind,
                                              const std::string& message) {
  throw Error(kind, message, TVMFFIBacktrace(nullptr, 0, nullptr, 0));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TestIntPairObj>("A pair of integers.", refl::init(false))
      .def_rw("a", &TestIntPairObj::a, "first")
      .def_rw("b", &TestIntPairObj::b, "second")
      .def("sum", &TestIntPairObj::Sum, "Returns a + b.")
      .def_static("__ffi_init__", InitOf<TestIntPairObj, int64_t, int64_t>(),
                  "Makes a TestIntPair(a, b).");
  KeepTestingAttrs<TestIntPairObj>();
  refl::ObjectDef<TestNonCopyableObj>("An object whose C++ class cannot be copied.",
                                      refl::init(false))
      .def_rw("value", &TestNonCopyableObj::value, "the value")
      .def_static("__ffi_init__", InitOf<TestNonCopyableObj, int64_t>(),
                  "Makes a TestNonCopyable(value).")
      .def_type_attr("__ffi_shallow_copy__", String(kNotCopyConstructible));
  KeepTestingAttrs<TestNonCopyableObj>();
  refl::ObjectDef<TestFrozenCxxObj>("An object whose fields Python must not assign.",
                                    refl::init(false))
      .def_rw("value", &TestFrozenCxxObj::value, "the value")
      .def_rw("tag", &TestFrozenCxxObj::tag, "a label");
  KeepTestingAttrs<TestFrozenCxxObj>(true, "Makes a TestFrozenCxx(value, tag).");
  refl::ObjectDef<TestObjectPtrHolderObj>("Holds an object and an optional object.",
                                          refl::init(false))
      .def_rw("value", &TestObjectPtrHolderObj::value, "an object")
      .def_rw("optional_value", &TestObjectPtrHolderObj::optional_value, "an object or None",
              refl::default_value(nullptr));
  KeepTestingAttrs<TestObjectPtrHolderObj>(
      true, "Makes a TestObjectPtrHolder(value, optional_value=None).");

  refl::ObjectDef<TestCustomHashObj>("Hashed by key only (__ffi_hash__).", refl::init(false))
      .def_rw("key", &TestCustomHashObj::key)
      .def_rw("label", &TestCustomHashObj::label)
      .def_static("__ffi_init__", InitOf<TestCustomHashObj, int64_t, String>())
      .def_type_attr("__ffi_hash__", Function::FromTyped([](AnyView self, Function fn_hash) {
                       return fn_hash(KeyOf<TestCustomHashObj>(self)).cast<int64_t>();
                     }));
  KeepTestingAttrs<TestCustomHashObj>();
  refl::ObjectDef<TestCustomCompareObj>(
      "Equal, ordered and hashed by key only (__ffi_eq__, __ffi_compare__, __ffi_hash__).",
      refl::init(false))
      .def_rw("key", &TestCustomCompareObj::key)
      .def_rw("label", &TestCustomCompareObj::label)
      .def_static("__ffi_init__", InitOf<TestCustomCompareObj, int64_t, String>())
      .def_type_attr("__ffi_hash__", Function::FromTyped([](AnyView self, Function fn_hash) {
                       return fn_hash(KeyOf<TestCustomCompareObj>(self)).cast<int64_t>();
                     }))
      .def_type_attr("__ffi_eq__",
                     Function::FromTyped([](AnyView a, AnyView b, Function fn_eq) {
                       return fn_eq(KeyOf<TestCustomCompareObj>(a), KeyOf<TestCustomCompareObj>(b))
                           .cast<bool>();
                     }))
      .def_type_attr("__ffi_compare__",
                     Function::FromTyped([](AnyView a, AnyView b, Function fn_cmp) {
                       return fn_cmp(KeyOf<TestCustomCompareObj>(a),
                                     KeyOf<TestCustomCompareObj>(b))
                           .cast<int64_t>();
                     }));
  KeepTestingAttrs<TestCustomCompareObj>();
  refl::ObjectDef<TestEqWithoutHashObj>("Equal by key only (__ffi_eq__), with no __ffi_hash__.",
                                        refl::init(false))
      .def_rw("key", &TestEqWithoutHashObj::key)
      .def_rw("label", &TestEqWithoutHashObj::label)
      .def_static("__ffi_init__", InitOf<TestEqWithoutHashObj, int64_t, String>())
      .def_type_attr("__ffi_eq__", Function::FromTyped([](AnyView a, AnyView b, Function fn_eq) {
                       return fn_eq(KeyOf<TestEqWithoutHashObj>(a), KeyOf<TestEqWithoutHashObj>(b))
                           .cast<bool>();
                     }));
  KeepTestingAttrs<TestEqWithoutHashObj>();

  // Upstream registers v_i64 and v_i32 with repr(false).
  refl::ObjectDef<TestCxxClassBaseObj>("Base of the TestCxxClass hierarchy.", refl::init(false))
      .def_rw("v_i64", &TestCxxClassBaseObj::v_i64, refl::repr(false))
      .def_rw("v_i32", &TestCxxClassBaseObj::v_i32, refl::repr(false));
  KeepTestingAttrs<TestCxxClassBaseObj>(true);
  // A type attribute of the base only, for lookups with and without ancestors.
  refl::TypeAttrDef<TestCxxClassBaseObj>().def("testing.where", String("TestCxxClassBase"));
  refl::ObjectDef<TestCxxClassDerivedObj>("TestCxxClassBase with v_f64 and v_f32=8.0.",
                                          refl::init(false))
      .def_rw("v_f64", &TestCxxClassDerivedObj::v_f64)
      .def_rw("v_f32", &TestCxxClassDerivedObj::v_f32, refl::default_value(8.0));
  KeepTestingAttrs<TestCxxClassDerivedObj>(true);
  refl::ObjectDef<TestCxxClassDerivedDerivedObj>(
      "TestCxxClassDerived with v_str='default' and v_bool.", refl::init(false))
      .def_rw("v_str", &TestCxxClassDerivedDerivedObj::v_str, refl::default_value("default"))
      .def_rw("v_bool", &TestCxxClassDerivedDerivedObj::v_bool);
  KeepTestingAttrs<TestCxxClassDerivedDerivedObj>(true);
  refl::ObjectDef<TestCxxInitSubsetObj>("Only required_field is an __ffi_init__ parameter.",
                                        refl::init(false))
      .def_rw("required_field", &TestCxxInitSubsetObj::required_field)
      .def_rw("optional_field", &TestCxxInitSubsetObj::optional_field,
              refl::default_value(int64_t(-1)), refl::init(false))
      .def_rw("note", &TestCxxInitSubsetObj::note, refl::default_value("default"),
              refl::init(false));
  KeepTestingAttrs<TestCxxInitSubsetObj>(true);
  refl::ObjectDef<TestCxxKwOnlyObj>("Keyword-only x, y, z and w=100.", refl::init(false))
      .def_rw("x", &TestCxxKwOnlyObj::x, refl::kw_only(true))
      .def_rw("y", &TestCxxKwOnlyObj::y, refl::kw_only(true))
      .def_rw("z", &TestCxxKwOnlyObj::z, refl::kw_only(true))
      .def_rw("w", &TestCxxKwOnlyObj::w, refl::default_value(int64_t(100)), refl::kw_only(true));
  KeepTestingAttrs<TestCxxKwOnlyObj>(true);
  refl::ObjectDef<TestCxxAutoInitObj>("a; b=42 (not in init); keyword-only c; d=99.",
                                      refl::init(false))
      .def_rw("a", &TestCxxAutoInitObj::a)
      .def_rw("b", &TestCxxAutoInitObj::b, refl::default_value(int64_t(42)), refl::init(false))
      .def_rw("c", &TestCxxAutoInitObj::c, refl::kw_only(true))
      .def_rw("d", &TestCxxAutoInitObj::d, refl::default_value(int64_t(99)));
  KeepTestingAttrs<TestCxxAutoInitObj>(true);
  refl::ObjectDef<TestCxxAutoInitSimpleObj>("x, y.", refl::init(false))
      .def_rw("x", &TestCxxAutoInitSimpleObj::x)
      .def_rw("y", &TestCxxAutoInitSimpleObj::y);
  KeepTestingAttrs<TestCxxAutoInitSimpleObj>(true);
  refl::ObjectDef<TestCxxAutoInitAllInitOffObj>("x=7, y=9, z=1234, none an __ffi_init__ parameter.",
                                                refl::init(false))
      .def_rw("x", &TestCxxAutoInitAllInitOffObj::x, refl::default_value(int64_t(7)),
              refl::init(false))
      .def_rw("y", &TestCxxAutoInitAllInitOffObj::y, refl::default_value(int64_t(9)),
              refl::init(false))
      .def_rw("z", &TestCxxAutoInitAllInitOffObj::z, refl::default_value(int64_t(1234)),
              refl::init(false));
  KeepTestingAttrs<TestCxxAutoInitAllInitOffObj>(true);
  refl::ObjectDef<TestCxxAutoInitKwOnlyDefaultsObj>(
      "p_required, p_default=11; keyword-only k_required, k_default=22; hidden=33.",
      refl::init(false))
      .def_rw("p_required", &TestCxxAutoInitKwOnlyDefaultsObj::p_required)
      .def_rw("p_default", &TestCxxAutoInitKwOnlyDefaultsObj::p_default,
              refl::default_value(int64_t(11)))
      .def_rw("k_required", &TestCxxAutoInitKwOnlyDefaultsObj::k_required, refl::kw_only(true))
      .def_rw("k_default", &TestCxxAutoInitKwOnlyDefaultsObj::k_default,
              refl::default_value(int64_t(22)), refl::kw_only(true))
      .def_rw("hidden", &TestCxxAutoInitKwOnlyDefaultsObj::hidden,
              refl::default_value(int64_t(33)), refl::init(false));
  KeepTestingAttrs<TestCxxAutoInitKwOnlyDefaultsObj>(true);
  refl::ObjectDef<TestCxxNoAutoInitObj>("x, y; no __ffi_init__.", refl::init(false))
      .def_rw("x", &TestCxxNoAutoInitObj::x)
      .def_rw("y", &TestCxxNoAutoInitObj::y);
  KeepTestingAttrs<TestCxxNoAutoInitObj>();
  refl::ObjectDef<TestCxxAutoInitParentObj>("parent_required, parent_default=5.", refl::init(false))
      .def_rw("parent_required", &TestCxxAutoInitParentObj::parent_required)
      .def_rw("parent_default", &TestCxxAutoInitParentObj::parent_default,
              refl::default_value(int64_t(5)));
  KeepTestingAttrs<TestCxxAutoInitParentObj>(true);
  refl::ObjectDef<TestCxxAutoInitChildObj>(
      "The parent's fields, child_required, keyword-only child_kw_only.", refl::init(false))
      .def_rw("child_required", &TestCxxAutoInitChildObj::child_required)
      .def_rw("child_kw_only", &TestCxxAutoInitChildObj::child_kw_only, refl::kw_only(true));
  KeepTestingAttrs<TestCxxAutoInitChildObj>(true);
  refl::ObjectDef<SchemaAllTypesObj>("One field of each kind of type.", refl::init(false))
      .def_rw("v_bool", &SchemaAllTypesObj::v_bool)
      .def_rw("v_int", &SchemaAllTypesObj::v_int)
      .def_rw("v_float", &SchemaAllTypesObj::v_float)
      .def_rw("v_device", &SchemaAllTypesObj::v_device)
      .def_rw("v_dtype", &SchemaAllTypesObj::v_dtype)
      .def_rw("v_string", &SchemaAllTypesObj::v_string)
      .def_rw("v_bytes", &SchemaAllTypesObj::v_bytes)
      .def_rw("v_opt_int", &SchemaAllTypesObj::v_opt_int)
      .def_rw("v_opt_str", &SchemaAllTypesObj::v_opt_str)
      .def_rw("v_arr_int", &SchemaAllTypesObj::v_arr_int)
      .def_rw("v_arr_str", &SchemaAllTypesObj::v_arr_str)
      .def_rw("v_map_str_int", &SchemaAllTypesObj::v_map_str_int)
      .def_rw("v_map_str_arr_int", &SchemaAllTypesObj::v_map_str_arr_int)
      .def_rw("v_variant", &SchemaAllTypesObj::v_variant)
      .def_rw("v_opt_arr_variant", &SchemaAllTypesObj::v_opt_arr_variant)
      .def("add_int", [](const SchemaAllTypesObj* self, int64_t x) { return self->v_int + x; },
           "v_int + x.")
      .def(
          "append_int",
          [](const SchemaAllTypesObj*, Array<int64_t> xs, int64_t x) {
            xs.push_back(x);
            return xs;
          },
          "xs with x appended.")
      .def(
          "maybe_concat",
          [](const SchemaAllTypesObj*, Optional<String> a, Optional<String> b) -> Optional<String> {
            if (!a.has_value()) return b;
            if (!b.has_value()) return a;
            return String(std::string(*a) + std::string(*b));
          },
          "a + b; either alone when the other is None; None when both are.")
      .def(
          "merge_map",
          [](const SchemaAllTypesObj*, Map<String, Array<int64_t>> a,
             Map<String, Array<int64_t>> b) {
            Map<String, Array<int64_t>> out;
            for (const auto& kv : a) out.Set(kv.first, kv.second);
            for (const auto& kv : b) out.Set(kv.first, kv.second);
            return out;
          },
          "The pairs of a, then those of b (b wins on equal keys).")
      .def_static(
          "make_with",
          [](int64_t v_int, double v_float, String v_string) {
            ObjectPtr<SchemaAllTypesObj> obj = make_object<SchemaAllTypesObj>();
            obj->v_int = v_int;
            obj->v_float = v_float;
            obj->v_string = std::move(v_string);
            return SchemaAllTypes(std::move(obj));
          },
          "A SchemaAllTypes with v_int, v_float and v_string set.");
  KeepTestingAttrs<SchemaAllTypesObj>();
  refl::ObjectDef<TestDeepCopyEdgesObj>("Fields of any value and of an object, for deep copies.",
                                        refl::init(false))
      .def_rw("v_any", &TestDeepCopyEdgesObj::v_any, "any value", refl::default_value(nullptr))
      .def_rw("v_obj", &TestDeepCopyEdgesObj::v_obj, "an object", refl::default_value(nullptr));
  KeepTestingAttrs<TestDeepCopyEdgesObj>(true);
  refl::ObjectDef<TestUnregisteredBaseObj>("A type no Python class is bound to.",
                                           refl::init(false))
      .def_rw("v1", &TestUnregisteredBaseObj::v1)
      .def(
          "get_v1_plus_one", [](const TestUnregisteredBaseObj* self) { return self->v1 + 1; },
          "Get (v1 + 1) from TestUnregisteredBaseObject.");
  KeepTestingAttrs<TestUnregisteredBaseObj>();
  refl::ObjectDef<TestUnregisteredObj>("A derived type no Python class is bound to.",
                                       refl::init(false))
      .def_rw("v2", &TestUnregisteredObj::v2)
      .def(
          "get_v2_plus_two", [](const TestUnregisteredObj* self) { return self->v2 + 2; },
          "Get (v2 + 2) from TestUnregisteredObject.");
  KeepTestingAttrs<TestUnregisteredObj>();

  refl::GlobalDef()
      .def("testing.TestIntPairSum", [](TestIntPair p) -> int64_t { return p->a + p->b; })
      .def("testing.test_raise_error",
           [](const std::string& kind, const std::string& message) {
             TestRaiseError(kind, message);
           })
      .def("testing.make_unregistered_object", []() {
        ObjectPtr<TestUnregisteredObj> obj = make_object<TestUnregisteredObj>();
        obj->v1 = 41;
        obj->v2 = 42;
        return TestUnregisteredObject(std::move(obj));
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

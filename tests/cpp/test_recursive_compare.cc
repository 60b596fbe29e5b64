// ffi.RecursiveEq/Lt/Le/Gt/Ge/Hash: content comparison and hashing.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using namespace test_util;

namespace {

// `note` takes no part in comparison, `cache` none in hashing.
class RcPointObj : public Object {
 public:
  int64_t x = 0;
  Any y;
  String note;
  int64_t cache = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.Point", RcPointObj, Object);
};

// A subtype adding one field after the parent's.
class RcPoint3Obj : public RcPointObj {
 public:
  int64_t z = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.Point3", RcPoint3Obj, RcPointObj);
};

class RcEmptyObj : public Object {
 public:
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.Empty", RcEmptyObj, Object);
};

// Compared through hooks: equality and hash by `key` only (through the
// callbacks), order by `key` descending; `label` is ignored by all three.
class RcLabelObj : public Object {
 public:
  Any key;
  String label;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.Label", RcLabelObj, Object);
};

// Only __ffi_compare__: equality follows it.
class RcCmpOnlyObj : public Object {
 public:
  int64_t key = 0;
  int64_t other = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.CmpOnly", RcCmpOnlyObj, Object);
};

const RcLabelObj* AsLabel(const AnyView& v) {
  return static_cast<const RcLabelObj*>(ObjectOf(RawOf(v)->v_obj));
}

void RegisterOnce() {
  static const bool done = [] {
    refl::ObjectDef<RcPointObj>()
        .def_rw("x", &RcPointObj::x)
        .def_rw("y", &RcPointObj::y)
        .def_rw("note", &RcPointObj::note, refl::AttachFieldFlag(kTVMFFIFieldFlagBitMaskCompareOff))
        .def_rw("cache", &RcPointObj::cache, refl::AttachFieldFlag(kTVMFFIFieldFlagBitMaskHashOff));
    refl::ObjectDef<RcPoint3Obj>().def_rw("z", &RcPoint3Obj::z);
    refl::ObjectDef<RcEmptyObj>();
    refl::ObjectDef<RcLabelObj>()
        .def_rw("key", &RcLabelObj::key)
        .def_rw("label", &RcLabelObj::label)
        .def_type_attr("__ffi_eq__", Function::FromTyped([](AnyView a, AnyView b, Function fn_eq) {
                return fn_eq(AsLabel(a)->key, AsLabel(b)->key).cast<bool>();
              }))
        .def_type_attr("__ffi_hash__", Function::FromTyped([](AnyView a, Function fn_hash) {
                return fn_hash(AsLabel(a)->key).cast<int64_t>();
              }))
        .def_type_attr("__ffi_compare__", Function::FromTyped([](AnyView a, AnyView b, Function fn_cmp) {
                return -fn_cmp(AsLabel(a)->key, AsLabel(b)->key).cast<int64_t>();
              }));
    refl::ObjectDef<RcCmpOnlyObj>()
        .def_rw("key", &RcCmpOnlyObj::key)
        .def_rw("other", &RcCmpOnlyObj::other)
        .def_type_attr("__ffi_compare__", Function::FromTyped([](AnyView a, AnyView b, Function) {
                auto key = [](const AnyView& v) {
                  return static_cast<const RcCmpOnlyObj*>(ObjectOf(RawOf(v)->v_obj))->key;
                };
                return key(a) < key(b) ? -1 : (key(a) > key(b) ? 1 : 0);
              }));
    return true;
  }();
  (void)done;
}

Any Point(int64_t x, Any y = Any(), const char* note = "", int64_t cache = 0) {
  RegisterOnce();
  ObjectPtr<RcPointObj> p = make_object<RcPointObj>();
  p->x = x;
  p->y = std::move(y);
  p->note = String(note);
  p->cache = cache;
  return Any(ObjectRef(std::move(p)));
}

Any Point3(int64_t x, int64_t z) {
  RegisterOnce();
  ObjectPtr<RcPoint3Obj> p = make_object<RcPoint3Obj>();
  p->x = x;
  p->z = z;
  return Any(ObjectRef(std::move(p)));
}

Any Label(Any key, const char* label) {
  RegisterOnce();
  ObjectPtr<RcLabelObj> p = make_object<RcLabelObj>();
  p->key = std::move(key);
  p->label = String(label);
  return Any(ObjectRef(std::move(p)));
}

Any CmpOnly(int64_t key, int64_t other) {
  RegisterOnce();
  ObjectPtr<RcCmpOnlyObj> p = make_object<RcCmpOnlyObj>();
  p->key = key;
  p->other = other;
  return Any(ObjectRef(std::move(p)));
}

bool Eq(const Any& a, const Any& b) { return Call("ffi.RecursiveEq", a, b).cast<bool>(); }
bool Lt(const Any& a, const Any& b) { return Call("ffi.RecursiveLt", a, b).cast<bool>(); }
bool Le(const Any& a, const Any& b) { return Call("ffi.RecursiveLe", a, b).cast<bool>(); }
bool Gt(const Any& a, const Any& b) { return Call("ffi.RecursiveGt", a, b).cast<bool>(); }
bool Ge(const Any& a, const Any& b) { return Call("ffi.RecursiveGe", a, b).cast<bool>(); }
int64_t Hash(const Any& a) { return Call("ffi.RecursiveHash", a).cast<int64_t>(); }

// The four orderings agree with a three-way result.
void CheckOrder(const Any& a, const Any& b, int expected) {
  CHECK(Lt(a, b) == (expected < 0));
  CHECK(Le(a, b) == (expected <= 0));
  CHECK(Gt(a, b) == (expected > 0));
  CHECK(Ge(a, b) == (expected >= 0));
  CHECK(Lt(b, a) == (expected > 0));
}

std::string LtError(const Any& a, const Any& b) {
  return ThrownBy([&] { Lt(a, b); });
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("RecursiveCompare: plain values", "[recursive_compare]") {
  CHECK(Eq(Any(int64_t(3)), Any(int64_t(3))));
  CHECK_FALSE(Eq(Any(int64_t(3)), Any(int64_t(4))));
  CheckOrder(Any(int64_t(-5)), Any(int64_t(2)), -1);
  CheckOrder(Any(2.5), Any(2.5), 0);
  CheckOrder(Any(false), Any(true), -1);
  CheckOrder(Any("abc"), Any("abd"), -1);
  CheckOrder(Any("ab"), Any("abc"), -1);  // a prefix first
  CheckOrder(Any(""), Any("a"), -1);
  // Bytes are unsigned: 0x01 < 0xff.
  CheckOrder(Any(Bytes("\x01", 1)), Any(Bytes("\xff", 1)), -1);
  CheckOrder(Any(DType(0, 8)), Any(DType(0, 32)), -1);   // bits after code
  CheckOrder(Any(DType(2, 32)), Any(DType(0, 32)), 1);   // code first
  CheckOrder(Any(DType(0, 32, 2)), Any(DType(0, 32, 4)), -1);
  DLDevice cpu0{kDLCPU, 0}, cpu1{kDLCPU, 1}, cuda0{kDLCUDA, 0};
  CheckOrder(Any(cpu0), Any(cpu1), -1);
  CheckOrder(Any(cuda0), Any(cpu1), 1);
  CHECK(Eq(Any(cpu0), Any(DLDevice{kDLCPU, 0})));
}

TEST_CASE("RecursiveCompare: strings in either form are one kind", "[recursive_compare]") {
  std::string long_text(100, 'a');
  Any small("aaa");
  Any big{String(long_text)};
  REQUIRE(small.type_index() == kTVMFFISmallStr);
  REQUIRE(big.type_index() == kTVMFFIStr);
  CHECK(Eq(Any(String(long_text)), big));
  CHECK(Hash(Any(String(long_text))) == Hash(big));
  CheckOrder(small, big, -1);  // "aaa" is a prefix
  CHECK_FALSE(Eq(Any("a"), Any(Bytes("a", 1))));
  CHECK(LtError(Any("a"), Any(Bytes("a", 1))) ==
        "TypeError: Cannot compare values of different types: str vs bytes");
}

TEST_CASE("RecursiveCompare: different kinds are unequal and unordered", "[recursive_compare]") {
  CHECK_FALSE(Eq(Any(int64_t(1)), Any(1.0)));
  CHECK_FALSE(Eq(Any(int64_t(1)), Any(true)));
  CHECK_FALSE(Eq(Any(int64_t(1)), Any("1")));
  CHECK(LtError(Any(int64_t(1)), Any(2.5)) ==
        "TypeError: Cannot compare values of different types: int vs float");
  CHECK(LtError(Any(true), Any(int64_t(2))) ==
        "TypeError: Cannot compare values of different types: bool vs int");
  CHECK(ThrownBy([] { Ge(Any(int64_t(1)), Any("a")); }) ==
        "TypeError: Cannot compare values of different types: int vs str");
  // An Array and a List with the same items are different kinds.
  Any arr(Array<Any>{Any(int64_t(1))});
  Any lst(List<Any>{Any(int64_t(1))});
  CHECK_FALSE(Eq(arr, lst));
  CHECK(LtError(arr, lst) ==
        "TypeError: Cannot compare values of different types: ffi.Array vs ffi.List");
  CHECK_FALSE(Eq(Any(Shape{1, 2}), Any(Array<Any>{Any(int64_t(1)), Any(int64_t(2))})));
}

TEST_CASE("RecursiveCompare: None sorts first", "[recursive_compare]") {
  CHECK(Eq(Any(), Any()));
  CHECK_FALSE(Eq(Any(), Any(int64_t(0))));
  CheckOrder(Any(), Any(int64_t(0)), -1);
  CheckOrder(Any(), Any("x"), -1);
  CheckOrder(Any(), Point(1), -1);
  CheckOrder(Any(), Any(), 0);
}

TEST_CASE("RecursiveCompare: floats, NaN and signed zero", "[recursive_compare]") {
  CHECK(Eq(Any(kNaN), Any(kNaN)));
  CHECK(Hash(Any(kNaN)) == Hash(Any(-kNaN)));
  CHECK(Eq(Any(-0.0), Any(0.0)));
  CHECK(Hash(Any(-0.0)) == Hash(Any(0.0)));
  CheckOrder(Any(-0.0), Any(0.0), 0);
  CheckOrder(Any(-std::numeric_limits<double>::infinity()), Any(0.0), -1);
  CHECK(LtError(Any(kNaN), Any(1.0)) == "TypeError: Cannot order NaN values");
  CHECK(ThrownBy([] { Le(Any(kNaN), Any(kNaN)); }) == "TypeError: Cannot order NaN values");
  // Inside containers too; equality still holds.
  Any a(Array<Any>{Any(kNaN)});
  Any b(Array<Any>{Any(kNaN)});
  CHECK(Eq(a, b));
  CHECK(Hash(a) == Hash(b));
  CHECK(LtError(a, b) == "TypeError: Cannot order NaN values");
  // An earlier difference decides before the NaN is reached.
  CHECK(Lt(Any(Array<Any>{Any(1.0), Any(kNaN)}), Any(Array<Any>{Any(2.0), Any(kNaN)})));
}

TEST_CASE("RecursiveCompare: big integers", "[recursive_compare]") {
  int64_t two70[2] = {0, 64};       // 2^70
  int64_t two71[2] = {0, 128};      // 2^71
  int64_t neg70[2] = {0, -64};      // -2^70
  Any b70 = BigIntFromWords(two70, 2);
  Any b71 = BigIntFromWords(two71, 2);
  Any n70 = BigIntFromWords(neg70, 2);
  REQUIRE(b70.type_index() == kTVMFFIBigInt);
  CHECK(Eq(b70, BigIntFromWords(two70, 2)));
  CHECK(Hash(b70) == Hash(BigIntFromWords(two70, 2)));
  CHECK_FALSE(Eq(b70, b71));
  CheckOrder(b70, b71, -1);
  CheckOrder(Any(int64_t(5)), b70, -1);
  CheckOrder(n70, Any(int64_t(-5)), -1);
  CheckOrder(n70, b70, -1);
  CHECK_FALSE(Eq(Any(int64_t(5)), b70));
}

TEST_CASE("RecursiveCompare: sequences and shapes", "[recursive_compare]") {
  auto ints = [](std::initializer_list<int64_t> v) {
    Array<Any> a;
    for (int64_t x : v) a.push_back(Any(x));
    return Any(a);
  };
  CHECK(Eq(ints({1, 2, 3}), ints({1, 2, 3})));
  CHECK(Hash(ints({1, 2, 3})) == Hash(ints({1, 2, 3})));
  CHECK(Hash(ints({1, 2, 3})) != Hash(ints({3, 2, 1})));
  CheckOrder(ints({1, 2}), ints({1, 2, 3}), -1);
  CheckOrder(ints({1, 3}), ints({1, 2, 3}), 1);
  CheckOrder(ints({}), ints({}), 0);
  CheckOrder(ints({}), ints({0}), -1);
  CHECK(Eq(Any(List<Any>{Any(int64_t(1)), Any("x")}), Any(List<Any>{Any(int64_t(1)), Any("x")})));
  // Mixed items: the first difference decides; a kind clash there raises.
  CHECK(Lt(Any(Array<Any>{Any(int64_t(1)), Any("a")}), Any(Array<Any>{Any(int64_t(2)), Any(int64_t(2))})));
  CHECK(LtError(Any(Array<Any>{Any(int64_t(1)), Any("a")}),
                Any(Array<Any>{Any(int64_t(1)), Any(int64_t(2))})) ==
        "TypeError: Cannot compare values of different types: str vs int");
  CHECK(Eq(Any(Shape{1, 2}), Any(Shape{1, 2})));
  CHECK(Hash(Any(Shape{1, 2})) == Hash(Any(Shape{1, 2})));
  CheckOrder(Any(Shape{1, 2}), Any(Shape{1, 3}), -1);
  CheckOrder(Any(Shape{1}), Any(Shape{1, 0}), -1);
}

TEST_CASE("RecursiveCompare: maps compare by content and have no order", "[recursive_compare]") {
  Any m1(Map<Any, Any>{{Any("a"), Any(int64_t(1))}, {Any("b"), Any(Array<Any>{Any(int64_t(2))})}});
  Any m2(Map<Any, Any>{{Any("b"), Any(Array<Any>{Any(int64_t(2))})}, {Any("a"), Any(int64_t(1))}});
  Any m3(Map<Any, Any>{{Any("a"), Any(int64_t(1))}});
  Any m4(Map<Any, Any>{{Any("a"), Any(int64_t(2))}});
  CHECK(Eq(m1, m2));  // insertion order does not matter
  CHECK(Hash(m1) == Hash(m2));
  CHECK_FALSE(Eq(m1, m3));
  CHECK_FALSE(Eq(m3, m4));
  CHECK_FALSE(Eq(m3, Any(Map<Any, Any>{{Any("b"), Any(int64_t(1))}})));
  // Equal maps are ordered equal; unequal ones cannot be ordered.
  CHECK(Le(m1, m2));
  CHECK(Ge(m1, m2));
  CHECK_FALSE(Lt(m1, m2));
  CHECK(LtError(m3, m4) == "TypeError: Cannot order Map/Dict values");
  CHECK(ThrownBy([&] { Le(m3, m4); }) == "TypeError: Cannot order Map/Dict values");
  // A map inside a sequence after an earlier difference is not reached.
  CHECK(Lt(Any(Array<Any>{Any(int64_t(1)), m3}), Any(Array<Any>{Any(int64_t(2)), m4})));
  Any d1(Dict<Any, Any>{{Any("a"), Any(int64_t(1))}});
  Any d2(Dict<Any, Any>{{Any("a"), Any(int64_t(1))}});
  CHECK(Eq(d1, d2));
  CHECK(Hash(d1) == Hash(d2));
  CHECK_FALSE(Eq(d1, m3));  // a Dict is not a Map
  CHECK(LtError(d1, m3) ==
        "TypeError: Cannot compare values of different types: ffi.Dict vs ffi.Map");
}

TEST_CASE("RecursiveCompare: reflected fields, CompareOff and HashOff", "[recursive_compare]") {
  // note is CompareOff: ignored by equality, ordering and hashing.
  CHECK(Eq(Point(1, Any("y"), "left"), Point(1, Any("y"), "right")));
  CHECK(Hash(Point(1, Any("y"), "left")) == Hash(Point(1, Any("y"), "right")));
  CheckOrder(Point(1, Any("y"), "zzz"), Point(1, Any("y"), "aaa"), 0);
  // cache is HashOff only: compared, not hashed.
  CHECK_FALSE(Eq(Point(1, Any(), "", 1), Point(1, Any(), "", 2)));
  CHECK(Hash(Point(1, Any(), "", 1)) == Hash(Point(1, Any(), "", 2)));
  CheckOrder(Point(1, Any(), "", 1), Point(1, Any(), "", 2), -1);
  // Fields in declaration order: x decides before y.
  CheckOrder(Point(1, Any("z")), Point(2, Any("a")), -1);
  CheckOrder(Point(1, Any("a")), Point(1, Any("b")), -1);
  CHECK(Hash(Point(1)) != Hash(Point(2)));
  // Nested objects.
  CHECK(Eq(Point(1, Point(2)), Point(1, Point(2))));
  CHECK_FALSE(Eq(Point(1, Point(2)), Point(1, Point(3))));
  CheckOrder(Point(1, Point(2)), Point(1, Point(3)), -1);
  // None in a field sorts first.
  CheckOrder(Point(1, Any()), Point(1, Any(int64_t(0))), -1);
}

TEST_CASE("RecursiveCompare: parent fields first, and subtypes differ", "[recursive_compare]") {
  CHECK(Eq(Point3(1, 2), Point3(1, 2)));
  CHECK(Hash(Point3(1, 2)) == Hash(Point3(1, 2)));
  CheckOrder(Point3(1, 9), Point3(2, 0), -1);  // the parent's x before z
  CheckOrder(Point3(1, 1), Point3(1, 2), -1);
  // A parent and a subtype instance are different types.
  CHECK_FALSE(Eq(Point(1), Point3(1, 0)));
  CHECK(LtError(Point(1), Point3(1, 0)) ==
        "TypeError: Cannot compare values of different types: rctest.Point vs rctest.Point3");
  CHECK(LtError(Point(1), Any(int64_t(1))) ==
        "TypeError: Cannot compare values of different types: rctest.Point vs int");
  CHECK(Hash(Point(1)) != Hash(Point3(1, 0)));
}

TEST_CASE("RecursiveCompare: objects without fields, and identity kinds", "[recursive_compare]") {
  RegisterOnce();
  Any e1(ObjectRef(make_object<RcEmptyObj>()));
  Any e2(ObjectRef(make_object<RcEmptyObj>()));
  CHECK(Eq(e1, e2));  // as two instances of an empty dataclass
  CHECK(Hash(e1) == Hash(e2));
  CheckOrder(e1, e2, 0);
  // Functions (like tensors, errors, modules, opaque objects) by identity.
  Any f(Function::GetGlobalRequired("ffi.RecursiveEq"));
  Any g(Function::GetGlobalRequired("ffi.RecursiveHash"));
  CHECK(Eq(f, f));
  CHECK_FALSE(Eq(f, g));
  CHECK(Hash(f) == Hash(Any(Function::GetGlobalRequired("ffi.RecursiveEq"))));
  CheckOrder(f, f, 0);
  CHECK(LtError(f, g) == "TypeError: Cannot order ffi.Function values (they are compared by identity)");
}

TEST_CASE("RecursiveCompare: reference cycles", "[recursive_compare]") {
  // a = [1, a] and b = [1, b]: equal, hashed alike, no infinite walk.
  List a{Any(int64_t(1))};
  a.push_back(Any(a));
  List b{Any(int64_t(1))};
  b.push_back(Any(b));
  List c{Any(int64_t(2))};
  c.push_back(Any(c));
  CHECK(Eq(Any(a), Any(a)));
  CHECK(Eq(Any(a), Any(b)));
  CHECK_FALSE(Eq(Any(a), Any(c)));
  CHECK(Hash(Any(a)) == Hash(Any(b)));
  CHECK(Hash(Any(a)) != Hash(Any(c)));
  CHECK(Lt(Any(a), Any(c)));  // decided before the cycle
  CHECK_FALSE(Lt(Any(a), Any(a)));  // the same object
  CHECK(LtError(Any(a), Any(b)) ==
        "ValueError: ffi.RecursiveLt: cyclic reference detected in ordering (a ffi.List "
        "contains itself)");
  // Through a reflected field.
  Any p = Point(1);
  Any q = Point(1);
  static_cast<RcPointObj*>(ObjectOf(RawOf(p)->v_obj))->y = p;
  static_cast<RcPointObj*>(ObjectOf(RawOf(q)->v_obj))->y = q;
  CHECK(Eq(p, q));
  CHECK(Hash(p) == Hash(q));
  CHECK(ThrownBy([&] { Ge(p, q); }).rfind("ValueError: ffi.RecursiveGe: cyclic reference", 0) == 0);
  // Maps have no order, only equality; a cycle there has no answer either.
  Dict<Any, Any> da, db;
  da.Set(Any("self"), Any(da));
  db.Set(Any("self"), Any(db));
  CHECK(Eq(Any(da), Any(db)));
  CHECK(LtError(Any(da), Any(db)) ==
        "ValueError: ffi.RecursiveLt: cyclic reference detected in ordering (a ffi.Dict "
        "contains itself)");
  da.clear();
  db.clear();
  // Break the cycles so the objects are freed.
  static_cast<RcPointObj*>(ObjectOf(RawOf(p)->v_obj))->y = Any();
  static_cast<RcPointObj*>(ObjectOf(RawOf(q)->v_obj))->y = Any();
  for (List<Any>* l : {&a, &b, &c}) l->clear();
}

TEST_CASE("RecursiveCompare: too deep nesting is an error", "[recursive_compare]") {
  Any v(int64_t(0));
  Any w(int64_t(0));
  for (int i = 0; i < 3000; ++i) {
    v = Any(Array<Any>{v});
    w = Any(Array<Any>{w});
  }
  CHECK(ThrownBy([&] { Eq(v, w); }).rfind("RecursionError: ffi.RecursiveEq:", 0) == 0);
  CHECK(ThrownBy([&] { Hash(v); }).rfind("RecursionError: ffi.RecursiveHash:", 0) == 0);
  CHECK(ThrownBy([&] { Lt(v, w); }).rfind("RecursionError: ffi.RecursiveLt:", 0) == 0);
}

TEST_CASE("RecursiveCompare: argument errors", "[recursive_compare]") {
  CHECK(ThrownBy([] { Call("ffi.RecursiveEq", Any(int64_t(1))); }) ==
        "TypeError: Mismatched number of arguments when calling: `ffi.RecursiveEq(0: Any, 1: Any) -> "
        "bool`. Expected 2 but got 1 arguments");
  CHECK(ThrownBy([] { Call("ffi.RecursiveHash"); }) ==
        "TypeError: Mismatched number of arguments when calling: `ffi.RecursiveHash(0: Any) -> int`. "
        "Expected 1 but got 0 arguments");
}

TEST_CASE("RecursiveCompare: __ffi_eq__, __ffi_hash__ and __ffi_compare__ hooks",
          "[recursive_compare]") {
  CHECK(Eq(Label(Any(int64_t(1)), "a"), Label(Any(int64_t(1)), "b")));
  CHECK_FALSE(Eq(Label(Any(int64_t(1)), "a"), Label(Any(int64_t(2)), "a")));
  CHECK(Hash(Label(Any(int64_t(1)), "a")) == Hash(Label(Any(int64_t(1)), "b")));
  CHECK(Hash(Label(Any(int64_t(1)), "a")) != Hash(Label(Any(int64_t(2)), "a")));
  // The callbacks walk nested values by content.
  Any nested1 = Label(Any(Array<Any>{Any("x"), Point(3)}), "a");
  Any nested2 = Label(Any(Array<Any>{Any("x"), Point(3)}), "b");
  CHECK(Eq(nested1, nested2));
  CHECK(Hash(nested1) == Hash(nested2));
  // Descending by key, as the hook says.
  CheckOrder(Label(Any(int64_t(1)), "a"), Label(Any(int64_t(2)), "a"), 1);
  CheckOrder(Label(Any(int64_t(1)), "a"), Label(Any(int64_t(1)), "z"), 0);
  // Errors inside a callback reach the caller.
  CHECK(LtError(Label(Any(int64_t(1)), "a"), Label(Any("s"), "a")) ==
        "TypeError: Cannot compare values of different types: int vs str");
  // Only __ffi_compare__: it decides equality too.
  CHECK(Eq(CmpOnly(1, 5), CmpOnly(1, 6)));
  CHECK_FALSE(Eq(CmpOnly(1, 5), CmpOnly(2, 5)));
  CheckOrder(CmpOnly(1, 9), CmpOnly(2, 0), -1);
  // Without __ffi_hash__, a field-wise hash could differ for values the hook
  // calls equal (other=5 vs 6 above): hashing refuses, also when nested.
  const std::string no_hash =
      "ValueError: ffi.RecursiveHash: type 'rctest.CmpOnly' defines __ffi_eq__ or "
      "__ffi_compare__ but not __ffi_hash__; register a __ffi_hash__ hook consistent with "
      "them (values equal under RecursiveEq must hash alike)";
  CHECK(ThrownBy([] { Hash(CmpOnly(1, 5)); }) == no_hash);
  CHECK(ThrownBy([] { Hash(Any(Array<Any>{Any(int64_t(0)), CmpOnly(1, 5)})); }) == no_hash);
}

namespace {
// Hooks that keep the callback they receive.
class RcKeepObj : public Object {
 public:
  int64_t key = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.Keep", RcKeepObj, Object);
};

Function* Kept(int which) {
  static Function kept[3];
  return &kept[which];
}

Any Keep(int64_t key) {
  static const bool done = [] {
    auto key_of = [](const AnyView& v) {
      return static_cast<const RcKeepObj*>(ObjectOf(RawOf(v)->v_obj))->key;
    };
    refl::ObjectDef<RcKeepObj>()
        .def_rw("key", &RcKeepObj::key)
        .def_type_attr("__ffi_eq__", Function::FromTyped([key_of](AnyView a, AnyView b, Function fn) {
                *Kept(0) = fn;
                return key_of(a) == key_of(b);
              }))
        .def_type_attr("__ffi_hash__", Function::FromTyped([key_of](AnyView a, Function fn) {
                *Kept(1) = fn;
                return key_of(a);
              }))
        .def_type_attr("__ffi_compare__", Function::FromTyped([key_of](AnyView a, AnyView b, Function fn) {
                *Kept(2) = fn;
                return key_of(a) < key_of(b) ? -1 : (key_of(a) > key_of(b) ? 1 : 0);
              }));
    return true;
  }();
  (void)done;
  ObjectPtr<RcKeepObj> k = make_object<RcKeepObj>();
  k->key = key;
  return Any(ObjectRef(std::move(k)));
}
}  // namespace

TEST_CASE("RecursiveCompare: a callback kept by a hook raises once the hook returned",
          "[recursive_compare]") {
  CHECK(Eq(Keep(1), Keep(1)));
  CHECK(Hash(Keep(1)) == Hash(Keep(1)));
  CHECK(Call("ffi.RecursiveLt", Keep(1), Keep(2)).cast<bool>());
  const char* names[3] = {"fn_eq", "fn_hash", "fn_cmp"};
  for (int i = 0; i < 3; ++i) {
    REQUIRE(Kept(i)->defined());
    std::string want = std::string("RuntimeError: ") + names[i] +
                       " was called after the hook that received it had returned";
    CHECK(ThrownBy([&] { (*Kept(i))(Any(int64_t(1)), Any(int64_t(1))); }) == want);
    *Kept(i) = Function();
  }
}

namespace {

// Its hooks clear the List (or Dict) the walk is in, dropping the last
// reference to what the walk visits next.
class RcClearerObj : public Object {
 public:
  int64_t key = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("rctest.Clearer", RcClearerObj, Object);
};

List<Any>* VictimList() {
  static List<Any>* list = new List<Any>();
  return list;
}
Dict<Any, Any>* VictimDict() {
  static Dict<Any, Any>* dict = new Dict<Any, Any>();
  return dict;
}
void ClearVictims() {
  VictimList()->clear();
  VictimDict()->clear();
}

int64_t ClearerKey(const AnyView& v) {
  return static_cast<const RcClearerObj*>(ObjectOf(RawOf(v)->v_obj))->key;
}

Any Clearer(int64_t key) {
  static const bool done = [] {
    refl::ObjectDef<RcClearerObj>()
        .def_rw("key", &RcClearerObj::key)
        .def_type_attr("__ffi_eq__", Function::FromTyped([](AnyView a, AnyView b, Function) {
                ClearVictims();
                return ClearerKey(a) == ClearerKey(b);
              }))
        .def_type_attr("__ffi_hash__", Function::FromTyped([](AnyView a, Function) {
                ClearVictims();
                return ClearerKey(a);
              }))
        .def_type_attr("__ffi_compare__", Function::FromTyped([](AnyView a, AnyView b, Function) {
                ClearVictims();
                return ClearerKey(a) < ClearerKey(b) ? -1 : (ClearerKey(a) > ClearerKey(b) ? 1 : 0);
              }));
    return true;
  }();
  (void)done;
  ObjectPtr<RcClearerObj> p = make_object<RcClearerObj>();
  p->key = key;
  return Any(ObjectRef(std::move(p)));
}

// Fills the victim List with [clearer, [big list], clearer] and the victim
// Dict with two entries, holding the only references to them.
void FillVictims() {
  ClearVictims();
  VictimList()->push_back(Clearer(1));
  List<Any> payload;
  for (int i = 0; i < 64; ++i) payload.push_back(Any(Array<Any>{Any(int64_t(i))}));
  VictimList()->push_back(Any(payload));
  VictimList()->push_back(Clearer(2));
  VictimDict()->Set(Any("a"), Clearer(3));
  VictimDict()->Set(Any("b"), Any(payload));
}

}  // namespace

TEST_CASE("RecursiveCompare: a hook that clears the container being walked",
          "[recursive_compare]") {
  // The walks hold what they visit: under ASan this was a heap use after free.
  // Once the hook has cleared the List, it has fewer items than when the walk
  // began, and the answer reflects what the walk saw (no crash either way).
  // Equal content, distinct objects (so the hooks run).
  Any copy = Any(List<Any>{Clearer(1), Any(List<Any>{}), Clearer(2)});
  FillVictims();
  int64_t h = Hash(Any(*VictimList()));
  CHECK(VictimList()->size() == 0);
  FillVictims();
  CHECK(Hash(Any(*VictimList())) == h);  // the same walk, the same answer

  FillVictims();
  CHECK_FALSE(Eq(Any(*VictimList()), copy));  // cleared under the walk: now shorter
  FillVictims();
  CHECK_FALSE(Eq(copy, Any(*VictimList())));
  FillVictims();
  CHECK(Lt(Any(*VictimList()), copy));  // a prefix of copy once cleared
  FillVictims();
  Any dict_copy = Any(Dict<Any, Any>{{Any("a"), Clearer(3)}, {Any("b"), Any(List<Any>{})}});
  Hash(Any(*VictimDict()));
  CHECK(VictimDict()->size() == 0);
  FillVictims();
  CHECK_FALSE(Eq(Any(*VictimDict()), dict_copy));
  ClearVictims();
}

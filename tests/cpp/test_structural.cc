// Structural equality, hashing, first mismatch, deep copy, repr and field visits.
#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using namespace test_util;

namespace {

// The library's structural globals, called as the old C++ layer's wrappers
// called them (tvm::ffi spells these in tvm/ffi/extra, over the same globals).
bool StructuralEqual(const AnyView& lhs, const AnyView& rhs, bool map_free_vars = false,
                     bool skip_tensor_content = false) {
  return Call("ffi.StructuralEqual", lhs, rhs, map_free_vars, skip_tensor_content).cast<bool>();
}
uint64_t StructuralHash(const AnyView& value, bool map_free_vars = false,
                        bool skip_tensor_content = false) {
  return static_cast<uint64_t>(
      Call("ffi.StructuralHash", value, map_free_vars, skip_tensor_content).cast<int64_t>());
}
std::optional<std::pair<ObjectRef, ObjectRef>> GetFirstStructuralMismatch(
    const AnyView& lhs, const AnyView& rhs, bool map_free_vars = false,
    bool skip_tensor_content = false) {
  Any r = Call("ffi.GetFirstStructuralMismatch", lhs, rhs, map_free_vars, skip_tensor_content);
  if (r == nullptr) return std::nullopt;
  return std::make_pair(Call("ffi.ArrayGetItem", r, int64_t(0)).cast<ObjectRef>(),
                        Call("ffi.ArrayGetItem", r, int64_t(1)).cast<ObjectRef>());
}
Any DeepCopy(const AnyView& value) { return Call("ffi.DeepCopy", value); }
std::string ReprPrint(const AnyView& value) {
  return Call("ffi.ReprPrint", value).cast<std::string>();
}
template <typename F>
void VisitReflectedFields(const ObjectRef& obj, F fn) {
  Function callback = Function::FromTyped(
      [&fn](String name, Any value, int64_t flags) { fn(std::string(name), value, flags); });
  Call("ffi.VisitFields", obj, callback);
}
template <typename F>
void StructuralVisit(const AnyView& value, F fn) {
  Function callback = Function::FromTyped([&fn](Any v) { return static_cast<bool>(fn(v)); });
  Call("ffi.VisitEachValue", value, callback);
}

}  // namespace

namespace {

// A free variable; `name` takes no part in equality.
class VarObj : public Object {
 public:
  String name;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.Var", VarObj, Object);
};

// A tree node: `tag` is ignored by equality, `hidden` by repr.
class NodeObj : public Object {
 public:
  int64_t value = 0;
  Any kids;
  String tag;
  String hidden;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.Node", NodeObj, Object);
};

// params define the variables that body uses.
class FuncObj : public Object {
 public:
  Any params;
  Any body;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.Func", FuncObj, Object);
};

class DagObj : public Object {
 public:
  Any value;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindDAGNode;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.Dag", DagObj, Object);
};

class NoEqObj : public Object {
 public:
  int64_t value = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.NoEq", NoEqObj, Object);
};

void RegisterOnce() {
  static const bool done = [] {
    refl::ObjectDef<VarObj>()
        .def_rw("name", &VarObj::name, refl::AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashIgnore));
    refl::ObjectDef<NodeObj>()
        .def_rw("value", &NodeObj::value)
        .def_rw("kids", &NodeObj::kids)
        .def_rw("tag", &NodeObj::tag, refl::AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashIgnore))
        .def_rw("hidden", &NodeObj::hidden, refl::AttachFieldFlag(kTVMFFIFieldFlagBitMaskReprOff));
    refl::ObjectDef<FuncObj>()
        .def_rw("params", &FuncObj::params, refl::AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefRecursive))
        .def_rw("body", &FuncObj::body);
    refl::ObjectDef<DagObj>().def_rw("value", &DagObj::value);
    refl::ObjectDef<NoEqObj>().def_rw("value", &NoEqObj::value);
    return true;
  }();
  (void)done;
}

Any Var(const char* name) {
  RegisterOnce();
  ObjectPtr<VarObj> v = make_object<VarObj>();
  v->name = String(name);
  return Any(ObjectRef(std::move(v)));
}

Any Node(int64_t value, Any kids = Any(), const char* tag = "") {
  RegisterOnce();
  ObjectPtr<NodeObj> n = make_object<NodeObj>();
  n->value = value;
  n->kids = std::move(kids);
  n->tag = String(tag);
  n->hidden = String("secret");
  return Any(ObjectRef(std::move(n)));
}

Any Func(Any params, Any body) {
  RegisterOnce();
  ObjectPtr<FuncObj> f = make_object<FuncObj>();
  f->params = std::move(params);
  f->body = std::move(body);
  return Any(ObjectRef(std::move(f)));
}

Any Dag(Any value) {
  RegisterOnce();
  ObjectPtr<DagObj> d = make_object<DagObj>();
  d->value = std::move(value);
  return Any(ObjectRef(std::move(d)));
}

// "lhs_path | rhs_path", or "equal".
std::string Mismatch(const Any& a, const Any& b, bool map_free_vars = false) {
  auto m = GetFirstStructuralMismatch(a, b, map_free_vars);
  if (!m.has_value()) return "equal";
  return ReprPrint(m->first) + " | " + ReprPrint(m->second);
}

bool SameHash(const Any& a, const Any& b, bool map_free_vars = false) {
  return StructuralHash(a, map_free_vars) == StructuralHash(b, map_free_vars);
}

}  // namespace

TEST_CASE("Structural: plain values and strings", "[structural]") {
  CHECK(StructuralEqual(Any(int64_t(3)), Any(int64_t(3))));
  CHECK_FALSE(StructuralEqual(Any(int64_t(3)), Any(int64_t(4))));
  CHECK_FALSE(StructuralEqual(Any(int64_t(1)), Any(1.0)));  // int and float differ
  CHECK_FALSE(StructuralEqual(Any(int64_t(1)), Any(true)));
  CHECK(StructuralEqual(Any(std::nan("")), Any(std::nan(""))));
  CHECK(StructuralEqual(Any(0.0), Any(-0.0)));
  CHECK(SameHash(Any(0.0), Any(-0.0)));
  CHECK(StructuralEqual(Any(), Any()));
  // A short (inline) and a long (heap) string compare by content.
  CHECK(StructuralEqual(Any("abc"), Any(String("abc"))));
  CHECK(StructuralEqual(Any(std::string(40, 'x')), Any(String(std::string(40, 'x')))));
  CHECK(SameHash(Any("abc"), Any(String("abc"))));
  CHECK_FALSE(StructuralEqual(Any("abc"), Any(Bytes("abc", 3))));
  CHECK_FALSE(SameHash(Any(int64_t(1)), Any(int64_t(2))));
}

TEST_CASE("Structural: containers", "[structural]") {
  Array<Any> a{Any(int64_t(1)), Any("x"), Any(Map<Any, Any>{{Any("k"), Any(int64_t(2))}})};
  Array<Any> b{Any(int64_t(1)), Any("x"), Any(Map<Any, Any>{{Any("k"), Any(int64_t(2))}})};
  CHECK(StructuralEqual(a, b));
  CHECK(SameHash(a, b));
  Array<Any> c{Any(int64_t(1)), Any("x"), Any(Map<Any, Any>{{Any("k"), Any(int64_t(3))}})};
  CHECK_FALSE(StructuralEqual(a, c));
  CHECK(Mismatch(a, c) == "<root>[2][\"k\"] | <root>[2][\"k\"]");

  // Array and List are different types even with the same items.
  List<Any> l;
  l.push_back(Any(int64_t(1)));
  CHECK_FALSE(StructuralEqual(Array<Any>{Any(int64_t(1))}, l));
  CHECK(Mismatch(Array<Any>{Any(int64_t(1))}, l) == "<root> | <root>");

  // Lengths: the shorter side is missing an item.
  CHECK(Mismatch(Array<Any>{Any(int64_t(1))}, Array<Any>{Any(int64_t(1)), Any(int64_t(2))}) ==
        "<root>[<missing:1>] | <root>[1]");
  // Maps: a key absent on one side.
  Map<Any, Any> m1{{Any("a"), Any(int64_t(1))}};
  Map<Any, Any> m2{{Any("b"), Any(int64_t(1))}};
  CHECK(Mismatch(m1, m2) == "<root>[\"a\"] | <root>[<missing:\"a\">]");
  Map<Any, Any> m3{{Any("a"), Any(int64_t(1))}, {Any("b"), Any(int64_t(1))}};
  CHECK(Mismatch(m1, m3) == "<root>[<missing:\"b\">] | <root>[\"b\"]");
  // Map hashing does not depend on insertion order.
  Dict<Any, Any> d1, d2;
  d1.Set(Any("x"), Any(int64_t(1)));
  d1.Set(Any("y"), Any(int64_t(2)));
  d2.Set(Any("y"), Any(int64_t(2)));
  d2.Set(Any("x"), Any(int64_t(1)));
  CHECK(StructuralEqual(d1, d2));
  CHECK(SameHash(d1, d2));
  // Shapes.
  CHECK(StructuralEqual(Shape({1, 2, 3}), Shape({1, 2, 3})));
  CHECK(Mismatch(Shape({1, 2, 3}), Shape({1, 5, 3})) == "<root>[1] | <root>[1]");
}

TEST_CASE("Structural: tensors by metadata and content", "[structural]") {
  float x[4] = {1, 2, 3, 4};
  float y[4] = {1, 2, 3, 5};
  int64_t shape[1] = {4};
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = x;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 1;
  t.dtype = DType(kDLFloat, 32);
  t.shape = shape;
  DLTensor u = t;
  u.data = y;
  Tensor a = BorrowedTensor(t);
  Tensor b = BorrowedTensor(u);
  CHECK_FALSE(StructuralEqual(a, b));
  CHECK(StructuralEqual(a, b, false, /*skip_tensor_content=*/true));
  CHECK(StructuralHash(a, false, true) == StructuralHash(b, false, true));
  CHECK(StructuralHash(a) != StructuralHash(b));
  y[3] = 4;
  CHECK(StructuralEqual(a, b));
  CHECK(StructuralHash(a) == StructuralHash(b));
}

TEST_CASE("Structural: ignored fields and reflected objects", "[structural]") {
  Any a = Node(1, Array<Any>{Node(2)}, "left");
  Any b = Node(1, Array<Any>{Node(2)}, "right");  // only the ignored tag differs
  CHECK(StructuralEqual(a, b));
  CHECK(SameHash(a, b));
  Any c = Node(1, Array<Any>{Node(3)});
  CHECK(Mismatch(a, c) == "<root>.kids[0].value | <root>.kids[0].value");
  CHECK(ThrownBy([] {
          RegisterOnce();
          Any n(ObjectRef(make_object<NoEqObj>()));
          StructuralEqual(n, n);
        }) == "TypeError: ffi.StructuralEqual: type `sttest.NoEq` does not support structural "
              "equality or hash (its structural_eq_hash_kind is Unsupported)");
  CHECK(ThrownBy([] {
          RegisterOnce();
          StructuralHash(Any(ObjectRef(make_object<NoEqObj>())));
        }) == "TypeError: ffi.StructuralHash: type `sttest.NoEq` does not support structural "
              "equality or hash (its structural_eq_hash_kind is Unsupported)");
}

TEST_CASE("Structural: free variables and definitions", "[structural]") {
  Any x = Var("x"), y = Var("y");
  CHECK(StructuralEqual(x, x));
  CHECK_FALSE(StructuralEqual(x, y));
  CHECK(StructuralEqual(x, y, /*map_free_vars=*/true));
  CHECK(SameHash(x, y, true));
  CHECK_FALSE(SameHash(x, y, false));
  // Bound by params: the functions are equal whatever the variables are.
  Any f = Func(Array<Any>{x}, Node(0, x));
  Any g = Func(Array<Any>{y}, Node(0, y));
  CHECK(StructuralEqual(f, g));
  CHECK(SameHash(f, g));
  // A free use of a variable that is not bound: no match.
  Any h = Func(Array<Any>{y}, Node(0, x));
  CHECK(Mismatch(f, h) == "<root>.body.kids | <root>.body.kids");
  // Once bound, a variable maps to one counterpart only.
  Any z = Var("z");
  Any two = Func(Array<Any>{x, z}, Array<Any>{x, z});
  Any swapped = Func(Array<Any>{x, z}, Array<Any>{z, x});
  CHECK_FALSE(StructuralEqual(two, swapped));
  CHECK(Mismatch(two, swapped) == "<root>.body[0] | <root>.body[0]");
}

TEST_CASE("Structural: DAG nodes keep their sharing", "[structural]") {
  Any shared = Dag(Any(int64_t(1)));
  Any d1 = Dag(Any(int64_t(1))), d2 = Dag(Any(int64_t(1)));
  Array<Any> same{shared, shared};
  Array<Any> distinct{d1, d2};
  CHECK_FALSE(StructuralEqual(same, distinct));
  CHECK(Mismatch(same, distinct) == "<root>[1] | <root>[1]");
  CHECK(StructuralHash(same) != StructuralHash(distinct));
  Any s2 = Dag(Any(int64_t(1)));
  CHECK(StructuralEqual(same, Array<Any>{s2, s2}));
  CHECK(StructuralHash(same) == StructuralHash(Array<Any>{s2, s2}));
}

TEST_CASE("Structural: cycles and deep nesting give errors", "[structural]") {
  List<Any> cyc;
  cyc.push_back(Any(int64_t(1)));
  cyc.push_back(Any(cyc));
  List<Any> cyc2;
  cyc2.push_back(Any(int64_t(1)));
  cyc2.push_back(Any(cyc2));
  const std::string cycle_msg =
      "ValueError: ffi.StructuralEqual: the value contains a reference cycle (an object of type "
      "`ffi.List` contains itself)";
  CHECK(ThrownBy([&] { StructuralEqual(cyc, cyc2); }) == cycle_msg);
  CHECK(ThrownBy([&] { StructuralHash(cyc); }) ==
        "ValueError: ffi.StructuralHash: the value contains a reference cycle (an object of type "
        "`ffi.List` contains itself)");
  CHECK(ThrownBy([&] { ReprPrint(cyc); }) == "<nothing thrown>");
  CHECK(ReprPrint(cyc) == "[1, ...]");
  Any copy = DeepCopy(cyc);
  CHECK_FALSE(copy.cast<ObjectRef>().same_as(cyc));
  List<Any> lc = copy.cast<List<Any>>();
  CHECK(lc[1].cast<ObjectRef>().same_as(lc));  // the copy's cycle is its own
  cyc.Set(1, Any());  // break the cycles so that the lists are freed
  cyc2.Set(1, Any());
  lc.Set(1, Any());

  // 2048 levels on a 64 MiB stack: the depth limit, not the stack guard,
  // must be what stops the walks (ASan's Debug frames need more than the
  // main thread's 8 MiB for the deep copy).
  // Catch2's assertions are not for other threads: a failed check throws
  // its text, which OnThreadStack returns.
#define DEEP_CHECK(e) \
  if (!(e)) throw std::runtime_error("failed: " #e)
  CHECK(OnThreadStack(64u << 20, [&] {
    Any deep = Any(int64_t(0));
    for (int i = 0; i < 2048; ++i) deep = Any(Array<Any>{deep});
    Any deep2 = DeepCopy(deep);
    DEEP_CHECK(StructuralEqual(deep, deep2));
    DEEP_CHECK(StructuralHash(deep) == StructuralHash(deep2));
    Any deeper = Any(Array<Any>{deep});
    DEEP_CHECK(ThrownBy([&] { StructuralHash(deeper); }) ==
          "RecursionError: ffi.StructuralHash: the value is nested deeper than 2048 levels");
    // The same object is walked too (nodes inside must be bound), so the
    // depth limit holds for it as for two equal copies.
    DEEP_CHECK(ThrownBy([&] { StructuralEqual(deeper, deeper); }) ==
          "RecursionError: ffi.StructuralEqual: the value is nested deeper than 2048 levels");
    DEEP_CHECK(ThrownBy([&] { StructuralEqual(deeper, Any(Array<Any>{deep2})); }) ==
          "RecursionError: ffi.StructuralEqual: the value is nested deeper than 2048 levels");
    DEEP_CHECK(ThrownBy([&] { DeepCopy(deeper); }) ==
          "RecursionError: ffi.DeepCopy: the value is nested deeper than 2048 levels");
    DEEP_CHECK(ThrownBy([&] { ReprPrint(deeper); }) ==
          "RecursionError: ffi.ReprPrint: the value is nested deeper than 2048 levels");
  }) == "");
#undef DEEP_CHECK
}

namespace {
// A type whose repr is its own hook; the hook keeps the fn_repr it was given.
class HookedObj : public Object {
 public:
  Any inner;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.Hooked", HookedObj, Object);
};

Function* KeptFnRepr() {
  static Function kept;
  return &kept;
}

Any Hooked(Any inner) {
  static const bool done = [] {
    Function hook = Function::FromTyped([](ObjectRef self, Function fn_repr) {
      *KeptFnRepr() = fn_repr;
      const HookedObj* h = static_cast<const HookedObj*>(self.get());
      return String("<hooked " + fn_repr(h->inner).cast<std::string>() + ">");
    });
    refl::ObjectDef<HookedObj>().def_rw("inner", &HookedObj::inner).def_type_attr("__ffi_repr__", Any(hook));
    return true;
  }();
  (void)done;
  ObjectPtr<HookedObj> h = make_object<HookedObj>();
  h->inner = std::move(inner);
  return Any(ObjectRef(std::move(h)));
}
}  // namespace

TEST_CASE("Repr: the text of each kind of value", "[structural]") {
  CHECK(ReprPrint(Any()) == "None");
  CHECK(ReprPrint(Any(true)) == "True");
  CHECK(ReprPrint(Any(int64_t(-12))) == "-12");
  // Floats: six significant digits, as a C++ stream writes them.
  CHECK(ReprPrint(Any(3.14)) == "3.14");
  CHECK(ReprPrint(Any(0.0)) == "0");
  CHECK(ReprPrint(Any(-0.0)) == "-0");
  CHECK(ReprPrint(Any(1e10)) == "1e+10");
  CHECK(ReprPrint(Any(1.0 / 3)) == "0.333333");
  // Strings read back with Python's literal_eval; bytes escape all but printable ASCII.
  CHECK(ReprPrint(Any("a\"b\\c\n\r\t\x01\x7f")) == "\"a\\\"b\\\\c\\n\\r\\t\\x01\\x7f\"");
  CHECK(ReprPrint(Any("\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80")) == "\"\\u00e9\\u2028\\U0001f600\"");
  CHECK(ReprPrint(Any("bad \xff\xc3")) == "\"bad \\xff\\xc3\"");  // not UTF-8: byte escapes
  CHECK(ReprPrint(Any(Bytes("a\"\\\n\xff'", 6))) == "b\"a\\x22\\x5c\\x0a\\xff'\"");
  CHECK(ReprPrint(Any(DType(kDLFloat, 16))) == "float16");
  CHECK(ReprPrint(Any(DLDevice{kDLCUDA, 1})) == "cuda:1");
  CHECK(ReprPrint(Any(DLDevice{kDLTrn, 0})) == "trn:0");
  CHECK(ReprPrint(Any(DLDevice{static_cast<DLDeviceType>(99), 2})) == "unknown:2");
  int pointee = 0;
  CHECK(ReprPrint(Any(static_cast<void*>(&pointee))) == "void*");
  // Arrays print as tuples, Lists as lists.
  CHECK(ReprPrint(Array<Any>{}) == "()");
  CHECK(ReprPrint(Array<Any>{Any(int64_t(1))}) == "(1,)");
  CHECK(ReprPrint(Array<Any>{Any(int64_t(1)), Any("x")}) == "(1, \"x\")");
  CHECK(ReprPrint(List<Any>{}) == "[]");
  CHECK(ReprPrint(List<Any>{Any(int64_t(1))}) == "[1]");
  CHECK(ReprPrint(Dict<Any, Any>{{Any(int64_t(1)), Any(Array<Any>{Any(int64_t(2))})}}) == "{1: (2,)}");
  CHECK(ReprPrint(Shape({})) == "Shape()");
  // A tensor: dtype[shape]@device.
  int64_t shape[2] = {3, 4};
  float data[12] = {0};
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = data;
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = 2;
  t.dtype = DType(kDLFloat, 32);
  t.shape = shape;
  CHECK(ReprPrint(BorrowedTensor(t)) == "float32[3, 4]@cpu:0");
  // ReprOff fields are left out; a type with no fields left prints as its key.
  Any n = Node(1, Array<Any>{}, "t");
  CHECK(ReprPrint(n) == "sttest.Node(value=1, kids=(), tag=\"t\")");
  CHECK(ReprPrint(Function::FromTyped([] {})) == "ffi.Function");
  // A cycle prints as "...".
  List cyc{Any(int64_t(1))};
  cyc.push_back(Any(cyc));
  CHECK(ReprPrint(cyc) == "[1, ...]");
  cyc.clear();
}

TEST_CASE("Repr: TVM_FFI_REPR_WITH_ADDR=1 adds each object's address", "[structural]") {
  Array<Any> inner{Any(int64_t(1))};
  List outer{Any(inner), Any(inner), Any("s"), Any(Shape({2}))};
  outer.push_back(Any(outer));
  char in[32], out[32];
  std::snprintf(in, sizeof(in), "@%p", static_cast<const void*>(inner.get()));
  std::snprintf(out, sizeof(out), "@%p", static_cast<const void*>(outer.get()));
  std::string want = std::string("[(1,)") + in + ", (1,)" + in + ", \"s\", Shape(2), ..." + out +
                     "]" + out;
  REQUIRE(setenv("TVM_FFI_REPR_WITH_ADDR", "1", 1) == 0);
  CHECK(ReprPrint(outer) == want);
  // Only "1" turns it on.
  REQUIRE(setenv("TVM_FFI_REPR_WITH_ADDR", "true", 1) == 0);
  CHECK(ReprPrint(outer) == "[(1,), (1,), \"s\", Shape(2), ...]");
  REQUIRE(unsetenv("TVM_FFI_REPR_WITH_ADDR") == 0);
  CHECK(ReprPrint(outer) == "[(1,), (1,), \"s\", Shape(2), ...]");
  outer.clear();
}

TEST_CASE("Repr: a type's __ffi_repr__ hook and the fn_repr it is given", "[structural]") {
  Any value = Hooked(Any(Array<Any>{Any(int64_t(1)), Any("x")}));
  CHECK(ReprPrint(Array<Any>{value}) == "(<hooked (1, \"x\")>,)");
  // The printer that fn_repr reached is gone once ReprPrint returns: calling
  // the kept function is an error, not a use after free.
  REQUIRE(KeptFnRepr()->defined());
  CHECK(ThrownBy([&] { (*KeptFnRepr())(Any(int64_t(2))); }) ==
        "RuntimeError: fn_repr was called after the __ffi_repr__ call that received it had "
        "returned");
  *KeptFnRepr() = Function();
}

namespace {
struct SmallStackJob {
  Any value;
  std::string result;
};
void* HashOnSmallStack(void* arg) {
  auto* job = static_cast<SmallStackJob*>(arg);
  job->result = ThrownBy([&] { StructuralHash(job->value); });
  return nullptr;
}
}  // namespace

TEST_CASE("Structural: a small thread stack gives an error, not a crash", "[structural]") {
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer's frames and its handling of the throw need more than
  // the 256 KiB the check keeps in reserve; this runs under ASan and plain.
  return;
#endif
  Any deep = Any(int64_t(0));
  for (int i = 0; i < 2000; ++i) deep = Any(Array<Any>{deep});
  SmallStackJob job{deep, ""};
  pthread_attr_t attr;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, 512 * 1024) == 0);
  pthread_t thread;
  REQUIRE(pthread_create(&thread, &attr, &HashOnSmallStack, &job) == 0);
  REQUIRE(pthread_join(thread, nullptr) == 0);
  pthread_attr_destroy(&attr);
  const std::string prefix =
      "RecursionError: ffi.StructuralHash: the value is nested too deeply for this thread's "
      "stack (";
  CHECK(job.result.rfind(prefix, 0) == 0);
  CHECK(job.result.back() == ')');
}

TEST_CASE("Structural: repr, deep copy and field visits", "[structural]") {
  Any n = Node(7, Array<Any>{Any("s"), Any(1.5), Any()}, "t");
  CHECK(ReprPrint(n) == "sttest.Node(value=7, kids=(\"s\", 1.5, None), tag=\"t\")");
  CHECK(ReprPrint(Map<Any, Any>{{Any("k"), Any(true)}}) == "{\"k\": True}");
  CHECK(ReprPrint(Shape({2, 3})) == "Shape(2, 3)");

  // Borrowed views as arguments: a string is owned in the result; a
  // DLTensor* cannot be copied (found by fuzz_globals).
  {
    TVMFFIByteArray name{"ffi.DeepCopy", 12};
    TVMFFIObjectHandle f = nullptr;
    REQUIRE(TVMFFIFunctionGetGlobal(&name, &f) == 0);
    TVMFFIAny arg, result;
    std::memset(&arg, 0, sizeof(arg));
    std::memset(&result, 0, sizeof(result));
    arg.type_index = kTVMFFIRawStr;
    arg.v_c_str = "borrowed text, long enough for a heap string";
    REQUIRE(TVMFFIFunctionCall(f, &arg, 1, &result) == 0);
    CHECK(result.type_index == kTVMFFIStr);
    CHECK(AnyView::CopyFromTVMFFIAny(result).cast<std::string>() == arg.v_c_str);
    TVMFFIObjectDecRef(result.v_obj);
    DLTensor dl{};
    arg.type_index = kTVMFFIDLTensorPtr;
    arg.v_ptr = &dl;
    std::memset(&result, 0, sizeof(result));
    CHECK(TVMFFIFunctionCall(f, &arg, 1, &result) == -1);
    CHECK(result.type_index == kTVMFFINone);
    CHECK(TakeRaised() ==
          "TypeError: ffi.DeepCopy: a DLTensor* is borrowed and cannot be copied; pass an "
          "ffi.Tensor");
    TVMFFIObjectDecRef(f);
  }

  Any c = DeepCopy(n);
  CHECK_FALSE(c.cast<ObjectRef>().same_as(n.cast<ObjectRef>()));
  CHECK(StructuralEqual(n, c));
  CHECK(ReprPrint(c) == ReprPrint(n));
  // Sharing is kept: one object copied once.
  Any leaf = Node(1);
  Any pair = Any(Array<Any>{leaf, leaf});
  Array<Any> pc = DeepCopy(pair).cast<Array<Any>>();
  CHECK(pc[0].cast<ObjectRef>().same_as(pc[1].cast<ObjectRef>()));
  CHECK_FALSE(pc[0].cast<ObjectRef>().same_as(leaf.cast<ObjectRef>()));

  std::vector<std::string> seen;
  VisitReflectedFields(n.cast<ObjectRef>(), [&](const std::string& name, const Any& v,
                                              int64_t flags) {
    seen.push_back(name + "=" + ReprPrint(v) + "/" + std::to_string(flags));
  });
  REQUIRE(seen.size() == 4);
  CHECK(seen[0] == "value=7/1");
  CHECK(seen[1] == "kids=(\"s\", 1.5, None)/1");
  CHECK(seen[2] == "tag=\"t\"/9");
  CHECK(seen[3] == "hidden=\"secret\"/65");

  std::vector<std::string> visited;
  StructuralVisit(n, [&](const Any& v) {
    visited.push_back(ReprPrint(v));
    return v.type_index() != kTVMFFIArray;  // do not enter arrays
  });
  REQUIRE(visited.size() == 5);
  CHECK(visited[1] == "7");
  CHECK(visited[2] == "(\"s\", 1.5, None)");
  CHECK(visited[3] == "\"t\"");
}

TEST_CASE("Structural: a type registered through the C ABI", "[structural]") {
  Any p = CallTesting("testing.make_c_int_pair", int64_t(1), int64_t(2));
  Any q = CallTesting("testing.make_c_int_pair", int64_t(1), int64_t(2));
  Any r = CallTesting("testing.make_c_int_pair", int64_t(1), int64_t(3));
  CHECK(StructuralEqual(p, q));
  CHECK(SameHash(p, q));
  CHECK(Mismatch(p, r) == "<root>.y | <root>.y");
  CHECK(ReprPrint(p) == "testing.CIntPair(x=1, y=2)");
  Any c = DeepCopy(r);
  CHECK(ReprPrint(c) == "testing.CIntPair(x=1, y=3)");
  CHECK_FALSE(c.cast<ObjectRef>().same_as(r.cast<ObjectRef>()));
  CHECK(ThrownBy([] {
          DeepCopy(CallTesting("testing.make_spinned", int64_t(1)));
        }).rfind("TypeError: ffi.DeepCopy: type `testing.SPinned` has no creator", 0) == 0);
}

TEST_CASE("Structural: hash functors in a set", "[structural]") {
  struct StructuralHashFn {
    size_t operator()(const Any& v) const { return static_cast<size_t>(StructuralHash(v)); }
  };
  struct StructuralEqualFn {
    bool operator()(const Any& a, const Any& b) const { return StructuralEqual(a, b); }
  };
  std::unordered_set<Any, StructuralHashFn, StructuralEqualFn> set;
  set.insert(Any(Array<Any>{Any(int64_t(1)), Any("a")}));
  set.insert(Any(Array<Any>{Any(int64_t(1)), Any("a")}));
  set.insert(Any(Array<Any>{Any(int64_t(2))}));
  CHECK(set.size() == 2);
}

namespace {
// Its __ffi_repr__ clears the List being printed.
class ReprClearerObj : public Object {
 public:
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.ReprClearer", ReprClearerObj, Object);
};

List<Any>* ReprVictim() {
  static List<Any>* list = new List<Any>();
  return list;
}

Any ReprClearer() {
  static const bool done = [] {
    refl::ObjectDef<ReprClearerObj>().def_type_attr(
        "__ffi_repr__", Any(Function::FromTyped([](ObjectRef, Function) {
          ReprVictim()->clear();
          return String("<cleared>");
        })));
    return true;
  }();
  (void)done;
  return Any(ObjectRef(make_object<ReprClearerObj>()));
}
}  // namespace

TEST_CASE("Repr: a __ffi_repr__ that clears the container being printed", "[structural]") {
  // ReprPrint holds what it prints: the Array being printed lost its last
  // other reference in the hook (under ASan this was a heap use after free).
  ReprVictim()->push_back(
      Any(Array<Any>{ReprClearer(), Any(Array<Any>{Any(int64_t(5))})}));
  ReprVictim()->push_back(Any(int64_t(6)));
  CHECK(ReprPrint(Any(*ReprVictim())) == "[(<cleared>, (5,))]");
  CHECK(ReprVictim()->size() == 0);
}

TEST_CASE("Repr: shared sub-values do not make the text exponential", "[structural]") {
  // 40 levels, each holding the level below twice: 2^40 paths.
  Any v = Any(int64_t(7));
  for (int i = 0; i < 40; ++i) v = Any(Array<Any>{v, v});
  std::string text = ReprPrint(v);
  CHECK(text.rfind("((((", 0) == 0);
  CHECK(text.find("...") != std::string::npos);
  Any small = Any(int64_t(7));
  for (int i = 0; i < 3; ++i) small = Any(Array<Any>{small, small});
  CHECK(ReprPrint(small) == "(((7, 7), (7, 7)), ((7, 7), (7, 7)))");
}

TEST_CASE("StructuralVisit: a callback that clears the container being visited",
          "[structural]") {
  // The visitor holds what it visits and reads the List's size again after
  // each call: under ASan this was a heap use after free.
  List<Any> victim;
  victim.push_back(Any(Array<Any>{Any(Array<Any>{Any(int64_t(1))}), Any(int64_t(2))}));
  victim.push_back(Any(int64_t(3)));
  std::vector<std::string> visited;
  Any root(victim);
  StructuralVisit(root, [&](const Any& v) {
    visited.push_back(ReprPrint(v));
    if (visited.size() == 3) victim.clear();  // while visiting (1,): frees its parent
    return true;
  });
  REQUIRE(visited.size() == 5);
  CHECK(visited[1] == "((1,), 2)");
  CHECK(visited[2] == "(1,)");
  CHECK(visited[3] == "1");
  CHECK(visited[4] == "2");
}

namespace {

// A type that compares and hashes itself through "__s_equal__" and
// "__s_hash__" (as upstream's TypeAttrDef registers them): `params` as a
// definition region, `body` plainly, `note` not at all (no field flag says so).
class HookFuncObj : public Object {
 public:
  Any params;
  Any body;
  String note;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("sttest.HookFunc", HookFuncObj, Object);
};

Any HookFunc(Any params, Any body, const char* note) {
  static const bool registered = [] {
    Function eq = Function::FromTyped([](ObjectRef a, ObjectRef b, Function cmp) {
      auto* x = static_cast<const HookFuncObj*>(a.get());
      auto* y = static_cast<const HookFuncObj*>(b.get());
      return cmp(x->params, y->params, int64_t(kTVMFFIDefRegionKindRecursive), String("params"))
                 .cast<bool>() &&
             cmp(x->body, y->body, int64_t(kTVMFFIDefRegionKindNone), String("body")).cast<bool>();
    });
    Function hash = Function::FromTyped([](ObjectRef a, int64_t init, Function part) {
      auto* x = static_cast<const HookFuncObj*>(a.get());
      int64_t h = part(x->params, init, int64_t(kTVMFFIDefRegionKindRecursive)).cast<int64_t>();
      return part(x->body, h, int64_t(kTVMFFIDefRegionKindNone)).cast<int64_t>();
    });
    refl::ObjectDef<HookFuncObj>()
        .def_rw("params", &HookFuncObj::params)
        .def_rw("body", &HookFuncObj::body)
        .def_rw("note", &HookFuncObj::note)
        .def_type_attr("__s_equal__", Any(eq))
        .def_type_attr("__s_hash__", Any(hash));
    return true;
  }();
  (void)registered;
  ObjectPtr<HookFuncObj> f = make_object<HookFuncObj>();
  f->params = std::move(params);
  f->body = std::move(body);
  f->note = String(note);
  return Any(ObjectRef(std::move(f)));
}

}  // namespace

// The hooks decide (before, the reflected fields were compared and the
// differing `note` made these unequal).
TEST_CASE("Structural: a type's __s_equal__ and __s_hash__ hooks", "[structural]") {
  Any x = Var("x"), y = Var("y");
  Any fa = HookFunc(Array<Any>{x}, Array<Any>{int64_t(1), x}, "comment a");
  Any fb = HookFunc(Array<Any>{y}, Array<Any>{int64_t(1), y}, "comment b");
  Any fc = HookFunc(Array<Any>{x}, Array<Any>{int64_t(1), int64_t(2)}, "comment a");
  CHECK(StructuralEqual(fa, fb));  // params bind x to y; note is not looked at
  CHECK(SameHash(fa, fb));
  CHECK_FALSE(StructuralEqual(fa, fc));
  CHECK(Mismatch(fa, fc) == "<root>.body[1] | <root>.body[1]");
}

TEST_CASE("Structural: DeepCopy keeps cycles through containers on the copied root",
          "[structural]") {
  // Map -> List -> back to the Map: the copied List points at the copied Map.
  List<Any> list;
  Map<Any, Any> root{{Any("list"), Any(list)}};
  list.push_back(Any(root));
  Map<Any, Any> copy = DeepCopy(root).cast<Map<Any, Any>>();
  CHECK_FALSE(copy.same_as(root));
  List<Any> copied_list = copy["list"].cast<List<Any>>();
  CHECK_FALSE(copied_list.same_as(list));
  CHECK(copied_list[0].cast<ObjectRef>().same_as(copy));

  // Array -> Dict whose key is the Array: the copied Dict's key is the copy.
  Dict<Any, Any> dict;
  Array<Any> arr{Any(dict)};
  dict.Set(Any(arr), Any(int64_t(1)));
  Array<Any> arr_copy = DeepCopy(arr).cast<Array<Any>>();
  Dict<Any, Any> dict_copy = arr_copy[0].cast<Dict<Any, Any>>();
  REQUIRE(dict_copy.size() == 1);
  CHECK((*dict_copy.begin()).first.cast<ObjectRef>().same_as(arr_copy));
  CHECK_FALSE((*dict_copy.begin()).first.cast<ObjectRef>().same_as(arr));

  // Map keys are copied: a List key that leads back to the root.
  List<Any> key;
  Map<Any, Any> keyed{{Any(key), Any(int64_t(2))}};
  key.push_back(Any(keyed));
  Map<Any, Any> keyed_copy = DeepCopy(keyed).cast<Map<Any, Any>>();
  List<Any> key_copy = (*keyed_copy.begin()).first.cast<List<Any>>();
  CHECK_FALSE(key_copy.same_as(key));
  CHECK(key_copy[0].cast<ObjectRef>().same_as(keyed_copy));

  // Break the cycles so that everything is freed.
  list.Set(0, Any());
  copied_list.Set(0, Any());
  dict.clear();
  dict_copy.clear();
  key.Set(0, Any());
  key_copy.Set(0, Any());
}

namespace {

// The field `name` of the registered type `type_key`.
const TVMFFIFieldInfo* FieldOf(const char* type_key, const char* name) {
  int32_t index = -1;
  TVMFFIByteArray key = ByteArrayOf(type_key);
  REQUIRE(TVMFFITypeKeyToIndex(&key, &index) == 0);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (TextOf(info->fields[i].name) == name) return &info->fields[i];
  }
  FAIL("no field " << name << " in " << type_key);
  return nullptr;
}

template <typename T>
T At(TVMFFIObjectHandle obj, int64_t offset) {
  T out;
  std::memcpy(&out, static_cast<const char*>(obj) + offset, sizeof(T));
  return out;
}

}  // namespace

// tvm/ffi/reflection/access_path.h builds and reads these objects inline.
TEST_CASE("Structural: access paths have upstream's layout", "[structural]") {
  const TVMFFIFieldInfo* parent = FieldOf("ffi.reflection.AccessPath", "parent");
  const TVMFFIFieldInfo* step = FieldOf("ffi.reflection.AccessPath", "step");
  const TVMFFIFieldInfo* depth = FieldOf("ffi.reflection.AccessPath", "depth");
  CHECK((parent->offset == 24 && parent->size == 8));
  CHECK((step->offset == 32 && step->size == 8));
  CHECK((depth->offset == 40 && depth->size == 4));
  const TVMFFIFieldInfo* kind = FieldOf("ffi.reflection.AccessStep", "kind");
  const TVMFFIFieldInfo* key = FieldOf("ffi.reflection.AccessStep", "key");
  CHECK((kind->offset == 24 && kind->size == 4));
  CHECK((key->offset == 32 && key->size == 16));

  // lhs_path = <root>[1] for a mismatch at index 1: read it as raw memory.
  Array<Any> lhs, rhs;
  lhs.push_back(Any(int64_t{1}));
  lhs.push_back(Any(int64_t{2}));
  rhs.push_back(Any(int64_t{1}));
  rhs.push_back(Any(int64_t{3}));
  Any pair = Call("ffi.GetFirstStructuralMismatch", lhs, rhs, false, false);
  Any path = pair.cast<Array<Any>>()[0];
  TVMFFIObjectHandle p = HandleOf(path);
  CHECK(At<int32_t>(p, 40) == 1);
  TVMFFIObjectHandle root = At<TVMFFIObjectHandle>(p, 24);
  TVMFFIObjectHandle last = At<TVMFFIObjectHandle>(p, 32);
  REQUIRE(root != nullptr);
  REQUIRE(last != nullptr);
  CHECK(At<TVMFFIObjectHandle>(root, 24) == nullptr);  // the root: no parent, no step
  CHECK(At<TVMFFIObjectHandle>(root, 32) == nullptr);
  CHECK(At<int32_t>(root, 40) == 0);
  CHECK(At<int32_t>(last, 24) == 1);  // kArrayItem
  TVMFFIAny step_key = At<TVMFFIAny>(last, 32);
  CHECK(step_key.type_index == kTVMFFIInt);
  CHECK(step_key.v_int64 == 1);

  // The typed setters: None or a path for parent; anything else is refused.
  Any other = pair.cast<Array<Any>>()[1];
  TVMFFIObjectHandle o = HandleOf(other);
  TVMFFIObjectHandle other_root = At<TVMFFIObjectHandle>(o, 24);
  Any other_root_ref(ObjectRef(BorrowHandle(other_root)));
  void* parent_addr = static_cast<char*>(o) + parent->offset;
  auto set_parent = reinterpret_cast<TVMFFIFieldSetter>(parent->setter);
  Any bad(int64_t{5});
  CHECK(Raised(set_parent(parent_addr, RawOf(bad))) ==
        "TypeError: expected Optional[ffi.reflection.AccessPath], got int");
  CHECK(At<TVMFFIObjectHandle>(o, 24) == other_root);
  Any none;
  CHECK(set_parent(parent_addr, RawOf(none)) == 0);
  CHECK(At<TVMFFIObjectHandle>(o, 24) == nullptr);
  CHECK(set_parent(parent_addr, RawOf(other_root_ref)) == 0);
  CHECK(At<TVMFFIObjectHandle>(o, 24) == other_root);
}

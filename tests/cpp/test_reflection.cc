// Reflection: tvm::ffi::reflection::ObjectDef (fields, getters/setters,
// methods, constructors) as the C ABI sees it, and the library's generated
// __ffi_init__.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/reflection/registry.h>

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using namespace test_util;

namespace {

class PointObj : public Object {
 public:
  int64_t x = 0;
  double y = 0;
  String name{"point"};
  Any extra;
  bool flag = false;

  PointObj() = default;
  PointObj(int64_t x_, double y_) : x(x_), y(y_) {}
  double Sum() const { return static_cast<double>(x) + y; }
  int64_t AddToX(int64_t d) {
    x += d;
    return x;
  }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("refltest.Point", PointObj, Object);
};
using Point = ObjectRefOf<PointObj>;

// a: required; b: keyword-only, default 2; c: not an __init__ parameter,
// default 3; d: default made by a factory on each call.
class OptionsObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  int64_t c = 0;
  Any d;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("refltest.Options", OptionsObj, Object);
};

// x: default 1; y: required; z: default 2; w: required; k: keyword-only,
// required.  Positional parameters: y, w, x, z.
class OrderObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  int64_t z = 0;
  int64_t w = 0;
  int64_t k = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("refltest.Order", OrderObj, Object);
};

class NoCopyObj : public Object {
 public:
  int64_t v = 0;
  NoCopyObj() = default;
  NoCopyObj(const NoCopyObj&) = delete;
  NoCopyObj& operator=(const NoCopyObj&) = delete;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("refltest.NoCopy", NoCopyObj, Object);
};

class CopyableObj : public Object {
 public:
  int64_t v = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("refltest.Copyable", CopyableObj, Object);
};

int g_factory_calls = 0;

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PointObj>("A point.")
      .def_rw("x", &PointObj::x, "abscissa")
      .def_rw("y", &PointObj::y, "ordinate", refl::DefaultValue(1.5))
      .def_ro("name", &PointObj::name)
      .def_rw("extra", &PointObj::extra)
      .def_rw("flag", &PointObj::flag)
      .def("sum", &PointObj::Sum, "x + y")
      .def("add_to_x", &PointObj::AddToX)
      .def("scaled_x", [](const Point& p, int64_t k) { return p->x * k; })
      .def_static("origin", []() { return Point(make_object<PointObj>()); })
      .def(refl::init<int64_t, double>(), "Point(x, y)");
  Function factory = Function::FromTyped([]() { return int64_t(100 + ++g_factory_calls); });
  refl::ObjectDef<OptionsObj>()
      .def_rw("a", &OptionsObj::a)
      .def_rw("b", &OptionsObj::b, refl::DefaultValue(int64_t(2)), refl::kw_only(true))
      .def_rw("c", &OptionsObj::c, refl::DefaultValue(int64_t(3)), refl::init(false))
      .def_rw("d", &OptionsObj::d, refl::DefaultFactory(factory));
  refl::ObjectDef<OrderObj>()
      .def_rw("x", &OrderObj::x, refl::DefaultValue(int64_t(1)))
      .def_rw("y", &OrderObj::y)
      .def_rw("z", &OrderObj::z, refl::DefaultValue(int64_t(2)))
      .def_rw("w", &OrderObj::w)
      .def_rw("k", &OrderObj::k, refl::kw_only(true));
  // ObjectDef registers a copy function only for a copyable class; a class
  // that cannot be copied says why in the attribute (as testing/ does), and
  // ffi.ShallowCopy / ffi.DeepCopy refuse it with that reason.
  refl::ObjectDef<NoCopyObj>()
      .def_rw("v", &NoCopyObj::v)
      .def_type_attr("__ffi_shallow_copy__", String("its C++ class is not copy-constructible"));
  refl::ObjectDef<CopyableObj>().def_rw("v", &CopyableObj::v);
}

int32_t PointIndex() { return PointObj::RuntimeTypeIndex(); }

const TVMFFIFieldInfo* FindField(const TVMFFITypeInfo* info, const std::string& name) {
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (TextOf(info->fields[i].name) == name) return &info->fields[i];
  }
  FAIL("field " << name << " not found");
  return nullptr;
}

Function FindMethod(const TVMFFITypeInfo* info, const std::string& name, int64_t* flags = nullptr) {
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (TextOf(info->methods[i].name) == name) {
      if (flags != nullptr) *flags = info->methods[i].flags;
      return AnyView::CopyFromTVMFFIAny(info->methods[i].method).cast<Function>();
    }
  }
  FAIL("method " << name << " not found");
  return Function(nullptr);
}

void* FieldAddress(const ObjectRef& obj, const TVMFFIFieldInfo* f) {
  return static_cast<char*>(HandleOf(obj)) + f->offset;
}

Any Get(const ObjectRef& obj, const TVMFFIFieldInfo* f) {
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  REQUIRE(f->getter(FieldAddress(obj, f), &out) == 0);
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(out);
}

int Set(const ObjectRef& obj, const TVMFFIFieldInfo* f, const AnyView& value) {
  auto setter = reinterpret_cast<TVMFFIFieldSetter>(f->setter);
  return setter(FieldAddress(obj, f), RawOf(value));
}

int32_t KeyToIndex(const char* key) {
  TVMFFIByteArray k{key, std::strlen(key)};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&k, &index) == 0);
  return index;
}

// The type attribute "__ffi_init__" of `type_index` (the generated one
// unless the type registered refl::init<...>).
Function InitAttr(int32_t type_index) {
  AnyView entry = refl::TypeAttrColumn("__ffi_init__")[type_index];
  REQUIRE(entry.type_index() == kTVMFFIFunction);
  return entry.cast<Function>();
}

// The KWARGS marker: arguments after it are name/value pairs.
Any Kwargs() { return Call("ffi.GetKwargsObject"); }

}  // namespace

TEST_CASE("Reflection: ObjectDef registers metadata and fields", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  REQUIRE(info != nullptr);
  CHECK(TextOf(info->type_key) == "refltest.Point");
  REQUIRE(info->metadata != nullptr);
  CHECK(TextOf(info->metadata->doc) == "A point.");
  CHECK(info->metadata->total_size == static_cast<int32_t>(sizeof(PointObj)));
  REQUIRE(info->num_fields == 5);

  Point sample(make_object<PointObj>());
  auto offset_of = [&](const void* member) {
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(member) -
                                reinterpret_cast<uintptr_t>(HandleOf(sample)));
  };
  const TVMFFIFieldInfo* x = &info->fields[0];
  CHECK(TextOf(x->name) == "x");
  CHECK(TextOf(x->doc) == "abscissa");
  CHECK(x->flags == kTVMFFIFieldFlagBitMaskWritable);
  CHECK(x->offset == offset_of(&sample->x));
  CHECK(x->size == 8);
  CHECK(x->alignment == 8);
  CHECK(x->field_static_type_index == kTVMFFIInt);

  const TVMFFIFieldInfo* y = &info->fields[1];
  CHECK(TextOf(y->name) == "y");
  CHECK(TextOf(y->doc) == "ordinate");
  CHECK(y->flags == (kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault));
  CHECK(y->default_value_or_factory.type_index == kTVMFFIFloat);
  CHECK(y->default_value_or_factory.v_float64 == 1.5);
  CHECK(y->field_static_type_index == kTVMFFIFloat);

  const TVMFFIFieldInfo* name = &info->fields[2];
  CHECK(TextOf(name->name) == "name");
  CHECK(name->flags == 0);
  CHECK(name->field_static_type_index == kTVMFFIAny);  // as upstream's String
  CHECK(name->offset == offset_of(&sample->name));
  CHECK(name->size == 16);
  CHECK(info->fields[3].field_static_type_index == kTVMFFIAny);
  CHECK(info->fields[4].field_static_type_index == kTVMFFIBool);
}

TEST_CASE("Reflection: the creator makes a default instance", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  REQUIRE(info->metadata->creator != nullptr);
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(info->metadata->creator(&h) == 0);
  Point p = RefOf<Point>(AdoptHandle(h));
  CHECK(p->type_index() == PointIndex());
  CHECK(p.use_count() == 1);
  CHECK(p->name == "point");
}

TEST_CASE("Reflection: getters and setters round-trip through the C ABI", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  Point p(make_object<PointObj>(7, 2.5));

  CHECK(Get(p, FindField(info, "x")).cast<int64_t>() == 7);
  CHECK(Set(p, FindField(info, "x"), AnyView(int64_t(42))) == 0);
  CHECK(p->x == 42);
  CHECK(Get(p, FindField(info, "y")).cast<double>() == 2.5);
  CHECK(Set(p, FindField(info, "y"), AnyView(int64_t(3))) == 0);  // int widens to float
  CHECK(p->y == 3.0);

  // Strings: a raw C string view becomes a String; the getter returns an owned value.
  CHECK(Set(p, FindField(info, "name"), AnyView("a longer name")) == 0);
  CHECK(p->name == "a longer name");
  Any got = Get(p, FindField(info, "name"));
  CHECK(got.type_index() == kTVMFFIStr);
  CHECK(UseCountOf(p->name) == 2);
  CHECK(got.cast<std::string>() == "a longer name");
  got = Any();
  CHECK(UseCountOf(p->name) == 1);

  // Any field: holds a reference to whatever it is given.
  Point other(make_object<PointObj>());
  CHECK(Set(p, FindField(info, "extra"), AnyView(other)) == 0);
  CHECK(other.use_count() == 2);
  Any extra = Get(p, FindField(info, "extra"));
  CHECK(other.use_count() == 3);
  extra = Any();
  CHECK(Set(p, FindField(info, "extra"), AnyView()) == 0);
  CHECK(other.use_count() == 1);

  CHECK(Set(p, FindField(info, "flag"), AnyView(true)) == 0);
  CHECK(p->flag);
  CHECK(Get(p, FindField(info, "flag")).type_index() == kTVMFFIBool);
}

TEST_CASE("Reflection: a setter refuses a value of the wrong type", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  Point p(make_object<PointObj>(1, 2.0));
  CHECK(Set(p, FindField(info, "x"), AnyView("text")) == -1);
  CHECK(TakeRaised() == "TypeError: Cannot convert from type `const char*` to `int`");
  CHECK(p->x == 1);
  CHECK(Set(p, FindField(info, "name"), AnyView(int64_t(5))) == -1);
  CHECK(TakeRaised() == "TypeError: Cannot convert from type `int` to `str`");
  CHECK(p->name == "point");
  CHECK(Set(p, FindField(info, "y"), AnyView(p)) == -1);
  CHECK(TakeRaised() == "TypeError: Cannot convert from type `refltest.Point` to `float`");
  CHECK(p->y == 2.0);
}

TEST_CASE("Reflection: methods, static methods and __ffi_init__", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  REQUIRE(info->num_methods == 5);
  Point p(make_object<PointObj>(3, 0.5));

  int64_t flags = -1;
  Function sum = FindMethod(info, "sum", &flags);
  CHECK(flags == 0);
  CHECK(sum(p).cast<double>() == 3.5);
  CHECK(FindMethod(info, "add_to_x")(p, int64_t(4)).cast<int64_t>() == 7);
  CHECK(p->x == 7);
  CHECK(FindMethod(info, "scaled_x")(p, int64_t(3)).cast<int64_t>() == 21);
  CHECK(p.use_count() == 1);

  Function origin = FindMethod(info, "origin", &flags);
  CHECK(flags == kTVMFFIFieldFlagBitMaskIsStaticMethod);
  Point o = origin().cast<Point>();
  CHECK(o->x == 0);

  Function init = FindMethod(info, "__ffi_init__", &flags);
  CHECK(flags == kTVMFFIFieldFlagBitMaskIsStaticMethod);
  Any made = init(int64_t(5), 6.25);
  CHECK(made.type_index() == PointIndex());
  Point q = made.cast<Point>();
  CHECK(q->x == 5);
  CHECK(q->y == 6.25);
  made = Any();
  CHECK(q.use_count() == 1);

  CHECK(ThrownBy([&] { sum(int64_t(1)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`refltest.Point.sum(0: refltest.Point) -> float`. Expected `refltest.Point` but got "
        "`int`");
  CHECK(ThrownBy([&] { init(int64_t(5)); }) ==
        "TypeError: Mismatched number of arguments when calling: "
        "`refltest.Point.__ffi_init__(0: int, 1: float) -> ffi.Object`. Expected 2 but got 1 "
        "arguments");
  // The explicit init is also the type's "__ffi_init__" attribute.
  CHECK(InitAttr(PointIndex()).same_as(init));
}

TEST_CASE("Reflection: a second ObjectDef of a type throws", "[reflection]") {
  // A second ObjectDef of the same type fails on the metadata first.
  CHECK(ThrownBy([] { refl::ObjectDef<PointObj>(); }) ==
        "RuntimeError: metadata of type `refltest.Point` is already registered");
  CHECK(TVMFFIGetTypeInfo(PointIndex())->num_fields == 5);
}

TEST_CASE("Reflection: the testing library's reflected types", "[reflection]") {
  int32_t base_index = KeyToIndex("testing.TestObjectBase");
  int32_t derived_index = KeyToIndex("testing.TestObjectDerived");
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(base_index);
  const TVMFFITypeInfo* derived = TVMFFIGetTypeInfo(derived_index);
  REQUIRE(derived->type_depth == 2);
  CHECK(derived->type_ancestors[1] == base);
  REQUIRE(base->num_fields == 3);
  CHECK(TextOf(base->fields[0].name) == "v_i64");
  CHECK(TextOf(base->fields[1].name) == "v_f64");
  CHECK(TextOf(base->fields[2].name) == "v_str");
  CHECK(base->fields[0].default_value_or_factory.v_int64 == 10);
  REQUIRE(derived->num_fields == 2);
  CHECK(TextOf(derived->fields[0].name) == "v_array");
  CHECK(TextOf(derived->fields[1].name) == "v_map");

  Function make = TestingGlobal("testing.make_test_object_base");
  Function use_count = TestingGlobal("testing.object_use_count");
  Any obj = make(int64_t(3), 1.25, "hi");
  REQUIRE(obj.type_index() == base_index);
  ObjectRef ref = obj.cast<ObjectRef>();
  obj = Any();
  CHECK(use_count(ref).cast<int64_t>() == 1);
  CHECK(Get(ref, FindField(base, "v_i64")).cast<int64_t>() == 3);
  CHECK(Get(ref, FindField(base, "v_f64")).cast<double>() == 1.25);
  CHECK(Get(ref, FindField(base, "v_str")).cast<std::string>() == "hi");
  CHECK(FindMethod(base, "add_i64")(ref, int64_t(4)).cast<int64_t>() == 7);
  {
    ObjectRef second = ref;
    CHECK(use_count(ref).cast<int64_t>() == 2);
  }

  // Positional parameters: the required v_array first, then the defaulted
  // v_i64, v_f64, v_str (and v_map).
  Any d = FindMethod(derived, "__ffi_init__")(int64_t(9), int64_t(1), 2.0, "s");
  REQUIRE(d.type_index() == derived_index);
  ObjectRef dref = d.cast<ObjectRef>();
  CHECK(Get(dref, FindField(derived, "v_array")).cast<int64_t>() == 9);
  CHECK(Get(dref, FindField(base, "v_i64")).cast<int64_t>() == 1);
  // Base methods work on the derived type.
  CHECK(FindMethod(base, "add_i64")(dref, int64_t(1)).cast<int64_t>() == 2);
  CHECK(ThrownBy([&] { use_count(int64_t(1)); }) ==
        "TypeError: testing.object_use_count: expected an object, got int");
}

namespace {

// __ffi_init__ of a registered type, looked up by key.
Function InitOf(const char* key) {
  return FindMethod(TVMFFIGetTypeInfo(KeyToIndex(key)), "__ffi_init__");
}

}  // namespace

TEST_CASE("Reflection: the generated __ffi_init__ takes positional arguments and defaults",
          "[reflection]") {
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectBase"));
  Function init = InitOf("testing.TestObjectBase");
  ObjectRef all = init(int64_t(1), 2.5, "three").cast<ObjectRef>();
  CHECK(Get(all, FindField(base, "v_i64")).cast<int64_t>() == 1);
  CHECK(Get(all, FindField(base, "v_f64")).cast<double>() == 2.5);
  CHECK(Get(all, FindField(base, "v_str")).cast<std::string>() == "three");
  CHECK(all.use_count() == 1);

  ObjectRef defaults = init().cast<ObjectRef>();
  CHECK(Get(defaults, FindField(base, "v_i64")).cast<int64_t>() == 10);
  CHECK(Get(defaults, FindField(base, "v_f64")).cast<double>() == 10.0);
  CHECK(Get(defaults, FindField(base, "v_str")).cast<std::string>() == "hello");

  CHECK(ThrownBy([&] { init(int64_t(1), 2.0, "s", int64_t(4)); }) ==
        "TypeError: __ffi_init__ of `testing.TestObjectBase`: takes 3 positional "
        "arguments but 4 were given");
  CHECK(ThrownBy([&] { init("one"); }) ==
        "TypeError: __ffi_init__ of `testing.TestObjectBase`: argument `v_i64`: "
        "Cannot convert from type `const char*` to `int`");
  CHECK(ThrownBy([] { InitOf("testing.TestObjectDerived")(); }) ==
        "TypeError: testing.TestObjectDerived.__ffi_init__() missing required "
        "argument: 'v_array'");
}

TEST_CASE("Reflection: the generated __ffi_init__ puts parameters without a default first",
          "[reflection]") {
  // TestObjectDerived: v_i64, v_f64, v_str (inherited, with defaults), then
  // v_array (none): the first positional argument is v_array, as upstream.
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectBase"));
  const TVMFFITypeInfo* derived = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectDerived"));
  Function init = InitOf("testing.TestObjectDerived");
  ObjectRef one = init(int64_t(8)).cast<ObjectRef>();
  CHECK(Get(one, FindField(derived, "v_array")).cast<int64_t>() == 8);
  CHECK(Get(one, FindField(base, "v_i64")).cast<int64_t>() == 10);
  ObjectRef two = init(int64_t(8), int64_t(4)).cast<ObjectRef>();
  CHECK(Get(two, FindField(derived, "v_array")).cast<int64_t>() == 8);
  CHECK(Get(two, FindField(base, "v_i64")).cast<int64_t>() == 4);
}

TEST_CASE("Reflection: the generated __ffi_init__ takes keyword arguments after KWARGS",
          "[reflection]") {
  Any kw = Kwargs();
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectBase"));
  const TVMFFITypeInfo* derived = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectDerived"));
  Function init = InitOf("testing.TestObjectDerived");
  ObjectRef obj = init(int64_t(8), kw, "v_i64", int64_t(5), "v_str", "named").cast<ObjectRef>();
  CHECK(Get(obj, FindField(base, "v_i64")).cast<int64_t>() == 5);
  CHECK(Get(obj, FindField(base, "v_f64")).cast<double>() == 10.0);
  CHECK(Get(obj, FindField(base, "v_str")).cast<std::string>() == "named");
  CHECK(Get(obj, FindField(derived, "v_array")).cast<int64_t>() == 8);

  CHECK(ThrownBy([&] { init(kw, "v_array", int64_t(1), "nope", int64_t(2)); }) ==
        "TypeError: __ffi_init__ of `testing.TestObjectDerived`: unexpected keyword "
        "argument `nope`");
  CHECK(ThrownBy([&] { init(int64_t(1), kw, "v_i64", int64_t(2), "v_array", int64_t(3)); }) ==
        "TypeError: __ffi_init__ of `testing.TestObjectDerived`: multiple values for "
        "argument `v_array`");
  CHECK(ThrownBy([&] { init(kw, "v_array"); }) ==
        "TypeError: __ffi_init__ of `testing.TestObjectDerived`: keyword arguments "
        "must be name/value pairs");
}

TEST_CASE("Reflection: the generated __ffi_init__ honours kw_only, init(false) and factories",
          "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(OptionsObj::RuntimeTypeIndex());
  const TVMFFIFieldInfo* b = FindField(info, "b");
  CHECK(b->flags == (kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                     kTVMFFIFieldFlagBitMaskKwOnly));
  const TVMFFIFieldInfo* c = FindField(info, "c");
  CHECK(c->flags == (kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                     kTVMFFIFieldFlagBitMaskInitOff));
  const TVMFFIFieldInfo* d = FindField(info, "d");
  CHECK(d->flags == (kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                     kTVMFFIFieldFlagBitMaskDefaultFromFactory));
  CHECK(d->default_value_or_factory.type_index == kTVMFFIFunction);

  Any kw = Kwargs();
  Function init = InitAttr(OptionsObj::RuntimeTypeIndex());
  using Options = ObjectRefOf<OptionsObj>;
  int calls_before = g_factory_calls;
  Options o = init(int64_t(1)).cast<Options>();
  CHECK(o->a == 1);
  CHECK(o->b == 2);
  CHECK(o->c == 3);
  CHECK(o->d.cast<int64_t>() == 100 + calls_before + 1);
  CHECK(g_factory_calls == calls_before + 1);

  o = init(int64_t(1), kw, "b", int64_t(20), "d", "given").cast<Options>();
  CHECK(o->b == 20);
  CHECK(o->d.cast<std::string>() == "given");
  CHECK(g_factory_calls == calls_before + 1);  // not called when d is given

  // b is keyword-only and c is no parameter at all: positional args are a, d.
  o = init(int64_t(1), int64_t(7)).cast<Options>();
  CHECK(o->b == 2);
  CHECK(o->d.cast<int64_t>() == 7);
  CHECK(ThrownBy([&] { init(int64_t(1), int64_t(2), int64_t(3)); }) ==
        "TypeError: __ffi_init__ of `refltest.Options`: takes 2 positional "
        "arguments but 3 were given");
  CHECK(ThrownBy([&] { init(int64_t(1), kw, "c", int64_t(5)); }) ==
        "TypeError: __ffi_init__ of `refltest.Options`: unexpected keyword argument "
        "`c`");
  CHECK(ThrownBy([&] { init(kw, "b", int64_t(5)); }) ==
        "TypeError: refltest.Options.__ffi_init__() missing required argument: 'a'");
}

TEST_CASE("Reflection: the generated __ffi_init__ fills required positional fields first",
          "[reflection]") {
  Function init = InitAttr(OrderObj::RuntimeTypeIndex());
  Any kw = Kwargs();
  using Order = ObjectRefOf<OrderObj>;
  Order o = init(int64_t(10), int64_t(20), kw, "k", int64_t(5)).cast<Order>();
  CHECK((o->y == 10 && o->w == 20 && o->x == 1 && o->z == 2 && o->k == 5));
  o = init(int64_t(10), int64_t(20), int64_t(30), int64_t(40), kw, "k", int64_t(5)).cast<Order>();
  CHECK((o->y == 10 && o->w == 20 && o->x == 30 && o->z == 40));
  CHECK(ThrownBy([&] { init(int64_t(10), kw, "k", int64_t(5)); }) ==
        "TypeError: refltest.Order.__ffi_init__() missing required argument: 'w'");
  CHECK(ThrownBy([&] { init(int64_t(10), int64_t(20)); }) ==
        "TypeError: refltest.Order.__ffi_init__() missing required keyword-only "
        "argument: 'k'");
  CHECK(ThrownBy([&] { init(int64_t(1), int64_t(2), int64_t(3), int64_t(4), int64_t(5)); }) ==
        "TypeError: __ffi_init__ of `refltest.Order`: takes 4 positional arguments "
        "but 5 were given");
}

TEST_CASE("Reflection: a class that is not copy-constructible is not copied", "[reflection]") {
  const TVMFFITypeInfo* no_copy = TVMFFIGetTypeInfo(NoCopyObj::RuntimeTypeIndex());
  const TVMFFITypeInfo* copyable = TVMFFIGetTypeInfo(CopyableObj::RuntimeTypeIndex());

  CHECK(no_copy->num_methods == 0);  // the generated init is an attribute, not a method
  CHECK(copyable->num_methods == 0);
  Any obj = InitAttr(NoCopyObj::RuntimeTypeIndex())(int64_t(3));
  Function shallow = TestingGlobal("ffi.ShallowCopy");
  Function deep = TestingGlobal("ffi.DeepCopy");
  CHECK(ThrownBy([&] { shallow(obj); }) ==
        "TypeError: ffi.ShallowCopy: type `refltest.NoCopy` does not support copy: "
        "its C++ class is not copy-constructible");
  CHECK(ThrownBy([&] { deep(Array<Any>{obj}); }) ==
        "RuntimeError: ffi.DeepCopy: type `refltest.NoCopy` does not support copy: "
        "its C++ class is not copy-constructible");
  Any other = InitAttr(CopyableObj::RuntimeTypeIndex())(int64_t(4));
  ObjectRef copy = shallow(other).cast<ObjectRef>();
  CHECK_FALSE(copy.same_as(other.cast<ObjectRef>()));
  CHECK(Get(copy, FindField(copyable, "v")).cast<int64_t>() == 4);

  // A copyable class gets its copy constructor as `__ffi_shallow_copy__`;
  // the other has its reason.
  refl::TypeAttrColumn column("__ffi_shallow_copy__");
  CHECK(column[NoCopyObj::RuntimeTypeIndex()].type_index() == kTVMFFIStr);
  AnyView entry = column[CopyableObj::RuntimeTypeIndex()];
  REQUIRE(entry.type_index() == kTVMFFIFunction);
  Function copy_fn = entry.cast<Function>();
  ObjectRef made = copy_fn(other).cast<ObjectRef>();
  CHECK(made->type_index() == CopyableObj::RuntimeTypeIndex());
  CHECK_FALSE(made.same_as(other.cast<ObjectRef>()));
  CHECK(Get(made, FindField(copyable, "v")).cast<int64_t>() == 4);
  CHECK(made.use_count() == 1);
  CHECK(ThrownBy([&] { copy_fn(obj); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`refltest.Copyable.__ffi_shallow_copy__(0: refltest.Copyable) -> ffi.Object`. "
        "Expected `refltest.Copyable` but got `refltest.NoCopy`");
}

TEST_CASE("Reflection: the accessors read, write and find by type key", "[reflection]") {
  Point p(make_object<PointObj>(2, 0.25));
  refl::FieldGetter get_x("refltest.Point", "x");
  refl::FieldSetter set_x("refltest.Point", "x");
  CHECK(get_x(p).cast<int64_t>() == 2);
  set_x(p, int64_t(11));
  CHECK(p->x == 11);
  CHECK(ThrownBy([&] { set_x(p, "eleven"); }) ==
        "TypeError: Cannot convert from type `const char*` to `int`");
  CHECK(p->x == 11);
  refl::FieldSetter set_name(refl::GetFieldInfo("refltest.Point", "name"));
  set_name(p, "renamed");
  CHECK(refl::FieldGetter("refltest.Point", "name")(p).cast<std::string>() == "renamed");
  // Defaults, through the setter.
  const TVMFFIFieldInfo* y = refl::GetFieldInfo("refltest.Point", "y");
  refl::SetFieldToDefault(y, reinterpret_cast<char*>(p.get()) + y->offset);
  CHECK(p->y == 1.5);
  CHECK(refl::GetMethod("refltest.Point", "sum")(p).cast<double>() == 12.5);
  CHECK(TextOf(refl::GetMethodInfo("refltest.Point", "sum")->doc) == "x + y");
  CHECK(ThrownBy([] { refl::GetFieldInfo("refltest.Point", "z"); }) ==
        "RuntimeError: Cannot find field  `z` in refltest.Point");
  CHECK(ThrownBy([] { refl::GetMethod("refltest.Point", "nope"); }) ==
        "RuntimeError: Cannot find method nope in refltest.Point");
  // Fields in order, inherited ones first.
  std::vector<std::string> names;
  refl::ForEachFieldInfo(TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectDerived")),
                         [&](const TVMFFIFieldInfo* f) { names.push_back(TextOf(f->name)); });
  CHECK(names == std::vector<std::string>{"v_i64", "v_f64", "v_str", "v_array", "v_map"});
}

namespace {

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      .def("refltest.scale", [](const Point& p, int64_t k) { return p->x * k; }, "x times k")
      .def_packed("refltest.count_args",
                  [](PackedArgs args, Any* rv) { *rv = static_cast<int64_t>(args.size()); })
      .def_method("refltest.point_sum", &PointObj::Sum);
}

}  // namespace

TEST_CASE("Reflection: GlobalDef registers typed, packed and member functions", "[reflection]") {
  Point p(make_object<PointObj>(4, 0.5));
  CHECK(Call("refltest.scale", p, int64_t(3)).cast<int64_t>() == 12);
  CHECK(Call("refltest.count_args", int64_t(1), "two", 3.0).cast<int64_t>() == 3);
  CHECK(Call("refltest.point_sum", p).cast<double>() == 4.5);
  CHECK(p.use_count() == 1);
  CHECK(ThrownBy([] { Call("refltest.scale", int64_t(1), int64_t(2)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`refltest.scale(0: refltest.Point, 1: int) -> int`. Expected `refltest.Point` but "
        "got `int`");
  CHECK(ThrownBy([] { Call("refltest.point_sum", int64_t(1)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`refltest.point_sum(0: refltest.Point) -> float`. Expected `refltest.Point` but got "
        "`int`");
}

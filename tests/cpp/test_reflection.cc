// Reflection: ObjectDef, field getters/setters, methods, constructors.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstring>
#include <string>

#include "test_util.h"
#include "core/impl/array.h"
#include "core/impl/reflection.h"

using namespace tvm::ffi::detail::impl;
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

  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(PointObj, "refltest.Point", PlainObject)
};
using Point = ObjectRefOf<PointObj>;

// Registered once, on first use.
int32_t PointIndex() {
  static const int32_t index = [] {
    ObjectDef<PointObj>("A point.")
        .Field("x", &PointObj::x, "abscissa")
        .Field("y", &PointObj::y, "ordinate", Any(1.5))
        .ReadOnlyField("name", &PointObj::name)
        .Field("extra", &PointObj::extra)
        .Field("flag", &PointObj::flag)
        .Method("sum", &PointObj::Sum, "x + y")
        .Method("add_to_x", &PointObj::AddToX)
        .Method("scaled_x", [](const Point& p, int64_t k) { return p->x * k; })
        .StaticMethod("origin", []() { return Point(MakeObject<PointObj>()); })
        .Init<int64_t, double>("Point(x, y)");
    return PointObj::RuntimeTypeIndex();
  }();
  return index;
}

const TVMFFIFieldInfo* FindField(const TVMFFITypeInfo* info, const std::string& name) {
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (TextOf(info->fields[i].name) == name) return &info->fields[i];
  }
  return nullptr;
}

Function FindMethod(const TVMFFITypeInfo* info, const std::string& name, int64_t* flags = nullptr) {
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (TextOf(info->methods[i].name) == name) {
      if (flags != nullptr) *flags = info->methods[i].flags;
      return AnyView::FromRaw(info->methods[i].method).As<Function>();
    }
  }
  FAIL("method " << name << " not found");
  return Function();
}

void* FieldAddress(const ObjectRef& obj, const TVMFFIFieldInfo* f) {
  return static_cast<char*>(obj.handle()) + f->offset;
}

Any Get(const ObjectRef& obj, const TVMFFIFieldInfo* f) {
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  REQUIRE(f->getter(FieldAddress(obj, f), &out) == 0);
  return Any::Adopt(out);
}

int Set(const ObjectRef& obj, const TVMFFIFieldInfo* f, const AnyView& value) {
  auto setter = reinterpret_cast<TVMFFIFieldSetter>(f->setter);
  return setter(FieldAddress(obj, f), value.raw());
}

int32_t KeyToIndex(const char* key) {
  TVMFFIByteArray k{key, std::strlen(key)};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&k, &index) == 0);
  return index;
}

}  // namespace

TEST_CASE("Reflection: ObjectDef registers metadata and fields", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  REQUIRE(info != nullptr);
  CHECK(TextOf(info->type_key) == "refltest.Point");
  REQUIRE(info->metadata != nullptr);
  CHECK(TextOf(info->metadata->doc) == "A point.");
  CHECK(info->metadata->total_size == static_cast<int32_t>(sizeof(PointObj)));
  REQUIRE(info->num_fields == 5);

  PointObj sample;
  auto offset_of = [&](const void* member) {
    return static_cast<int64_t>(static_cast<const char*>(member) -
                                reinterpret_cast<const char*>(&sample.header_));
  };
  const TVMFFIFieldInfo* x = &info->fields[0];
  CHECK(TextOf(x->name) == "x");
  CHECK(TextOf(x->doc) == "abscissa");
  CHECK(x->flags == kTVMFFIFieldFlagBitMaskWritable);
  CHECK(x->offset == offset_of(&sample.x));
  CHECK(x->size == 8);
  CHECK(x->alignment == 8);
  CHECK(x->field_static_type_index == kTVMFFIInt);

  const TVMFFIFieldInfo* y = &info->fields[1];
  CHECK(TextOf(y->name) == "y");
  CHECK(y->flags == (kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault));
  CHECK(y->default_value_or_factory.type_index == kTVMFFIFloat);
  CHECK(y->default_value_or_factory.v_float64 == 1.5);
  CHECK(y->field_static_type_index == kTVMFFIFloat);

  const TVMFFIFieldInfo* name = &info->fields[2];
  CHECK(TextOf(name->name) == "name");
  CHECK(name->flags == 0);
  CHECK(name->field_static_type_index == kTVMFFIAny);
  CHECK(name->offset == offset_of(&sample.name));
  CHECK(info->fields[3].field_static_type_index == kTVMFFIAny);
  CHECK(info->fields[4].field_static_type_index == kTVMFFIBool);
}

TEST_CASE("Reflection: the creator makes a default instance", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  REQUIRE(info->metadata->creator != nullptr);
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(info->metadata->creator(&h) == 0);
  Point p(ObjectPtr<Object>::AdoptHandle(h));
  CHECK(p.type_index() == PointIndex());
  CHECK(p.use_count() == 1);
  CHECK(p->name.str() == "point");
}

TEST_CASE("Reflection: getters and setters round-trip through the C ABI", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  Point p(MakeObject<PointObj>(7, 2.5));

  CHECK(Get(p, FindField(info, "x")).As<int64_t>() == 7);
  CHECK(Set(p, FindField(info, "x"), AnyView(int64_t(42))) == 0);
  CHECK(p->x == 42);
  CHECK(Get(p, FindField(info, "y")).As<double>() == 2.5);
  CHECK(Set(p, FindField(info, "y"), AnyView(int64_t(3))) == 0);  // int widens to float
  CHECK(p->y == 3.0);

  // Strings: a raw C string view becomes a String; the getter returns an owned value.
  CHECK(Set(p, FindField(info, "name"), AnyView("a longer name")) == 0);
  CHECK(p->name.str() == "a longer name");
  Any got = Get(p, FindField(info, "name"));
  CHECK(got.type_index() == kTVMFFIStr);
  CHECK(p->name.use_count() == 2);
  CHECK(got.As<std::string>() == "a longer name");
  got = Any();
  CHECK(p->name.use_count() == 1);

  // Any field: holds a reference to whatever it is given.
  Point other(MakeObject<PointObj>());
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
  Point p(MakeObject<PointObj>(1, 2.0));
  CHECK(Set(p, FindField(info, "x"), AnyView("text")) == -1);
  CHECK(TakeRaised() == "TypeError: expected int, got str");
  CHECK(p->x == 1);
  CHECK(Set(p, FindField(info, "name"), AnyView(int64_t(5))) == -1);
  CHECK(TakeRaised() == "TypeError: expected str, got int");
  CHECK(Set(p, FindField(info, "y"), AnyView(p)) == -1);
  CHECK(TakeRaised() == "TypeError: expected float, got refltest.Point");
  CHECK(p->y == 2.0);
}

TEST_CASE("Reflection: methods, static methods and __ffi_init__", "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointIndex());
  REQUIRE(info->num_methods == 5);
  Point p(MakeObject<PointObj>(3, 0.5));

  int64_t flags = -1;
  Function sum = FindMethod(info, "sum", &flags);
  CHECK(flags == 0);
  CHECK(sum(p).As<double>() == 3.5);
  CHECK(FindMethod(info, "add_to_x")(p, int64_t(4)).As<int64_t>() == 7);
  CHECK(p->x == 7);
  CHECK(FindMethod(info, "scaled_x")(p, int64_t(3)).As<int64_t>() == 21);
  CHECK(p.use_count() == 1);

  Function origin = FindMethod(info, "origin", &flags);
  CHECK(flags == kTVMFFIFieldFlagBitMaskIsStaticMethod);
  Point o = origin().As<Point>();
  CHECK(o->x == 0);

  Function init = FindMethod(info, "__ffi_init__", &flags);
  CHECK(flags == kTVMFFIFieldFlagBitMaskIsStaticMethod);
  Any made = init(int64_t(5), 6.25);
  CHECK(made.type_index() == PointIndex());
  Point q = made.As<Point>();
  CHECK(q->x == 5);
  CHECK(q->y == 6.25);
  made = Any();
  CHECK(q.use_count() == 1);

  CHECK_THROWS_WITH(sum(int64_t(1)),
                    "TypeError: In function refltest.Point.sum: argument 1: expected "
                    "refltest.Point, got int");
  CHECK_THROWS_WITH(init(int64_t(5)),
                    "TypeError: Mismatched number of arguments when calling: "
                    "`refltest.Point.__ffi_init__(0: int, 1: float) -> refltest.Point`. "
                    "Expected 2 but got 1 arguments");
}

TEST_CASE("Reflection: a second ObjectDef of a type throws", "[reflection]") {
  PointIndex();
  // A second ObjectDef of the same type fails on the metadata first.
  CHECK_THROWS_WITH(ObjectDef<PointObj>(),
                    "RuntimeError: metadata of type `refltest.Point` is already registered");
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
  ObjectRef ref = obj.As<ObjectRef>();
  obj = Any();
  CHECK(use_count(ref).As<int64_t>() == 1);
  CHECK(Get(ref, FindField(base, "v_i64")).As<int64_t>() == 3);
  CHECK(Get(ref, FindField(base, "v_f64")).As<double>() == 1.25);
  CHECK(Get(ref, FindField(base, "v_str")).As<std::string>() == "hi");
  CHECK(FindMethod(base, "add_i64")(ref, int64_t(4)).As<int64_t>() == 7);
  {
    ObjectRef second = ref;
    CHECK(use_count(ref).As<int64_t>() == 2);
  }

  // Positional parameters: the required v_array first, then the defaulted
  // v_i64, v_f64, v_str (and v_map).
  Any d = FindMethod(derived, "__ffi_init__")(int64_t(9), int64_t(1), 2.0, "s");
  REQUIRE(d.type_index() == derived_index);
  ObjectRef dref = d.As<ObjectRef>();
  CHECK(Get(dref, FindField(derived, "v_array")).As<int64_t>() == 9);
  CHECK(Get(dref, FindField(base, "v_i64")).As<int64_t>() == 1);
  // Base methods work on the derived type.
  CHECK(FindMethod(base, "add_i64")(dref, int64_t(1)).As<int64_t>() == 2);
  CHECK_THROWS_WITH(use_count(int64_t(1)),
                    "TypeError: testing.object_use_count: expected an object, got int");
}

namespace {

class OptionsObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  int64_t c = 0;
  Any d;
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(OptionsObj, "refltest.Options", PlainObject)
};

int g_factory_calls = 0;

// a: required; b: keyword-only, default 2; c: not an __init__ parameter,
// default 3; d: default made by a factory on each call.
int32_t OptionsIndex() {
  static const int32_t index = [] {
    Function factory = Function::FromTyped([]() { return int64_t(100 + ++g_factory_calls); });
    ObjectDef<OptionsObj>()
        .Field("a", &OptionsObj::a)
        .Field("b", &OptionsObj::b, "", Any(int64_t(2)), kTVMFFIFieldFlagBitMaskKwOnly)
        .Field("c", &OptionsObj::c, "", Any(int64_t(3)), kTVMFFIFieldFlagBitMaskInitOff)
        .Field("d", &OptionsObj::d, "", Any(factory), kTVMFFIFieldFlagBitMaskDefaultFromFactory)
        .AutoInit();
    return OptionsObj::RuntimeTypeIndex();
  }();
  return index;
}

class OrderObj : public Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  int64_t z = 0;
  int64_t w = 0;
  int64_t k = 0;
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(OrderObj, "refltest.Order", PlainObject)
};

// x: default 1; y: required; z: default 2; w: required; k: keyword-only,
// required.  Positional parameters: y, w, x, z.
int32_t OrderIndex() {
  static const int32_t index = [] {
    ObjectDef<OrderObj>()
        .Field("x", &OrderObj::x, "", Any(int64_t(1)))
        .Field("y", &OrderObj::y)
        .Field("z", &OrderObj::z, "", Any(int64_t(2)))
        .Field("w", &OrderObj::w)
        .FieldWithFlags("k", &OrderObj::k, kTVMFFIFieldFlagBitMaskKwOnly)
        .AutoInit();
    return OrderObj::RuntimeTypeIndex();
  }();
  return index;
}

// __ffi_init__ of a registered type, looked up by key.
Function InitOf(const char* key) {
  return FindMethod(TVMFFIGetTypeInfo(KeyToIndex(key)), "__ffi_init__");
}

}  // namespace

TEST_CASE("Reflection: AutoInit takes positional arguments and defaults", "[reflection]") {
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectBase"));
  Function init = InitOf("testing.TestObjectBase");
  ObjectRef all = init(int64_t(1), 2.5, "three").As<ObjectRef>();
  CHECK(Get(all, FindField(base, "v_i64")).As<int64_t>() == 1);
  CHECK(Get(all, FindField(base, "v_f64")).As<double>() == 2.5);
  CHECK(Get(all, FindField(base, "v_str")).As<std::string>() == "three");
  CHECK(all.use_count() == 1);

  ObjectRef defaults = init().As<ObjectRef>();
  CHECK(Get(defaults, FindField(base, "v_i64")).As<int64_t>() == 10);
  CHECK(Get(defaults, FindField(base, "v_f64")).As<double>() == 10.0);
  CHECK(Get(defaults, FindField(base, "v_str")).As<std::string>() == "hello");

  CHECK_THROWS_WITH(init(int64_t(1), 2.0, "s", int64_t(4)),
                    "TypeError: __ffi_init__ of `testing.TestObjectBase`: takes 3 positional "
                    "arguments but 4 were given");
  CHECK_THROWS_WITH(init("one"),
                    "TypeError: __ffi_init__ of `testing.TestObjectBase`: argument `v_i64`: "
                    "Cannot convert from type `const char*` to `int`");
  CHECK_THROWS_WITH(InitOf("testing.TestObjectDerived")(),
                    "TypeError: testing.TestObjectDerived.__ffi_init__() missing required "
                    "argument: 'v_array'");
}

TEST_CASE("Reflection: AutoInit's positional parameters put those without a default first",
          "[reflection]") {
  // TestObjectDerived: v_i64, v_f64, v_str (inherited, with defaults), then
  // v_array (none): the first positional argument is v_array, as upstream.
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectBase"));
  const TVMFFITypeInfo* derived = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectDerived"));
  Function init = InitOf("testing.TestObjectDerived");
  ObjectRef one = init(int64_t(8)).As<ObjectRef>();
  CHECK(Get(one, FindField(derived, "v_array")).As<int64_t>() == 8);
  CHECK(Get(one, FindField(base, "v_i64")).As<int64_t>() == 10);
  ObjectRef two = init(int64_t(8), int64_t(4)).As<ObjectRef>();
  CHECK(Get(two, FindField(derived, "v_array")).As<int64_t>() == 8);
  CHECK(Get(two, FindField(base, "v_i64")).As<int64_t>() == 4);
}

TEST_CASE("Reflection: AutoInit takes keyword arguments after KWARGS", "[reflection]") {
  ObjectRef kw(ObjectPtr<Object>::BorrowHandle(KwargsSentinel()));
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectBase"));
  const TVMFFITypeInfo* derived = TVMFFIGetTypeInfo(KeyToIndex("testing.TestObjectDerived"));
  Function init = InitOf("testing.TestObjectDerived");
  ObjectRef obj = init(int64_t(8), kw, "v_i64", int64_t(5), "v_str", "named").As<ObjectRef>();
  CHECK(Get(obj, FindField(base, "v_i64")).As<int64_t>() == 5);
  CHECK(Get(obj, FindField(base, "v_f64")).As<double>() == 10.0);
  CHECK(Get(obj, FindField(base, "v_str")).As<std::string>() == "named");
  CHECK(Get(obj, FindField(derived, "v_array")).As<int64_t>() == 8);

  CHECK_THROWS_WITH(init(kw, "v_array", int64_t(1), "nope", int64_t(2)),
                    "TypeError: __ffi_init__ of `testing.TestObjectDerived`: unexpected keyword "
                    "argument `nope`");
  CHECK_THROWS_WITH(init(int64_t(1), kw, "v_i64", int64_t(2), "v_array", int64_t(3)),
                    "TypeError: __ffi_init__ of `testing.TestObjectDerived`: multiple values for "
                    "argument `v_array`");
  CHECK_THROWS_WITH(init(kw, "v_array"),
                    "TypeError: __ffi_init__ of `testing.TestObjectDerived`: keyword arguments "
                    "must be name/value pairs");
}

TEST_CASE("Reflection: AutoInit honours KwOnly, InitOff and default factories",
          "[reflection]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(OptionsIndex());
  ObjectRef kw(ObjectPtr<Object>::BorrowHandle(KwargsSentinel()));
  Function init = FindMethod(info, "__ffi_init__");
  int calls_before = g_factory_calls;
  ObjectRefOf<OptionsObj> o = init(int64_t(1)).As<ObjectRefOf<OptionsObj>>();
  CHECK(o->a == 1);
  CHECK(o->b == 2);
  CHECK(o->c == 3);
  CHECK(o->d.As<int64_t>() == 100 + calls_before + 1);
  CHECK(g_factory_calls == calls_before + 1);

  o = init(int64_t(1), kw, "b", int64_t(20), "d", "given").As<ObjectRefOf<OptionsObj>>();
  CHECK(o->b == 20);
  CHECK(o->d.As<std::string>() == "given");
  CHECK(g_factory_calls == calls_before + 1);  // not called when d is given

  // b is keyword-only and c is no parameter at all: positional args are a, d.
  o = init(int64_t(1), int64_t(7)).As<ObjectRefOf<OptionsObj>>();
  CHECK(o->b == 2);
  CHECK(o->d.As<int64_t>() == 7);
  CHECK_THROWS_WITH(init(int64_t(1), int64_t(2), int64_t(3)),
                    "TypeError: __ffi_init__ of `refltest.Options`: takes 2 positional "
                    "arguments but 3 were given");
  CHECK_THROWS_WITH(init(int64_t(1), kw, "c", int64_t(5)),
                    "TypeError: __ffi_init__ of `refltest.Options`: unexpected keyword argument "
                    "`c`");
  CHECK_THROWS_WITH(init(kw, "b", int64_t(5)),
                    "TypeError: refltest.Options.__ffi_init__() missing required argument: 'a'");
}

TEST_CASE("Reflection: AutoInit fills required positional fields before defaulted ones",
          "[reflection]") {
  Function init = FindMethod(TVMFFIGetTypeInfo(OrderIndex()), "__ffi_init__");
  ObjectRef kw(ObjectPtr<Object>::BorrowHandle(KwargsSentinel()));
  ObjectRefOf<OrderObj> o = init(int64_t(10), int64_t(20), kw, "k", int64_t(5))
                                .As<ObjectRefOf<OrderObj>>();
  CHECK((o->y == 10 && o->w == 20 && o->x == 1 && o->z == 2 && o->k == 5));
  o = init(int64_t(10), int64_t(20), int64_t(30), int64_t(40), kw, "k", int64_t(5))
          .As<ObjectRefOf<OrderObj>>();
  CHECK((o->y == 10 && o->w == 20 && o->x == 30 && o->z == 40));
  CHECK_THROWS_WITH(init(int64_t(10), kw, "k", int64_t(5)),
                    "TypeError: refltest.Order.__ffi_init__() missing required argument: 'w'");
  CHECK_THROWS_WITH(init(int64_t(10), int64_t(20)),
                    "TypeError: refltest.Order.__ffi_init__() missing required keyword-only "
                    "argument: 'k'");
  CHECK_THROWS_WITH(init(int64_t(1), int64_t(2), int64_t(3), int64_t(4), int64_t(5)),
                    "TypeError: __ffi_init__ of `refltest.Order`: takes 4 positional arguments "
                    "but 5 were given");
}

namespace {

class NoCopyObj : public Object {
 public:
  int64_t v = 0;
  NoCopyObj() = default;
  NoCopyObj(const NoCopyObj&) = delete;
  NoCopyObj& operator=(const NoCopyObj&) = delete;
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(NoCopyObj, "refltest.NoCopy", PlainObject)
};

class CopyableObj : public Object {
 public:
  int64_t v = 0;
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(CopyableObj, "refltest.Copyable", PlainObject)
};

}  // namespace

TEST_CASE("Reflection: a class that is not copy-constructible is not copied", "[reflection]") {
  static const bool registered = [] {
    ObjectDef<NoCopyObj>().Field("v", &NoCopyObj::v).AutoInit();
    ObjectDef<CopyableObj>().Field("v", &CopyableObj::v).AutoInit();
    return true;
  }();
  (void)registered;
  const TVMFFITypeInfo* no_copy = TVMFFIGetTypeInfo(NoCopyObj::RuntimeTypeIndex());
  const TVMFFITypeInfo* copyable = TVMFFIGetTypeInfo(CopyableObj::RuntimeTypeIndex());
  CHECK(reflection_detail::CopyRefusal(no_copy) == "its C++ class is not copy-constructible");
  CHECK(reflection_detail::CopyRefusal(copyable).empty());

  Any obj = FindMethod(no_copy, "__ffi_init__")(int64_t(3));
  Function shallow = TestingGlobal("ffi.ShallowCopy");
  Function deep = TestingGlobal("ffi.DeepCopy");
  CHECK_THROWS_WITH(shallow(obj),
                    "TypeError: ffi.ShallowCopy: type `refltest.NoCopy` does not support copy: "
                    "its C++ class is not copy-constructible");
  CHECK_THROWS_WITH(deep(Array<Any>{obj}),
                    "RuntimeError: ffi.DeepCopy: type `refltest.NoCopy` does not support copy: "
                    "its C++ class is not copy-constructible");
  Any other = FindMethod(copyable, "__ffi_init__")(int64_t(4));
  ObjectRef copy = shallow(other).As<ObjectRef>();
  CHECK_FALSE(copy.same_as(other.As<ObjectRef>()));
  CHECK(Get(copy, FindField(copyable, "v")).As<int64_t>() == 4);

  // A copyable class gets its copy constructor as `__ffi_shallow_copy__`.
  TVMFFIByteArray name{"__ffi_shallow_copy__", 20};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  REQUIRE(col != nullptr);
  const TVMFFIAny& entry = col->data[CopyableObj::RuntimeTypeIndex() - col->begin_index];
  REQUIRE(entry.type_index == kTVMFFIFunction);
  Function copy_fn = AnyView::FromRaw(entry).As<Function>();
  ObjectRef made = copy_fn(other).As<ObjectRef>();
  CHECK(made.type_index() == CopyableObj::RuntimeTypeIndex());
  CHECK_FALSE(made.same_as(other.As<ObjectRef>()));
  CHECK(Get(made, FindField(copyable, "v")).As<int64_t>() == 4);
  CHECK(made.use_count() == 1);
  CHECK_THROWS_WITH(copy_fn(obj),
                    "TypeError: __ffi_shallow_copy__ of `refltest.Copyable` takes one object of "
                    "that exact type, got refltest.NoCopy");
}

// reflection/registry.h: what ObjectDef, GlobalDef and TypeAttrDef register,
// read back through the C ABI (TVMFFIGetTypeInfo, the getter and setter
// pointers, the attribute columns) and called as the runtime calls it.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "error_of.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using cxx_api_test::ErrorOf;

namespace {

// A pad before the Object base: offsets are counted from the object header.
struct Pad {
  int64_t words[3];
};

class PointObj : public Pad, public Object {
 public:
  int64_t x = 0;
  double y = 0;
  String label;
  Array<int64_t> tags;

  PointObj() = default;
  PointObj(int64_t x, double y) : x(x), y(y) {}
  int64_t Sum(int64_t extra) const { return x + static_cast<int64_t>(y) + extra; }
  void Shift(int64_t by) { x += by; }
  static int64_t Twice(int64_t v) { return 2 * v; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Point", PointObj, Object);
};

class Point : public ObjectRef {
 public:
  Point(int64_t x, double y) : ObjectRef(make_object<PointObj>(x, y)) {}
  int64_t Norm1() const { return get()->x + static_cast<int64_t>(get()->y); }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Point, ObjectRef, PointObj);
};

// Generated __ffi_init__ (no explicit init): fields with defaults, one left out.
class AutoObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  Array<int64_t> items;
  int64_t hidden = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Auto", AutoObj, Object);
};

// Not copyable and no creator: no __ffi_new__, no __ffi_shallow_copy__.
class NoCopyObj : public Object {
 public:
  explicit NoCopyObj(int64_t v) : v(v) {}
  NoCopyObj(const NoCopyObj&) = delete;
  int64_t v;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_test.refl.NoCopy", NoCopyObj, Object);
};

int g_factory_calls = 0;

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PointObj>("A point.")
      .def_ro("x", &PointObj::x, "abscissa")
      .def_rw("y", &PointObj::y, refl::default_value(1.5), refl::repr(false))
      .def_rw("label", &PointObj::label, refl::Metadata{{"unit", "cm"}, {"rank", 3}, {"on", true}})
      .def_ro("tags", &PointObj::tags, refl::compare(false), refl::hash(false), refl::kw_only(true))
      .def("sum", &PointObj::Sum, "x + y + extra")
      .def("shift", &PointObj::Shift)
      .def("norm1", &Point::Norm1)
      .def("lambda_x", [](const PointObj* self) { return self->x * 10; })
      .def_static("twice", &PointObj::Twice)
      .def(refl::init<int64_t, double>(), "from x and y");
  refl::ObjectDef<AutoObj>()
      .def_ro("a", &AutoObj::a)
      .def_ro("b", &AutoObj::b, refl::default_value(7))
      .def_ro("items", &AutoObj::items, refl::default_factory(Function::FromTyped([]() {
                ++g_factory_calls;
                return Array<int64_t>{1, 2};
              })))
      .def_ro("hidden", &AutoObj::hidden, refl::init(false), refl::default_value(42));
  refl::ObjectDef<NoCopyObj>().def_ro("v", &NoCopyObj::v);
  refl::GlobalDef()
      .def("cxx_api_test.refl.add", [](int64_t a, int64_t b) { return a + b; }, "adds")
      .def_packed("cxx_api_test.refl.count_args",
                  [](PackedArgs args, Any* rv) { *rv = static_cast<int64_t>(args.size()); })
      .def_method("cxx_api_test.refl.point_sum", &PointObj::Sum);
  refl::TypeAttrDef<PointObj>()
      .def("cxx_api_test.refl.attr_int", int64_t{11})
      .def("cxx_api_test.refl.attr_text", "literal")
      .def("cxx_api_test.refl.attr_fn", [](int64_t v) { return v + 100; })
      .attr(refl::AttrKey<bool>{"cxx_api_test.refl.attr_key"}, 1);
}

const TVMFFITypeInfo* InfoOf(int32_t type_index) { return TVMFFIGetTypeInfo(type_index); }

std::string Text(const TVMFFIByteArray& bytes) { return std::string(bytes.data, bytes.size); }

const TVMFFIFieldInfo* Field(const TVMFFITypeInfo* info, const char* name) {
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (Text(info->fields[i].name) == name) return info->fields + i;
  }
  return nullptr;
}

int CountMethods(const TVMFFITypeInfo* info, const char* name) {
  int n = 0;
  for (int32_t i = 0; i < info->num_methods; ++i) n += Text(info->methods[i].name) == name;
  return n;
}

}  // namespace

TEST_CASE("reflection registry: fields as the C ABI sees them", "[reflection]") {
  const TVMFFITypeInfo* info = InfoOf(PointObj::RuntimeTypeIndex());
  REQUIRE(info->num_fields == 4);
  const TVMFFIFieldInfo* x = Field(info, "x");
  REQUIRE(x != nullptr);
  // The Pad before Object does not count: x is the first word after the header.
  CHECK(x->offset == static_cast<int64_t>(sizeof(TVMFFIObject)));
  CHECK(refl::GetFieldByteOffsetToObject(&PointObj::x) == x->offset);
  CHECK(x->size == 8);
  CHECK(x->alignment == 8);
  CHECK(x->flags == 0);
  CHECK(x->field_static_type_index == kTVMFFIInt);
  CHECK(Text(x->doc) == "abscissa");
  CHECK(Text(x->metadata) == R"({"type_schema":"{\"type\":\"int\"}"})");
  CHECK(x->default_value_or_factory.type_index == kTVMFFINone);

  const TVMFFIFieldInfo* y = Field(info, "y");
  REQUIRE(y != nullptr);
  CHECK(y->flags == (kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                     kTVMFFIFieldFlagBitMaskReprOff));
  CHECK(y->default_value_or_factory.type_index == kTVMFFIFloat);
  CHECK(y->default_value_or_factory.v_float64 == 1.5);
  CHECK(y->field_static_type_index == kTVMFFIFloat);

  const TVMFFIFieldInfo* label = Field(info, "label");
  REQUIRE(label != nullptr);
  CHECK(Text(label->metadata) ==
        R"({"type_schema":"{\"type\":\"ffi.String\"}","unit":"cm","rank":3,"on":true})");

  const TVMFFIFieldInfo* tags = Field(info, "tags");
  REQUIRE(tags != nullptr);
  CHECK(tags->flags == (kTVMFFIFieldFlagBitMaskCompareOff | kTVMFFIFieldFlagBitMaskHashOff |
                        kTVMFFIFieldFlagBitMaskKwOnly));
  CHECK(tags->field_static_type_index == kTVMFFIArray);

  REQUIRE(info->metadata != nullptr);
  CHECK(Text(info->metadata->doc) == "A point.");
  CHECK(info->metadata->total_size == static_cast<int32_t>(sizeof(PointObj)));
  CHECK(info->metadata->creator != nullptr);
}

TEST_CASE("reflection registry: getters and setters through the C pointers", "[reflection]") {
  const TVMFFITypeInfo* info = InfoOf(PointObj::RuntimeTypeIndex());
  ObjectPtr<PointObj> p = make_object<PointObj>(3, 4.0);
  char* base = reinterpret_cast<char*>(static_cast<Object*>(p.get()));

  const TVMFFIFieldInfo* x = Field(info, "x");
  Any got;
  REQUIRE(x->getter(base + x->offset, reinterpret_cast<TVMFFIAny*>(&got)) == 0);
  CHECK(got.cast<int64_t>() == 3);

  const TVMFFIFieldInfo* label = Field(info, "label");
  AnyView text("hello");
  auto set_label = reinterpret_cast<TVMFFIFieldSetter>(label->setter);
  REQUIRE(set_label(base + label->offset, reinterpret_cast<const TVMFFIAny*>(&text)) == 0);
  CHECK(p->label == "hello");

  // A value of the wrong type: -1 and a TypeError in the slot, field unchanged.
  AnyView number(int64_t{5});
  CHECK(set_label(base + label->offset, reinterpret_cast<const TVMFFIAny*>(&number)) == -1);
  Error err = detail::MoveFromSafeCallRaised();
  CHECK(err.kind() == "TypeError");
  CHECK(err.message() == "Cannot convert from type `int` to `str`");
  CHECK(p->label == "hello");
}

TEST_CASE("reflection registry: methods", "[reflection]") {
  const TVMFFITypeInfo* info = InfoOf(PointObj::RuntimeTypeIndex());
  Point p(3, 4.0);
  CHECK(refl::GetMethod(PointObj::_type_key, "sum")(p, 10).cast<int64_t>() == 17);
  refl::GetMethod(PointObj::_type_key, "shift")(p, 5);
  CHECK(p->x == 8);
  CHECK(refl::GetMethod(PointObj::_type_key, "norm1")(p).cast<int64_t>() == 12);
  CHECK(refl::GetMethod(PointObj::_type_key, "lambda_x")(p).cast<int64_t>() == 80);
  CHECK(refl::GetMethod(PointObj::_type_key, "twice")(21).cast<int64_t>() == 42);

  const TVMFFIMethodInfo* sum = refl::GetMethodInfo(PointObj::_type_key, "sum");
  CHECK(Text(sum->doc) == "x + y + extra");
  CHECK(sum->flags == 0);
  CHECK(Text(sum->metadata) ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":\"int\"}],\"params\":[{\"type\":\"cxx_api_test.refl.Point\"},{\"type\":\"int\"}]}}"})");
  CHECK(refl::GetMethodInfo(PointObj::_type_key, "twice")->flags ==
        kTVMFFIFieldFlagBitMaskIsStaticMethod);

  // The name of a method appears in its argument errors.
  CHECK(ErrorOf([&] { refl::GetMethod(PointObj::_type_key, "sum")(p, "x"); }) ==
        "TypeError: Mismatched type on argument #1 when calling: "
        "`cxx_api_test.refl.Point.sum(0: cxx_api_test.refl.Point, 1: int) -> int`. "
        "Expected `int` but got `const char*`");
  CHECK(CountMethods(info, "sum") == 1);
}

TEST_CASE("reflection registry: an explicit init is a static method and the column entry",
          "[reflection]") {
  const TVMFFIMethodInfo* init = refl::GetMethodInfo(PointObj::_type_key, "__ffi_init__");
  CHECK(init->flags == kTVMFFIFieldFlagBitMaskIsStaticMethod);
  CHECK(Text(init->doc) == "from x and y");
  Function from_column =
      refl::TypeAttrColumn(type_attr::kInit)[PointObj::RuntimeTypeIndex()].cast<Function>();
  Point p = from_column(2, 0.5).cast<Point>();
  CHECK(p->x == 2);
  CHECK(p->y == 0.5);
  CHECK(from_column.same_as(AnyView::CopyFromTVMFFIAny(init->method).cast<Function>()));
}

TEST_CASE("reflection registry: the destructor's attributes", "[reflection]") {
  int32_t point = PointObj::RuntimeTypeIndex();
  // __ffi_new__ wraps the creator: a default-constructed instance.
  Function make_new = refl::TypeAttrColumn(type_attr::kNew)[point].cast<Function>();
  Point fresh = make_new().cast<Point>();
  CHECK(fresh->x == 0);
  // __ffi_shallow_copy__: a new object with the same field values.
  Point p(5, 6.0);
  Point copy =
      refl::TypeAttrColumn(type_attr::kShallowCopy)[point].cast<Function>()(p).cast<Point>();
  CHECK(!copy.same_as(p));
  CHECK(copy->x == 5);
  CHECK(copy->y == 6.0);
  // Finality.
  refl::TypeAttrColumn final_column(type_attr::kTypeFinal);
  CHECK(final_column[point].cast<bool>() == true);
  int32_t no_copy = NoCopyObj::RuntimeTypeIndex();
  CHECK(final_column[no_copy].cast<bool>() == false);
  CHECK(refl::TypeAttrColumn(type_attr::kShallowCopy)[no_copy] == nullptr);
  CHECK(refl::TypeAttrColumn(type_attr::kNew)[no_copy] == nullptr);
  CHECK(InfoOf(no_copy)->metadata->creator == nullptr);
}

TEST_CASE("reflection registry: the generated init uses defaults and factories",
          "[reflection]") {
  Function init =
      refl::TypeAttrColumn(type_attr::kInit)[AutoObj::RuntimeTypeIndex()].cast<Function>();
  int calls_before = g_factory_calls;
  ObjectRef made = init(1).cast<ObjectRef>();
  const AutoObj* obj = made.as<AutoObj>();
  REQUIRE(obj != nullptr);
  CHECK(obj->a == 1);
  CHECK(obj->b == 7);
  CHECK(obj->hidden == 42);
  CHECK(obj->items.size() == 2);
  CHECK(g_factory_calls == calls_before + 1);
  // A fresh value per instance.
  ObjectRef other = init(2, 3).cast<ObjectRef>();
  CHECK(other.as<AutoObj>()->b == 3);
  CHECK(!other.as<AutoObj>()->items.same_as(obj->items));
  CHECK(g_factory_calls == calls_before + 2);
  // An explicit value skips the factory.
  init(1, 2, Array<int64_t>{9});
  CHECK(g_factory_calls == calls_before + 2);
  const TVMFFIFieldInfo* hidden = refl::GetFieldInfo(AutoObj::_type_key, "hidden");
  CHECK((hidden->flags & kTVMFFIFieldFlagBitMaskInitOff) != 0);
  const TVMFFIFieldInfo* items = refl::GetFieldInfo(AutoObj::_type_key, "items");
  CHECK(items->flags == (kTVMFFIFieldFlagBitMaskHasDefault |
                         kTVMFFIFieldFlagBitMaskDefaultFromFactory));
  CHECK(items->default_value_or_factory.type_index == kTVMFFIFunction);
}

TEST_CASE("reflection registry: global functions", "[reflection]") {
  Function add = Function::GetGlobalRequired("cxx_api_test.refl.add");
  CHECK(add(2, 3).cast<int64_t>() == 5);
  CHECK(ErrorOf([&] { add(1); }) ==
        "TypeError: Mismatched number of arguments when calling: "
        "`cxx_api_test.refl.add(0: int, 1: int) -> int`. Expected 2 but got 1 arguments");
  CHECK(Function::GetGlobalRequired("cxx_api_test.refl.count_args")(1, "a", 2.0).cast<int64_t>() ==
        3);
  Point p(1, 2.0);
  CHECK(Function::GetGlobalRequired("cxx_api_test.refl.point_sum")(p, 3).cast<int64_t>() == 6);
  // Registering a name again without override fails and names the function.
  CHECK(ErrorOf([] { refl::GlobalDef().def("cxx_api_test.refl.add", []() { return 0; }); })
            .rfind("RuntimeError: ", 0) == 0);
}

TEST_CASE("reflection registry: metadata values are int, bool or str", "[reflection]") {
  CHECK(ErrorOf([] {
          refl::GlobalDef().def("cxx_api_test.refl.bad_meta", []() { return 0; },
                                refl::Metadata{{"ratio", 0.5}});
        }) == "TypeError: Metadata can be only int, bool or string, but on key `ratio`, "
              "the type is float");
  CHECK(!Function::GetGlobal("cxx_api_test.refl.bad_meta").has_value());
}

TEST_CASE("reflection registry: type attributes", "[reflection]") {
  int32_t point = PointObj::RuntimeTypeIndex();
  CHECK(refl::TypeAttrColumn("cxx_api_test.refl.attr_int")[point].cast<int64_t>() == 11);
  CHECK(refl::TypeAttrColumn("cxx_api_test.refl.attr_text")[point].cast<String>() == "literal");
  CHECK(refl::TypeAttrColumn("cxx_api_test.refl.attr_fn")[point].cast<Function>()(1).cast<int>() ==
        101);
  // attr(AttrKey<bool>, 1) stored the key's type.
  AnyView flag = refl::TypeAttrColumn("cxx_api_test.refl.attr_key")[point];
  CHECK(flag.type_index() == kTVMFFIBool);
  CHECK(refl::AttrKey<bool>{"cxx_api_test.refl.attr_key"}.ValueFrom(flag) == std::optional<bool>(true));
  // Other types have no entry.
  CHECK(refl::TypeAttrColumn("cxx_api_test.refl.attr_int")[AutoObj::RuntimeTypeIndex()] ==
        nullptr);
  // A column nobody registered does not exist until ensured.
  CHECK(ErrorOf([] { refl::TypeAttrColumn("cxx_api_test.refl.never"); }) ==
        "RuntimeError: Cannot find type attribute cxx_api_test.refl.never");
  refl::EnsureTypeAttrColumn("cxx_api_test.refl.ensured");
  CHECK(refl::TypeAttrColumn("cxx_api_test.refl.ensured")[point] == nullptr);
}

namespace {
struct Pet {
  int Set(int) { return 1; }
  int Set(const std::string&) { return 2; }
  int Get(int) { return 3; }
  int Get(int) const { return 4; }
  static int Feed(int, double) { return 5; }
  static int Feed(const char*, double) { return 6; }
};
template <auto F>
struct AsTemplateArgument {
  static constexpr bool kOk = true;
};
}  // namespace

TEST_CASE("reflection registry: overload_cast picks by leading parameter types",
          "[reflection]") {
  Pet pet;
  CHECK((pet.*refl::overload_cast<int>(&Pet::Set))(0) == 1);
  CHECK((pet.*refl::overload_cast<const std::string&>(&Pet::Set))("") == 2);
  CHECK((pet.*refl::overload_cast<int>(&Pet::Get))(0) == 3);
  const Pet& const_pet = pet;
  CHECK((const_pet.*refl::overload_cast<int>(&Pet::Get, refl::const_))(0) == 4);
  // The trailing double is deduced.
  CHECK(refl::overload_cast<const char*>(&Pet::Feed)("", 1.0) == 6);
  STATIC_REQUIRE(
      std::is_same_v<decltype(refl::overload_cast<int>(&Pet::Feed)), int (*)(int, double)>);
  STATIC_REQUIRE(AsTemplateArgument<refl::overload_cast<int>(&Pet::Feed)>::kOk);
}

// reflection/accessor.h and reflection/creator.h: looking fields and methods
// up by name, reading and writing fields, defaults, field order with
// inheritance, typed attribute keys, and ObjectCreator.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "error_of.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using cxx_api_test::ErrorOf;

namespace {

class ShapeObj : public Object {
 public:
  int64_t width = 0;
  String name;
  ShapeObj() = default;
  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_test.refl.Shape", ShapeObj, Object);
};

class BoxObj : public ShapeObj {
 public:
  int64_t depth = 0;
  Array<int64_t> sizes;
  BoxObj() = default;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Box", BoxObj, ShapeObj);
};

// No default constructor, no UnsafeInit constructor: no creator.
class FixedObj : public Object {
 public:
  explicit FixedObj(int64_t v) : v(v) {}
  int64_t v;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Fixed", FixedObj, Object);
};

// A default that the field's setter refuses.
class BadDefaultObj : public Object {
 public:
  Array<int64_t> items;
  BadDefaultObj() = default;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.BadDefault", BadDefaultObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<ShapeObj>()
      .def_rw("width", &ShapeObj::width, refl::default_value(3))
      .def_rw("name", &ShapeObj::name)
      .def_static("unit", []() { return int64_t{1}; });
  refl::ObjectDef<BoxObj>()
      .def_ro("depth", &BoxObj::depth)
      .def_ro("sizes", &BoxObj::sizes,
              refl::default_factory(Function::FromTyped([]() { return Array<int64_t>{4}; })));
  refl::ObjectDef<FixedObj>().def_ro("v", &FixedObj::v);
  refl::ObjectDef<BadDefaultObj>(refl::init(false))
      .def_ro("items", &BadDefaultObj::items, refl::default_value(5));
}

std::string Name(const TVMFFIFieldInfo* f) { return std::string(f->name.data, f->name.size); }

}  // namespace

TEST_CASE("reflection accessor: lookup by exact name", "[reflection]") {
  const TVMFFIFieldInfo* width = refl::GetFieldInfo(ShapeObj::_type_key, "width");
  CHECK(Name(width) == "width");
  // Own fields only: a base's field is not found on the derived type.
  CHECK(ErrorOf([] { refl::GetFieldInfo(BoxObj::_type_key, "width"); }) ==
        "RuntimeError: Cannot find field  `width` in cxx_api_test.refl.Box");
  // A prefix of a name is not the name.
  CHECK(ErrorOf([] { refl::GetFieldInfo(ShapeObj::_type_key, "wid"); }) ==
        "RuntimeError: Cannot find field  `wid` in cxx_api_test.refl.Shape");
  CHECK(ErrorOf([] { refl::GetMethodInfo(ShapeObj::_type_key, "units"); }) ==
        "RuntimeError: Cannot find method units in cxx_api_test.refl.Shape");
  CHECK(refl::GetMethod(ShapeObj::_type_key, "unit")().cast<int64_t>() == 1);
  CHECK(ErrorOf([] { refl::GetFieldInfo("cxx_api_test.refl.NoSuchType", "x"); })
            .rfind("KeyError: ", 0) == 0);
}

TEST_CASE("reflection accessor: FieldGetter and FieldSetter", "[reflection]") {
  ObjectRef box(make_object<BoxObj>());
  refl::FieldSetter set_width(ShapeObj::_type_key, "width");
  refl::FieldGetter get_width(ShapeObj::_type_key, "width");
  set_width(box, 12);
  CHECK(get_width(box).cast<int64_t>() == 12);
  CHECK(box.as<BoxObj>()->width == 12);
  CHECK(ErrorOf([&] { set_width(box, "wide"); }) ==
        "TypeError: Cannot convert from type `const char*` to `int`");
  CHECK(box.as<BoxObj>()->width == 12);
  refl::FieldSetter(ShapeObj::_type_key, "name")(box, "crate");
  CHECK(refl::FieldGetter(ShapeObj::_type_key, "name")(box).cast<String>() == "crate");
}

TEST_CASE("reflection accessor: defaults, values and factories", "[reflection]") {
  ObjectPtr<BoxObj> box = make_object<BoxObj>();
  const TVMFFIFieldInfo* width = refl::GetFieldInfo(ShapeObj::_type_key, "width");
  refl::SetFieldToDefault(width, reinterpret_cast<char*>(box.get()) + width->offset);
  CHECK(box->width == 3);
  const TVMFFIFieldInfo* sizes = refl::GetFieldInfo(BoxObj::_type_key, "sizes");
  char* sizes_addr = reinterpret_cast<char*>(box.get()) + sizes->offset;
  REQUIRE(refl::CallFieldSetterToDefault(sizes, sizes_addr) == 0);
  Array<int64_t> first = box->sizes;
  CHECK(first.size() == 1);
  refl::SetFieldToDefault(sizes, sizes_addr);
  CHECK(!box->sizes.same_as(first));  // a fresh value each time
  // A rejected default: -1 with the error in the slot, the field untouched.
  ObjectPtr<BadDefaultObj> bad = make_object<BadDefaultObj>();
  const TVMFFIFieldInfo* items = refl::GetFieldInfo(BadDefaultObj::_type_key, "items");
  char* items_addr = reinterpret_cast<char*>(bad.get()) + items->offset;
  CHECK(refl::CallFieldSetterToDefault(items, items_addr) == -1);
  Error err = detail::MoveFromSafeCallRaised();
  CHECK(err.kind() == "TypeError");
  CHECK(err.message() == "Cannot convert from type `int` to `Array<int>`");
  CHECK(ErrorOf([&] { refl::SetFieldToDefault(items, items_addr); }) ==
        "TypeError: Cannot convert from type `int` to `Array<int>`");
}

TEST_CASE("reflection accessor: ForEachFieldInfo visits bases first", "[reflection]") {
  const TypeInfo* info = TVMFFIGetTypeInfo(BoxObj::RuntimeTypeIndex());
  std::vector<std::string> names;
  refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) { names.push_back(Name(f)); });
  CHECK(names == std::vector<std::string>{"width", "name", "depth", "sizes"});
  std::vector<std::string> until_depth;
  bool stopped = refl::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* f) {
    until_depth.push_back(Name(f));
    return Name(f) == "depth";
  });
  CHECK(stopped);
  CHECK(until_depth == std::vector<std::string>{"width", "name", "depth"});
  CHECK(!refl::ForEachFieldInfoWithEarlyStop(info, [](const TVMFFIFieldInfo*) { return false; }));
}

TEST_CASE("reflection accessor: AttrKey::ValueFrom is strict", "[reflection]") {
  refl::AttrKey<int64_t> key{"cxx_api_test.refl.key"};
  CHECK(!key.ValueFrom(AnyView()).has_value());
  CHECK(key.ValueFrom(AnyView(int64_t{4})) == std::optional<int64_t>(4));
  CHECK(ErrorOf([&] { key.ValueFrom(AnyView("four")); }) ==
        "TypeError: Cannot treat type `const char*` as type `int`");
  constexpr TVMFFIByteArray bytes = refl::AsByteArray("abc");
  STATIC_REQUIRE(bytes.size == 3);
}

TEST_CASE("reflection creator: ObjectCreator fills fields and defaults", "[reflection]") {
  refl::ObjectCreator make_box(BoxObj::_type_key);
  ObjectRef box = make_box(Map<String, Any>{{"depth", 2}, {"name", "b"}}).cast<ObjectRef>();
  const BoxObj* b = box.as<BoxObj>();
  REQUIRE(b != nullptr);
  CHECK(b->depth == 2);
  CHECK(b->width == 3);  // the base's default
  CHECK(b->name == "b");
  CHECK(b->sizes.size() == 1);  // from the factory

  CHECK(ErrorOf([&] { make_box(Map<String, Any>{{"name", "b"}}); }) ==
        "TypeError: Required field `depth` not set in type `cxx_api_test.refl.Box`");
  CHECK(ErrorOf([&] {
          make_box(Map<String, Any>{{"depth", 1}, {"name", "b"}, {"colour", 3}});
        }) == "TypeError: Type `cxx_api_test.refl.Box` does not have field `colour`");
  CHECK(ErrorOf([&] { make_box(Map<String, Any>{{"depth", "deep"}, {"name", "b"}}); }) ==
        "TypeError: Cannot convert from type `ffi.SmallStr` to `int`");
  CHECK(ErrorOf([] { refl::ObjectCreator(BadDefaultObj::_type_key)(Map<String, Any>{}); }) ==
        "TypeError: Cannot convert from type `int` to `Array<int>`");
}

TEST_CASE("reflection creator: a type without a creator", "[reflection]") {
  const TVMFFITypeInfo* fixed = TVMFFIGetTypeInfo(FixedObj::RuntimeTypeIndex());
  CHECK(!HasCreator(fixed));
  CHECK(HasCreator(TVMFFIGetTypeInfo(BoxObj::RuntimeTypeIndex())));
  CHECK(ErrorOf([] { refl::ObjectCreator{FixedObj::_type_key}; }) ==
        "RuntimeError: Type `cxx_api_test.refl.Fixed` does not support default constructor, "
        "as a result cannot be created via reflection");
  CHECK(ErrorOf([&] { CreateEmptyObject(fixed); }) ==
        "RuntimeError: Type `cxx_api_test.refl.Fixed` does not support reflection creation "
        "(no native creator or __ffi_new__ type attr)");
  ObjectPtr<Object> empty = CreateEmptyObject(TVMFFIGetTypeInfo(BoxObj::RuntimeTypeIndex()));
  CHECK(empty->type_index() == BoxObj::RuntimeTypeIndex());
}

TEST_CASE("reflection creator: FFIConvertFromAnyViewToObjectRef", "[reflection]") {
  ObjectRef box(make_object<BoxObj>());
  CHECK(refl::detail::FFIConvertFromAnyViewToObjectRef<ObjectRef>(box).same_as(box));
  CHECK(ErrorOf([] { refl::detail::FFIConvertFromAnyViewToObjectRef<Array<int64_t>>(1); }) ==
        "TypeError: Cannot cast from `int` to `Array<int>`");
}

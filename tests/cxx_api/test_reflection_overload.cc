// reflection/overload.h: several signatures under one method name; the first
// whose parameters accept the arguments runs.
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/overload.h>

#include <catch2/catch.hpp>

#include <string>

#include "error_of.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using cxx_api_test::ErrorOf;

namespace {

class ValueObj : public Object {
 public:
  explicit ValueObj(int64_t i) : kind("int"), i(i) {}
  explicit ValueObj(String s) : kind("str"), s(std::move(s)) {}
  ValueObj(int64_t i, String s) : kind("both"), i(i), s(std::move(s)) {}
  std::string Describe(int64_t n) const { return kind + "+int:" + std::to_string(n); }
  std::string Describe(const String& t) const { return kind + "+str:" + std::string(t); }
  static int64_t Scale(int64_t v) { return v * 10; }
  static double Scale(double v) { return v * 0.5; }

  std::string kind;
  int64_t i = 0;
  String s;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Value", ValueObj, Object);
};

// One signature only: errors read as a plain typed function's.
class SingleObj : public Object {
 public:
  explicit SingleObj(int64_t v) : v(v) {}
  int64_t v;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Single", SingleObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::OverloadObjectDef<ValueObj>()
      .def(refl::init<int64_t>())
      .def(refl::init<String>(), "from a string")
      .def(refl::init<int64_t, String>())
      .def_ro("i", &ValueObj::i)
      .def("describe", refl::overload_cast<int64_t>(&ValueObj::Describe, refl::const_))
      .def("describe", refl::overload_cast<const String&>(&ValueObj::Describe, refl::const_))
      .def_static("scale", refl::overload_cast<int64_t>(&ValueObj::Scale))
      .def_static("scale", refl::overload_cast<double>(&ValueObj::Scale));
  refl::OverloadObjectDef<SingleObj>().def(refl::init<int64_t>());
}

int Records(const char* type_key, const char* name) {
  const TypeInfo* info = TVMFFIGetTypeInfo(TypeKeyToIndex(type_key));
  int n = 0;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    n += std::string(info->methods[i].name.data, info->methods[i].name.size) == name;
  }
  return n;
}

}  // namespace

TEST_CASE("overload: constructors dispatch on argument types", "[reflection]") {
  Function init =
      refl::TypeAttrColumn(type_attr::kInit)[ValueObj::RuntimeTypeIndex()].cast<Function>();
  CHECK(init(5).cast<ObjectRef>().as<ValueObj>()->kind == "int");
  CHECK(init("five").cast<ObjectRef>().as<ValueObj>()->kind == "str");
  ObjectRef made = init(5, "five").cast<ObjectRef>();
  const ValueObj* both = made.as<ValueObj>();
  CHECK(both->kind == "both");
  CHECK(both->i == 5);
  CHECK(both->s == "five");
  // The method record and the column hold the same dispatcher.
  CHECK(init.same_as(refl::GetMethod(ValueObj::_type_key, "__ffi_init__")));
  CHECK(Records(ValueObj::_type_key, "__ffi_init__") == 3);
}

TEST_CASE("overload: methods and static methods", "[reflection]") {
  Function init = refl::GetMethod(ValueObj::_type_key, "__ffi_init__");
  Any v = init(1);
  Function describe = refl::GetMethod(ValueObj::_type_key, "describe");
  CHECK(describe(v, 2).cast<std::string>() == "int+int:2");
  CHECK(describe(v, "x").cast<std::string>() == "int+str:x");
  Function scale = refl::GetMethod(ValueObj::_type_key, "scale");
  CHECK(scale(3).cast<int64_t>() == 30);
  CHECK(scale(3.0).cast<double>() == 1.5);
  CHECK(Records(ValueObj::_type_key, "describe") == 2);
  CHECK(Records(ValueObj::_type_key, "scale") == 2);
}

TEST_CASE("overload: no matching signature lists each one", "[reflection]") {
  Function scale = refl::GetMethod(ValueObj::_type_key, "scale");
  CHECK(ErrorOf([&] { scale("x"); }) ==
        "TypeError: No matching overload found when calling: `cxx_api_test.refl.Value.scale` "
        "with 1 arguments:\n"
        "Overload #0: Mismatched type on argument #0 when calling: "
        "`cxx_api_test.refl.Value.scale (0: int) -> int`. Expected `int` but got `const char*`\n"
        "Overload #1: Mismatched type on argument #0 when calling: "
        "`cxx_api_test.refl.Value.scale (0: float) -> float`. Expected `float` but got "
        "`const char*`");
  CHECK(ErrorOf([&] { scale(1, 2); }) ==
        "TypeError: No matching overload found when calling: `cxx_api_test.refl.Value.scale` "
        "with 2 arguments:\n"
        "Overload #0: Mismatched number of arguments when calling: "
        "`cxx_api_test.refl.Value.scale (0: int) -> int`. Expected 1 arguments\n"
        "Overload #1: Mismatched number of arguments when calling: "
        "`cxx_api_test.refl.Value.scale (0: float) -> float`. Expected 1 arguments");
}

TEST_CASE("overload: a single signature reports as a typed function", "[reflection]") {
  Function init = refl::GetMethod(SingleObj::_type_key, "__ffi_init__");
  CHECK(init(4).cast<ObjectRef>().as<SingleObj>()->v == 4);
  CHECK(ErrorOf([&] { init("x"); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`cxx_api_test.refl.Single.__ffi_init__(0: int) -> ffi.Object`. Expected `int` but got "
        "`const char*`");
}

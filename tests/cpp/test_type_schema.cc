// Type schemas of C++ types and the {"type_schema": ...} metadata of typed
// globals, reflected methods and reflected fields.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using namespace test_util;

namespace {
// tvm::ffi's schema text of a C++ type, and of a function R(Args...).
template <typename T>
std::string TypeSchemaOf() {
  return tvm::ffi::detail::TypeSchema<T>::v();
}
template <typename R, typename... Args>
std::string FunctionSchema() {
  return tvm::ffi::detail::FunctionInfo<R(Args...)>::TypeSchema();
}
}  // namespace

namespace {

class TsPointObj : public Object {
 public:
  int64_t x = 0;
  Array<String> tags;
  Optional<double> weight;
  int64_t Scale(int64_t k) const { return x * k; }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("tstest.Point", TsPointObj, Object);
};
using TsPoint = ObjectRefOf<TsPointObj>;

void RegisterOnce() {
  static const bool done = [] {
    refl::ObjectDef<TsPointObj>()
        .def_rw("x", &TsPointObj::x)
        .def_rw("tags", &TsPointObj::tags)
        .def_rw("weight", &TsPointObj::weight)
        .def("scale", &TsPointObj::Scale)
        .def("describe", [](const TsPoint& p, const std::string& prefix) {
          return String(prefix + std::to_string(p.get()->x));
        })
        .def_static("origin", []() { return TsPoint(make_object<TsPointObj>()); });
    return true;
  }();
  (void)done;
}

// The metadata text of member `name` of tstest.Point.
std::string MemberMetadata(const std::string& name) {
  RegisterOnce();
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(TsPointObj::RuntimeTypeIndex());
  REQUIRE(info != nullptr);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (TextOf(info->fields[i].name) == name) return TextOf(info->fields[i].metadata);
  }
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (TextOf(info->methods[i].name) == name) return TextOf(info->methods[i].metadata);
  }
  FAIL("no member " << name);
  return "";
}

std::string GlobalMetadata(const std::string& name) {
  return StrOf(Call("ffi.GetGlobalFuncMetadata", name));
}

}  // namespace

TEST_CASE("TypeSchema: C++ types", "[type_schema]") {
  CHECK(TypeSchemaOf<void>() == R"({"type":"None"})");
  CHECK(TypeSchemaOf<std::nullptr_t>() == R"({"type":"None"})");
  CHECK(TypeSchemaOf<Any>() == R"({"type":"Any"})");
  CHECK(TypeSchemaOf<const AnyView&>() == R"({"type":"Any"})");
  CHECK(TypeSchemaOf<bool>() == R"({"type":"bool"})");
  CHECK(TypeSchemaOf<int32_t>() == R"({"type":"int"})");
  CHECK(TypeSchemaOf<uint64_t>() == R"({"type":"int"})");
  CHECK(TypeSchemaOf<float>() == R"({"type":"float"})");
  CHECK(TypeSchemaOf<DLDataType>() == R"({"type":"DataType"})");
  CHECK(TypeSchemaOf<DLDevice>() == R"({"type":"Device"})");
  CHECK(TypeSchemaOf<DLTensor*>() == R"({"type":"DLTensor*"})");
  CHECK(TypeSchemaOf<const char*>() == R"({"type":"const char*"})");
  CHECK(TypeSchemaOf<const std::string&>() == R"({"type":"std::string"})");
  CHECK(TypeSchemaOf<void*>() == R"({"type":"void*"})");
  CHECK(TypeSchemaOf<String>() == R"({"type":"ffi.String"})");
  CHECK(TypeSchemaOf<Bytes>() == R"({"type":"ffi.Bytes"})");
  CHECK(TypeSchemaOf<ObjectRef>() == R"({"type":"ffi.Object"})");
  CHECK(TypeSchemaOf<Function>() == R"({"type":"ffi.Function"})");
  CHECK(TypeSchemaOf<Tensor>() == R"({"type":"ffi.Tensor"})");
  CHECK(TypeSchemaOf<Shape>() == R"({"type":"ffi.Shape"})");
  // tvm::ffi writes the element types of Any containers too (upstream's form).
  CHECK(TypeSchemaOf<List<Any>>() == R"({"type":"ffi.List","args":[{"type":"Any"}]})");
  CHECK(TypeSchemaOf<Map<Any, Any>>() ==
        R"({"type":"ffi.Map","args":[{"type":"Any"},{"type":"Any"}]})");
  CHECK(TypeSchemaOf<Dict<Any, Any>>() ==
        R"({"type":"ffi.Dict","args":[{"type":"Any"},{"type":"Any"}]})");
  CHECK(TypeSchemaOf<Array<Any>>() == R"({"type":"ffi.Array","args":[{"type":"Any"}]})");
  CHECK(TypeSchemaOf<Array<int64_t>>() == R"({"type":"ffi.Array","args":[{"type":"int"}]})");
  CHECK(TypeSchemaOf<Array<Array<String>>>() ==
        R"({"type":"ffi.Array","args":[{"type":"ffi.Array","args":[{"type":"ffi.String"}]}]})");
  CHECK(TypeSchemaOf<Optional<int64_t>>() == R"({"type":"Optional","args":[{"type":"int"}]})");
  CHECK(TypeSchemaOf<TsPoint>() == R"({"type":"tstest.Point"})");
}

TEST_CASE("TypeSchema: function schemas", "[type_schema]") {
  CHECK(FunctionSchema<int64_t, int64_t, const String&>() ==
        R"({"type":"ffi.Function","named_args":{"return":[{"type":"int"}],)"
        R"("params":[{"type":"int"},{"type":"ffi.String"}]}})");
  CHECK(FunctionSchema<void>() ==
        R"({"type":"ffi.Function","named_args":{"return":[{"type":"None"}],"params":[]}})");
  // The metadata text of a field's schema, and its JSON quoting.
  CHECK(MemberMetadata("x") == R"({"type_schema":"{\"type\":\"int\"}"})");
  CHECK(std::string(EscapeStringJSON(String("a\"b\\c\n"))) == R"("a\"b\\c\n")");
}

TEST_CASE("TypeSchema: metadata of typed and packed globals", "[type_schema]") {
  refl::GlobalDef().def("tstest.join", [](const String& a, int64_t n) {
    return String(std::string(a.data(), a.size()) + std::to_string(n));
  });
  CHECK(GlobalMetadata("tstest.join") ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":)"
        R"(\"ffi.String\"}],\"params\":[{\"type\":\"ffi.String\"},{\"type\":\"int\"}]}}"})");
  // The function still works, with its name in argument errors.
  CHECK(StrOf(Call("tstest.join", "x", int64_t(2))) == "x2");
  CHECK(ThrownBy([] { Call("tstest.join", int64_t(1), int64_t(2)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `tstest.join(0: str, 1: int) -> "
        "str`. Expected `str` but got `int`");
  CHECK(GlobalMetadata("ffi.RecursiveLt") ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":)"
        R"(\"bool\"}],\"params\":[{\"type\":\"Any\"},{\"type\":\"Any\"}]}}"})");
  TestingGlobal("testing.schema_packed");
  CHECK(GlobalMetadata("testing.schema_packed") ==
        R"({"type_schema":"{\"type\":\"ffi.Function\"}"})");
  // SetGlobal with no metadata records none.
  Function::SetGlobal("tstest.untyped", Function::FromTyped([]() { return 1; }), true);
  CHECK(GlobalMetadata("tstest.untyped").empty());
}

TEST_CASE("TypeSchema: metadata of reflected fields and methods", "[type_schema]") {
  CHECK(MemberMetadata("x") == R"({"type_schema":"{\"type\":\"int\"}"})");
  CHECK(MemberMetadata("tags") ==
        R"({"type_schema":"{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"ffi.String\"}]}"})");
  CHECK(MemberMetadata("weight") ==
        R"({"type_schema":"{\"type\":\"Optional\",\"args\":[{\"type\":\"float\"}]}"})");
  // A member function: self first.
  CHECK(MemberMetadata("scale") ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":)"
        R"(\"int\"}],\"params\":[{\"type\":\"tstest.Point\"},{\"type\":\"int\"}]}}"})");
  CHECK(MemberMetadata("describe") ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":)"
        R"(\"ffi.String\"}],\"params\":[{\"type\":\"tstest.Point\"},{\"type\":\"std::string\"}]}}"})");
  CHECK(MemberMetadata("origin") ==
        R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":)"
        R"(\"tstest.Point\"}],\"params\":[]}}"})");
}

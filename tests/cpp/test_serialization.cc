// JSON text (ffi.json.*) and JSON graphs (ffi.ToJSONGraph*, ffi.FromJSONGraph*).
#include <catch2/catch.hpp>

#include <pthread.h>

#include <cmath>
#include <functional>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// The library's JSON globals (the old layer's thin wrappers over them).
Any ToJSONGraph(const AnyView& value, const AnyView& metadata = AnyView()) {
  return Call("ffi.ToJSONGraph", value, metadata);
}
Any FromJSONGraph(const AnyView& graph) { return Call("ffi.FromJSONGraph", graph); }
namespace json {
Any Parse(const std::string& text) { return Call("ffi.json.Parse", String(text)); }
std::string Stringify(const AnyView& value, std::optional<int64_t> indent = std::nullopt) {
  Any indent_arg = indent.has_value() ? Any(*indent) : Any();
  return Call("ffi.json.Stringify", value, indent_arg).cast<std::string>();
}
}  // namespace json

}  // namespace
namespace refl = tvm::ffi::reflection;

namespace {

std::string RoundTripText(const Any& v) { return ToJSONGraphString(FromJSONGraphString(ToJSONGraphString(v))); }

Function Global(const char* name) {
  std::optional<Function> f = Function::GetGlobal(name);
  REQUIRE(f.has_value());
  return *f;
}

// A type with upstream's custom hooks: its data is the decimal text of v.
class HookedObj : public Object {
 public:
  int64_t v = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SerializationHooked", HookedObj, Object);
};
using Hooked = ObjectRefOf<HookedObj>;

void RegisterHooked() {
  static const bool once = [] {
    refl::ObjectDef<HookedObj>()
        .def_rw("v", &HookedObj::v)
        .def_type_attr("__data_to_json__",
              Any(Function::FromTyped([](Hooked h) { return String(std::to_string(h->v)); })))
        .def_type_attr("__data_from_json__", Any(Function::FromTyped([](String s) {
                ObjectPtr<HookedObj> p = make_object<HookedObj>();
                p->v = std::stoll(std::string(s));
                return Hooked(std::move(p));
              })));
    return true;
  }();
  (void)once;
}

}  // namespace

TEST_CASE("JSON graph: upstream's __data_to_json__ / __data_from_json__ hooks", "[serialization]") {
  RegisterHooked();
  ObjectPtr<HookedObj> p = make_object<HookedObj>();
  p->v = 42;
  Hooked h(std::move(p));
  std::string text = ToJSONGraphString(Any(Array<Any>{Any(h), Any(h)}));
  CHECK(text ==
        R"({"root_index":1,"nodes":[{"type":"testing.SerializationHooked","data":"42"},{"type":"ffi.Array","data":[0,0]}]})");
  Array<Any> back = FromJSONGraphString(text).cast<Array<Any>>();
  CHECK(SeqItems(HandleOf(back))[0].v_obj == SeqItems(HandleOf(back))[1].v_obj);
  CHECK(back[0].cast<Hooked>()->v == 42);
}

TEST_CASE("json: parse and stringify", "[serialization]") {
  Any v = json::Parse(R"({"a": [1, 2.5, null, true, "x\n\u00e9\ud83d\ude00"], "b": {}})");
  CHECK(json::Stringify(v) == "{\"a\":[1,2.5,null,true,\"x\\n\xc3\xa9\xf0\x9f\x98\x80\"],\"b\":{}}");
  CHECK(json::Stringify(json::Parse("[1,{\"b\":2}]"), 2) == "[\n  1,\n  {\n    \"b\": 2\n  }\n]");
  CHECK(json::Stringify(Any(1.0)) == "1.0");
  CHECK(json::Stringify(Any(0.1)) == "0.1");
  CHECK(json::Stringify(Any(-std::numeric_limits<double>::infinity())) == "-Infinity");
  CHECK(std::isnan(json::Parse("NaN").cast<double>()));
  CHECK(json::Parse("123456789012345678901234567890").cast<double>() == 1.2345678901234568e+29);
  CHECK(json::Parse("-7").cast<int64_t>() == -7);
  CHECK(json::Stringify(json::Parse("\"\\u0001\"")) == "\"\\u0001\"");
  // '/' is written escaped, as upstream's writer does; it reads back as '/'.
  CHECK(json::Stringify(Any(std::string("a/b"))) == "\"a\\/b\"");
  CHECK(json::Parse("\"a\\/b\"").cast<std::string>() == "a/b");
}

TEST_CASE("json: bad text names the problem and its position", "[serialization]") {
  CHECK(ThrownBy([&] { json::Parse(""); }) ==
        "ValueError: Expecting value: line 1 column 1 (char 0)");
  CHECK(ThrownBy([&] { json::Parse("{"); }) ==
        "ValueError: Expecting property name enclosed in double quotes: line 1 "
                    "column 2 (char 1)");
  CHECK(ThrownBy([&] { json::Parse("[1,]"); }) ==
        "ValueError: Expecting value: line 1 column 4 (char 3)");
  CHECK(ThrownBy([&] { json::Parse("{\"a\" 1}"); }) ==
        "ValueError: Expecting ':' delimiter: line 1 column 6 (char 5)");
  CHECK(ThrownBy([&] { json::Parse("[1] 2"); }) ==
        "ValueError: Extra data: line 1 column 5 (char 4)");
  CHECK(ThrownBy([&] { json::Parse("[1,\n \"ab"); }) ==
        "ValueError: Unterminated string starting at: line 2 column 2 (char 5)");
  CHECK(ThrownBy([&] { json::Parse("\"\\q\""); }) ==
        "ValueError: Invalid \\escape: line 1 column 2 (char 1)");
  CHECK(ThrownBy([&] { json::Parse("1e999"); }) ==
        "ValueError: Number out of range: line 1 column 1 (char 0)");
  CHECK(ThrownBy([&] { json::Parse(std::string(2000, '[')); }) ==
        "ValueError: JSON nests deeper than 1000 levels at char 1000");
  CHECK(ThrownBy([&] { json::Stringify(Map<Any, Any>{{Any(int64_t(1)), Any(int64_t(2))}}); }) ==
        "TypeError: ffi.json.Stringify: object keys must be str, got int");
  CHECK(ThrownBy([&] { json::Stringify(Any(Shape{1})); }) ==
        "TypeError: ffi.json.Stringify: a value of type ffi.Shape has no JSON form");
  List<Any> self_ref;
  self_ref.push_back(Any(self_ref));
  CHECK(ThrownBy([&] { json::Stringify(Any(self_ref)); }) ==
        "ValueError: ffi.json.Stringify: value nests deeper than 1000 levels (or "
                    "contains a reference cycle)");
  self_ref.Set(0, Any());  // break the cycle
}

TEST_CASE("JSON graph: the exact text of each built-in type (upstream's format)", "[serialization]") {
  CHECK(ToJSONGraphString(Any()) == R"({"root_index":0,"nodes":[{"type":"None"}]})");
  CHECK(ToJSONGraphString(Any(true)) == R"({"root_index":0,"nodes":[{"type":"bool","data":true}]})");
  CHECK(ToJSONGraphString(Any(int64_t(-5))) == R"({"root_index":0,"nodes":[{"type":"int","data":-5}]})");
  CHECK(ToJSONGraphString(Any(1.5)) == R"({"root_index":0,"nodes":[{"type":"float","data":1.5}]})");
  CHECK(ToJSONGraphString(Any(std::nan(""))) ==
        R"({"root_index":0,"nodes":[{"type":"float","data":NaN}]})");
  CHECK(ToJSONGraphString(Any(String("a long string here"))) ==
        R"({"root_index":0,"nodes":[{"type":"ffi.String","data":"a long string here"}]})");
  CHECK(ToJSONGraphString(Any(Bytes(std::string("x\0y", 3)))) ==
        R"({"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"eAB5"}]})");
  int64_t words[2] = {0, 64};  // 64 * 2^64
  CHECK(ToJSONGraphString(BigIntFromWords(words, 2)) ==
        R"({"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"1180591620717411303424"}]})");
  DLDataType f32{kDLFloat, 32, 1};
  CHECK(ToJSONGraphString(Any(f32)) == R"({"root_index":0,"nodes":[{"type":"DataType","data":"float32"}]})");
  DLDevice cuda1{kDLCUDA, 1};
  CHECK(ToJSONGraphString(Any(cuda1)) == R"({"root_index":0,"nodes":[{"type":"Device","data":[2,1]}]})");
  CHECK(ToJSONGraphString(Any(Shape{1, 2})) == R"({"root_index":0,"nodes":[{"type":"ffi.Shape","data":[1,2]}]})");
  CHECK(ToJSONGraphString(Any(List<Any>{Any(int64_t(1)), Any(int64_t(2))})) ==
        R"({"root_index":2,"nodes":[{"type":"int","data":1},{"type":"int","data":2},{"type":"ffi.List","data":[0,1]}]})");
  CHECK(ToJSONGraphString(Any(Dict<Any, Any>{{Any("a"), Any(int64_t(1))}})) ==
        R"({"root_index":2,"nodes":[{"type":"ffi.String","data":"a"},{"type":"int","data":1},{"type":"ffi.Dict","data":[0,1]}]})");
  // Shared sub-objects are one node; equal ints and strings share a node.
  Array<Any> inner{Any(int64_t(1)), Any("x")};
  Array<Any> outer{Any(inner), Any(inner), Any(Map<Any, Any>{{Any("k"), Any(inner)}})};
  CHECK(ToJSONGraphString(Any(outer)) ==
        R"({"root_index":5,"nodes":[{"type":"int","data":1},{"type":"ffi.String","data":"x"},{"type":"ffi.Array","data":[0,1]},{"type":"ffi.String","data":"k"},{"type":"ffi.Map","data":[3,2]},{"type":"ffi.Array","data":[2,2,4]}]})");
  CHECK(ToJSONGraphString(Any(inner), Any(Map<Any, Any>{{Any("m"), Any(int64_t(1))}})) ==
        R"({"root_index":2,"nodes":[{"type":"int","data":1},{"type":"ffi.String","data":"x"},{"type":"ffi.Array","data":[0,1]}],"metadata":{"m":1}})");
}

TEST_CASE("JSON graph: round trips keep values, types and sharing", "[serialization]") {
  Array<Any> inner{Any(int64_t(1)), Any("x")};
  Array<Any> outer{Any(inner), Any(inner)};
  Array<Any> back = FromJSONGraphString(ToJSONGraphString(Any(outer))).cast<Array<Any>>();
  REQUIRE(back.size() == 2);
  CHECK(SeqItems(HandleOf(back))[0].v_obj == SeqItems(HandleOf(back))[1].v_obj);  // one node, one object
  CHECK(SeqItems(HandleOf(back))[0].v_obj != SeqItems(HandleOf(outer))[0].v_obj);
  CHECK(back[0].cast<Array<Any>>()[1].cast<std::string>() == "x");

  int64_t words[2] = {0, -3};
  Any big = BigIntFromWords(words, 2);
  CHECK(Call("ffi.RecursiveEq", FromJSONGraphString(ToJSONGraphString(big)), big).cast<bool>());
  CHECK(FromJSONGraphString(ToJSONGraphString(Any(-std::numeric_limits<double>::infinity())))
            .cast<double>() == -std::numeric_limits<double>::infinity());
  Any bytes = FromJSONGraphString(ToJSONGraphString(Any(Bytes(std::string("\xff\x00\x01zz", 5)))));
  CHECK(bytes.type_index() != kTVMFFIStr);
  CHECK(std::string(bytes.cast<Bytes>()) == std::string("\xff\x00\x01zz", 5));
  Any dict = FromJSONGraphString(ToJSONGraphString(Any(Dict<Any, Any>{{Any("a"), Any(List<Any>{Any(2.5)})}})));
  CHECK(dict.type_index() == kTVMFFIDict);
  CHECK(dict.cast<Dict<Any, Any>>()["a"].type_index() == kTVMFFIList);
  Any shape = FromJSONGraphString(ToJSONGraphString(Any(Shape{3, 4})));
  CHECK(shape.cast<Shape>().size() == 2);
  // The JSON value form reads back too.
  Any graph = ToJSONGraph(Any(outer));
  CHECK(graph.type_index() == kTVMFFIMap);
  CHECK(ToJSONGraphString(FromJSONGraph(graph)) == ToJSONGraphString(Any(outer)));
  CHECK(RoundTripText(Any(outer)) == ToJSONGraphString(Any(outer)));
  // A graph built of Dicts and Lists reads as well as one of Maps and Arrays.
  Dict<Any, Any> node{{Any("type"), Any("ffi.List")}, {Any("data"), Any(List<Any>{})}};
  Dict<Any, Any> g{{Any("root_index"), Any(int64_t(0))}, {Any("nodes"), Any(List<Any>{Any(node)})}};
  CHECK(FromJSONGraph(Any(g)).type_index() == kTVMFFIList);
}

TEST_CASE("JSON graph: a type registered through the C API", "[serialization]") {
  Function make = Global("testing.make_c_point");
  Any label = Any(Array<Any>{Any("l")});
  Any p = make(int64_t(3), 1.5, label);
  std::string text = ToJSONGraphString(p);
  CHECK(text ==
        R"({"root_index":2,"nodes":[{"type":"ffi.String","data":"l"},{"type":"ffi.Array","data":[0]},{"type":"testing.CPoint","data":{"x":3,"y":1.5,"label":1}}]})");
  Any q = FromJSONGraphString(text);
  CHECK(q.type_index() == p.type_index());
  CHECK(RawOf(q)->v_obj != RawOf(p)->v_obj);
  CHECK(ToJSONGraphString(q) == text);
  // Missing fields take their defaults.
  Any d = FromJSONGraphString(R"({"root_index":0,"nodes":[{"type":"testing.CPoint","data":{}}]})");
  CHECK(ToJSONGraphString(d) ==
        R"({"root_index":1,"nodes":[{"type":"None"},{"type":"testing.CPoint","data":{"x":0,"y":0.0,"label":0}}]})");
}

TEST_CASE("JSON graph: deep nesting is iterative", "[serialization]") {
  Any v = Any(int64_t(7));
  const int kDepth = 5000;
  for (int i = 0; i < kDepth; ++i) v = Any(Array<Any>{v});
  Any back = FromJSONGraphString(ToJSONGraphString(v));
  for (int i = 0; i < kDepth; ++i) back = back.cast<Array<Any>>()[0];
  CHECK(back.cast<int64_t>() == 7);
}

TEST_CASE("JSON graph: what cannot be written is an error naming it", "[serialization]") {
  List<Any> cyc;
  cyc.push_back(Any(int64_t(1)));
  cyc.push_back(Any(cyc));
  CHECK(ThrownBy([&] { ToJSONGraphString(Any(cyc)); }) ==
        "ValueError: ffi.ToJSONGraph: the value contains a reference cycle (a ffi.List "
                    "contains itself)");
  cyc.Set(1, Any());
  Function f = Global("testing.make_c_point");
  CHECK(ThrownBy([&] { ToJSONGraphString(Any(Array<Any>{Any(f)})); }) ==
        "TypeError: ffi.ToJSONGraph: a value of type ffi.Function cannot be serialized");
  CHECK(ThrownBy([&] { ToJSONGraphString(Any(reinterpret_cast<void*>(8))); }) ==
        "TypeError: ffi.ToJSONGraph: a value of type void* cannot be serialized");
}

TEST_CASE("JSON graph: malformed graphs are ValueErrors naming the problem", "[serialization]") {
  auto err = [](const char* text) -> std::string {
    try {
      FromJSONGraphString(text);
    } catch (const Error& e) {
      return e.kind() + ": " + e.what();
    }
    return "no error";
  };
  CHECK(err("[1,2]") ==
        "ValueError: ffi.FromJSONGraph: expected a JSON object with `root_index` and `nodes`, got ffi.Array");
  CHECK(err(R"({"root_index":0})") == "ValueError: ffi.FromJSONGraph: expected a `nodes` array in the graph");
  CHECK(err(R"({"nodes":[]})") ==
        "ValueError: ffi.FromJSONGraph: expected an integer `root_index` in the graph");
  CHECK(err(R"({"root_index":3,"nodes":[]})") ==
        "ValueError: ffi.FromJSONGraph: root_index 3 is out of range for 0 nodes");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"nosuch.Type","data":1}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: unknown type `nosuch.Type`");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"ffi.Array","data":[0]}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: the graph has a reference cycle through node 0");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"ffi.Array","data":[5]}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: item 0: node index 5 is out of range for 1 nodes");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"int","data":"x"}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: expected the data of a `int` node to be an integer, got str");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"ffi.Map","data":[0]}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: the data of a `ffi.Map` node must have an even length, got 1");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"ffi.Bytes","data":"%%%%"}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: invalid base64 data");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"12a"}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: invalid integer text \"12a\"");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"testing.CPoint","data":{"z":1}}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: type `testing.CPoint` has no field `z`");
  CHECK(err(R"({"root_index":0,"nodes":[{"type":"testing.CPoint","data":{"x":1.5}}]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: field `x` of `testing.CPoint`: testing.CPoint.x: expected int");
  CHECK(err(R"({"root_index":0,"nodes":[1]})") ==
        "ValueError: ffi.FromJSONGraph: node 0: expected a JSON object with `type`, got int");
  CHECK(err("{") ==
        "ValueError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)");
}


TEST_CASE("json: the nesting limit holds on a 512 KiB thread stack", "[serialization]") {
  // 1000 levels (the limit) used to take over 512 KiB of stack and crash.
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer's instrumented frames (and its handling of the throw at
  // the limit) are several times larger: the same check on a stack scaled
  // alike.  Plain and ASan builds run it on 512 KiB.
  constexpr size_t kStack = 4 * 512 * 1024;
#else
  constexpr size_t kStack = 512 * 1024;
#endif
  std::string deepest = std::string(1000, '[') + std::string(1000, ']');
  std::string text_back;
  CHECK(OnThreadStack(kStack, [&] {
          Any v = json::Parse(deepest);
          text_back = json::Stringify(v);
        }) == "");
  CHECK(text_back == deepest);
  CHECK(OnThreadStack(kStack, [&] { json::Parse(std::string(1001, '[')); }) ==
        "ValueError: JSON nests deeper than 1000 levels at char 1000");
  std::string objects;
  for (int i = 0; i < 1000; ++i) objects += "{\"k\":";
  objects += "1" + std::string(1000, '}');
  std::string objects_back;
  CHECK(OnThreadStack(kStack, [&] { objects_back = json::Stringify(json::Parse(objects)); }) ==
        "");
  CHECK(objects_back == objects);
  CHECK(OnThreadStack(kStack, [&] {
          List<Any> deep;
          for (int i = 0; i < 1000; ++i) deep = List<Any>{Any(deep)};
          json::Stringify(Any(deep));
        }) == "ValueError: ffi.json.Stringify: value nests deeper than 1000 levels (or contains "
              "a reference cycle)");
}

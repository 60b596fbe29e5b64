// extra/structural_visit.h: StructuralWalk, StructuralVisit, the visitor
// object, WalkResult, VisitInterrupt; the descent into reflected objects is
// the library's (ffi.StructuralVisitorDefaultVisit).
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <functional>
#include <string>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

// A reflected node: `name` is ignored by structural visits, `def` is a
// definition (a Simple region), `body` a plain field.
class SvNodeObj : public Object {
 public:
  String name;
  ObjectRef def;
  ObjectRef body;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.SvNode", SvNodeObj, Object);
};

// A leaf with a value.
class SvLeafObj : public Object {
 public:
  int64_t value = 0;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.SvLeaf", SvLeafObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<SvNodeObj>()
      .def_ro("name", &SvNodeObj::name, refl::AttachFieldFlag::SEqHashIgnore())
      .def_ro("def", &SvNodeObj::def, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("body", &SvNodeObj::body);
  refl::ObjectDef<SvLeafObj>().def_ro("value", &SvLeafObj::value);
}

ObjectRef Leaf(int64_t v) {
  ObjectPtr<SvLeafObj> n = make_object<SvLeafObj>();
  n->value = v;
  return ObjectRef(std::move(n));
}

ObjectRef Node(const char* name, ObjectRef def, ObjectRef body) {
  ObjectPtr<SvNodeObj> n = make_object<SvNodeObj>();
  n->name = name;
  n->def = std::move(def);
  n->body = std::move(body);
  return ObjectRef(std::move(n));
}

// node(def=leaf 1, body=[leaf 2, {"k": leaf 3}])
ObjectRef Sample() {
  Map<String, ObjectRef> m{{"k", Leaf(3)}};
  return Node("n", Leaf(1), Array<ObjectRef>{Leaf(2), m});
}

// <root>.body.body
void AccessPathCheck(const reflection::AccessPath& path) {
  CHECK(path->PathEqual(reflection::AccessPath::Root()->Attr("body")->Attr("body")));
}

}  // namespace

TEST_CASE("structural_visit: pre-order and post-order walks", "[structural_visit]") {
  std::vector<std::string> seen;
  auto record = [&](AnyView v) -> Expected<WalkResult> {
    if (const SvLeafObj* leaf = v.as<SvLeafObj>()) {
      seen.push_back("leaf" + std::to_string(leaf->value));
    } else {
      seen.push_back(v.GetTypeKey());
    }
    return WalkResult::Advance();
  };
  Optional<VisitInterrupt> r = StructuralWalk<WalkOrder::kPreOrder>(Sample(), record);
  CHECK(!r.has_value());
  // The ignored `name` is not visited; map keys are not visited.
  CHECK(seen == std::vector<std::string>{"cxx_api_test.SvNode", "leaf1", "int", "ffi.Array",
                                         "leaf2", "int", "ffi.Map", "leaf3", "int"});
  seen.clear();
  StructuralWalk<WalkOrder::kPostOrder>(Sample(), record);
  CHECK(seen == std::vector<std::string>{"int", "leaf1", "int", "leaf2", "int", "leaf3",
                                         "ffi.Map", "ffi.Array", "cxx_api_test.SvNode"});
}

TEST_CASE("structural_visit: typed callbacks, skip, interrupt, region", "[structural_visit]") {
  // The first callback that takes a value gets it; Skip keeps the walk out of an array.
  std::vector<int64_t> leaves;
  int arrays = 0;
  StructuralWalk<WalkOrder::kPreOrder>(
      Sample(),
      [&](const Array<ObjectRef>&) -> Expected<WalkResult> {
        ++arrays;
        return WalkResult::Skip();
      },
      [&](const SvLeafObj* leaf, TVMFFIDefRegionKind kind) -> Expected<WalkResult> {
        leaves.push_back(leaf->value * 10 + static_cast<int64_t>(kind));
        return WalkResult::Advance();
      });
  CHECK(arrays == 1);
  CHECK(leaves == std::vector<int64_t>{10 + kTVMFFIDefRegionKindSimple});

  // An interrupt stops the walk and comes back with its payload.
  int visited = 0;
  Optional<VisitInterrupt> r = StructuralWalk<WalkOrder::kPreOrder>(
      Sample(), [&](const SvLeafObj* leaf) -> Expected<WalkResult> {
        ++visited;
        if (leaf->value == 2) return WalkResult::Interrupt(VisitInterrupt(String("found 2")));
        return WalkResult::Advance();
      });
  REQUIRE(r.has_value());
  CHECK(r.value()->value.cast<String>() == "found 2");
  CHECK(visited == 2);
  CHECK(Any(r.value()).type_index() == TypeIndex::kTVMFFIVisitInterrupt);

  // A plain value is visited too.
  int64_t got = 0;
  StructuralWalk<WalkOrder::kPreOrder>(int64_t{42}, [&](int64_t v) -> Expected<WalkResult> {
    got = v;
    return WalkResult::Advance();
  });
  CHECK(got == 42);
}

TEST_CASE("structural_visit: errors carry the visit context", "[structural_visit]") {
  ObjectRef bad = Leaf(-1);
  ObjectRef root = Node("r", Leaf(0), Node("m", Leaf(5), bad));
  auto check = [&](const SvLeafObj* leaf) -> Expected<WalkResult> {
    if (leaf->value < 0) TVM_FFI_THROW(ValueError) << "negative leaf";
    return WalkResult::Advance();
  };
  Expected<Optional<VisitInterrupt>> r = StructuralWalkExpected<WalkOrder::kPreOrder>(root, check);
  REQUIRE(r.is_err());
  CHECK(r.error().kind() == "ValueError");
  CHECK(r.error().message() == "negative leaf");
  Optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(r.error());
  REQUIRE(ctx.has_value());
  // Innermost first: the failing leaf, ..., the root.
  List<ObjectRef> pattern = ctx.value()->reverse_visit_pattern;
  REQUIRE(pattern.size() >= 3);
  CHECK(pattern[0].same_as(bad));
  CHECK(pattern[pattern.size() - 1].same_as(root));
  Array<reflection::AccessPath> paths = VisitErrorContext::FindAccessPaths(root, ctx.value());
  REQUIRE(paths.size() == 1);
  AccessPathCheck(paths[0]);
  CHECK(ErrorOf([&] { StructuralWalk<WalkOrder::kPreOrder>(root, check); }) ==
        "ValueError: negative leaf");
}

TEST_CASE("structural_visit: StructuralVisit callbacks own the descent", "[structural_visit]") {
  // Sum the leaves, but only descend into `body` of a node.
  int64_t sum = 0;
  Optional<VisitInterrupt> r = StructuralVisit(
      Sample(),
      [&](const SvNodeObj* node, StructuralVisitorObj* visitor) -> Expected<Optional<VisitInterrupt>> {
        return visitor->VisitExpected(node->body);
      },
      [&](const SvLeafObj* leaf, StructuralVisitorObj*) -> Optional<VisitInterrupt> {
        sum += leaf->value;
        return std::nullopt;
      });
  CHECK(!r.has_value());
  CHECK(sum == 2 + 3);

  // A thrown error comes back as the error.
  Expected<Optional<VisitInterrupt>> e = StructuralVisitExpected(
      Sample(), [&](const SvLeafObj*, StructuralVisitorObj*) -> Optional<VisitInterrupt> {
        TVM_FFI_THROW(RuntimeError) << "stop";
      });
  REQUIRE(e.is_err());
  CHECK(e.error().kind() == "RuntimeError");
  CHECK(VisitErrorContext::TryGetFromError(e.error()).has_value());
}

TEST_CASE("structural_visit: definition regions", "[structural_visit]") {
  StructuralVisitor v(make_object<StructuralWalkEngine<StructuralVisitorObj, WalkOrder::kPreOrder,
                                                       std::function<Expected<WalkResult>(AnyView)>>>(
      [](AnyView) -> Expected<WalkResult> { return WalkResult::Advance(); }));
  CHECK(v->def_region_kind() == kTVMFFIDefRegionKindNone);
  int inner = v->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&] {
    int k = v->def_region_kind();
    // A Pattern region is never left for another kind.
    v->WithDefRegionKind(kTVMFFIDefRegionKindPattern, [&] {
      v->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&] {
        CHECK(v->def_region_kind() == kTVMFFIDefRegionKindPattern);
        return 0;
      });
      return 0;
    });
    CHECK(v->def_region_kind() == kTVMFFIDefRegionKindSimple);
    return k;
  });
  CHECK(inner == kTVMFFIDefRegionKindSimple);
  CHECK(v->def_region_kind() == kTVMFFIDefRegionKindNone);
  // Restored when the callback throws.
  CHECK(ErrorOf([&] {
          v->WithDefRegionKind(kTVMFFIDefRegionKindSimple, [&]() -> int {
            TVM_FFI_THROW(ValueError) << "x";
          });
        }) == "ValueError: x");
  CHECK(v->def_region_kind() == kTVMFFIDefRegionKindNone);
}

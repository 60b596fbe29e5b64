// extra/visit_error_context.h: VisitErrorContext, the TVM_FFI_VISIT_* macros,
// FindAccessPaths; and StructuralEqual::GetFirstMismatch (both exported by
// the library, both returning reflection::AccessPath objects the core made).
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <string>
#include <vector>

using namespace tvm::ffi;
using reflection::AccessKind;
using reflection::AccessPath;
using cxx_api_test::ErrorOf;

namespace {

// The steps of a path as text: ".name", "[3]", "{key}" and "!" for a missing step.
std::string Text(const AccessPath& path) {
  std::string out = "<root>";
  for (const reflection::AccessStep& step : path->ToSteps()) {
    switch (step->kind) {
      case AccessKind::kAttr: out += "." + step->key.cast<String>(); break;
      case AccessKind::kArrayItem: out += "[" + std::to_string(step->key.cast<int64_t>()) + "]"; break;
      case AccessKind::kMapItem: out += "{" + step->key.cast<String>() + "}"; break;
      case AccessKind::kAttrMissing: out += ".!" + step->key.cast<String>(); break;
      case AccessKind::kArrayItemMissing:
        out += "[!" + std::to_string(step->key.cast<int64_t>()) + "]";
        break;
      case AccessKind::kMapItemMissing: out += "{!}"; break;
    }
  }
  return out;
}

// A reflected node with two children.
class NodeObj : public Object {
 public:
  ObjectRef left;
  ObjectRef right;
  int64_t value = 0;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.VecNode", NodeObj, Object);
};

ObjectRef Node(int64_t value, ObjectRef left = ObjectRef(), ObjectRef right = ObjectRef()) {
  ObjectPtr<NodeObj> n = make_object<NodeObj>();
  n->value = value;
  n->left = std::move(left);
  n->right = std::move(right);
  return ObjectRef(std::move(n));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::ObjectDef<NodeObj>()
      .def_ro("left", &NodeObj::left)
      .def_ro("right", &NodeObj::right)
      .def_ro("value", &NodeObj::value);
}

// Visits the tree (nodes, and arrays of nodes); throws at the first negative value.
void CheckTree(const ObjectRef& node) {
  if (!node.defined()) return;
  TVM_FFI_VISIT_BEGIN();
  if (const NodeObj* n = node.as<NodeObj>()) {
    if (n->value < 0) TVM_FFI_VISIT_THROW(ValueError, node) << "negative " << n->value;
    CheckTree(n->left);
    CheckTree(n->right);
  } else if (auto arr = node.as<Array<ObjectRef>>()) {
    for (const ObjectRef& kid : *arr) CheckTree(kid);
  }
  TVM_FFI_VISIT_END(node);
}

}  // namespace

TEST_CASE("visit_error_context: the macros record the nodes, innermost first",
          "[visit_error_context]") {
  ObjectRef leaf = Node(-2);
  ObjectRef mid = Node(5, Node(6), leaf);
  ObjectRef root = Node(0, Node(1), mid);
  try {
    CheckTree(root);
    FAIL("no error");
  } catch (const Error& err) {
    CHECK(err.kind() == "ValueError");
    CHECK(err.message() == "negative -2");
    Optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(err);
    REQUIRE(ctx.has_value());
    // THROW recorded `leaf`, then END recorded it again, then mid and root.
    List<ObjectRef> pattern = ctx.value()->reverse_visit_pattern;
    REQUIRE(pattern.size() == 4);
    CHECK(pattern[0].same_as(leaf));
    CHECK(pattern[1].same_as(leaf));
    CHECK(pattern[2].same_as(mid));
    CHECK(pattern[3].same_as(root));
    CHECK(!ctx.value()->prev_error_context.has_value());
    // The library finds where the recorded chain sits in the root.
    Array<AccessPath> paths = VisitErrorContext::FindAccessPaths(root, ctx.value());
    REQUIRE(paths.size() == 1);
    CHECK(Text(paths[0]) == "<root>.right.right");
    CHECK(paths[0]->depth == 2);
  }
}

TEST_CASE("visit_error_context: an earlier extra_context is kept", "[visit_error_context]") {
  Array<Any> node{1};
  Array<int> previous{7};
  Error err("RuntimeError", "boom", "", std::nullopt, ObjectRef(previous));
  CHECK(!VisitErrorContext::TryGetFromError(err).has_value());
  detail::UpdateVisitErrorContext(err, ObjectRef(node));
  Optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(err);
  REQUIRE(ctx.has_value());
  CHECK(ctx.value()->reverse_visit_pattern.size() == 1);
  REQUIRE(ctx.value()->prev_error_context.has_value());
  CHECK(ctx.value()->prev_error_context.value().same_as(previous));
  // A second level appends to the same context; a copy of the error sees it.
  Error copy = err;
  detail::UpdateVisitErrorContext(copy, AnyView(node));
  CHECK(ctx.value()->reverse_visit_pattern.size() == 2);
  // A non-object level records nothing.
  detail::UpdateVisitErrorContext(copy, AnyView(3));
  CHECK(ctx.value()->reverse_visit_pattern.size() == 2);
}

TEST_CASE("visit_error_context: END_RETURN_EXPECTED returns the error", "[visit_error_context]") {
  Array<Any> node{1};
  auto visit = [&]() -> Expected<int> {
    TVM_FFI_VISIT_BEGIN();
    TVM_FFI_THROW(TypeError) << "inner";
    TVM_FFI_VISIT_END_RETURN_EXPECTED(node);
    return 0;
  };
  Expected<int> result = visit();
  REQUIRE(result.is_err());
  CHECK(result.error().kind() == "TypeError");
  Optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(result.error());
  REQUIRE(ctx.has_value());
  CHECK(ctx.value()->reverse_visit_pattern[0].same_as(node));
}

TEST_CASE("structural_equal: GetFirstMismatch", "[visit_error_context]") {
  CHECK(!StructuralEqual::GetFirstMismatch(Array<int>{1, 2}, Array<int>{1, 2}).has_value());
  Optional<reflection::AccessPathPair> m =
      StructuralEqual::GetFirstMismatch(Array<Any>{1, Array<Any>{2, 3}}, Array<Any>{1, Array<Any>{2, 4}});
  REQUIRE(m.has_value());
  CHECK(Text(m.value().get<0>()) == "<root>[1][1]");
  CHECK(Text(m.value().get<1>()) == "<root>[1][1]");
  // A part on one side only: a missing step on the other.
  m = StructuralEqual::GetFirstMismatch(Array<int>{1, 2, 3}, Array<int>{1, 2});
  REQUIRE(m.has_value());
  CHECK(Text(m.value().get<0>()) == "<root>[2]");
  CHECK(Text(m.value().get<1>()) == "<root>[!2]");
  Map<String, int> a{{"x", 1}}, b{{"x", 2}};
  m = StructuralEqual::GetFirstMismatch(a, b);
  REQUIRE(m.has_value());
  CHECK(Text(m.value().get<0>()) == "<root>{x}");
  // The paths compare with the header's own path arithmetic.
  AccessPath expected = AccessPath::Root()->MapItem(String("x"));
  CHECK(m.value().get<0>()->PathEqual(expected));
}

// ffi.VisitErrorContext: layout, fields, and FindAccessPaths.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

Any Node(int64_t value, Any children) {
  TestingGlobal("testing.make_snode_chain");  // loads the testing library
  return Call("ffi.MakeObjectFromPackedArgs", std::string("testing.SNode"), std::string("value"),
              value, std::string("children"), children);
}

// A context whose pattern is `innermost_first`.
Any Context(std::initializer_list<Any> innermost_first) {
  List<Any> pattern;
  for (const Any& n : innermost_first) pattern.push_back(n);
  return Call("ffi.MakeObjectFromPackedArgs", std::string("ffi.VisitErrorContext"),
              std::string("reverse_visit_pattern"), pattern);
}

std::vector<std::string> Paths(const Any& root, const Any& context, bool prefix) {
  Any found = Call("ffi.VisitErrorContext.FindAccessPaths", root, context, prefix);
  std::vector<std::string> out;
  int64_t n = Call("ffi.ArraySize", found).cast<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    Any path = Call("ffi.ArrayGetItem", found, i);
    out.push_back(Call("ffi.ReprPrint", path).cast<std::string>());
  }
  return out;
}

}  // namespace

TEST_CASE("VisitErrorContext: layout and fields", "[visit_error_context]") {
  Any leaf = Node(3, Any());
  Any ctx = Context({leaf});
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(ctx.type_index());
  REQUIRE(info->metadata != nullptr);
  CHECK(info->metadata->total_size == 40);
  REQUIRE(info->num_fields == 2);
  CHECK(info->fields[0].offset == 24);
  CHECK(info->fields[1].offset == 32);
  CHECK(*reinterpret_cast<TVMFFIObject* const*>(reinterpret_cast<char*>(RawOf(ctx)->v_obj) + 32) ==
        nullptr);
}

TEST_CASE("VisitErrorContext: FindAccessPaths follows the recorded chain", "[visit_error_context]") {
  Any leaf = Node(3, Any());
  Any mid = Node(2, Call("ffi.Array", Node(9, Any()), leaf));
  Any root = Node(1, Call("ffi.Map", std::string("k"), mid));
  // Innermost first; the repeat of `leaf` and a None collapse away.
  Any ctx = Context({leaf, leaf, Any(), mid, root});
  CHECK(Paths(root, ctx, false) == std::vector<std::string>{"<root>.children[\"k\"].children[1]"});
  // A chain that does not continue below `mid`: nothing; as prefix matches,
  // the reflected objects below mid (whose subtrees hold no full match).
  Any other = Node(7, Any());
  Any partial = Context({other, mid, root});
  CHECK(Paths(root, partial, false).empty());
  CHECK(Paths(root, partial, true) ==
        std::vector<std::string>{"<root>.children[\"k\"].children[0]",
                                 "<root>.children[\"k\"].children[1]"});
  // Matched down to `leaf` with nothing below it: leaf's path, and its
  // sibling's (below the matched `mid`, no full match there either).
  CHECK(Paths(root, Context({other, leaf, mid, root}), true) ==
        std::vector<std::string>{"<root>.children[\"k\"].children[0]",
                                 "<root>.children[\"k\"].children[1]"});
  CHECK(Paths(root, Context({other, leaf, mid, root}), false).empty());
  // The same leaf twice in the tree: both paths.
  Any twice = Node(0, Call("ffi.Array", leaf, leaf));
  CHECK(Paths(twice, Context({leaf}), false) ==
        std::vector<std::string>{"<root>.children[0]", "<root>.children[1]"});
  CHECK(ThrownBy([&] { Call("ffi.VisitErrorContext.FindAccessPaths", root, leaf, false); }) ==
        "TypeError: In function ffi.VisitErrorContext.FindAccessPaths: argument 2: expected "
        "ffi.VisitErrorContext, got testing.SNode");
}

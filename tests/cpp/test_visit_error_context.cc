// ffi.VisitErrorContext: layout, fields, and FindAccessPaths.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include <tvm/ffi/extra/visit_error_context.h>

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
        "TypeError: Mismatched type on argument #1 when calling: "
        "`ffi.VisitErrorContext.FindAccessPaths(0: ffi.Object, 1: ffi.VisitErrorContext, 2: "
        "bool) -> Array<ffi.reflection.AccessPath>`. Expected `ffi.VisitErrorContext` but got "
        "`testing.SNode`");
}

namespace {

// The error `f` throws (a tvm::ffi::Error), with its VisitErrorContext.
struct Caught {
  std::string kind, message;
  std::optional<ObjectRef> context;
};

template <typename F>
Caught CatchFrom(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.kind(), e.message(), e.extra_context()};
  }
  FAIL("no error");
  return {};
}

Any IntEntry(Function fn) { return Call("ffi.Array", int64_t(kTVMFFIInt), fn); }

}  // namespace

// An error a callback makes with tvm::ffi's own TVM_FFI_THROW (its object made
// by the header, not by libtvm_ffi) records the nodes it unwinds through as
// well as one libtvm_ffi made; the context goes on a library-made copy with
// the same kind and message.
TEST_CASE("VisitErrorContext: a callback's TVM_FFI_THROW error records the nodes of walks, maps "
          "and mutations",
          "[visit_error_context]") {
  Any leaf = Node(3, Any());
  Any mid = Node(2, Call("ffi.Array", leaf));
  Any root = Node(1, Call("ffi.Array", mid, int64_t(4)));
  auto throw_at_3 = [](int64_t v) {
    if (v == 3) TVM_FFI_THROW(ValueError) << "bad leaf";
    return v;
  };
  auto check = [&](const Caught& c) {
    CHECK(c.kind == "ValueError");
    CHECK(c.message == "bad leaf");
    REQUIRE(c.context.has_value());
    CHECK(Paths(root, Any(*c.context), false) ==
          std::vector<std::string>{"<root>.children[0].children[0]"});
  };
  Function walk_cb = Function::FromTyped([&](int64_t v) -> Any {
    throw_at_3(v);
    return Any();
  });
  Function map_cb = Function::FromTyped(throw_at_3);
  for (int64_t order : {0, 1}) {
    check(CatchFrom([&] {
      Call("ffi.StructuralWalk", root, Call("ffi.Array", IntEntry(walk_cb)), Call("ffi.Array"),
           order);
    }));
    check(CatchFrom([&] {
      Call("ffi.StructuralMap", root, Call("ffi.Array", IntEntry(map_cb)), Call("ffi.Array"),
           order);
    }));
  }
  Function mutate_cb = Function::FromTyped([&](int64_t v, AnyView) { return throw_at_3(v); });
  check(CatchFrom([&] { Call("ffi.StructuralMutate", root, Call("ffi.Array", IntEntry(mutate_cb))); }));
}

// Upstream's StructuralMap.PostOrderCallbackErrorKeepsDescendedNode: an Error
// a post-order callback returns (or throws) names the node it was given, the
// one after the descent; the input stays as it was.
TEST_CASE("VisitErrorContext: a post-order map callback's error records the descended node",
          "[visit_error_context]") {
  Any root = Call("ffi.Array", int64_t(1));
  Function increment = Function::FromTyped([](int64_t v) { return v + 1; });
  Function returns_error = Function::FromTyped(
      [](AnyView) -> Any { return Any(Error("ValueError", "post-order callback failed", "")); });
  Function throws_error = Function::FromTyped([](AnyView) -> Any {
    TVM_FFI_THROW(ValueError) << "post-order callback failed";
  });
  for (const Function& fail : {returns_error, throws_error}) {
    Caught c = CatchFrom([&] {
      Call("ffi.StructuralMap", root,
           Call("ffi.Array", Call("ffi.Array", int64_t(kTVMFFIArray), fail), IntEntry(increment)),
           Call("ffi.Array"), int64_t(1));
    });
    CHECK(c.kind == "ValueError");
    CHECK(c.message == "post-order callback failed");
    REQUIRE(c.context.has_value());
    const auto* ctx = c.context->as<VisitErrorContextObj>();
    REQUIRE(ctx != nullptr);
    REQUIRE(ctx->reverse_visit_pattern.size() == 1);
    Any descended = ctx->reverse_visit_pattern[0];
    CHECK(descended.type_index() == kTVMFFIArray);
    CHECK(RawOf(descended)->v_obj != RawOf(root)->v_obj);
    CHECK(Call("ffi.ArrayGetItem", descended, int64_t(0)).cast<int64_t>() == 2);
    CHECK(Call("ffi.ArrayGetItem", root, int64_t(0)).cast<int64_t>() == 1);
  }
}

// ffi.StructuralWalk, ffi.StructuralVisit and ffi.StructuralVisitor*: order, skip, interrupt,
// definition regions, errors with their VisitErrorContext.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

int32_t IndexOf(const char* key) {
  TestingGlobal("testing.make_snode_chain");  // loads the testing library
  TVMFFIByteArray name = {key, std::strlen(key)};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&name, &index) == 0);
  return index;
}

Any Make(const char* key, std::initializer_list<std::pair<const char*, Any>> fields) {
  IndexOf(key);
  std::vector<AnyView> args;
  std::vector<Any> keep;
  keep.push_back(Any(std::string(key)));
  for (const auto& f : fields) {
    keep.push_back(Any(std::string(f.first)));
    keep.push_back(f.second);
  }
  for (const Any& a : keep) args.push_back(AnyView(a));
  return CallPacked(Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs"), args.data(),
                    static_cast<int32_t>(args.size()));
}

Any Node(int64_t v, Any children) {
  return Make("testing.SNode", {{"value", Any(v)}, {"children", std::move(children)}});
}

Any Entry(int32_t type_index, Function fn) {
  return Call("ffi.Array", int64_t(type_index), fn);
}

// root(1) -> [mid(2) -> [leaf(3)], 4]
struct Tree {
  Any leaf = Node(3, Any());
  Any mid = Node(2, Call("ffi.Array", leaf));
  Any root = Node(1, Call("ffi.Array", mid, int64_t(4)));
};

}  // namespace

TEST_CASE("StructuralWalk: pre-order and post-order, typed callbacks", "[structural_walk]") {
  Tree t;
  int32_t snode = IndexOf("testing.SNode");
  for (int64_t order : {int64_t(0), int64_t(1)}) {
    std::vector<std::string> log;
    Function node_cb = Function::FromTyped([&](AnyView v) {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(v.type_index());
      log.push_back(std::string(info->type_key.data, info->type_key.size));
      return Any();
    });
    Function int_cb = Function::FromTyped([&](int64_t v) {
      log.push_back(std::to_string(v));
      return Any();
    });
    Any r = Call("ffi.StructuralWalk", t.root,
                 Call("ffi.Array", Entry(snode, node_cb), Entry(kTVMFFIInt, int_cb)),
                 Call("ffi.Array"), order);
    CHECK(r.type_index() == kTVMFFINone);
    if (order == 0) {
      CHECK(log == std::vector<std::string>{"testing.SNode", "1", "testing.SNode", "2",
                                            "testing.SNode", "3", "4"});
    } else {
      CHECK(log == std::vector<std::string>{"1", "2", "3", "testing.SNode", "testing.SNode", "4",
                                            "testing.SNode"});
    }
  }
}

TEST_CASE("StructuralWalk: skip prunes, an interrupt stops and is returned", "[structural_walk]") {
  Tree t;
  int32_t snode = IndexOf("testing.SNode");
  std::vector<int64_t> ints;
  Function int_cb = Function::FromTyped([&](int64_t v) {
    ints.push_back(v);
    return Any();
  });
  Function skip_mid = Function::FromTyped([&](AnyView v) -> Any {
    return RawOf(v)->v_obj == RawOf(t.mid)->v_obj ? Any(int64_t(1)) : Any(int64_t(0));
  });
  Call("ffi.StructuralWalk", t.root,
       Call("ffi.Array", Entry(snode, skip_mid), Entry(kTVMFFIInt, int_cb)), Call("ffi.Array"),
       int64_t(0));
  CHECK(ints == std::vector<int64_t>{1, 4});

  Any stop = Call("ffi.VisitInterrupt", std::string("found"));
  Function stop_at_3 = Function::FromTyped([&](int64_t v) -> Any {
    ints.push_back(v);
    return v == 3 ? stop : Any();
  });
  ints.clear();
  Any r = Call("ffi.StructuralWalk", t.root, Call("ffi.Array", Entry(kTVMFFIInt, stop_at_3)),
               Call("ffi.Array"), int64_t(0));
  CHECK(RawOf(r)->v_obj == RawOf(stop)->v_obj);
  CHECK(ints == std::vector<int64_t>{1, 2, 3});
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralWalk", t.root, Call("ffi.Array"), Call("ffi.Array"), int64_t(2));
        }) == "ValueError: ffi.StructuralWalk: order must be 0 (pre-order) or 1 (post-order), "
              "got 2");
  Function bad = Function::FromTyped([](int64_t) { return std::string("no"); });
  CHECK(ThrownBy([&] {
          Call("ffi.StructuralWalk", t.root, Call("ffi.Array", Entry(kTVMFFIInt, bad)),
               Call("ffi.Array"), int64_t(0));
        }) == "TypeError: ffi.StructuralWalk: a callback must return None, 0 (advance), 1 "
              "(skip) or ffi.VisitInterrupt, got str");
}

TEST_CASE("StructuralWalk: definition regions reach the kind-aware callbacks",
          "[structural_walk]") {
  int32_t svar = IndexOf("testing.SVar");
  Any x = Make("testing.SVar", {{"name", Any(std::string("x"))}});
  Any y = Make("testing.SVar", {{"name", Any(std::string("y"))}});
  // let y = x in fn(params=[x], body=y)
  Any fn = Make("testing.SFunc", {{"params", Call("ffi.Array", x)}, {"body", y}});
  Any let = Make("testing.SLet", {{"var", y}, {"value", x}, {"body", fn}});
  std::vector<std::pair<std::string, int64_t>> log;
  Function var_cb = Function::FromTyped([&](AnyView v, int64_t kind) {
    log.push_back({RawOf(v)->v_obj == RawOf(x)->v_obj ? "x" : "y", kind});
    return Any();
  });
  Call("ffi.StructuralWalk", let, Call("ffi.Array"), Call("ffi.Array", Entry(svar, var_cb)),
       int64_t(0));
  // var (Simple = 2), value (none), params (Pattern = 1), body (none)
  CHECK(log == std::vector<std::pair<std::string, int64_t>>{
                   {"y", 2}, {"x", 0}, {"x", 1}, {"y", 0}});
}

TEST_CASE("StructuralWalk: an error carries the path in a VisitErrorContext", "[structural_walk]") {
  Tree t;
  Function fail_at_3 = Function::FromTyped([](int64_t v) {
    // A library-made error: the library attaches its VisitErrorContext only
    // to errors it made (a tvm::ffi::Error's cell is made in the header).
    if (v == 3) throw LibraryError("ValueError", "bad leaf");
    return Any();
  });
  try {
    Call("ffi.StructuralWalk", t.root, Call("ffi.Array", Entry(kTVMFFIInt, fail_at_3)),
         Call("ffi.Array"), int64_t(1));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == "ValueError");
    CHECK(e.message() == "bad leaf");
    std::optional<ObjectRef> ctx = e.extra_context();
    REQUIRE(ctx.has_value());
    Any context(*ctx);
    Any paths = Call("ffi.VisitErrorContext.FindAccessPaths", t.root, context, false);
    REQUIRE(Call("ffi.ArraySize", paths).cast<int64_t>() == 1);
    CHECK(Call("ffi.ReprPrint", Call("ffi.ArrayGetItem", paths, int64_t(0))).cast<std::string>() ==
          "<root>.children[0].children[0]");
  }
}

TEST_CASE("StructuralVisitor globals refuse a non-visitor", "[structural_walk]") {
  CHECK(ThrownBy([] { Call("ffi.StructuralVisitorDefRegionKind", int64_t(1)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`ffi.StructuralVisitorDefRegionKind(0: ffi.StructuralVisitor) -> int`. Expected "
        "`ffi.StructuralVisitor` but got `int`");
}

TEST_CASE("StructuralVisit: the first matching callback owns a value and descends through the "
          "visitor",
          "[structural_walk]") {
  Tree t;
  int32_t snode = IndexOf("testing.SNode");
  std::vector<std::string> log;
  // Nodes descend through default_visit, except mid(2), which prunes.
  Function node_cb = Function::FromTyped([&](AnyView v, AnyView visitor) -> Any {
    log.push_back("node");
    if (RawOf(v)->v_obj == RawOf(t.mid)->v_obj) return Any();
    return Call("ffi.StructuralVisitorDefaultVisit", visitor, v);
  });
  Function int_cb = Function::FromTyped([&](int64_t v, AnyView) -> Any {
    log.push_back(std::to_string(v));
    if (v == 4) return Call("ffi.VisitInterrupt", std::string("four"));
    return Any();
  });
  Any r = Call("ffi.StructuralVisit", t.root,
               Call("ffi.Array", Entry(snode, node_cb), Entry(kTVMFFIInt, int_cb)));
  CHECK(log == std::vector<std::string>{"node", "1", "node", "4"});
  REQUIRE(r.type_index() == kTVMFFIVisitInterrupt);
  // Unmatched values take their default descent; a result other than None or
  // a VisitInterrupt is a TypeError.
  Function bad = Function::FromTyped([](int64_t, AnyView) { return int64_t(5); });
  CHECK(ThrownBy([&] { Call("ffi.StructuralVisit", t.root, Call("ffi.Array", Entry(kTVMFFIInt, bad))); })
            .rfind("TypeError: ffi.StructuralVisit: a callback must return None or "
                   "ffi.VisitInterrupt, got int",
                   0) == 0);
}

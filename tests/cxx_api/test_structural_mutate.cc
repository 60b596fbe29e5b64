// extra/structural_mutate.h: StructuralMap, StructuralMutate, UnchangedOr,
// the mutator object; and the library's hooks (copy on write and in place
// for the containers) and ffi.StructuralMap / ffi.StructuralMutate.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <string>
#include <utility>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

// A reflected leaf and a reflected pair (copyable: ObjectDef gives them
// __ffi_shallow_copy__).
class SmLeafObj : public Object {
 public:
  int64_t value = 0;
  explicit SmLeafObj(int64_t v) : value(v) {}
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.SmLeaf", SmLeafObj, Object);
};

class SmPairObj : public Object {
 public:
  Any lhs;
  Any rhs;
  String tag;  // ignored by structural walks
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.SmPair", SmPairObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<SmLeafObj>().def_ro("value", &SmLeafObj::value);
  refl::ObjectDef<SmPairObj>()
      .def_ro("lhs", &SmPairObj::lhs)
      .def_ro("rhs", &SmPairObj::rhs)
      .def_ro("tag", &SmPairObj::tag, refl::AttachFieldFlag::SEqHashIgnore());
}

ObjectRef Leaf(int64_t v) { return ObjectRef(make_object<SmLeafObj>(v)); }

ObjectRef Pair(Any lhs, Any rhs, const char* tag = "t") {
  ObjectPtr<SmPairObj> p = make_object<SmPairObj>();
  p->lhs = std::move(lhs);
  p->rhs = std::move(rhs);
  p->tag = tag;
  return ObjectRef(std::move(p));
}

// Leaves with value v become leaves with v * 10.
Expected<Any> TimesTen(const SmLeafObj* leaf) { return Any(Leaf(leaf->value * 10)); }

int64_t LeafValue(const Any& v) { return v.as<SmLeafObj>()->value; }

}  // namespace

TEST_CASE("structural_mutate: UnchangedOr", "[structural_mutate]") {
  UnchangedOr<int64_t> none = Unchanged();
  CHECK(none.IsUnchanged());
  CHECK(UnchangedOr<int64_t>(none).ValueOrUnchanged(int64_t{5}) == 5);
  UnchangedOr<int64_t> seven(int64_t{7});
  CHECK(!seven.IsUnchanged());
  CHECK(std::move(seven).ValueOrUnchanged(int64_t{5}) == 7);
  // Widening keeps the marker.
  UnchangedOr<Any> wide = UnchangedOr<int64_t>(Unchanged());
  CHECK(wide.IsUnchanged());
  Any in_any = UnchangedOr<Any>(Unchanged());
  CHECK(in_any.type_index() == TypeIndex::kTVMFFIUnchanged);
  Expected<Any> marker = []() -> Expected<Any> { return Unchanged(); }();
  CHECK(marker.is_ok());
}

TEST_CASE("structural_mutate: post-order map copies only what changes", "[structural_mutate]") {
  ObjectRef untouched = Pair(String("s"), int64_t{3});
  Array<Any> items{Leaf(1), untouched, Leaf(2)};
  ObjectRef root = Pair(items, untouched, "root");
  Any out = StructuralMap<WalkOrder::kPostOrder>(root, TimesTen);
  // The input is intact; the output shares what did not change.
  CHECK(LeafValue(root.as<SmPairObj>()->lhs.cast<Array<Any>>()[0]) == 1);
  const SmPairObj* pair = out.as<SmPairObj>();
  REQUIRE(pair != nullptr);
  CHECK(!out.same_as(root));
  CHECK(pair->tag == "root");  // a shallow copy keeps the other fields
  Array<Any> mapped = pair->lhs.cast<Array<Any>>();
  CHECK(!mapped.same_as(items));
  CHECK(LeafValue(mapped[0]) == 10);
  CHECK(mapped[1].same_as(untouched));
  CHECK(LeafValue(mapped[2]) == 20);
  CHECK(pair->rhs.same_as(untouched));
  // Nothing to change: the very same root.
  CHECK(StructuralMap<WalkOrder::kPreOrder>(untouched, TimesTen).same_as(untouched));
}

TEST_CASE("structural_mutate: pre-order sees originals and descends into results",
          "[structural_mutate]") {
  std::vector<int64_t> seen;
  Any out = StructuralMap<WalkOrder::kPreOrder>(
      Pair(Leaf(1), Leaf(2)), [&](const SmLeafObj* leaf) -> Expected<Any> {
        seen.push_back(leaf->value);
        if (leaf->value == 1) return Any(Pair(Leaf(3), Leaf(4)));  // its leaves are mapped too
        return Unchanged();
      });
  CHECK(seen == std::vector<int64_t>{1, 3, 4, 2});
  const SmPairObj* pair = out.as<SmPairObj>();
  REQUIRE(pair != nullptr);
  CHECK(pair->lhs.as<SmPairObj>() != nullptr);
  CHECK(LeafValue(pair->rhs) == 2);
}

TEST_CASE("structural_mutate: containers in place when nobody else holds them",
          "[structural_mutate]") {
  Array<Any> arr{Leaf(1), Leaf(2)};
  const Object* address = arr.get();
  Any out = StructuralMap<WalkOrder::kPostOrder>(std::move(arr), TimesTen);
  CHECK(out.as<Object>() == address);  // updated where it was
  CHECK(LeafValue(out.cast<Array<Any>>()[1]) == 20);

  // A shared container is copied; its other holder sees no change.
  Map<String, Any> shared{{"k", Leaf(5)}};
  Map<String, Any> keep = shared;
  Any copied = StructuralMap<WalkOrder::kPostOrder>(std::move(shared), TimesTen);
  CHECK(!copied.same_as(keep));
  CHECK(LeafValue(copied.cast<Map<String, Any>>().at("k")) == 50);
  CHECK(LeafValue(keep.at("k")) == 5);

  // Lists and their items.
  List<Any> list{Leaf(7)};
  List<Any> list_keep = list;
  Any list_out = StructuralMap<WalkOrder::kPostOrder>(Any(list), TimesTen);
  CHECK(list_out.type_index() == TypeIndex::kTVMFFIList);
  CHECK(LeafValue(list_out.cast<List<Any>>()[0]) == 70);
  CHECK(LeafValue(list_keep[0]) == 7);
}

TEST_CASE("structural_mutate: StructuralMutate callbacks own the descent", "[structural_mutate]") {
  // Swap the sides of every pair, and mutate only the new left side.
  Any out = StructuralMutate(
      Pair(Leaf(1), Leaf(2)),
      [](const SmPairObj* p, StructuralMutatorObj* m) -> Expected<Any> {
        Expected<UnchangedOr<Any>> left = m->MutateExpected(p->rhs);
        if (left.is_err()) return Unexpected(left.error());
        return Any(Pair(std::move(left).value().ValueOrUnchanged(AnyView(p->rhs)), p->lhs));
      },
      [](const SmLeafObj* leaf, StructuralMutatorObj*) -> Expected<Any> {
        return Any(Leaf(leaf->value + 100));
      });
  const SmPairObj* pair = out.as<SmPairObj>();
  REQUIRE(pair != nullptr);
  CHECK(LeafValue(pair->lhs) == 102);
  CHECK(LeafValue(pair->rhs) == 1);

  // An error comes back with the visit context; the throwing entry throws it.
  auto failing = [](const SmLeafObj*, StructuralMutatorObj*) -> Expected<Any> {
    return Unexpected(Error("ValueError", "no leaves", ""));
  };
  ObjectRef root = Pair(int64_t{1}, Leaf(1));
  Expected<Any> r = StructuralMutateExpected(root, failing);
  REQUIRE(r.is_err());
  CHECK(r.error().message() == "no leaves");
  Optional<VisitErrorContext> ctx = VisitErrorContext::TryGetFromError(r.error());
  REQUIRE(ctx.has_value());
  CHECK(ctx.value()->reverse_visit_pattern[ctx.value()->reverse_visit_pattern.size() - 1].same_as(
      root));
  CHECK(ErrorOf([&] { StructuralMutate(root, failing); }) == "ValueError: no leaves");
}

TEST_CASE("structural_mutate: the library's dynamic entry points", "[structural_mutate]") {
  Function times_ten = Function::FromTyped([](const SmLeafObj* leaf) { return Leaf(leaf->value * 10); });
  Function map = Function::GetGlobalRequired("ffi.StructuralMap");
  Array<Any> root{Leaf(1), int64_t{2}};
  Any out = map(root,
                Array<Tuple<int32_t, Function>>{
                    Tuple<int32_t, Function>(SmLeafObj::RuntimeTypeIndex(), times_ten)},
                Array<Tuple<int32_t, Function>>(), static_cast<int32_t>(WalkOrder::kPostOrder));
  CHECK(LeafValue(out.cast<Array<Any>>()[0]) == 10);
  CHECK(out.cast<Array<Any>>()[1].cast<int64_t>() == 2);
  CHECK(LeafValue(root[0]) == 1);
  CHECK(ErrorOf([&] {
          map(root, Array<Tuple<int32_t, Function>>(), Array<Tuple<int32_t, Function>>(), 7);
        }) == "ValueError: ffi.StructuralMap: order must be 0 (pre-order) or 1 (post-order), got 7");

  Function mutate = Function::GetGlobalRequired("ffi.StructuralMutate");
  Function with_mode = Function::FromTyped([](const SmLeafObj* leaf, StructuralMutator, int mode) {
    return Leaf(leaf->value + mode);
  });
  Any mutated = mutate(Pair(Leaf(1), Leaf(2)),
                       Array<Tuple<int32_t, Function, bool>>{Tuple<int32_t, Function, bool>(
                           SmLeafObj::RuntimeTypeIndex(), with_mode, true)});
  // The root was a temporary (in place allowed); its leaves are shared with it (not).
  CHECK(LeafValue(mutated.as<SmPairObj>()->lhs) == 1);
  CHECK(LeafValue(mutated.as<SmPairObj>()->rhs) == 2);
}

namespace {

// A Parent layer that hides DefaultMutateExpected (a non-virtual override):
// the engines built over it must take every default descent through it.
class CountingLayer : public StructuralMapEngineBase {
 public:
  explicit CountingLayer(const StructuralMutatorVTable* vtable)
      : StructuralMapEngineBase(vtable) {}

  Expected<UnchangedOr<Any>> DefaultMutateExpected(AnyView value,
                                                   InplaceMode inplace_mode) noexcept {
    ++descents;
    return StructuralMapEngineBase::DefaultMutateExpected(value, inplace_mode);
  }

  int descents = 0;
};

Expected<Any> PlusOne(int64_t v) { return Any(v + 1); }

}  // namespace

TEST_CASE("structural_mutate: engines descend through the Parent layer's DefaultMutateExpected",
          "[structural_mutate]") {
  // root = [[1], 2].  The map engines descend into every value once (its
  // own default descent, or, pre-order, the descent into the callback's
  // result): 4.  StructuralMutate leaves the ints to the callback: 2.
  auto check = [](auto engine, int expected_descents) {
    StructuralMutator mutator(engine);
    Array<Any> root{Any(Array<Any>{int64_t{1}}), Any(int64_t{2})};
    Array<Any> mapped = mutator->Mutate(root, InplaceMode::kDisallow)
                            .ValueOrUnchanged(AnyView(root))
                            .template cast<Array<Any>>();
    CHECK(mapped[0].cast<Array<Any>>()[0].cast<int64_t>() == 2);
    CHECK(mapped[1].cast<int64_t>() == 3);
    CHECK(engine->descents == expected_descents);
  };
  check(make_object<StructuralMapEngine<CountingLayer, WalkOrder::kPostOrder, decltype(&PlusOne)>>(
      &PlusOne), 4);
  check(make_object<StructuralMapEngine<CountingLayer, WalkOrder::kPreOrder, decltype(&PlusOne)>>(
      &PlusOne), 4);
  Function plus_one = Function::FromTyped([](int64_t v) { return v + 1; });
  Array<Tuple<int32_t, Function>> by_type{
      Tuple<int32_t, Function>(TypeIndex::kTVMFFIInt, plus_one)};
  check(make_object<StructuralMapDynEngine<CountingLayer, WalkOrder::kPostOrder>>(
      by_type, Array<Tuple<int32_t, Function>>()), 4);
  check(make_object<StructuralMapDynEngine<CountingLayer, WalkOrder::kPreOrder>>(
      by_type, Array<Tuple<int32_t, Function>>()), 4);
  // StructuralMutate: a callback on ints only; arrays get the default descent.
  auto mutate_int = [](int64_t v, StructuralMutatorObj*) -> Expected<Any> { return Any(v + 1); };
  check(make_object<StructuralMutateEngine<CountingLayer, decltype(mutate_int)>>(mutate_int), 2);
}

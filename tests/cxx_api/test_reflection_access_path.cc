// reflection/access_path.h: paths built inline, and paths shared with the
// library in both directions (the objects have upstream's layout, which the
// library and these headers both read directly).
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/accessor.h>

#include <catch2/catch.hpp>

#include <string>

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using refl::AccessKind;
using refl::AccessPath;
using refl::AccessStep;

TEST_CASE("access path: layouts", "[reflection]") {
  STATIC_REQUIRE(sizeof(refl::AccessStepObj) == sizeof(TVMFFIObject) + 8 + sizeof(TVMFFIAny));
  STATIC_REQUIRE(sizeof(refl::AccessPathObj) == sizeof(TVMFFIObject) + 24);
  STATIC_REQUIRE(sizeof(AccessKind) == 4);
  CHECK(refl::AccessStepObj::RuntimeTypeIndex() == TypeKeyToIndex("ffi.reflection.AccessStep"));
  CHECK(refl::AccessPathObj::RuntimeTypeIndex() == TypeKeyToIndex("ffi.reflection.AccessPath"));
}

TEST_CASE("access path: building and reading inline", "[reflection]") {
  AccessPath root = AccessPath::Root();
  CHECK(root->depth == 0);
  CHECK(!root->GetParent().has_value());
  CHECK(root->ToSteps().empty());

  AccessPath p = root->Attr("body")->ArrayItem(2)->MapItem(String("k"));
  CHECK(p->depth == 3);
  Array<AccessStep> steps = p->ToSteps();
  REQUIRE(steps.size() == 3);
  CHECK(steps[0]->kind == AccessKind::kAttr);
  CHECK(steps[0]->key.cast<String>() == "body");
  CHECK(steps[1]->kind == AccessKind::kArrayItem);
  CHECK(steps[1]->key.cast<int64_t>() == 2);
  CHECK(steps[2]->kind == AccessKind::kMapItem);
  CHECK(steps[2]->key.cast<String>() == "k");
  CHECK(p->GetParent().value()->depth == 2);

  // Equality is by steps; prefixes by steps too.
  AccessPath same = AccessPath::FromSteps(steps);
  CHECK(!same.same_as(p));
  CHECK(same->PathEqual(p));
  CHECK(root->Attr("body")->IsPrefixOf(p));
  CHECK(p->IsPrefixOf(p));
  CHECK(!p->IsPrefixOf(root->Attr("body")));
  CHECK(!root->Attr("head")->IsPrefixOf(p));
  CHECK(!root->Attr("body")->ArrayItem(3)->PathEqual(root->Attr("body")->ArrayItem(2)));
  CHECK(AccessStep::MapItemMissing()->key == nullptr);
  CHECK(AccessStep::ArrayItemMissing(4)->StepEqual(AccessStep::ArrayItemMissing(4)));
  CHECK(!AccessStep::ArrayItemMissing(4)->StepEqual(AccessStep::ArrayItem(4)));
}

TEST_CASE("access path: the library reads a path built inline", "[reflection]") {
  AccessPath p = AccessPath::Root()
                     ->Attr("config")
                     ->ArrayItem(0)
                     ->MapItem(String("name"))
                     ->AttrMissing("weights")
                     ->ArrayItemMissing(3)
                     ->MapItemMissing(String("bias"));
  CHECK(std::string(ReprPrint(Any(p))) ==
        "<root>.config[0][\"name\"][<missing:\"weights\">][<missing:3>][<missing:\"bias\">]");
  // Its fields through the library's getters.
  CHECK(refl::FieldGetter("ffi.reflection.AccessPath", "depth")(p).cast<int64_t>() == 6);
  CHECK(refl::FieldGetter("ffi.reflection.AccessStep", "kind")(p->step.value()).cast<int64_t>() ==
        static_cast<int64_t>(AccessKind::kMapItemMissing));
  CHECK(refl::FieldGetter("ffi.reflection.AccessPath", "parent")(AccessPath::Root()) == nullptr);
}

TEST_CASE("access path: a path made by the library reads inline", "[reflection]") {
  Any root = refl::GetMethod("ffi.reflection.AccessPath", "_root")();
  Any made = refl::GetMethod("ffi.reflection.AccessPath", "_array_item")(
      refl::GetMethod("ffi.reflection.AccessPath", "_attr")(root, "fields"), 7);
  AccessPath p = made.cast<AccessPath>();
  CHECK(p->depth == 2);
  Array<AccessStep> steps = p->ToSteps();
  REQUIRE(steps.size() == 2);
  CHECK(steps[0]->kind == AccessKind::kAttr);
  CHECK(steps[0]->key.cast<String>() == "fields");
  CHECK(steps[1]->kind == AccessKind::kArrayItem);
  CHECK(steps[1]->key.cast<int64_t>() == 7);
  CHECK(p->PathEqual(AccessPath::Root()->Attr("fields")->ArrayItem(7)));
}

TEST_CASE("access path: StructuralEqual::GetFirstMismatch", "[reflection]") {
  Array<Any> lhs{1, Array<Any>{2, 3}};
  Array<Any> rhs{1, Array<Any>{2, 4}};
  CHECK(!StructuralEqual::GetFirstMismatch(lhs, lhs).has_value());
  Optional<refl::AccessPathPair> diff = StructuralEqual::GetFirstMismatch(lhs, rhs);
  REQUIRE(diff.has_value());
  AccessPath expected = AccessPath::Root()->ArrayItem(1)->ArrayItem(1);
  refl::AccessPathPair paths = diff.value();
  CHECK(paths.get<0>()->PathEqual(expected));
  CHECK(paths.get<1>()->PathEqual(expected));
  // A longer right side: the first element it has and the left lacks.
  Array<Any> longer{1, Array<Any>{2, 3}, 5};
  Optional<refl::AccessPathPair> extra = StructuralEqual::GetFirstMismatch(lhs, longer);
  REQUIRE(extra.has_value());
  CHECK(extra.value().get<0>()->PathEqual(AccessPath::Root()->ArrayItemMissing(2)));
  CHECK(extra.value().get<1>()->PathEqual(AccessPath::Root()->ArrayItem(2)));
}

// optional.h, cast.h and rvalue_ref.h.
#include <tvm/ffi/cast.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/rvalue_ref.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <string>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

class LeafNode : public Object {
 public:
  explicit LeafNode(int v) : value(v) {}
  int value;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_test.opt.Leaf", LeafNode, Object);
};
class Leaf : public ObjectRef {
 public:
  explicit Leaf(int v) : ObjectRef(make_object<LeafNode>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Leaf, ObjectRef, LeafNode);
};
class StrictLeaf : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StrictLeaf, ObjectRef, LeafNode);
};

}  // namespace

TEST_CASE("optional: the four layouts", "[optional]") {
  STATIC_REQUIRE(sizeof(Optional<Leaf>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(Optional<ObjectPtr<LeafNode>>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(Optional<int64_t>) == sizeof(TVMFFIAny));
  STATIC_REQUIRE(sizeof(Optional<String>) == sizeof(TVMFFIAny));
  STATIC_REQUIRE(sizeof(Optional<std::string>) == sizeof(std::optional<std::string>));
}

TEST_CASE("optional: values, emptiness and errors", "[optional]") {
  Optional<int> none;
  CHECK_FALSE(none.has_value());
  CHECK(none == std::nullopt);
  CHECK(none.value_or(7) == 7);
  CHECK(ErrorOf([&] { none.value(); }) == "RuntimeError: Bad optional access");
  Optional<int> three = 3;
  CHECK(three.value() == 3);
  CHECK(*three == 3);
  CHECK(three == 3);
  CHECK(three != 4);
  CHECK(three != none);
  CHECK(three == Optional<int>(3));
  none = 5;
  CHECK(none.value() == 5);
  none = std::nullopt;
  CHECK_FALSE(none);

  Optional<String> s = String("optional string value");
  CHECK(s.value() == "optional string value");
  CHECK(s == String("optional string value"));
  CHECK(s.as<String>().has_value());
  Optional<std::string> std_s = std::string("x");
  CHECK(std_s.value() == "x");

  Leaf leaf(4);
  Optional<Leaf> opt = leaf;
  CHECK(opt.use_count() == 2);
  CHECK(opt->value == 4);
  CHECK(opt == leaf);
  CHECK(opt.same_as(leaf));
  CHECK(opt != Optional<Leaf>(Leaf(4)));  // identity for objects without ==
  Leaf back = std::move(opt).value();
  CHECK(leaf.use_count() == 2);
  Optional<Leaf> empty = std::nullopt;
  CHECK(ErrorOf([&] { empty.value(); }) == "RuntimeError: Bad optional access");
  CHECK(empty == nullptr);
  CHECK(empty.value_or(leaf).same_as(leaf));

  Optional<ObjectPtr<LeafNode>> ptr = make_object<LeafNode>(8);
  CHECK(ptr.value()->value == 8);
  CHECK(ptr.use_count() == 1);
  ptr = nullptr;
  CHECK_FALSE(ptr.has_value());
}

TEST_CASE("optional: in and out of an Any", "[optional]") {
  Any a = Optional<int>(4);
  CHECK(a.type_index() == kTVMFFIInt);
  Any n = Optional<int>();
  CHECK(n == nullptr);
  CHECK_FALSE(n.cast<Optional<int>>().has_value());
  CHECK(a.cast<Optional<int>>().value() == 4);
  CHECK(a.cast<Optional<double>>().value() == 4.0);
  CHECK(ErrorOf([&] { a.cast<Optional<String>>(); }) ==
        "TypeError: Cannot convert from type `int` to `Optional<str>`");

  Leaf leaf(1);
  AnyView view = Optional<Leaf>(leaf);
  CHECK(view.type_index() == LeafNode::RuntimeTypeIndex());
  Any owned = Optional<Leaf>(leaf);
  CHECK(leaf.use_count() == 2);
  Optional<Leaf> from_any = std::move(owned).cast<Optional<Leaf>>();
  CHECK(owned == nullptr);
  CHECK(from_any.same_as(leaf));
  CHECK(TypeTraits<Optional<Leaf>>::TypeStr() == "Optional<cxx_api_test.opt.Leaf>");
  CHECK(TypeTraits<Optional<int>>::TypeSchema() ==
        R"({"type":"Optional","args":[{"type":"int"}]})");
  Any none;
  CHECK_FALSE(none.cast<Optional<Leaf>>().has_value());
}

TEST_CASE("cast: GetRef and GetObjectPtr take a reference", "[cast]") {
  Leaf leaf(2);
  const LeafNode* node = leaf.get();
  Leaf again = GetRef<Leaf>(node);
  CHECK(again.same_as(leaf));
  CHECK(leaf.use_count() == 2);
  ObjectRef as_base = GetRef<ObjectRef>(node);
  CHECK(leaf.use_count() == 3);
  CHECK_FALSE(GetRef<Leaf>(static_cast<const LeafNode*>(nullptr)).defined());
  CHECK_FALSE(GetRef<Optional<Leaf>>(static_cast<const LeafNode*>(nullptr)).has_value());
  CHECK(GetRef<Optional<Leaf>>(node).same_as(leaf));
  CHECK(ErrorOf([] { GetRef<StrictLeaf>(static_cast<const LeafNode*>(nullptr)); }) ==
        "InternalError: Check not null: ptr ");
  ObjectPtr<Object> ptr = GetObjectPtr<Object>(const_cast<LeafNode*>(node));
  CHECK(leaf.use_count() == 4);
}

TEST_CASE("rvalue_ref: the callee takes the object", "[rvalue_ref]") {
  Leaf leaf(3);
  Object* raw = const_cast<LeafNode*>(leaf.get());
  RValueRef<Leaf> ref(std::move(leaf));
  CHECK_FALSE(leaf.defined());
  AnyView arg = ref;
  CHECK(arg.type_index() == kTVMFFIObjectRValueRef);
  // The callee's side: a Leaf taken out of the argument.
  std::optional<RValueRef<Leaf>> taken = arg.try_cast<RValueRef<Leaf>>();
  REQUIRE(taken.has_value());
  Leaf inside = *std::move(*taken);
  CHECK(inside.get() == raw);
  CHECK(inside.use_count() == 1);
  CHECK(ErrorOf([&] { arg.try_cast<RValueRef<Leaf>>(); }) ==
        "InternalError: Check failed: (slot->get() != nullptr) is false: RValueRef already moved");
  // A plain value converts, the caller keeping its reference.
  Any plain = inside;
  std::optional<RValueRef<Leaf>> copied = AnyView(plain).try_cast<RValueRef<Leaf>>();
  REQUIRE(copied.has_value());
  CHECK(inside.use_count() == 3);
  CHECK(TypeTraits<RValueRef<Leaf>>::TypeStr() == "RValueRef<cxx_api_test.opt.Leaf>");
  Any number = 1;
  CHECK_FALSE(AnyView(number).try_cast<RValueRef<Leaf>>().has_value());
}

// object.h and memory.h: allocation, reference counts, weak pointers, type
// registration and instance checks, and objects shared with the runtime.
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <unordered_set>

using namespace tvm::ffi;

namespace {

int g_alive = 0;  // objects of the test classes constructed and not yet destroyed

class BaseNode : public Object {
 public:
  explicit BaseNode(int v) : value(v) { ++g_alive; }
  ~BaseNode() { --g_alive; }
  int value;
  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 2;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_test.Base", BaseNode, Object);
};

class ChildNode : public BaseNode {
 public:
  explicit ChildNode(int v) : BaseNode(v) {}
  // Inherited static members count: a child of a type that reserves slots
  // must reserve fewer.
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_test.Child", ChildNode, BaseNode);
};

class GrandChildNode final : public ChildNode {
 public:
  explicit GrandChildNode(int v) : ChildNode(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.GrandChild", GrandChildNode, ChildNode);
};

class OtherNode final : public Object {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.Other", OtherNode, Object);
};

class Base : public ObjectRef {
 public:
  explicit Base(int v) : ObjectRef(make_object<BaseNode>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Base, ObjectRef, BaseNode);
};

class Child : public Base {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Child, Base, ChildNode);
};

class NotNullBase : public ObjectRef {
 public:
  explicit NotNullBase(int v) : ObjectRef(make_object<BaseNode>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(NotNullBase, ObjectRef, BaseNode);
};

// An over-aligned object: memory.h must use an aligned allocation.
class alignas(64) WideNode final : public Object {
 public:
  double lanes[8] = {0};
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.Wide", WideNode, Object);
};

// An object with inline trailing elements.
class TailNode final : public Object {
 public:
  explicit TailNode(size_t n) : size(n) {
    for (size_t i = 0; i < n; ++i) data()[i] = static_cast<int64_t>(i * i);
  }
  int64_t* data() { return reinterpret_cast<int64_t*>(this + 1); }
  size_t size;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.Tail", TailNode, Object);
};

// Its constructor always throws.
struct Throws : public Object {
  Throws() { throw std::runtime_error("no"); }
};

uint64_t Count(const Object* obj) {
  return __atomic_load_n(&detail::ObjectUnsafe::GetHeader(obj)->combined_ref_count,
                         __ATOMIC_RELAXED);
}

int32_t KeyToIndex(const char* key) {
  TVMFFIByteArray bytes{key, std::strlen(key)};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&bytes, &index) == 0);
  return index;
}

}  // namespace

TEST_CASE("object: layouts are the ABI's", "[object]") {
  STATIC_REQUIRE(sizeof(Object) == sizeof(TVMFFIObject));
  STATIC_REQUIRE(sizeof(ObjectPtr<BaseNode>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(WeakObjectPtr<BaseNode>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(ObjectRef) == sizeof(void*));
  STATIC_REQUIRE(sizeof(Base) == sizeof(void*));
  STATIC_REQUIRE(sizeof(Arc<BaseNode>) == sizeof(void*));
  auto p = make_object<BaseNode>(1);
  CHECK(reinterpret_cast<void*>(p.get()) == detail::ObjectUnsafe::GetHeader(p.get()));
}

TEST_CASE("object: types register with the runtime at load", "[object]") {
  int32_t base = BaseNode::RuntimeTypeIndex();
  CHECK(base >= kTVMFFIDynObjectBegin);
  CHECK(KeyToIndex("cxx_api_test.Base") == base);
  CHECK(KeyToIndex("cxx_api_test.Child") == ChildNode::RuntimeTypeIndex());
  CHECK(KeyToIndex("cxx_api_test.GrandChild") == GrandChildNode::RuntimeTypeIndex());
  // Registering again returns the same index.
  CHECK(BaseNode::_GetOrAllocRuntimeTypeIndex() == base);
  CHECK(BaseNode::_type_depth == 1);
  CHECK(GrandChildNode::_type_depth == 3);
  const TypeInfo* info = TVMFFIGetTypeInfo(GrandChildNode::RuntimeTypeIndex());
  REQUIRE(info->type_depth == 3);
  CHECK(info->type_ancestors[0]->type_index == kTVMFFIObject);
  CHECK(info->type_ancestors[1]->type_index == base);
  CHECK(info->type_ancestors[2]->type_index == ChildNode::RuntimeTypeIndex());
  CHECK(Object::TypeIndex2Key(base) == "cxx_api_test.Base");
}

TEST_CASE("object: make_object fills the header; the last reference destroys once",
          "[object]") {
  REQUIRE(g_alive == 0);
  {
    ObjectPtr<BaseNode> p = make_object<BaseNode>(41);
    CHECK(g_alive == 1);
    TVMFFIObject* header = detail::ObjectUnsafe::GetHeader(p.get());
    CHECK(header->type_index == BaseNode::RuntimeTypeIndex());
    CHECK(header->zero_padding == 0);
    CHECK(header->deleter != nullptr);
    CHECK(Count(p.get()) == detail::kCombinedRefCountBothOne);
    CHECK(p.unique());
    CHECK(p->GetTypeKey() == "cxx_api_test.Base");
    {
      ObjectPtr<Object> q = p;
      CHECK(p.use_count() == 2);
      CHECK_FALSE(p.unique());
      ObjectPtr<Object> r = std::move(q);
      CHECK(q == nullptr);
      CHECK(p.use_count() == 2);
    }
    CHECK(p.use_count() == 1);
    p->value += 1;
    CHECK(p->value == 42);
  }
  CHECK(g_alive == 0);
}

TEST_CASE("object: weak pointers lock while alive and expire after", "[object]") {
  WeakObjectPtr<BaseNode> weak;
  {
    ObjectPtr<BaseNode> strong = make_object<BaseNode>(5);
    weak = strong;
    CHECK_FALSE(weak.expired());
    CHECK(weak.use_count() == 1);
    CHECK(Count(strong.get()) == (detail::kCombinedRefCountWeakOne * 2 + 1));
    ObjectPtr<BaseNode> locked = weak.lock();
    REQUIRE(locked != nullptr);
    CHECK(locked.get() == strong.get());
    CHECK(strong.use_count() == 2);
  }
  // The object is destroyed, its memory kept for the weak pointer.
  CHECK(g_alive == 0);
  CHECK(weak.expired());
  CHECK(weak.lock() == nullptr);
  weak.reset();  // frees the memory (ASan reports a leak otherwise)
  CHECK(weak.use_count() == 0);
}

TEST_CASE("object: IsInstance follows the hierarchy", "[object]") {
  ObjectPtr<Object> grand = make_object<GrandChildNode>(1);
  ObjectPtr<Object> child = make_object<ChildNode>(2);
  ObjectPtr<Object> other = make_object<OtherNode>();
  CHECK(grand->IsInstance<Object>());
  CHECK(grand->IsInstance<BaseNode>());
  CHECK(grand->IsInstance<ChildNode>());
  CHECK(grand->IsInstance<GrandChildNode>());
  CHECK(child->IsInstance<BaseNode>());
  CHECK_FALSE(child->IsInstance<GrandChildNode>());
  CHECK_FALSE(other->IsInstance<BaseNode>());
  CHECK_FALSE(other->IsInstance<ChildNode>());
  CHECK(detail::RuntimeTypeIndexMatch(grand->type_index(), BaseNode::RuntimeTypeIndex()));
  CHECK_FALSE(detail::RuntimeTypeIndexMatch(other->type_index(), BaseNode::RuntimeTypeIndex()));
  CHECK(detail::RuntimeTypeIndexMatch(kTVMFFISmallStr, kTVMFFIStr));
  CHECK(detail::RuntimeTypeIndexMatch(kTVMFFIInt, kTVMFFIAny));
  CHECK_FALSE(detail::RuntimeTypeIndexMatch(kTVMFFIInt, kTVMFFIFloat));
}

TEST_CASE("object: ObjectRef identity, as<> and nullability", "[object]") {
  Base a(3);
  Base b = a;
  Base c(3);
  CHECK(a.same_as(b));
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a.use_count() == 2);
  CHECK(a->value == 3);
  CHECK(a.as<BaseNode>() == a.get());
  CHECK(a.as<ChildNode>() == nullptr);
  CHECK(a.type_index() == BaseNode::RuntimeTypeIndex());

  CHECK_FALSE(a.as<Child>().has_value());
  ObjectRef as_object = a;
  std::optional<Base> back = as_object.as<Base>();
  REQUIRE(back.has_value());
  CHECK(back->same_as(a));
  CHECK(a.use_count() == 4);

  Base empty;
  CHECK_FALSE(empty.defined());
  CHECK(empty.type_index() == kTVMFFINone);
  CHECK(empty.GetTypeKey() == "None");
  // An empty reference converts to a nullable type, not to a non-nullable one.
  ObjectRef empty_ref;
  CHECK(empty_ref.as<Base>().has_value());
  CHECK_FALSE(empty_ref.as<NotNullBase>().has_value());

  // Moving out of a reference with as<>() &&.
  ObjectRef moved_from = a;
  std::optional<Base> moved = std::move(moved_from).as<Base>();
  CHECK_FALSE(moved_from.defined());
  CHECK(moved->same_as(a));

  std::unordered_set<ObjectRef, ObjectPtrHash, ObjectPtrEqual> set{a, b, c};
  CHECK(set.size() == 2);
}

TEST_CASE("object: Arc, aligned and in-place array objects", "[object]") {
  Arc<BaseNode> arc = make_arc<BaseNode>(9);
  Arc<BaseNode> copy = arc;
  CHECK(arc.use_count() == 2);
  CHECK(copy->value == 9);

  ObjectPtr<WideNode> wide = make_object<WideNode>();
  CHECK(reinterpret_cast<uintptr_t>(wide.get()) % 64 == 0);

  ObjectPtr<TailNode> tail = make_inplace_array_object<TailNode, int64_t>(5, 5);
  CHECK(tail->size == 5);
  CHECK(tail->data()[4] == 16);
}

TEST_CASE("object: a constructor that throws frees the memory", "[object]") {
  CHECK_THROWS_WITH(make_object<Throws>(), "no");  // ASan would report the leak
}

TEST_CASE("object: objects made inline and by the runtime share one count", "[object]") {
  // Inline object released by the runtime's TVMFFIObjectDecRef.
  ObjectPtr<BaseNode> p = make_object<BaseNode>(1);
  TVMFFIObject* header = detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(p));
  REQUIRE(TVMFFIObjectIncRef(header) == 0);
  CHECK(Count(reinterpret_cast<Object*>(header)) == detail::kCombinedRefCountWeakOne + 2);
  REQUIRE(TVMFFIObjectDecRef(header) == 0);
  REQUIRE(TVMFFIObjectDecRef(header) == 0);
  CHECK(g_alive == 0);

  // A runtime object (a long string) held and released inline.
  std::string text(100, 'x');
  TVMFFIByteArray bytes{text.data(), text.size()};
  TVMFFIAny out;
  REQUIRE(TVMFFIStringFromByteArray(&bytes, &out) == 0);
  REQUIRE(out.type_index == kTVMFFIStr);
  ObjectPtr<Object> str = detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(out.v_obj);
  CHECK(str->GetTypeKey() == "ffi.String");
  WeakObjectPtr<Object> weak = str;
  ObjectPtr<Object> again = str;
  CHECK(str.use_count() == 2);
  again.reset();
  str.reset();
  CHECK(weak.expired());
}

TEST_CASE("object: TypeTraits of references and pointers", "[object]") {
  Base a(7);
  TVMFFIAny view;
  TypeTraits<Base>::CopyToAnyView(a, &view);
  CHECK(view.type_index == BaseNode::RuntimeTypeIndex());
  CHECK(view.zero_padding == 0);
  CHECK(a.use_count() == 1);  // a view takes no reference
  CHECK(TypeTraits<Base>::CheckAnyStrict(&view));
  CHECK_FALSE(TypeTraits<Child>::CheckAnyStrict(&view));
  CHECK(TypeTraits<Child>::TryCastFromAnyView(&view) == std::nullopt);
  CHECK(TypeTraits<BaseNode*>::TryCastFromAnyView(&view).value() == a.get());
  CHECK(TypeTraits<ObjectPtr<Object>>::CopyFromAnyViewAfterCheck(&view).use_count() == 2);

  TVMFFIAny owned;
  TypeTraits<Base>::MoveToAny(a, &owned);  // a copy moved in: one new reference
  CHECK(a.use_count() == 2);
  Base back = TypeTraits<Base>::MoveFromAnyAfterCheck(&owned);
  CHECK(owned.type_index == kTVMFFINone);
  CHECK(back.same_as(a));
  CHECK(a.use_count() == 2);

  TVMFFIAny none;
  TypeTraits<Base>::CopyToAnyView(Base(), &none);
  CHECK(none.type_index == kTVMFFINone);
  CHECK(TypeTraits<Base>::CheckAnyStrict(&none));
  CHECK_FALSE(TypeTraits<NotNullBase>::CheckAnyStrict(&none));
  CHECK_FALSE(TypeTraits<Arc<BaseNode>>::CheckAnyStrict(&none));
  CHECK(TypeTraits<ObjectPtr<BaseNode>>::TypeSchema() ==
        R"({"type":"Optional","args":[{"type":"cxx_api_test.Base"}]})");
  CHECK(TypeTraits<Base>::TypeStr() == "cxx_api_test.Base");
  CHECK(TypeToRuntimeTypeIndex<Child>::v() == ChildNode::RuntimeTypeIndex());
}

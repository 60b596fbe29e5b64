// Type registry: indices (§8.1), keys, namespaces, fields, methods, attributes.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

int32_t Alloc(const char* key, int32_t static_index, int32_t depth, int32_t slots,
              int32_t overflow, int32_t parent) {
  TVMFFIByteArray k = ByteArrayOf(key);
  return TVMFFITypeGetOrAllocIndex(&k, static_index, depth, slots, overflow, parent);
}

// A dynamic child of `parent` (0 child slots, overflow allowed).
int32_t AllocChild(const char* key, int32_t parent) {
  const TVMFFITypeInfo* p = TVMFFIGetTypeInfo(parent);
  REQUIRE(p != nullptr);
  return Alloc(key, -1, p->type_depth + 1, 0, 1, parent);
}

const TVMFFITypeInfo* Info(int32_t index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  REQUIRE(info != nullptr);
  return info;
}

// Whether type_index is target or one of its descendants, read from the
// registry's ancestor chains (tvm::ffi's IsInstance takes a static type).
bool IsInstance(int32_t type_index, int32_t target) {
  if (type_index == target || target == kTVMFFIObject) return true;
  if (type_index < target) return false;  // children always get larger indices
  const TVMFFITypeInfo* target_info = TVMFFIGetTypeInfo(target);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (target_info == nullptr || info == nullptr) return false;
  if (info->type_depth <= target_info->type_depth) return false;
  return info->type_ancestors[target_info->type_depth]->type_index == target;
}

TVMFFIByteArray ToByteArray(const std::string& s) { return TVMFFIByteArray{s.data(), s.size()}; }

int32_t Key(const char* key) {
  TVMFFIByteArray k = ByteArrayOf(key);
  int32_t index = -100;
  REQUIRE(TVMFFITypeKeyToIndex(&k, &index) == 0);
  return index;
}

}  // namespace

TEST_CASE("TypeRegistry: value types 0..13 are depth-0 roots with their keys", "[type_registry]") {
  const char* keys[] = {"None",        "int",           "bool",      "float",
                        "void*",       "DataType",      "Device",    "DLTensor*",
                        "const char*", "TVMFFIByteArray*", "ObjectRValueRef", "ffi.SmallStr",
                        "ffi.SmallBytes", "ffi.Unchanged"};
  for (int32_t i = 0; i <= kTVMFFIUnchanged; ++i) {
    const TVMFFITypeInfo* info = Info(i);
    CHECK(info->type_index == i);
    CHECK(info->type_depth == 0);
    CHECK(TextOf(info->type_key) == keys[i]);
    CHECK(info->type_key_hash == std::hash<std::string>()(keys[i]));
    CHECK(Key(keys[i]) == i);
  }
}

TEST_CASE("TypeRegistry: ffi.Object and the static object types", "[type_registry]") {
  const TVMFFITypeInfo* object = Info(kTVMFFIObject);
  CHECK(TextOf(object->type_key) == "ffi.Object");
  CHECK(object->type_depth == 0);
  REQUIRE(object->metadata != nullptr);
  CHECK(object->metadata->total_size == 24);
  CHECK(object->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUnsupported);
  CHECK(object->metadata->creator == nullptr);

  const char* keys[] = {"ffi.String", "ffi.Bytes",  "ffi.Error", "ffi.Function", "ffi.Shape",
                        "ffi.Tensor", "ffi.Array",  "ffi.Map",   "ffi.Module",
                        "ffi.OpaquePyObject", "ffi.List", "ffi.Dict", "ffi.VisitInterrupt",
                        "ffi.BigInt"};
  for (int32_t i = kTVMFFIStr; i <= kTVMFFIBigInt; ++i) {
    const TVMFFITypeInfo* info = Info(i);
    CHECK(TextOf(info->type_key) == keys[i - kTVMFFIStr]);
    CHECK(info->type_depth == 1);
    CHECK(info->type_ancestors[0] == object);
    CHECK(Key(keys[i - kTVMFFIStr]) == i);
  }
}

TEST_CASE("TypeRegistry: start-up attribute columns exist and start at 0", "[type_registry]") {
  for (const char* name : {"__any_hash__", "__any_equal__", "__ffi_enum__"}) {
    TVMFFIByteArray n = ByteArrayOf(name);
    const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&n);
    REQUIRE(column != nullptr);
    CHECK(column->begin_index == 0);
  }
}

TEST_CASE("TypeRegistry: children of the static object types are refused", "[type_registry]") {
  CHECK(Alloc("regtest.MyString", -1, 2, 0, 1, kTVMFFIStr) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: cannot register type `regtest.MyString`: parent `ffi.String` has no "
        "child slots left and does not allow overflow");
}

TEST_CASE("TypeRegistry: KeyToIndex of an unknown key is a KeyError", "[type_registry]") {
  TVMFFIByteArray k = ByteArrayOf("regtest.Missing");
  int32_t index = 5;
  CHECK(TVMFFITypeKeyToIndex(&k, &index) == -1);
  CHECK(index == 5);
  CHECK(TakeRaised() == "KeyError: type key `regtest.Missing` is not registered");
  CHECK(TVMFFITypeKeyToIndex(nullptr, &index) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFITypeKeyToIndex: type_key must not be NULL");
}

TEST_CASE("TypeRegistry: GetTypeInfo of an unknown index is NULL with a ValueError",
          "[type_registry]") {
  CHECK(TVMFFIGetTypeInfo(999) == nullptr);
  CHECK(TakeRaised() == "ValueError: unknown type index 999");
  CHECK(TVMFFIGetTypeInfo(-3) == nullptr);
  CHECK(TakeRaised() == "ValueError: unknown type index -3");
  CHECK(TVMFFIGetTypeInfo(1 << 30) == nullptr);
  CHECK(TakeRaised() == "ValueError: unknown type index 1073741824");
}

TEST_CASE("TypeRegistry: dynamic types get consecutive indices from 128 on", "[type_registry]") {
  int32_t a = Alloc("regtest.DynA", -1, 1, 0, 1, kTVMFFIObject);
  int32_t b = Alloc("regtest.DynB", -1, 1, 0, 1, kTVMFFIObject);
  REQUIRE(a >= 128);
  CHECK(b == a + 1);
  // A registered key returns its index whatever the other arguments say.
  CHECK(Alloc("regtest.DynA", 5, 9, 3, 0, 12345) == a);
  CHECK(Key("regtest.DynA") == a);
  const TVMFFITypeInfo* info = Info(a);
  CHECK(info->type_index == a);
  CHECK(info->type_depth == 1);
  CHECK(TextOf(info->type_key) == "regtest.DynA");
  CHECK(info->type_key_hash == std::hash<std::string>()("regtest.DynA"));
  CHECK(info->type_ancestors[0] == Info(kTVMFFIObject));
  CHECK(info->num_fields == 0);
  CHECK(info->num_methods == 0);
  CHECK(info->metadata == nullptr);
  // A root allocated dynamically also lands in the dynamic range.
  int32_t root = Alloc("regtest.DynRoot", -1, 0, 0, 1, -1);
  CHECK(root == b + 1);
  CHECK(Info(root)->type_depth == 0);
}

TEST_CASE("TypeRegistry: reserved child slots are handed out before overflowing",
          "[type_registry]") {
  int32_t p = Alloc("regtest.SlotParent", -1, 1, 3, 1, kTVMFFIObject);
  REQUIRE(p >= 128);
  // The parent's range [p, p + 3] is reserved: the next dynamic type is after it.
  CHECK(Alloc("regtest.SlotOther", -1, 1, 0, 1, kTVMFFIObject) == p + 4);
  CHECK(Alloc("regtest.SlotC1", -1, 2, 0, 1, p) == p + 1);
  int32_t c2 = Alloc("regtest.SlotC2", -1, 2, 1, 1, p);  // takes 2 slots
  CHECK(c2 == p + 2);
  int32_t c2a = Alloc("regtest.SlotC2a", -1, 3, 0, 1, c2);
  CHECK(c2a == p + 3);
  // No slots left: the next child overflows to the global counter.
  CHECK(Alloc("regtest.SlotC3", -1, 2, 0, 1, p) == p + 5);

  const TVMFFITypeInfo* info = Info(c2a);
  REQUIRE(info->type_depth == 3);
  CHECK(info->type_ancestors[0] == Info(kTVMFFIObject));
  CHECK(info->type_ancestors[1] == Info(p));
  CHECK(info->type_ancestors[2] == Info(c2));

  CHECK(IsInstance(c2a, p));
  CHECK(IsInstance(c2a, c2));
  CHECK(IsInstance(c2a, kTVMFFIObject));
  CHECK_FALSE(IsInstance(c2a, p + 1));
  CHECK_FALSE(IsInstance(p, c2a));
  CHECK(IsInstance(p + 5, p));
}

TEST_CASE("TypeRegistry: cannot-overflow is inherited and enforced", "[type_registry]") {
  int32_t p = Alloc("regtest.Closed", -1, 1, 1, 0, kTVMFFIObject);
  REQUIRE(p >= 128);
  // The child asks for overflow but inherits "cannot overflow".
  int32_t c = Alloc("regtest.ClosedChild", -1, 2, 0, 1, p);
  CHECK(c == p + 1);
  CHECK(Alloc("regtest.ClosedChild2", -1, 2, 0, 1, p) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: cannot register type `regtest.ClosedChild2`: parent `regtest.Closed` has "
        "no child slots left and does not allow overflow");
  CHECK(Alloc("regtest.ClosedGrandChild", -1, 3, 0, 1, c) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: cannot register type `regtest.ClosedGrandChild`: parent "
        "`regtest.ClosedChild` has no child slots left and does not allow overflow");
}

TEST_CASE("TypeRegistry: query mode returns -2 for unknown keys without an error",
          "[type_registry]") {
  CHECK(Alloc("regtest.NeverRegistered", -1, 0, 0, 0, -2) == -2);
  CHECK(TakeRaised() == "");
  CHECK(Alloc("regtest.NeverRegistered", -1, 0, 0, 0, -2) == -2);
  CHECK(Alloc("ffi.Array", -1, 0, 0, 0, -2) == kTVMFFIArray);
  TVMFFIByteArray k = ByteArrayOf("regtest.NeverRegistered");
  int32_t index;
  CHECK(TVMFFITypeKeyToIndex(&k, &index) == -1);
  TakeRaised();
}

TEST_CASE("TypeRegistry: depth and parent are checked", "[type_registry]") {
  CHECK(Alloc("regtest.BadDepth", -1, 2, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: type `regtest.BadDepth` has depth 2 but its parent `ffi.Object` has depth "
        "0; expected 1");
  CHECK(Alloc("regtest.BadRoot", -1, 1, 0, 1, -1) == -1);
  CHECK(TakeRaised() ==
        "ValueError: type `regtest.BadRoot` has no parent, so its depth must be 0, got 1");
  CHECK(Alloc("regtest.Orphan", -1, 1, 0, 1, 999) == -1);
  CHECK(TakeRaised() ==
        "ValueError: parent type index 999 of type `regtest.Orphan` is not registered");
  CHECK(Alloc("regtest.BadSlots", -1, 1, -1, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() == "ValueError: invalid num_child_slots -1 for type `regtest.BadSlots`");
  CHECK(Alloc("regtest.BadStatic", -7, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: invalid static type index -7 for type `regtest.BadStatic`; use -1 to "
        "allocate one");
  // None of the refused keys was registered.
  for (const char* key : {"regtest.BadDepth", "regtest.BadRoot", "regtest.Orphan",
                          "regtest.BadSlots", "regtest.BadStatic"}) {
    CHECK(Alloc(key, -1, 0, 0, 0, -2) == -2);
  }
}

TEST_CASE("TypeRegistry: static indices", "[type_registry]") {
  CHECK(Alloc("regtest.Static100", 100, 1, 2, 0, kTVMFFIObject) == 100);
  CHECK(TextOf(Info(100)->type_key) == "regtest.Static100");
  // Its reserved slots follow it.
  CHECK(Alloc("regtest.Static100Child", -1, 2, 0, 0, 100) == 101);

  CHECK(Alloc("regtest.Taken", kTVMFFITensor, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: cannot register type `regtest.Taken`: type index 70 is already taken "
        "by `ffi.Tensor`");
  CHECK(Alloc("regtest.TooBig", 128, 1, 0, 0, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: static type index 128 of type `regtest.TooBig` is out of the static "
        "range [0, 128)");
  CHECK(Alloc("regtest.BelowParent", 90, 2, 0, 0, 100) == -1);
  CHECK(TakeRaised() ==
        "ValueError: static type index 90 of type `regtest.BelowParent` must be greater than "
        "its parent's index 100");
  // The value-type range takes un-dotted keys (like "int").
  CHECK(Alloc("regtestpod", 40, 0, 0, 0, -1) == 40);
}

TEST_CASE("TypeRegistry: object type keys need a namespace", "[type_registry]") {
  CHECK(Alloc("Foo", -1, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: type key `Foo` has no namespace; use a dotted key such as `mylib.Foo`");
  CHECK(Alloc(".Foo", -1, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: type key `.Foo` has an empty namespace; use a dotted key such as "
        "`mylib.Foo`");
  CHECK(Alloc("mylib.", -1, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: type key `mylib.` has an empty name; use a dotted key such as "
        "`mylib.Foo`");
  // Static object indices follow the same rule.
  CHECK(Alloc("Bar", 110, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() ==
        "ValueError: type key `Bar` has no namespace; use a dotted key such as `mylib.Bar`");
  CHECK(Alloc("", -1, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() == "ValueError: type key must not be empty");
  CHECK(TVMFFITypeGetOrAllocIndex(nullptr, -1, 1, 0, 1, kTVMFFIObject) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFITypeGetOrAllocIndex: type_key must not be NULL");
}

TEST_CASE("TypeRegistry: fields are copied and their values retained", "[type_registry]") {
  int32_t t = AllocChild("regtest.Fields", kTVMFFIObject);
  REQUIRE(t >= 128);
  std::string name = "alpha", doc = "the first", meta = "{\"k\": 1}";
  // A heap string default (longer than 7 bytes) and a Function setter.
  TVMFFIAny default_value;
  std::string long_text = "a default longer than seven";
  TypeTraits<String>::MoveToAny(String(long_text), &default_value);
  Object* default_obj = ObjectOf(default_value.v_obj);
  Function setter = Function::FromTyped([](int64_t) {});

  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = ToByteArray(name);
  info.doc = ToByteArray(doc);
  info.metadata = ToByteArray(meta);
  info.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
               kTVMFFIFieldFlagBitSetterIsFunctionObj;
  info.size = 8;
  info.alignment = 8;
  info.offset = 24;
  info.setter = HandleOf(setter);
  info.default_value_or_factory = default_value;
  info.field_static_type_index = kTVMFFIStr;
  REQUIRE(TVMFFITypeRegisterField(t, &info) == 0);
  CHECK(default_obj->use_count() == 2);
  CHECK(setter.use_count() == 2);
  // The registry copied the texts: scribbling over the caller's buffers changes nothing.
  name.assign(name.size(), '#');
  doc.assign(doc.size(), '#');

  // A field without HasDefault stores None whatever the caller passed.
  TVMFFIFieldInfo plain = info;
  plain.name = ByteArrayOf("beta");
  plain.doc = ByteArrayOf("");
  plain.metadata = ByteArrayOf("");
  plain.flags = 0;
  plain.setter = nullptr;
  REQUIRE(TVMFFITypeRegisterField(t, &plain) == 0);
  CHECK(default_obj->use_count() == 2);

  const TVMFFITypeInfo* ti = Info(t);
  REQUIRE(ti->num_fields == 2);
  const TVMFFIFieldInfo& f0 = ti->fields[0];
  CHECK(TextOf(f0.name) == "alpha");
  CHECK(TextOf(f0.doc) == "the first");
  CHECK(TextOf(f0.metadata) == "{\"k\": 1}");
  CHECK(f0.flags == info.flags);
  CHECK(f0.offset == 24);
  CHECK(f0.setter == HandleOf(setter));
  CHECK(f0.default_value_or_factory.type_index == kTVMFFIStr);
  CHECK(f0.default_value_or_factory.v_obj == default_value.v_obj);
  CHECK(f0.field_static_type_index == kTVMFFIStr);
  const TVMFFIFieldInfo& f1 = ti->fields[1];
  CHECK(TextOf(f1.name) == "beta");
  CHECK(f1.doc.data == nullptr);
  CHECK(f1.doc.size == 0);
  CHECK(f1.metadata.data == nullptr);
  CHECK(f1.default_value_or_factory.type_index == kTVMFFINone);
  CHECK(f1.default_value_or_factory.v_int64 == 0);

  // Duplicate name on the same type.
  TVMFFIFieldInfo dup = plain;
  dup.name = ByteArrayOf("alpha");
  CHECK(TVMFFITypeRegisterField(t, &dup) == -1);
  CHECK(TakeRaised() == "InternalError: type `regtest.Fields` already has a field `alpha`");
  CHECK(Info(t)->num_fields == 2);
  // Re-declaring an ancestor's field is allowed.
  int32_t child = AllocChild("regtest.FieldsChild", t);
  CHECK(TVMFFITypeRegisterField(child, &dup) == 0);

  CHECK(TVMFFITypeRegisterField(999, &plain) == -1);
  CHECK(TakeRaised() == "ValueError: unknown type index 999");
  CHECK(TVMFFITypeRegisterField(t, nullptr) == -1);
  CHECK(TakeRaised() == "ValueError: TVMFFITypeRegisterField: info must not be NULL");

  // Many more fields: the array may move, earlier entries stay intact.
  for (int i = 0; i < 40; ++i) {
    std::string n = "f" + std::to_string(i);
    TVMFFIFieldInfo more = plain;
    more.name = ToByteArray(n);
    REQUIRE(TVMFFITypeRegisterField(t, &more) == 0);
  }
  REQUIRE(Info(t)->num_fields == 42);
  CHECK(TextOf(Info(t)->fields[0].name) == "alpha");
  CHECK(TextOf(Info(t)->fields[41].name) == "f39");
  TVMFFIObjectDecRef(default_value.v_obj);
  CHECK(default_obj->use_count() == 1);  // the registry keeps its reference
}

TEST_CASE("TypeRegistry: methods are copied and retained", "[type_registry]") {
  int32_t t = AllocChild("regtest.Methods", kTVMFFIObject);
  Function fn = Function::FromTyped([](int64_t x) { return x * 2; });
  std::string name = "double_it";
  TVMFFIMethodInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = ToByteArray(name);
  info.doc = ByteArrayOf("doubles");
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = static_cast<TVMFFIObject*>(HandleOf(fn));
  REQUIRE(TVMFFITypeRegisterMethod(t, &info) == 0);
  CHECK(fn.use_count() == 2);
  name.assign(name.size(), '#');  // copied by the registry
  const TVMFFITypeInfo* ti = Info(t);
  REQUIRE(ti->num_methods == 1);
  CHECK(TextOf(ti->methods[0].name) == "double_it");
  CHECK(TextOf(ti->methods[0].doc) == "doubles");
  CHECK(ti->methods[0].flags == kTVMFFIFieldFlagBitMaskIsStaticMethod);
  CHECK(ti->methods[0].method.v_obj == HandleOf(fn));

  TVMFFIMethodInfo bad = info;
  bad.name = ByteArrayOf("not_a_function");
  bad.method.type_index = kTVMFFIInt;
  bad.method.v_int64 = 3;
  CHECK(TVMFFITypeRegisterMethod(t, &bad) == -1);
  CHECK(TakeRaised() == "TypeError: method `not_a_function` must be a Function, got int");
  CHECK(Info(t)->num_methods == 1);
  CHECK(TVMFFITypeRegisterMethod(999, &info) == -1);
  CHECK(TakeRaised() == "ValueError: unknown type index 999");
}

TEST_CASE("TypeRegistry: metadata is set once", "[type_registry]") {
  int32_t t = AllocChild("regtest.Meta", kTVMFFIObject);
  std::string doc = "documented";
  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  meta.doc = ToByteArray(doc);
  meta.total_size = 40;
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  REQUIRE(TVMFFITypeRegisterMetadata(t, &meta) == 0);
  doc.assign(doc.size(), '#');  // copied by the registry
  const TVMFFITypeMetadata* m = Info(t)->metadata;
  REQUIRE(m != nullptr);
  CHECK(TextOf(m->doc) == "documented");
  CHECK(m->total_size == 40);
  CHECK(m->structural_eq_hash_kind == kTVMFFISEqHashKindTreeNode);
  CHECK(TVMFFITypeRegisterMetadata(t, &meta) == -1);
  CHECK(TakeRaised() == "RuntimeError: metadata of type `regtest.Meta` is already registered");
  CHECK(TVMFFITypeRegisterMetadata(kTVMFFIObject, &meta) == -1);
  CHECK(TakeRaised() == "RuntimeError: metadata of type `ffi.Object` is already registered");
}

TEST_CASE("TypeRegistry: type attributes", "[type_registry]") {
  int32_t t = AllocChild("regtest.Attr", kTVMFFIObject);
  TVMFFIByteArray name = ByteArrayOf("__regtest_attr__");
  CHECK(TVMFFIGetTypeAttrColumn(&name) == nullptr);
  CHECK(TakeRaised() == "");

  Function value = Function::FromTyped([]() { return 1; });
  AnyView view(value);
  REQUIRE(TVMFFITypeRegisterAttr(t, &name, RawOf(view)) == 0);
  CHECK(value.use_count() == 2);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  REQUIRE(column != nullptr);
  CHECK(column->begin_index == 0);
  REQUIRE(column->size == t + 1);
  CHECK(column->data[t].type_index == kTVMFFIFunction);
  CHECK(column->data[t].v_obj == HandleOf(value));
  for (int32_t i = 0; i < t; ++i) CHECK(column->data[i].type_index == kTVMFFINone);

  // A second non-None value is refused and leaves the first in place.
  AnyView seven(int64_t(7));
  CHECK(TVMFFITypeRegisterAttr(t, &name, RawOf(seven)) == -1);
  CHECK(TakeRaised() ==
        "RuntimeError: type attribute `__regtest_attr__` is already registered for type "
        "`regtest.Attr`");
  CHECK(column->data[t].v_obj == HandleOf(value));

  // A later type grows the column; its address stays the same.
  int32_t t2 = AllocChild("regtest.Attr2", kTVMFFIObject);
  AnyView text("a raw string");
  REQUIRE(TVMFFITypeRegisterAttr(t2, &name, RawOf(text)) == 0);
  CHECK(TVMFFIGetTypeAttrColumn(&name) == column);
  REQUIRE(column->size == t2 + 1);
  CHECK(column->data[t].v_obj == HandleOf(value));
  // Raw strings are stored as owned String objects.
  CHECK(column->data[t2].type_index == kTVMFFIStr);
  CHECK(AnyView::CopyFromTVMFFIAny(column->data[t2]).cast<std::string>() == "a raw string");

  // None replaces the value and releases it; then a new value may be set.
  AnyView none;
  REQUIRE(TVMFFITypeRegisterAttr(t, &name, RawOf(none)) == 0);
  CHECK(column->data[t].type_index == kTVMFFINone);
  CHECK(value.use_count() == 1);
  REQUIRE(TVMFFITypeRegisterAttr(t, &name, RawOf(seven)) == 0);
  CHECK(column->data[t].v_int64 == 7);

  // Type index 0 only creates the column.
  TVMFFIByteArray empty_name = ByteArrayOf("__regtest_empty__");
  REQUIRE(TVMFFITypeRegisterAttr(kTVMFFINone, &empty_name, RawOf(seven)) == 0);
  const TVMFFITypeAttrColumn* empty = TVMFFIGetTypeAttrColumn(&empty_name);
  REQUIRE(empty != nullptr);
  CHECK(empty->size == 0);

  CHECK(TVMFFITypeRegisterAttr(999, &name, RawOf(seven)) == -1);
  CHECK(TakeRaised() == "ValueError: unknown type index 999");
  CHECK(TVMFFIGetTypeAttrColumn(nullptr) == nullptr);
  CHECK(TakeRaised() == "ValueError: TVMFFIGetTypeAttrColumn: attr_name must not be NULL");
}

TEST_CASE("TypeRegistry: lookups run while another thread registers", "[type_registry]") {
  constexpr int kCount = 300;
  std::vector<int32_t> indices(kCount, -1);
  std::atomic<int> published{0};
  std::atomic<bool> ok{true};
  std::thread reader([&] {
    int seen = 0;
    while (seen < kCount) {
      int n = published.load(std::memory_order_acquire);
      for (int i = seen; i < n; ++i) {
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(indices[i]);
        if (info == nullptr || info->type_index != indices[i] ||
            TextOf(info->type_key) != "regtest.Thread" + std::to_string(i)) {
          ok = false;
        }
      }
      seen = n;
    }
  });
  for (int i = 0; i < kCount; ++i) {
    std::string key = "regtest.Thread" + std::to_string(i);
    indices[i] = Alloc(key.c_str(), -1, 1, 0, 1, kTVMFFIObject);
    published.store(i + 1, std::memory_order_release);
  }
  reader.join();
  CHECK(ok);
  for (int i = 1; i < kCount; ++i) CHECK(indices[i] == indices[i - 1] + 1);
}

// Code built against upstream's headers reads the "__ffi_type_final__"
// column as a bool; the library's own types publish upstream's values
// (before, ffi.Module's entry was None: "Cannot convert from type `None` to
// `bool`").
TEST_CASE("Type registry: the library's types publish __ffi_type_final__", "[type_registry]") {
  TVMFFIByteArray column_name = {"__ffi_type_final__", 18};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&column_name);
  REQUIRE(col != nullptr);
  auto final_of = [&](const char* key) {
    TVMFFIByteArray k = {key, std::strlen(key)};
    int32_t index = -1;
    REQUIRE(TVMFFITypeKeyToIndex(&k, &index) == 0);
    int32_t off = index - col->begin_index;
    REQUIRE((off >= 0 && off < col->size));
    REQUIRE(col->data[off].type_index == kTVMFFIBool);
    return col->data[off].v_int64 != 0;
  };
  for (const char* key : {"ffi.Module", "ffi.BigInt", "ffi.VisitInterrupt", "ffi.EnumState",
                          "ffi.reflection.AccessStep", "ffi.reflection.AccessPath",
                          "ffi.VisitErrorContext", "ffi.StructuralKey"}) {
    INFO(key);
    CHECK(final_of(key));
  }
  for (const char* key : {"ffi.Enum", "ffi.IntEnum", "ffi.StrEnum", "ffi.StructuralVisitor",
                          "ffi.StructuralMutator"}) {
    INFO(key);
    CHECK_FALSE(final_of(key));
  }
}

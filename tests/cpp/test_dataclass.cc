// ffi.DataclassDefine: object types defined at run time (layout, typed
// setters, defaults, deletion, a C++ parent, copies and serialization).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

constexpr int64_t kWritable = kTVMFFIFieldFlagBitMaskWritable;
constexpr int64_t kHasDefault = kTVMFFIFieldFlagBitMaskHasDefault;
constexpr int64_t kFactory = kTVMFFIFieldFlagBitMaskDefaultFromFactory;
constexpr int64_t kKwOnly = kTVMFFIFieldFlagBitMaskKwOnly;
constexpr int64_t kFnSetter = kTVMFFIFieldFlagBitSetterIsFunctionObj;

int32_t Alloc(const std::string& key, int32_t parent = kTVMFFIObject) {
  TVMFFIByteArray k = ByteArrayOf(key.c_str());
  const TVMFFITypeInfo* pinfo = TVMFFIGetTypeInfo(parent);
  REQUIRE(pinfo != nullptr);
  int32_t index = TVMFFITypeGetOrAllocIndex(&k, -1, pinfo->type_depth + 1, 0, 1, parent);
  REQUIRE(index >= kTVMFFIDynObjectBegin);
  return index;
}

// One entry of DataclassDefine's `fields`.
Array<Any> FieldEntry(const std::string& name, int64_t static_index, bool nullable = false,
                      int64_t flags = 0, Any default_value = Any(), Any check = Any()) {
  return Array<Any>{Any(String(name)), Any(static_index), Any(nullable), Any(flags),
                    Any(String("doc of " + name)), default_value, check};
}

void Define(int32_t index, const std::vector<Array<Any>>& fields, int64_t kind = 0) {
  Array<Any> all;
  for (const Array<Any>& f : fields) all.push_back(Any(f));
  Call("ffi.DataclassDefine", static_cast<int64_t>(index), all, kind);
}

// The fields of `info`'s type, ancestors' first, as the registry publishes
// them (the count first, then the array, read with acquire order).
std::vector<const TVMFFIFieldInfo*> AllFields(const TVMFFITypeInfo* info) {
  std::vector<const TVMFFIFieldInfo*> out;
  auto add = [&out](const TVMFFITypeInfo* t) {
    int32_t n = __atomic_load_n(&t->num_fields, __ATOMIC_ACQUIRE);
    const TVMFFIFieldInfo* fields = __atomic_load_n(&t->fields, __ATOMIC_ACQUIRE);
    for (int32_t i = 0; i < n; ++i) out.push_back(&fields[i]);
  };
  for (int32_t d = 0; d < info->type_depth; ++d) add(info->type_ancestors[d]);
  add(info);
  return out;
}

void CheckRc(int rc) {
  if (rc != 0) throw tvm::ffi::details::MoveFromSafeCallRaised();
}

// Assigns through the field's setter (a C function or a Function object).
void AssignField(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f, const TVMFFIAny& value) {
  void* address = static_cast<char*>(obj) + f->offset;
  if (f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    Function setter = RefOf<Function>(BorrowHandle(f->setter));
    setter(address, AnyView::CopyFromTVMFFIAny(value));
  } else if (f->setter != nullptr) {
    CheckRc(reinterpret_cast<TVMFFIFieldSetter>(f->setter)(address, &value));
  } else {
    TVM_FFI_THROW(TypeError) << "field `" << std::string(f->name.data, f->name.size)
                             << "` has no setter";
  }
}

// A new default instance: the metadata's creator, else `__ffi_new__`.
TVMFFIObjectHandle CreateEmptyInstance(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    CheckRc(info->metadata->creator(&handle));
    return handle;
  }
  static const TVMFFIByteArray kName = {"__ffi_new__", 11};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&kName);
  if (col == nullptr) return nullptr;
  int32_t i = info->type_index - col->begin_index;
  if (i < 0 || i >= col->size || col->data[i].type_index != kTVMFFIFunction) return nullptr;
  Any made = RefOf<Function>(BorrowHandle(col->data[i].v_obj))();
  if (made.type_index() != info->type_index) return nullptr;
  return ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(made.cast<ObjectRef>());
}

const TVMFFIFieldInfo* FieldOf(int32_t type_index, const std::string& name) {
  for (const TVMFFIFieldInfo* f : AllFields(TVMFFIGetTypeInfo(type_index))) {
    if (TextOf(f->name) == name) return f;
  }
  FAIL("no field " << name);
  return nullptr;
}

Function InitOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (TextOf(info->methods[i].name) == "__ffi_init__") {
      return AnyView::CopyFromTVMFFIAny(info->methods[i].method).cast<Function>();
    }
  }
  FAIL("no __ffi_init__");
  return Function();
}

Any New(int32_t type_index) {
  TVMFFIObjectHandle h = CreateEmptyInstance(TVMFFIGetTypeInfo(type_index));
  REQUIRE(h != nullptr);
  return Any(RefOf<ObjectRef>(AdoptHandle(h)));
}

Any Get(const Any& obj, const std::string& name) {
  const TVMFFIFieldInfo* f = FieldOf(obj.type_index(), name);
  TVMFFIAny out{};
  REQUIRE(f->getter(static_cast<char*>(HandleOf(obj)) + f->offset, &out) == 0);
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(out);
}

void Set(const Any& obj, const std::string& name, const Any& value) {
  AssignField(HandleOf(obj), FieldOf(obj.type_index(), name), *RawOf(value));
}

std::string SetError(const Any& obj, const std::string& name, const Any& value) {
  return ThrownBy([&] { Set(obj, name, value); });
}

uint32_t UseCount(const ObjectRef& o) { return o.get()->use_count(); }
uint32_t UseCount(const String& s) { return static_cast<uint32_t>(UseCountOf(s)); }

// dctest.Kinds: one field of each storage, laid out in order.
int32_t KindsIndex() {
  static const int32_t index = [] {
    int32_t t = Alloc("dctest.Kinds");
    Define(t, {FieldEntry("i", kTVMFFIInt), FieldEntry("f", kTVMFFIFloat),
               FieldEntry("b", kTVMFFIBool), FieldEntry("s", kTVMFFIStr, /*nullable=*/true),
               FieldEntry("a", kTVMFFIAny), FieldEntry("arr", kTVMFFIArray),
               FieldEntry("by", kTVMFFIBytes)},
           kTVMFFISEqHashKindTreeNode);
    return t;
  }();
  return index;
}

}  // namespace

TEST_CASE("Dataclass: fields are laid out after the header, in order", "[dataclass]") {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(KindsIndex());
  REQUIRE(info->num_fields == 7);
  struct Expect {
    const char* name;
    int64_t offset, size, alignment;
    int32_t static_index;
  } expect[] = {{"i", 24, 8, 8, kTVMFFIInt},    {"f", 32, 8, 8, kTVMFFIFloat},
                {"b", 40, 1, 1, kTVMFFIBool},   {"s", 48, 8, 8, kTVMFFIStr},
                {"a", 56, 16, 8, kTVMFFIAny},   {"arr", 72, 8, 8, kTVMFFIArray},
                {"by", 80, 8, 8, kTVMFFIBytes}};
  for (int i = 0; i < 7; ++i) {
    const TVMFFIFieldInfo& f = info->fields[i];
    CHECK(TextOf(f.name) == expect[i].name);
    CHECK(f.offset == expect[i].offset);
    CHECK(f.size == expect[i].size);
    CHECK(f.alignment == expect[i].alignment);
    CHECK(f.field_static_type_index == expect[i].static_index);
    CHECK(f.flags == (kWritable | kFnSetter));
    CHECK(TextOf(f.doc) == std::string("doc of ") + expect[i].name);
    CHECK(f.getter != nullptr);
  }
  REQUIRE(info->metadata != nullptr);
  CHECK(info->metadata->creator == nullptr);
  CHECK(info->metadata->total_size == 88);
  CHECK(info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindTreeNode);
}

TEST_CASE("Dataclass: __ffi_new__ makes an instance with every field zero", "[dataclass]") {
  Any obj = New(KindsIndex());
  CHECK(obj.type_index() == KindsIndex());
  CHECK(Get(obj, "i").cast<int64_t>() == 0);
  CHECK(Get(obj, "f").cast<double>() == 0.0);
  CHECK(Get(obj, "b").type_index() == kTVMFFIBool);
  CHECK(Get(obj, "b").cast<bool>() == false);
  CHECK((Get(obj, "s") == nullptr));
  CHECK((Get(obj, "a") == nullptr));
  CHECK((Get(obj, "arr") == nullptr));
  CHECK(static_cast<Object*>(HandleOf(obj))->use_count() == 1);
}

TEST_CASE("Dataclass: int, float and bool fields accept and refuse", "[dataclass]") {
  Any obj = New(KindsIndex());
  Set(obj, "i", Any(int64_t(-5)));
  CHECK(Get(obj, "i").cast<int64_t>() == -5);
  Set(obj, "i", Any(true));
  CHECK(Get(obj, "i").type_index() == kTVMFFIInt);
  CHECK(Get(obj, "i").cast<int64_t>() == 1);
  CHECK(SetError(obj, "i", Any(String("abc"))) ==
        "TypeError: field `dctest.Kinds.i` expects int, got str \"abc\"");
  CHECK(SetError(obj, "i", Any(1.5)) ==
        "TypeError: field `dctest.Kinds.i` expects int, got float 1.5");
  CHECK(SetError(obj, "i", Any()) == "TypeError: field `dctest.Kinds.i` expects int, got None");
  CHECK(Get(obj, "i").cast<int64_t>() == 1);  // unchanged by the refusals

  Set(obj, "f", Any(2.25));
  CHECK(Get(obj, "f").cast<double>() == 2.25);
  Set(obj, "f", Any(int64_t(3)));
  CHECK(Get(obj, "f").type_index() == kTVMFFIFloat);
  CHECK(Get(obj, "f").cast<double>() == 3.0);
  Set(obj, "f", Any(true));
  CHECK(Get(obj, "f").cast<double>() == 1.0);
  CHECK(SetError(obj, "f", Any(String("x"))) ==
        "TypeError: field `dctest.Kinds.f` expects float, got str \"x\"");

  Set(obj, "b", Any(true));
  CHECK(Get(obj, "b").cast<bool>() == true);
  CHECK(SetError(obj, "b", Any(int64_t(1))) ==
        "TypeError: field `dctest.Kinds.b` expects bool, got int 1");
  CHECK(SetError(obj, "b", Any(0.5)) ==
        "TypeError: field `dctest.Kinds.b` expects bool, got float 0.5");
}

TEST_CASE("Dataclass: object fields accept their type and subtypes only", "[dataclass]") {
  Any obj = New(KindsIndex());
  // A short string is boxed: the field holds an ffi.String object.
  Set(obj, "s", Any(String("hi")));
  Set(obj, "s", Any("hi"));
  CHECK(Get(obj, "s").type_index() == kTVMFFIStr);
  CHECK(StrOf(Get(obj, "s")) == "hi");
  Set(obj, "s", Any());  // nullable
  CHECK((Get(obj, "s") == nullptr));
  CHECK(SetError(obj, "s", Any(int64_t(3))) ==
        "TypeError: field `dctest.Kinds.s` expects str or None, got int 3");
  CHECK(SetError(obj, "s", Any(Bytes("xy", 2))) ==
        "TypeError: field `dctest.Kinds.s` expects str or None, got bytes");
  // A malformed string view is the string reader's ValueError, also when the
  // setter is called as C++ (it once escaped as another exception class).
  TVMFFIAny null_str;
  std::memset(&null_str, 0, sizeof(null_str));
  null_str.type_index = kTVMFFIRawStr;
  CHECK(ThrownBy([&] { AssignField(HandleOf(obj), FieldOf(obj.type_index(), "s"), null_str); }) ==
        "ValueError: a kTVMFFIRawStr value has a NULL v_c_str");

  Set(obj, "by", Any(Bytes("xy", 2)));
  CHECK(Get(obj, "by").type_index() == kTVMFFIBytes);
  CHECK(SetError(obj, "by", Any("xy")) ==
        "TypeError: field `dctest.Kinds.by` expects bytes, got str \"xy\"");

  Array<int64_t> arr{1, 2};
  Set(obj, "arr", Any(arr));
  CHECK(HandleOf(Get(obj, "arr")) == HandleOf(arr));
  CHECK(SetError(obj, "arr", Any()) ==
        "TypeError: field `dctest.Kinds.arr` expects ffi.Array, got None");
  CHECK(SetError(obj, "arr", Any(String("a string longer than forty characters, surely"))) ==
        "TypeError: field `dctest.Kinds.arr` expects ffi.Array, got str");
  CHECK(SetError(obj, "arr", Any(Map<Any, Any>())) ==
        "TypeError: field `dctest.Kinds.arr` expects ffi.Array, got ffi.Map");
  CHECK(HandleOf(Get(obj, "arr")) == HandleOf(arr));

  // Any takes anything.
  Set(obj, "a", Any(arr));
  CHECK(HandleOf(Get(obj, "a")) == HandleOf(arr));
  Set(obj, "a", Any(1.5));
  CHECK(Get(obj, "a").cast<double>() == 1.5);
}

TEST_CASE("Dataclass: an object field holding a py_class type checks ancestry", "[dataclass]") {
  int32_t base = Alloc("dctest.Node");
  Define(base, {FieldEntry("next", base, /*nullable=*/true)});
  int32_t derived = Alloc("dctest.SubNode", base);
  Define(derived, {FieldEntry("weight", kTVMFFIFloat)});
  Any a = New(base);
  Any b = New(derived);
  Set(a, "next", b);  // a subtype is accepted
  CHECK(HandleOf(Get(a, "next")) == HandleOf(b));
  Set(b, "next", a);  // the inherited field, on the child
  CHECK(FieldOf(derived, "weight")->offset == 32);
  CHECK(SetError(a, "next", Any(Array<Any>())) ==
        "TypeError: field `dctest.Node.next` expects dctest.Node or None, got ffi.Array");
  Set(b, "next", Any());  // break the cycle
}

TEST_CASE("Dataclass: the check function runs first and its result is stored", "[dataclass]") {
  int32_t t = Alloc("dctest.Checked");
  Function twice = Function::FromTyped([](int64_t x) { return x * 2; });
  Function refuse = Function::FromTyped([](AnyView v) -> Any {
    if (v.type_index() == kTVMFFIInt && RawOf(v)->v_int64 < 0) {
      TVM_FFI_THROW(ValueError) << "must not be negative";
    }
    return Any(v);
  });
  Define(t, {FieldEntry("x", kTVMFFIInt, false, 0, Any(), Any(twice)),
             FieldEntry("y", kTVMFFIAny, false, 0, Any(), Any(refuse))});
  Any obj = New(t);
  Set(obj, "x", Any(int64_t(21)));
  CHECK(Get(obj, "x").cast<int64_t>() == 42);
  CHECK(SetError(obj, "y", Any(int64_t(-1))) == "ValueError: must not be negative");
  Set(obj, "y", Any(int64_t(4)));
  CHECK(Get(obj, "y").cast<int64_t>() == 4);
}

TEST_CASE("Dataclass: bad definitions are refused before anything is registered",
          "[dataclass]") {
  int32_t t = Alloc("dctest.Bad");
  CHECK(ThrownBy([&] { Define(t, {FieldEntry("ok", kTVMFFIInt), FieldEntry("x", 5)}); }) ==
        "ValueError: ffi.DataclassDefine: field `dctest.Bad.x` has unsupported static type "
        "index 5");
  CHECK(ThrownBy([&] { Define(t, {FieldEntry("x", kTVMFFIInt), FieldEntry("x", kTVMFFIInt)}); }) ==
        "ValueError: ffi.DataclassDefine: field `dctest.Bad.x` is defined twice (here or by a "
        "parent type)");
  CHECK(ThrownBy([&] { Define(t, {FieldEntry("x", 100000)}); }) ==
        "ValueError: ffi.DataclassDefine: field `dctest.Bad.x` has unsupported static type "
        "index 100000");
  CHECK(ThrownBy([&] {
          Define(t, {FieldEntry("x", kTVMFFIInt, false, kHasDefault | kFactory, Any(int64_t(1)))});
        }) == "TypeError: ffi.DataclassDefine: the default factory of field `dctest.Bad.x` must be "
              "a Function, got int");
  CHECK(ThrownBy([&] {
          Call("ffi.DataclassDefine", static_cast<int64_t>(t),
               Array<Any>{Any(Array<Any>{Any(String("x"))})}, int64_t(0));
        }) == "ValueError: ffi.DataclassDefine: field entry 0 has 1 items, expected 7 (name, "
              "static_type_index, nullable, flags, doc, default, check)");
  CHECK(ThrownBy([&] { Define(kTVMFFIArray, {}); }) ==
        "ValueError: ffi.DataclassDefine: type index 71 is not a type allocated at run time");
  CHECK(TVMFFIGetTypeInfo(t)->num_fields == 0);
  CHECK(TVMFFIGetTypeInfo(t)->metadata == nullptr);
  Define(t, {FieldEntry("x", kTVMFFIInt)});
  CHECK(ThrownBy([&] { Define(t, {}); }) ==
        "RuntimeError: ffi.DataclassDefine: type `dctest.Bad` is already defined");
  // A dynamic type with no parent at all.
  TVMFFIByteArray root_key{"dctest.Root", 11};
  int32_t root = TVMFFITypeGetOrAllocIndex(&root_key, -1, 0, 0, 1, -1);
  REQUIRE(root >= 0);
  CHECK(ThrownBy([&] { Define(root, {}); }) ==
        "ValueError: ffi.DataclassDefine: type `dctest.Root` has no parent type (it must derive "
        "from ffi.Object)");
}

TEST_CASE("Dataclass: __ffi_init__ takes positional, keyword and default values",
          "[dataclass]") {
  int32_t t = Alloc("dctest.Init");
  int calls = 0;
  Function factory = Function::FromTyped([&calls]() {
    ++calls;
    return Array<int64_t>{7};
  });
  Define(t, {FieldEntry("x", kTVMFFIInt),
             FieldEntry("y", kTVMFFIFloat, false, kHasDefault, Any(0.5)),
             FieldEntry("items", kTVMFFIArray, false, kHasDefault | kFactory, Any(factory)),
             FieldEntry("tag", kTVMFFIStr, false, kKwOnly | kHasDefault, Any(String("t")))});
  Function init = InitOf(t);
  Any a = init(int64_t(1));
  CHECK(a.type_index() == t);
  CHECK(Get(a, "x").cast<int64_t>() == 1);
  CHECK(Get(a, "y").cast<double>() == 0.5);
  CHECK(StrOf(Get(a, "tag")) == "t");
  Any kwargs = Call("ffi.GetKwargsObject");  // the KWARGS sentinel
  Any b = init(int64_t(2), 1.5, kwargs, "tag", "named");
  CHECK(Get(b, "y").cast<double>() == 1.5);
  CHECK(StrOf(Get(b, "tag")) == "named");
  CHECK(calls == 2);  // one fresh list per instance
  CHECK(HandleOf(Get(a, "items")) != HandleOf(Get(b, "items")));
  CHECK(ThrownBy([&] { init(); }) ==
        "TypeError: dctest.Init.__ffi_init__() missing required argument: 'x'");
  CHECK(ThrownBy([&] { init("no"); }) ==
        "TypeError: __ffi_init__ of `dctest.Init`: argument `x`: field `dctest.Init.x` expects "
        "int, got str \"no\"");
  CHECK(ThrownBy([&] { init(int64_t(1), 2.0, Array<int64_t>(), "t"); }) ==
        "TypeError: __ffi_init__ of `dctest.Init`: takes 3 positional arguments but 4 were given");
}

TEST_CASE("Dataclass: deleting an instance releases each held object once", "[dataclass]") {
  int released = 0;
  {
    ObjectRef counted = MakeCounted(&released);
    String text(std::string(100, 'x'));
    Array<int64_t> arr{1};
    {
      Any obj = New(KindsIndex());
      Set(obj, "a", Any(counted));
      Set(obj, "s", Any(text));
      Set(obj, "arr", Any(arr));
      CHECK(UseCount(counted) == 2);
      CHECK(UseCount(text) == 2);
      CHECK(UseCount(arr) == 2);
      // Overwriting releases the old value.
      Set(obj, "s", Any(String("another")));
      CHECK(UseCount(text) == 1);
      Set(obj, "s", Any(text));
      Any copy = obj;  // a second reference: no release yet
      obj = Any();
      CHECK(UseCount(counted) == 2);
    }
    CHECK(UseCount(counted) == 1);
    CHECK(UseCount(text) == 1);
    CHECK(UseCount(arr) == 1);
    CHECK(released == 0);
  }
  CHECK(released == 1);
}

TEST_CASE("Dataclass: weak references keep the storage, not the fields", "[dataclass]") {
  int released = 0;
  Any obj = New(KindsIndex());
  Set(obj, "a", Any(MakeCounted(&released)));
  TVMFFIObject* h = static_cast<TVMFFIObject*>(HandleOf(obj));
  std::optional<WeakObjectPtr<Object>> weak;
  weak.emplace(BorrowHandle(h));
  obj = Any();
  CHECK(released == 1);
  CHECK(static_cast<Object*>(static_cast<void*>(h))->use_count() == 0);
  weak.reset();
}

TEST_CASE("Dataclass: a type extending a C++ type releases the parent's fields too",
          "[dataclass]") {
  TestingGlobal("testing.make_test_object_base");  // loads the testing library
  int32_t parent = 0;
  TVMFFIByteArray pk = ByteArrayOf("testing.TestObjectBase");
  REQUIRE(TVMFFITypeKeyToIndex(&pk, &parent) == 0);
  const TVMFFITypeInfo* pinfo = TVMFFIGetTypeInfo(parent);
  int32_t t = Alloc("dctest.FromCxx", parent);
  Define(t, {FieldEntry("extra", kTVMFFIAny, false, kHasDefault, Any(int64_t(9)))});
  REQUIRE(pinfo->metadata != nullptr);
  CHECK(FieldOf(t, "extra")->offset == (pinfo->metadata->total_size + 7) / 8 * 8);
  CHECK(TVMFFIGetTypeInfo(t)->metadata->total_size ==
        (pinfo->metadata->total_size + 7) / 8 * 8 + 16);

  String text(std::string(64, 'c'));
  {
    Any obj = InitOf(t)(int64_t(3), 2.5, text);
    CHECK(Get(obj, "v_i64").cast<int64_t>() == 3);
    CHECK(Get(obj, "v_f64").cast<double>() == 2.5);
    CHECK(HandleOf(Get(obj, "v_str")) == HandleOf(text));
    CHECK(Get(obj, "extra").cast<int64_t>() == 9);
    CHECK(UseCount(text) == 2);
  }
  CHECK(UseCount(text) == 1);
}

TEST_CASE("Dataclass: a type extending ffi.Enum releases its 16-byte _str_index cell",
          "[dataclass]") {
  // ffi.Enum's _str_index is a str cell of upstream's String layout (16
  // bytes at static index kTVMFFIStr): released as an Any.
  int32_t parent = 0;
  TVMFFIByteArray pk = ByteArrayOf("ffi.Enum");
  REQUIRE(TVMFFITypeKeyToIndex(&pk, &parent) == 0);
  int32_t t = Alloc("dctest.FromEnum", parent);
  Define(t, {FieldEntry("arity", kTVMFFIInt)});
  CHECK(FieldOf(t, "arity")->offset == 48);
  String text(std::string(40, 'e'));
  {
    Any obj = New(t);
    Set(obj, "_str_index", Any(text));
    Set(obj, "_int_index", Any(int64_t(2)));
    CHECK(Get(obj, "_str_index").cast<std::string>() == std::string(40, 'e'));
    CHECK(UseCount(text) == 2);
    Set(obj, "_str_index", Any(String("ab")));  // the heap one is released
    CHECK(UseCount(text) == 1);
    Set(obj, "_str_index", Any(text));
  }
  CHECK(UseCount(text) == 1);
}

TEST_CASE("Dataclass: ShallowCopy shares held objects, DeepCopy copies them", "[dataclass]") {
  Any obj = New(KindsIndex());
  Array<int64_t> arr{1, 2, 3};
  Set(obj, "i", Any(int64_t(4)));
  Set(obj, "arr", Any(arr));
  Set(obj, "a", Any(Array<Any>{Any(arr)}));

  Any shallow = Call("ffi.ShallowCopy", obj);
  CHECK(shallow.type_index() == KindsIndex());
  CHECK(HandleOf(shallow) != HandleOf(obj));
  CHECK(Get(shallow, "i").cast<int64_t>() == 4);
  CHECK(HandleOf(Get(shallow, "arr")) == HandleOf(arr));
  CHECK(HandleOf(Get(shallow, "a")) == HandleOf(Get(obj, "a")));
  Set(shallow, "i", Any(int64_t(5)));
  CHECK(Get(obj, "i").cast<int64_t>() == 4);

  Any deep = Call("ffi.DeepCopy", obj);
  CHECK(deep.type_index() == KindsIndex());
  CHECK(Get(deep, "i").cast<int64_t>() == 4);
  CHECK(HandleOf(Get(deep, "arr")) != HandleOf(arr));
  CHECK(Get(deep, "arr").cast<Array<int64_t>>().size() == 3);
  CHECK(Call("ffi.StructuralEqual", deep, obj, false, false).cast<bool>());

  // An unset (NULL) object field that refuses None stays unset in copies.
  Any empty = New(KindsIndex());
  CHECK((Get(Call("ffi.ShallowCopy", empty), "arr") == nullptr));
  CHECK((Get(Call("ffi.DeepCopy", empty), "by") == nullptr));

  CHECK(ThrownBy([&] { Call("ffi.ShallowCopy", int64_t(1)); }) ==
        "TypeError: ffi.ShallowCopy expects an object, got int");
  CHECK(ThrownBy([&] { Call("ffi.ShallowCopy", Array<int64_t>{1}); }) ==
        "TypeError: ffi.ShallowCopy: type `ffi.Array` has no creator, so it cannot be copied");
}

TEST_CASE("Dataclass: serialization round trip", "[dataclass]") {
  Any obj = New(KindsIndex());
  Set(obj, "i", Any(int64_t(-2)));
  Set(obj, "f", Any(0.25));
  Set(obj, "b", Any(true));
  Set(obj, "s", Any(String("name")));
  Set(obj, "a", Any(Array<Any>{Any(int64_t(1)), Any(String("two"))}));
  Set(obj, "arr", Any(Array<int64_t>{5}));
  Set(obj, "by", Any(Bytes("raw", 3)));
  Any text = Call("ffi.ToJSONGraphString", obj, Any());
  Any back = Call("ffi.FromJSONGraphString", text);
  CHECK(back.type_index() == KindsIndex());
  CHECK(HandleOf(back) != HandleOf(obj));
  CHECK(Get(back, "i").cast<int64_t>() == -2);
  CHECK(Get(back, "f").cast<double>() == 0.25);
  CHECK(Get(back, "b").cast<bool>() == true);
  CHECK(StrOf(Get(back, "s")) == "name");
  CHECK(Get(back, "arr").cast<Array<int64_t>>()[0] == 5);
  CHECK(Call("ffi.StructuralEqual", back, obj, false, false).cast<bool>());
}

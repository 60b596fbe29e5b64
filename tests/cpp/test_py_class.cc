// Upstream's Python-defined class protocol: ffi.MakeFieldGetter,
// ffi.MakeFieldSetter, ffi._RegisterFFIInit, ffi._PyClassRegisterTypeAttrColumns,
// driven here the way upstream's Python package drives them.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

int g_converts = 0;

// The package's converter: copies the value; refuses the int 666.
int Convert(void* converter, const TVMFFIAny* value, TVMFFIAny* out) {
  ++g_converts;
  REQUIRE(converter == reinterpret_cast<void*>(0x1234));
  if (value->type_index == kTVMFFIInt && value->v_int64 == 666) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "666 is refused");
    return -1;
  }
  *out = AnyUnsafe::MoveAnyToTVMFFIAny(Any(AnyView::CopyFromTVMFFIAny(*value)));
  return 0;
}

void RegisterField(int32_t t, const char* name, int64_t offset, int64_t size,
                   int32_t field_type_index) {
  TVMFFIFieldInfo info;
  std::memset(&info, 0, sizeof(info));
  info.name = {name, std::strlen(name)};
  info.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj;
  info.size = size;
  info.alignment = 8;
  info.offset = offset;
  info.field_static_type_index = field_type_index;
  int64_t getter = Call("ffi.MakeFieldGetter", field_type_index).cast<int64_t>();
  info.getter = reinterpret_cast<TVMFFIFieldGetter>(static_cast<intptr_t>(getter));
  Any setter = Call("ffi.MakeFieldSetter", field_type_index, int64_t(0x1234),
                    static_cast<int64_t>(reinterpret_cast<intptr_t>(&Convert)));
  info.setter = RawOf(setter)->v_obj;
  REQUIRE(TVMFFITypeRegisterField(t, &info) == 0);
}

// testing type: { header, int64 x (+24), str name (+32), Any extra (+40) }, 56 bytes.
int32_t PointType() {
  static int32_t t = [] {
    TVMFFIByteArray key = {"pyctest.Point", 13};
    int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
    REQUIRE(index >= kTVMFFIDynObjectBegin);
    RegisterField(index, "x", 24, 8, kTVMFFIInt);
    RegisterField(index, "name", 32, 8, kTVMFFIStr);
    RegisterField(index, "extra", 40, 16, kTVMFFIAny);
    Call("ffi._PyClassRegisterTypeAttrColumns", index, int32_t(56));
    return index;
  }();
  return t;
}

Function Attr(int32_t t, const char* name) {
  TVMFFIByteArray n = {name, std::strlen(name)};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&n);
  REQUIRE(col != nullptr);
  REQUIRE(t - col->begin_index < col->size);
  const TVMFFIAny& v = col->data[t - col->begin_index];
  REQUIRE(v.type_index == kTVMFFIFunction);
  return RefOf<Function>(BorrowHandle(v.v_obj));
}

Any FieldOf(const Any& obj, int32_t i) {
  const TVMFFIFieldInfo& f = TVMFFIGetTypeInfo(obj.type_index())->fields[i];
  TVMFFIAny out;
  std::memset(&out, 0, sizeof(out));
  REQUIRE(f.getter(reinterpret_cast<char*>(RawOf(obj)->v_obj) + f.offset, &out) == 0);
  return AnyUnsafe::MoveTVMFFIAnyRawToAny(out);
}

}  // namespace

TEST_CASE("PyClass: __ffi_init__ through the converter, getters, release", "[py_class]") {
  int32_t t = PointType();
  Any payload = Call("ffi.Array", int64_t(1));
  TVMFFIObject* payload_obj = RawOf(payload)->v_obj;
  g_converts = 0;
  Any p = Attr(t, "__ffi_init__")(int64_t(3), std::string("a long name"), payload);
  REQUIRE(p.type_index() == t);
  CHECK(g_converts == 3);
  CHECK(FieldOf(p, 0).cast<int64_t>() == 3);
  CHECK(FieldOf(p, 1).cast<std::string>() == "a long name");
  CHECK(RawOf(FieldOf(p, 2))->v_obj == payload_obj);
  CHECK((payload_obj->combined_ref_count & 0xffffffffu) == 2);
  // Shallow copy shares the payload.
  Any q = Attr(t, "__ffi_shallow_copy__")(p);
  CHECK(RawOf(q)->v_obj != RawOf(p)->v_obj);
  CHECK(FieldOf(q, 0).cast<int64_t>() == 3);
  CHECK((payload_obj->combined_ref_count & 0xffffffffu) == 3);
  p = Any();
  q = Any();
  CHECK((payload_obj->combined_ref_count & 0xffffffffu) == 1);  // released by the deleter
}

TEST_CASE("PyClass: setters store short strings as objects; errors", "[py_class]") {
  int32_t t = PointType();
  Any p = Attr(t, "__ffi_new__")();
  REQUIRE(p.type_index() == t);
  CHECK(FieldOf(p, 0).cast<int64_t>() == 0);
  CHECK(FieldOf(p, 1).type_index() == kTVMFFINone);
  CHECK(FieldOf(p, 2).type_index() == kTVMFFINone);
  const TVMFFIFieldInfo* fields = TVMFFIGetTypeInfo(t)->fields;
  char* base = reinterpret_cast<char*>(RawOf(p)->v_obj);
  Function set_name = RefOf<Function>(BorrowHandle(fields[1].setter));
  set_name(static_cast<void*>(base + 32), std::string("ab"));
  TVMFFIObjectHandle stored = *reinterpret_cast<TVMFFIObjectHandle*>(base + 32);
  REQUIRE(stored != nullptr);
  CHECK(TVMFFIObjectGetTypeIndex(stored) == kTVMFFIStr);
  CHECK(FieldOf(p, 1).cast<std::string>() == "ab");
  Function set_x = RefOf<Function>(BorrowHandle(fields[0].setter));
  CHECK(ThrownBy([&] { set_x(static_cast<void*>(base + 24), int64_t(666)); }) ==
        "TypeError: 666 is refused");
  CHECK(ThrownBy([&] { set_x(static_cast<void*>(base + 24), std::string("s")); }) ==
        "TypeError: expected int, got str");
  CHECK(ThrownBy([&] { Attr(t, "__ffi_init__")(int64_t(1)); }).rfind("TypeError: ", 0) == 0);
  CHECK(ThrownBy([] { Call("ffi.MakeFieldGetter", int32_t(kTVMFFIRawStr)); }) ==
        "ValueError: ffi.MakeFieldGetter: unsupported field type index 8");
}

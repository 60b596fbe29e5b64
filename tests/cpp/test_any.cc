// Values: Any/AnyView, view-to-owned conversion, strings and bytes.
#include <catch2/catch.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

bool AllZero(const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("Any: strings of up to 7 bytes are small, longer ones are objects", "[any]") {
  for (size_t len = 0; len <= 9; ++len) {
    std::string s(len, 'x');
    TVMFFIByteArray in = {s.data(), s.size()};
    TVMFFIAny out;
    std::memset(&out, 0xAB, sizeof(out));  // garbage must be overwritten
    REQUIRE(TVMFFIStringFromByteArray(&in, &out) == 0);
    if (len <= 7) {
      CHECK(out.type_index == kTVMFFISmallStr);
      CHECK(out.small_str_len == len);
      CHECK(std::string(out.v_bytes, len) == s);
      CHECK(AllZero(out.v_bytes + len, 8 - len));
    } else {
      CHECK(out.type_index == kTVMFFIStr);
      CHECK(out.zero_padding == 0);
      const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(out.v_obj);
      CHECK(std::string(b->data, b->size) == s);
      CHECK(b->data[b->size] == '\0');
      // The chars follow the 16-byte cell inline.
      CHECK(b->data == reinterpret_cast<const char*>(out.v_obj) + 40);
      TVMFFIObjectDecRef(out.v_obj);
    }
  }
}

TEST_CASE("Any: bytes keep embedded NULs and use the bytes indices", "[any]") {
  const char raw[] = {'a', '\0', 'b'};
  TVMFFIByteArray in = {raw, 3};
  TVMFFIAny out = {};
  REQUIRE(TVMFFIBytesFromByteArray(&in, &out) == 0);
  CHECK(out.type_index == kTVMFFISmallBytes);
  CHECK(std::memcmp(out.v_bytes, raw, 3) == 0);
  std::string big(20, '\0');
  TVMFFIByteArray in2 = {big.data(), big.size()};
  REQUIRE(TVMFFIBytesFromByteArray(&in2, &out) == 0);
  CHECK(out.type_index == kTVMFFIBytes);
  CHECK(TVMFFIBytesGetByteArrayPtr(out.v_obj)->size == 20);
  TVMFFIObjectDecRef(out.v_obj);

  TVMFFIByteArray bad = {nullptr, 4};
  CHECK(Raised(TVMFFIBytesFromByteArray(&bad, &out)) ==
        "ValueError: TVMFFIBytesFromByteArray: input has data NULL but size 4");
}

TEST_CASE("Any: view-to-owned materialises raw strings and byte arrays", "[any]") {
  TVMFFIAny view = {};
  view.type_index = kTVMFFIRawStr;
  view.v_c_str = "a raw C string";
  TVMFFIAny owned;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(owned.type_index == kTVMFFIStr);
  CHECK(std::string(TVMFFIBytesGetByteArrayPtr(owned.v_obj)->data) == "a raw C string");
  TVMFFIObjectDecRef(owned.v_obj);

  TVMFFIByteArray b = {"abc", 3};
  view.type_index = kTVMFFIByteArrayPtr;
  view.v_ptr = &b;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(owned.type_index == kTVMFFISmallBytes);
  CHECK(owned.small_str_len == 3);
}

TEST_CASE("Any: view-to-owned takes the object out of an rvalue reference", "[any]") {
  TVMFFIObjectHandle slot = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<Object>());
  TVMFFIAny view = {};
  view.type_index = kTVMFFIObjectRValueRef;
  view.v_ptr = &slot;
  TVMFFIAny owned;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(slot == nullptr);
  CHECK(owned.type_index == kTVMFFIObject);
  CHECK(ObjectOf(owned.v_obj)->use_count() == 1);
  CHECK(Raised(TVMFFIAnyViewToOwnedAny(&view, &owned)) ==
        "RuntimeError: ObjectRValueRef: the object was already moved out");
  TVMFFIObjectDecRef(owned.v_obj);
}

TEST_CASE("Any: view-to-owned adds a reference to objects and copies PODs", "[any]") {
  ObjectPtr<Object> obj = make_object<Object>();
  TVMFFIAny raw{};
  raw.type_index = kTVMFFIObject;
  raw.v_obj = ObjectUnsafe::GetHeader(obj.get());
  TVMFFIAny owned;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&raw, &owned) == 0);
  CHECK(obj.use_count() == 2);
  TVMFFIObjectDecRef(owned.v_obj);
  CHECK(obj.use_count() == 1);

  TVMFFIAny f = {};
  f.type_index = kTVMFFIFloat;
  f.v_float64 = 1.5;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&f, &owned) == 0);
  CHECK(std::memcmp(&owned, &f, sizeof(f)) == 0);
}

TEST_CASE("Any: C++ values round-trip and keep the zero-padding invariant", "[any]") {
  Any i = int64_t(-3);
  CHECK(i.type_index() == kTVMFFIInt);
  CHECK(RawOf(i)->zero_padding == 0);
  CHECK(i.cast<int64_t>() == -3);
  CHECK(i.cast<double>() == -3.0);
  Any b = true;
  CHECK(b.type_index() == kTVMFFIBool);
  CHECK(b.cast<bool>());
  Any d = 2.5;
  CHECK_FALSE(d.try_cast<int64_t>().has_value());
  Any none;
  CHECK(none == nullptr);
  CHECK_FALSE(none.cast<Optional<int64_t>>().has_value());
  Any small = String("tiny");  // (a std::string rvalue becomes a heap ffi.String, as upstream)
  CHECK(small.type_index() == kTVMFFISmallStr);
  CHECK(AllZero(RawOf(small)->v_bytes + 4, 4));
  Any heap = String("this one is long");
  CHECK(heap.type_index() == kTVMFFIStr);
  CHECK(heap.cast<std::string>() == "this one is long");
  CHECK_FALSE(heap.try_cast<Bytes>().has_value());
  Any dev = DLDevice{kDLCUDA, 1};
  CHECK(RawOf(dev)->v_device.device_id == 1);
  try {
    heap.cast<int64_t>();
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.kind() == "TypeError");
    CHECK(std::string(e.what()) == "Cannot convert from type `ffi.String` to `int`");
  }
}

TEST_CASE("Any: copies share objects and count references", "[any]") {
  String s("shared string value");
  Any a = s;
  CHECK(UseCountOf(s) == 2);
  {
    Any b = a;
    CHECK(UseCountOf(s) == 3);
    Any c = std::move(b);
    CHECK(UseCountOf(s) == 3);
    CHECK(b == nullptr);
  }
  CHECK(UseCountOf(s) == 2);
  a = Any();
  CHECK(UseCountOf(s) == 1);
}

namespace {

// A raw value full of garbage, as a slot that was never initialised.
TVMFFIAny Garbage() {
  TVMFFIAny v;
  std::memset(&v, 0xAB, sizeof(v));
  return v;
}

// The 16 bytes of a value.
std::vector<unsigned char> BytesOf(const TVMFFIAny& v) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&v);
  return std::vector<unsigned char>(p, p + sizeof(v));
}

}  // namespace

TEST_CASE("Any: conversions overwrite every byte of the slot", "[any]") {
  // Each conversion writes the whole value (type, padding word, payload),
  // so even a slot full of garbage ends up obeying the zero invariant.
  TVMFFIAny v = Garbage();
  TypeTraits<int64_t>::MoveToAny(-2, &v);
  CHECK(v.type_index == kTVMFFIInt);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_int64 == -2);

  v = Garbage();
  TypeTraits<bool>::CopyToAnyView(true, &v);
  CHECK(v.type_index == kTVMFFIBool);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_int64 == 1);

  v = Garbage();
  TypeTraits<float>::MoveToAny(0.5f, &v);
  CHECK(v.type_index == kTVMFFIFloat);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_float64 == 0.5);

  v = Garbage();
  TypeTraits<void*>::CopyToAnyView(nullptr, &v);  // a null opaque pointer (not None)
  std::vector<unsigned char> null_ptr(16, 0);
  null_ptr[0] = kTVMFFIOpaquePtr;
  CHECK(BytesOf(v) == null_ptr);

  v = Garbage();
  TypeTraits<std::nullptr_t>::MoveToAny(nullptr, &v);
  CHECK(BytesOf(v) == std::vector<unsigned char>(16, 0));

  v = Garbage();
  TypeTraits<Optional<int64_t>>::MoveToAny(Optional<int64_t>(std::nullopt), &v);
  CHECK(BytesOf(v) == std::vector<unsigned char>(16, 0));

  v = Garbage();
  TypeTraits<DLDataType>::CopyToAnyView(DType(kDLFloat, 32, 4), &v);
  CHECK(v.type_index == kTVMFFIDataType);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_dtype.bits == 32);
  CHECK(v.v_dtype.lanes == 4);
  CHECK(AllZero(reinterpret_cast<const char*>(&v) + 12, 4));  // bytes 12-15

  v = Garbage();
  TypeTraits<DLDevice>::CopyToAnyView(DLDevice{kDLCUDA, 3}, &v);
  CHECK(v.type_index == kTVMFFIDevice);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_device.device_type == kDLCUDA);
  CHECK(v.v_device.device_id == 3);

  v = Garbage();
  TypeTraits<const char*>::CopyToAnyView("borrowed", &v);
  CHECK(v.type_index == kTVMFFIRawStr);
  CHECK(v.zero_padding == 0);
  CHECK(std::string(v.v_c_str) == "borrowed");

  v = Garbage();
  TypeTraits<String>::MoveToAny(String("abc"), &v);
  CHECK(v.type_index == kTVMFFISmallStr);
  CHECK(v.small_str_len == 3);
  CHECK(std::memcmp(v.v_bytes, "abc\0\0\0\0\0", 8) == 0);

  v = Garbage();
  TypeTraits<Bytes>::MoveToAny(Bytes("", 0), &v);
  CHECK(v.type_index == kTVMFFISmallBytes);
  CHECK(v.small_str_len == 0);
  CHECK(AllZero(v.v_bytes, 8));

  String heap("long enough for the heap");
  v = Garbage();
  TypeTraits<String>::CopyToAnyView(heap, &v);
  CHECK(v.type_index == kTVMFFIStr);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_obj == HandleOf(heap));
  CHECK(UseCountOf(heap) == 1);  // a view adds no reference
  v = Garbage();
  TypeTraits<String>::MoveToAny(heap, &v);  // from a copy of `heap`
  CHECK(v.type_index == kTVMFFIStr);
  CHECK(v.zero_padding == 0);
  CHECK(UseCountOf(heap) == 2);
  Any owned = AnyUnsafe::MoveTVMFFIAnyRawToAny(v);
  CHECK(RawOf(owned)->v_obj == HandleOf(heap));
  owned = Any();
  CHECK(UseCountOf(heap) == 1);

  v = Garbage();
  TypeTraits<ObjectRef>::CopyToAnyView(ObjectRef(), &v);
  CHECK(BytesOf(v) == std::vector<unsigned char>(16, 0));
}

TEST_CASE("Any: assignment releases the old value and takes the new one", "[any]") {
  int first_deleted = 0, second_deleted = 0;
  ObjectRef first = MakeCounted(&first_deleted);
  ObjectRef second = MakeCounted(&second_deleted);
  Any a = first;
  CHECK(first.use_count() == 2);
  a = Any(second);
  CHECK(first.use_count() == 1);
  CHECK(second.use_count() == 2);
  CHECK(RawOf(a)->v_obj == HandleOf(second));
  CHECK(RawOf(a)->zero_padding == 0);
  Any b = int64_t(5);
  b = a;  // copy: both hold `second`
  CHECK(second.use_count() == 3);
  a = std::move(b);
  CHECK(second.use_count() == 2);
  CHECK(b == nullptr);
  first = ObjectRef();
  CHECK(first_deleted == 1);
  a = Any();
  second = ObjectRef();
  CHECK(second_deleted == 1);
}

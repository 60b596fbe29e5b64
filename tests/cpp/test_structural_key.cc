// ffi.StructuralKey: layout, cached hash, equality, container-key hooks.
#include <catch2/catch.hpp>

#include <cstring>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

Any IntArray(int64_t a, int64_t b) { return Call("ffi.Array", a, b); }

int64_t HashField(const Any& key) {
  int64_t h;
  std::memcpy(&h, reinterpret_cast<const char*>(RawOf(key)->v_obj) + 40, sizeof(h));
  return h;
}

}  // namespace

TEST_CASE("StructuralKey: layout is header, key Any at +24, hash_i64 at +40", "[structural_key]") {
  Any arr = IntArray(1, 2);
  Any key = Call("ffi.StructuralKey", arr);
  TVMFFIByteArray name = {"ffi.StructuralKey", 17};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&name, &index) == 0);
  CHECK(key.type_index() == index);
  const TVMFFIAny* stored =
      reinterpret_cast<const TVMFFIAny*>(reinterpret_cast<const char*>(RawOf(key)->v_obj) + 24);
  CHECK(stored->type_index == kTVMFFIArray);
  CHECK(stored->v_obj == RawOf(arr)->v_obj);
  CHECK(HashField(key) == Call("ffi.StructuralHash", arr, false, false).cast<int64_t>());
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  REQUIRE(info->metadata != nullptr);
  CHECK(info->metadata->total_size == 48);
  REQUIRE(info->num_fields == 2);
  CHECK(std::string(info->fields[0].name.data, info->fields[0].name.size) == "key");
  CHECK(info->fields[0].offset == 24);
  CHECK(std::string(info->fields[1].name.data, info->fields[1].name.size) == "hash_i64");
  CHECK(info->fields[1].offset == 40);
}

TEST_CASE("StructuralKey: equal by structure, and one Map key", "[structural_key]") {
  Any a = Call("ffi.StructuralKey", IntArray(1, 2));
  Any b = Call("ffi.StructuralKey", IntArray(1, 2));
  Any c = Call("ffi.StructuralKey", IntArray(1, 3));
  CHECK(Call("ffi.StructuralKeyEqual", a, b).cast<bool>());
  CHECK_FALSE(Call("ffi.StructuralKeyEqual", a, c).cast<bool>());
  CHECK(Call("ffi.StructuralKeyEqual", a, a).cast<bool>());
  Any m = Call("ffi.Map", a, int64_t(1), c, int64_t(3));
  CHECK(Call("ffi.MapGetItem", m, b).cast<int64_t>() == 1);
  CHECK(Call("ffi.MapSize", Call("ffi.Map", a, int64_t(1), b, int64_t(2))).cast<int64_t>() == 1);
  // Plain arrays are still compared by address.
  CHECK(Call("ffi.MapCount", Call("ffi.Map", IntArray(1, 2), int64_t(1)), IntArray(1, 2))
            .cast<int64_t>() == 0);
}

TEST_CASE("StructuralKey: bad arguments and __ffi_init__", "[structural_key]") {
  Any a = Call("ffi.StructuralKey", int64_t(5));
  CHECK(ThrownBy([&] { Call("ffi.StructuralKeyEqual", a, int64_t(5)); }) ==
        "TypeError: In function ffi.StructuralKeyEqual: argument 2: expected ffi.StructuralKey, "
        "got int");
  TVMFFIByteArray name = {"ffi.StructuralKey", 17};
  int32_t index = -1;
  REQUIRE(TVMFFITypeKeyToIndex(&name, &index) == 0);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  const TVMFFIMethodInfo* init = nullptr;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (std::string(info->methods[i].name.data, info->methods[i].name.size) == "__ffi_init__") {
      init = &info->methods[i];
    }
  }
  REQUIRE(init != nullptr);
  Function f = RefOf<Function>(BorrowHandle(init->method.v_obj));
  Any made = f(std::string("text"));
  CHECK(made.type_index() == index);
  CHECK(Call("ffi.StructuralKeyEqual", made, Call("ffi.StructuralKey", std::string("text")))
            .cast<bool>());
}

TEST_CASE("StructuralKey: an error of the hash keeps its kind", "[structural_key]") {
  // The hash walk's errors reach the caller as raised (not as InternalError).
  List<Any> cyc;
  cyc.push_back(Any(int64_t(1)));
  cyc.push_back(Any(cyc));
  CHECK(ThrownBy([&] { Call("ffi.StructuralKey", cyc); }) ==
        "ValueError: ffi.StructuralHash: the value contains a reference cycle (an object of type "
        "`ffi.List` contains itself)");
  cyc.clear();
}

// Arrays: ABI layout, element ownership, ffi.Array* globals, typed Array<T>.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

TEST_CASE("Array: layout is header, SeqCell at +24, inline elements at +56", "[array]") {
  Any arr = Call("ffi.Array", int64_t(1), 2.5, "x");
  REQUIRE(arr.type_index() == kTVMFFIArray);
  char* base = static_cast<char*>(HandleOf(arr));
  TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(HandleOf(arr));
  CHECK(reinterpret_cast<std::uintptr_t>(reinterpret_cast<char*>(cell)) ==
        reinterpret_cast<std::uintptr_t>(base + 24));
  CHECK(reinterpret_cast<std::uintptr_t>(static_cast<char*>(cell->data)) ==
        reinterpret_cast<std::uintptr_t>(base + 56));
  CHECK(cell->data_deleter == nullptr);
  CHECK(cell->size == 3);
  CHECK(cell->capacity == 3);
  const TVMFFIAny* e = static_cast<const TVMFFIAny*>(cell->data);
  CHECK(e[0].type_index == kTVMFFIInt);
  CHECK(e[0].v_int64 == 1);
  CHECK(e[1].type_index == kTVMFFIFloat);
  CHECK(e[1].v_float64 == 2.5);
  // A borrowed C string argument is stored as an owned (small) string.
  CHECK(e[2].type_index == kTVMFFISmallStr);
  CHECK(e[2].small_str_len == 1);
  CHECK(std::memcmp(e[2].v_bytes, "x\0\0\0\0\0\0\0", 8) == 0);
}

TEST_CASE("Array: long strings are copied into heap String elements", "[array]") {
  std::string text = "a string longer than seven bytes";
  Any arr = Call("ffi.Array", text.c_str());
  const TVMFFIAny& e = SeqItems(HandleOf(arr))[0];
  CHECK(e.type_index == kTVMFFIStr);
  const TVMFFIByteArray* b = TVMFFIBytesGetByteArrayPtr(e.v_obj);
  CHECK(std::string(b->data, b->size) == text);
  CHECK(b->data != text.c_str());
}

TEST_CASE("Array: elements hold a reference that is dropped with the array", "[array]") {
  int deleted = 0;
  {
    ObjectRef obj = MakeCounted(&deleted);
    CHECK(obj.use_count() == 1);
    {
      Any arr = Call("ffi.Array", obj, obj);
      CHECK(obj.use_count() == 3);
      Any item = Call("ffi.ArrayGetItem", arr, int64_t(1));
      CHECK(HandleOf(item) == HandleOf(obj));
      CHECK(obj.use_count() == 4);
    }
    CHECK(obj.use_count() == 1);
    CHECK(deleted == 0);
  }
  CHECK(deleted == 1);
}

TEST_CASE("Array: C++ Array owns its elements and frees each once", "[array]") {
  int deleted = 0;
  {
    Array<Any> arr;
    {
      ObjectRef obj = MakeCounted(&deleted);
      for (int i = 0; i < 10; ++i) arr.push_back(obj);
      CHECK(obj.use_count() == 11);
    }
    CHECK(deleted == 0);
  }
  CHECK(deleted == 1);
}

TEST_CASE("Array: ffi.ArrayGetItem and ffi.ArraySize", "[array]") {
  Any arr = Call("ffi.Array", int64_t(10), int64_t(20), int64_t(30));
  CHECK(Call("ffi.ArraySize", arr).cast<int64_t>() == 3);
  CHECK(Call("ffi.ArrayGetItem", arr, int64_t(0)).cast<int64_t>() == 10);
  CHECK(Call("ffi.ArrayGetItem", arr, int64_t(2)).cast<int64_t>() == 30);
  Any empty = Call("ffi.Array");
  CHECK(Call("ffi.ArraySize", empty).cast<int64_t>() == 0);
}

TEST_CASE("Array: get item out of range", "[array]") {
  Any arr = Call("ffi.Array", int64_t(10), int64_t(20), int64_t(30));
  CHECK(ThrownBy([&] { Call("ffi.ArrayGetItem", arr, int64_t(3)); }) ==
        "IndexError: index 3 out of range for Array of size 3");
  CHECK(ThrownBy([&] { Call("ffi.ArrayGetItem", arr, int64_t(-1)); }) ==
        "IndexError: index -1 out of range for Array of size 3");
  Any empty = Call("ffi.Array");
  CHECK(ThrownBy([&] { Call("ffi.ArrayGetItem", empty, int64_t(0)); }) ==
        "IndexError: index 0 out of range for Array of size 0");
}

TEST_CASE("Array: globals refuse other types naming the argument", "[array]") {
  CHECK(ThrownBy([] { Call("ffi.ArraySize", int64_t(1)); }) ==
        "TypeError: In function ffi.ArraySize: argument 1: expected ffi.Array, got int");
  Any list = Call("ffi.List", int64_t(1));
  CHECK(ThrownBy([&] { Call("ffi.ArrayGetItem", list, int64_t(0)); }) ==
        "TypeError: In function ffi.ArrayGetItem: argument 1: expected ffi.Array, got ffi.List");
  Any arr = Call("ffi.Array", int64_t(1));
  CHECK(ThrownBy([&] { Call("ffi.ArrayGetItem", arr, "0"); }) ==
        "TypeError: In function ffi.ArrayGetItem: argument 2: expected int, got str");
}

TEST_CASE("Array: ffi.ArrayContains uses key equality", "[array]") {
  std::string long_text = "a string longer than seven bytes";
  int deleted = 0;
  ObjectRef obj = MakeCounted(&deleted);
  Any arr = Call("ffi.Array", int64_t(1), "abc", long_text.c_str(), obj);
  CHECK(Call("ffi.ArrayContains", arr, int64_t(1)).cast<bool>());
  CHECK_FALSE(Call("ffi.ArrayContains", arr, 1.0).cast<bool>());
  CHECK_FALSE(Call("ffi.ArrayContains", arr, true).cast<bool>());
  // Small and heap forms of the same text are equal.
  CHECK(Call("ffi.ArrayContains", arr, String("abc")).cast<bool>());
  CHECK(Call("ffi.ArrayContains", arr, std::string(long_text)).cast<bool>());
  CHECK_FALSE(Call("ffi.ArrayContains", arr, "abd").cast<bool>());
  // Bytes never equal str.
  CHECK_FALSE(Call("ffi.ArrayContains", arr, Bytes("abc", 3)).cast<bool>());
  // Other objects compare by identity.
  CHECK(Call("ffi.ArrayContains", arr, obj).cast<bool>());
  int other_deleted = 0;
  CHECK_FALSE(Call("ffi.ArrayContains", arr, MakeCounted(&other_deleted)).cast<bool>());
  CHECK(other_deleted == 1);
}

TEST_CASE("Array: push_back grows from capacity 4 by a factor of 2", "[array]") {
  Array<int64_t> arr;  // an empty array object with room for 4 (upstream's)
  CHECK(arr.capacity() == 4);
  std::vector<int64_t> capacities;
  for (int64_t i = 0; i < 17; ++i) {
    arr.push_back(i);
    capacities.push_back(arr.capacity());
  }
  CHECK(capacities[0] == 4);
  CHECK(capacities[3] == 4);
  CHECK(capacities[4] == 8);
  CHECK(capacities[8] == 16);
  CHECK(capacities[16] == 32);
  CHECK(arr.size() == 17);
  int64_t sum = 0;
  for (int64_t v : arr) sum += v;
  CHECK(sum == 136);
  // The elements stay inline right after the cell.
  TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(HandleOf(arr));
  CHECK(static_cast<char*>(cell->data) == static_cast<char*>(HandleOf(arr)) + 56);
}

TEST_CASE("Array: copies share storage until one of them is changed", "[array]") {
  Array<int64_t> a{1, 2, 3};
  Array<int64_t> b = a;
  CHECK(a.same_as(b));
  b.push_back(4);
  CHECK_FALSE(a.same_as(b));
  CHECK(a.size() == 3);
  CHECK(b.size() == 4);
  b.Set(0, 100);
  CHECK(a[0] == 1);
  CHECK(b[0] == 100);
  // The only reference is changed in place.
  const Object* before = b.get();
  b.Set(1, 200);
  CHECK(b.get() == before);
  CHECK(std::vector<int64_t>(b.begin(), b.end()) == std::vector<int64_t>{100, 200, 3, 4});
}

TEST_CASE("Array: C++ element access checks index and type", "[array]") {
  Array<int64_t> a{1, 2};
  CHECK(ThrownBy([&] { (void)a[2]; }) == "IndexError: Index 2 out of bounds 2");
  CHECK(ThrownBy([&] { a.Set(-1, 0); }) ==
        "IndexError: Index -1 out of bounds 2");
  Array<Any> mixed{int64_t(1), "x"};
  // tvm::ffi reads typed elements unchecked: the element types are checked
  // when an Array<Any> is cast to Array<int64_t>.
  CHECK(Any(mixed).try_cast<Array<int64_t>>() == std::nullopt);
  CHECK(ThrownBy([&] { Any(mixed).cast<Array<int64_t>>(); }) ==
        "TypeError: Cannot convert from type `Array[index 1: ffi.SmallStr]` to `Array<int>`");
}

TEST_CASE("Array: typed function arguments check every element", "[array]") {
  Function sum = Function::FromTyped(
      [](Array<int64_t> a) {
        int64_t s = 0;
        for (int64_t v : a) s += v;
        return s;
      },
      "testing.sum");
  Any ints = Call("ffi.Array", int64_t(1), int64_t(2), int64_t(3));
  CHECK(sum(ints).cast<int64_t>() == 6);
  Any mixed = Call("ffi.Array", int64_t(1), "x");
  CHECK(ThrownBy([&] { sum(mixed); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `testing.sum(0: Array<int>) -> "
        "int`. Expected `Array<int>` but got `Array[index 1: ffi.SmallStr]`");
  CHECK(ThrownBy([&] { sum(int64_t(3)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: `testing.sum(0: Array<int>) -> "
        "int`. Expected `Array<int>` but got `int`");
  // A List converts to an Array.
  Any list = Call("ffi.List", int64_t(4), int64_t(5));
  CHECK(sum(list).cast<int64_t>() == 9);
}

TEST_CASE("Array: typed arguments borrow when no element changes", "[array]") {
  const void* seen = nullptr;
  Function f = Function::FromTyped([&seen](Array<int64_t> a) { seen = a.get(); });
  Any ints = Call("ffi.Array", int64_t(1), int64_t(2));
  f(ints);
  CHECK(seen == HandleOf(ints));
  // Elements that need converting produce a new array.
  Function g = Function::FromTyped([&seen](Array<double> a) {
    seen = a.get();
    return a[0] + a[1];
  });
  CHECK(g(ints).cast<double>() == 3.0);
  CHECK(seen != HandleOf(ints));
}

TEST_CASE("Array: TypeStr of element-typed arrays", "[array]") {
  CHECK(TypeTraits<Array<Any>>::TypeStr() == "Array<Any>");
  CHECK(TypeTraits<Array<int64_t>>::TypeStr() == "Array<int>");
  CHECK(TypeTraits<Array<Array<String>>>::TypeStr() == "Array<Array<str>>");
}

TEST_CASE("Array: ffi.Array steals an rvalue-reference argument", "[array]") {
  int deleted = 0;
  ObjectRef obj = MakeCounted(&deleted);
  TVMFFIObjectHandle slot = HandleOf(obj);
  TVMFFIObjectIncRef(slot);  // the reference the slot will give away
  TVMFFIAny arg;
  std::memset(&arg, 0, sizeof(arg));
  arg.type_index = kTVMFFIObjectRValueRef;
  arg.v_ptr = &slot;
  Any arr = CallPacked(Function::GetGlobalRequired("ffi.Array"),
                       reinterpret_cast<const AnyView*>(&arg), 1);
  CHECK(slot == nullptr);
  CHECK(obj.use_count() == 2);
  CHECK(SeqItems(HandleOf(arr))[0].v_obj == HandleOf(obj));
}

TEST_CASE("Array: testing globals convert typed arguments", "[array]") {
  Any two_five = Call("ffi.Array", int64_t(2), int64_t(5));
  CHECK(CallTesting("testing.array_sum_int", two_five).cast<int64_t>() == 7);
  CHECK(CallTesting("testing.array_sum_int", Call("ffi.List", int64_t(1))).cast<int64_t>() == 1);
  CHECK(ThrownBy([] { CallTesting("testing.array_sum_int", Call("ffi.Array", 1.5)); }) ==
        "TypeError: Mismatched type on argument #0 when calling: "
        "`testing.array_sum_int(0: Array<int>) -> int`. Expected `Array<int>` but got "
        "`Array[index 0: float]`");
  Any list = Call("ffi.List", int64_t(1));
  Any arr = CallTesting("testing.as_array", list);
  CHECK(arr.type_index() == kTVMFFIArray);
  Any same = CallTesting("testing.as_array", arr);
  CHECK(HandleOf(same) == HandleOf(arr));
}

TEST_CASE("Array: brace-initialised elements are complete owned values", "[array]") {
  int deleted = 0;
  {
    ObjectRef obj = MakeCounted(&deleted);
    Array<Any> mixed{Any(int64_t(3)), Any(obj), Any(2.5), Any("tiny"),
                     Any("a string longer than seven")};
    CHECK(obj.use_count() == 2);
    const TVMFFIAny* e = SeqItems(HandleOf(mixed));
    for (int i = 0; i < 5; ++i) {
      if (e[i].type_index != kTVMFFISmallStr) CHECK(e[i].zero_padding == 0);
    }
    CHECK(e[0].v_int64 == 3);
    CHECK(e[1].v_obj == HandleOf(obj));
    CHECK(e[2].v_float64 == 2.5);
    CHECK(e[3].type_index == kTVMFFISmallStr);
    CHECK(e[3].small_str_len == 4);
    CHECK(std::memcmp(e[3].v_bytes, "tiny\0\0\0\0", 8) == 0);
    CHECK(e[4].type_index == kTVMFFIStr);
    Array<int64_t> ints{1, 2, 3};
    CHECK(ints.size() == 3);
    CHECK(ints.capacity() == 3);
    CHECK(ints[2] == 3);
    CHECK(SeqItems(HandleOf(ints))[1].zero_padding == 0);
    Array<String> strings{String("short"), String("a longer string value")};
    CHECK(SeqItems(HandleOf(strings))[0].type_index == kTVMFFISmallStr);
    CHECK(SeqItems(HandleOf(strings))[1].type_index == kTVMFFIStr);
    CHECK(std::string(strings[1]) == "a longer string value");
  }
  CHECK(deleted == 1);
}

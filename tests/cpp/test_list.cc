// Lists: ABI layout (separate buffer), growth, ownership, ffi.List* globals.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

std::vector<int64_t> Ints(const Any& list) {
  std::vector<int64_t> out;
  int64_t n = Call("ffi.ListSize", list).cast<int64_t>();
  for (int64_t i = 0; i < n; ++i) out.push_back(Call("ffi.ListGetItem", list, i).cast<int64_t>());
  return out;
}

Any IntList(std::initializer_list<int64_t> values) {
  Any list = Call("ffi.List");
  for (int64_t v : values) Call("ffi.ListAppend", list, v);
  return list;
}

}  // namespace

TEST_CASE("List: layout is header, SeqCell at +24, separate buffer with a deleter", "[list]") {
  Any list = Call("ffi.List", int64_t(1), int64_t(2));
  REQUIRE(list.type_index() == kTVMFFIList);
  char* base = static_cast<char*>(HandleOf(list));
  TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(HandleOf(list));
  CHECK(reinterpret_cast<std::uintptr_t>(reinterpret_cast<char*>(cell)) ==
        reinterpret_cast<std::uintptr_t>(base + 24));
  CHECK(cell->data_deleter != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(static_cast<char*>(cell->data)) !=
        reinterpret_cast<std::uintptr_t>(base + 56));
  CHECK(cell->size == 2);
  const TVMFFIAny* e = static_cast<const TVMFFIAny*>(cell->data);
  CHECK(e[0].type_index == kTVMFFIInt);
  CHECK(e[1].v_int64 == 2);
}

TEST_CASE("List: append grows the buffer from 4 by a factor of 2", "[list]") {
  Any list = Call("ffi.List");
  TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(HandleOf(list));
  CHECK(cell->capacity == 0);
  std::vector<int64_t> capacities;
  for (int64_t i = 0; i < 9; ++i) {
    Call("ffi.ListAppend", list, i);
    capacities.push_back(cell->capacity);
  }
  CHECK(capacities == std::vector<int64_t>{4, 4, 4, 4, 8, 8, 8, 8, 16});
  CHECK(Ints(list) == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("List: mutation is shared by every reference", "[list]") {
  Any list = Call("ffi.List", int64_t(1));
  Any alias = list;
  Call("ffi.ListAppend", alias, int64_t(2));
  CHECK(Ints(list) == std::vector<int64_t>{1, 2});
  List<Any> cpp = list.cast<List<Any>>();
  cpp.push_back(int64_t(3));
  CHECK(Ints(list) == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("List: elements are owned and each is freed once", "[list]") {
  int deleted = 0;
  {
    Any list = Call("ffi.List");
    {
      ObjectRef obj = MakeCounted(&deleted);
      for (int i = 0; i < 6; ++i) Call("ffi.ListAppend", list, obj);
      CHECK(obj.use_count() == 7);
      Call("ffi.ListErase", list, int64_t(0));
      CHECK(obj.use_count() == 6);
      Any popped = Call("ffi.ListPop", list, int64_t(0));
      CHECK(obj.use_count() == 6);
      popped = Any();
      CHECK(obj.use_count() == 5);
      Call("ffi.ListSetItem", list, int64_t(0), int64_t(9));
      CHECK(obj.use_count() == 4);
      Call("ffi.ListEraseRange", list, int64_t(0), int64_t(2));
      CHECK(obj.use_count() == 3);
    }
    CHECK(deleted == 0);
  }
  CHECK(deleted == 1);
}

TEST_CASE("List: clear releases every element", "[list]") {
  int deleted = 0;
  Any list = Call("ffi.List", MakeCounted(&deleted), MakeCounted(&deleted));
  CHECK(deleted == 0);
  Call("ffi.ListClear", list);
  CHECK(deleted == 2);
  CHECK(Call("ffi.ListSize", list).cast<int64_t>() == 0);
}

TEST_CASE("List: get, set, contains", "[list]") {
  Any list = Call("ffi.List", int64_t(1), "two", 3.0);
  CHECK(Call("ffi.ListSize", list).cast<int64_t>() == 3);
  CHECK(StrOf(Call("ffi.ListGetItem", list, int64_t(1))) == "two");
  Call("ffi.ListSetItem", list, int64_t(1), "zwei");
  CHECK(StrOf(Call("ffi.ListGetItem", list, int64_t(1))) == "zwei");
  CHECK(Call("ffi.ListContains", list, "zwei").cast<bool>());
  CHECK(Call("ffi.ListContains", list, 3.0).cast<bool>());
  CHECK_FALSE(Call("ffi.ListContains", list, int64_t(3)).cast<bool>());
}

TEST_CASE("List: index errors name index and size", "[list]") {
  Any list = IntList({1, 2, 3});
  CHECK(ThrownBy([&] { Call("ffi.ListGetItem", list, int64_t(3)); }) ==
        "IndexError: index 3 out of range for List of size 3");
  CHECK(ThrownBy([&] { Call("ffi.ListSetItem", list, int64_t(-1), int64_t(0)); }) ==
        "IndexError: index -1 out of range for List of size 3");
  CHECK(ThrownBy([&] { Call("ffi.ListErase", list, int64_t(5)); }) ==
        "IndexError: index 5 out of range for List of size 3");
  CHECK(ThrownBy([&] { Call("ffi.ListInsert", list, int64_t(4), int64_t(0)); }) ==
        "IndexError: insert index 4 out of range for List of size 3");
  CHECK(ThrownBy([&] { Call("ffi.ListEraseRange", list, int64_t(2), int64_t(1)); }) ==
        "IndexError: range [2, 1) out of range for List of size 3");
  CHECK(ThrownBy([&] { Call("ffi.ListEraseRange", list, int64_t(0), int64_t(4)); }) ==
        "IndexError: range [0, 4) out of range for List of size 3");
  Any empty = Call("ffi.List");
  CHECK(ThrownBy([&] { Call("ffi.ListPop", empty, int64_t(0)); }) ==
        "IndexError: pop from empty List");
  CHECK(ThrownBy([&] { Call("ffi.ListPop", list, int64_t(3)); }) ==
        "IndexError: index 3 out of range for List of size 3");
  CHECK(Ints(list) == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("List: globals refuse an Array (no silent copy)", "[list]") {
  Any arr = Call("ffi.Array", int64_t(1));
  CHECK(ThrownBy([&] { Call("ffi.ListAppend", arr, int64_t(2)); }) ==
        "TypeError: In function ffi.ListAppend: argument 1: expected ffi.List, got ffi.Array");
}

TEST_CASE("List: insert, pop, erase range, reverse", "[list]") {
  Any list = IntList({1, 2, 3});
  Call("ffi.ListInsert", list, int64_t(0), int64_t(0));
  Call("ffi.ListInsert", list, int64_t(4), int64_t(4));
  Call("ffi.ListInsert", list, int64_t(2), int64_t(15));
  CHECK(Ints(list) == std::vector<int64_t>{0, 1, 15, 2, 3, 4});
  CHECK(Call("ffi.ListPop", list, int64_t(2)).cast<int64_t>() == 15);
  CHECK(Call("ffi.ListPop", list, int64_t(4)).cast<int64_t>() == 4);
  CHECK(Ints(list) == std::vector<int64_t>{0, 1, 2, 3});
  Call("ffi.ListEraseRange", list, int64_t(1), int64_t(3));
  CHECK(Ints(list) == std::vector<int64_t>{0, 3});
  Call("ffi.ListEraseRange", list, int64_t(1), int64_t(1));
  CHECK(Ints(list) == std::vector<int64_t>{0, 3});
  Call("ffi.ListAppend", list, int64_t(7));
  Call("ffi.ListReverse", list);
  CHECK(Ints(list) == std::vector<int64_t>{7, 3, 0});
}

TEST_CASE("List: replace slice grows, shrinks and accepts itself", "[list]") {
  Any list = IntList({0, 1, 2, 3});
  Call("ffi.ListReplaceSlice", list, int64_t(1), int64_t(3),
       Call("ffi.Array", int64_t(10), int64_t(11), int64_t(12), int64_t(13)));
  CHECK(Ints(list) == std::vector<int64_t>{0, 10, 11, 12, 13, 3});
  Call("ffi.ListReplaceSlice", list, int64_t(0), int64_t(5), Call("ffi.Array", int64_t(-1)));
  CHECK(Ints(list) == std::vector<int64_t>{-1, 3});
  // lst[1:2] = lst
  Call("ffi.ListReplaceSlice", list, int64_t(1), int64_t(2), list);
  CHECK(Ints(list) == std::vector<int64_t>{-1, -1, 3});
  Call("ffi.ListReplaceSlice", list, int64_t(3), int64_t(3), IntList({8, 9}));
  CHECK(Ints(list) == std::vector<int64_t>{-1, -1, 3, 8, 9});
  CHECK(ThrownBy([&] { Call("ffi.ListReplaceSlice", list, int64_t(0), int64_t(1), int64_t(5)); }) ==
        "TypeError: In function ffi.ListReplaceSlice: argument 4: expected ffi.Array or ffi.List, "
        "got int");
}

TEST_CASE("List: C++ List API", "[list]") {
  // tvm::ffi::List has no Pop(i)/ReplaceSlice/Contains: those go through the
  // library's globals, on the same list.
  List<Any> l{Any(int64_t(1)), Any("a")};
  CHECK(l.size() == 2);
  l.insert(l.begin() + 1, Any(int64_t(5)));
  CHECK(l[1].cast<int64_t>() == 5);
  CHECK(Call("ffi.ListPop", l, int64_t(0)).cast<int64_t>() == 1);
  Call("ffi.ListReplaceSlice", l, int64_t(0), int64_t(1), Array<Any>(l.begin(), l.end()));
  CHECK(l.size() == 3);
  CHECK(StrOf(l[2]) == "a");
  CHECK(Call("ffi.ListContains", l, "a").cast<bool>());
  l.clear();
  CHECK(l.empty());
  CHECK(ThrownBy([&] { Call("ffi.ListPop", l, int64_t(0)); }) == "IndexError: pop from empty List");
}

TEST_CASE("List: typed List parameters accept an Array as a copy", "[list]") {
  Function size = Function::FromTyped([](List<Any> l) { return l.size(); }, "testing.lsize");
  CHECK(size(Call("ffi.Array", int64_t(1), int64_t(2))).cast<int64_t>() == 2);
  Function to_array =
      Function::FromTyped([](Array<Any> a) { return a; }, "testing.to_array");
  Any arr = to_array(IntList({4, 5}));
  CHECK(arr.type_index() == kTVMFFIArray);
  CHECK(Call("ffi.ArraySize", arr).cast<int64_t>() == 2);
}

TEST_CASE("List: testing.as_list converts an Array and keeps a List", "[list]") {
  Any list = Call("ffi.List", int64_t(1));
  CHECK(HandleOf(CallTesting("testing.as_list", list)) == HandleOf(list));
  Any converted = CallTesting("testing.as_list", Call("ffi.Array", int64_t(1), int64_t(2)));
  CHECK(converted.type_index() == kTVMFFIList);
  CHECK(Ints(converted) == std::vector<int64_t>{1, 2});
}

TEST_CASE("List: ffi.ListReserve grows the capacity only", "[list]") {
  Any list = IntList({1, 2, 3});
  const TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(RawOf(list)->v_obj);
  Call("ffi.ListReserve", list, int64_t(100));
  CHECK(cell->capacity == 100);
  CHECK(Ints(list) == std::vector<int64_t>{1, 2, 3});
  Call("ffi.ListReserve", list, int64_t(2));  // never shrinks
  CHECK(cell->capacity == 100);
  CHECK(ThrownBy([&] { Call("ffi.ListReserve", list, int64_t(-1)); }) ==
        "ValueError: ffi.ListReserve: capacity must be non-negative, got -1");
  CHECK(ThrownBy([&] { Call("ffi.ListReserve", Call("ffi.Array"), int64_t(1)); }) ==
        "TypeError: In function ffi.ListReserve: argument 1: expected ffi.List, got ffi.Array");
}

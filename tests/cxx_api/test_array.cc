// container/array.h and container/seq_base.h: Array<T>, ArrayObj.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <cstddef>
#include <string>
#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

class CountNode : public Object {
 public:
  explicit CountNode(int v) : value(v) { ++live; }
  ~CountNode() { --live; }
  int value;
  static int live;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.array.Count", CountNode, Object);
};
int CountNode::live = 0;
class Count : public ObjectRef {
 public:
  explicit Count(int v) : ObjectRef(make_object<CountNode>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Count, ObjectRef, CountNode);
};

std::vector<int64_t> Values(const Array<int64_t>& a) { return {a.begin(), a.end()}; }

}  // namespace

TEST_CASE("array: layout is upstream's", "[array]") {
  STATIC_REQUIRE(sizeof(Array<int>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(ArrayObj) == 24 + sizeof(TVMFFISeqCell));
  Array<int64_t> a{1, 2, 3};
  const TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(a.GetArrayObj());
  CHECK(cell->size == 3);
  CHECK(cell->capacity == 3);
  CHECK(cell->data_deleter == nullptr);
  CHECK(cell->data == reinterpret_cast<const char*>(a.get()) + sizeof(ArrayObj));
  const TVMFFIAny* elems = static_cast<const TVMFFIAny*>(cell->data);
  CHECK(elems[2].type_index == kTVMFFIInt);
  CHECK(elems[2].v_int64 == 3);
  CHECK(a.get()->type_index() == kTVMFFIArray);
  CHECK(Array<int64_t>().capacity() == 4);
}

TEST_CASE("array: reads, iteration and errors", "[array]") {
  Array<int64_t> a{10, 20, 30};
  CHECK(a.size() == 3);
  CHECK(a[1] == 20);
  CHECK(a.front() == 10);
  CHECK(a.back() == 30);
  CHECK(std::vector<int64_t>(a.rbegin(), a.rend()) == std::vector<int64_t>{30, 20, 10});
  CHECK(a.end() - a.begin() == 3);
  CHECK(ErrorOf([&] { (void)a[3]; }) == "IndexError: Index 3 out of bounds 3");
  CHECK(ErrorOf([&] { (void)a[-1]; }) == "IndexError: Index -1 out of bounds 3");
  Array<int64_t> empty;
  CHECK(ErrorOf([&] { (void)empty.front(); }) == "IndexError: front() on empty sequence");
  CHECK(ErrorOf([&] { (void)empty.back(); }) == "IndexError: back() on empty sequence");
  CHECK(ErrorOf([&] { empty.pop_back(); }) == "IndexError: pop_back on empty sequence");
  CHECK(ErrorOf([&] { empty.resize(-1); }) ==
        "ValueError: cannot resize an Array to negative size");
  CHECK(ErrorOf([&] { a.Set(5, 1); }) == "IndexError: Index 5 out of bounds 3");
  Array<int64_t> null_array(UnsafeInit{});
  CHECK(null_array.size() == 0);
  CHECK(ErrorOf([&] { (void)null_array[0]; }) == "IndexError: cannot index a null array");
  CHECK(ErrorOf([&] { null_array.pop_back(); }) == "RuntimeError: cannot pop_back a null array");
}

TEST_CASE("array: copy-on-write", "[array]") {
  Array<int64_t> a{1, 2, 3};
  Array<int64_t> b = a;
  CHECK(a.get() == b.get());
  CHECK(a.use_count() == 2);
  b.Set(0, 100);
  CHECK(a.get() != b.get());
  CHECK(Values(a) == std::vector<int64_t>{1, 2, 3});
  CHECK(Values(b) == std::vector<int64_t>{100, 2, 3});
  CHECK(a.use_count() == 1);
  // A unique array is written in place until it is full; then it grows to 2x.
  const Object* before = b.get();
  b.Set(1, 200);
  CHECK(b.get() == before);
  b.push_back(4);
  CHECK(b.get() != before);
  CHECK(b.capacity() == 6);
  CHECK(Values(b) == std::vector<int64_t>{100, 200, 3, 4});
}

TEST_CASE("array: mutation", "[array]") {
  Array<int64_t> a;
  for (int64_t i = 0; i < 5; ++i) a.push_back(i);
  CHECK(a.capacity() == 8);
  a.insert(a.begin() + 1, 42);
  CHECK(Values(a) == std::vector<int64_t>{0, 42, 1, 2, 3, 4});
  std::vector<int64_t> more{7, 8};
  a.insert(a.end(), more.begin(), more.end());
  CHECK(Values(a) == std::vector<int64_t>{0, 42, 1, 2, 3, 4, 7, 8});
  a.erase(a.begin());
  a.erase(a.begin() + 1, a.begin() + 3);
  CHECK(Values(a) == std::vector<int64_t>{42, 3, 4, 7, 8});
  a.pop_back();
  a.resize(6);
  CHECK(a.size() == 6);
  CHECK(a.GetArrayObj()->at(5).type_index() == kTVMFFINone);  // grown with None
  a.resize(2);
  CHECK(Values(a) == std::vector<int64_t>{42, 3});
  a.clear();
  CHECK(a.empty());
  CHECK(Values(Array<int64_t>::Agregate(int64_t{1}, Array<int64_t>{2, 3}, int64_t{4})) ==
        std::vector<int64_t>{1, 2, 3, 4});
  CHECK(Values(Concat(Array<int64_t>{1}, Array<int64_t>{2, 3})) == std::vector<int64_t>{1, 2, 3});
  CHECK(Values(Array<int64_t>(size_t{3}, int64_t{9})) == std::vector<int64_t>{9, 9, 9});
}

TEST_CASE("array: elements are freed exactly once", "[array]") {
  REQUIRE(CountNode::live == 0);
  {
    Count c(1);
    Array<Count> a{c, Count(2)};
    CHECK(c.use_count() == 2);
    Array<Count> b = a;
    b.push_back(Count(3));  // copies a's elements into a new object
    CHECK(c.use_count() == 3);
    CHECK(CountNode::live == 3);
    b.erase(b.begin());
    CHECK(c.use_count() == 2);
    a.clear();
    CHECK(c.use_count() == 1);
    CHECK(CountNode::live == 3);
  }
  CHECK(CountNode::live == 0);
}

TEST_CASE("array: Map and MutateByApply", "[array]") {
  Array<int64_t> a{1, 2, 3};
  Array<String> s = a.Map([](int64_t x) { return String(std::to_string(x * 2)); });
  CHECK(s[2] == "6");
  Count c1(1), c2(2);
  Array<Count> objs{c1, c2};
  Array<Count> same = objs.Map([](Count x) { return x; });
  CHECK(same.get() == objs.get());  // nothing changed identity: shared
  Array<Count> changed = objs.Map([&](Count x) { return x->value == 2 ? Count(20) : x; });
  CHECK(changed.get() != objs.get());
  CHECK(changed[0].same_as(c1));
  CHECK(changed[1]->value == 20);
  Array<int64_t> unique{1, 2};
  const Object* before = unique.get();
  unique.MutateByApply([](int64_t x) { return x + 1; });
  CHECK(unique.get() == before);
  CHECK(Values(unique) == std::vector<int64_t>{2, 3});
}

TEST_CASE("array: Any conversion", "[array]") {
  Array<int64_t> ints{1, 2};
  Any held = ints;
  CHECK(held.type_index() == kTVMFFIArray);
  Array<int64_t> back = held.cast<Array<int64_t>>();
  CHECK(back.get() == ints.get());  // exact elements: shared
  Array<Any> mixed{Any(1), Any(2.5)};
  Any m = mixed;
  CHECK(ErrorOf([&] { (void)m.cast<Array<int64_t>>(); }) ==
        "TypeError: Cannot convert from type `Array[index 1: float]` to `Array<int>`");
  Array<double> doubles = Any(ints).cast<Array<double>>();  // converted copy
  CHECK(doubles.get() != ints.get());
  CHECK(doubles[1] == 2.0);
  CHECK(ErrorOf([&] { (void)Any(1).cast<Array<int64_t>>(); }) ==
        "TypeError: Cannot convert from type `int` to `Array<int>`");
  CHECK(TypeTraits<Array<int64_t>>::TypeStr() == "Array<int>");
  CHECK(TypeTraits<Array<int64_t>>::TypeSchema() ==
        "{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"int\"}]}");
}

TEST_CASE("array: objects made by the runtime", "[array]") {
  Function make = Function::GetGlobalRequired("ffi.Array");
  Array<int64_t> a = make(1, 2, 3).cast<Array<int64_t>>();
  CHECK(Values(a) == std::vector<int64_t>{1, 2, 3});
  a.push_back(4);  // grows: moved into an object of ours
  CHECK(Values(a) == std::vector<int64_t>{1, 2, 3, 4});
  Function size = Function::GetGlobalRequired("ffi.ArraySize");
  Function get = Function::GetGlobalRequired("ffi.ArrayGetItem");
  CHECK(size(a).cast<int64_t>() == 4);
  CHECK(get(a, 3).cast<int64_t>() == 4);
  Array<Any> from_list = Function::GetGlobalRequired("ffi.List")(5, "x").cast<Array<Any>>();
  CHECK(from_list.size() == 2);
  CHECK(from_list[1].cast<String>() == "x");
}

TEST_CASE("array: an Array<int64_t> converts to a Shape", "[array]") {
  Array<int64_t> extents{2, 3, 4};
  Shape direct = extents;
  CHECK(std::vector<int64_t>(direct.begin(), direct.end()) == std::vector<int64_t>{2, 3, 4});
  Shape from_any = Any(extents).cast<Shape>();
  CHECK(from_any.size() == 3);
  CHECK(from_any[2] == 4);
  Shape same = Any(direct).cast<Shape>();
  CHECK(same.same_as(direct));
  Array<Any> mixed{Any(1), Any(String("x"))};
  CHECK(ErrorOf([&] { (void)Any(mixed).cast<Shape>(); }) ==
        "TypeError: Cannot convert from type `ffi.Array` to `ffi.Shape`");
}

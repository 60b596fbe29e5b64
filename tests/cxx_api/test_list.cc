// container/list.h: List<T>, ListObj.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include "error_of.h"

#include <vector>

using namespace tvm::ffi;
using cxx_api_test::ErrorOf;

namespace {

class ItemNode : public Object {
 public:
  explicit ItemNode(int v) : value(v) { ++live; }
  ~ItemNode() { --live; }
  int value;
  static int live;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.list.Item", ItemNode, Object);
};
int ItemNode::live = 0;
class Item : public ObjectRef {
 public:
  explicit Item(int v) : ObjectRef(make_object<ItemNode>(v)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Item, ObjectRef, ItemNode);
};

std::vector<int64_t> Values(const List<int64_t>& l) { return {l.begin(), l.end()}; }

}  // namespace

TEST_CASE("list: layout is upstream's", "[list]") {
  STATIC_REQUIRE(sizeof(List<int>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(ListObj) == 24 + sizeof(TVMFFISeqCell));
  List<int64_t> empty;
  const TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(empty.GetListObj());
  CHECK(cell->data == nullptr);
  CHECK(cell->capacity == 0);
  CHECK(cell->data_deleter != nullptr);
  CHECK(empty.GetListObj()->type_index() == kTVMFFIList);
  List<int64_t> l{1, 2};
  cell = TVMFFISeqGetCellPtr(l.GetListObj());
  CHECK(static_cast<const TVMFFIAny*>(cell->data)[1].v_int64 == 2);
}

TEST_CASE("list: shared and mutated in place", "[list]") {
  List<int64_t> a{1, 2, 3};
  List<int64_t> b = a;
  const Object* obj = a.get();
  b.Set(0, 100);
  b.push_back(4);  // changes the one object a also refers to
  CHECK(a.get() == obj);
  CHECK(Values(a) == std::vector<int64_t>{100, 2, 3, 4});
  CHECK(a.capacity() == 4);  // {1, 2, 3} got the default 4 slots
  a.insert(a.begin(), 0);
  a.erase(a.begin() + 1);
  CHECK(Values(b) == std::vector<int64_t>{0, 2, 3, 4});
  b.erase(b.begin(), b.begin() + 2);
  b.pop_back();
  CHECK(Values(a) == std::vector<int64_t>{3});
  a.resize(3);
  CHECK(a.size() == 3);
  a.clear();
  CHECK(b.empty());
}

TEST_CASE("list: errors", "[list]") {
  List<int64_t> l{1};
  CHECK(ErrorOf([&] { (void)l[1]; }) == "IndexError: Index 1 out of bounds 1");
  CHECK(ErrorOf([&] { l.Set(-1, 0); }) == "IndexError: Index -1 out of bounds 1");
  CHECK(ErrorOf([&] { l.resize(-2); }) == "ValueError: cannot resize a List to negative size");
  List<int64_t> empty;
  CHECK(ErrorOf([&] { empty.pop_back(); }) == "IndexError: pop_back on empty sequence");
  List<int64_t> null_list(UnsafeInit{});
  CHECK(ErrorOf([&] { (void)null_list.front(); }) == "IndexError: cannot index a null list");
  CHECK(ErrorOf([&] { null_list.pop_back(); }) == "RuntimeError: cannot pop_back a null list");
}

TEST_CASE("list: elements are freed exactly once", "[list]") {
  REQUIRE(ItemNode::live == 0);
  {
    Item x(1);
    List<Item> l{x};
    for (int i = 0; i < 10; ++i) l.push_back(Item(i));  // several regrowths
    CHECK(x.use_count() == 2);
    CHECK(ItemNode::live == 11);
    l.erase(l.begin());
    CHECK(x.use_count() == 1);
  }
  CHECK(ItemNode::live == 0);
}

TEST_CASE("list: Any conversion and runtime objects", "[list]") {
  List<int64_t> l{1, 2};
  Any held = l;
  CHECK(held.type_index() == kTVMFFIList);
  CHECK(held.cast<List<int64_t>>().get() == l.get());
  Array<int64_t> copy = held.cast<Array<int64_t>>();
  CHECK(copy.size() == 2);
  CHECK(ErrorOf([&] { (void)Any(String("s")).cast<List<int64_t>>(); }) ==
        "TypeError: Cannot convert from type `ffi.SmallStr` to `List<int>`");
  CHECK(TypeTraits<List<String>>::TypeStr() == "List<str>");
  // A list the runtime made, grown and mutated inline, read back by the runtime.
  List<int64_t> made = Function::GetGlobalRequired("ffi.List")(1, 2, 3).cast<List<int64_t>>();
  for (int64_t i = 4; i <= 20; ++i) made.push_back(i);
  CHECK(Function::GetGlobalRequired("ffi.ListSize")(made).cast<int64_t>() == 20);
  CHECK(Function::GetGlobalRequired("ffi.ListGetItem")(made, 19).cast<int64_t>() == 20);
  Function::GetGlobalRequired("ffi.ListAppend")(made, 21);
  CHECK(made.back() == 21);
}

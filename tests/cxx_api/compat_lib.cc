// Inline code of the public C++ headers in a library of its own, driven by
// compat_driver.c on our runtime and on upstream's: every object, type index,
// reference count and error here goes through whichever libtvm_ffi is loaded.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

using namespace tvm::ffi;

int g_alive = 0;

class ShapeNode : public Object {
 public:
  explicit ShapeNode(int v) : value(v) { ++g_alive; }
  ~ShapeNode() { --g_alive; }
  int value;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("cxx_api_compat.Shape", ShapeNode, Object);
};

class SquareNode final : public ShapeNode {
 public:
  explicit SquareNode(int v) : ShapeNode(v) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_compat.Square", SquareNode, ShapeNode);
};

class Shape : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Shape, ObjectRef, ShapeNode);
};

std::string g_failure;

#define COMPAT_EXPECT(cond)                                                  \
  do {                                                                       \
    if (!(cond) && g_failure.empty()) {                                      \
      g_failure = std::string(__FILE__ ":") + std::to_string(__LINE__) + ": " #cond; \
    }                                                                        \
  } while (0)

void CheckObjects() {
  int32_t square = SquareNode::RuntimeTypeIndex();
  TVMFFIByteArray key{"cxx_api_compat.Square", std::strlen("cxx_api_compat.Square")};
  int32_t looked_up = -1;
  COMPAT_EXPECT(TVMFFITypeKeyToIndex(&key, &looked_up) == 0 && looked_up == square);
  const TypeInfo* info = TVMFFIGetTypeInfo(square);
  COMPAT_EXPECT(info->type_depth == 2);
  COMPAT_EXPECT(info->type_ancestors[1]->type_index == ShapeNode::RuntimeTypeIndex());
  {
    ObjectPtr<Object> obj = make_object<SquareNode>(4);
    COMPAT_EXPECT(obj->IsInstance<ShapeNode>());
    COMPAT_EXPECT(obj->GetTypeKey() == "cxx_api_compat.Square");
    ObjectRef ref(obj);
    std::optional<Shape> shape = ref.as<Shape>();
    COMPAT_EXPECT(shape.has_value() && (*shape)->value == 4);
    COMPAT_EXPECT(obj.use_count() == 3);
    WeakObjectPtr<Object> weak = obj;
    // The runtime's own inc/dec on an inline object.
    TVMFFIObject* header = detail::ObjectUnsafe::GetHeader(obj.get());
    COMPAT_EXPECT(TVMFFIObjectIncRef(header) == 0);
    COMPAT_EXPECT(obj.use_count() == 4);
    COMPAT_EXPECT(TVMFFIObjectDecRef(header) == 0);
    shape.reset();
    ref = ObjectRef();
    obj.reset();
    COMPAT_EXPECT(weak.expired());
    COMPAT_EXPECT(g_alive == 0);
  }
}

void CheckErrors() {
  // Thrown and caught in this library.
  try {
    int n = 3;
    TVM_FFI_ICHECK_LT(n, 2) << "n is " << n;
    COMPAT_EXPECT(!"not thrown");
  } catch (const Error& err) {
    COMPAT_EXPECT(err.kind() == "InternalError");
    COMPAT_EXPECT(err.message() == "Check failed: n < 2 (3 vs. 2) : n is 3");
    // The backtrace comes from the runtime's TVMFFIBacktrace.
    COMPAT_EXPECT(err.backtrace().find("compat_lib.cc") != std::string::npos);
  }
  // Through the runtime's slot, then read back.
  Error made("ValueError", "through the slot", "");
  detail::SetSafeCallRaised(made);
  Error back = detail::MoveFromSafeCallRaised();
  COMPAT_EXPECT(back.same_as(made));
  COMPAT_EXPECT(made.use_count() == 2);
  // An error object made by the runtime, used as a C++ Error.
  TVMFFIByteArray kind{"KeyError", 8};
  TVMFFIByteArray msg{"missing", 7};
  TVMFFIByteArray trace{"", 0};
  TVMFFIObjectHandle handle = nullptr;
  COMPAT_EXPECT(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, &trace,
                                                          detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(made),
                                                          nullptr, &handle) == 0);
  if (handle != nullptr) {
    Error wrapped = detail::ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
        detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
    COMPAT_EXPECT(wrapped.kind() == "KeyError");
    COMPAT_EXPECT(std::string(wrapped.what()) == "missing");
    COMPAT_EXPECT(wrapped.cause_chain().has_value() && wrapped.cause_chain()->same_as(made));
    COMPAT_EXPECT(made.use_count() == 3);
    try {
      throw wrapped;
    } catch (const std::exception& exc) {
      COMPAT_EXPECT(std::string(exc.what()) == "missing");
    }
  }
  COMPAT_EXPECT(made.use_count() == 2);
}

// Containers: objects made inline here (Array, List, Tuple) read by the
// runtime's globals, and objects the runtime made (Array, List, small and
// dense Map, Dict) read and changed inline.
void CheckContainers() {
  Function array_size = Function::GetGlobalRequired("ffi.ArraySize");
  Function array_get = Function::GetGlobalRequired("ffi.ArrayGetItem");
  {
    ObjectPtr<Object> probe = make_object<SquareNode>(1);
    Array<ObjectRef> arr;
    for (int i = 0; i < 9; ++i) arr.push_back(ObjectRef(probe));
    COMPAT_EXPECT(probe.use_count() == 10);
    COMPAT_EXPECT(array_size(arr).cast<int64_t>() == 9);
    COMPAT_EXPECT(array_get(arr, 8).cast<ObjectRef>().get() == probe.get());
    Array<ObjectRef> copy = arr;
    copy.pop_back();  // copies: arr keeps all 9
    COMPAT_EXPECT(probe.use_count() == 18);
  }
  COMPAT_EXPECT(g_alive == 0);
  Array<int64_t> made = Function::GetGlobalRequired("ffi.Array")(1, 2, 3).cast<Array<int64_t>>();
  made.push_back(4);
  COMPAT_EXPECT(made.size() == 4 && made[3] == 4 && array_get(made, 0).cast<int64_t>() == 1);
  List<int64_t> list = Function::GetGlobalRequired("ffi.List")(1).cast<List<int64_t>>();
  for (int64_t i = 2; i <= 10; ++i) list.push_back(i);  // regrows the runtime's buffer
  COMPAT_EXPECT(Function::GetGlobalRequired("ffi.ListSize")(list).cast<int64_t>() == 10);
  COMPAT_EXPECT(Function::GetGlobalRequired("ffi.ListGetItem")(list, 9).cast<int64_t>() == 10);
  Tuple<int64_t, String> tuple(int64_t{5}, "five");
  COMPAT_EXPECT(array_get(tuple, 1).cast<String>() == "five");
  // Maps: small (up to 4 pairs) and dense forms, both read inline.
  Map<String, int64_t> small{{"a", 1}, {"b", 2}};
  COMPAT_EXPECT(small.at("b") == 2 && small.count("c") == 0);
  Map<String, int64_t> dense;
  for (int64_t i = 0; i < 100; ++i) dense.Set("k" + std::to_string(i), i);
  int64_t sum = 0, expect_next = 0;
  bool in_order = true;
  for (const auto& kv : dense) {
    sum += kv.second;
    in_order = in_order && kv.second == expect_next++;
  }
  COMPAT_EXPECT(dense.size() == 100 && sum == 4950 && in_order);
  COMPAT_EXPECT(dense.at("k57") == 57 && !dense.Get("k100").has_value());
  COMPAT_EXPECT(Function::GetGlobalRequired("ffi.MapGetItem")(dense, "k99").cast<int64_t>() == 99);
  Dict<String, int64_t> dict;
  for (int64_t i = 0; i < 50; ++i) dict.Set("d" + std::to_string(i), i);
  dict.erase("d0");
  COMPAT_EXPECT(dict.size() == 49 && dict.at("d49") == 49 && dict.count("d0") == 0);
}

}  // namespace

/*! \brief Runs every check; 0 on success, else 1 with the first failure in `out`. */
extern "C" int tvm_ffi_cxx_api_compat_run(char* out, size_t out_size) {
  g_failure.clear();
  try {
    CheckObjects();
    CheckErrors();
    CheckContainers();
  } catch (const std::exception& exc) {
    g_failure = std::string("unexpected exception: ") + exc.what();
  }
  std::snprintf(out, out_size, "%s", g_failure.c_str());
  return g_failure.empty() ? 0 : 1;
}

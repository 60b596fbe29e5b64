// Releasing deep object graphs: deaths nest at most Object::kMaxReleaseDepth
// deep on the stack, the rest are deferred (object.h, ReleaseDead), and every
// object is still destroyed exactly once before the outermost release returns.
#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include "test_util.h"
#include "core/impl/array.h"
#include "core/impl/list.h"
#include "core/impl/map.h"

using namespace tvm::ffi::detail::impl;
using namespace test_util;

namespace {

// A node holding one child; its destructor records how deep it died.
class ChainNodeObj : public Object {
 public:
  TVM_FFI_IMPL_DECLARE_DYNAMIC_TYPE(ChainNodeObj, "testing.release.ChainNode", PlainObject)
  ChainNodeObj(ObjectPtr<Object> child, int* destroyed)
      : child_(std::move(child)), destroyed_(destroyed) {}
  ~ChainNodeObj() {
    ++*destroyed_;
    max_depth = std::max(max_depth, Object::release_depth());
  }
  static inline int32_t max_depth = 0;

 private:
  ObjectPtr<Object> child_;
  int* destroyed_;
};

// The owning TVMFFIAny of an object pointer (takes the reference over).
TVMFFIAny ObjectPtrToRaw(ObjectPtr<Object> obj) {
  TVMFFIAny raw;
  AnyZero(&raw);
  raw.type_index = obj->type_index();
  raw.v_obj = static_cast<TVMFFIObject*>(obj.release_handle());
  return raw;
}

// An opaque object counting its deletion into *counter, without Catch
// assertions (usable off the main thread).
ObjectPtr<Object> CountedNoCheck(int* counter) {
  TVMFFIObjectHandle h = nullptr;
  if (TVMFFIObjectCreateOpaque(counter, kTVMFFIOpaquePyObject, &CountingDeleter, &h) != 0) {
    return ObjectPtr<Object>();
  }
  return ObjectPtr<Object>::AdoptHandle(h);
}

// An Array chain [[[...[leaf]...]]] `depth` deep, made with the header-only layer.
ObjectPtr<Object> ArrayChain(ObjectPtr<Object> leaf, int64_t depth) {
  ObjectPtr<Object> cur = std::move(leaf);
  for (int64_t i = 0; i < depth; ++i) {
    ObjectPtr<ArrayObj> a = ArrayObj::Make(1);
    a->PushOwned(ObjectPtrToRaw(std::move(cur)));
    cur = std::move(a);
  }
  return cur;
}

}  // namespace

TEST_CASE("Release: a 1 000 000 deep Array chain is released without deep recursion",
          "[release]") {
  int leaf_deleted = 0;
  ObjectPtr<Object> chain = ArrayChain(MakeCounted(&leaf_deleted).data(), 1000000);
  CHECK(leaf_deleted == 0);
  chain.Reset();
  CHECK(leaf_deleted == 1);
  CHECK(Object::release_depth() == 0);
  CHECK(Object::deferred_release_count() == 0);
}

TEST_CASE("Release: a 1 000 000 deep List chain is released without deep recursion",
          "[release]") {
  int leaf_deleted = 0;
  ObjectPtr<Object> cur = MakeCounted(&leaf_deleted).data();
  for (int i = 0; i < 1000000; ++i) {
    ObjectPtr<ListObj> l = ListObj::Make();
    l->Append(ObjectPtrToRaw(std::move(cur)));
    cur = std::move(l);
  }
  cur.Reset();
  CHECK(leaf_deleted == 1);
  CHECK(Object::deferred_release_count() == 0);
}

TEST_CASE("Release: an Array chain built through the ffi.Array global (library deleters)",
          "[release]") {
  int leaf_deleted = 0;
  Function make = Function::GetGlobalRequired("ffi.Array");
  Any cur = make(MakeCounted(&leaf_deleted));
  for (int i = 0; i < 300000; ++i) cur = make(cur);
  cur = Any();
  CHECK(leaf_deleted == 1);
}

TEST_CASE("Release: chains alternating library-made and header-made objects", "[release]") {
  int leaf_deleted = 0;
  Function make = Function::GetGlobalRequired("ffi.List");
  ObjectPtr<Object> cur = MakeCounted(&leaf_deleted).data();
  for (int i = 0; i < 200000; ++i) {
    cur = ArrayChain(std::move(cur), 1);
    Any l = make(ObjectRef(std::move(cur)));
    cur = ObjectPtr<Object>::BorrowHandle(l.raw()->v_obj);
  }
  cur.Reset();
  CHECK(leaf_deleted == 1);
}

TEST_CASE("Release: a 100 000 deep Map chain built through ffi.Map", "[release]") {
  // Map(0 -> Map(0 -> ... Map(0 -> leaf))).  Passes once the Map/Dict
  // table releases its keys and values through Object::DecRef / AnyRelease.
  int leaf_deleted = 0;
  Function make = Function::GetGlobalRequired("ffi.Map");
  Any cur = make(int64_t(0), MakeCounted(&leaf_deleted));
  for (int i = 0; i < 100000; ++i) cur = make(int64_t(0), cur);
  cur = Any();
  CHECK(leaf_deleted == 1);
}

TEST_CASE("Release: nested deaths never exceed kMaxReleaseDepth; each node dies once",
          "[release]") {
  const int kDepth = 50000;
  int destroyed = 0;
  ChainNodeObj::max_depth = 0;
  ObjectPtr<Object> cur;
  for (int i = 0; i < kDepth; ++i) cur = MakeObject<ChainNodeObj>(std::move(cur), &destroyed);
  cur.Reset();
  CHECK(destroyed == kDepth);
  CHECK(ChainNodeObj::max_depth == Object::kMaxReleaseDepth);
  CHECK(Object::release_depth() == 0);
}

TEST_CASE("Release: a shallow release runs its deleter at once, not deferred", "[release]") {
  int destroyed = 0;
  ChainNodeObj::max_depth = 0;
  ObjectPtr<Object> two = MakeObject<ChainNodeObj>(
      ObjectPtr<Object>(MakeObject<ChainNodeObj>(ObjectPtr<Object>(), &destroyed)), &destroyed);
  two.Reset();
  CHECK(destroyed == 2);
  CHECK(ChainNodeObj::max_depth == 2);
  CHECK(Object::deferred_release_count() == 0);
}

TEST_CASE("Release: deferred objects with live weak references are freed by the last weak one",
          "[release]") {
  // Nodes deep in the chain keep a weak reference each, so their deaths go
  // through the strong-only path; they must not be promotable afterwards.
  const int kDepth = 10000;
  int destroyed = 0;
  std::vector<TVMFFIObject*> weak;
  ObjectPtr<Object> cur;
  for (int i = 0; i < kDepth; ++i) {
    cur = MakeObject<ChainNodeObj>(std::move(cur), &destroyed);
    if (i % 1000 == 0) {
      Object::IncWeakRef(&cur->header_);
      weak.push_back(&cur->header_);
    }
  }
  cur.Reset();
  CHECK(destroyed == kDepth);
  for (TVMFFIObject* w : weak) {
    CHECK(reinterpret_cast<Object*>(w)->use_count() == 0);
    CHECK(reinterpret_cast<Object*>(w)->weak_count() == 1);
    CHECK_FALSE(Object::TryPromoteWeak(w));
    Object::DecWeakRef(w);  // frees the storage (ASan checks it happens once)
  }
}

TEST_CASE("Release: deep chains released on several threads at once", "[release]") {
  std::vector<int> deleted(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &deleted] {
      ObjectPtr<Object> chain = ArrayChain(CountedNoCheck(&deleted[t]), 100000);
      chain.Reset();
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(deleted == std::vector<int>{1, 1, 1, 1});
}

// Releasing deep object graphs.  Objects the library makes (ffi.Array,
// ffi.List, ffi.Map, ...) release what they hold through the library's
// reference counting, which nests at most kMaxReleaseDepth deaths on one
// thread's stack and defers the rest to the outermost release
// (core/object_internal.h); every object is still destroyed exactly once
// before that outermost release returns.
//
// The depth is not visible through tvm::ffi, so these tests measure what it
// is for: how far below the releasing frame a death runs
// (__builtin_frame_address; the stack grows down on every target we build).
// Objects made here with make_object release their fields through the
// header's own DecRef, which nests; a chain stays shallow as long as the
// library's objects are in it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

// The number of deaths the library nests before it defers (its
// kMaxReleaseDepth).
constexpr int kLibraryMaxReleaseDepth = 64;
// Generous room for the nested deaths of one release, even under ASan: a
// chain without the bound needs hundreds of bytes per object, so the
// chains below (50 000 objects and more) would go far past it.
constexpr uintptr_t kStackBudget = uintptr_t(1) << 20;

uintptr_t FrameAddress() {
  return reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
}

// The lowest frame address a death recorded (the deepest point of the stack
// reached while releasing).
thread_local uintptr_t lowest_frame = UINTPTR_MAX;

// An opaque object the library makes: its deleter counts into *counter and
// records its frame.
void CountingFrameDeleter(void* counter) {
  ++*static_cast<int*>(counter);
  lowest_frame = std::min(lowest_frame, FrameAddress());
}
Any CountedLeaf(int* counter) {
  TVMFFIObjectHandle h = nullptr;
  if (TVMFFIObjectCreateOpaque(counter, kTVMFFIOpaquePyObject, &CountingFrameDeleter, &h) != 0) {
    throw details::MoveFromSafeCallRaised();
  }
  return RefOf<ObjectRef>(AdoptHandle(h));
}

// [[[...[leaf]...]]], `depth` ffi.Array objects deep, made by the library.
Any LibraryArrayChain(Any leaf, int depth) {
  Function make = Function::GetGlobalRequired("ffi.Array");
  Any cur = std::move(leaf);
  for (int i = 0; i < depth; ++i) cur = make(cur);
  return cur;
}

// A node made here, holding one child; its destructor records its number
// and frame.
class ChainNodeObj : public Object {
 public:
  ChainNodeObj(int id, Any child, std::vector<int>* deaths, std::vector<uintptr_t>* frames)
      : id_(id), child_(std::move(child)), deaths_(deaths), frames_(frames) {}
  ~ChainNodeObj() {
    ++(*deaths_)[static_cast<size_t>(id_)];
    (*frames_)[static_cast<size_t>(id_)] = FrameAddress();
  }

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.release.ChainNode", ChainNodeObj, Object);

 private:
  int id_;
  Any child_;
  std::vector<int>* deaths_;
  std::vector<uintptr_t>* frames_;
};

// node[n-1] -> ffi.Array -> node[n-2] -> ffi.Array -> ... -> node[0]: nodes
// made here, each holding a one-element array the library made.
ObjectRef NodeChain(int n, std::vector<int>* deaths, std::vector<uintptr_t>* frames) {
  Function make = Function::GetGlobalRequired("ffi.Array");
  deaths->assign(static_cast<size_t>(n), 0);
  frames->assign(static_cast<size_t>(n), 0);
  Any child;
  for (int i = 0; i < n; ++i) {
    ObjectRef node(make_object<ChainNodeObj>(i, std::move(child), deaths, frames));
    child = make(node);
  }
  // The outermost array's only element.
  return child.cast<Array<ObjectRef>>()[0];
}

}  // namespace

TEST_CASE("Release: a 1 000 000 deep ffi.Array chain is released without deep recursion",
          "[release]") {
  int leaf_deleted = 0;
  lowest_frame = UINTPTR_MAX;
  Any chain = LibraryArrayChain(CountedLeaf(&leaf_deleted), 1000000);
  CHECK(leaf_deleted == 0);
  uintptr_t here = FrameAddress();
  chain = Any();
  CHECK(leaf_deleted == 1);
  REQUIRE(lowest_frame < here);
  CHECK(here - lowest_frame < kStackBudget);
}

TEST_CASE("Release: a 1 000 000 deep ffi.List chain is released without deep recursion",
          "[release]") {
  int leaf_deleted = 0;
  lowest_frame = UINTPTR_MAX;
  Function make = Function::GetGlobalRequired("ffi.List");
  Any cur = CountedLeaf(&leaf_deleted);
  for (int i = 0; i < 1000000; ++i) cur = make(cur);
  uintptr_t here = FrameAddress();
  cur = Any();
  CHECK(leaf_deleted == 1);
  REQUIRE(lowest_frame < here);
  CHECK(here - lowest_frame < kStackBudget);
}

TEST_CASE("Release: chains alternating library-made and header-made objects", "[release]") {
  // ffi.List (the library's) around Array<Any> (made here by the header,
  // released through the header's DecRef) around ffi.List ...
  int leaf_deleted = 0;
  lowest_frame = UINTPTR_MAX;
  Function make = Function::GetGlobalRequired("ffi.List");
  Any cur = CountedLeaf(&leaf_deleted);
  for (int i = 0; i < 200000; ++i) cur = make(Array<Any>{cur});
  uintptr_t here = FrameAddress();
  cur = Any();
  CHECK(leaf_deleted == 1);
  REQUIRE(lowest_frame < here);
  CHECK(here - lowest_frame < kStackBudget);
}

TEST_CASE("Release: a 100 000 deep Map chain built through ffi.Map", "[release]") {
  // Map(0 -> Map(0 -> ... Map(0 -> leaf))): the Map table releases its keys
  // and values through the library's reference counting too.
  int leaf_deleted = 0;
  lowest_frame = UINTPTR_MAX;
  Function make = Function::GetGlobalRequired("ffi.Map");
  Any cur = make(int64_t(0), CountedLeaf(&leaf_deleted));
  for (int i = 0; i < 100000; ++i) cur = make(int64_t(0), cur);
  uintptr_t here = FrameAddress();
  cur = Any();
  CHECK(leaf_deleted == 1);
  REQUIRE(lowest_frame < here);
  CHECK(here - lowest_frame < kStackBudget);
}

TEST_CASE("Release: nested deaths stay within the library's depth; each node dies once",
          "[release]") {
  const int kDepth = 50000;
  std::vector<int> deaths;
  std::vector<uintptr_t> frames;
  ObjectRef top = NodeChain(kDepth, &deaths, &frames);
  CHECK(std::count(deaths.begin(), deaths.end(), 0) == kDepth);
  uintptr_t here = FrameAddress();
  top = ObjectRef();
  // Every node died exactly once, before the release returned.
  CHECK(std::count(deaths.begin(), deaths.end(), 1) == kDepth);
  // Node i-1 died inside node i's death when its frame is below node i's;
  // the library lets kLibraryMaxReleaseDepth deaths nest, then defers the
  // next one, which runs near the top of the stack again.
  int run = 1, longest_run = 1, deferred = 0;
  uintptr_t lowest = here;
  for (int i = kDepth - 1; i >= 0; --i) {
    lowest = std::min(lowest, frames[static_cast<size_t>(i)]);
    if (i == kDepth - 1) continue;
    if (frames[static_cast<size_t>(i)] < frames[static_cast<size_t>(i) + 1]) {
      longest_run = std::max(longest_run, ++run);
    } else {
      run = 1;
      ++deferred;
    }
  }
  CHECK(here - lowest < kStackBudget);
  CHECK(longest_run == kLibraryMaxReleaseDepth + 1);
  CHECK(deferred >= kDepth / (kLibraryMaxReleaseDepth + 1));
}

TEST_CASE("Release: a shallow release runs the deaths at once, nested", "[release]") {
  std::vector<int> deaths;
  std::vector<uintptr_t> frames;
  ObjectRef two = NodeChain(2, &deaths, &frames);
  two = ObjectRef();
  CHECK(deaths == std::vector<int>{1, 1});
  // Node 0 died inside node 1's death (not deferred until after it).
  CHECK(frames[0] < frames[1]);
}

TEST_CASE("Release: deferred objects with live weak references are freed by the last weak one",
          "[release]") {
  // Arrays deep in the chain keep a weak reference each, so their deaths go
  // through the strong-only path (destroy, then drop the shared weak
  // reference); they must not be promotable afterwards.
  const int kDepth = 10000;
  int leaf_deleted = 0;
  Function make = Function::GetGlobalRequired("ffi.Array");
  std::vector<WeakObjectPtr<Object>> weak;
  Any cur = CountedLeaf(&leaf_deleted);
  for (int i = 0; i < kDepth; ++i) {
    cur = make(cur);
    if (i % 1000 == 0) weak.emplace_back(BorrowHandle(HandleOf(cur)));
  }
  REQUIRE(weak.size() == 10);
  for (const WeakObjectPtr<Object>& w : weak) CHECK(w.use_count() == 1);  // its parent's
  cur = Any();
  CHECK(leaf_deleted == 1);
  for (WeakObjectPtr<Object>& w : weak) {
    CHECK(w.expired());
    CHECK(w.use_count() == 0);
    CHECK(w.lock().get() == nullptr);
    w.reset();  // frees the storage (ASan checks it happens once)
  }
}

TEST_CASE("Release: deep chains released on several threads at once", "[release]") {
  std::vector<int> deleted(4, 0);
  std::vector<uintptr_t> depth(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    // No Catch assertions off the main thread.
    threads.emplace_back([t, &deleted, &depth] {
      lowest_frame = UINTPTR_MAX;
      Any chain = LibraryArrayChain(CountedLeaf(&deleted[static_cast<size_t>(t)]), 100000);
      uintptr_t here = FrameAddress();
      chain = Any();
      depth[static_cast<size_t>(t)] = here - lowest_frame;
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(deleted == std::vector<int>{1, 1, 1, 1});
  for (uintptr_t d : depth) CHECK(d < kStackBudget);
}

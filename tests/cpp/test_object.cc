// Objects: the reference-count protocol, deleter flags, opaque objects.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <optional>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using test_util::AdoptHandle;
using test_util::BorrowHandle;
using test_util::ErrorOf;
using tvm::ffi::details::ObjectUnsafe;

constexpr uint64_t kInitialCount = tvm::ffi::details::kCombinedRefCountBothOne;

namespace {

// A hand-built object with a deleter that records its calls.
struct Recorder {
  TVMFFIObject header;
  std::vector<int> calls;
};

void RecordingDeleter(void* self, int flags) {
  reinterpret_cast<Recorder*>(self)->calls.push_back(flags);
}

Recorder MakeRecorder() {
  Recorder r{};
  r.header.combined_ref_count = kInitialCount;
  r.header.type_index = kTVMFFIObject;
  TVM_FFI_OBJECT_DELETER(&r.header) = &RecordingDeleter;
  return r;
}

int g_opaque_deleted = 0;
void OpaqueDeleter(void* handle) {
  ++g_opaque_deleted;
  CHECK(handle == &g_opaque_deleted);
}

// A polymorphic object: its vtable pointer comes first, so the Object base
// (and the header) sit 8 bytes into the allocation.
int g_poly_destroyed = 0;
class PolyObj : public Object {
 public:
  virtual ~PolyObj() { ++g_poly_destroyed; }
  virtual int Tag() const { return 7; }
  TVM_FFI_DECLARE_OBJECT_INFO("testing.object.Poly", PolyObj, Object);
};

}  // namespace

TEST_CASE("Object: last strong and weak reference call the deleter once with Both",
          "[object]") {
  Recorder r = MakeRecorder();
  TVMFFIObjectIncRef(&r.header);
  CHECK(r.header.combined_ref_count == ((uint64_t(1) << 32) | 2));
  TVMFFIObjectDecRef(&r.header);
  CHECK(r.calls.empty());
  TVMFFIObjectDecRef(&r.header);
  REQUIRE(r.calls.size() == 1);
  CHECK(r.calls[0] == kTVMFFIObjectDeleterFlagBitMaskBoth);
}

TEST_CASE("Object: a weak reference splits destruction from freeing", "[object]") {
  Recorder r = MakeRecorder();
  // A tvm::ffi::WeakObjectPtr adds the weak reference (the strong one its
  // ObjectPtr took is given back at once).
  std::optional<WeakObjectPtr<Object>> weak;
  weak.emplace(BorrowHandle(&r.header));
  TVMFFIObjectDecRef(&r.header);
  REQUIRE(r.calls.size() == 1);
  CHECK(r.calls[0] == kTVMFFIObjectDeleterFlagBitMaskStrong);
  CHECK(weak->lock() == nullptr);
  weak.reset();
  REQUIRE(r.calls.size() == 2);
  CHECK(r.calls[1] == kTVMFFIObjectDeleterFlagBitMaskWeak);
}

TEST_CASE("Object: a polymorphic object outlived by a weak reference is freed from its start",
          "[object]") {
  // The weak-only deleter call comes after the destructor; it must free the
  // block the allocator returned (ASan checks the address) without touching
  // the dead object's vtable (UBSan's vptr check would report a downcast).
  g_poly_destroyed = 0;
  ObjectPtr<PolyObj> strong = make_object<PolyObj>();
  const void* header = ObjectUnsafe::GetHeader(strong.get());
  CHECK(header != static_cast<const void*>(strong.get()));
  CHECK(strong->Tag() == 7);
  WeakObjectPtr<PolyObj> weak(strong);
  strong.reset();
  CHECK(g_poly_destroyed == 1);
  CHECK(weak.expired());
  weak.reset();
  CHECK(g_poly_destroyed == 1);
}

TEST_CASE("Object: weak promotion succeeds while strong references exist", "[object]") {
  Recorder r = MakeRecorder();
  std::optional<WeakObjectPtr<Object>> weak;
  weak.emplace(BorrowHandle(&r.header));
  ObjectPtr<Object> promoted = weak->lock();
  CHECK(promoted != nullptr);
  CHECK((r.header.combined_ref_count & 0xFFFFFFFFu) == 2);
  (void)ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(promoted));  // now a raw reference
  TVMFFIObjectDecRef(&r.header);
  TVMFFIObjectDecRef(&r.header);
  weak.reset();
  CHECK(r.calls == std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskStrong,
                                    kTVMFFIObjectDeleterFlagBitMaskWeak});
}

TEST_CASE("Object: DecRef(NULL) is a no-op and a NULL deleter is allowed", "[object]") {
  CHECK(TVMFFIObjectDecRef(nullptr) == 0);
  TVMFFIObject arena{};
  arena.combined_ref_count = kInitialCount;
  arena.type_index = kTVMFFIObject;
  CHECK(TVMFFIObjectDecRef(&arena) == 0);
  // The last strong reference hands "both" to the deleter in one step; the
  // weak word is not touched again.
  CHECK(arena.combined_ref_count == (uint64_t(1) << 32));
}

TEST_CASE("Object: counts stay exact under concurrent IncRef/DecRef", "[object]") {
  Recorder r = MakeRecorder();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i) {
        TVMFFIObjectIncRef(&r.header);
        TVMFFIObjectDecRef(&r.header);
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(r.header.combined_ref_count == kInitialCount);
  CHECK(r.calls.empty());
  TVMFFIObjectDecRef(&r.header);
  CHECK(r.calls == std::vector<int>{kTVMFFIObjectDeleterFlagBitMaskBoth});
}

TEST_CASE("Object: MakeObject writes the header", "[object]") {
  ObjectPtr<Object> p = make_object<Object>();
  const TVMFFIObject* header = ObjectUnsafe::GetHeader(p.get());
  CHECK(header->combined_ref_count == kInitialCount);
  CHECK(header->type_index == kTVMFFIObject);
  CHECK(header->zero_padding == 0);
  CHECK(TVM_FFI_OBJECT_DELETER(header) != nullptr);
  ObjectPtr<Object> q = p;
  CHECK(p.use_count() == 2);
  q.reset();
  CHECK(p.use_count() == 1);
}

TEST_CASE("Object: opaque objects run their deleter once with the handle", "[object]") {
  g_opaque_deleted = 0;
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIObjectCreateOpaque(&g_opaque_deleted, kTVMFFIOpaquePyObject, &OpaqueDeleter,
                                   &h) == 0);
  CHECK(TVMFFIObjectGetTypeIndex(h) == kTVMFFIOpaquePyObject);
  CHECK(TVMFFIOpaqueObjectGetCellPtr(h)->handle == &g_opaque_deleted);
  TVMFFIObjectIncRef(h);
  TVMFFIObjectDecRef(h);
  CHECK(g_opaque_deleted == 0);
  TVMFFIObjectDecRef(h);
  CHECK(g_opaque_deleted == 1);
}

TEST_CASE("Object: opaque objects of another type index are refused", "[object]") {
  TVMFFIObjectHandle h = nullptr;
  CHECK(TVMFFIObjectCreateOpaque(nullptr, kTVMFFIArray, nullptr, &h) == -1);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  REQUIRE(err != nullptr);
  Error e = ErrorOf(AdoptHandle(err));
  CHECK(e.kind() == "RuntimeError");
  CHECK(e.message() ==
        "TVMFFIObjectCreateOpaque: type_index must be 74 (ffi.OpaquePyObject), got 71");
}

TEST_CASE("Object: version and the dormant custom allocator", "[object]") {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  CHECK(v.major == TVM_FFI_VERSION_MAJOR);
  CHECK(v.minor == TVM_FFI_VERSION_MINOR);
  CHECK(v.patch == TVM_FFI_VERSION_PATCH);

  TVMFFICustomAllocator* def = TVMFFIGetCustomAllocator();
  REQUIRE(def != nullptr);
  void* body = def->allocate(40, 8, kTVMFFIObject, def->context);
  REQUIRE(body != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(body) % 16 == 0);
  auto* header = reinterpret_cast<TVMFFIObjectAllocHeader*>(static_cast<char*>(body) - 8);
  header->delete_space(body);

  TVMFFICustomAllocator mine = {def->allocate, &v};
  CHECK(TVMFFISetCustomAllocator(&mine) == 0);
  CHECK(TVMFFIGetCustomAllocator() == &mine);
  CHECK(TVMFFISetCustomAllocator(nullptr) == 0);
  CHECK(TVMFFIGetCustomAllocator() == def);
}

namespace {
std::atomic<int> g_init_calls{0};
int InitTwice(void** out) {
  ++g_init_calls;
  *out = &g_init_calls;
  return 0;
}
int InitNull(void** out) {
  *out = nullptr;
  return 0;
}
int DeinitCount(void* handle) {
  CHECK(handle == &g_init_calls);
  return 7;
}
}  // namespace

TEST_CASE("Object: HandleInitOnce runs the initialiser once across threads", "[object]") {
  void* handle = nullptr;
  std::atomic<int> failures{0};  // Catch2 assertions are not thread-safe
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      if (TVMFFIHandleInitOnce(&handle, &InitTwice) != 0) ++failures;
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures.load() == 0);
  CHECK(g_init_calls == 1);
  CHECK(handle == &g_init_calls);
  CHECK(TVMFFIHandleDeinitOnce(&handle, &DeinitCount) == 7);
  CHECK(handle == nullptr);
  CHECK(TVMFFIHandleDeinitOnce(&handle, &DeinitCount) == 0);

  void* other = nullptr;
  CHECK(TVMFFIHandleInitOnce(&other, &InitNull) == -1);
  TVMFFIObjectHandle err = nullptr;
  TVMFFIErrorMoveFromRaised(&err);
  REQUIRE(err != nullptr);
  Error e = ErrorOf(AdoptHandle(err));
  CHECK(e.kind() == "RuntimeError");
  CHECK(e.message() == "TVMFFIHandleInitOnce: init_func succeeded but produced NULL");
}

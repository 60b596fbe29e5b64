// Eight threads at once registering types, globals and attributes, calling,
// raising, creating and releasing shared objects, and racing one-time
// initialisation.  `make tsan` runs this under ThreadSanitizer, where any
// data race fails the run; in the normal suites it checks the results.
//
// Catch2 is not thread-safe: the threads only count, and the main thread
// checks the counts after joining.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

using namespace tvm::ffi;
using namespace test_util;

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 200;
constexpr int kTypes = 25;  // types registered per thread (the registry keeps them)

TVMFFIByteArray KeyBytes(const std::string& s) { return TVMFFIByteArray{s.data(), s.size()}; }

std::atomic<int> g_init_calls{0};
int InitOnce(void** result) {
  g_init_calls.fetch_add(1);
  static int token = 0;
  *result = &token;
  return 0;
}

// Reads slot `index` of the attribute column `name` with the documented
// acquire protocol (size, then data, then the slot's type index).  Returns
// the int stored there, or -1 when absent.
int64_t ReadAttr(const char* name, int32_t index) {
  TVMFFIByteArray n{name, std::strlen(name)};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&n);
  if (col == nullptr) return -1;
  int32_t size = __atomic_load_n(&col->size, __ATOMIC_ACQUIRE);
  const TVMFFIAny* data = __atomic_load_n(&col->data, __ATOMIC_ACQUIRE);
  int32_t slot = index - col->begin_index;
  if (slot < 0 || slot >= size) return -1;
  int32_t type = __atomic_load_n(&data[slot].type_index, __ATOMIC_ACQUIRE);
  if (type != kTVMFFIInt) return -1;
  return __atomic_load_n(&data[slot].v_int64, __ATOMIC_RELAXED);
}

struct Counts {
  std::atomic<int> failures{0};
  std::atomic<int> raised{0};
  std::atomic<int> calls{0};
  void Fail() { failures.fetch_add(1); }
};

void Worker(int id, const Array<Any>& shared, Counts* counts, void** once_handle,
            std::atomic<bool>* go) {
  while (!go->load()) std::this_thread::yield();
  Function make_array = Function::GetGlobalRequired("ffi.Array");
  Function make_map = Function::GetGlobalRequired("ffi.Map");
  std::string own_global = "stress.own" + std::to_string(id);
  for (int round = 0; round < kRounds; ++round) {
    // Init-once, raced by all threads in the first round.
    if (TVMFFIHandleInitOnce(once_handle, &InitOnce) != 0 || *once_handle == nullptr) {
      counts->Fail();
    }

    // Registering: one shared type key (idempotent) and a type per thread
    // and round, with an attribute in a shared column.
    std::string shared_key = "stress.Shared";
    TVMFFIByteArray sk = KeyBytes(shared_key);
    int32_t shared_index = TVMFFITypeGetOrAllocIndex(&sk, -1, 1, 0, 1, kTVMFFIObject);
    std::string key = "stress.T" + std::to_string(id) + "_" + std::to_string(round % kTypes);
    TVMFFIByteArray k = KeyBytes(key);
    int32_t index = TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 1, kTVMFFIObject);
    if (shared_index < 0 || index < 0) counts->Fail();
    if (round < kTypes) {
      TVMFFIAny value;
      std::memset(&value, 0, sizeof(value));
      value.type_index = kTVMFFIInt;
      value.v_int64 = index;
      TVMFFIByteArray attr{"stress.attr", 11};
      if (TVMFFITypeRegisterAttr(index, &attr, &value) != 0) counts->Fail();
    }
    if (ReadAttr("stress.attr", index) != index) counts->Fail();
    // Another thread's earlier registration, read while this column grows.
    ReadAttr("stress.attr", index - 1);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    if (info == nullptr || info->type_index != index) counts->Fail();

    // Globals: a shared name overridden by everyone, and one of our own.
    int64_t tag = id * 100000 + round;
    Function f = Function::FromTyped([tag](int64_t x) { return x + tag; }, "stress.f");
    TVMFFIByteArray shared_name{"stress.shared", 13};
    if (TVMFFIFunctionSetGlobal(&shared_name, HandleOf(f), 1) != 0) counts->Fail();
    TVMFFIByteArray own = KeyBytes(own_global);
    if (TVMFFIFunctionSetGlobal(&own, HandleOf(f), 1) != 0) counts->Fail();
    std::optional<Function> g = Function::GetGlobal("stress.shared");
    if (!g.has_value() || (*g)(int64_t(1)).cast<int64_t>() < 1) counts->Fail();
    if (Function::GetGlobalRequired(own_global)(int64_t(0)).cast<int64_t>() != tag) counts->Fail();
    counts->calls.fetch_add(1);

    // Raising: every thread's error slot is its own.
    Function thrower = Function::FromTyped(
        [id](int64_t r) -> int64_t {
          TVM_FFI_THROW(ValueError) << "stress " << id << " round " << r;
          return r;  // not reached
        },
        "stress.thrower");
    std::string expected = "ValueError: stress " + std::to_string(id) + " round " +
                           std::to_string(round);
    if (ThrownBy([&] { thrower(int64_t(round)); }) != expected) counts->Fail();
    counts->raised.fetch_add(1);

    // Creating and releasing: the shared array's elements and the array
    // itself gain and lose references on every thread.
    Any copy = make_array(shared, shared[0], shared[1]);
    Any map = make_map(int64_t(round), copy, "key", shared);
    Array<Any> local = copy.cast<Array<Any>>();
    if (local.size() != 3) counts->Fail();
    List<Any> list;
    for (int i = 0; i < 8; ++i) list.push_back(shared[i % shared.size()]);
    // Weak references taken and promoted concurrently.
    {
      WeakObjectPtr<Object> weak(BorrowHandle(HandleOf(shared)));
      if (weak.lock() == nullptr) counts->Fail();
    }
  }
}

}  // namespace

TEST_CASE("Threads: registering, calling, raising, creating and releasing at once",
          "[threads]") {
  Array<Any> shared{Any(String("a shared string, long enough to be a heap object")),
                    Any(Array<Any>{Any(int64_t(1)), Any(int64_t(2))}), Any(int64_t(7))};
  int before = shared.use_count();
  Counts counts;
  void* once_handle = nullptr;
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back(Worker, t, std::cref(shared), &counts, &once_handle, &go);
  }
  go.store(true);
  for (std::thread& th : threads) th.join();
  CHECK(counts.failures.load() == 0);
  CHECK(counts.calls.load() == kThreads * kRounds);
  CHECK(counts.raised.load() == kThreads * kRounds);
  CHECK(g_init_calls.load() == 1);
  CHECK(shared.use_count() == before);
  // The weak count is the upper 32 bits of the combined count.
  CHECK((ObjectUnsafe::GetHeader(shared.get())->combined_ref_count >> 32) == 1);
  // Every thread's last attribute is there.
  for (int t = 0; t < kThreads; ++t) {
    std::string key = "stress.T" + std::to_string(t) + "_" + std::to_string(kTypes - 1);
    TVMFFIByteArray k = KeyBytes(key);
    int32_t index = -1;
    REQUIRE(TVMFFITypeKeyToIndex(&k, &index) == 0);
    CHECK(ReadAttr("stress.attr", index) == index);
  }
  Function::GetGlobalRequired("ffi.FunctionRemoveGlobal")("stress.shared");
  for (int t = 0; t < kThreads; ++t) {
    Function::GetGlobalRequired("ffi.FunctionRemoveGlobal")("stress.own" + std::to_string(t));
  }
}

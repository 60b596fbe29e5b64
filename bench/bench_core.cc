// Core benchmark: nanoseconds per operation for the basic ABI paths (calls,
// objects, strings, arrays, errors).  Each figure is the best of several
// timed runs of a loop long enough to take >= 20 ms, on std::chrono::steady_clock.
// Run it with `make bench`; docs/performance.md records the figures.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <tvm/ffi/c_api.h>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

namespace {

using namespace tvm::ffi;  // NOLINT(build/namespaces)

// Keeps the compiler from deleting a computation whose value is unused.
template <typename T>
inline void DoNotOptimize(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

constexpr int kRuns = 7;
constexpr double kMinRunSeconds = 0.02;

struct Result {
  std::string name;
  double ns_per_op;
  int64_t iterations;
};

// Times `body` (one operation per call): doubles the iteration count until a
// run takes kMinRunSeconds, then keeps the best of kRuns runs.
template <typename F>
Result Measure(const std::string& name, F body) {
  using Clock = std::chrono::steady_clock;
  auto run = [&](int64_t n) {
    Clock::time_point start = Clock::now();
    for (int64_t i = 0; i < n; ++i) body();
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  int64_t n = 1000;
  while (run(n) < kMinRunSeconds) n *= 2;
  double best = 1e300;
  for (int r = 0; r < kRuns; ++r) best = std::min(best, run(n));
  return Result{name, best * 1e9 / static_cast<double>(n), n};
}

// A C function doing nothing, in the safe-call convention.
int NoOp(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return 0; }

// A C function that raises, as C code reports errors.
int RaiseValueError(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) {
  TVMFFIErrorSetRaisedFromCStr("ValueError", "bench error");
  return -1;
}

TVMFFIObjectHandle MakeCFunction(TVMFFISafeCallType f) {
  TVMFFIObjectHandle h = nullptr;
  if (TVMFFIFunctionCreate(nullptr, f, nullptr, &h) != 0) {
    std::fprintf(stderr, "TVMFFIFunctionCreate failed\n");
    std::exit(1);
  }
  return h;
}

TVMFFIAny NoneValue() {
  TVMFFIAny v;
  std::memset(&v, 0, sizeof(v));
  return v;
}

TVMFFIAny IntValue(int64_t x) {
  TVMFFIAny v = NoneValue();
  v.type_index = kTVMFFIInt;
  v.v_int64 = x;
  return v;
}

// A small object of a dynamic type: the header and one int64 field.
class SmallObj : public Object {
 public:
  int64_t value = 0;
  TVM_FFI_DECLARE_OBJECT_INFO("bench.SmallObj", SmallObj, Object);
};

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

std::string Today() {
  char buf[32];
  std::time_t now = std::time(nullptr);
  std::strftime(buf, sizeof(buf), "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

}  // namespace

int main() {
  std::vector<Result> results;

  // 1. Packed calls through the C ABI to a C no-op.
  TVMFFIObjectHandle noop = MakeCFunction(NoOp);
  results.push_back(Measure("packed call, C no-op, 0 args (TVMFFIFunctionCall)", [&] {
    TVMFFIAny result = NoneValue();
    int rc = TVMFFIFunctionCall(noop, nullptr, 0, &result);
    DoNotOptimize(rc);
    DoNotOptimize(result);
  }));
  TVMFFIAny three_ints[3] = {IntValue(1), IntValue(2), IntValue(3)};
  results.push_back(Measure("packed call, C no-op, 3 int args (TVMFFIFunctionCall)", [&] {
    TVMFFIAny result = NoneValue();
    int rc = TVMFFIFunctionCall(noop, three_ints, 3, &result);
    DoNotOptimize(rc);
    DoNotOptimize(result);
  }));

  // 2. A typed C++ function, called through operator() (converts arguments
  //    and result; goes through TVMFFIFunctionCall).
  Function add = Function::FromTyped([](int64_t a, int64_t b) { return a + b; }, "bench.add");
  results.push_back(Measure("typed C++ call, add(int, int) via Function::operator()", [&] {
    Any r = add(int64_t(1), int64_t(2));
    DoNotOptimize(r);
  }));

  // 3. Object create + destroy.
  results.push_back(Measure("object create+destroy, make_object<SmallObj>", [] {
    ObjectPtr<SmallObj> p = make_object<SmallObj>();
    DoNotOptimize(p);
  }));

  // 4. A 28-byte string (too long for the small form: a heap String object).
  static const char kText28[] = "a string of exactly 28 bytes";
  static_assert(sizeof(kText28) - 1 == 28, "28 bytes");
  results.push_back(Measure("String create+destroy, 28 bytes (ffi::String)", [] {
    String s(kText28, 28);
    DoNotOptimize(s);
  }));
  results.push_back(Measure("String create+destroy, 28 bytes (TVMFFIStringFromByteArray)", [] {
    TVMFFIByteArray in = {kText28, 28};
    TVMFFIAny out;
    TVMFFIStringFromByteArray(&in, &out);
    DoNotOptimize(out);
    if (out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
  }));

  // 5. An Array of three ints.
  results.push_back(Measure("Array of 3 ints create+destroy (ffi::Array<int64_t>)", [] {
    Array<int64_t> a{1, 2, 3};
    DoNotOptimize(a);
  }));
  if (std::optional<Function> make_array = Function::GetGlobal("ffi.Array")) {
    Function f = *make_array;
    results.push_back(Measure("Array of 3 ints create+destroy (global ffi.Array(1, 2, 3))", [&] {
      Any a = f(int64_t(1), int64_t(2), int64_t(3));
      DoNotOptimize(a);
    }));
  } else {
    std::printf("note: global ffi.Array is not registered; skipped\n");
  }

  // 6. Errors thrown and caught through a Function.
  Function thrower = Function::FromTyped(
      [](int64_t x) -> int64_t { TVM_FFI_THROW(ValueError) << "bad value " << x; }, "bench.throw");
  results.push_back(Measure("error thrown in C++, caught in C++ through a Function", [&] {
    try {
      Any r = thrower(int64_t(1));
      DoNotOptimize(r);
    } catch (const Error& e) {
      DoNotOptimize(e);
    }
  }));
  TVMFFIObjectHandle raiser = MakeCFunction(RaiseValueError);
  results.push_back(Measure("error raised in C, taken with TVMFFIErrorMoveFromRaised", [&] {
    TVMFFIAny result = NoneValue();
    int rc = TVMFFIFunctionCall(raiser, nullptr, 0, &result);
    TVMFFIObjectHandle err = nullptr;
    TVMFFIErrorMoveFromRaised(&err);
    DoNotOptimize(rc);
    DoNotOptimize(err);
    TVMFFIObjectDecRef(err);
  }));

  TVMFFIObjectDecRef(noop);
  TVMFFIObjectDecRef(raiser);

  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  std::printf("tvm-ffi %u.%u.%u core benchmark, %s\n", v.major, v.minor, v.patch, Today().c_str());
  std::printf("machine: %s, %u logical CPUs; compiler: %s%s\n", CpuModel().c_str(),
              std::thread::hardware_concurrency(), __VERSION__,
#ifdef NDEBUG
              ""
#else
              " (WARNING: assertions on; use a Release build)"
#endif
  );
  std::printf("best of %d runs, each >= %.0f ms\n\n", kRuns, kMinRunSeconds * 1e3);
  std::printf("| %-64s | %9s |\n", "operation", "ns/op");
  std::printf("|%s|%s|\n", std::string(66, '-').c_str(), std::string(11, '-').c_str());
  for (const Result& r : results) {
    std::printf("| %-64s | %9.1f |\n", r.name.c_str(), r.ns_per_op);
  }
  return 0;
}

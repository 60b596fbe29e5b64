// One benchmark, compiled twice: against this project's C++ layer
// (BENCH_SIDE_OURS, side_ours.h) and against apache-tvm-ffi's C++ headers
// (BENCH_SIDE_UPSTREAM, side_upstream.h).  Both binaries link this project's
// libtvm_ffi, so the only difference is the header-only code on each side.
//
// Without arguments, prints one line per operation:
//   "<key>\t<ns per op>\t<description>".
// With `--count KEY N`, runs only operation KEY, exactly N times, untimed:
// bench/cxx_layers.sh runs that under callgrind with two values of N, and
// the difference of the instruction totals divided by the difference of the
// N is the instructions per operation (exact, and blind to machine load).
// bench/cxx_layers.sh runs both binaries in turns and prints the table.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(BENCH_SIDE_OURS)
#include "side_ours.h"
#elif defined(BENCH_SIDE_UPSTREAM)
#include "side_upstream.h"
#else
#error "define BENCH_SIDE_OURS or BENCH_SIDE_UPSTREAM"
#endif

namespace {

// Keeps the compiler from deleting a computation whose value is unused.
template <typename T>
inline void DoNotOptimize(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

constexpr int kRuns = 101;
constexpr double kMinRunSeconds = 0.0005;

// The measured loop.  Timed runs and `--count` runs share it, so both run
// the same machine code.
template <typename F>
__attribute__((noinline)) void Loop(F& body, int64_t n) {
  for (int64_t i = 0; i < n; ++i) body(i);
}

// Nanoseconds per call of `body`: the iteration count doubles until a run
// takes kMinRunSeconds, then the best of kRuns runs is kept.
template <typename F>
double Measure(F body) {
  using Clock = std::chrono::steady_clock;
  auto run = [&](int64_t n) {
    Clock::time_point start = Clock::now();
    Loop(body, n);
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  int64_t n = 1000;
  while (run(n) < kMinRunSeconds) n *= 2;
  double best = 1e300;
  for (int r = 0; r < kRuns; ++r) best = std::min(best, run(n));
  return best * 1e9 / static_cast<double>(n);
}

// What main() was asked to do: time every operation, or run one N times.
struct Mode {
  const char* only_key = nullptr;
  int64_t count = 0;
};
Mode g_mode;

template <typename F>
void Run(const char* key, const char* what, F body) {
  if (g_mode.only_key == nullptr) {
    std::printf("%s\t%.2f\t%s\n", key, Measure(body), what);
    std::fflush(stdout);
  } else if (std::strcmp(g_mode.only_key, key) == 0) {
    Loop(body, g_mode.count);
  }
}

// 28 bytes: long enough for a heap string on both sides.
constexpr char kText28[] = "twenty-eight bytes of text!!";
static_assert(sizeof(kText28) == 29, "28 chars and the NUL");

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--count") == 0) {
    g_mode.only_key = argv[2];
    g_mode.count = std::atoll(argv[3]);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--count KEY N]\n", argv[0]);
    return 2;
  } else {
    std::printf("# side\t%s\n# compiler\t%s\n", side::kName, __VERSION__);
  }

  {
    side::Function add = side::MakeTyped([](int64_t a, int64_t b) { return a + b; });
    int64_t check = side::Cast<int64_t>(add(int64_t(40), 2));
    if (check != 42) {
      std::fprintf(stderr, "add(40, 2) returned %lld\n", static_cast<long long>(check));
      return 1;
    }
    Run("call", "typed call add(i, 1) -> int64, Function from a C++ lambda", [&](int64_t i) {
      int64_t r = side::Cast<int64_t>(add(i, 1));
      DoNotOptimize(r);
    });
  }

  Run("array3", "Array<int64_t>{1, 2, 3} create + destroy", [](int64_t) {
    side::Array<int64_t> a{1, 2, 3};
    DoNotOptimize(a);
  });

  {
    side::Array<int64_t> a{1, 2, 3};
    Run("array_read", "Array<int64_t> read 3 elements with operator[]", [&](int64_t) {
      int64_t s = a[0] + a[1] + a[2];
      DoNotOptimize(s);
    });
  }

  Run("string28", "String of 28 bytes create + destroy", [](int64_t) {
    side::String s(kText28, 28);
    DoNotOptimize(s);
  });

  Run("any_int", "Any from int64 and cast back", [](int64_t i) {
    side::Any a(i);
    int64_t back = side::Cast<int64_t>(a);
    DoNotOptimize(back);
  });

  {
    side::ObjectRef ref = side::RefOf(side::MakePlainObject());
    Run("any_obj", "Any from ObjectRef and cast back to ObjectRef", [&](int64_t) {
      side::Any a(ref);
      side::ObjectRef back = side::Cast<side::ObjectRef>(a);
      DoNotOptimize(back);
    });
  }

  {
    side::ObjectPtr p = side::MakePlainObject();
    Run("objptr_copy", "ObjectPtr<Object> copy + destroy", [&](int64_t) {
      side::ObjectPtr q = p;
      DoNotOptimize(q);
    });
  }
  return 0;
}

// One benchmark source written against the tvm::ffi C++ API, compiled twice:
// with this project's headers (include/tvm/ffi, target cxx_layers_ours) and
// with apache-tvm-ffi's (third_party/upstream, target cxx_layers_upstream).
// Both binaries link this project's libtvm_ffi, so the only difference is the
// header-only code each header set puts inline.
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

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>

#ifndef BENCH_SIDE_NAME
#error "define BENCH_SIDE_NAME (the header set this binary was built with)"
#endif

namespace ffi = tvm::ffi;

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
    std::printf("# side\t%s\n# compiler\t%s\n", BENCH_SIDE_NAME, __VERSION__);
  }

  {
    ffi::Function add = ffi::Function::FromTyped([](int64_t a, int64_t b) { return a + b; });
    int64_t check = add(int64_t(40), 2).cast<int64_t>();
    if (check != 42) {
      std::fprintf(stderr, "add(40, 2) returned %lld\n", static_cast<long long>(check));
      return 1;
    }
    Run("call", "typed call add(i, 1) -> int64, Function from a C++ lambda", [&](int64_t i) {
      int64_t r = add(i, 1).cast<int64_t>();
      DoNotOptimize(r);
    });
  }

  {
    // The error crosses the C ABI twice: the callee's throw becomes the
    // thread's raised error, and the caller's Function::operator() rethrows it.
    ffi::Function fail = ffi::Function::FromTyped([](int64_t i) -> int64_t {
      TVM_FFI_THROW(ValueError) << "bad value " << i;
      return i;
    });
    Run("throw_catch", "C++ throws in a Function, C++ caller catches ffi::Error", [&](int64_t i) {
      try {
        fail(i);
      } catch (const ffi::Error& err) {
        DoNotOptimize(err);
      }
    });
  }

  Run("array3", "Array<int64_t>{1, 2, 3} create + destroy", [](int64_t) {
    ffi::Array<int64_t> a{1, 2, 3};
    DoNotOptimize(a);
  });

  {
    ffi::Array<int64_t> a{1, 2, 3};
    Run("array_read", "Array<int64_t> read 3 elements with operator[]", [&](int64_t) {
      int64_t s = a[0] + a[1] + a[2];
      DoNotOptimize(s);
    });
  }

  {
    ffi::Array<int64_t> a;
    for (int64_t i = 0; i < 64; ++i) a.push_back(i);
    Run("array_sum64", "Array<int64_t> of 64: sum with operator[] in a loop", [&](int64_t) {
      int64_t s = 0;
      for (size_t k = 0; k < a.size(); ++k) s += a[k];
      DoNotOptimize(s);
    });
  }

  Run("map3", "Map<String, int64_t>{{k, v} x 3} create + destroy", [](int64_t i) {
    ffi::Map<ffi::String, int64_t> m{{"a", i}, {"b", 2}, {"c", 3}};
    DoNotOptimize(m);
  });

  Run("string28", "String of 28 bytes create + destroy", [](int64_t) {
    ffi::String s(kText28, 28);
    DoNotOptimize(s);
  });

  Run("any_int", "Any from int64 and cast back", [](int64_t i) {
    ffi::Any a(i);
    int64_t back = a.cast<int64_t>();
    DoNotOptimize(back);
  });

  {
    ffi::ObjectRef ref(ffi::make_object<ffi::Object>());
    Run("any_obj", "Any from ObjectRef and cast back to ObjectRef", [&](int64_t) {
      ffi::Any a(ref);
      ffi::ObjectRef back = a.cast<ffi::ObjectRef>();
      DoNotOptimize(back);
    });
  }

  {
    ffi::ObjectPtr<ffi::Object> p = ffi::make_object<ffi::Object>();
    Run("objptr_copy", "ObjectPtr<Object> copy + destroy", [&](int64_t) {
      ffi::ObjectPtr<ffi::Object> q = p;
      DoNotOptimize(q);
    });
  }
  return 0;
}

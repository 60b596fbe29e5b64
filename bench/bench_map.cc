// Map benchmark: nanoseconds per lookup and per insert, through the C++ Map
// (lookups inline, inserts by the runtime) and the ffi.MapGetItem global (the
// C ABI).  Each figure is the best of 7 timed runs of a loop long enough to
// take >= 20 ms, timed by the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) so
// that time spent descheduled on a busy machine does not count.  The row names stay fixed, so that
// bench/map_ab.sh can pair the rows of two builds (docs/performance.md, "Maps").
#include <algorithm>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Function;
using tvm::ffi::String;
using Map = tvm::ffi::Map<Any, Any>;
using Pairs = std::vector<std::pair<Any, Any>>;

template <typename T>
inline void DoNotOptimize(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

constexpr int kRuns = 7;
constexpr double kMinRunSeconds = 0.02;

// ns per operation; `body(n)` performs n operations.
template <typename F>
double Measure(F body) {
  auto now = [] {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  auto run = [&](int64_t n) {
    double start = now();
    body(n);
    return now() - start;
  };
  int64_t n = 1000;
  while (run(n) < kMinRunSeconds) n *= 2;
  double best = 1e300;
  for (int r = 0; r < kRuns; ++r) best = std::min(best, run(n));
  return best * 1e9 / static_cast<double>(n);
}

void Report(const char* name, double ns) { std::printf("| %s | %.1f |\n", name, ns); }

// Lookups cycling over `keys`, all present in `m`.
double LookupNs(const Map& m, const std::vector<Any>& keys) {
  return Measure([&](int64_t n) {
    size_t k = 0;
    int64_t found = 0;
    for (int64_t i = 0; i < n; ++i) {
      found += m.count(keys[k]);
      if (++k == keys.size()) k = 0;
    }
    DoNotOptimize(found);
  });
}

// Each key mapped to `value`.
Pairs PairsOf(const std::vector<Any>& keys, const std::vector<Any>& values) {
  Pairs pairs;
  for (size_t i = 0; i < keys.size(); ++i) pairs.emplace_back(keys[i], values[i]);
  return pairs;
}

// Inserting every key into a new map (growth and destruction included).  Map
// is immutable in the C++ API (Map::Set makes a new map), so the map is made
// from all the pairs at once: the runtime's constructor inserts them one by
// one into one new map, which grows as it fills.
double InsertNs(const std::vector<Any>& keys) {
  Pairs pairs = PairsOf(keys, std::vector<Any>(keys.size(), Any(int64_t(1))));
  return Measure([&](int64_t n) {
    int64_t done = 0;
    while (done < n) {
      Map m(pairs.begin(), pairs.end());
      DoNotOptimize(m);
      done += static_cast<int64_t>(keys.size());
    }
  });
}

}  // namespace

int main() {
  const int kSizes[] = {3, 1000};
  std::printf("| Operation | ns/op |\n|---|---:|\n");
  for (int size : kSizes) {
    std::vector<Any> ints, strs, values;
    for (int i = 0; i < size; ++i) {
      ints.push_back(Any(int64_t(i) * 7919));
      strs.push_back(Any(String("key number " + std::to_string(i))));
      values.push_back(Any(int64_t(i)));
    }
    Pairs int_pairs = PairsOf(ints, values), str_pairs = PairsOf(strs, values);
    Map mi(int_pairs.begin(), int_pairs.end()), ms(str_pairs.begin(), str_pairs.end());
    std::string n = std::to_string(size);
    Report(("Map lookup, " + n + " int keys, `Map::count`").c_str(), LookupNs(mi, ints));
    Report(("Map lookup, " + n + " str keys (heap, 13-15 bytes), `Map::count`").c_str(),
           LookupNs(ms, strs));
    Report(("Map insert, " + n + " int keys into a new `Map`").c_str(), InsertNs(ints));
    Report(("Map insert, " + n + " str keys into a new `Map`").c_str(), InsertNs(strs));
    Function get = Function::GetGlobalRequired("ffi.MapGetItem");
    Any map_any(mi);
    double ns = Measure([&](int64_t count) {
      size_t k = 0;
      for (int64_t i = 0; i < count; ++i) {
        Any v = get(map_any, ints[k]);
        DoNotOptimize(v);
        if (++k == ints.size()) k = 0;
      }
    });
    Report(("Map lookup, " + n + " int keys, global `ffi.MapGetItem`").c_str(), ns);
  }
  return 0;
}

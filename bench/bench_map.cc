// Map benchmark: nanoseconds per lookup and per insert, through the C++ Map
// (inline) and the ffi.MapGetItem global (the C ABI).  Each figure is the
// best of 7 timed runs of a loop long enough to take >= 20 ms, timed by the
// thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) so that time spent descheduled
// on a busy machine does not count.  Uses only API that existed before the map
// layout change, so the same file measures both versions
// (docs/performance.md, "Maps").
#include <algorithm>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <tvmffi/function.h>
#include <tvmffi/map.h>
#include <tvmffi/string.h>

namespace {

using namespace tvmffi::core;  // NOLINT(build/namespaces)

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

// Inserting every key into a new map (growth and destruction included).
double InsertNs(const std::vector<Any>& keys) {
  return Measure([&](int64_t n) {
    int64_t done = 0;
    while (done < n) {
      Map m;
      for (const Any& k : keys) m.Set(k, int64_t(1));
      DoNotOptimize(m);
      done += static_cast<int64_t>(keys.size());
    }
  }) ;
}

}  // namespace

int main() {
  const int kSizes[] = {3, 1000};
  std::printf("| Operation | ns/op |\n|---|---:|\n");
  for (int size : kSizes) {
    std::vector<Any> ints, strs;
    for (int i = 0; i < size; ++i) {
      ints.push_back(Any(int64_t(i) * 7919));
      strs.push_back(Any(String("key number " + std::to_string(i))));
    }
    Map mi, ms;
    for (int i = 0; i < size; ++i) {
      mi.Set(ints[i], int64_t(i));
      ms.Set(strs[i], int64_t(i));
    }
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

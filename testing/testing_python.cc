// testing.py_* globals for the Python tests.
//
// Calls from other native threads, a long sleep (GIL tests), calling globals
// from C++, and leak probes.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// Calls f(*args) on a new native thread and waits for it; the result or the
// error comes back to the caller.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.py_call_in_thread",
                              [](const AnyView* args, int32_t n, Any* rv) {
                                if (n < 1) {
                                  TVMFFI_THROW(TypeError)
                                      << "testing.py_call_in_thread: expected a function first";
                                }
                                Function f = args[0].As<Function>();
                                std::vector<Any> rest(args + 1, args + n);
                                Any result;
                                std::exception_ptr error;
                                std::thread worker([&] {
                                  try {
                                    std::vector<AnyView> views(rest.begin(), rest.end());
                                    result = f.CallPacked(views.data(),
                                                          static_cast<int32_t>(views.size()));
                                  } catch (...) {
                                    error = std::current_exception();
                                  }
                                });
                                worker.join();
                                if (error) std::rethrow_exception(error);
                                *rv = std::move(result);
                              });

// Sleeps ms milliseconds without touching Python; returns ms.
TVMFFI_REGISTER_GLOBAL("testing.py_sleep_ms", [](int64_t ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return ms;
});

// Calls the global function `name` with the remaining arguments, from C++.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.py_call_global", [](const AnyView* args, int32_t n,
                                                             Any* rv) {
  if (n < 1) TVMFFI_THROW(TypeError) << "testing.py_call_global: expected a name first";
  Function f = Function::GetGlobalRequired(args[0].As<std::string>());
  *rv = f.CallPacked(args + 1, n - 1);
});

// Calls f() n times from C++ (benchmarks of C calling Python); returns n.
TVMFFI_REGISTER_GLOBAL("testing.py_call_n_times", [](Function f, int64_t n) {
  for (int64_t i = 0; i < n; ++i) f();
  return n;
});

// Leak probes: objects that count themselves.  With the environment variable
// TVM_FFI_TESTING_REPORT_PROBES set, the number still alive is printed to
// stderr when the process exits (after the Python interpreter is gone).
std::atomic<int64_t> g_live_probes{0};

class LeakProbeObj : public Object {
 public:
  LeakProbeObj() { g_live_probes.fetch_add(1); }
  ~LeakProbeObj() { g_live_probes.fetch_sub(1); }
  TVMFFI_DECLARE_DYNAMIC_TYPE(LeakProbeObj, "testing.PyLeakProbe", PlainObject)
};

struct ProbeReporter {
  ~ProbeReporter() {
    if (std::getenv("TVM_FFI_TESTING_REPORT_PROBES") != nullptr) {
      std::fprintf(stderr, "live leak probes at exit: %lld\n",
                   static_cast<long long>(g_live_probes.load()));
    }
  }
};
ProbeReporter g_probe_reporter;

const bool kProbeRegistered = RunAtLoad([] {
  ObjectDef<LeakProbeObj>("An object that counts live instances (leak tests).");
});

TVMFFI_REGISTER_GLOBAL("testing.py_leak_probe",
                       []() { return ObjectRefOf<LeakProbeObj>(MakeObject<LeakProbeObj>()); });
TVMFFI_REGISTER_GLOBAL("testing.py_leak_probe_count", []() { return g_live_probes.load(); });

}  // namespace
}  // namespace core
}  // namespace tvmffi

// testing.py_* globals for the Python tests.
//
// Calls from other native threads, a long sleep (GIL tests), calling globals
// from C++, and leak probes.
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// Leak probes: objects that count themselves.  With the environment variable
// TVM_FFI_TESTING_REPORT_PROBES set, the number still alive is printed to
// stderr when the process exits (after the Python interpreter is gone).
std::atomic<int64_t> g_live_probes{0};

class LeakProbeObj : public Object {
 public:
  LeakProbeObj() { g_live_probes.fetch_add(1); }
  ~LeakProbeObj() { g_live_probes.fetch_sub(1); }
  TVM_FFI_DECLARE_OBJECT_INFO("testing.PyLeakProbe", LeakProbeObj, Object);
};

class LeakProbe : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(LeakProbe, ObjectRef, LeakProbeObj);
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

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      // Calls f(*args) on a new native thread and waits for it; the result or
      // the error comes back to the caller.
      .def_packed("testing.py_call_in_thread",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() < 1) {
                      TVM_FFI_THROW(TypeError)
                          << "testing.py_call_in_thread: expected a function first";
                    }
                    Function f = args[0].cast<Function>();
                    std::vector<Any> rest(args.data() + 1, args.data() + args.size());
                    Any result;
                    std::exception_ptr error;
                    std::thread worker([&] {
                      try {
                        std::vector<AnyView> views(rest.begin(), rest.end());
                        f.CallPacked(views.data(), static_cast<int32_t>(views.size()), &result);
                      } catch (...) {
                        error = std::current_exception();
                      }
                    });
                    worker.join();
                    if (error) std::rethrow_exception(error);
                    *rv = std::move(result);
                  })
      // Sleeps ms milliseconds without touching Python; returns ms.
      .def("testing.py_sleep_ms",
           [](int64_t ms) {
             std::this_thread::sleep_for(std::chrono::milliseconds(ms));
             return ms;
           })
      // Calls the global function `name` with the remaining arguments, from C++.
      .def_packed("testing.py_call_global",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() < 1) {
                      TVM_FFI_THROW(TypeError) << "testing.py_call_global: expected a name first";
                    }
                    std::string name = args[0].cast<std::string>();
                    std::optional<Function> f = Function::GetGlobal(name);
                    if (!f.has_value()) {
                      TVM_FFI_THROW(KeyError) << "global function `" << name
                                              << "` is not registered";
                    }
                    f->CallPacked(args.Slice(1), rv);
                  })
      // Calls f() n times from C++ (benchmarks of C calling Python); returns n.
      .def("testing.py_call_n_times", [](Function f, int64_t n) {
        for (int64_t i = 0; i < n; ++i) f();
        return n;
      });

  refl::ObjectDef<LeakProbeObj>("An object that counts live instances (leak tests).",
                                refl::init(false));
  KeepTestingAttrs<LeakProbeObj>();

  refl::GlobalDef()
      .def("testing.py_leak_probe", []() { return LeakProbe(make_object<LeakProbeObj>()); })
      .def("testing.py_leak_probe_count", []() { return g_live_probes.load(); });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

// testing.* globals for the benchmarks (bench/python): results that cost the
// callee nothing, so that a benchmark measures the binding's work alone.
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

TVM_FFI_STATIC_INIT_BLOCK() {
  // The same heap ffi.String on every call (11 bytes: longer than the small
  // inline form), made once; each call only adds a reference.  The peers of
  // the benchmark return a fixed std::string the same way.
  refl::GlobalDef().def_packed("testing.return_str", [](PackedArgs args, Any* rv) {
    if (args.size() != 0) {
      TVM_FFI_THROW(TypeError) << "testing.return_str: expected 0 arguments, got " << args.size();
    }
    static const String kValue("a short str");
    *rv = kValue;
  });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

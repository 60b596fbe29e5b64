// testing.* globals for the core: echo, no-op, raising, applying callbacks.
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <string>

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// testing.apply: calls f with the remaining arguments and returns its
// result.  A named function kept out of line, so that an error raised through
// it shows a frame of this file (tests/python/test_traceback.py).
// The call goes straight through the C ABI, so that the frame's return
// address is in this function's own code.
__attribute__((noinline)) void Apply(PackedArgs args, Any* rv) {
  if (args.size() < 1) TVM_FFI_THROW(TypeError) << "testing.apply: expected a function first";
  Function f = args[0].cast<Function>();
  int rc = TVMFFIFunctionCall(::tvm::ffi::detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(f),
                              reinterpret_cast<TVMFFIAny*>(const_cast<AnyView*>(args.data() + 1)),
                              args.size() - 1, reinterpret_cast<TVMFFIAny*>(rv));
  TVM_FFI_CHECK_SAFE_CALL(rc);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::GlobalDef()
      .def_packed("testing.echo",
                  [](PackedArgs args, Any* rv) {
                    if (args.size() != 1) {
                      TVM_FFI_THROW(TypeError)
                          << "testing.echo: expected 1 argument, got " << args.size();
                    }
                    *rv = Any(args[0]);
                  })
      .def_packed("testing.nop", [](PackedArgs, Any*) {})
      .def("testing.add_one", [](int64_t x) { return x + 1; })
      .def("testing.raise_error",
           [](const std::string& kind, const std::string& message) {
             throw Error(kind, message, TVMFFIBacktrace(nullptr, 0, nullptr, 0));
           })
      .def_packed("testing.apply", Apply);
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

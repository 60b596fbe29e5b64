// testing.* globals for the core: echo, no-op, raising, applying callbacks.
#include <tvmffi/function.h>

namespace tvmffi {
namespace core {
namespace {

TVMFFI_REGISTER_GLOBAL_PACKED("testing.echo", [](const AnyView* args, int32_t n, Any* rv) {
  if (n != 1) TVMFFI_THROW(TypeError) << "testing.echo: expected 1 argument, got " << n;
  *rv = Any(args[0]);
});

TVMFFI_REGISTER_GLOBAL_PACKED("testing.nop", [](const AnyView*, int32_t, Any*) {});

TVMFFI_REGISTER_GLOBAL("testing.add_one", [](int64_t x) { return x + 1; });

TVMFFI_REGISTER_GLOBAL("testing.raise_error",
                       [](const std::string& kind, const std::string& message) {
                         throw Error(kind, message);
                       });

// Calls f with the remaining arguments and returns its result.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.apply", [](const AnyView* args, int32_t n, Any* rv) {
  if (n < 1) TVMFFI_THROW(TypeError) << "testing.apply: expected a function first";
  Function f = args[0].As<Function>();
  *rv = f.CallPacked(args + 1, n - 1);
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

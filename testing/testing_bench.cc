// testing.* globals for the benchmarks (bench/python): results that cost the
// callee nothing, so that a benchmark measures the binding's work alone.
#include <tvmffi/function.h>
#include <tvmffi/string.h>

namespace tvmffi {
namespace core {
namespace {

// The same heap ffi.String on every call (11 bytes: longer than the small
// inline form), made once; each call only adds a reference.  The peers of the
// benchmark return a fixed std::string the same way.
TVMFFI_REGISTER_GLOBAL_PACKED("testing.return_str", [](const AnyView*, int32_t n, Any* rv) {
  if (n != 0) TVMFFI_THROW(TypeError) << "testing.return_str: expected 0 arguments, got " << n;
  static const String kValue("a short str");
  *rv = kValue;
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

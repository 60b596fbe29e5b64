// The host of the upstream-style consumer: linked with tvm_ffi::shared, it
// loads the header-only kernel as a module and calls it.  Prints one line per
// check and exits non-zero on the first failure.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace ffi = tvm::ffi;

namespace {

int Fail(const std::string& what) {
  std::printf("FAILED: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main() {
  if (!std::ifstream(SHARED_LIBRARY_PATH).good()) {
    return Fail(std::string("$<TARGET_FILE:tvm_ffi::shared> is not a file: ") + SHARED_LIBRARY_PATH);
  }
  try {
    ffi::Module mod = ffi::Module::LoadFromFile(KERNEL_PATH);
    ffi::Optional<ffi::Function> sum_all = mod->GetFunction("sum_all");
    ffi::Optional<ffi::Function> shout = mod->GetFunction("shout");
    if (!sum_all.has_value() || !shout.has_value()) return Fail("the kernel's functions are missing");

    int64_t sum = (*sum_all)(ffi::Array<int64_t>{1, 2, 3, 4}).cast<int64_t>();
    if (sum != 10) return Fail("sum_all([1, 2, 3, 4]) returned " + std::to_string(sum));
    std::printf("sum_all([1, 2, 3, 4]) = %lld\n", static_cast<long long>(sum));

    ffi::String loud = (*shout)(ffi::String("hello")).cast<ffi::String>();
    if (loud != "hello!") return Fail("shout(\"hello\") returned " + std::string(loud));
    std::printf("shout(\"hello\") = %s\n", loud.c_str());

    try {
      (*sum_all)(ffi::Array<int64_t>{});
      return Fail("sum_all([]) raised nothing");
    } catch (const ffi::Error& e) {
      if (e.kind() != "ValueError" || e.message() != "sum_all: no values") {
        return Fail("sum_all([]) raised " + e.kind() + ": " + e.message());
      }
      std::printf("sum_all([]) raised %s: %s\n", e.kind().c_str(), e.message().c_str());
    }
  } catch (const ffi::Error& e) {
    return Fail(std::string("unexpected error: ") + e.what());
  }
  std::printf("upstream-style consumer: ok\n");
  return 0;
}

// Helpers for the container tests: calling globals through the C ABI,
// capturing errors as "Kind: message", and objects whose release is counted.
#ifndef TVMFFI_TESTS_CPP_CONTAINER_TEST_UTIL_H_
#define TVMFFI_TESTS_CPP_CONTAINER_TEST_UTIL_H_

#include <dlfcn.h>

#include <string>
#include <utility>

#include "core/any.h"
#include "core/error.h"
#include "core/function.h"
#include "core/object.h"

namespace container_test {

using tvmffi::core::Any;
using tvmffi::core::Error;
using tvmffi::core::Function;
using tvmffi::core::Object;
using tvmffi::core::ObjectPtr;
using tvmffi::core::ObjectRef;

// Calls the global function `name` (through TVMFFIFunctionCall).
template <typename... Args>
Any Call(const std::string& name, Args&&... args) {
  return Function::GetGlobalRequired(name)(std::forward<Args>(args)...);
}

// Calls a testing.* global.  The linker may drop libtvm_ffi_testing from the
// executable's dependencies (nothing references its symbols), so it is
// loaded explicitly; loading registers its globals.
template <typename... Args>
Any CallTesting(const std::string& name, Args&&... args) {
  static void* lib = dlopen("libtvm_ffi_testing.so", RTLD_NOW | RTLD_GLOBAL);
  REQUIRE(lib != nullptr);
  return Call(name, std::forward<Args>(args)...);
}

// "Kind: message" of the Error `f` throws, or "<nothing thrown>".
template <typename F>
std::string ThrownBy(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind() + ": " + e.message();
  }
  return "<nothing thrown>";
}

// An ffi.OpaquePyObject whose deleter counts into *counter; the returned
// reference is the only one.
inline void CountingDeleter(void* counter) { ++*static_cast<int*>(counter); }
inline ObjectRef MakeCounted(int* counter) {
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFIObjectCreateOpaque(counter, kTVMFFIOpaquePyObject, &CountingDeleter, &h) == 0);
  return ObjectRef(ObjectPtr<Object>::AdoptHandle(h));
}

// The raw handle an Any holds (must be an object).
inline TVMFFIObjectHandle HandleOf(const Any& v) {
  REQUIRE(v.type_index() >= kTVMFFIStaticObjectBegin);
  return v.raw()->v_obj;
}

inline std::string StrOf(const Any& v) { return v.As<std::string>(); }

}  // namespace container_test

#endif  // TVMFFI_TESTS_CPP_CONTAINER_TEST_UTIL_H_

// The helpers of test_util.h on the retired include/tvmffi layer, for the
// test files not yet ported to tvm::ffi (issue 19; tests/CMakeLists.txt
// lists them).  Delete this file, the #ifdef in test_util.h and that list
// when the last one is ported.
#ifndef TVM_FFI_TESTS_CPP_TEST_UTIL_LEGACY_H_
#define TVM_FFI_TESTS_CPP_TEST_UTIL_LEGACY_H_

#include <catch2/catch.hpp>
#include <dlfcn.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "core/impl/any.h"
#include "core/impl/error.h"
#include "core/impl/function.h"
#include "core/impl/object.h"

namespace test_util {

using tvm::ffi::detail::impl::Any;
using tvm::ffi::detail::impl::Error;
using tvm::ffi::detail::impl::Function;
using tvm::ffi::detail::impl::Object;
using tvm::ffi::detail::impl::ObjectPtr;
using tvm::ffi::detail::impl::ObjectRef;

// Calls the global function `name` (through TVMFFIFunctionCall).
template <typename... Args>
Any Call(const std::string& name, Args&&... args) {
  return Function::GetGlobalRequired(name)(std::forward<Args>(args)...);
}

// A testing.* global.  The linker may drop libtvm_ffi_testing from the
// executable's dependencies (nothing references its symbols), so it is
// loaded explicitly (found through the executable's RUNPATH); loading
// registers its globals.
inline Function TestingGlobal(const std::string& name) {
  static void* lib = dlopen("libtvm_ffi_testing.so", RTLD_NOW | RTLD_GLOBAL);
  REQUIRE(lib != nullptr);
  return Function::GetGlobalRequired(name);
}

template <typename... Args>
Any CallTesting(const std::string& name, Args&&... args) {
  return TestingGlobal(name)(std::forward<Args>(args)...);
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

// Takes the raised error out of the slot; nullopt when the slot is empty.
inline std::optional<Error> TakeRaisedError() {
  TVMFFIObjectHandle h = nullptr;
  TVMFFIErrorMoveFromRaised(&h);
  if (h == nullptr) return std::nullopt;
  return Error(ObjectPtr<Object>::AdoptHandle(h));
}

// The raised error as (kind, message); ("<none>", "") when there is none.
inline std::pair<std::string, std::string> TakeError() {
  std::optional<Error> e = TakeRaisedError();
  if (!e.has_value()) return {"<none>", ""};
  return {e->kind(), e->message()};
}

// The raised error as "Kind: message"; "" when there is none.
inline std::string TakeRaised() {
  std::optional<Error> e = TakeRaisedError();
  return e.has_value() ? e->kind() + ": " + e->message() : "";
}

// "Kind: message" of the error a C function raised with return code `rc`.
inline std::string Raised(int rc) {
  REQUIRE(rc == -1);
  std::string text = TakeRaised();
  REQUIRE(!text.empty());
  return text;
}

// A DLDataType from plain ints (codes as in DLDataTypeCode).
inline DLDataType DType(int code, int bits, int lanes = 1) {
  DLDataType t;
  t.code = static_cast<uint8_t>(code);
  t.bits = static_cast<uint8_t>(bits);
  t.lanes = static_cast<uint16_t>(lanes);
  return t;
}

inline TVMFFIByteArray ByteArrayOf(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }
inline std::string TextOf(const TVMFFIByteArray& b) {
  return b.size == 0 ? std::string() : std::string(b.data, b.size);
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

}  // namespace test_util

#endif  // TVM_FFI_TESTS_CPP_TEST_UTIL_LEGACY_H_

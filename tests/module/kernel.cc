// A kernel library for the module tests, written with the installed C++ API
// (<tvm/ffi/...>) and its export macros.  Loaded with load_module /
// Module::LoadFromFile.

// Export each function's type schema and docstring too
// (__tvm_ffi__metadata_<name>, __tvm_ffi__doc_<name>): the tests read them.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Function;
using tvm::ffi::String;
using tvm::ffi::TensorView;

extern "C" {
// Filled by the loader with this library's module.
__attribute__((visibility("default"))) void* __tvm_ffi__library_ctx = nullptr;
// Filled by the loader with what the test registered under this name
// (TVMFFIEnvModRegisterContextSymbol) before loading.
__attribute__((visibility("default"))) void* tvmffi_test_context_symbol = nullptr;
}

namespace {

int64_t AddOne(int64_t x) { return x + 1; }

// In place: x[i] += 1 for a 1-D float32 CPU tensor (an ffi.Tensor or a
// DLTensor*).
void AddOneTensor(TensorView x) {
  DLDataType dt = x.dtype();
  if (x.ndim() != 1 || dt.code != kDLFloat || dt.bits != 32 || dt.lanes != 1) {
    TVM_FFI_THROW(TypeError) << "add_one_tensor: expected a 1-D float32 tensor";
  }
  float* data = reinterpret_cast<float*>(static_cast<char*>(x.data_ptr()) + x.byte_offset());
  for (int64_t i = 0; i < x.numel(); ++i) data[i] += 1.0f;
}

String Greet(String name) { return String("hello, " + std::string(name)); }

void Fail(int64_t code) { TVM_FFI_THROW(ValueError) << "kernel failed with code " << code; }

// Calls `name(x)` found through the module's imports or the globals.
Any CallFromImports(String name, int64_t x) {
  TVMFFIObjectHandle f = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name.c_str(), &f));
  // `f` is borrowed (the module's cache owns it).  Read as an AnyView (the
  // same bytes as a TVMFFIAny), it converts to a Function holding its own
  // reference.
  TVMFFIAny ref;
  ref.type_index = kTVMFFIFunction;
  ref.zero_padding = 0;
  ref.v_obj = static_cast<TVMFFIObject*>(f);
  Function fn = reinterpret_cast<const AnyView&>(ref).cast<Function>();
  return fn(x);
}

// The two pointers the loader wrote, as integers.
int64_t LibraryCtx() { return reinterpret_cast<int64_t>(__tvm_ffi__library_ctx); }
int64_t ContextSymbol() { return reinterpret_cast<int64_t>(tvmffi_test_context_symbol); }

double Mul2(double x) { return x * 2; }

}  // namespace

// Returns a value of type index 9999, which no type has (for the check that
// refuses such results).
extern "C" __attribute__((visibility("default"))) int __tvm_ffi_bad_value(void*, const TVMFFIAny*,
                                                                          int32_t,
                                                                          TVMFFIAny* result) {
  result->type_index = 9999;
  result->v_int64 = 0x5eed;
  return 0;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Returns x + 1.\nFor tests.");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one_tensor, AddOneTensor);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fail, Fail);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_from_imports, CallFromImports);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(library_ctx, LibraryCtx);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(context_symbol, ContextSymbol);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(mul2, Mul2);

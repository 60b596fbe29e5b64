// A kernel library for the module tests, written with the installed C++
// layer and its export macro.  Loaded with load_module / Module::LoadFromFile.
#include <tvm/ffi/extra/c_env_api.h>
#include <tvmffi/export.h>
#include <tvmffi/tensor.h>

#include <string>

using tvmffi::core::Any;
using tvmffi::core::Function;
using tvmffi::core::Tensor;

extern "C" {
// Filled by the loader with this library's module.
__attribute__((visibility("default"))) void* __tvm_ffi__library_ctx = nullptr;
// Filled by the loader with what the test registered under this name
// (TVMFFIEnvModRegisterContextSymbol) before loading.
__attribute__((visibility("default"))) void* tvmffi_test_context_symbol = nullptr;
}

namespace {

int64_t AddOne(int64_t x) { return x + 1; }

// In place: x[i] += 1 for a 1-D float32 CPU tensor.
void AddOneTensor(Tensor x) {
  DLDataType dt = x.dtype();
  if (x.ndim() != 1 || dt.code != kDLFloat || dt.bits != 32 || dt.lanes != 1) {
    TVMFFI_THROW(TypeError) << "add_one_tensor: expected a 1-D float32 tensor";
  }
  float* data = reinterpret_cast<float*>(static_cast<char*>(x.data_ptr()) + x.byte_offset());
  for (int64_t i = 0; i < x.numel(); ++i) data[i] += 1.0f;
}

std::string Greet(std::string name) { return "hello, " + name; }

void Fail(int64_t code) { TVMFFI_THROW(ValueError) << "kernel failed with code " << code; }

// Calls `name(x)` found through the module's imports or the globals.
Any CallFromImports(std::string name, int64_t x) {
  TVMFFIObjectHandle f = nullptr;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name.c_str(), &f) != 0) {
    tvmffi::core::ThrowRaised(-1);
  }
  return Function(tvmffi::core::ObjectPtr<tvmffi::core::Object>::BorrowHandle(f))(x);
}

// The two pointers the loader wrote, as integers.
int64_t LibraryCtx() { return reinterpret_cast<int64_t>(__tvm_ffi__library_ctx); }
int64_t ContextSymbol() { return reinterpret_cast<int64_t>(tvmffi_test_context_symbol); }

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

TVMFFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVMFFI_DLL_EXPORT_TYPED_FUNC_DOC(add_one, "Returns x + 1.\nFor tests.");
TVMFFI_DLL_EXPORT_TYPED_FUNC(add_one_tensor, AddOneTensor);
TVMFFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
TVMFFI_DLL_EXPORT_TYPED_FUNC(fail, Fail);
TVMFFI_DLL_EXPORT_TYPED_FUNC(call_from_imports, CallFromImports);
TVMFFI_DLL_EXPORT_TYPED_FUNC(library_ctx, LibraryCtx);
TVMFFI_DLL_EXPORT_TYPED_FUNC(context_symbol, ContextSymbol);
TVMFFI_DLL_EXPORT_TYPED_FUNC(mul2, [](double x) { return x * 2; });

// C symbols upstream's tests/cpp link against in libtvm_ffi_testing.so:
//
//   TVMFFITestingDummyTarget()   a plain exported C function returning 0
//                                (test_function.cc links and calls it)
//   __tvm_ffi_testing_dll_schema_id_int, __tvm_ffi_testing_dll_test_add_with_docstring
//                                functions exported with TVM_FFI_DLL_EXPORT_TYPED_FUNC,
//                                with their __tvm_ffi__metadata_* and (for the
//                                second) __tvm_ffi__doc_* companions
//                                (test_metadata.cc reads those)
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace testing {
namespace {

int64_t DllSchemaIdInt(int64_t x) { return x; }

int64_t DllAddWithDocstring(int64_t a, int64_t b) { return a + b; }

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

extern "C" TVM_FFI_DLL int TVMFFITestingDummyTarget() { return 0; }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_dll_schema_id_int, tvm::ffi::testing::DllSchemaIdInt)
TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_dll_test_add_with_docstring,
                              tvm::ffi::testing::DllAddWithDocstring)
// The text upstream's test expects, word for word (numpydoc sections).
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(testing_dll_test_add_with_docstring,
                                  "Add two integers and return the sum.\n"
                                  "\n"
                                  "Parameters\n"
                                  "----------\n"
                                  "a : int\n"
                                  "    First integer\n"
                                  "b : int\n"
                                  "    Second integer\n"
                                  "\n"
                                  "Returns\n"
                                  "-------\n"
                                  "result : int\n"
                                  "    Sum of a and b")

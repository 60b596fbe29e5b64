/* A composite library for the module tests: `__tvm_ffi__library_bin`
 * describes two modules, this library ("_lib", module 0) importing one of
 * kind "testing_sys" (module 1) whose payload is the text "composite.".
 * The tests register the loader `ffi.Module.load_from_bytes.testing_sys`,
 * which turns the payload into the system library with that prefix. */
#include <stdint.h>
#include <string.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = NULL;

#define U64(v)                                                                               \
  (unsigned char)((v)&0xff), (unsigned char)(((v) >> 8) & 0xff), 0, 0, 0, 0, 0, 0

#ifdef TVM_FFI_TEST_SELF_IMPORT
/* The same library built as module_test_composite_cycle: one module, "_lib",
 * that imports itself (indptr = [0, 1], child_indices = [0]).  The loader
 * must refuse it. */
TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(8 * 2 + 8 * 1 + 8 * 2 + 8 + 4),
    U64(2), U64(0), U64(1),
    U64(1), U64(0),
    U64(4), '_', 'l', 'i', 'b'};
#else
/* nbytes, then indptr = [0, 1, 1], child_indices = [1],
 * "_lib", "testing_sys" + bytes "composite." */
TVM_FFI_DLL_EXPORT const unsigned char __tvm_ffi__library_bin[] = {
    U64(8 * 4 + 8 * 2 + 8 + 4 + 8 + 11 + 8 + 10),
    U64(3), U64(0), U64(1), U64(1),
    U64(1), U64(1),
    U64(4), '_', 'l', 'i', 'b',
    U64(11), 't', 'e', 's', 't', 'i', 'n', 'g', '_', 's', 'y', 's',
    U64(10), 'c', 'o', 'm', 'p', 'o', 's', 'i', 't', 'e', '.'};
#endif

/* sub_via_import(x): calls "sub_one" through the imports (found in the
 * system library under "__tvm_ffi_composite.sub_one"). */
TVM_FFI_DLL_EXPORT int __tvm_ffi_sub_via_import(void* handle, const TVMFFIAny* args,
                                                int32_t num_args, TVMFFIAny* result) {
  TVMFFIObjectHandle f = NULL;
  (void)handle;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, "sub_one", &f) != 0) return -1;
  return TVMFFIFunctionCall(f, (TVMFFIAny*)args, num_args, result);
}

/* Module loading from C, the way the stable-C-ABI examples do it: the
 * globals `ffi.Module.load_from_file.so` and `ffi.ModuleGetFunction`, on a
 * kernel library compiled against apache-tvm-ffi's own C header
 * (upstream_kernel.c).  Checks the functions, a tensor argument, metadata,
 * docs, TVMFFIEnvModLookupFromImports from inside the library, and errors.
 *
 *   usage: module_test_c <path of the upstream kernel library> */
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#include "../c/check.h"

static int twice(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)num_args;
  *result = int_value(2 * TVM_FFI_ANY_VALUE(args[0]).v_int64);
  return 0;
}

/* ffi.ModuleGetFunction(mod, name, query_imports=false) into *out. */
static int get_function(TVMFFIAny* mod, const char* name, TVMFFIAny* out) {
  TVMFFIAny args[3];
  args[0] = *mod;
  args[1] = raw_str_value(name);
  args[2] = none_value();
  args[2].type_index = kTVMFFIBool;
  return call_global("ffi.ModuleGetFunction", args, 3, out);
}

int main(int argc, char** argv) {
  TVMFFIAny args[3], mod, func, result;
  TVMFFIObjectHandle tw = NULL;
  TVMFFIByteArray name;
  float data[4] = {0.0f, 1.0f, 2.0f, 3.5f};
  int64_t shape[1] = {4};
  DLTensor tensor;
  char message[512];

  if (argc != 2) {
    printf("usage: %s <kernel library>\n", argv[0]);
    return 2;
  }

  /* Load: (path as a raw C string, format as a String). */
  args[0] = raw_str_value(argv[1]);
  args[1] = raw_str_value("so");
  CHECK(call_global("ffi.Module.load_from_file.so", args, 2, &mod) == 0);
  CHECK(mod.type_index == kTVMFFIModule);

  /* add_one over a DLTensor*, in place. */
  CHECK(get_function(&mod, "add_one", &func) == 0);
  CHECK(func.type_index == kTVMFFIFunction);
  memset(&tensor, 0, sizeof(tensor));
  tensor.data = data;
  tensor.device.device_type = kDLCPU;
  tensor.ndim = 1;
  tensor.dtype.code = kDLFloat;
  tensor.dtype.bits = 32;
  tensor.dtype.lanes = 1;
  tensor.shape = shape;
  args[0] = none_value();
  args[0].type_index = kTVMFFIDLTensorPtr;
  TVM_FFI_ANY_VALUE(args[0]).v_ptr = &tensor;
  result = none_value();
  CHECK(TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(func).v_obj, args, 1, &result) == 0);
  CHECK(data[0] == 1.0f && data[1] == 2.0f && data[2] == 3.0f && data[3] == 4.5f);
  /* Errors raised by the library come back with their kind. */
  args[0] = int_value(3);
  CHECK(TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(func).v_obj, args, 1, &result) == -1);
  CHECK(expect_error("TypeError", "add_one: expected a tensor"));
  release(&func);

  /* Metadata and doc. */
  args[0] = mod;
  args[1] = raw_str_value("add_one");
  args[2] = none_value();
  args[2].type_index = kTVMFFIBool;
  CHECK(call_global("ffi.ModuleGetFunctionMetadata", args, 3, &result) == 0);
  CHECK(text_is(&result, "{\"type_schema\": \"upstream-c\"}"));
  release(&result);
  CHECK(call_global("ffi.ModuleGetFunctionDoc", args, 3, &result) == 0);
  CHECK(text_is(&result, "Adds one in place (upstream C header)."));
  release(&result);

  /* The library finds a global function through its library context. */
  name = bytes_of("testing.module_c_twice");
  CHECK(TVMFFIFunctionCreate(NULL, twice, NULL, &tw) == 0);
  CHECK(TVMFFIFunctionSetGlobal(&name, tw, 1) == 0);
  CHECK(get_function(&mod, "lookup", &func) == 0);
  args[0] = raw_str_value("testing.module_c_twice");
  args[1] = int_value(21);
  CHECK(TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(func).v_obj, args, 2, &result) == 0);
  CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 42);
  args[0] = raw_str_value("testing.module_c_absent");
  CHECK(TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(func).v_obj, args, 2, &result) == -1);
  snprintf(message, sizeof(message),
           "TVMFFIEnvModLookupFromImports: cannot find function `testing.module_c_absent` in "
           "the imports of library \"%s\" or in the global function registry",
           argv[1]);
  CHECK(expect_error("RuntimeError", message));
  release(&func);
  TVMFFIObjectDecRef(tw);

  /* A missing function is None, not an error. */
  CHECK(get_function(&mod, "no_such_function", &func) == 0);
  CHECK(func.type_index == kTVMFFINone);
  release(&mod);

  /* A missing file names the path. */
  args[0] = raw_str_value("/nonexistent/libkernel.so");
  args[1] = raw_str_value("so");
  CHECK(call_global("ffi.Module.load_from_file.so", args, 2, &mod) == -1);
  CHECK(expect_error("RuntimeError",
                     "cannot load the shared library \"/nonexistent/libkernel.so\": "
                     "/nonexistent/libkernel.so: cannot open shared object file: No such file "
                     "or directory"));
  return check_summary("module_c");
}

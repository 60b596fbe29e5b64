/* A kernel library compiled against apache-tvm-ffi's own C header
 * (third_party/upstream, fetched by .ci/fetch-upstream.sh), loaded through
 * OUR load_module.  It uses only upstream's names and the symbol convention:
 *   __tvm_ffi_add_one(x: Tensor) -> None   x[i] += 1 (1-D float32, in place)
 *   __tvm_ffi__metadata_add_one / __tvm_ffi__doc_add_one
 *   __tvm_ffi_lookup(name: str, x: int)    calls name(x) via TVMFFIEnvModLookupFromImports
 */
#include <string.h>

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = NULL;

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static int return_str(const char* text, TVMFFIAny* result) {
  TVMFFIByteArray bytes;
  bytes.data = text;
  bytes.size = strlen(text);
  return TVMFFIStringFromByteArray(&bytes, result);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one(void* handle, const TVMFFIAny* args, int32_t num_args,
                                         TVMFFIAny* result) {
  DLTensor* t;
  int64_t i;
  (void)handle;
  (void)result;
  if (num_args != 1) return fail("TypeError", "add_one: expected 1 argument");
  if (args[0].type_index == kTVMFFITensor) {
    /* The DLTensor cell follows the 24-byte object header. */
    t = (DLTensor*)((char*)args[0].v_obj + sizeof(TVMFFIObject));
  } else if (args[0].type_index == kTVMFFIDLTensorPtr) {
    t = (DLTensor*)args[0].v_ptr;
  } else {
    return fail("TypeError", "add_one: expected a tensor");
  }
  if (t->ndim != 1 || t->dtype.code != kDLFloat || t->dtype.bits != 32 || t->dtype.lanes != 1) {
    return fail("TypeError", "add_one: expected a 1-D float32 tensor");
  }
  for (i = 0; i < t->shape[0]; ++i) {
    int64_t stride = t->strides == NULL ? 1 : t->strides[0];
    ((float*)((char*)t->data + t->byte_offset))[i * stride] += 1.0f;
  }
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__metadata_add_one(void* handle, const TVMFFIAny* args,
                                                   int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  return return_str("{\"type_schema\": \"upstream-c\"}", result);
}

TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_add_one(void* handle, const TVMFFIAny* args,
                                              int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  return return_str("Adds one in place (upstream C header).", result);
}

/* Copies a str argument in any of its three forms into buf (NUL-terminated). */
static int get_str(const TVMFFIAny* arg, char* buf, size_t cap) {
  const char* data;
  size_t size;
  if (arg->type_index == kTVMFFIRawStr) {
    data = arg->v_c_str;
    size = strlen(data);
  } else if (arg->type_index == kTVMFFISmallStr) {
    data = arg->v_bytes;
    size = arg->small_str_len;
  } else if (arg->type_index == kTVMFFIStr) {
    const TVMFFIByteArray* cell = (const TVMFFIByteArray*)((const char*)arg->v_obj +
                                                           sizeof(TVMFFIObject));
    data = cell->data;
    size = cell->size;
  } else {
    return -1;
  }
  if (size >= cap) return -1;
  memcpy(buf, data, size);
  buf[size] = '\0';
  return 0;
}

TVM_FFI_DLL_EXPORT int __tvm_ffi_lookup(void* handle, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  TVMFFIObjectHandle f = NULL;
  char name[128];
  (void)handle;
  if (num_args != 2 || get_str(&args[0], name, sizeof(name)) != 0) {
    return fail("TypeError", "lookup: expected (str, int)");
  }
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, name, &f) != 0) return -1;
  return TVMFFIFunctionCall(f, (TVMFFIAny*)&args[1], 1, result);
}

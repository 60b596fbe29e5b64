// The C side of the Go sample: the ABI layouts it needs (as in
// tvm/ffi/c_api.h), the library functions found with dlsym, and the
// trampolines between Go and C function pointers.
#ifndef TVM_FFI_GO_BRIDGE_H_
#define TVM_FFI_GO_BRIDGE_H_

#include <stddef.h>
#include <stdint.h>

// TVMFFIAny: { i32 type_index, u32 zero_padding | small_str_len, 8-byte payload }.
typedef struct {
  int32_t type_index;
  uint32_t small_str_len;
  uint64_t payload;
} Any;

// TVMFFIByteArray.
typedef struct {
  const char* data;
  size_t size;
} ByteArray;

// Opens libtvm_ffi and takes its functions; NULL on success, else dlerror().
const char* bridge_load(const char* path);
// dlopen of another library (RTLD_NOW | RTLD_LOCAL); NULL on success.
const char* bridge_load_extra(const char* path);

int bridge_inc_ref(void* obj);
int bridge_dec_ref(void* obj);
int bridge_get_global(const char* name, size_t size, void** out);
// On failure (nonzero) *error receives the raised error, taken from the slot
// in the same C call: the goroutine may run on another thread afterwards.
int bridge_call(void* func, Any* args, int32_t n, Any* result, void** error);
void bridge_error_set_raised(const char* kind, const char* message);
// A Function whose calls go to the Go function registered under `handle`.
int bridge_function_from_go(uintptr_t handle, void** out, void** error);

#endif

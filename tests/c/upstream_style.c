/* C written the way code for upstream's header is written: union members are
 * reached directly (`any.v_int64`, `obj->deleter`), with no accessor macro.
 * header_compile.sh builds it as C89, C99, C11 and C++ with GCC and Clang and
 * -pedantic-errors; every one of those modes must give anonymous unions. */
#include <string.h>

#include <tvm/ffi/c_api.h>

#if !defined(TVM_FFI_NAMED_UNIONS)
#if !TVM_FFI_ANONYMOUS_UNIONS
#error "GCC and Clang must get anonymous unions in every language mode"
#endif

static void set_int(TVMFFIAny* out, int64_t value) {
  memset(out, 0, sizeof(*out));
  out->type_index = kTVMFFIInt;
  out->v_int64 = value;
}

/* add(a: int, b: int) -> int, the shape of an exported __tvm_ffi_<name> kernel. */
static int add_kernel(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add expects (int, int)");
    return -1;
  }
  set_int(result, args[0].v_int64 + args[1].v_int64);
  return 0;
}

static size_t small_len(const TVMFFIAny* value) {
  return value->type_index == kTVMFFISmallStr ? value->small_str_len : 0;
}

static void release(TVMFFIObject* obj) {
  if (obj->deleter != NULL) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
}

static double payload_sum(const TVMFFIAny* value) {
  return (double)value->v_uint64 + value->v_float64 + (double)value->v_dtype.bits +
         (double)value->v_device.device_id + (double)(value->v_ptr != NULL) +
         (double)(value->v_c_str != NULL) + (double)(value->v_obj != NULL) +
         (double)value->v_bytes[0] + (double)value->zero_padding;
}

int main(void) {
  TVMFFIAny args[2];
  TVMFFIAny result;
  TVMFFIObject header;
  TVMFFIByteArray words;
  set_int(&args[0], 40);
  set_int(&args[1], 2);
  memset(&result, 0, sizeof(result));
  memset(&header, 0, sizeof(header));
  header.deleter = NULL;
  header.ensure_align = 0;
  release(&header);
  words = TVMFFIBigIntGetContentByteArray(&args[0]);
  (void)words;
  (void)payload_sum;
  (void)small_len;
  return add_kernel(NULL, args, 2, &result) == 0 && result.v_int64 == 42 ? 0 : 1;
}
#else
int main(void) { return 0; }
#endif

/* Compile-only check of the public headers: this file must build warning-free
 * as C89, C99, C11, C++11 and C++17 (see header_compile.sh).  It touches the
 * union accessors, the cell macros and a few prototypes so that a header bug
 * in any of them shows up here, not in a user's build. */
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

static int32_t touch_any(TVMFFIAny* any) {
  TVM_FFI_ANY_VALUE(*any).v_int64 = 42;
  TVM_FFI_ANY_PADDING(*any).small_str_len = 0;
  any->type_index = kTVMFFIInt;
  return any->type_index;
}

static void touch_object(TVMFFIObject* obj) {
  if (TVM_FFI_OBJECT_DELETER(obj) != NULL) {
    TVM_FFI_OBJECT_DELETER(obj)(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
  }
}

static TVMFFIErrorCell* error_cell(TVMFFIObjectHandle err) {
  return TVMFFIErrorGetCellPtr(err);
}

int main(void) {
  TVMFFIAny any;
  TVMFFIObject obj;
  TVMFFIVersion version;
  TVMFFISafeCallType call = NULL;
  TVMFFIStreamHandle stream = NULL;
  DLTensor tensor;
  obj.combined_ref_count = 1;
  obj.type_index = kTVMFFIObject;
  obj.zero_padding = 0;
  TVM_FFI_OBJECT_DELETER(&obj) = NULL;
  version.major = TVM_FFI_VERSION_MAJOR;
  (void)call;
  (void)stream;
  (void)tensor;
  (void)version;
  (void)error_cell;
  touch_object(&obj);
  return touch_any(&any) == kTVMFFIInt ? 0 : 1;
}

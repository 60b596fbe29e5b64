/* The public header together with the official DLPack header, in either
 * order (TVM_FFI_TEST_DLPACK_FIRST selects "dlpack.h first").  Built as C and
 * as C++ (dlpack_order.cc) against the dlpack.h that .ci/fetch-upstream.sh
 * unpacks from the apache-tvm-ffi package.  Both orders must compile without
 * warnings, agree on every DLPack layout, and pass DLPack values through the
 * library. */
#ifdef TVM_FFI_TEST_DLPACK_FIRST
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#define ORDER "dlpack.h first"
#else
#include <tvm/ffi/c_api.h>
#include <dlpack/dlpack.h>
#define ORDER "dlpack.h after"
#endif

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int passed = 0;
static int failed = 0;

static void check(int ok, const char* what) {
  printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  if (ok) {
    ++passed;
  } else {
    ++failed;
  }
}

int main(void) {
  TVMFFIByteArray name;
  DLDataType dtype;
  TVMFFIAny printed;
  TVMFFIAny value;
  DLDevice device;

  printf("%s, DLPack %d.%d\n", ORDER, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  check(DLPACK_MAJOR_VERSION == 1, "DLPACK_MAJOR_VERSION == 1");
  check(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4, "DLDevice 8, DLDataType 4 bytes");
  check(sizeof(DLTensor) == 48 && offsetof(DLTensor, byte_offset) == 40, "DLTensor layout");
  check(sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, deleter) == 56,
        "DLManagedTensor layout");
  check(sizeof(DLManagedTensorVersioned) == 80 &&
            offsetof(DLManagedTensorVersioned, dl_tensor) == 32,
        "DLManagedTensorVersioned layout");
  check(kDLCUDA == 2 && kDLTrn == 18 && kDLFloat4_e2m1fn == 17, "enum values");

  /* A DLDataType from whichever header won, through the library and back. */
  name.data = "bfloat16x4";
  name.size = strlen(name.data);
  memset(&dtype, 0, sizeof(dtype));
  check(TVMFFIDataTypeFromString(&name, &dtype) == 0 && dtype.code == kDLBfloat &&
            dtype.bits == 16 && dtype.lanes == 4,
        "TVMFFIDataTypeFromString(\"bfloat16x4\")");
  memset(&printed, 0, sizeof(printed));
  if (TVMFFIDataTypeToString(&dtype, &printed) == 0) {
    TVMFFIByteArray text;
    if (printed.type_index == kTVMFFISmallStr) {
      text.data = TVM_FFI_ANY_VALUE(printed).v_bytes;
      text.size = TVM_FFI_ANY_PADDING(printed).small_str_len;
    } else {
      text = *TVMFFIBytesGetByteArrayPtr(TVM_FFI_ANY_VALUE(printed).v_obj);
    }
    check(text.size == 10 && memcmp(text.data, "bfloat16x4", 10) == 0,
          "TVMFFIDataTypeToString gives \"bfloat16x4\"");
    if (printed.type_index >= kTVMFFIStaticObjectBegin) {
      TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(printed).v_obj);
    }
  } else {
    check(0, "TVMFFIDataTypeToString");
  }

  /* A DLDevice stored in a value and converted to an owned one. */
  memset(&value, 0, sizeof(value));
  value.type_index = kTVMFFIDevice;
  device.device_type = kDLCUDA;
  device.device_id = 3;
  TVM_FFI_ANY_VALUE(value).v_device = device;
  {
    TVMFFIAny owned;
    memset(&owned, 0, sizeof(owned));
    check(TVMFFIAnyViewToOwnedAny(&value, &owned) == 0 && owned.type_index == kTVMFFIDevice &&
              TVM_FFI_ANY_VALUE(owned).v_device.device_type == kDLCUDA &&
              TVM_FFI_ANY_VALUE(owned).v_device.device_id == 3,
          "DLDevice through TVMFFIAnyViewToOwnedAny");
  }

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

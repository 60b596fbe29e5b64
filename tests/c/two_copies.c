/* Two copies of libtvm_ffi in one process, and a kernel library loaded twice:
 * nothing may abort.
 *
 * This program is linked with libtvm_ffi (the first copy).  It then
 *  1. dlopen()s a second copy of the library under another file name
 *     (RTLD_LOCAL), as when a wheel's copy meets a system copy: the copy
 *     keeps its own registries (it binds its own calls, -Bsymbolic), so it
 *     loads cleanly, and values cross between the copies through the ABI;
 *  2. dlopen()s libtvm_ffi_testing, then a copy of it under another name:
 *     the copy's static registrations repeat the first one's in the one
 *     registry they share.  A repeat from another library is skipped (the
 *     first registration is kept, one line on stderr): no error is left in
 *     this thread's slot, and never std::terminate.
 *
 *   usage: two_copies <copy of libtvm_ffi.so> <libtvm_ffi_testing.so>
 *                     <copy of libtvm_ffi_testing.so> */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#include "check.h"

typedef int (*GetGlobalFn)(const TVMFFIByteArray*, TVMFFIObjectHandle*);
typedef int (*CallFn)(TVMFFIObjectHandle, TVMFFIAny*, int32_t, TVMFFIAny*);
typedef void (*MoveFromRaisedFn)(TVMFFIObjectHandle*);
typedef int (*DecRefFn)(TVMFFIObjectHandle);

int main(int argc, char** argv) {
  void* second;
  void* testing;
  void* testing_copy;
  GetGlobalFn get_global2;
  CallFn call2;
  MoveFromRaisedFn move_from_raised2;
  DecRefFn decref2;
  TVMFFIObjectHandle array_fn = NULL;
  TVMFFIObjectHandle err = NULL;
  TVMFFIObjectHandle echo = NULL;
  TVMFFIByteArray name;
  TVMFFIAny args[2];
  TVMFFIAny result;

  if (argc != 4) {
    printf("usage: %s <libtvm_ffi copy> <libtvm_ffi_testing> <libtvm_ffi_testing copy>\n", argv[0]);
    return 2;
  }

  /* 1. A second copy of the library. */
  second = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (second == NULL) printf("dlopen(%s): %s\n", argv[1], dlerror());
  CHECK(second != NULL);
  if (second == NULL) return check_summary("two copies");
  /* Its own static registrations succeeded: nothing was left in our slot... */
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);
  get_global2 = (GetGlobalFn)(size_t)dlsym(second, "TVMFFIFunctionGetGlobal");
  call2 = (CallFn)(size_t)dlsym(second, "TVMFFIFunctionCall");
  move_from_raised2 = (MoveFromRaisedFn)(size_t)dlsym(second, "TVMFFIErrorMoveFromRaised");
  decref2 = (DecRefFn)(size_t)dlsym(second, "TVMFFIObjectDecRef");
  CHECK(get_global2 != NULL && call2 != NULL && move_from_raised2 != NULL && decref2 != NULL);
  /* ...nor in its slot, and it really is a different copy. */
  move_from_raised2(&err);
  CHECK(err == NULL);
  CHECK((void*)get_global2 != (void*)TVMFFIFunctionGetGlobal);
  /* The copy's ffi.Array makes an Array this copy reads and releases. */
  name = bytes_of("ffi.Array");
  CHECK(get_global2(&name, &array_fn) == 0 && array_fn != NULL);
  if (array_fn != NULL) {
    args[0] = int_value(10);
    args[1] = int_value(20);
    result = none_value();
    CHECK(call2(array_fn, args, 2, &result) == 0);
    CHECK(result.type_index == kTVMFFIArray);
    if (result.type_index == kTVMFFIArray) {
      TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(TVM_FFI_ANY_VALUE(result).v_obj);
      const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
      CHECK(cell->size == 2);
      CHECK(items[0].type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(items[1]).v_int64 == 20);
      /* Released by the first copy: the object's own deleter (the second
       * copy's code) frees it. */
      CHECK(TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(result).v_obj) == 0);
    }
    decref2(array_fn);
  }

  /* 2. A kernel library, then a copy of it. */
  testing = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  if (testing == NULL) printf("dlopen(%s): %s\n", argv[2], dlerror());
  CHECK(testing != NULL);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);
  testing_copy = dlopen(argv[3], RTLD_NOW | RTLD_LOCAL);
  if (testing_copy == NULL) printf("dlopen(%s): %s\n", argv[3], dlerror());
  CHECK(testing_copy != NULL);
  /* The repeated registrations were skipped: nothing in our slot. */
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);
  if (err != NULL) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
    printf("error left by the duplicate load: %.*s: %.*s\n", (int)cell->kind.size,
           cell->kind.data, (int)cell->message.size, cell->message.data);
    TVMFFIObjectDecRef(err);
  }
  /* The first load's functions still work. */
  name = bytes_of("testing.echo");
  CHECK(TVMFFIFunctionGetGlobal(&name, &echo) == 0 && echo != NULL);
  if (echo != NULL) {
    args[0] = int_value(5);
    result = none_value();
    CHECK(TVMFFIFunctionCall(echo, args, 1, &result) == 0);
    CHECK(result.type_index == kTVMFFIInt && TVM_FFI_ANY_VALUE(result).v_int64 == 5);
    TVMFFIObjectDecRef(echo);
  }
  return check_summary("two copies");
}

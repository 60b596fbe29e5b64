/* A tour of the tvm-ffi C ABI in one file: `make` builds and runs it.
 *
 * Everything here goes through <tvm/ffi/c_api.h> and libtvm_ffi.so only,
 * exactly as a program written in C (or any language with a C FFI) would:
 *
 *   cc -std=c99 demo.c -ltvm_ffi
 *
 * Conventions to know before reading:
 *   - A TVMFFIAny is a 16-byte tagged value: type_index says what it holds.
 *     type_index >= kTVMFFIStaticObjectBegin (64) means "holds an object",
 *     and an owned object must be released with TVMFFIObjectDecRef.
 *   - Functions that can fail return 0 on success and -1 on failure; the
 *     error waits in a per-thread slot, taken with TVMFFIErrorMoveFromRaised.
 *   - TVM_FFI_ANY_VALUE(v).v_int64 reads the payload in every C standard
 *     (C11 and C++ may also write v.v_int64 directly).
 */
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

static TVMFFIByteArray text(const char* s) {
  TVMFFIByteArray b = {s, strlen(s)};
  return b;
}

static TVMFFIAny make_none(void) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v)); /* unused bytes of a value must be zero */
  v.type_index = kTVMFFINone;
  return v;
}

static TVMFFIAny make_int(int64_t x) {
  TVMFFIAny v = make_none();
  v.type_index = kTVMFFIInt;
  TVM_FFI_ANY_VALUE(v).v_int64 = x;
  return v;
}

/* The characters of a string value, in its small (<= 7 bytes, inline) or
 * heap (a String object) form. */
static TVMFFIByteArray string_contents(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFISmallStr) {
    TVMFFIByteArray b = {TVM_FFI_ANY_VALUE(*v).v_bytes, TVM_FFI_ANY_PADDING(*v).small_str_len};
    return b;
  }
  return *TVMFFIBytesGetByteArrayPtr(TVM_FFI_ANY_VALUE(*v).v_obj);
}

static void release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(TVM_FFI_ANY_VALUE(*v).v_obj);
}

/* Takes the pending error and prints its kind and message. */
static void print_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return;
  TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  printf("  caught %.*s: %.*s\n", (int)cell->kind.size, cell->kind.data,
         (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
}

/* A function written in C, in the "safe call" convention every tvm-ffi
 * function follows: args are borrowed views, result is written on success,
 * and failure returns -1 with an error raised. */
static int add_ints(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 2 || args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "demo.add expects two ints");
    return -1;
  }
  *result = make_int(TVM_FFI_ANY_VALUE(args[0]).v_int64 + TVM_FFI_ANY_VALUE(args[1]).v_int64);
  return 0;
}

int main(void) {
  /* 1. Version: the header's and the loaded library's. */
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  printf("tvm-ffi %u.%u.%u (header %d.%d.%d)\n", v.major, v.minor, v.patch,
         TVM_FFI_VERSION_MAJOR, TVM_FFI_VERSION_MINOR, TVM_FFI_VERSION_PATCH);

  /* 2. Make a Function from the C function, register it under a global
   *    name, look it up again (as any other library could) and call it. */
  TVMFFIObjectHandle add = NULL;
  TVMFFIByteArray name = text("demo.add");
  if (TVMFFIFunctionCreate(NULL, add_ints, NULL, &add) != 0 ||
      TVMFFIFunctionSetGlobal(&name, add, /*allow_override=*/0) != 0) {
    print_error();
    return 1;
  }
  TVMFFIObjectDecRef(add); /* the registry keeps its own reference */

  TVMFFIObjectHandle found = NULL;
  TVMFFIFunctionGetGlobal(&name, &found);
  TVMFFIAny args[2] = {make_int(40), make_int(2)};
  TVMFFIAny result = make_none(); /* a result slot starts out as None */
  if (TVMFFIFunctionCall(found, args, 2, &result) == 0) {
    printf("demo.add(40, 2) = %lld\n", (long long)TVM_FFI_ANY_VALUE(result).v_int64);
  }

  /* 3. Errors: a bad argument makes the call fail; the caller takes the
   *    error and reads its kind and message. */
  args[1].type_index = kTVMFFIFloat;
  TVM_FFI_ANY_VALUE(args[1]).v_float64 = 2.5;
  printf("demo.add(40, 2.5) returned %d\n", TVMFFIFunctionCall(found, args, 2, &result));
  print_error();
  TVMFFIObjectDecRef(found);

  /* 4. Strings: short ones are stored inline, longer ones are objects. */
  const char* words[] = {"tvm", "a string longer than seven bytes"};
  for (int i = 0; i < 2; ++i) {
    TVMFFIByteArray in = text(words[i]);
    TVMFFIAny s;
    TVMFFIStringFromByteArray(&in, &s);
    TVMFFIByteArray out = string_contents(&s);
    printf("string \"%.*s\" -> %s, %zu bytes\n", (int)out.size, out.data,
           s.type_index == kTVMFFISmallStr ? "small (inline)" : "String object", out.size);
    release(&s);
  }

  /* 5. Data types: parse a name, print it back; unknown names are errors. */
  const char* dtype_names[] = {"float32", "int8x4", "bfloat16", "float8_e4m3fn", "float33.5"};
  for (int i = 0; i < 5; ++i) {
    TVMFFIByteArray in = text(dtype_names[i]);
    DLDataType dtype;
    if (TVMFFIDataTypeFromString(&in, &dtype) != 0) {
      printf("dtype \"%s\" is not a data type:\n", dtype_names[i]);
      print_error();
      continue;
    }
    TVMFFIAny printed;
    TVMFFIDataTypeToString(&dtype, &printed);
    TVMFFIByteArray out = string_contents(&printed);
    printf("dtype \"%s\" -> {code %d, bits %d, lanes %d} -> \"%.*s\"\n", dtype_names[i],
           dtype.code, dtype.bits, dtype.lanes, (int)out.size, out.data);
    release(&printed);
  }
  return 0;
}

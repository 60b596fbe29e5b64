/* Loads cxx_kernel.cc's library -- C++ compiled against UPSTREAM
 * apache-tvm-ffi's C++ headers, linked with OUR libtvm_ffi -- and drives its
 * compat_cxx.* globals from C through the ABI only.  Containers are made on
 * either side and read, iterated and mutated on the other.
 *
 *   usage: compat_cxx_driver <path to libcompat_cxx_kernel.so> */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#include "../c/check.h"

/* Calls the global with up to 3 arguments; 0 or the call's rc. */
static int call(const char* name, int32_t n, TVMFFIAny a0, TVMFFIAny a1, TVMFFIAny a2,
                TVMFFIAny* result) {
  TVMFFIAny args[3];
  args[0] = a0;
  args[1] = a1;
  args[2] = a2;
  return call_global(name, args, n, result);
}

static int64_t as_int(const TVMFFIAny* v) {
  return v->type_index == kTVMFFIInt ? TVM_FFI_ANY_VALUE(*v).v_int64 : -999999;
}

/* ffi.<kind>Size / GetItem on a map value; -999999 on failure. */
static int64_t our_size(const char* kind, TVMFFIAny m) {
  char name[64];
  TVMFFIAny r;
  snprintf(name, sizeof(name), "ffi.%sSize", kind);
  if (call(name, 1, m, none_value(), none_value(), &r) != 0) return -999999;
  return as_int(&r);
}

static int64_t our_get_int(const char* kind, TVMFFIAny m, TVMFFIAny key) {
  char name[64];
  TVMFFIAny r;
  int64_t out;
  snprintf(name, sizeof(name), "ffi.%sGetItem", kind);
  if (call(name, 2, m, key, none_value(), &r) != 0) return -999999;
  out = as_int(&r);
  release(&r);
  return out;
}

/* Our iterator functor over a map: the int values in iteration order. */
static int our_values(const char* kind, TVMFFIAny m, int64_t* out, int max) {
  char name[64];
  TVMFFIAny it, r, cmd;
  int n = 0;
  snprintf(name, sizeof(name), "ffi.%sForwardIterFunctor", kind);
  if (our_size(kind, m) == 0) return 0;
  if (call(name, 1, m, none_value(), none_value(), &it) != 0) return -1;
  for (;;) {
    cmd = int_value(1);
    r = none_value(); /* the result slot holds None on entry (the safe-call contract) */
    if (n >= max || TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(it).v_obj, &cmd, 1, &r) != 0) break;
    out[n++] = as_int(&r);
    release(&r);
    cmd = int_value(2);
    r = none_value();
    if (TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(it).v_obj, &cmd, 1, &r) != 0) break;
    if (r.type_index != kTVMFFIBool || TVM_FFI_ANY_VALUE(r).v_int64 == 0) break;
  }
  release(&it);
  return n;
}

/* The element count of an Array or List (its cell follows the header). */
static int64_t seq_size(const TVMFFIAny* v) {
  return TVMFFISeqGetCellPtr(TVM_FFI_ANY_VALUE(*v).v_obj)->size;
}
static const TVMFFIAny* seq_items(const TVMFFIAny* v) {
  return (const TVMFFIAny*)TVMFFISeqGetCellPtr(TVM_FFI_ANY_VALUE(*v).v_obj)->data;
}

static void test_arrays_and_lists(void) {
  TVMFFIAny args[4], arr, r, lst;
  int i;
  for (i = 0; i < 4; ++i) args[i] = int_value(i + 1);
  CHECK(call_global("ffi.Array", args, 4, &arr) == 0);
  CHECK(call("compat_cxx.array_sum", 1, arr, none_value(), none_value(), &r) == 0);
  CHECK(as_int(&r) == 10);
  CHECK(call("compat_cxx.array_append", 2, arr, int_value(5), none_value(), &r) == 0);
  CHECK(r.type_index == kTVMFFIArray && seq_size(&r) == 5 && seq_size(&arr) == 4);
  release(&r);
  release(&arr);
  CHECK(call_global("ffi.List", args, 1, &lst) == 0);
  CHECK(call("compat_cxx.list_push", 2, lst, raw_str_value("x"), none_value(), &r) == 0);
  CHECK(seq_size(&lst) == 2 && text_is(&seq_items(&lst)[1], "x"));
  release(&lst);
  CHECK(call("compat_cxx.make_list", 1, int_value(3), none_value(), none_value(), &lst) == 0);
  CHECK(lst.type_index == kTVMFFIList && seq_size(&lst) == 3 && as_int(&seq_items(&lst)[2]) == 2);
  release(&lst);
}

/* A Map of ours (n int keys i*31 -> i) read, iterated and copied-on-write
 * by upstream's inline code; its table equals the one upstream builds. */
static void test_our_map(int n) {
  TVMFFIAny args[2 * 64], m, r, flat;
  int i, ok = 1;
  for (i = 0; i < n; ++i) {
    args[2 * i] = int_value(i * 31);
    args[2 * i + 1] = int_value(i);
  }
  CHECK(call_global("ffi.Map", args, 2 * n, &m) == 0);
  CHECK(call("compat_cxx.map_size", 1, m, none_value(), none_value(), &r) == 0 &&
        as_int(&r) == n);
  if (n <= 4) {
    /* The small form, its pairs inside the object (one allocation): the
     * cell's data pointer (header + 24) points just past the cell (header +
     * 80), with room for 2 pairs, or 4 from 3 pairs on. */
    const char* obj = (const char*)m.v_obj;
    void* data;
    uint64_t slots;
    memcpy(&data, obj + 24, sizeof(data));
    memcpy(&slots, obj + 40, sizeof(slots));
    CHECK(data == (const void*)(obj + 80));
    CHECK(slots == ((uint64_t)1 << 63 | (uint64_t)(n <= 2 ? 2 : 4)));
  }
  for (i = 0; i < n; ++i) {
    if (call("compat_cxx.map_get", 2, m, int_value(i * 31), none_value(), &r) != 0 ||
        as_int(&r) != i) {
      ok = 0;
    }
  }
  CHECK(ok);
  CHECK(call("compat_cxx.map_get", 2, m, int_value(-1), none_value(), &r) == -1);
  CHECK(expect_error("KeyError", "key is not in Map"));
  CHECK(call("compat_cxx.map_items", 1, m, none_value(), none_value(), &flat) == 0);
  CHECK(flat.type_index == kTVMFFIArray && seq_size(&flat) == 2 * n);
  for (i = 0; ok && i < n; ++i) ok = as_int(&seq_items(&flat)[2 * i + 1]) == i;
  CHECK(ok);
  CHECK(call("compat_cxx.map_same_table_as_upstream", 2, m, flat, none_value(), &r) == 0);
  CHECK(text_is(&r, ""));
  release(&r);
  release(&flat);
  CHECK(call("compat_cxx.map_set", 3, m, int_value(-7), int_value(70), &r) == 0);
  CHECK(our_size("Map", r) == n + 1 && our_size("Map", m) == n);
  CHECK(our_get_int("Map", r, int_value(-7)) == 70);
  release(&r);
  release(&m);
}

/* Larger Maps of ours, built by ffi.Map pair by pair, equal the tables
 * upstream's code builds from the same pairs: many growths, chains moved out
 * of the way, long probes.  kind 0: int keys i*7919; 1: str keys "key
 * number i" (heap strings); 2: str keys "k<i>" (small strings up to 7 bytes);
 * 3: str keys of 1-40 bytes. */
static void test_our_big_map(int kind, int n) {
  TVMFFIAny* args = (TVMFFIAny*)malloc(sizeof(TVMFFIAny) * 2 * (size_t)n);
  char* text = (char*)malloc((size_t)n * 48);
  TVMFFIAny m, r, flat;
  int i, k, ok = 1;
  for (i = 0; i < n; ++i) {
    char* t = text + (size_t)i * 48;
    if (kind == 0) {
      args[2 * i] = int_value((int64_t)i * 7919);
    } else {
      if (kind == 1) {
        snprintf(t, 48, "key number %d", i);
      } else if (kind == 2) {
        snprintf(t, 48, "k%d", i);
      } else {
        int len = 1 + (i * 7) % 40;
        for (k = 0; k < len; ++k) t[k] = (char)('a' + (i * 13 + k * 5) % 26);
        snprintf(t + len, 48 - (size_t)len, "%d", i); /* distinct keys */
      }
      args[2 * i] = raw_str_value(t);
    }
    args[2 * i + 1] = int_value(i);
  }
  CHECK(call_global("ffi.Map", args, 2 * n, &m) == 0);
  CHECK(our_size("Map", m) == n);
  for (i = 0; i < n; ++i) ok = ok && our_get_int("Map", m, args[2 * i]) == i;
  CHECK(ok);
  CHECK(call("compat_cxx.map_items", 1, m, none_value(), none_value(), &flat) == 0);
  CHECK(call("compat_cxx.map_same_table_as_upstream", 2, m, flat, none_value(), &r) == 0);
  if (!text_is(&r, "")) printf("kind %d, %d keys: tables differ\n", kind, n);
  CHECK(text_is(&r, ""));
  release(&r);
  release(&flat);
  release(&m);
  free(text);
  free(args);
}

/* A Map made by upstream's code read and iterated by our library. */
static void test_their_map(void) {
  TVMFFIAny m, r;
  int64_t values[64];
  int i, n, ok = 1;
  CHECK(call("compat_cxx.make_map", 1, int_value(40), none_value(), none_value(), &m) == 0);
  CHECK(m.type_index == kTVMFFIMap);
  CHECK(our_size("Map", m) == 40);
  CHECK(our_get_int("Map", m, raw_str_value("k17")) == 17);
  CHECK(call("ffi.MapGetItem", 2, m, raw_str_value("k40"), none_value(), &r) == -1);
  CHECK(expect_error("KeyError", "key \"k40\" not found in Map"));
  n = our_values("Map", m, values, 64);
  CHECK(n == 40);
  for (i = 0; i < n; ++i) ok = ok && values[i] == i;
  CHECK(ok);
  release(&m);
}

/* Dicts mutated in place by both sides. */
static void test_dicts(void) {
  TVMFFIAny d, r;
  int64_t values[64];
  int i, ok = 1;
  /* Ours, grown by upstream's code: 2 -> 4 slots, dense, rehashes. */
  CHECK(call_global("ffi.Dict", NULL, 0, &d) == 0);
  for (i = 0; i < 30; ++i) {
    if (call("compat_cxx.dict_set", 3, d, int_value(i), int_value(i * 2), &r) != 0) ok = 0;
  }
  CHECK(ok);
  CHECK(our_size("Dict", d) == 30);
  CHECK(our_get_int("Dict", d, int_value(29)) == 58);
  CHECK(call("compat_cxx.dict_erase", 2, d, int_value(3), none_value(), &r) == 0);
  CHECK(call("ffi.DictSetItem", 3, d, int_value(100), int_value(1), &r) == 0);
  CHECK(call("compat_cxx.dict_get", 2, d, int_value(100), none_value(), &r) == 0 &&
        as_int(&r) == 1);
  CHECK(our_values("Dict", d, values, 64) == 30);
  CHECK(values[2] == 4 && values[3] == 8 && values[29] == 1);
  CHECK(call("compat_cxx.dict_clear", 1, d, none_value(), none_value(), &r) == 0);
  CHECK(our_size("Dict", d) == 0);
  release(&d);
  /* Theirs, grown by our library out of its inline small storage. */
  CHECK(call("compat_cxx.make_dict", 1, int_value(2), none_value(), none_value(), &d) == 0);
  CHECK(d.type_index == kTVMFFIDict);
  for (i = 0; i < 20; ++i) {
    if (call("ffi.DictSetItem", 3, d, int_value(i), int_value(i), &r) != 0) ok = 0;
  }
  CHECK(ok);
  CHECK(call("ffi.DictErase", 2, d, raw_str_value("k0"), none_value(), &r) == 0);
  CHECK(call("compat_cxx.dict_get", 2, d, int_value(19), none_value(), &r) == 0 &&
        as_int(&r) == 19);
  CHECK(call("compat_cxx.dict_get", 2, d, raw_str_value("k1"), none_value(), &r) == 0 &&
        as_int(&r) == 1);
  CHECK(call("compat_cxx.dict_get", 2, d, raw_str_value("k0"), none_value(), &r) == -1);
  CHECK(expect_error("KeyError", "key is not in Map"));
  release(&d);
}

static void test_strings_shapes_tensors(void) {
  TVMFFIAny r, s;
  const DLTensor* t;
  CHECK(call("compat_cxx.concat", 2, raw_str_value("tvm"), raw_str_value("-ffi, longer than 8"),
             none_value(), &r) == 0);
  CHECK(text_is(&r, "tvm-ffi, longer than 8"));
  release(&r);
  CHECK(call("compat_cxx.make_shape", 3, int_value(2), int_value(3), int_value(4), &s) == 0);
  CHECK(s.type_index == kTVMFFIShape);
  CHECK(call("compat_cxx.shape_prod", 1, s, none_value(), none_value(), &r) == 0 &&
        as_int(&r) == 24);
  release(&s);
  CHECK(call("compat_cxx.make_tensor_f32", 2, int_value(2), int_value(3), none_value(), &r) == 0);
  CHECK(r.type_index == kTVMFFITensor);
  if (r.type_index == kTVMFFITensor) {
    t = TVMFFITensorGetDLTensorPtr(TVM_FFI_ANY_VALUE(r).v_obj);
    CHECK(t->ndim == 2 && t->shape[0] == 2 && t->shape[1] == 3);
    CHECK(((const float*)t->data)[5] == 2.5f);
    CHECK(call("compat_cxx.tensor_sum_f32", 1, r, none_value(), none_value(), &s) == 0);
    CHECK(s.type_index == kTVMFFIFloat && TVM_FFI_ANY_VALUE(s).v_float64 == 7.5);
  }
  release(&r);
}

/* raise_for_kernel(x): our function, raising an error for the kernel to catch. */
static int raise_for_kernel(void* self, const TVMFFIAny* args, int32_t num_args,
                            TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)num_args;
  (void)result;
  TVMFFIErrorSetRaisedFromCStr("IndexError", "from the C driver");
  return -1;
}

static void test_errors_and_reflection(void) {
  TVMFFIAny r, p;
  TVMFFIObjectHandle f = NULL;
  const TVMFFITypeInfo* info;
  int32_t i, found = 0;
  CHECK(call("compat_cxx.raise_value_error", 1, raw_str_value("boom"), none_value(), none_value(),
             &r) == -1);
  CHECK(expect_error("ValueError", "kernel says: boom"));
  CHECK(TVMFFIFunctionCreate(NULL, raise_for_kernel, NULL, &f) == 0);
  CHECK(call("compat_cxx.call_and_catch", 2, object_value(f), int_value(1), none_value(), &r) ==
        0);
  CHECK(text_is(&r, "IndexError: from the C driver"));
  release(&r);
  TVMFFIObjectDecRef(f);
  CHECK(call("compat_cxx.make_point", 2, int_value(3), int_value(4), none_value(), &p) == 0);
  CHECK(p.type_index >= kTVMFFIDynObjectBegin);
  info = TVMFFIGetTypeInfo(p.type_index);
  CHECK(info != NULL && byte_array_equals(info->type_key, "compat_cxx.Point"));
  if (info != NULL) {
    for (i = 0; i < info->num_fields; ++i) {
      const TVMFFIFieldInfo* field = &info->fields[i];
      if (byte_array_equals(field->name, "y")) {
        TVMFFIAny v = none_value();
        CHECK(field->getter((char*)TVM_FFI_ANY_VALUE(p).v_obj + field->offset, &v) == 0);
        CHECK(as_int(&v) == 4);
        found = 1;
      }
    }
  }
  CHECK(found);
  CHECK(call("compat_cxx.point_sum", 1, p, none_value(), none_value(), &r) == 0 &&
        as_int(&r) == 7);
  release(&p);
}

int main(int argc, char** argv) {
  void* lib;
  int n;
  if (argc != 2) {
    printf("usage: %s <libcompat_cxx_kernel.so>\n", argv[0]);
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    printf("FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  test_arrays_and_lists();
  for (n = 0; n <= 40; n += (n < 10 ? 1 : 15)) test_our_map(n);
  for (n = 100; n <= 3000; n = n * 3 + 100) {
    int kind;
    for (kind = 0; kind < 4; ++kind) test_our_big_map(kind, n);
  }
  test_their_map();
  test_dicts();
  test_strings_shapes_tensors();
  test_errors_and_reflection();
  return check_summary(NULL);
}

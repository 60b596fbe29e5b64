/* Loads UPSTREAM apache-tvm-ffi's own libtvm_ffi_testing.so (from the
 * released package) into a process running OUR libtvm_ffi, and checks the
 * values its Map and Dict functions return.  Those functions build maps with
 * upstream's inline C++ code, and their typed parameters iterate our maps
 * inline to check element types.
 *
 * The library needs `libtvm_ffi.so` by name and looks in its own directory
 * first; CMake copies it into a directory whose libtvm_ffi.so is a symlink
 * to ours, so the loader finds the copy already in the process.
 *
 *   usage: compat_upstream_testing_driver <dir>/libtvm_ffi_testing.so */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

#include "../c/check.h"

static int tensor_deleted = 0;
static float tensor_data[3] = {1.0f, 2.0f, 3.0f};
static int64_t tensor_shape[1] = {3};

static void delete_tensor(DLManagedTensorVersioned* self) {
  (void)self;
  ++tensor_deleted;
}

static int64_t as_int(const TVMFFIAny* v) {
  return v->type_index == kTVMFFIInt ? TVM_FFI_ANY_VALUE(*v).v_int64 : -999999;
}

static int get(const char* kind, TVMFFIAny m, const char* key, TVMFFIAny* out) {
  char name[64];
  TVMFFIAny args[2];
  snprintf(name, sizeof(name), "ffi.%sGetItem", kind);
  args[0] = m;
  args[1] = raw_str_value(key);
  return call_global(name, args, 2, out);
}

static int64_t size_of(const char* kind, TVMFFIAny m) {
  char name[64];
  TVMFFIAny r;
  snprintf(name, sizeof(name), "ffi.%sSize", kind);
  return call_global(name, &m, 1, &r) == 0 ? as_int(&r) : -999999;
}

/* The keys of a map in our iteration order, joined by ",". */
static void keys_of(const char* kind, TVMFFIAny m, char* out, size_t cap) {
  char name[64];
  TVMFFIAny it, r, cmd;
  out[0] = '\0';
  snprintf(name, sizeof(name), "ffi.%sForwardIterFunctor", kind);
  if (size_of(kind, m) <= 0 || call_global(name, &m, 1, &it) != 0) return;
  for (;;) {
    TVMFFIByteArray text;
    cmd = int_value(0);
    r = none_value(); /* the result slot holds None on entry (the safe-call contract) */
    if (TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(it).v_obj, &cmd, 1, &r) != 0) break;
    text = text_of(&r);
    if (out[0] != '\0') strncat(out, ",", cap - strlen(out) - 1);
    strncat(out, text.data, text.size < cap - strlen(out) - 1 ? text.size : cap - strlen(out) - 1);
    release(&r);
    cmd = int_value(2);
    r = none_value();
    if (TVMFFIFunctionCall(TVM_FFI_ANY_VALUE(it).v_obj, &cmd, 1, &r) != 0 ||
        TVM_FFI_ANY_VALUE(r).v_int64 == 0) {
      break;
    }
  }
  release(&it);
}

int main(int argc, char** argv) {
  DLManagedTensorVersioned managed;
  TVMFFIObjectHandle tensor = NULL;
  TVMFFIAny args[4], m, r, inner;
  char keys[256];
  int i, ok;
  if (argc != 2) {
    printf("usage: %s <libtvm_ffi_testing.so>\n", argv[0]);
    return 2;
  }
  if (dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) == NULL) {
    printf("FAIL: dlopen: %s\n", dlerror());
    return 1;
  }
  memset(&managed, 0, sizeof(managed));
  managed.version.major = DLPACK_MAJOR_VERSION;
  managed.version.minor = DLPACK_MINOR_VERSION;
  managed.dl_tensor.data = tensor_data;
  managed.dl_tensor.device.device_type = kDLCPU;
  managed.dl_tensor.ndim = 1;
  managed.dl_tensor.dtype.code = kDLFloat;
  managed.dl_tensor.dtype.bits = 32;
  managed.dl_tensor.dtype.lanes = 1;
  managed.dl_tensor.shape = tensor_shape;
  managed.deleter = delete_tensor;
  CHECK(TVMFFITensorFromDLPackVersioned(&managed, 0, 0, &tensor) == 0);
  args[0] = object_value(tensor);

  /* A Map made by upstream's code. */
  CHECK(call_global("testing.make_map_with_tensor", args, 1, &m) == 0);
  CHECK(m.type_index == kTVMFFIMap && size_of("Map", m) == 3);
  CHECK(get("Map", m, "value", &r) == 0 && as_int(&r) == 42);
  CHECK(get("Map", m, "name", &r) == 0 && text_is(&r, "test"));
  release(&r);
  CHECK(get("Map", m, "tensor", &r) == 0 && TVM_FFI_ANY_VALUE(r).v_obj == tensor);
  release(&r);
  keys_of("Map", m, keys, sizeof(keys));
  CHECK(strcmp(keys, "tensor,value,name") == 0);
  release(&m);

  /* Nested: a Map holding an Array and a Map. */
  args[1] = args[0];
  CHECK(call_global("testing.make_nested_map_with_tensor", args, 2, &m) == 0);
  CHECK(size_of("Map", m) == 3);
  CHECK(get("Map", m, "scalar", &r) == 0 && as_int(&r) == 99);
  CHECK(get("Map", m, "map", &inner) == 0 && inner.type_index == kTVMFFIMap);
  CHECK(get("Map", inner, "t", &r) == 0 && TVM_FFI_ANY_VALUE(r).v_obj == tensor);
  release(&r);
  release(&inner);
  release(&m);

  /* A Dict made by upstream's code, then grown by ours. */
  CHECK(call_global("testing.make_dict_with_tensor", args, 1, &m) == 0);
  CHECK(m.type_index == kTVMFFIDict && size_of("Dict", m) == 2);
  CHECK(get("Dict", m, "value", &r) == 0 && as_int(&r) == 42);
  ok = 1;
  for (i = 0; i < 12; ++i) {
    args[0] = m;
    args[1] = int_value(i);
    args[2] = int_value(i * 3);
    if (call_global("ffi.DictSetItem", args, 3, &r) != 0) ok = 0;
  }
  CHECK(ok && size_of("Dict", m) == 14);
  CHECK(get("Dict", m, "tensor", &r) == 0 && TVM_FFI_ANY_VALUE(r).v_obj == tensor);
  release(&r);
  release(&m);

  /* Typed parameters iterate our maps inline; identity functions return them. */
  ok = 1;
  {
    TVMFFIAny kv[2 * 40];
    char names[40][8];
    for (i = 0; i < 40; ++i) {
      snprintf(names[i], sizeof(names[i]), "n%d", i);
      kv[2 * i] = raw_str_value(names[i]);
      kv[2 * i + 1] = int_value(i);
    }
    CHECK(call_global("ffi.Map", kv, 2 * 40, &m) == 0);
    CHECK(call_global("testing.schema_id_map_str_int", &m, 1, &r) == 0);
    CHECK(r.type_index == kTVMFFIMap && TVM_FFI_ANY_VALUE(r).v_obj == TVM_FFI_ANY_VALUE(m).v_obj);
    release(&r);
    release(&m);
    kv[3] = raw_str_value("not an int");
    CHECK(call_global("ffi.Map", kv, 4, &m) == 0);
    CHECK(call_global("testing.schema_id_map_str_int", &m, 1, &r) == -1);
    CHECK(expect_error("TypeError",
                       "Mismatched type on argument #0 when calling: "
                       "`testing.schema_id_map_str_int(0: Map<str, int>) -> Map<str, int>`. "
                       "Expected `Map<str, int>` but got `Map[K, some value is ffi.String]`"));
    release(&m);
    CHECK(call_global("ffi.Dict", kv, 2, &m) == 0);
    CHECK(call_global("testing.schema_id_dict_str_int", &m, 1, &r) == 0);
    CHECK(TVM_FFI_ANY_VALUE(r).v_obj == TVM_FFI_ANY_VALUE(m).v_obj);
    release(&r);
    release(&m);
  }

  /* schema_arr_map_opt([1, None], {"k": [1, 2]}, "s") -> {"k": [1, 2], "s": [1]} */
  {
    TVMFFIAny elems[2], arr, kv[2];
    elems[0] = int_value(1);
    elems[1] = none_value();
    CHECK(call_global("ffi.Array", elems, 2, &args[0]) == 0);
    elems[1] = int_value(2);
    CHECK(call_global("ffi.Array", elems, 2, &arr) == 0);
    kv[0] = raw_str_value("k");
    kv[1] = arr;
    CHECK(call_global("ffi.Map", kv, 2, &args[1]) == 0);
    args[2] = raw_str_value("s");
    CHECK(call_global("testing.schema_arr_map_opt", args, 3, &m) == 0);
    CHECK(size_of("Map", m) == 2);
    keys_of("Map", m, keys, sizeof(keys));
    CHECK(strcmp(keys, "k,s") == 0);
    CHECK(get("Map", m, "s", &r) == 0 && r.type_index == kTVMFFIArray &&
          TVMFFISeqGetCellPtr(TVM_FFI_ANY_VALUE(r).v_obj)->size == 1);
    release(&r);
    release(&m);
    release(&arr);
    release(&args[0]);
    release(&args[1]);
  }

  CHECK(tensor_deleted == 0);
  TVMFFIObjectDecRef(tensor);
  CHECK(tensor_deleted == 1);
  return check_summary(NULL);
}

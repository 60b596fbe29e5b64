// testing.CPoint: an object type registered through the C API alone (no C++
// headers of ours), for the JSON graph and pickle round trips of a type
// registered in C.
//
//   layout = { TVMFFIObject, int64_t x, double y, TVMFFIAny label }
//   fields x (int, default 0), y (float, default 0.0), label (any, default None);
//   creator makes (0, 0.0, None); __ffi_init__ is not registered (the tests
//   build one through ffi.FromJSONGraphString or testing.make_c_point).
#include <stdlib.h>
#include <string.h>

#include <tvm/ffi/c_api.h>

extern "C" {

typedef struct {
  TVMFFIObject header;
  int64_t x;
  double y;
  TVMFFIAny label;
} TestingCPoint;

static int32_t g_cpoint_index = -1;

static void CPointDeleter(void* self, int flags) {
  TestingCPoint* p = (TestingCPoint*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    if (p->label.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(p->label.v_obj);
    p->label.type_index = kTVMFFINone;
    p->label.v_int64 = 0;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(p);
}

static int CPointCreate(TVMFFIObjectHandle* result) {
  TestingCPoint* p = (TestingCPoint*)calloc(1, sizeof(TestingCPoint));
  if (p == NULL) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", "testing.CPoint: out of memory");
    return -1;
  }
  p->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  p->header.type_index = g_cpoint_index;
  p->header.deleter = CPointDeleter;
  p->label.type_index = kTVMFFINone;
  *result = p;
  return 0;
}

static int GetInt(void* field, TVMFFIAny* out) {
  out->type_index = kTVMFFIInt;
  out->zero_padding = 0;
  out->v_int64 = *(int64_t*)field;
  return 0;
}
static int SetInt(void* field, const TVMFFIAny* v) {
  if (v->type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "testing.CPoint.x: expected int");
    return -1;
  }
  *(int64_t*)field = v->v_int64;
  return 0;
}
static int GetFloat(void* field, TVMFFIAny* out) {
  out->type_index = kTVMFFIFloat;
  out->zero_padding = 0;
  out->v_float64 = *(double*)field;
  return 0;
}
static int SetFloat(void* field, const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIFloat) {
    *(double*)field = v->v_float64;
  } else if (v->type_index == kTVMFFIInt) {
    *(double*)field = (double)v->v_int64;
  } else {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "testing.CPoint.y: expected float");
    return -1;
  }
  return 0;
}
static int GetAny(void* field, TVMFFIAny* out) { return TVMFFIAnyViewToOwnedAny((TVMFFIAny*)field, out); }
static int SetAny(void* field, const TVMFFIAny* v) {
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return -1;
  TVMFFIAny* slot = (TVMFFIAny*)field;
  if (slot->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(slot->v_obj);
  *slot = owned;
  return 0;
}

static TVMFFIByteArray Bytes(const char* s) {
  TVMFFIByteArray b;
  b.data = s;
  b.size = strlen(s);
  return b;
}

static int RegisterField(const char* name, int64_t offset, TVMFFIFieldGetter getter,
                         TVMFFIFieldSetter setter, int32_t static_index, TVMFFIAny def) {
  TVMFFIFieldInfo f;
  memset(&f, 0, sizeof(f));
  f.name = Bytes(name);
  f.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault;
  f.size = 8;
  f.alignment = 8;
  f.offset = offset;
  f.getter = getter;
  f.setter = (void*)setter;
  f.default_value_or_factory = def;
  f.field_static_type_index = static_index;
  return TVMFFITypeRegisterField(g_cpoint_index, &f);
}

// testing.make_c_point(x, y, label)
static int MakeCPoint(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 3) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "testing.make_c_point(x, y, label) takes 3 arguments");
    return -1;
  }
  TVMFFIObjectHandle h;
  if (CPointCreate(&h) != 0) return -1;
  TestingCPoint* p = (TestingCPoint*)h;
  if (SetInt(&p->x, &args[0]) != 0 || SetFloat(&p->y, &args[1]) != 0 ||
      SetAny(&p->label, &args[2]) != 0) {
    TVMFFIObjectDecRef(h);
    return -1;
  }
  result->type_index = g_cpoint_index;
  result->zero_padding = 0;
  result->v_obj = (TVMFFIObject*)h;
  return 0;
}

static int RegisterCPoint(void) {
  TVMFFIByteArray key = Bytes("testing.CPoint");
  g_cpoint_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIObject);
  if (g_cpoint_index < 0) return -1;
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.doc = Bytes("A point registered through the C API (tests of JSON graphs).");
  meta.creator = CPointCreate;
  meta.total_size = (int32_t)sizeof(TestingCPoint);
  if (TVMFFITypeRegisterMetadata(g_cpoint_index, &meta) != 0) return -1;
  TVMFFIAny zero_i, zero_f, none;
  memset(&zero_i, 0, sizeof(zero_i));
  zero_i.type_index = kTVMFFIInt;
  memset(&zero_f, 0, sizeof(zero_f));
  zero_f.type_index = kTVMFFIFloat;
  memset(&none, 0, sizeof(none));
  if (RegisterField("x", offsetof(TestingCPoint, x), GetInt, SetInt, kTVMFFIInt, zero_i) != 0 ||
      RegisterField("y", offsetof(TestingCPoint, y), GetFloat, SetFloat, kTVMFFIFloat, zero_f) != 0 ||
      RegisterField("label", offsetof(TestingCPoint, label), GetAny, SetAny, kTVMFFIAny, none) != 0) {
    return -1;
  }
  TVMFFIObjectHandle fn;
  if (TVMFFIFunctionCreate(NULL, MakeCPoint, NULL, &fn) != 0) return -1;
  TVMFFIByteArray name = Bytes("testing.make_c_point");
  int rc = TVMFFIFunctionSetGlobal(&name, fn, 0);
  TVMFFIObjectDecRef(fn);
  return rc;
}

__attribute__((constructor)) static void RegisterCPointAtLoad(void) {
  if (RegisterCPoint() != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);  // a second load: the names are taken; keep going
    if (err != NULL) TVMFFIObjectDecRef(err);
  }
}

}  // extern "C"

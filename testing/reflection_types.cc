// testing.S* object types for structural equality, hashing, deep copy, repr and keyword init.
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// testing.SVar: a free variable; `name` is ignored by equality and hashing.
class SVarObj : public Object {
 public:
  String name;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SVarObj, "testing.SVar", PlainObject)
};

// testing.SNode: a tree node; `tag` is ignored by equality and hashing and
// `note` is hidden from repr.
class SNodeObj : public Object {
 public:
  int64_t value = 0;
  Any children;
  String tag;
  String note;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SNodeObj, "testing.SNode", PlainObject)
};

// testing.SFunc: `params` opens a recursive definition region, `body` refers to them.
class SFuncObj : public Object {
 public:
  Any params;
  Any body;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SFuncObj, "testing.SFunc", PlainObject)
};

// testing.SLet: `var` opens a non-recursive definition region.
class SLetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SLetObj, "testing.SLet", PlainObject)
};

// testing.SDag: a DAG node (sharing is part of its structure).
class SDagObj : public Object {
 public:
  Any value;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SDagObj, "testing.SDag", PlainObject)
};

// testing.SUnique: equal only to itself.
class SUniqueObj : public Object {
 public:
  int64_t value = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SUniqueObj, "testing.SUnique", PlainObject)
};

// testing.SNoEq: structural equality is Unsupported (the default kind).
class SNoEqObj : public Object {
 public:
  int64_t value = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SNoEqObj, "testing.SNoEq", PlainObject)
};

// testing.SPinned: reflected fields but no default constructor, hence no
// creator: deep copy refuses it.
class SPinnedObj : public Object {
 public:
  explicit SPinnedObj(int64_t v) : value(v) {}
  int64_t value;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SPinnedObj, "testing.SPinned", PlainObject)
};

// testing.SKw: keyword construction; `a` required, `b` defaults to 2,
// `c` keyword-only with default "c", `d` no init parameter (default 0.5).
class SKwObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  String c;
  double d = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(SKwObj, "testing.SKw", PlainObject)
};

// testing.CIntPair: registered through the C ABI only (no ObjectDef), as a C
// library would: x and y are int64 fields read and written by plain C functions.
struct CIntPair {
  TVMFFIObject header;
  int64_t x;
  int64_t y;
};

int CIntPairGet(void* field, TVMFFIAny* result) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = *static_cast<int64_t*>(field);
  return 0;
}

int CIntPairSet(void* field, const TVMFFIAny* value) {
  if (value->type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "CIntPair fields take an int");
    return -1;
  }
  *static_cast<int64_t*>(field) = value->v_int64;
  return 0;
}

void CIntPairDeleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) std::free(self);
}

int32_t g_c_int_pair_index = -1;

int CIntPairCreate(TVMFFIObjectHandle* out) {
  CIntPair* p = static_cast<CIntPair*>(std::calloc(1, sizeof(CIntPair)));
  if (p == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("MemoryError", "out of memory");
    return -1;
  }
  p->header.combined_ref_count = Object::kInitialCount;
  p->header.type_index = g_c_int_pair_index;
  TVM_FFI_OBJECT_DELETER(&p->header) = &CIntPairDeleter;
  *out = &p->header;
  return 0;
}

void RegisterCIntPair() {
  static const char kKey[] = "testing.CIntPair";
  TVMFFIByteArray key{kKey, sizeof(kKey) - 1};
  g_c_int_pair_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIObject);
  if (g_c_int_pair_index < 0) ThrowRaised(g_c_int_pair_index);
  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  meta.total_size = sizeof(CIntPair);
  meta.creator = &CIntPairCreate;
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  if (TVMFFITypeRegisterMetadata(g_c_int_pair_index, &meta) != 0) ThrowRaised(-1);
  const char* names[2] = {"x", "y"};
  int64_t offsets[2] = {offsetof(CIntPair, x), offsetof(CIntPair, y)};
  for (int i = 0; i < 2; ++i) {
    TVMFFIFieldInfo f;
    std::memset(&f, 0, sizeof(f));
    f.name = TVMFFIByteArray{names[i], std::strlen(names[i])};
    f.flags = kTVMFFIFieldFlagBitMaskWritable;
    f.size = sizeof(int64_t);
    f.alignment = alignof(int64_t);
    f.offset = offsets[i];
    f.getter = &CIntPairGet;
    f.setter = reinterpret_cast<void*>(&CIntPairSet);
    f.field_static_type_index = kTVMFFIInt;
    if (TVMFFITypeRegisterField(g_c_int_pair_index, &f) != 0) ThrowRaised(-1);
  }
}

const bool kRegistered = RunAtLoad([] {
  ObjectDef<SVarObj>("A free variable.", kTVMFFISEqHashKindFreeVar)
      .FieldWithFlags("name", &SVarObj::name, kTVMFFIFieldFlagBitMaskSEqHashIgnore)
      .AutoInit();
  ObjectDef<SNodeObj>("A tree node.", kTVMFFISEqHashKindTreeNode)
      .Field("value", &SNodeObj::value, "", Any(int64_t(0)))
      .Field("children", &SNodeObj::children, "", Any())
      .Field("tag", &SNodeObj::tag, "", Any(""), kTVMFFIFieldFlagBitMaskSEqHashIgnore)
      .Field("note", &SNodeObj::note, "", Any(""), kTVMFFIFieldFlagBitMaskReprOff)
      .AutoInit();
  ObjectDef<SFuncObj>("A function: params bind the variables of body.",
                      kTVMFFISEqHashKindTreeNode)
      .FieldWithFlags("params", &SFuncObj::params, kTVMFFIFieldFlagBitMaskSEqHashDefRecursive)
      .Field("body", &SFuncObj::body)
      .AutoInit();
  ObjectDef<SLetObj>("let var = value in body (var: non-recursive definition).",
                     kTVMFFISEqHashKindTreeNode)
      .FieldWithFlags("var", &SLetObj::var, kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive)
      .Field("value", &SLetObj::value)
      .Field("body", &SLetObj::body)
      .AutoInit();
  ObjectDef<SDagObj>("A DAG node.", kTVMFFISEqHashKindDAGNode)
      .Field("value", &SDagObj::value)
      .AutoInit();
  ObjectDef<SUniqueObj>("A unique instance.", kTVMFFISEqHashKindUniqueInstance)
      .Field("value", &SUniqueObj::value)
      .AutoInit();
  ObjectDef<SNoEqObj>("No structural equality.").Field("value", &SNoEqObj::value).AutoInit();
  ObjectDef<SPinnedObj>("No creator.", kTVMFFISEqHashKindTreeNode)
      .Field("value", &SPinnedObj::value)
      .Init<int64_t>();
  ObjectDef<SKwObj>("Keyword construction.", kTVMFFISEqHashKindTreeNode)
      .Field("a", &SKwObj::a)
      .Field("b", &SKwObj::b, "", Any(int64_t(2)))
      .Field("c", &SKwObj::c, "", Any("c"), kTVMFFIFieldFlagBitMaskKwOnly)
      .Field("d", &SKwObj::d, "", Any(0.5), kTVMFFIFieldFlagBitMaskInitOff)
      .AutoInit();
  RegisterCIntPair();
});

// A linked chain of `n` SNode objects (children = the next), built without recursion.
TVMFFI_REGISTER_GLOBAL("testing.make_snode_chain", [](int64_t n) -> Any {
  Any next;
  for (int64_t i = 0; i < n; ++i) {
    ObjectPtr<SNodeObj> node = MakeObject<SNodeObj>();
    node->value = i;
    node->children = std::move(next);
    next = Any(ObjectRef(std::move(node)));
  }
  return next;
});

// Sets SNode.children after construction (to make cycles).
TVMFFI_REGISTER_GLOBAL("testing.snode_set_children", [](ObjectRef node, Any children) {
  if (node.type_index() != SNodeObj::RuntimeTypeIndex()) {
    TVMFFI_THROW(TypeError) << "expected testing.SNode";
  }
  static_cast<SNodeObj*>(node.get_mutable())->children = std::move(children);
});

TVMFFI_REGISTER_GLOBAL("testing.make_spinned", [](int64_t v) {
  return ObjectRef(MakeObject<SPinnedObj>(v));
});

// testing.CIntPair(x, y) from C++ (the type has no __ffi_init__ of its own).
TVMFFI_REGISTER_GLOBAL("testing.make_c_int_pair", [](int64_t x, int64_t y) {
  TVMFFIObjectHandle h = nullptr;
  if (CIntPairCreate(&h) != 0) ThrowRaised(-1);
  CIntPair* p = static_cast<CIntPair*>(h);
  p->x = x;
  p->y = y;
  return ObjectRef(ObjectPtr<Object>::AdoptHandle(h));
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

// testing.S* object types for structural equality, hashing, deep copy, repr and keyword init.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// testing.SVar: a free variable; `name` is ignored by equality and hashing.
class SVarObj : public Object {
 public:
  String name;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindFreeVar;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SVar", SVarObj, Object);
};

// testing.SNode: a tree node; `tag` is ignored by equality and hashing and
// `note` is hidden from repr.
class SNodeObj : public Object {
 public:
  int64_t value = 0;
  Any children;
  String tag;
  String note;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SNode", SNodeObj, Object);
};

// testing.SFunc: `params` opens a recursive definition region, `body` refers to them.
class SFuncObj : public Object {
 public:
  Any params;
  Any body;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SFunc", SFuncObj, Object);
};

// testing.SLet: `var` opens a non-recursive definition region.
class SLetObj : public Object {
 public:
  Any var;
  Any value;
  Any body;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SLet", SLetObj, Object);
};

// testing.SDag: a DAG node (sharing is part of its structure).
class SDagObj : public Object {
 public:
  Any value;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindDAGNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SDag", SDagObj, Object);
};

// testing.SUnique: equal only to itself.
class SUniqueObj : public Object {
 public:
  int64_t value = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUniqueInstance;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SUnique", SUniqueObj, Object);
};

// testing.SNoEq: structural equality is Unsupported (the default kind).
class SNoEqObj : public Object {
 public:
  int64_t value = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SNoEq", SNoEqObj, Object);
};

// testing.SPinned: reflected fields but no default constructor, hence no
// creator: deep copy refuses it.
class SPinnedObj : public Object {
 public:
  explicit SPinnedObj(int64_t v) : value(v) {}
  int64_t value;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SPinned", SPinnedObj, Object);
};

class SPinned : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(SPinned, ObjectRef, SPinnedObj);
};

// testing.SKw: keyword construction; `a` required, `b` defaults to 2,
// `c` keyword-only with default "c", `d` no init parameter (default 0.5).
class SKwObj : public Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  String c;
  double d = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SKw", SKwObj, Object);
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
  // One strong and one weak reference, as a new object starts.
  p->header.combined_ref_count = (uint64_t{1} << 32) | 1;
  p->header.type_index = g_c_int_pair_index;
  TVM_FFI_OBJECT_DELETER(&p->header) = &CIntPairDeleter;
  *out = &p->header;
  return 0;
}

void RegisterCIntPair() {
  static const char kKey[] = "testing.CIntPair";
  TVMFFIByteArray key{kKey, sizeof(kKey) - 1};
  g_c_int_pair_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIObject);
  if (g_c_int_pair_index < 0) ThrowRaised();
  TVMFFITypeMetadata meta;
  std::memset(&meta, 0, sizeof(meta));
  meta.total_size = sizeof(CIntPair);
  meta.creator = &CIntPairCreate;
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(g_c_int_pair_index, &meta));
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
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(g_c_int_pair_index, &f));
  }
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<SVarObj>("A free variable.", refl::init(false))
      .def_rw("name", &SVarObj::name, refl::AttachFieldFlag::SEqHashIgnore());
  KeepTestingAttrs<SVarObj>(true);
  refl::ObjectDef<SNodeObj>("A tree node.", refl::init(false))
      .def_rw("value", &SNodeObj::value, refl::default_value(int64_t(0)))
      .def_rw("children", &SNodeObj::children, refl::default_value(Any()))
      .def_rw("tag", &SNodeObj::tag, refl::default_value(""),
              refl::AttachFieldFlag::SEqHashIgnore())
      .def_rw("note", &SNodeObj::note, refl::default_value(""), refl::repr(false));
  KeepTestingAttrs<SNodeObj>(true);
  refl::ObjectDef<SFuncObj>("A function: params bind the variables of body.", refl::init(false))
      .def_rw("params", &SFuncObj::params, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_rw("body", &SFuncObj::body);
  KeepTestingAttrs<SFuncObj>(true);
  refl::ObjectDef<SLetObj>("let var = value in body (var: non-recursive definition).",
                           refl::init(false))
      .def_rw("var", &SLetObj::var, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_rw("value", &SLetObj::value)
      .def_rw("body", &SLetObj::body);
  KeepTestingAttrs<SLetObj>(true);
  refl::ObjectDef<SDagObj>("A DAG node.", refl::init(false)).def_rw("value", &SDagObj::value);
  KeepTestingAttrs<SDagObj>(true);
  refl::ObjectDef<SUniqueObj>("A unique instance.",
                              refl::init(false)).def_rw("value", &SUniqueObj::value);
  KeepTestingAttrs<SUniqueObj>(true);
  refl::ObjectDef<SNoEqObj>("No structural equality.",
                            refl::init(false)).def_rw("value", &SNoEqObj::value);
  KeepTestingAttrs<SNoEqObj>(true);
  refl::ObjectDef<SPinnedObj>("No creator.", refl::init(false))
      .def_rw("value", &SPinnedObj::value)
      .def_static("__ffi_init__", InitOf<SPinnedObj, int64_t>());
  KeepTestingAttrs<SPinnedObj>();
  refl::ObjectDef<SKwObj>("Keyword construction.", refl::init(false))
      .def_rw("a", &SKwObj::a)
      .def_rw("b", &SKwObj::b, refl::default_value(int64_t(2)))
      .def_rw("c", &SKwObj::c, refl::default_value("c"), refl::kw_only(true))
      .def_rw("d", &SKwObj::d, refl::default_value(0.5), refl::init(false));
  KeepTestingAttrs<SKwObj>(true);
  RegisterCIntPair();

  refl::GlobalDef()
      // A linked chain of `n` SNode objects (children = the next), built without recursion.
      .def("testing.make_snode_chain",
           [](int64_t n) -> Any {
             Any next;
             for (int64_t i = 0; i < n; ++i) {
               ObjectPtr<SNodeObj> node = make_object<SNodeObj>();
               node->value = i;
               node->children = std::move(next);
               next = Any(ObjectRef(std::move(node)));
             }
             return next;
           })
      // Sets SNode.children after construction (to make cycles).
      .def("testing.snode_set_children",
           [](ObjectRef node, Any children) {
             if (node->type_index() != SNodeObj::RuntimeTypeIndex()) {
               TVM_FFI_THROW(TypeError) << "expected testing.SNode";
             }
             const_cast<SNodeObj*>(static_cast<const SNodeObj*>(node.get()))->children =
                 std::move(children);
           })
      .def("testing.make_spinned",
           [](int64_t v) { return ObjectRef(make_object<SPinnedObj>(v)); })
      // testing.CIntPair(x, y) from C++ (the type has no __ffi_init__ of its own).
      .def("testing.make_c_int_pair", [](int64_t x, int64_t y) {
        TVMFFIObjectHandle h = nullptr;
        TVM_FFI_CHECK_SAFE_CALL(CIntPairCreate(&h));
        CIntPair* p = static_cast<CIntPair*>(h);
        p->x = x;
        p->y = y;
        return ObjectRef(::tvm::ffi::detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(
            static_cast<TVMFFIObject*>(h)));
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

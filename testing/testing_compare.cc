// testing.TestCompare and testing.TestHash: types with fields left out of
// ffi.RecursiveEq/Lt/... (compare(false)) and of ffi.RecursiveHash (hash(false)).
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <utility>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// testing.TestCompare(key, name, ignored_field): `ignored_field` takes no
// part in comparison (and so none in hashing either).
class TestCompareObj : public Object {
 public:
  int64_t key = 0;
  String name;
  int64_t ignored_field = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCompare", TestCompareObj, Object);
};

// testing.TestHash(key, name, hash_ignored): `hash_ignored` is compared but
// not hashed.
class TestHashObj : public Object {
 public:
  int64_t key = 0;
  String name;
  int64_t hash_ignored = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestHash", TestHashObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<TestCompareObj>("Compared by key and name only.", refl::init(false))
      .def_rw("key", &TestCompareObj::key)
      .def_rw("name", &TestCompareObj::name)
      .def_rw("ignored_field", &TestCompareObj::ignored_field, refl::compare(false));
  KeepTestingAttrs<TestCompareObj>(true);
  refl::ObjectDef<TestHashObj>("Hashed by key and name only.", refl::init(false))
      .def_rw("key", &TestHashObj::key)
      .def_rw("name", &TestHashObj::name)
      .def_rw("hash_ignored", &TestHashObj::hash_ignored, refl::hash(false));
  KeepTestingAttrs<TestHashObj>(true);

  // Makers for tests that do not register a Python class for these types.
  refl::GlobalDef()
      .def("testing.make_test_compare",
           [](int64_t key, String name, int64_t ignored_field) {
             ObjectPtr<TestCompareObj> p = make_object<TestCompareObj>();
             p->key = key;
             p->name = std::move(name);
             p->ignored_field = ignored_field;
             return ObjectRef(std::move(p));
           })
      .def("testing.make_test_hash", [](int64_t key, String name, int64_t hash_ignored) {
        ObjectPtr<TestHashObj> p = make_object<TestHashObj>();
        p->key = key;
        p->name = std::move(name);
        p->hash_ignored = hash_ignored;
        return ObjectRef(std::move(p));
      });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

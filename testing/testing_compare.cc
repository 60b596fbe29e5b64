// testing.TestCompare and testing.TestHash: types with fields left out of
// ffi.RecursiveEq/Lt/... (CompareOff) and of ffi.RecursiveHash (HashOff).
#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// testing.TestCompare(key, name, ignored_field): `ignored_field` takes no
// part in comparison (and so none in hashing either).
class TestCompareObj : public Object {
 public:
  int64_t key = 0;
  String name;
  int64_t ignored_field = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCompareObj, "testing.TestCompare", PlainObject)
};

// testing.TestHash(key, name, hash_ignored): `hash_ignored` is compared but
// not hashed.
class TestHashObj : public Object {
 public:
  int64_t key = 0;
  String name;
  int64_t hash_ignored = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestHashObj, "testing.TestHash", PlainObject)
};

const bool kRegistered = RunAtLoad([] {
  ObjectDef<TestCompareObj>("Compared by key and name only.", kTVMFFISEqHashKindTreeNode)
      .Field("key", &TestCompareObj::key)
      .Field("name", &TestCompareObj::name)
      .FieldWithFlags("ignored_field", &TestCompareObj::ignored_field,
                      kTVMFFIFieldFlagBitMaskCompareOff)
      .AutoInit();
  ObjectDef<TestHashObj>("Hashed by key and name only.", kTVMFFISEqHashKindTreeNode)
      .Field("key", &TestHashObj::key)
      .Field("name", &TestHashObj::name)
      .FieldWithFlags("hash_ignored", &TestHashObj::hash_ignored,
                      kTVMFFIFieldFlagBitMaskHashOff)
      .AutoInit();
});

// Makers for tests that do not register a Python class for these types.
TVMFFI_REGISTER_GLOBAL("testing.make_test_compare",
                       [](int64_t key, String name, int64_t ignored_field) {
                         ObjectPtr<TestCompareObj> p = MakeObject<TestCompareObj>();
                         p->key = key;
                         p->name = std::move(name);
                         p->ignored_field = ignored_field;
                         return ObjectRef(std::move(p));
                       });
TVMFFI_REGISTER_GLOBAL("testing.make_test_hash",
                       [](int64_t key, String name, int64_t hash_ignored) {
                         ObjectPtr<TestHashObj> p = MakeObject<TestHashObj>();
                         p->key = key;
                         p->name = std::move(name);
                         p->hash_ignored = hash_ignored;
                         return ObjectRef(std::move(p));
                       });

}  // namespace
}  // namespace core
}  // namespace tvmffi

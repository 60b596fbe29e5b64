// testing.* enum types upstream apache-tvm-ffi's test suite uses (same type
// keys, parents, fields and globals):
//   testing.TestEnumVariant  an ffi.Enum with C++ singletons Alpha (code=10)
//                            and Beta (code=20); testing.enum_variant_get(name)
//                            (testing.enum_variant_register makes them)
//   testing.TestCxxIntEnum   an ffi.IntEnum, singletons defined from Python
//   testing.TestCxxStrEnum   an ffi.StrEnum, singletons defined from Python
//   testing.TestCxxEnumHolder  fields priority (TestCxxIntEnum) and opcode
//                            (TestCxxStrEnum), __ffi_init__(priority, opcode)
#include <mutex>

#include <tvmffi/enum.h>
#include <tvmffi/function.h>
#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

class TestEnumVariantObj : public EnumObj {
 public:
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestEnumVariantObj, "testing.TestEnumVariant", EnumObj)
};

class TestCxxIntEnumObj : public IntEnumObj {
 public:
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxIntEnumObj, "testing.TestCxxIntEnum", IntEnumObj)
};

class TestCxxStrEnumObj : public StrEnumObj {
 public:
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxStrEnumObj, "testing.TestCxxStrEnum", StrEnumObj)
};

class TestCxxEnumHolderObj : public Object {
 public:
  EnumRef<TestCxxIntEnumObj> priority{ObjectPtr<Object>()};
  EnumRef<TestCxxStrEnumObj> opcode{ObjectPtr<Object>()};
  TVMFFI_DECLARE_DYNAMIC_TYPE(TestCxxEnumHolderObj, "testing.TestCxxEnumHolder", PlainObject)
};

const bool kRegistered = RunAtLoad([] {
  ObjectDef<TestEnumVariantObj>("A plain enum with C++ singletons Alpha and Beta.",
                                kTVMFFISEqHashKindUniqueInstance);
  ObjectDef<TestCxxIntEnumObj>("An IntEnum whose singletons Python defines.",
                               kTVMFFISEqHashKindUniqueInstance);
  ObjectDef<TestCxxStrEnumObj>("A StrEnum whose singletons Python defines.",
                               kTVMFFISEqHashKindUniqueInstance);
  ObjectDef<TestCxxEnumHolderObj>("Holds a TestCxxIntEnum and a TestCxxStrEnum.",
                                  kTVMFFISEqHashKindTreeNode)
      .Field("priority", &TestCxxEnumHolderObj::priority)
      .Field("opcode", &TestCxxEnumHolderObj::opcode)
      .AutoInit();
});

// Registers Alpha and Beta, unless the state has them already.  Not at load
// time: upstream's libtvm_ffi_testing.so registers the same singletons from
// its load-time code and throws (ending the process) when it finds them
// there, so a process may load it after this library
// (tests/python/test_duplicate_registration.py).  tvm_ffi.testing calls it
// on import, testing.enum_variant_get before each lookup.
void RegisterVariants() {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  const int32_t index = TestEnumVariantObj::RuntimeTypeIndex();
  EnumStateObj* state = EnumStateOf(index);
  if (state != nullptr && state->indexes.count(Any(String("Alpha"))) != 0) return;
  EnumDef<TestEnumVariantObj>("Alpha").Attr("code", Any(int64_t(10)));
  EnumDef<TestEnumVariantObj>("Beta").Attr("code", Any(int64_t(20)));
}

TVMFFI_REGISTER_GLOBAL("testing.enum_variant_register", [] { RegisterVariants(); });

// The TestEnumVariant singleton named `name`; ValueError when none is.
TVMFFI_REGISTER_GLOBAL("testing.enum_variant_get", [](const std::string& name) {
  RegisterVariants();
  return EnumGet(TestEnumVariantObj::RuntimeTypeIndex(), Any(String(name)));
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

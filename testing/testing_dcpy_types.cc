// testing.DCPoint and testing.DCFrozen: C++ types that the Python dataclass
// tests bind with @c_class and extend with @py_class (tests/python/test_dataclass_*.py).
#include <tvmffi/reflection.h>

namespace tvmffi {
namespace core {
namespace {

// testing.DCPoint: x (int, required), y (float, default 0.5), label (str,
// default "pt", keyword-only, left out of comparisons and hashing), note
// (str, default "", hidden from repr); norm1(self) -> |x| + |y|.
class DCPointObj : public Object {
 public:
  int64_t x = 0;
  double y = 0.5;
  String label{"pt"};
  String note;
  TVMFFI_DECLARE_DYNAMIC_TYPE(DCPointObj, "testing.DCPoint", PlainObject)
};

// testing.DCFrozen: one read-only field `id` (no Writable flag) and a
// writable `value`.
class DCFrozenObj : public Object {
 public:
  int64_t id = 7;
  int64_t value = 0;
  TVMFFI_DECLARE_DYNAMIC_TYPE(DCFrozenObj, "testing.DCFrozen", PlainObject)
};

const bool kRegistered = RunAtLoad([] {
  ObjectDef<DCPointObj>("A point for the dataclass tests.", kTVMFFISEqHashKindTreeNode)
      .Field("x", &DCPointObj::x, "abscissa")
      .Field("y", &DCPointObj::y, "ordinate", Any(0.5))
      .Field("label", &DCPointObj::label, "a name", Any("pt"),
             kTVMFFIFieldFlagBitMaskKwOnly | kTVMFFIFieldFlagBitMaskCompareOff |
                 kTVMFFIFieldFlagBitMaskHashOff)
      .Field("note", &DCPointObj::note, "", Any(""), kTVMFFIFieldFlagBitMaskReprOff)
      .Method("norm1",
              [](const ObjectRefOf<DCPointObj>& p) {
                return static_cast<double>(p->x < 0 ? -p->x : p->x) + (p->y < 0 ? -p->y : p->y);
              },
              "|x| + |y|")
      .AutoInit();
  ObjectDef<DCFrozenObj>("A type with a read-only field.", kTVMFFISEqHashKindTreeNode)
      .ReadOnlyField("id", &DCFrozenObj::id, "read-only")
      .Field("value", &DCFrozenObj::value, "", Any(int64_t(0)))
      .AutoInit();
});

}  // namespace
}  // namespace core
}  // namespace tvmffi

// testing.DCPoint and testing.DCFrozen: C++ types that the Python dataclass
// tests bind with @c_class and extend with @py_class (tests/python/test_dataclass_*.py).
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

// testing.DCPoint: x (int, required), y (float, default 0.5), label (str,
// default "pt", keyword-only, left out of comparisons and hashing), note
// (str, default "", hidden from repr); norm1(self) -> |x| + |y|.
class DCPointObj : public Object {
 public:
  int64_t x = 0;
  double y = 0.5;
  String label{"pt"};
  String note;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.DCPoint", DCPointObj, Object);
};

// testing.DCFrozen: one read-only field `id` (no Writable flag) and a
// writable `value`.
class DCFrozenObj : public Object {
 public:
  int64_t id = 7;
  int64_t value = 0;
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.DCFrozen", DCFrozenObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<DCPointObj>("A point for the dataclass tests.", refl::init(false))
      .def_rw("x", &DCPointObj::x, "abscissa")
      .def_rw("y", &DCPointObj::y, "ordinate", refl::default_value(0.5))
      .def_rw("label", &DCPointObj::label, "a name", refl::default_value("pt"),
              refl::kw_only(true), refl::compare(false), refl::hash(false))
      .def_rw("note", &DCPointObj::note, refl::default_value(""), refl::repr(false))
      .def(
          "norm1",
          [](const DCPointObj* p) {
            return static_cast<double>(p->x < 0 ? -p->x : p->x) + (p->y < 0 ? -p->y : p->y);
          },
          "|x| + |y|");
  KeepTestingAttrs<DCPointObj>(true);
  refl::ObjectDef<DCFrozenObj>("A type with a read-only field.", refl::init(false))
      .def_ro("id", &DCFrozenObj::id, "read-only")
      .def_rw("value", &DCFrozenObj::value, refl::default_value(int64_t(0)));
  KeepTestingAttrs<DCFrozenObj>(true);
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm

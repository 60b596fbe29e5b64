// reflection/native_function.h: typed hooks called natively or through a
// packed function, their errors, ownership, and the runtime calling hooks
// registered from here (the "__any_hash__" / "__any_equal__" columns).
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/registry.h>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "error_of.h"

using namespace tvm::ffi;
namespace refl = tvm::ffi::reflection;
using cxx_api_test::ErrorOf;

namespace {

using FPlusOne = refl::NativeFunctionView<int64_t(int64_t)>;

int64_t PlusOne(int64_t v) { return v + 1; }
int64_t RefuseNegative(int64_t v) {
  if (v < 0) TVM_FFI_THROW(ValueError) << "negative: " << v;
  return v;
}
int64_t ThrowsStd(int64_t) { throw std::runtime_error("plain std error"); }
Expected<int64_t> CheckedHalf(int64_t v) noexcept {
  if (v % 2 != 0) return Unexpected(Error("ValueError", "odd: " + std::to_string(v), ""));
  return v / 2;
}

// Keys that compare by value through native hooks.
class KeyObj : public Object {
 public:
  explicit KeyObj(int64_t v) : v(v) {}
  int64_t v;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("cxx_api_test.refl.Key", KeyObj, Object);
};

int g_hash_calls = 0;
int64_t KeyHash(const Any& key) {
  ++g_hash_calls;
  return key.as<KeyObj>()->v;
}
int g_equal_calls = 0;
bool KeyEqual(const Any& lhs, const Any& rhs) {
  ++g_equal_calls;
  const KeyObj* a = lhs.as<KeyObj>();
  const KeyObj* b = rhs.as<KeyObj>();
  return a != nullptr && b != nullptr && a->v == b->v;
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::TypeAttrDef<KeyObj>()
      .native_fn_attr<&KeyHash>(type_attr::kAnyHash)
      .native_fn_attr<&KeyEqual>(type_attr::kAnyEqual);
}

}  // namespace

TEST_CASE("native function: native targets", "[reflection]") {
  FPlusOne plus = FPlusOne::FromNative<&PlusOne>();
  CHECK(plus(41) == 42);
  Expected<int64_t> ok = plus.CallExpected(1);
  REQUIRE(ok.is_ok());
  CHECK(ok.value() == 2);

  FPlusOne refuse = FPlusOne::FromNative<&RefuseNegative>();
  Expected<int64_t> bad = refuse.CallExpected(-3);
  REQUIRE(bad.is_err());
  CHECK(bad.error().kind() == "ValueError");
  CHECK(bad.error().message() == "negative: -3");
  CHECK(ErrorOf([&] { refuse(-3); }) == "ValueError: negative: -3");

  CHECK(ErrorOf([] { FPlusOne::FromNative<&ThrowsStd>()(1); }) ==
        "InternalError: plain std error");

  FPlusOne half = FPlusOne::FromNative<&CheckedHalf>();
  CHECK(half(8) == 4);
  CHECK(ErrorOf([&] { half(7); }) == "ValueError: odd: 7");

  // As a value: an opaque pointer, strict in both directions.
  Any stored = plus;
  CHECK(stored.type_index() == kTVMFFIOpaquePtr);
  CHECK(stored.cast<FPlusOne>()(1) == 2);
  CHECK(!Any(int64_t{1}).try_cast<FPlusOne>().has_value());
  CHECK(!Any(static_cast<void*>(nullptr)).try_cast<FPlusOne>().has_value());
}

TEST_CASE("native function: packed targets", "[reflection]") {
  TypedFunction<int64_t(int64_t)> doubled = [](int64_t v) { return v * 2; };
  FPlusOne view(doubled);
  CHECK(view(21) == 42);
  Any stored = view;
  CHECK(stored.type_index() == kTVMFFIFunction);

  // The packed form may return an error value, or a result of the wrong type.
  TypedFunction<Expected<int64_t>(int64_t)> fails =
      Function::FromTyped([](int64_t) -> Any { return Error("KeyError", "no such key", ""); });
  CHECK(ErrorOf([&] { FPlusOne{fails}(1); }) == "KeyError: no such key");
  TypedFunction<int64_t(int64_t)> wrong =
      Function::FromTyped([](int64_t) -> Any { return String("not an int"); });
  CHECK(ErrorOf([&] { FPlusOne{wrong}(1); }) == "TypeError: Packed hook result type mismatch");
  TypedFunction<int64_t(int64_t)> raises =
      Function::FromTyped([](int64_t v) -> int64_t { TVM_FFI_THROW(IndexError) << v; });
  CHECK(ErrorOf([&] { FPlusOne{raises}(9); }) == "IndexError: 9");

  TypedFunction<int64_t(int64_t)> empty;
  CHECK(ErrorOf([&] { FPlusOne{empty}; }) ==
        "ValueError: Check failed: (packed != nullptr) is false: NativeFunctionView requires a "
        "non-null typed function");
}

TEST_CASE("native function: the owning form keeps a packed function alive", "[reflection]") {
  using Owned = refl::NativeFunction<int64_t(int64_t)>;
  std::optional<Owned> owned;
  {
    TypedFunction<int64_t(int64_t)> triple = [](int64_t v) { return v * 3; };
    CHECK(triple.packed().use_count() == 1);
    owned.emplace(triple);
    CHECK(triple.packed().use_count() == 2);
  }
  CHECK((*owned)(5) == 15);
  Owned native = Owned::FromNative<&PlusOne>();
  CHECK(native(1) == 2);
  Any round = native;
  CHECK(round.cast<Owned>()(2) == 3);
}

TEST_CASE("native function: the runtime calls hooks registered as native", "[reflection]") {
  ObjectRef a(make_object<KeyObj>(7));
  ObjectRef b(make_object<KeyObj>(7));
  ObjectRef c(make_object<KeyObj>(8));
  int hashes = g_hash_calls;
  int equals = g_equal_calls;
  CHECK(AnyHash()(a) == AnyHash()(b));
  CHECK(AnyHash()(a) != AnyHash()(c));
  CHECK(g_hash_calls == hashes + 4);
  CHECK(AnyEqual()(a, b));
  CHECK(!AnyEqual()(a, c));
  CHECK(g_equal_calls == equals + 2);
  Map<Any, int64_t> m{{a, 1}};
  CHECK(m.count(b) == 1);  // equal through the hook, though another object
  CHECK(m.count(c) == 0);
  AnyView entry =
      refl::TypeAttrColumn(type_attr::kAnyHash)[KeyObj::RuntimeTypeIndex()];
  CHECK(entry.type_index() == kTVMFFIOpaquePtr);
  CHECK(type_attr::kAnyHash.ValueFrom(entry).value()(a) == 7);
}

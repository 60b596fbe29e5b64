// type_traits.h: the on-stack values in and out of a TVMFFIAny.
#include <tvm/ffi/type_traits.h>

#include <catch2/catch.hpp>

#include <cstring>

using namespace tvm::ffi;

namespace {
enum class Color : int16_t { kRed = 3, kBlue = -2 };

// A value with every byte set, so tests see which bytes a write leaves alone.
TVMFFIAny Dirty() {
  TVMFFIAny v;
  std::memset(&v, 0xAB, sizeof(v));
  return v;
}
TVMFFIAny IntAny(int64_t x) {
  TVMFFIAny v = Dirty();
  TypeTraits<int64_t>::CopyToAnyView(x, &v);
  return v;
}
}  // namespace

TEST_CASE("type_traits: writes zero the padding and unused payload", "[type_traits]") {
  TVMFFIAny v = Dirty();
  TypeTraits<bool>::CopyToAnyView(true, &v);
  CHECK(v.type_index == kTVMFFIBool);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_int64 == 1);

  v = Dirty();
  TypeTraits<std::nullptr_t>::MoveToAny(nullptr, &v);
  CHECK(v.type_index == kTVMFFINone);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_int64 == 0);

  v = Dirty();
  TypeTraits<float>::CopyToAnyView(1.5f, &v);
  CHECK(v.type_index == kTVMFFIFloat);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_float64 == 1.5);

  v = Dirty();
  int target = 0;
  TypeTraits<void*>::CopyToAnyView(&target, &v);
  CHECK(v.type_index == kTVMFFIOpaquePtr);
  CHECK(v.zero_padding == 0);
  CHECK(v.v_ptr == &target);
}

TEST_CASE("type_traits: integers, enums and their conversions", "[type_traits]") {
  TVMFFIAny v = IntAny(-7);
  CHECK(v.type_index == kTVMFFIInt);
  CHECK(TypeTraits<int>::CheckAnyStrict(&v));
  CHECK(TypeTraits<int>::CopyFromAnyViewAfterCheck(&v) == -7);
  CHECK(TypeTraits<uint8_t>::TryCastFromAnyView(&v).value() == static_cast<uint8_t>(-7));

  TVMFFIAny e = Dirty();
  TypeTraits<Color>::CopyToAnyView(Color::kBlue, &e);
  CHECK(e.type_index == kTVMFFIInt);
  CHECK(e.v_int64 == -2);
  CHECK(TypeTraits<Color>::TryCastFromAnyView(&e).value() == Color::kBlue);
  CHECK(TypeTraits<Color>::TypeStr() == "int");

  // bool <-> int both ways; float reads both; StrictBool reads only bool.
  TVMFFIAny b = Dirty();
  TypeTraits<bool>::CopyToAnyView(true, &b);
  CHECK(TypeTraits<int>::TryCastFromAnyView(&b).value() == 1);
  CHECK_FALSE(TypeTraits<int>::CheckAnyStrict(&b));
  TVMFFIAny two = IntAny(2);
  CHECK(TypeTraits<bool>::TryCastFromAnyView(&two).value() == true);
  CHECK_FALSE(TypeTraits<bool>::CheckAnyStrict(&two));
  CHECK_FALSE(TypeTraits<StrictBool>::TryCastFromAnyView(&two).has_value());
  CHECK(static_cast<bool>(TypeTraits<StrictBool>::TryCastFromAnyView(&b).value()));
  CHECK(TypeTraits<double>::TryCastFromAnyView(&two).value() == 2.0);
  CHECK(TypeTraits<double>::TryCastFromAnyView(&b).value() == 1.0);
}

TEST_CASE("type_traits: mismatches and None", "[type_traits]") {
  TVMFFIAny f = Dirty();
  TypeTraits<double>::CopyToAnyView(0.25, &f);
  CHECK_FALSE(TypeTraits<int>::TryCastFromAnyView(&f).has_value());
  CHECK_FALSE(TypeTraits<bool>::TryCastFromAnyView(&f).has_value());
  CHECK_FALSE(TypeTraits<std::nullptr_t>::TryCastFromAnyView(&f).has_value());
  CHECK_FALSE(TypeTraits<void*>::TryCastFromAnyView(&f).has_value());

  TVMFFIAny none = Dirty();
  TypeTraits<std::nullptr_t>::CopyToAnyView(nullptr, &none);
  CHECK(TypeTraits<void*>::TryCastFromAnyView(&none).value() == nullptr);
  CHECK_FALSE(TypeTraits<void*>::CheckAnyStrict(&none));
  CHECK_FALSE(TypeTraits<int>::TryCastFromAnyView(&none).has_value());
  // The runtime's name of the value actually held.
  CHECK(TypeTraits<int>::GetMismatchTypeInfo(&f) == "float");
  CHECK(TypeTraits<int>::GetMismatchTypeInfo(&none) == "None");
}

TEST_CASE("type_traits: names, schemas and field indices", "[type_traits]") {
  CHECK(TypeTraits<int64_t>::TypeStr() == "int");
  CHECK(TypeTraits<bool>::TypeStr() == "bool");
  CHECK(TypeTraits<double>::TypeSchema() == R"({"type":"float"})");
  CHECK(TypeTraits<void*>::TypeSchema() == R"({"type":"void*"})");
  CHECK(TypeToFieldStaticTypeIndex<int>::value == kTVMFFIInt);
  CHECK(TypeToFieldStaticTypeIndex<StrictBool>::value == kTVMFFIBool);
  CHECK(TypeToFieldStaticTypeIndex<Color>::value == kTVMFFIInt);
  CHECK(TypeToRuntimeTypeIndex<float>::v() == kTVMFFIFloat);
  CHECK(TypeIndexToTypeKey(kTVMFFIInt) == "int");
  CHECK(type_subsumes_v<Any, int>);
  CHECK_FALSE(type_subsumes_v<int, double>);
}

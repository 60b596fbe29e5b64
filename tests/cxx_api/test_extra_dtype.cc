// extra/dtype.h: dtype_trait<T>::value.
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/extra/dtype.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using tvm::ffi::dtype_trait;

namespace {

template <typename T>
std::string Name() {
  return std::string(tvm::ffi::DLDataTypeToString(dtype_trait<T>::value));
}

// Whether dtype_trait<T> has a value.
template <typename T, typename = void>
struct has_value : std::false_type {};
template <typename T>
struct has_value<T, std::void_t<decltype(dtype_trait<T>::value)>> : std::true_type {};

}  // namespace

// A constant expression: usable in static_assert and templates.
static_assert(dtype_trait<int32_t>::value.code == kDLInt);
static_assert(dtype_trait<uint16_t>::value.bits == 16);
static_assert(!has_value<char>::value && !has_value<std::string>::value);
static_assert(has_value<__half>::value && has_value<__hip_fp4x2_e2m1>::value);

TEST_CASE("extra/dtype: standard types", "[extra_dtype]") {
  CHECK(Name<int8_t>() == "int8");
  CHECK(Name<uint8_t>() == "uint8");
  CHECK(Name<int16_t>() == "int16");
  CHECK(Name<unsigned short>() == "uint16");
  CHECK(Name<int>() == "int32");
  CHECK(Name<unsigned>() == "uint32");
  CHECK(Name<long long>() == "int64");
  CHECK(Name<unsigned long>() == "uint64");
  CHECK(Name<float>() == "float32");
  CHECK(Name<double>() == "float64");
  CHECK(Name<bool>() == "bool");
}

TEST_CASE("extra/dtype: CUDA and HIP types", "[extra_dtype]") {
  CHECK(Name<__half>() == "float16");
  CHECK(Name<__nv_bfloat16>() == "bfloat16");
  CHECK(Name<hip_bfloat16>() == "bfloat16");
  CHECK(Name<__hip_bfloat16>() == "bfloat16");
  CHECK(Name<__nv_fp8_e4m3>() == "float8_e4m3fn");
  CHECK(Name<__hip_fp8_e4m3>() == "float8_e4m3fn");
  CHECK(Name<__hip_fp8_e4m3_fnuz>() == "float8_e4m3fnuz");
  CHECK(Name<__nv_fp8_e5m2>() == "float8_e5m2");
  CHECK(Name<__hip_fp8_e5m2>() == "float8_e5m2");
  CHECK(Name<__hip_fp8_e5m2_fnuz>() == "float8_e5m2fnuz");
  CHECK(Name<__nv_fp8_e8m0>() == "float8_e8m0fnu");
  CHECK(Name<__nv_fp4_e2m1>() == "float4_e2m1fn");
  CHECK(Name<__hip_fp4_e2m1>() == "float4_e2m1fn");
  CHECK(Name<__nv_fp4x2_e2m1>() == "float4_e2m1fnx2");
  CHECK(Name<__hip_fp4x2_e2m1>() == "float4_e2m1fnx2");
}

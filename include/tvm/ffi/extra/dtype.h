/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/dtype.h
 * \brief dtype_trait<T>::value: the DLDataType of a C++ element type, at
 *        compile time.
 *
 * Defined for the signed and unsigned integer types (`signed char` through
 * `unsigned long long`; plain `char` has none, its signedness being the
 * platform's), `float`, `double`, `bool` (kDLBool, 8 bits), and for the
 * half, bfloat16, float8 and float4 types of CUDA and HIP.  Those vendor
 * types are only declared here (at global scope, as their own headers
 * declare them), so this header needs neither toolkit; a kernel that uses
 * them includes the vendor header as usual.  For any other T,
 * dtype_trait<T> has no `value` (a compile error where it is used).
 *
 * \code{.cpp}
 * static_assert(tvm::ffi::dtype_trait<float>::value.bits == 32);
 * TVM_FFI_ICHECK(x.dtype() == tvm::ffi::dtype_trait<int64_t>::value);
 * \endcode
 */
#ifndef TVM_FFI_EXTRA_DTYPE_H_
#define TVM_FFI_EXTRA_DTYPE_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <type_traits>

// The vendor element types, declared only.  Both toolkits:
struct __half;
// CUDA (cuda_bf16.h, cuda_fp8.h, cuda_fp4.h):
struct __nv_bfloat16;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;
struct __nv_fp8_e8m0;
struct __nv_fp4_e2m1;
struct __nv_fp4x2_e2m1;
// HIP (hip_bf16.h, hip_fp8.h, hip_fp4.h):
struct __hip_bfloat16;
struct hip_bfloat16;
struct __hip_fp8_e4m3;
struct __hip_fp8_e4m3_fnuz;
struct __hip_fp8_e5m2;
struct __hip_fp8_e5m2_fnuz;
struct __hip_fp4_e2m1;
struct __hip_fp4x2_e2m1;

namespace tvm {
namespace ffi {

/*! \brief The DLDataType of T in `value`; only the specialisations below have one. */
template <typename T>
struct dtype_trait {};

namespace detail {
namespace dtypes {

/*! \brief A dtype_trait with value {code, bits, lanes}. */
template <uint8_t code, uint8_t bits, uint16_t lanes = 1>
struct fixed_trait {
  static constexpr DLDataType value = {code, bits, lanes};
};

/*! \brief kDLInt or kDLUInt by the signedness of T, sizeof(T) * 8 bits. */
template <typename T>
struct integer_trait
    : fixed_trait<static_cast<uint8_t>(std::is_signed_v<T> ? kDLInt : kDLUInt),
                  static_cast<uint8_t>(sizeof(T) * 8)> {};

/*! \brief kDLFloat, sizeof(T) * 8 bits. */
template <typename T>
struct float_trait
    : fixed_trait<static_cast<uint8_t>(kDLFloat), static_cast<uint8_t>(sizeof(T) * 8)> {};

}  // namespace dtypes
}  // namespace detail

/// \cond Doxygen_Suppress
template <>
struct dtype_trait<signed char> : detail::dtypes::integer_trait<signed char> {};
template <>
struct dtype_trait<unsigned char> : detail::dtypes::integer_trait<unsigned char> {};
template <>
struct dtype_trait<short> : detail::dtypes::integer_trait<short> {};
template <>
struct dtype_trait<unsigned short> : detail::dtypes::integer_trait<unsigned short> {};
template <>
struct dtype_trait<int> : detail::dtypes::integer_trait<int> {};
template <>
struct dtype_trait<unsigned int> : detail::dtypes::integer_trait<unsigned int> {};
template <>
struct dtype_trait<long> : detail::dtypes::integer_trait<long> {};
template <>
struct dtype_trait<unsigned long> : detail::dtypes::integer_trait<unsigned long> {};
template <>
struct dtype_trait<long long> : detail::dtypes::integer_trait<long long> {};
template <>
struct dtype_trait<unsigned long long> : detail::dtypes::integer_trait<unsigned long long> {};
template <>
struct dtype_trait<float> : detail::dtypes::float_trait<float> {};
template <>
struct dtype_trait<double> : detail::dtypes::float_trait<double> {};
template <>
struct dtype_trait<bool> : detail::dtypes::fixed_trait<kDLBool, 8> {};

template <>
struct dtype_trait<__half> : detail::dtypes::fixed_trait<kDLFloat, 16> {};

template <>
struct dtype_trait<__nv_bfloat16> : detail::dtypes::fixed_trait<kDLBfloat, 16> {};
template <>
struct dtype_trait<__nv_fp8_e4m3> : detail::dtypes::fixed_trait<kDLFloat8_e4m3fn, 8> {};
template <>
struct dtype_trait<__nv_fp8_e5m2> : detail::dtypes::fixed_trait<kDLFloat8_e5m2, 8> {};
template <>
struct dtype_trait<__nv_fp8_e8m0> : detail::dtypes::fixed_trait<kDLFloat8_e8m0fnu, 8> {};
template <>
struct dtype_trait<__nv_fp4_e2m1> : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4> {};
// Two float4 values packed in one byte: 2 lanes of 4 bits.
template <>
struct dtype_trait<__nv_fp4x2_e2m1> : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4, 2> {};

template <>
struct dtype_trait<__hip_bfloat16> : detail::dtypes::fixed_trait<kDLBfloat, 16> {};
template <>
struct dtype_trait<hip_bfloat16> : detail::dtypes::fixed_trait<kDLBfloat, 16> {};
template <>
struct dtype_trait<__hip_fp8_e4m3> : detail::dtypes::fixed_trait<kDLFloat8_e4m3fn, 8> {};
template <>
struct dtype_trait<__hip_fp8_e4m3_fnuz> : detail::dtypes::fixed_trait<kDLFloat8_e4m3fnuz, 8> {};
template <>
struct dtype_trait<__hip_fp8_e5m2> : detail::dtypes::fixed_trait<kDLFloat8_e5m2, 8> {};
template <>
struct dtype_trait<__hip_fp8_e5m2_fnuz> : detail::dtypes::fixed_trait<kDLFloat8_e5m2fnuz, 8> {};
template <>
struct dtype_trait<__hip_fp4_e2m1> : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4> {};
template <>
struct dtype_trait<__hip_fp4x2_e2m1> : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4, 2> {};
/// \endcond

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DTYPE_H_

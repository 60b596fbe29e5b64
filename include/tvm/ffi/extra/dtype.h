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

// The vendor element types, declared only (one line per family).
// Half precision, both toolkits:
struct __half;
// bfloat16: CUDA (cuda_bf16.h), then HIP (hip_bf16.h, which has two names):
struct __nv_bfloat16;
struct __hip_bfloat16; struct hip_bfloat16;  // NOLINT(whitespace/newline)
// 8-bit floats: CUDA (cuda_fp8.h), then HIP (hip_fp8.h):
struct __nv_fp8_e4m3; struct __nv_fp8_e5m2; struct __nv_fp8_e8m0;  // NOLINT(whitespace/newline)
struct __hip_fp8_e4m3; struct __hip_fp8_e4m3_fnuz;  // NOLINT(whitespace/newline)
struct __hip_fp8_e5m2; struct __hip_fp8_e5m2_fnuz;  // NOLINT(whitespace/newline)
// 4-bit floats, single and packed pairs: CUDA (cuda_fp4.h), then HIP (hip_fp4.h):
struct __nv_fp4_e2m1; struct __nv_fp4x2_e2m1;    // NOLINT(whitespace/newline)
struct __hip_fp4_e2m1; struct __hip_fp4x2_e2m1;  // NOLINT(whitespace/newline)

namespace tvm {
namespace ffi {

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

/*! \brief The DLDataType of T in `value`; only the specialisations below have one. */
template <typename T>
struct dtype_trait {};

/// \cond Doxygen_Suppress
// dtype_trait<Type> is the detail::dtypes trait named after the type.
#define TVM_FFI_DTYPE_TRAIT_(Type, ...) \
  template <>                           \
  struct dtype_trait<Type> : detail::dtypes::__VA_ARGS__ {}

TVM_FFI_DTYPE_TRAIT_(signed char, integer_trait<signed char>);
TVM_FFI_DTYPE_TRAIT_(unsigned char, integer_trait<unsigned char>);
TVM_FFI_DTYPE_TRAIT_(short, integer_trait<short>);
TVM_FFI_DTYPE_TRAIT_(unsigned short, integer_trait<unsigned short>);
TVM_FFI_DTYPE_TRAIT_(int, integer_trait<int>);
TVM_FFI_DTYPE_TRAIT_(unsigned int, integer_trait<unsigned int>);
TVM_FFI_DTYPE_TRAIT_(long, integer_trait<long>);
TVM_FFI_DTYPE_TRAIT_(unsigned long, integer_trait<unsigned long>);
TVM_FFI_DTYPE_TRAIT_(long long, integer_trait<long long>);
TVM_FFI_DTYPE_TRAIT_(unsigned long long, integer_trait<unsigned long long>);
TVM_FFI_DTYPE_TRAIT_(float, float_trait<float>);
TVM_FFI_DTYPE_TRAIT_(double, float_trait<double>);
TVM_FFI_DTYPE_TRAIT_(bool, fixed_trait<kDLBool, 8>);

TVM_FFI_DTYPE_TRAIT_(__half, fixed_trait<kDLFloat, 16>);

TVM_FFI_DTYPE_TRAIT_(__nv_bfloat16, fixed_trait<kDLBfloat, 16>);
TVM_FFI_DTYPE_TRAIT_(__nv_fp8_e4m3, fixed_trait<kDLFloat8_e4m3fn, 8>);
TVM_FFI_DTYPE_TRAIT_(__nv_fp8_e5m2, fixed_trait<kDLFloat8_e5m2, 8>);
TVM_FFI_DTYPE_TRAIT_(__nv_fp8_e8m0, fixed_trait<kDLFloat8_e8m0fnu, 8>);
TVM_FFI_DTYPE_TRAIT_(__nv_fp4_e2m1, fixed_trait<kDLFloat4_e2m1fn, 4>);
// Two float4 values packed in one byte: 2 lanes of 4 bits.
TVM_FFI_DTYPE_TRAIT_(__nv_fp4x2_e2m1, fixed_trait<kDLFloat4_e2m1fn, 4, 2>);

TVM_FFI_DTYPE_TRAIT_(__hip_bfloat16, fixed_trait<kDLBfloat, 16>);
TVM_FFI_DTYPE_TRAIT_(hip_bfloat16, fixed_trait<kDLBfloat, 16>);
TVM_FFI_DTYPE_TRAIT_(__hip_fp8_e4m3, fixed_trait<kDLFloat8_e4m3fn, 8>);
TVM_FFI_DTYPE_TRAIT_(__hip_fp8_e4m3_fnuz, fixed_trait<kDLFloat8_e4m3fnuz, 8>);
TVM_FFI_DTYPE_TRAIT_(__hip_fp8_e5m2, fixed_trait<kDLFloat8_e5m2, 8>);
TVM_FFI_DTYPE_TRAIT_(__hip_fp8_e5m2_fnuz, fixed_trait<kDLFloat8_e5m2fnuz, 8>);
TVM_FFI_DTYPE_TRAIT_(__hip_fp4_e2m1, fixed_trait<kDLFloat4_e2m1fn, 4>);
TVM_FFI_DTYPE_TRAIT_(__hip_fp4x2_e2m1, fixed_trait<kDLFloat4_e2m1fn, 4, 2>);
#undef TVM_FFI_DTYPE_TRAIT_
/// \endcond

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DTYPE_H_

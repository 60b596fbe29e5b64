/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/dtype.h
 * \brief DLDataType in an Any (kTVMFFIDataType), its text form ("float32",
 *        "int8x4", ...) through the runtime, and small predicates.
 */
#ifndef TVM_FFI_DTYPE_H_
#define TVM_FFI_DTYPE_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <ostream>
#include <string>

namespace tvm {
namespace ffi {

/*! \brief Type codes from this value up are custom (named by a registry). */
enum DLExtDataTypeCode { kDLExtCustomBegin = 129 };

namespace detail {

/*! \brief Long and short spellings of a built-in type code, e.g. {"bfloat", "bf"}. */
struct DTypeCodeNames {
  const char* name;
  const char* abbrev;
};

/*! \brief The names of code `code`, or nullptr for an unknown or custom code. */
inline const DTypeCodeNames* FindDTypeCodeNames(int code) {
  static constexpr DTypeCodeNames kNames[] = {
      {"int", "i"},
      {"uint", "u"},
      {"float", "f"},
      {"handle", "handle"},
      {"bfloat", "bf"},
      {nullptr, nullptr},  // kDLComplex: no name
      {"bool", "bool"},
      {"float8_e3m4", "f8_e3m4"},
      {"float8_e4m3", "f8_e4m3"},
      {"float8_e4m3b11fnuz", "f8_e4m3b11fnuz"},
      {"float8_e4m3fn", "f8_e4m3fn"},
      {"float8_e4m3fnuz", "f8_e4m3fnuz"},
      {"float8_e5m2", "f8_e5m2"},
      {"float8_e5m2fnuz", "f8_e5m2fnuz"},
      {"float8_e8m0fnu", "f8_e8m0fnu"},
      {"float6_e2m3fn", "f6_e2m3fn"},
      {"float6_e3m2fn", "f6_e3m2fn"},
      {"float4_e2m1fn", "f4_e2m1fn"},
  };
  if (code < 0 || code >= static_cast<int>(sizeof(kNames) / sizeof(kNames[0]))) return nullptr;
  return kNames[code].name == nullptr ? nullptr : &kNames[code];
}

/*!
 * \brief The name of a type code ("int", "float8_e4m3fn", ...); "custom" for
 *        a code from kDLExtCustomBegin; any other code is a ValueError.
 */
inline const char* DLDataTypeCodeAsCStr(DLDataTypeCode type_code) {  // NOLINT(*)
  const int code = static_cast<int>(type_code);
  if (const DTypeCodeNames* names = FindDTypeCodeNames(code)) return names->name;
  if (code >= static_cast<int>(kDLExtCustomBegin)) return "custom";
  TVM_FFI_THROW(ValueError) << "DLDataType contains unknown type_code=" << code;
  TVM_FFI_UNREACHABLE();
}

}  // namespace detail

/*! \brief Parses a dtype name ("float32", "int8x4", "bool", ...); a bad name throws. */
inline DLDataType StringToDLDataType(const String& str) {
  TVMFFIByteArray text{str.data(), str.size()};
  DLDataType out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&text, &out));
  return out;
}

/*! \brief The runtime's name of a dtype. */
inline String DLDataTypeToString(DLDataType dtype) {
  TVMFFIAny out;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &out));
  return TypeTraits<String>::MoveFromAnyAfterCheck(&out);
}

/*! \brief True for float, bfloat and the float8/6/4 codes. */
inline bool DTypeIsFloat(DLDataType dtype) {
  return dtype.code == kDLFloat || dtype.code == kDLBfloat ||
         (dtype.code >= kDLFloat8_e3m4 && dtype.code <= kDLFloat4_e2m1fn);
}
/*! \brief True for signed and unsigned integers. */
TVM_FFI_INLINE bool DTypeIsInt(DLDataType dtype) {
  return dtype.code == kDLInt || dtype.code == kDLUInt;
}
TVM_FFI_INLINE bool DTypeIsBool(DLDataType dtype) { return dtype.code == kDLBool; }

/*!
 * \brief A short name: "i32", "u8", "f16x4", "bf16", "f8_e4m3fn", "bool",
 *        "void" (handle with 0 bits and 0 lanes), "handle"; custom codes use
 *        the runtime's full name.  Bits are written for the codes below the
 *        float8 family (except 8-bit bool); lanes > 1 add "x<lanes>", a
 *        scalable vector (lanes below -1, read as int16) "xvscalex<n>".
 */
inline std::string DTypeAbbrev(DLDataType dtype) {
  if (dtype.code == kDLBool && dtype.bits == 8 && dtype.lanes == 1) return "bool";
  if (dtype.code == kDLOpaqueHandle) return dtype.bits == 0 && dtype.lanes == 0 ? "void" : "handle";
  const detail::DTypeCodeNames* names = detail::FindDTypeCodeNames(dtype.code);
  if (names == nullptr) {
    if (dtype.code >= static_cast<int>(kDLExtCustomBegin)) {
      return std::string(DLDataTypeToString(dtype));
    }
    TVM_FFI_THROW(ValueError) << "DLDataType contains unknown type_code="
                              << static_cast<int>(dtype.code);
  }
  std::string out = names->abbrev;
  if (dtype.code < kDLFloat8_e3m4 && !(dtype.code == kDLBool && dtype.bits == 8)) {
    out += std::to_string(static_cast<int>(dtype.bits));
  }
  const int16_t lanes = static_cast<int16_t>(dtype.lanes);
  if (lanes > 1) {
    out += "x" + std::to_string(lanes);
  } else if (lanes < -1) {
    out += "xvscalex" + std::to_string(-lanes);
  }
  return out;
}

/*! \brief DLDataType: kTVMFFIDataType; a dtype name converts (a bad name throws). */
template <>
struct TypeTraits<DLDataType>
    : public detail::PodTraitsBase<TypeTraits<DLDataType>, DLDataType, TypeIndex::kTVMFFIDataType,
                                   &StaticTypeKey::kTVMFFIDataType> {
  TVM_FFI_INLINE static void CopyToAnyView(const DLDataType& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIDataType);
    result->v_dtype = src;
  }
  TVM_FFI_INLINE static DLDataType CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return src->v_dtype;
  }
  TVM_FFI_INLINE static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIDataType) return src->v_dtype;
    std::optional<std::string> text = TypeTraits<std::string>::TryCastFromAnyView(src);
    if (!text.has_value()) return std::nullopt;
    return StringToDLDataType(*text);
  }
};

}  // namespace ffi
}  // namespace tvm

/*! \brief Prints the runtime's name of the dtype. */
inline std::ostream& operator<<(std::ostream& os, DLDataType dtype) {  // NOLINT(*)
  return os << tvm::ffi::DLDataTypeToString(dtype);
}
/*! \brief Same code, bits and lanes. */
inline bool operator==(const DLDataType& lhs, const DLDataType& rhs) {
  return lhs.code == rhs.code && lhs.bits == rhs.bits && lhs.lanes == rhs.lanes;
}
inline bool operator!=(const DLDataType& lhs, const DLDataType& rhs) { return !(lhs == rhs); }

#endif  // TVM_FFI_DTYPE_H_
